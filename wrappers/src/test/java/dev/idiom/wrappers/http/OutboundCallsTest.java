package dev.idiom.wrappers.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.wrappers.StubServer;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolLimits;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Calls to tools are bounded: which hosts, how much of an answer, how long a whole call. */
class OutboundCallsTest {
    private static final ToolLimits LIMITS = new ToolLimits(50, Duration.ZERO, 4);

    /** Answers whatever the test sets. */
    private static final class Fixed extends StubServer {
        private volatile Reply reply = Reply.of(200, "{}");
        private volatile long delayMillis;

        @Override
        protected Reply answer(Request r) {
            try {
                Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return reply;
        }
    }

    private static ToolHttp http(ToolHosts hosts, CallBounds bounds) {
        return new ToolHttp("Tool", LIMITS, Clock.systemUTC(), Pacing.SLEEP, 1, hosts, bounds);
    }

    @Test
    void localPrivateAndLinkLocalHostsAreRefusedUnlessAllowed() throws Exception {
        for (String address : new String[] {"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1",
                "fd00::1", "fe80::1"}) {
            assertFalse(ToolHosts.isPublic(InetAddress.getByName(address)), address);
        }
        assertTrue(ToolHosts.isPublic(InetAddress.getByName("93.184.215.14")));
        try (Fixed stub = new Fixed()) {
            ToolException refused = assertThrows(ToolException.class,
                    () -> http(ToolHosts.PUBLIC, CallBounds.DEFAULTS).send(HttpRequest.newBuilder(stub.uri().resolve("/x")).build()));
            assertTrue(refused.getMessage().contains("local-tool-hosts"), refused.getMessage());
            assertEquals(0, stub.requests(), "refused before connecting");
            assertEquals(200, http(ToolHosts.ANY, CallBounds.DEFAULTS).send(HttpRequest.newBuilder(stub.uri().resolve("/x")).build()).statusCode());
        }
        assertThrows(ToolException.class, () -> ToolHosts.PUBLIC.check(URI.create("https://no-such-host.invalid/")), "a name that does not resolve");
    }

    @Test
    void anAnswerLargerThanTheBoundIsNotReadAndACallLongerThanItsTimeEnds() {
        try (Fixed stub = new Fixed()) {
            stub.reply = StubServer.Reply.of(200, "x".repeat(10_000));
            ToolException large = assertThrows(ToolException.class,
                    () -> http(ToolHosts.ANY, new CallBounds(1_000, Duration.ofSeconds(10))).send(HttpRequest.newBuilder(stub.uri().resolve("/big")).build()));
            assertTrue(large.getMessage().contains("more than 1000 bytes"), large.getMessage());

            stub.reply = StubServer.Reply.of(200, "{}");
            stub.delayMillis = 3_000;
            long start = System.nanoTime();
            ToolException slow = assertThrows(ToolException.class,
                    () -> http(ToolHosts.ANY, new CallBounds(1_000, Duration.ofMillis(500))).send(HttpRequest.newBuilder(stub.uri().resolve("/slow")).build()));
            assertTrue(slow.getMessage().contains("within"), slow.getMessage());
            assertTrue(System.nanoTime() - start < 2_500_000_000L, "ended at the bound, not when the tool finished");
        }
    }
}
