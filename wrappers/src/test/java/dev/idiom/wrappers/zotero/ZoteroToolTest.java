package dev.idiom.wrappers.zotero;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ZoteroToolTest extends AnnotationToolContract {
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
        return EnumSet.allOf(Field.class);
    }

    @Test
    void aRemoteEditMakesOurVersionStale() {
        ZoteroTool z = zotero(ZoteroStub.KEY);
        RemoteRecord r = z.create(sample(1));
        stub.editRemotely(r.remoteId(), "Edited in Zotero");
        assertThrows(dev.idiom.wrappers.RemoteChangedException.class, () -> z.update(r.remoteId(), sample(1), r.version()));
        assertEquals("Edited in Zotero", z.fetch(r.remoteId()).orElseThrow().metadata().title());
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
        stub.failNext(Reply.of(200, "{}", "Backoff", "30", "Last-Modified-Version", "0"));
        z.fetch("ANY").isPresent();
        z.fetch("ANY");
        assertTrue(waits.stream().anyMatch(w -> w.toSeconds() >= 28), "waited out Backoff: " + waits);
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
}
