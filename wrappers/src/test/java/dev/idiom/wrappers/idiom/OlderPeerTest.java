package dev.idiom.wrappers.idiom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.StubServer;
import dev.idiom.wrappers.http.ToolHttp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A peer running an older Idiom, whose record has fewer fields, is never sent one it would refuse. */
class OlderPeerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The metadata properties an Idiom from before the further CSL variables and the extras parts takes. */
    private static final Set<String> OLDER = Set.of("type", "title", "authors", "year", "venue", "doi", "url", "tags", "notes", "citationKey");

    /** As strict as that Idiom: its OpenAPI document names what it takes, and a body with anything else is a 400. */
    private static final class OlderIdiom extends StubServer {
        final List<String> bodies = new ArrayList<>();
        private ObjectNode stored = JSON.createObjectNode().put("title", "Time, Clocks");
        private int version = 1;

        @Override
        protected synchronized Reply answer(Request r) {
            try {
                if (r.path().equals("/api/openapi.json")) {
                    ObjectNode props = JSON.createObjectNode();
                    OLDER.forEach(p -> props.putObject(p).put("type", "string"));
                    ObjectNode doc = JSON.createObjectNode();
                    doc.putObject("components").putObject("schemas").putObject("MetadataPatch").set("properties", props);
                    return Reply.of(200, doc.toString(), "Content-Type", "application/json");
                }
                if (r.body() != null && !r.body().isEmpty()) {
                    bodies.add(r.body());
                    JsonNode metadata = JSON.readTree(r.body()).path("metadata");
                    for (String name : (Iterable<String>) metadata::fieldNames) {
                        if (!OLDER.contains(name)) {
                            return Reply.of(400, "{\"code\":\"Invalid\",\"detail\":\"unknown property " + name + "\"}", "Content-Type",
                                    "application/problem+json");
                        }
                    }
                    stored.setAll((ObjectNode) metadata);
                    version++;
                }
                ObjectNode de = JSON.createObjectNode().put("id", "01a21b5b-dfef-793b-bcab-0803084de993").put("version", version);
                de.set("metadata", stored);
                return Reply.of(r.method().equals("POST") ? 201 : 200, de.toString(), "Content-Type", "application/json", "ETag", "\"" + version + "\"");
            } catch (java.io.IOException e) {
                return Reply.of(400, "{\"code\":\"Invalid\"}");
            }
        }
    }

    @Test
    void aFieldTheOlderPeerDoesNotTakeIsNeitherSentNorOwed() {
        try (OlderIdiom older = new OlderIdiom()) {
            IdiomPeer peer = new IdiomPeer(older.uri(), "key", new ToolHttp("Idiom", IdiomPeer.LIMITS, Clock.systemUTC(), wait -> { }, 1));
            RemoteRecord known = peer.fetch("01a21b5b-dfef-793b-bcab-0803084de993").orElseThrow();
            Metadata wanted = known.metadata().with(Field.TITLE, "Time, Clocks, and the Ordering of Events").with(Field.TITLE_SHORT, "Time, Clocks")
                    .with(Field.ZOTERO_EXTRAS, Field.extras(java.util.Map.of("runningTime", "58 min")));
            RemoteRecord written = peer.update(known, wanted);
            assertEquals("Time, Clocks, and the Ordering of Events", written.metadata().title(), "the change it takes is made");
            assertFalse(older.bodies.getLast().contains("shortTitle") || older.bodies.getLast().contains("zoteroExtras"), older.bodies.getLast());
            assertFalse(peer.fieldsKept().contains(Field.TITLE_SHORT), "not compared, so not owed forever");
            assertTrue(peer.fieldsKept().contains(Field.TITLE));
            peer.create(wanted);
            assertFalse(older.bodies.getLast().contains("shortTitle"), older.bodies.getLast());
        }
    }
}
