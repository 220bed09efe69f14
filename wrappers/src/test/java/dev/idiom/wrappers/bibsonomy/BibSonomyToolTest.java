package dev.idiom.wrappers.bibsonomy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Field;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.AnnotationToolContract;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.FakeTime;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.ToolAuthException;
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
        return EnumSet.allOf(Field.class);
    }

    @Override
    protected boolean preciseChanges() {
        return false;
    }

    @Test
    void anEditGivesThePostANewHashAndTheOldOneIsGone() {
        BibSonomyTool b = bibsonomy(BibSonomyStub.KEY);
        RemoteRecord r = b.create(sample(1));
        RemoteRecord updated = b.update(r.remoteId(), sample(1).with(Field.TITLE, "Renamed"), r.version());
        assertNotEquals(r.remoteId(), updated.remoteId(), "re-keyed");
        assertTrue(b.fetch(r.remoteId()).isEmpty());
        assertThrows(RemoteChangedException.class, () -> b.update(r.remoteId(), sample(1), r.version()));
    }

    @Test
    void anEditOnTheSiteIsDetectedByItsChangeDate() {
        BibSonomyTool b = bibsonomy(BibSonomyStub.KEY);
        RemoteRecord r = b.create(sample(1));
        stub.touch(r.remoteId());
        assertThrows(RemoteChangedException.class, () -> b.update(r.remoteId(), sample(1), r.version()));
    }

    @Test
    void pagesFollowTheNextLinkThroughPublicationsThenBookmarks() {
        BibSonomyTool b = bibsonomy(BibSonomyStub.KEY);
        for (int i = 0; i < 45; i++) {
            b.create(sample(i));
        }
        b.create(sample(99).with(Field.TYPE, "webpage"));
        Set<String> seen = new HashSet<>();
        String cursor = null;
        int pages = 0;
        ChangePage page;
        do {
            page = b.changedSince(cursor);
            page.records().forEach(r -> seen.add(r.remoteId()));
            cursor = page.cursor();
            pages++;
        } while (page.more());
        assertEquals(46, seen.size());
        assertTrue(pages >= 4, "pages: " + pages);
    }

    @Test
    void wrongCredentialsStopWithAClearMessage() {
        assertThrows(ToolAuthException.class, () -> bibsonomy("wrong").changedSince(null));
    }
}
