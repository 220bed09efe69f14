package dev.idiom.wrappers.bibsonomy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.AnnotationToolContract;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.FakeTime;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.ToolAuthException;
import dev.idiom.wrappers.ToolException;
import java.util.List;
import dev.idiom.wrappers.http.ToolHttp;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BibSonomyToolTest extends AnnotationToolContract {
    private final BibSonomyStub stub = new BibSonomyStub();
    private final FakeTime time = new FakeTime();

    @AfterEach
    void stop() {
        stub.close();
    }

    private BibSonomyTool bibsonomy(String key) {
        return new BibSonomyTool(stub.uri(), BibSonomyStub.USER, key, new ToolHttp("BibSonomy", BibSonomyTool.LIMITS, time, time, 3));
    }

    @Override
    protected AnnotationTool tool() {
        return bibsonomy(BibSonomyStub.KEY);
    }

    @Override
    protected Set<Field> fieldsKept() {
        return dev.idiom.wrappers.BibTeXMapping.entryFields(); // what an entry holds; a post's other misc fields stay BibSonomy's
    }

    @Override
    protected boolean preciseChanges() {
        return false;
    }

    @Test
    void aTagThatActsInBibSonomyIsWrittenOnlyWhenItCameFromThatPost() {
        BibSonomyTool b = bibsonomy(BibSonomyStub.KEY);
        // the stub acts as the site does: a for: tag copies the post into the group
        stub.postOnSite("<post description=\"\"><user name=\"" + BibSonomyStub.USER + "\"/><group name=\"public\"/><tag name=\"for:kde\"/>"
                + "<bookmark url=\"https://example.org/shared\" title=\"Shared with a group\"/></post>");
        assertEquals(1, stub.groupCopies("kde").size());

        Metadata acting = sample(1).with(Field.TAGS, new java.util.TreeSet<>(Set.of("kept", "for:friends", "send:stranger", "myown",
                "sys:relevantFor:kde", "System:Unfiled")));
        RemoteRecord created = b.create(acting);
        assertEquals(Set.of("kept"), created.metadata().tags(), "none of them came from this post");
        assertEquals(List.of(), stub.groupCopies("friends"));
        assertEquals(List.of(), stub.inbox("stranger"));
        assertEquals(List.of(), stub.cv());
        // one that the post had on the site is its own: written back as it was
        Metadata known = created.metadata().with(Field.TAGS, new java.util.TreeSet<>(Set.of("kept", "myown")));
        assertEquals(Set.of("kept", "myown"), b.writable(acting, known).tags());
    }

    @Test
    void anEditGivesThePostANewHashAndTheOldOneIsGone() {
        BibSonomyTool b = bibsonomy(BibSonomyStub.KEY);
        RemoteRecord r = b.create(sample(1));
        RemoteRecord updated = b.update(r, sample(1).with(Field.TITLE, "Renamed"));
        assertNotEquals(r.remoteId(), updated.remoteId(), "re-keyed");
        assertTrue(b.fetch(r.remoteId()).isEmpty());
        assertThrows(RemoteChangedException.class, () -> b.update(r, sample(1)));
    }

    @Test
    void anEditOnTheSiteIsDetectedByItsChangeDate() {
        BibSonomyTool b = bibsonomy(BibSonomyStub.KEY);
        RemoteRecord r = b.create(sample(1));
        stub.touch(r.remoteId());
        assertThrows(RemoteChangedException.class, () -> b.update(r, sample(1)));
    }

    @Test
    void aWholeListingFollowsTheNextLinksAndNamesTheUnchangedPostsAsPresent() {
        BibSonomyTool b = bibsonomy(BibSonomyStub.KEY);
        for (int i = 0; i < 45; i++) {
            b.create(sample(i));
        }
        b.create(sample(99).with(Field.TYPE, "webpage"));
        int before = stub.requests();
        ChangePage page = b.changedSince(null);
        Set<String> seen = new HashSet<>();
        page.records().forEach(r -> seen.add(r.remoteId()));
        assertEquals(46, seen.size());
        assertTrue(stub.requests() - before >= 4, "list requests: " + (stub.requests() - before));
        assertTrue(page.complete(), "every post listed: a copy not listed was deleted");
        // a whole listing later names the same posts as present, none changed
        time.pause(BibSonomyTool.FULL_LISTING_EVERY);
        ChangePage again = b.changedSince(page.cursor());
        assertEquals(0, again.records().size());
        assertTrue(again.complete());
        assertEquals(seen, new HashSet<>(again.present()));
        assertTrue(b.listingMayMissRecords(), "offset pages: a post left out is fetched before it counts as deleted");
    }

    @Test
    void betweenWholeListingsAPullReadsOnlyTheNewestPagesAndTheNextWholeListingSeesOlderEdits() {
        BibSonomyTool b = bibsonomy(BibSonomyStub.KEY);
        List<String> hashes = new java.util.ArrayList<>();
        for (int i = 0; i < 45; i++) {
            hashes.add(b.create(sample(i)).remoteId());
        }
        String cursor = b.changedSince(null).cursor();
        // a new post, and an edit on the site of the oldest one
        String added = b.create(sample(46)).remoteId();
        stub.touch(hashes.getFirst());
        int before = stub.requests();
        ChangePage quick = b.changedSince(cursor);
        assertEquals(2, stub.requests() - before, "one page of publications, one of bookmarks: the rest is older");
        assertEquals(List.of(added), quick.records().stream().map(RemoteRecord::remoteId).toList());
        assertFalse(quick.complete(), "not a whole listing: nothing can be taken for deleted");
        // the whole listing due after FULL_LISTING_EVERY brings the older post's edit
        time.pause(BibSonomyTool.FULL_LISTING_EVERY);
        ChangePage whole = b.changedSince(quick.cursor());
        assertEquals(List.of(hashes.getFirst()), whole.records().stream().map(RemoteRecord::remoteId).toList());
        assertTrue(whole.complete());
        assertEquals(45, whole.present().size());
    }

    @Test
    void wrongCredentialsStopWithAClearMessage() {
        assertThrows(ToolAuthException.class, () -> bibsonomy("wrong").changedSince(null));
    }

    private static final String RICH_POST = """
            <post description="read for the seminar"><user name="curator"/><tag name="replication"/><group name="private"/><group name="kde"/>
            <bibtex entrytype="incollection" bibtexKey="saito2005optimistic" title="Optimistic replication" author="Saito, Yasushi and Shapiro, Marc"
             editor="Mullender, Sape" year="2005" booktitle="Replication: Theory and Practice" publisher="Springer" series="LNCS"
             number="5959" month="mar" edition="2" pages="42--81" misc="isbn = {978-3-642-11293-5}, issn = {0302-9743}, doi = {10.1007/978-3-642-11294-2_1}"/>
            </post>
            """;

    @Test
    void anUpdateKeepsGroupsKeyMiscAndEveryAttributeIdiomDoesNotModel() {
        BibSonomyTool b = bibsonomy(BibSonomyStub.KEY);
        String hash = stub.postOnSite(RICH_POST);
        RemoteRecord read = b.fetch(hash).orElseThrow();
        assertEquals("chapter", read.metadata().type());
        assertEquals("Replication: Theory and Practice", read.metadata().venue(), "an incollection's container-title is its booktitle");
        assertEquals("10.1007/978-3-642-11294-2_1", read.metadata().doi());
        assertEquals("Springer", read.metadata().publisher());
        assertEquals("LNCS", read.metadata().collectionTitle());
        assertEquals("5959", read.metadata().collectionNumber(), "an incollection's number is its number in the series");
        assertEquals(List.of(new Author("Mullender", "Sape")), read.metadata().editors());
        assertEquals(3, read.metadata().month());
        assertEquals("978-3-642-11293-5", read.metadata().isbn(), "read from misc");
        assertEquals("saito2005optimistic", read.metadata().citationKey());

        RemoteRecord updated = b.update(read, read.metadata().with(Field.PAGES, "43--82").with(Field.DOI, "10.1007/978-3-642-11294-2_2"));
        String post = stub.post(updated.remoteId());
        assertEquals(hash, updated.remoteId(), "pages and misc are not part of the hash");
        for (String kept : List.of("<group name=\"private\"/>", "<group name=\"kde\"/>", "bibtexKey=\"saito2005optimistic\"",
                "entrytype=\"incollection\"", "editor=\"Mullender, Sape\"", "series=\"LNCS\"", "number=\"5959\"", "month=\"mar\"",
                "edition=\"2\"", "publisher=\"Springer\"", "isbn = {978-3-642-11293-5}", "issn = {0302-9743}")) {
            assertTrue(post.contains(kept), kept + " kept in " + post);
        }
        assertTrue(post.contains("doi = {10.1007/978-3-642-11294-2_2}"), post);
        assertTrue(post.contains("pages=\"43--82\""), post);
        assertFalse(post.contains("group name=\"public\""), "not made public: " + post);
    }

    @Test
    void newPostsArePrivateAndCarryEveryRequiredField() {
        BibSonomyTool b = bibsonomy(BibSonomyStub.KEY);
        RemoteRecord r = b.create(sample(1));
        String post = stub.post(r.remoteId());
        assertTrue(post.contains("<group name=\"private\"/>"), post);
        assertTrue(post.contains("bibtexKey=\"saito2005part1\""), "the citation key is the post's key: " + post);
        assertTrue(b.create(sample(3).with(Field.CITATION_KEY, null)).shadow().contains("bibtexKey=\"saito2005optimistic\""),
                "without one, BibSonomy's own suggestion");
        ToolException noYear = assertThrows(ToolException.class, () -> b.create(sample(2).with(Field.YEAR, null)));
        assertTrue(noYear.getMessage().contains("year"), noYear.getMessage());
    }

    @Test
    void aPostEditedOnTheSiteUnderANewHashIsTheSameCopyByItsKey() {
        BibSonomyTool b = bibsonomy(BibSonomyStub.KEY);
        RemoteRecord r = b.create(sample(1));
        String moved = stub.editOnSite(r.remoteId(), "title", "Optimistic replication (extended)");
        RemoteRecord now = b.fetch(moved).orElseThrow();
        assertTrue(b.succeeds(now, r));
        RemoteRecord other = b.create(sample(2).with(Field.AUTHORS, List.of(new dev.idiom.events.Author("Lamport", "Leslie"))));
        assertFalse(b.succeeds(other, r), "another key is another post");
    }

    @Test
    void theStubHashesAsBibSonomyDoesAndRefusesMissingRequiredFields() {
        String bookmark = stub.postOnSite("<post><user name=\"curator\"/><bookmark url=\"https://example.org/x\" title=\"X\"/></post>");
        assertEquals(dev.idiom.wrappers.StubServer.md5("https://example.org/x"), bookmark, "a bookmark's hash is the MD5 of its URL");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> stub.postOnSite(
                "<post><user name=\"curator\"/><bibtex entrytype=\"article\" bibtexKey=\"k\" title=\"T\" author=\"A\"/></post>"));
        assertTrue(e.getMessage().contains("year"), e.getMessage());
    }
}
