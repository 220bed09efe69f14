package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * The names Zotero's schema gives item types, fields and creator types in each of its locales
 * (zotero/zotero-schema schema.json's {@code locales}; the resource names its version), as the
 * Zotero API's schema routes answer them ({@code itemTypes?locale=fr-FR} → "Livre").
 */
public final class ZoteroLabels {
    /** The locale every answer falls back to, as zotero.org's. */
    public static final String DEFAULT = "en-US";
    private static final ZoteroLabels PUBLISHED = load("item-labels.json");

    private final JsonNode locales;

    private ZoteroLabels(JsonNode locales) {
        this.locales = locales;
    }

    public static ZoteroLabels published() {
        return PUBLISHED;
    }

    /**
     * The locale a request's {@code locale} names: itself if the schema has it, else the first of
     * the schema's with the same language ({@code fr} → {@code fr-FR}), else {@link #DEFAULT}.
     */
    public String resolve(String asked) {
        if (asked == null || asked.isBlank()) {
            return DEFAULT;
        }
        var names = locales.properties().stream().map(java.util.Map.Entry::getKey).toList();
        for (String n : names) {
            if (n.equalsIgnoreCase(asked.replace('_', '-'))) {
                return n;
            }
        }
        String language = asked.split("[-_]")[0].toLowerCase(Locale.ROOT);
        return names.stream().filter(n -> n.toLowerCase(Locale.ROOT).split("-")[0].equals(language)).findFirst().orElse(DEFAULT);
    }

    public String itemType(String locale, String name) {
        return label(locale, "itemTypes", name);
    }

    public String field(String locale, String name) {
        return label(locale, "fields", name);
    }

    public String creatorType(String locale, String name) {
        return label(locale, "creatorTypes", name);
    }

    /** The locale's name for it, else en-US's, else the name itself. */
    private String label(String locale, String kind, String name) {
        JsonNode own = locales.path(locale).path(kind).path(name);
        if (own.isTextual() && !own.asText().isEmpty()) {
            return own.asText();
        }
        JsonNode fallback = locales.path(DEFAULT).path(kind).path(name);
        return fallback.isTextual() ? fallback.asText() : name;
    }

    private static ZoteroLabels load(String resource) {
        try (InputStream in = ZoteroLabels.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the Zotero schema's labels " + resource + " are missing from the build");
            }
            return new ZoteroLabels(new ObjectMapper().readTree(in).path("locales"));
        } catch (IOException e) {
            throw new UncheckedIOException("the Zotero schema's labels " + resource + " are unreadable", e);
        }
    }
}
