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
    void aZoteroCreatorOfARoleTheRecordHasNoListForAndZoterosExtraAreExportedAsZoteroExportsThem() {
        Metadata m = Metadata.EMPTY.with(Field.TYPE, "broadcast").with(Field.TITLE, "The one with the Princess Leia fantasy")
                .with(Field.ZOTERO_EXTRAS, Field.extras(java.util.Map.of("creators", """
                        [{"creatorType":"castMember","firstName":"Jennifer","lastName":"Aniston"},{"creatorType":"contributor","name":"NBC"},
                         {"creatorType":"seriesEditor","firstName":"","lastName":"Crane"},{"creatorType":"unknownRole","lastName":"X"}]""",
                        "extra", "Comment: season 3")));

        JsonNode item = CslJson.item(UUID.randomUUID(), m);

        assertEquals("[{\"family\":\"Aniston\",\"given\":\"Jennifer\"}]", item.get("performer").toString(), "a cast member is CSL's performer");
        assertEquals("[{\"literal\":\"NBC\"}]", item.get("contributor").toString());
        assertEquals("[{\"literal\":\"Crane\"}]", item.get("collection-editor").toString());
        assertEquals("Comment: season 3", item.get("note").asText(), "extra is CSL's note");
        assertEquals("Idiom's own", CslJson.item(UUID.randomUUID(), m.with(Field.NOTES, "Idiom's own")).get("note").asText());
    }

    @Test
    void aPageRangeTakesCslsSingleDashAndTheDateItsParts() {
        Metadata m = Metadata.EMPTY.with(Field.TITLE, "T").with(Field.PAGES, "42--81").with(Field.YEAR, 1999).with(Field.MONTH, 12);

        JsonNode item = CslJson.item(UUID.randomUUID(), m);

        assertEquals("42-81", item.get("page").asText());
        assertEquals("[[1999,12]]", item.get("issued").get("date-parts").toString());
    }
}
