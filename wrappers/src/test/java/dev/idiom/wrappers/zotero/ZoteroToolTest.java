package dev.idiom.wrappers.zotero;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Author;
import dev.idiom.events.Metadata;
import dev.idiom.events.Field;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.AnnotationToolContract;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.StubServer.Reply;
import dev.idiom.wrappers.ToolAuthException;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.http.ToolHttp;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ZoteroToolTest extends AnnotationToolContract {
    @Override
    protected boolean trashes() {
        return true;
    }

    private final ZoteroStub stub = new ZoteroStub();
    private final List<Duration> waits = new ArrayList<>();

    @AfterEach
    void stop() {
        stub.close();
    }

    private ZoteroTool zotero(String key) {
        return new ZoteroTool(stub.uri(), ZoteroStub.LIBRARY, key, new ToolHttp("Zotero", ZoteroTool.LIMITS, Clock.systemUTC(), waits::add, 4));
    }

    @Override
    protected AnnotationTool tool() {
        return zotero(ZoteroStub.KEY);
    }

    @Override
    protected Set<Field> fieldsKept() {
        return EnumSet.complementOf(EnumSet.of(Field.NOTES, Field.BIBTEX_EXTRAS)); // Zotero's notes are child items; extra is data
    }

    @Test
    void aRemoteEditMakesOurVersionStale() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        RemoteRecord r = z.create(sample(1));
        stub.editRemotely(r.remoteId(), "Edited in Zotero");
        assertThrows(dev.idiom.wrappers.RemoteChangedException.class, () -> z.update(r, sample(1).with(Field.TITLE, "Edited in Idiom")));
        assertEquals("Edited in Zotero", z.fetch(r.remoteId()).orElseThrow().metadata().title());
    }

    @Test
    void aCreateWhoseAnswerWasLostIsRetriedUnderItsOwnKeyAndLeavesOneItem() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        java.util.concurrent.atomic.AtomicBoolean lose = new java.util.concurrent.atomic.AtomicBoolean(true);
        stub.beforeReply(line -> {
            if (line.startsWith("POST ") && lose.getAndSet(false)) {
                throw new IllegalStateException("the answer is lost on its way"); // the item was created; the connection drops
            }
        });
        RemoteRecord r = z.create(sample(7));

        assertEquals(List.of("POST /users/475425/items 200", "POST /users/475425/items 200"), stub.writes(), "sent twice, as the answer was lost");
        ChangePage all = z.changedSince(null);
        assertEquals(List.of(r.remoteId()), all.records().stream().map(RemoteRecord::remoteId).toList(), "one item, the one returned");
        assertEquals(sample(7).title(), all.records().getFirst().metadata().title());
    }

    @Test
    void theStubRefusesWhatZoteroRefusesOfClientMadeKeys() throws Exception {
        var http = java.net.http.HttpClient.newHttpClient();
        java.util.function.Function<String, String> post = body -> {
            try {
                return http.send(java.net.http.HttpRequest.newBuilder(stub.uri().resolve("/users/475425/items")).header("Zotero-API-Key", ZoteroStub.KEY)
                        .header("Zotero-API-Version", "3").header("Content-Type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        assertTrue(post.apply("[{\"itemType\":\"book\",\"title\":\"T\",\"key\":\"ABCD2345\",\"version\":0}]").contains("\"0\":\"ABCD2345\""));
        assertTrue(post.apply("[{\"itemType\":\"book\",\"title\":\"T\",\"key\":\"ABCD2345\",\"version\":0}]").contains("\"code\":412"));
        assertTrue(post.apply("[{\"itemType\":\"book\",\"title\":\"T\",\"key\":\"ZZZZ2345\",\"version\":5}]").contains("\"code\":404"));
        assertTrue(post.apply("[{\"itemType\":\"book\",\"title\":\"T\",\"key\":\"ZZZZ2345\"}]").contains("\"code\":428"));
        assertTrue(post.apply("[{\"itemType\":\"book\",\"title\":\"T\",\"key\":\"abc\",\"version\":0}]").contains("\"code\":400"));
    }

    @Test
    void moreThanFiftyChangedItemsAreFetchedInBatchesAndDeletionsAreListed() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        List<RemoteRecord> made = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            made.add(z.create(sample(i)));
        }
        ChangePage all = z.changedSince(null);
        assertEquals(120, all.records().size());
        z.delete(made.get(3).remoteId(), made.get(3).version());
        ChangePage after = z.changedSince(all.cursor());
        assertEquals(List.of(made.get(3).remoteId()), after.deleted());
        assertTrue(after.records().isEmpty());
        assertEquals(0, z.changedSince(after.cursor()).records().size());
    }

    @Test
    void rateLimitsAndServerErrorsAreWaitedOutAndRetried() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        stub.failNext(Reply.of(429, "Too Many Requests", "Retry-After", "7"));
        stub.failNext(Reply.of(503, "Service Unavailable"));
        RemoteRecord r = z.create(sample(1));
        assertTrue(z.fetch(r.remoteId()).isPresent());
        assertEquals(Duration.ofSeconds(7), waits.getFirst(), "Retry-After honoured");
        assertEquals(2, waits.size(), "one wait per failed attempt: " + waits);
    }

    @Test
    void aBackoffHeaderDelaysTheNextRequest() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        stub.failNext(Reply.of(404, "Not found", "Backoff", "30", "Last-Modified-Version", "0"));
        z.fetch("ANY").isPresent();
        z.fetch("ANY");
        assertTrue(waits.stream().anyMatch(w -> w.toSeconds() >= 28), "waited out Backoff: " + waits);
    }

    @Test
    void aBackoffAskedOfOneLibrarysCallHoldsEveryLibraryCalledWithTheSameKey() {
        List<Duration> paused = new ArrayList<>();
        dev.idiom.wrappers.registry.ToolRegistry registry = new dev.idiom.wrappers.registry.ToolRegistry(Clock.systemUTC(), paused::add,
                dev.idiom.wrappers.http.ToolHosts.ANY, dev.idiom.wrappers.http.CallBounds.DEFAULTS, null,
                dev.idiom.wrappers.registry.FilesDir.at(java.nio.file.Path.of(System.getProperty("java.io.tmpdir"))));
        AnnotationTool mine = registry.open(new dev.idiom.wrappers.registry.ToolRegistry.Account("mine", "zotero", stub.uri().toString(),
                ZoteroStub.LIBRARY, ZoteroStub.KEY, false, false));
        AnnotationTool group = registry.open(new dev.idiom.wrappers.registry.ToolRegistry.Account("group", "zotero", stub.uri().toString(),
                "groups/42", ZoteroStub.KEY, false, false));
        AnnotationTool otherKey = registry.open(new dev.idiom.wrappers.registry.ToolRegistry.Account("other", "zotero", stub.uri().toString(),
                "users/7", "another-key", false, false));
        stub.failNext(Reply.of(404, "Not found", "Backoff", "30", "Last-Modified-Version", "0"));
        mine.fetch("ANY");
        paused.clear();
        assertThrows(ToolException.class, () -> otherKey.fetch("ANY")); // the stub serves one key: refused, but not held
        assertTrue(paused.stream().noneMatch(w -> w.toSeconds() >= 20), "an account with another key does not wait: " + paused);
        try {
            group.fetch("ANY");
        } catch (ToolException refusedByTheStub) {
            // the stub serves one library: what matters is the wait before the call
        }
        assertTrue(paused.stream().anyMatch(w -> w.toSeconds() >= 28), "Zotero's Backoff is the key's: the group waits it out too: " + paused);
    }

    @Test
    void aLibraryThatChangedWhileItWasListedGivesNoCompleteListing() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        List<RemoteRecord> made = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            made.add(z.create(sample(i)));
        }
        assertTrue(z.changedSince(null).complete(), "a quiet library's full listing is complete");
        java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
        stub.beforeReply(line -> {
            if (line.contains("/items/top") && once.compareAndSet(false, true)) {
                stub.editRemotely(made.get(1).remoteId(), "Edited while listed"); // after the versions were listed, before the items are fetched
            }
        });
        ChangePage listed = z.changedSince(null);
        assertFalse(listed.complete(), "items fetched at another library version than the listing: what it lacks is not gone");
    }

    @Test
    void anEmptyOrCutOffAnswerIsRefusedWholeNotReadAsAnEmptyLibrary() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        z.create(sample(1));
        stub.failNext(Reply.of(200, "", "Last-Modified-Version", "9", "Content-Type", "application/json"));
        assertThrows(ToolException.class, () -> z.changedSince(null));
        stub.failNext(Reply.of(200, "{\"ABCD2345\": 3, \"EFGH", "Last-Modified-Version", "9", "Content-Type", "application/json"));
        assertThrows(ToolException.class, () -> z.changedSince(null));
        assertEquals(1, z.changedSince(null).records().size());
    }

    @Test
    void aWrongKeyStopsTheSyncWithAClearMessage() {
        ToolException e = assertThrows(ToolAuthException.class, () -> zotero("wrong").changedSince(null));
        assertTrue(e.getMessage().contains("403"), e.getMessage());
    }

    @Test
    void aServerThatKeepsFailingIsGivenUpOnWithAReason() {
        for (int i = 0; i < 4; i++) {
            stub.failNext(Reply.of(500, "boom"));
        }
        ToolException e = assertThrows(ToolException.class, () -> zotero(ZoteroStub.KEY).changedSince(null));
        assertTrue(e.getMessage().contains("500"), e.getMessage());
    }

    private static final String RICH_BOOK_SECTION = """
            {"itemType": "bookSection", "title": "Replication in practice", "bookTitle": "Distributed Systems, 3rd ed.",
             "creators": [{"creatorType": "author", "firstName": "Marc", "lastName": "Shapiro"},
                          {"creatorType": "editor", "firstName": "Sape", "lastName": "Mullender"},
                          {"creatorType": "author", "name": "The Replication Group"}],
             "date": "1993-03-14", "pages": "1--22", "publisher": "Addison-Wesley", "ISBN": "0-201-62427-3", "language": "en",
             "tags": [{"tag": "replication", "type": 1}, {"tag": "classic"}],
             "collections": ["BCDE2345"], "relations": {"owl:sameAs": "http://zotero.org/groups/1/items/ABCD2345"}}
            """;

    @Test
    void anUpdateThroughIdiomLeavesEveryPropertyIdiomDoesNotModelAsItWas() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        String key = stub.addRemotely(RICH_BOOK_SECTION);
        RemoteRecord read = z.fetch(key).orElseThrow();
        assertEquals("chapter", read.metadata().type());
        assertEquals("Distributed Systems, 3rd ed.", read.metadata().venue(), "bookTitle is the container-title of a book section");
        assertEquals(List.of(new Author("Shapiro", "Marc"), new Author("The Replication Group", "")), read.metadata().authors(),
                "editors are not authors; a single-field name is one family name");
        assertEquals(List.of(new Author("Mullender", "Sape")), read.metadata().editors());
        assertEquals("Addison-Wesley", read.metadata().publisher());
        assertEquals("0-201-62427-3", read.metadata().isbn());
        assertEquals(3, read.metadata().month());
        assertEquals(14, read.metadata().day());

        z.update(read, read.metadata().with(Field.TITLE, "Replication in practice, revised").with(Field.YEAR, 1994).withTag("cfdar"));
        RemoteRecord reread = z.fetch(key).orElseThrow();
        z.update(reread, reread.metadata().with(Field.AUTHORS, List.of(new Author("Shapiro", "Marc"), new Author("The Replication Group", ""),
                new Author("Saito", "Yasushi"))));

        var data = stub.data(key);
        assertEquals("Replication in practice, revised", data.path("title").asText());
        assertEquals("bookSection", data.path("itemType").asText(), "the item type is not collapsed to book");
        assertEquals("1994-03-14", data.path("date").asText(), "only the year of the full date changed");
        assertEquals("[\"BCDE2345\"]", data.path("collections").toString());
        assertEquals("http://zotero.org/groups/1/items/ABCD2345", data.path("relations").path("owl:sameAs").asText());
        assertEquals("0-201-62427-3", data.path("ISBN").asText());
        assertEquals("en", data.path("language").asText());
        assertEquals("Addison-Wesley", data.path("publisher").asText());
        assertEquals(4, data.path("creators").size());
        assertEquals("Saito", data.path("creators").get(2).path("lastName").asText(), "a new author joins the authors");
        assertEquals("editor", data.path("creators").get(3).path("creatorType").asText(), "the editor is kept, after the authors");
        assertEquals("The Replication Group", data.path("creators").get(1).path("name").asText(), "a name creator stays one field");
        assertEquals(1, data.path("tags").get(0).path("type").asInt(), "an automatic tag stays automatic");
        assertEquals(3, data.path("tags").size());
    }

    @Test
    void aFieldTheServicesOwnSchemaLacksGoesToAnExtraLineInsteadOfGettingTheWriteRefused() {
        stub.servesSchemaWithout("journalArticle", "citationKey"); // a server from before Zotero had citation keys
        ZoteroTool z = zotero(ZoteroStub.KEY);
        Metadata m = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Schema drift").with(Field.CITATION_KEY, "drift2024");
        RemoteRecord made = z.create(m);
        var data = stub.data(made.remoteId());
        assertTrue(data.path("citationKey").isMissingNode(), "not a field this server knows: " + data);
        assertTrue(data.path("extra").asText().contains("drift2024"), "an extra line Zotero reads: " + data);
        assertEquals("drift2024", z.fetch(made.remoteId()).orElseThrow().metadata().citationKey(), "read back from its extra line");
        assertEquals(1, stub.schemaRequests(), "the schema asked for once");
        z.update(z.fetch(made.remoteId()).orElseThrow(), m.with(Field.VOLUME, "12"));
        assertEquals(1, stub.schemaRequests(), "and kept for the hour the Zotero API asks clients to keep it");
        assertEquals("'citationKey' is not a valid field for type 'journalArticle'", ZoteroStub.invalid(z.schema(), json("""
                {"itemType": "journalArticle", "title": "Schema drift", "citationKey": "drift2024"}""")), "the schema Idiom wrote by is the server's own");
    }

    /** A TV broadcast with a field of every kind no CSL variable holds, shapes met in Zotero's own test items. */
    private static final String BROADCAST = """
            {"itemType": "tvBroadcast", "title": "The Replication Hour", "abstractNote": "Why copies disagree.",
             "creators": [{"creatorType": "director", "firstName": "Ada", "lastName": "Byron"},
                          {"creatorType": "castMember", "firstName": "Alan", "lastName": "Turing"},
                          {"creatorType": "producer", "name": "BBC Studios"},
                          {"creatorType": "guest", "firstName": "Grace", "lastName": "Hopper"}],
             "programTitle": "Systems Tonight", "episodeNumber": "12", "videoRecordingFormat": "VHS", "network": "BBC Two",
             "place": "London", "date": "Summer 1993", "runningTime": "58 min", "url": "https://example.org/e12",
             "accessDate": "2024-03-05T10:22:33Z", "archive": "BBC Archive", "archiveLocation": "Box 4", "shortTitle": "Replication",
             "language": "en", "libraryCatalog": "WorldCat", "callNumber": "TV 12", "rights": "CC BY",
             "extra": "Shown on a Tuesday.\\ntex.howpublished: broadcast",
             "tags": [{"tag": "tv"}], "collections": ["BCDE2345"], "relations": {}}
            """;

    @Test
    void anItemReachesACopyInAnotherZoteroLibraryWithEveryFieldItsTypeHas() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        String key = stub.addRemotely(BROADCAST);
        Metadata read = z.fetch(key).orElseThrow().metadata();
        assertEquals("broadcast", read.type());
        assertEquals("Summer 1993", read.extras(Field.ZOTERO_EXTRAS).get("date"), "the date as typed: " + read.zoteroExtras());
        assertEquals(1993, read.year());

        RemoteRecord copy = z.create(read); // what a mirror into another Zotero library sends: the DE's record
        var source = stub.data(key);
        var made = stub.data(copy.remoteId());
        for (var f : (Iterable<java.util.Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>>) source.properties()::iterator) {
            if (!Set.of("key", "version", "collections", "relations", "dateAdded", "dateModified").contains(f.getKey())) {
                assertEquals(f.getValue(), made.get(f.getKey()), f.getKey() + " of the copy: " + made);
            }
        }
        assertEquals(read, z.fetch(copy.remoteId()).orElseThrow().metadata(),
                "the copy reads as the source: nothing owed either way");
        assertEquals(read, z.writable(read, read), "an idle sync owes the source nothing");
    }

    @Test
    void aYearBeforeTheCommonEraIsNoYearAndAnIntervalIsItsStartAndBothReachACopyAsTyped() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        for (String[] c : new String[][] {{"-0333", null}, {"-0099-07-12/-0043-03-15", null}, {"2014-12-31/2015-01-01", "2014-12-31"},
                {"0000", null}}) {
            String key = stub.addRemotely("{\"itemType\": \"book\", \"title\": \"Dated " + c[0] + "\", \"date\": \"" + c[0]
                    + "\", \"creators\": [], \"tags\": [], \"collections\": [], \"relations\": {}}");
            Metadata read = z.fetch(key).orElseThrow().metadata();
            String iso = read.year() == null ? null : read.year() + (read.month() == null ? "" : String.format("-%02d-%02d", read.month(), read.day()));
            assertEquals(c[1], iso, c[0] + " read as the record's date (333 BCE is not the year 333)");
            RemoteRecord copy = z.create(read);
            assertEquals(c[0], stub.data(copy.remoteId()).path("date").asText(), "the copy's date as typed");
        }
    }

    @Test
    void aDateInNumbersIsReadAsZoteroReadsItAndReachesACopyAsTyped() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        // as Zotero's strToDate: year first is y/m/d; year last is m/d/y, or d/m/y where the first cannot be a month; two numbers a month and a year
        for (String[] c : new String[][] {{"2016/12/01", "2016-12-01"}, {"7/1994", "1994-07"}, {"22/09/2020", "2020-09-22"},
                {"05/09/2020", "2020-05-09"}, {"1994/7", "1994-07"}, {"13/13/2020", "2020"}, {"12.05.2019", "2019-12-05"}}) {
            String key = stub.addRemotely("{\"itemType\": \"book\", \"title\": \"Dated " + c[0] + "\", \"date\": \"" + c[0]
                    + "\", \"creators\": [], \"tags\": [], \"collections\": [], \"relations\": {}}");
            Metadata read = z.fetch(key).orElseThrow().metadata();
            String iso = read.year() + (read.month() == null ? "" : String.format("-%02d", read.month())) + (read.day() == null ? "" : String.format("-%02d", read.day()));
            assertEquals(c[1], iso, c[0]);
            assertEquals(c[0], stub.data(z.create(read).remoteId()).path("date").asText(), "the copy's date as typed");
        }
    }

    @Test
    void aValueTheItemHeldBeforeIdiomReadItsFieldIsNeverOverwrittenUnseen() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        String key = stub.addRemotely("""
                {"itemType": "book", "title": "Replicated Data", "callNumber": "QA76.9 .D3", "creators": [], "tags": [],
                 "collections": [], "relations": {}}""");
        RemoteRecord read = z.fetch(key).orElseThrow();
        // as a replica synced before Idiom modelled call numbers knows it: the item had one, Idiom had not read it
        RemoteRecord known = new RemoteRecord(read.remoteId(), read.version(), read.metadata().with(Field.CALL_NUMBER, null), null, read.shadow());
        assertThrows(dev.idiom.wrappers.RemoteChangedException.class, () -> z.update(known, read.metadata().with(Field.CALL_NUMBER, "QA76.9 .R4")),
                "read and merged first (a conflict where the DE holds another), never replaced unseen");
        assertEquals("QA76.9 .D3", stub.data(key).path("callNumber").asText());
        z.update(known, read.metadata().with(Field.TITLE, "Replicated Data, 2nd ed."));
        assertEquals("QA76.9 .D3", stub.data(key).path("callNumber").asText(), "a write that leaves it as held goes through");
        assertEquals("Replicated Data, 2nd ed.", stub.data(key).path("title").asText());
    }

    @Test
    void whatACopysItemTypeCannotHoldIsNotOwedToIt() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        Metadata read = z.fetch(stub.addRemotely(BROADCAST)).orElseThrow().metadata();
        Metadata asPodcast = read.with(Field.ZOTERO_EXTRAS, Field.extras(java.util.Map.of("itemType", "podcast", "network", "BBC Two",
                "date", "Summer 1993")));
        RemoteRecord copy = z.create(asPodcast);
        assertEquals("podcast", stub.data(copy.remoteId()).path("itemType").asText());
        Metadata held = z.fetch(copy.remoteId()).orElseThrow().metadata();
        assertEquals(held.zoteroExtras(), z.writable(asPodcast, held).zoteroExtras(), "a podcast has no network field: not owed to it");
        Metadata redated = read.with(Field.YEAR, 1994);
        assertEquals(null, z.writable(redated, read).extras(Field.ZOTERO_EXTRAS).get("date"),
                "a date as typed that no longer reads as the record's is not written");
        RemoteRecord updated = z.update(z.fetch(copy.remoteId()).orElseThrow(), asPodcast.with(Field.YEAR, 1994));
        assertEquals("Summer 1994", stub.data(updated.remoteId()).path("date").asText(), "the year changed in the date as typed");
    }

    @Test
    void aNameWithoutAGivenPartIsMadeAZoteroSingleFieldCreator() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        RemoteRecord made = z.create(Metadata.EMPTY.with(Field.TYPE, "report").with(Field.TITLE, "Programming languages — C")
                .with(Field.AUTHORS, List.of(new Author("JTC 1/SC 22/WG 14", ""), new Author("Seacord", "Robert C."))));
        var creators = stub.data(made.remoteId()).path("creators");
        assertEquals("JTC 1/SC 22/WG 14", creators.get(0).path("name").asText(), "one field, as Zotero keeps an institution: " + creators);
        assertTrue(creators.get(0).path("lastName").isMissingNode());
        assertEquals("Seacord", creators.get(1).path("lastName").asText());
        assertEquals(List.of(new Author("JTC 1/SC 22/WG 14", ""), new Author("Seacord", "Robert C.")),
                z.fetch(made.remoteId()).orElseThrow().metadata().authors());
    }

    @Test
    void aFieldTheItemTypeCannotHoldGoesToAnExtraLineAsZoteroWritesThem() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        String key = stub.addRemotely("""
                {"itemType": "book", "title": "Replicated Data Management", "creators": [], "tags": [], "collections": [], "relations": {},
                 "extra": "Read in 2004."}
                """);
        RemoteRecord read = z.fetch(key).orElseThrow();
        RemoteRecord updated = z.update(read, read.metadata().with(Field.PAGES, "1--300").with(Field.VOLUME, "2"));
        assertTrue(stub.data(key).path("pages").isMissingNode(), "a book has no pages field in Zotero's schema");
        assertEquals("Read in 2004.\npage: 1--300", stub.data(key).path("extra").asText(), "the CSL variable, by its name");
        assertEquals("2", stub.data(key).path("volume").asText());
        assertEquals("1--300", updated.metadata().pages(), "read back from extra: nothing is owed again");
        z.update(updated, updated.metadata().with(Field.PAGES, null));
        assertEquals("Read in 2004.", stub.data(key).path("extra").asText(), "a cleared field's line goes, the rest stays");
    }

    @Test
    void anItemWithAFieldPastTheRecordsBoundIsImportedWithoutItAndTheItemKeepsIt() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        // a Library of Congress manuscript's licence: past the record's 1,000 characters, within Zotero's own field
        String rights = "The Library of Congress is not aware of any copyright in the materials. ".repeat(20).strip();
        String key = stub.addRemotely("""
                {"itemType": "manuscript", "title": "Letter", "creators": [], "tags": [], "collections": [], "relations": {}, "rights": "%s"}
                """.formatted(rights));
        ChangePage page = z.changedSince(null);
        RemoteRecord read = page.records().stream().filter(r -> r.remoteId().equals(key)).findFirst()
                .orElseThrow(() -> new AssertionError("the item is imported: " + page.skipped()));
        assertEquals("Letter", read.metadata().title());
        assertEquals(null, read.metadata().get(Field.LICENSE), "the value past the bound is not in the record");
        assertTrue(page.skipped().stream().anyMatch(k -> k.imported() && k.remoteId().equals(key) && k.reason().contains("rights")), page.skipped().toString());
        z.update(read, read.metadata().with(Field.TITLE, "Letter to a friend"));
        assertEquals("Letter to a friend", stub.data(key).path("title").asText());
        assertEquals(rights, stub.data(key).path("rights").asText(), "the item keeps its licence whole");
    }

    @Test
    void anAccessDateGivenAsCurrentTimestampOrInSqlFormIsKeptAsTheDataserverKeepsItAndAnIdleSyncSendsNothing() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        java.time.Instant before = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        String now = stub.addRemotely("""
                {"itemType": "webpage", "title": "Saved", "creators": [], "tags": [], "collections": [], "relations": {},
                 "url": "https://example.org/saved", "accessDate": "CURRENT_TIMESTAMP"}
                """);
        String sql = stub.addRemotely("""
                {"itemType": "webpage", "title": "Older", "creators": [], "tags": [], "collections": [], "relations": {},
                 "url": "https://example.org/older", "accessDate": "2014-03-31 08:06:22"}
                """);
        java.time.Instant stamped = java.time.Instant.parse(stub.data(now).path("accessDate").asText());
        assertTrue(!stamped.isBefore(before) && !stamped.isAfter(java.time.Instant.now()), "CURRENT_TIMESTAMP is the write's time: " + stamped);
        assertEquals("2014-03-31T08:06:22Z", stub.data(sql).path("accessDate").asText(), "the SQL form answered as ISO 8601, UTC");
        for (String key : java.util.List.of(now, sql)) {
            RemoteRecord read = z.fetch(key).orElseThrow();
            int writes = stub.writeRequests();
            z.update(read, z.writable(read.metadata(), read.metadata()));
            assertEquals(writes, stub.writeRequests(), "an idle sync of " + stub.data(key).path("accessDate") + " sends nothing");
            assertEquals(stub.data(key).path("accessDate"), stub.data(z.create(read.metadata()).remoteId()).path("accessDate"), "a copy has the same time");
        }
    }

    @Test
    void anExtraLinesLabelReachesACopyAsTypedItsCaseToo() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        String key = stub.addRemotely("""
                {"itemType": "journalArticle", "title": "Working", "creators": [], "tags": [], "collections": [], "relations": {},
                 "extra": "Genre: Working paper\\ngenre-note: kept"}
                """);
        RemoteRecord read = z.fetch(key).orElseThrow();
        assertEquals("Working paper", read.metadata().get(Field.GENRE), "a journal article has no genre field: its line is read as the variable");
        RemoteRecord mirrored = z.create(read.metadata());
        assertTrue(stub.data(mirrored.remoteId()).path("extra").asText().lines().anyMatch("Genre: Working paper"::equals),
                "the label as typed (Genre:, not genre:): " + stub.data(mirrored.remoteId()).path("extra").asText());
    }

    @Test
    void anExtraLineNamingAZoteroFieldIsReadAsZoteroReadsItAndChangedUnderItsOwnLabelWhileALineTheFieldAlreadyHoldsStaysALine() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        String key = stub.addRemotely("""
                {"itemType": "journalArticle", "title": "Learning", "creators": [], "tags": [], "collections": [], "relations": {},
                 "extra": "Conference Name: ICML 2020\\nComment: accepted"}
                """);
        RemoteRecord read = z.fetch(key).orElseThrow();
        assertEquals("ICML 2020", read.metadata().event(), "Zotero reads the conferenceName field's label as that field");
        assertEquals("Comment: accepted", read.metadata().extras(Field.ZOTERO_EXTRAS).get("extra"));

        RemoteRecord changed = z.update(read, read.metadata().with(Field.EVENT, "ICML 2021"));
        assertEquals("Conference Name: ICML 2021\nComment: accepted", stub.data(key).path("extra").asText(), "changed in place, under its label");
        RemoteRecord mirrored = z.create(changed.metadata());
        assertEquals(java.util.Set.of("Conference Name: ICML 2021", "Comment: accepted"),
                java.util.Set.copyOf(stub.data(mirrored.remoteId()).path("extra").asText().lines().toList()), "a copy says it as the item does");

        // a copy an earlier Idiom made, when the line was among extra's unread ones: the record now reads it as the field
        String earlier = stub.addRemotely("""
                {"itemType": "journalArticle", "title": "Learning", "creators": [], "tags": [], "collections": [], "relations": {},
                 "extra": "Conference Name: ICML 2021\\nComment: accepted"}
                """);
        RemoteRecord nowRead = z.fetch(earlier).orElseThrow();
        Metadata readBefore = nowRead.metadata().with(Field.EVENT, null)
                .with(Field.ZOTERO_EXTRAS, Field.extras(java.util.Map.of("extra", "Conference Name: ICML 2021\nComment: accepted")));
        z.update(new RemoteRecord(earlier, nowRead.version(), readBefore, null, nowRead.shadow()), changed.metadata());
        assertEquals("Conference Name: ICML 2021\nComment: accepted", stub.data(earlier).path("extra").asText(), "the line stays, as it was");

        String old = stub.addRemotely("""
                {"itemType": "webpage", "title": "Old syntax", "creators": [], "tags": [], "collections": [], "relations": {},
                 "extra": "{:original-publisher: Penguin}\\n{:editor: Doe || Jane}\\nRead twice."}
                """);
        Metadata braced = z.fetch(old).orElseThrow().metadata();
        assertEquals("Penguin", braced.get(Field.ORIGINAL_PUBLISHER), "citeproc-js's older {:key: value}, which Zotero reads too");
        assertEquals(List.of(new dev.idiom.events.Author("Doe", "Jane")), braced.editors());
        assertEquals("Read twice.", braced.extras(Field.ZOTERO_EXTRAS).get("extra"));

        String book = stub.addRemotely("""
                {"itemType": "book", "title": "Two publishers", "publisher": "MIT Press", "creators": [], "tags": [], "collections": [],
                 "relations": {}, "extra": "Publisher: Another press"}
                """);
        RemoteRecord both = z.fetch(book).orElseThrow();
        assertEquals("MIT Press", both.metadata().publisher(), "the item's own field first, as Zotero does");
        RemoteRecord copy = z.create(both.metadata());
        assertEquals("Publisher: Another press", stub.data(copy.remoteId()).path("extra").asText(), "the line the field did not take travels as a line");

        String dated = stub.addRemotely("""
                {"itemType": "book", "title": "Dated twice", "date": "2001", "creators": [], "tags": [], "collections": [], "relations": {},
                 "extra": "issued: 1999\\nType: constitution"}
                """);
        RemoteRecord twice = z.fetch(dated).orElseThrow();
        assertEquals(2001, twice.metadata().year(), "the item's own date first");
        assertEquals("book", twice.metadata().type(), "'constitution' is no CSL type: Zotero leaves the line alone");
        assertEquals(java.util.Set.of("issued: 1999", "Type: constitution"),
                java.util.Set.copyOf(stub.data(z.create(twice.metadata()).remoteId()).path("extra").asText().lines().toList()));
    }

    @Test
    void aChangedTypeMovesTheItemToTheNewTypeCarryingBaseFieldsAcross() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        RemoteRecord r = z.create(sample(1));
        assertEquals("journalArticle", stub.data(r.remoteId()).path("itemType").asText());
        RemoteRecord moved = z.update(r, r.metadata().with(Field.TYPE, "paper-conference"));
        var data = stub.data(moved.remoteId());
        assertEquals("conferencePaper", data.path("itemType").asText());
        assertEquals("ACM Computing Surveys", data.path("proceedingsTitle").asText(), "publicationTitle became proceedingsTitle");
        assertEquals("paper-conference", z.fetch(r.remoteId()).orElseThrow().metadata().type());
    }

    @Test
    void aTrashedItemIsReportedDeletedAndAnUpdateLeavesItInTheTrash() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        RemoteRecord r = z.create(sample(1));
        String cursor = z.changedSince(null).cursor();
        stub.trash(r.remoteId());
        ChangePage page = z.changedSince(cursor);
        assertEquals(List.of(r.remoteId()), page.deleted());
        assertTrue(page.records().isEmpty());

        RemoteRecord inTrash = z.fetch(r.remoteId()).orElseThrow();
        z.update(inTrash, inTrash.metadata().with(Field.NOTES, "edited while trashed"));
        assertEquals(1, stub.data(r.remoteId()).path("deleted").asInt(), "still in the trash");
    }

    @Test
    void everyItemTypeOfTheSchemaIsReadAndPreprintsAreArticles() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        String preprint = stub.addRemotely("""
                {"itemType": "preprint", "title": "CRDTs", "repository": "arXiv", "date": "March 2019", "creators": [], "tags": []}
                """);
        String thesis = stub.addRemotely("""
                {"itemType": "thesis", "title": "Consistency", "university": "EPFL", "creators": [], "tags": []}
                """);
        assertEquals("preprint", z.fetch(preprint).orElseThrow().metadata().type());
        assertEquals(2019, z.fetch(preprint).orElseThrow().metadata().year());
        assertEquals(3, z.fetch(preprint).orElseThrow().metadata().month());
        assertEquals("EPFL", z.fetch(thesis).orElseThrow().metadata().publisher(), "university is the publisher of a thesis (CSL)");
        assertEquals("thesis", z.fetch(thesis).orElseThrow().metadata().type());
    }

    @Test
    void extraLinesZoteroReadsAreFieldsTheRestStaysAndANotesEditLeavesExtraAlone() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        String extra = "Citation Key: demers87\nPMID: 12345\ntex.howpublished: PODC\nRead with the Bayou paper.\noriginal-date: 1987";
        String key = stub.addRemotely("""
                {"itemType": "journalArticle", "title": "Epidemic algorithms", "creators": [], "tags": [],
                 "extra": "%s"}
                """.formatted(extra.replace("\n", "\\n")));
        RemoteRecord r = z.fetch(key).orElseThrow();
        assertEquals("demers87", r.metadata().citationKey(), "Better BibTeX's line is the citation key");
        assertEquals("12345", r.metadata().pmid(), "a line fills a field the item leaves empty, as Zotero reads it");
        assertEquals(null, r.metadata().notes(), "extra is data, never Idiom's notes");
        z.update(r, r.metadata().with(Field.NOTES, "Compare with Bayou.").with(Field.TITLE, "Epidemic algorithms for replicated databases"));
        assertEquals(extra, stub.data(key).path("extra").asText(), "extra is left as it was: notes do not go there");
        assertEquals("Epidemic algorithms for replicated databases", stub.data(key).path("title").asText());
    }

    @Test
    void aNewItemsNotesAreItsChildNoteWrittenOnceAndNeverWrittenAgain() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        Metadata m = Metadata.EMPTY.with(Field.TYPE, "book").with(Field.TITLE, "Replication").with(Field.YEAR, 2010)
                .with(Field.NOTES, "Read chapter 3 first.\nThen <the> appendix & index.\n\nBorrowed from the library.");
        RemoteRecord made = z.create(m);
        assertEquals(List.of("<p>Read chapter 3 first.<br>Then &lt;the&gt; appendix &amp; index.</p><p>Borrowed from the library.</p>"),
                stub.childNotes(made.remoteId()), "paragraphs and line breaks, as Zotero's notes are HTML");
        List<RemoteRecord> listed = z.changedSince(null).records();
        assertEquals(1, listed.size(), "the note is the item's, no record of its own");
        assertEquals(m.notes(), listed.getFirst().metadata().notes(), "read back as written: its first import brings it");
        // a later change of the record's notes is not written: Idiom does not read child notes, and a note it did not make is not touched
        assertFalse(z.fieldsKept().contains(Field.NOTES));
        z.update(made, m.with(Field.NOTES, "Changed in Idiom."));
        assertEquals(1, stub.childNotes(made.remoteId()).size());
        assertTrue(stub.childNotes(made.remoteId()).getFirst().contains("chapter 3"));
        // and a record without notes gets none
        assertEquals(List.of(), stub.childNotes(z.create(m.with(Field.NOTES, null).with(Field.TITLE, "No notes")).remoteId()));
    }

    @Test
    void anItemsChildNotesAreItsNotesWhenItIsListedInZoterosOrderAndEveryPage() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        String book = stub.addRemotely("""
                {"itemType": "book", "title": "Replication", "creators": [], "tags": []}
                """);
        String other = stub.addRemotely("""
                {"itemType": "book", "title": "Consensus", "creators": [], "tags": []}
                """);
        stub.addRemotely("""
                {"itemType": "note", "parentItem": "%s", "note": "<h1>Second</h1><ul><li>one</li><li>two &amp; three</li></ul>",
                 "dateAdded": "2024-02-01T00:00:00Z", "tags": [], "relations": {}}
                """.formatted(book));
        stub.addRemotely("""
                {"itemType": "note", "parentItem": "%s", "note": "<p>First, <b>bold</b></p>", "dateAdded": "2024-01-01T00:00:00Z",
                 "tags": [], "relations": {}}
                """.formatted(book));
        for (int i = 0; i < 120; i++) { // more notes than one page holds, of another item
            stub.addRemotely("""
                    {"itemType": "note", "parentItem": "%s", "note": "<p>n%d</p>", "dateAdded": "2024-03-01T00:00:00Z", "tags": [], "relations": {}}
                    """.formatted(other, i));
        }
        Map<String, RemoteRecord> listed = new java.util.HashMap<>();
        z.changedSince(null).records().forEach(r -> listed.put(r.remoteId(), r));
        assertEquals("First, bold\n\nSecond\n\none\n\ntwo & three", listed.get(book).metadata().notes());
        assertEquals(listed.get(book).metadata().notes(), z.fetch(book).orElseThrow().metadata().notes(), "a fetch reads them as a listing does");
        assertEquals(120, listed.get(other).metadata().notes().split("\n\n").length, "every page of notes");
        // a pull after the cursor brings only what changed: a note edited alone does not make its item listed
        String cursor = z.changedSince(null).cursor();
        assertTrue(z.changedSince(cursor).records().isEmpty());
    }

    @Test
    void theStubRefusesAChildNoteOfAnItemThatIsNotThere() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        String note = stub.addRemotely("""
                {"itemType": "note", "note": "<p>standalone</p>", "tags": [], "collections": [], "relations": {}}
                """);
        assertThrows(IllegalArgumentException.class, () -> stub.addRemotely("""
                {"itemType": "note", "parentItem": "ABCD2345", "note": "<p>orphan</p>", "tags": [], "relations": {}}
                """));
        assertThrows(IllegalArgumentException.class, () -> stub.addRemotely("""
                {"itemType": "note", "parentItem": "%s", "note": "<p>child of a note</p>", "tags": [], "relations": {}}
                """.formatted(note)));
        assertEquals(0, z.changedSince(null).records().size());
    }

    @Test
    void standaloneNotesAndAttachmentsAreLeftAloneAndTheListingStaysComplete() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        String book = stub.addRemotely("""
                {"itemType": "book", "title": "Replication", "creators": [], "tags": []}
                """);
        String note = stub.addRemotely("""
                {"itemType": "note", "note": "<p>read chapter 3 first</p>", "tags": [], "collections": [], "relations": {}}
                """);
        stub.addRemotely("""
                {"itemType": "attachment", "linkMode": "linked_url", "title": "Slides", "url": "https://example.org/slides.pdf",
                 "accessDate": "", "note": "", "contentType": "", "charset": "", "tags": [], "relations": {}}
                """);
        stub.addRemotely("""
                {"itemType": "note", "note": "<p>a child note</p>", "parentItem": "%s", "tags": []}
                """.formatted(book));
        ChangePage page = z.changedSince(null);
        assertEquals(List.of(book), page.records().stream().map(RemoteRecord::remoteId).toList());
        assertEquals(List.of(), page.skipped(), "a note is no unreadable record");
        assertTrue(page.complete(), "so a full listing can still tell what was deleted");
        assertTrue(z.fetch(note).isEmpty(), "a note is no record of a work");
    }

    @Test
    void theStubRefusesWhatZoteroRefuses() {
        String key = stub.addRemotely("""
                {"itemType": "book", "title": "B", "creators": [], "tags": [], "collections": [], "relations": {}}
                """);
        assertEquals("400 'relations' property not provided", put(key, """
                {"itemType": "book", "title": "B", "collections": []}"""), "a PUT replaces the item: it must carry them");
        assertEquals("'pages' is not a valid field for type 'book'", ZoteroStub.invalid(json("""
                {"itemType": "book", "pages": "12"}""")));
        assertEquals(null, ZoteroStub.invalid(json("""
                {"itemType": "book", "pages": ""}""")), "an empty value of a missing field is accepted");
        assertEquals("'editor' is not a valid creator type for item type 'webpage'", ZoteroStub.invalid(json("""
                {"itemType": "webpage", "creators": [{"creatorType": "editor", "lastName": "X"}]}""")));
        assertEquals("'recording' is not a valid itemType", ZoteroStub.invalid(json("""
                {"itemType": "recording"}""")));
    }

    /** A raw PUT to the stub, as a client that forgets the rules would send it: "status body". */
    private String put(String key, String body) {
        try {
            var r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    stub.uri().resolve("/" + ZoteroStub.LIBRARY + "/items/" + key)).header("Zotero-API-Version", "3")
                    .header("Zotero-API-Key", ZoteroStub.KEY).header("If-Unmodified-Since-Version", stub.data(key).path("version").asText())
                    .PUT(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            return r.statusCode() + " " + r.body();
        } catch (java.io.IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode json(String s) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(s);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
