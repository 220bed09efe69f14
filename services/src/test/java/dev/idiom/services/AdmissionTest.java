package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.wrappers.zotero.ZoteroStub;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Past {@code max-in-flight} a request waits at most {@code admission-wait-ms} for a place, then is
 * refused (503 + Retry-After, SOAP fault Busy) rather than queued; cache reads keep extra room; shutdown stops admitting and lets the
 * requests in service finish. Requests are held in service by a tool stub that waits for a latch.
 */
class AdmissionTest {
    private static final String ACCOUNT = "{\"kind\":\"zotero\",\"baseUrl\":\"%s\",\"account\":\"" + ZoteroStub.LIBRARY + "\",\"secret\":\""
            + ZoteroStub.KEY + "\"}";

    /** Holds every stub answer until released; counts the requests waiting. */
    private static final class Gate {
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch entered;

        Gate(ZoteroStub stub, int expected) {
            entered = new CountDownLatch(expected);
            stub.beforeReply(line -> {
                entered.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
    }

    private static CompletableFuture<HttpResponse<String>> importInBackground(RunningIdiom idiom, String account) {
        return CompletableFuture.supplyAsync(() -> idiom.post("/api/imports", "application/json", "{\"tool\":\"" + account + "\"}"));
    }

    @Test
    void pastTheLimitRequestsAreRefusedAtOnceWithRetryAfterWhileCacheReadsStillGetIn() throws Exception {
        // two tools: a stub answers one request at a time, and calls on one account are paced one at a time
        // two libraries (one library's work is one writer at a time: two imports of one library would wait for each other)
        try (ZoteroStub zotero = new ZoteroStub(); ZoteroStub other = new ZoteroStub("users/2");
             RunningIdiom idiom = new RunningIdiom(Map.of("max-in-flight", "2", "sync-interval-ms", "0"))) {
            assertEquals(200, idiom.put("/api/tools/zot", ACCOUNT.formatted(zotero.uri())).statusCode());
            assertEquals(200, idiom.put("/api/tools/zot2", ACCOUNT.replace(ZoteroStub.LIBRARY, "users/2").formatted(other.uri())).statusCode());
            HttpResponse<String> de = idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Admitted\"}}");
            String id = RunningIdiom.json(de).get("id").asText();
            Gate gate = new Gate(zotero, 1);
            Gate otherGate = new Gate(other, 1);
            List<CompletableFuture<HttpResponse<String>>> held = List.of(importInBackground(idiom, "zot"), importInBackground(idiom, "zot2"));
            assertTrue(gate.entered.await(20, TimeUnit.SECONDS) && otherGate.entered.await(20, TimeUnit.SECONDS), "two requests in service");

            long t0 = System.nanoTime();
            HttpResponse<String> busy = idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"One too many\"}}");
            long refusedIn = System.nanoTime() - t0;
            assertEquals(503, busy.statusCode(), busy.body());
            assertEquals("Busy", RunningIdiom.json(busy).get("code").asText());
            assertEquals("1", busy.headers().firstValue("Retry-After").orElse(""));
            assertTrue(refusedIn < TimeUnit.SECONDS.toNanos(2), "refused at once, not queued");
            HttpResponse<String> soap = idiom.soap("<de:createDE><de:entity><de:title>x</de:title></de:entity></de:createDE>");
            assertEquals(503, soap.statusCode());
            assertTrue(soap.body().contains("<de:code>Busy</de:code>"), soap.body());

            assertEquals(200, idiom.get("/api/entities/" + id).statusCode(), "a cache read has room beyond the limit");
            assertEquals(503, idiom.get("/api/entities/" + id + "?source=db").statusCode(), "a database read has not");

            gate.release.countDown();
            otherGate.release.countDown();
            for (CompletableFuture<HttpResponse<String>> f : held) {
                assertEquals(200, f.get(30, TimeUnit.SECONDS).statusCode(), "what was admitted completes");
            }
            assertEquals(201, idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Room again\"}}").statusCode());
            assertTrue(idiom.server.admission().refused() >= 3);
            assertEquals(2, RunningIdiom.json(idiom.get("/api/entities?q=admitted")).get("entities").size()
                    + RunningIdiom.json(idiom.get("/api/entities?q=room")).get("entities").size(), "nothing refused was written");
        }
    }

    @Test
    void aRequestPastTheLimitIsAdmittedWhenAPlaceFreesWithinTheWait() throws Exception {
        try (ZoteroStub zotero = new ZoteroStub();
             RunningIdiom idiom = new RunningIdiom(Map.of("max-in-flight", "1", "admission-wait-ms", "10000", "sync-interval-ms", "0"))) {
            assertEquals(200, idiom.put("/api/tools/zot", ACCOUNT.formatted(zotero.uri())).statusCode());
            Gate gate = new Gate(zotero, 1);
            CompletableFuture<HttpResponse<String>> held = importInBackground(idiom, "zot");
            assertTrue(gate.entered.await(20, TimeUnit.SECONDS), "the one place is taken");
            CompletableFuture<HttpResponse<String>> waiting = CompletableFuture.supplyAsync(
                    () -> idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Waited\"}}"));
            Thread.sleep(300);
            assertTrue(!waiting.isDone(), "it waits for a place instead of being refused");
            gate.release.countDown();
            assertEquals(200, held.get(30, TimeUnit.SECONDS).statusCode());
            assertEquals(201, waiting.get(30, TimeUnit.SECONDS).statusCode(), "admitted once the place freed");
            assertEquals(0, idiom.server.admission().refused());
        }
    }

    @Test
    void shutdownStopsAdmittingAndLetsTheRequestsInServiceFinish() throws Exception {
        try (ZoteroStub zotero = new ZoteroStub()) {
            RunningIdiom idiom = new RunningIdiom(Map.of("sync-interval-ms", "0"));
            assertEquals(200, idiom.put("/api/tools/zot", ACCOUNT.formatted(zotero.uri())).statusCode());
            Gate gate = new Gate(zotero, 1);
            CompletableFuture<HttpResponse<String>> inService = importInBackground(idiom, "zot");
            assertTrue(gate.entered.await(20, TimeUnit.SECONDS));
            CompletableFuture<Void> closing = CompletableFuture.runAsync(idiom::close);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            HttpResponse<String> late;
            do {
                late = idiom.send(HttpRequest.newBuilder(URI.create(idiom.url("/api/ping"))));
            } while (late.statusCode() != 503 && System.nanoTime() < deadline);
            assertEquals(503, late.statusCode(), "no longer admitting");
            assertTrue(late.body().contains("shutting down"), late.body());
            gate.release.countDown();
            assertEquals(200, inService.get(30, TimeUnit.SECONDS).statusCode(), "the request in service finished");
            closing.get(30, TimeUnit.SECONDS);
        }
    }
}
