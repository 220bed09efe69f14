package dev.idiom.services.app.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which settings a library keeps and what their values may be, by the dataserver's rules
 * ({@code Zotero_Settings}): the names it allows (some by pattern), a value of at most 30,000
 * characters of the kind each name takes, and the reading positions only in a user's library.
 */
final class SettingRules {
    static final int MAX_VALUE_LENGTH = 30_000;
    private static final List<String> NAMES = List.of("attachmentRenameTemplate", "autoRenameFiles", "autoRenameFilesFileTypes", "feeds", "tagColors",
            "readerCustomThemes");
    private static final List<Pattern> PATTERNS = List.of(Pattern.compile("^lastPageIndex_(u|g[0-9]+)_[A-Z0-9]{8}$"),
            Pattern.compile("^lastRead_(g[0-9]+)_[A-Z0-9]{8}$"), Pattern.compile("^lastReadAloudPosition_(u|g[0-9]+)_[A-Z0-9]{8}$"));

    private SettingRules() {}

    /** Refuses (400) a setting the API refuses, in its words. */
    static void check(String name, JsonNode json, boolean userLibrary) {
        if (!NAMES.contains(name) && PATTERNS.stream().noneMatch(p -> p.matcher(name).matches())) {
            throw new ZoteroApiException(400, "Invalid setting '" + name + "'");
        }
        if (!json.isObject()) {
            throw new ZoteroApiException(400, "Invalid property '" + name + "'; expected JSON setting object");
        }
        if (!json.has("value") || json.get("value").isNull()) {
            throw new ZoteroApiException(400, "'value' property not provided");
        }
        for (var p : json.properties()) {
            if (!p.getKey().equals("value") && !p.getKey().equals("version")) {
                throw new ZoteroApiException(400, "Invalid property '" + p.getKey() + "'");
            }
        }
        JsonNode v = json.get("value");
        String text = v.isTextual() ? v.asText() : v.toString();
        if (text.codePointCount(0, text.length()) > MAX_VALUE_LENGTH) {
            throw new ZoteroApiException(400, "'value' cannot be longer than " + MAX_VALUE_LENGTH + " characters");
        }
        String base = name.replaceAll("^([A-Za-z]+).*$", "$1");
        switch (base) {
            case "feeds", "lastReadAloudPosition" -> require(v.isObject(), "'value' must be an object");
            case "readerCustomThemes", "tagColors" -> {
                require(v.isArray(), "'value' must be an array");
                require(!v.isEmpty(), "'value' array cannot be empty");
            }
            case "lastRead" -> require(v.isIntegralNumber(), "'value' must be an integer");
            case "autoRenameFiles" -> require(v.isBoolean(), "'value' must be a boolean");
            case "lastPageIndex" -> {
                require(userLibrary, "lastPageIndex can only be set in user library");
                require(v.isNumber() || v.isTextual(), "'value' must be an integer, string, or decimal");
                if (v.isFloatingPointNumber()) {
                    require(v.asDouble() >= 0 && v.asDouble() <= 100, "Decimal value must be between 0 and 100");
                    require(Math.round(v.asDouble() * 10) / 10.0 == v.asDouble(), "Decimal value must be to one decimal place");
                }
                require(!v.isTextual() || !v.asText().isEmpty(), "'value' cannot be empty");
            }
            default -> {
                require(v.isTextual(), "'value' must be a string");
                require(!v.asText().isEmpty(), "'value' cannot be empty");
            }
        }
    }

    private static void require(boolean holds, String otherwise) {
        if (!holds) {
            throw new ZoteroApiException(400, otherwise);
        }
    }
}
