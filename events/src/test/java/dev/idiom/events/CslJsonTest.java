package dev.idiom.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CslJsonTest {
    @Test
    void aNameWithNoGivenPartIsOneLiteralNameAsZoteroExportsAnInstitution() {
        Metadata m = Metadata.EMPTY.with(Field.TITLE, "Annual report")
                .with(Field.AUTHORS, List.of(new Author("Doe", "Jane"), new Author("JTC 1/SC 22/WG 14", "")));

        JsonNode authors = CslJson.item(UUID.randomUUID(), m).get("author");

        assertEquals("{\"family\":\"Doe\",\"given\":\"Jane\"}", authors.get(0).toString());
        assertEquals("{\"literal\":\"JTC 1/SC 22/WG 14\"}", authors.get(1).toString());
    }

    @Test
    void aPageRangeTakesCslsSingleDashAndTheDateItsParts() {
        Metadata m = Metadata.EMPTY.with(Field.TITLE, "T").with(Field.PAGES, "42--81").with(Field.YEAR, 1999).with(Field.MONTH, 12);

        JsonNode item = CslJson.item(UUID.randomUUID(), m);

        assertEquals("42-81", item.get("page").asText());
        assertEquals("[[1999,12]]", item.get("issued").get("date-parts").toString());
    }
}
