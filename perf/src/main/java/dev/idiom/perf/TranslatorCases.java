package dev.idiom.perf;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The test cases of one of Zotero's translators ({@code zotero/translators}, a {@code .js} file):
 * its metadata block (a JSON object at the file's head, the translator's {@code label}) and the
 * {@code testCases} array between {@code BEGIN TEST CASES} and {@code END TEST CASES}. A case is
 * a web page, a search or an import; its {@code items} are what Zotero saves from it, in the
 * translator framework's item form (creators, tags as text or objects, notes, attachments), or the
 * word "multiple" for a page that lists several.
 */
record TranslatorCases(String label, List<Case> cases) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.ALLOW_TRAILING_COMMA);
    private static final String BEGIN = "/** BEGIN TEST CASES **/";
    private static final String END = "/** END TEST CASES **/";

    /** One case: {@code type} (web, search, import), its {@code input} (an import's text, else empty) and the items it gives. */
    record Case(String type, String input, List<JsonNode> items) {}

    /** The file's cases, or null when it is no translator with cases (or its cases are no JSON, as a few hand-written ones are not). */
    static TranslatorCases of(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        if (begin < 0 || end < begin || !text.stripLeading().startsWith("{")) {
            return null;
        }
        String body = text.substring(begin + BEGIN.length(), end).strip();
        int open = body.indexOf('[');
        if (!body.startsWith("var testCases") || open < 0) {
            return null;
        }
        body = body.substring(open);
        if (body.endsWith(";")) {
            body = body.substring(0, body.length() - 1);
        }
        JsonNode header;
        JsonNode array;
        try (JsonParser p = JSON.getFactory().createParser(text.stripLeading())) {
            header = JSON.readTree(p); // the metadata object alone: what follows it is JavaScript
            array = JSON.readTree(body);
        } catch (IOException notJson) {
            return null;
        }
        List<Case> cases = new ArrayList<>();
        for (JsonNode c : array) {
            List<JsonNode> items = new ArrayList<>();
            c.path("items").forEach(items::add); // "multiple" is text: no items
            cases.add(new Case(c.path("type").asText(), c.path("input").asText(""), items));
        }
        return new TranslatorCases(header.path("label").asText(file.getFileName().toString()), cases);
    }
}
