package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import java.util.ArrayList;
import java.util.List;

/** The creators of a Zotero item of roles Idiom keeps no list for (cast members, contributors, a patent's assignee…), as the Zotero extras part holds them, in the item's order. */
public final class OtherCreators {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One creator: its Zotero creator type and its name (a single-field name is a family name alone). */
    public record Creator(String role, Author name) {}

    private OtherCreators() {}

    public static List<Creator> of(Metadata m) {
        String json = m.extras(Field.ZOTERO_EXTRAS).get(ZoteroItems.CREATORS);
        List<Creator> out = new ArrayList<>();
        if (json == null) {
            return out;
        }
        try {
            for (JsonNode c : JSON.readTree(json)) {
                String family = c.has("name") ? c.path("name").asText() : c.path("lastName").asText();
                if (!family.isBlank() && !c.path("creatorType").asText().isBlank()) {
                    out.add(new Creator(c.path("creatorType").asText(), new Author(family, c.has("name") ? "" : c.path("firstName").asText(""))));
                }
            }
        } catch (java.io.IOException | RuntimeException unreadable) {
            return List.of(); // not creators as Idiom writes them: nothing to say of them
        }
        return out;
    }
}
