package dev.idiom.wrappers.pinboard;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.AnnotationToolContract;
import dev.idiom.wrappers.FakeTime;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.StubServer.Reply;
import dev.idiom.wrappers.ToolAuthException;
import dev.idiom.wrappers.http.ToolHttp;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PinboardToolTest extends AnnotationToolContract {
    private final PinboardStub stub = new PinboardStub();
    private final FakeTime time = new FakeTime();
    private final List<Duration> waits = time.waits;

    @AfterEach
    void stop() {
        stub.close();
    }

    private PinboardTool pinboard(String token) {
        // waits are recorded, not slept, so the test sees Pinboard's pacing without taking minutes
        return new PinboardTool(stub.uri().resolve("/v1/"), token, new ToolHttp("Pinboard", PinboardTool.LIMITS, time, time, 4), time, time);
    }

    @Override
    protected AnnotationTool tool() {
        return pinboard(PinboardStub.TOKEN);
    }

    @Override
    protected Set<Field> fieldsKept() {
        return EnumSet.of(Field.TYPE, Field.TITLE, Field.URL, Field.TAGS, Field.NOTES);
    }

    @Override
    protected boolean preciseChanges() {
        return false;
    }

    @Override
    protected Metadata sample(int i) {
        return super.sample(i).with(Field.TYPE, "webpage");
    }

    @Test
    void callsAreSpacedThreeSecondsAndPostsAllFiveMinutes() {
        PinboardTool p = pinboard(PinboardStub.TOKEN);
        p.create(sample(1));
        String cursor = p.changedSince(null).cursor();
        p.create(sample(2));
        p.changedSince(cursor);
        assertTrue(waits.stream().filter(w -> w.equals(Duration.ofSeconds(3))).count() >= 5, "3 s between calls: " + waits);
        assertTrue(waits.stream().allMatch(w -> w.compareTo(Duration.ofSeconds(3)) >= 0), "never closer than 3 s: " + waits);
        assertTrue(waits.stream().anyMatch(w -> w.toSeconds() > 200), "posts/all at most every 5 minutes: " + waits);
    }

    @Test
    void aRemoteEditIsDetectedBeforeOverwriting() {
        PinboardTool p = pinboard(PinboardStub.TOKEN);
        RemoteRecord r = p.create(sample(1));
        stub.put(r.remoteId(), "Edited on Pinboard", "", "");
        assertThrows(RemoteChangedException.class, () -> p.update(r.remoteId(), sample(1), r.version()));
    }

    @Test
    void tooManyRequestsIsBackedOffAndABadTokenStops() {
        stub.failNext(Reply.of(429, "Too Many Requests"));
        assertTrue(pinboard(PinboardStub.TOKEN).fetch("https://example.org/none").isEmpty());
        assertTrue(waits.stream().anyMatch(w -> w.toMillis() >= 1_000), "backed off: " + waits);
        assertThrows(ToolAuthException.class, () -> pinboard("curator:WRONG").changedSince(null));
    }
}
