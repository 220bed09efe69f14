package dev.idiom.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Zotero's own mapping to CSL, as its published schema keeps it (zotero/zotero-schema, schema.json,
 * the {@code csl} section; the resource names its version): which item type each CSL type is, which
 * base fields hold each CSL variable, which CSL name variable each creator type is. The Zotero adapter
 * reads types and fields by it; {@link CslJson} the creator roles a record keeps in its Zotero extras.
 */
public final class ZoteroCslMapping {
    private static final String RESOURCE = "zotero-csl-mappings.json";
    private static final JsonNode CSL = load();

    private ZoteroCslMapping() {}

    /** The {@code csl} section: {@code types}, {@code fields} ({@code text}, {@code date}) and {@code names}. */
    public static JsonNode csl() {
        return CSL;
    }

    private static JsonNode load() {
        try (InputStream in = ZoteroCslMapping.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the Zotero CSL mapping resource " + RESOURCE + " is missing from the build");
            }
            return new ObjectMapper().readTree(in).path("csl");
        } catch (IOException e) {
            throw new UncheckedIOException("the Zotero CSL mapping resource " + RESOURCE + " is unreadable", e);
        }
    }
}
