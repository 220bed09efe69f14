package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * The CSL record over both protocols, and citations out as DOI content negotiation answers them:
 * CSL-JSON, BibTeX, RIS and a bibliography formatted by a CSL style, for one DE and for a search.
 */
class CitationsOutTest {
    private static RunningIdiom idiom;
    private static String id;

    private static final String CHAPTER = """
            {"metadata": {"type": "chapter", "title": "Replication techniques for availability",
              "authors": [{"family": "van Renesse", "given": "Robbert"}, {"family": "Guerraoui", "given": "Rachid"}],
              "editors": [{"family": "Charron-Bost", "given": "Bernadette"}, {"family": "Pedone", "given": "Fernando"}],
              "year": 2010, "month": 2, "day": 17, "venue": "Replication: Theory and Practice", "publisher": "Springer",
              "publisherPlace": "Berlin, Heidelberg", "collectionTitle": "Lecture Notes in Computer Science", "collectionNumber": "5959",
              "pages": "19--40", "isbn": "978-3-642-11293-5", "doi": "10.1007/978-3-642-11294-2_2", "citationKey": "vanrenesse2010",
              "tags": ["replication", "C++"]}}
            """;

    @BeforeAll
    static void start() {
        idiom = new RunningIdiom(Map.of());
        HttpResponse<String> r = idiom.post("/api/entities", "application/json", CHAPTER);
        assertEquals(201, r.statusCode(), r.body());
        id = RunningIdiom.json(r).get("id").asText();
    }

    @AfterAll
    static void stop() {
        idiom.close();
    }

    @Test
    void theRecordsCslFieldsAreKeptAndAnsweredOverRestAndSoap() {
        JsonNode m = RunningIdiom.json(idiom.get("/api/entities/" + id)).get("metadata");
        assertEquals("chapter", m.get("type").asText());
        assertEquals("Charron-Bost", m.get("editors").get(0).get("family").asText());
        assertEquals(2, m.get("month").asInt());
        assertEquals("Springer", m.get("publisher").asText());
        assertEquals("vanrenesse2010", m.get("citationKey").asText());
        Document soap = Xml.parse(idiom.soap("<de:moreInfo><de:id>" + id + "</de:id></de:moreInfo>").body());
        assertEquals("Charron-BostBernadettePedoneFernando", Xml.text(soap, "entity/editors"));
        assertEquals("Berlin, Heidelberg", Xml.text(soap, "entity/publisherPlace"));
        assertEquals("5959", Xml.text(soap, "entity/collectionNumber"));
    }

    @Test
    void aFormerTypeIsStillAcceptedAndReadAsItsCslType() {
        HttpResponse<String> r = idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Old client\",\"type\":\"inproceedings\"}}");
        assertEquals(201, r.statusCode(), r.body());
        assertEquals("paper-conference", RunningIdiom.json(r).get("metadata").get("type").asText());
        HttpResponse<String> bad = idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"x\",\"type\":\"pamphlett\"}}");
        assertEquals(400, bad.statusCode());
        assertTrue(bad.body().contains("chapter"), "the message lists the types: " + bad.body());
    }

    @Test
    void aDeIsAnsweredAsCslJsonWithCslVariableNames() {
        HttpResponse<String> r = idiom.get("/api/entities/" + id, "Accept", "application/vnd.citationstyles.csl+json");
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/vnd.citationstyles.csl+json"));
        JsonNode item = RunningIdiom.json(r);
        assertEquals("chapter", item.get("type").asText());
        assertEquals("Replication: Theory and Practice", item.get("container-title").asText());
        assertEquals("Lecture Notes in Computer Science", item.get("collection-title").asText());
        assertEquals("Berlin, Heidelberg", item.get("publisher-place").asText());
        assertEquals("[[2010,2,17]]", item.get("issued").get("date-parts").toString());
        assertEquals("Pedone", item.get("editor").get(1).get("family").asText());
        assertEquals("978-3-642-11293-5", item.get("ISBN").asText());
        assertEquals("19-40", item.get("page").asText());
        assertEquals("vanrenesse2010", item.get("citation-key").asText());
    }

    @Test
    void aDeIsAnsweredAsBibTeXAndAsRis() {
        HttpResponse<String> bib = idiom.get("/api/entities/" + id, "Accept", "application/x-bibtex");
        assertEquals(200, bib.statusCode(), bib.body());
        String b = bib.body().toLowerCase();
        assertTrue(b.startsWith("@incollection{vanrenesse2010,"), bib.body());
        for (String f : new String[] {"booktitle = {replication: theory and practice}", "editor = {charron-bost, bernadette and pedone, fernando}",
                "publisher = {springer}", "address = {berlin, heidelberg}", "series = {lecture notes in computer science}", "month = feb",
                "keywords = {c++, replication}"}) {
            assertTrue(b.contains(f), f + " in " + bib.body());
        }
        HttpResponse<String> ris = idiom.get("/api/entities/" + id, "Accept", "application/x-research-info-systems");
        assertEquals(200, ris.statusCode(), ris.body());
        assertTrue(ris.body().startsWith("TY  - CHAP\r\n"), ris.body());
        for (String line : new String[] {"AU  - van Renesse, Robbert", "ED  - Pedone, Fernando", "BT  - Replication: Theory and Practice",
                "PY  - 2010", "DA  - 2010/02/17/", "SP  - 19", "EP  - 40", "PB  - Springer", "SN  - 978-3-642-11293-5", "ER  - "}) {
            assertTrue(ris.body().contains(line + (line.endsWith(" - ") ? "" : "\r\n")), line + " in " + ris.body());
        }
    }

    @Test
    void aDeIsFormattedByACslStyleAndAnUnknownStyleIsAClearError() {
        HttpResponse<String> apa = idiom.get("/api/entities/" + id, "Accept", "text/x-bibliography; style=apa");
        assertEquals(200, apa.statusCode(), apa.body());
        assertTrue(apa.body().contains("van Renesse, R., & Guerraoui, R. (2010)"), apa.body());
        assertTrue(apa.body().contains("Replication techniques for availability"), apa.body());
        assertTrue(apa.body().contains("Springer"), apa.body());
        HttpResponse<String> ieee = idiom.get("/api/entities/" + id, "Accept", "text/x-bibliography; style=ieee");
        assertEquals(200, ieee.statusCode(), ieee.body());
        assertFalse(ieee.body().equals(apa.body()), "another style, another text");
        HttpResponse<String> unknown = idiom.get("/api/entities/" + id, "Accept", "text/x-bibliography; style=no-such-style");
        assertEquals(400, unknown.statusCode(), unknown.body());
        assertTrue(unknown.body().contains("no-such-style"), unknown.body());
        assertFalse(unknown.body().contains("\tat "), "no stack trace");
        HttpResponse<String> locale = idiom.get("/api/entities/" + id, "Accept", "text/x-bibliography; style=apa; locale=xx-YY");
        assertEquals(400, locale.statusCode(), locale.body());
        assertTrue(locale.body().contains("xx-YY") && locale.body().contains("en-GB"), locale.body());
        assertFalse(locale.body().contains("de.undercouch") || locale.body().contains("Exception"), "the processor's own words stay out: " + locale.body());
        HttpResponse<String> none = idiom.get("/api/entities/" + id, "Accept", "image/png");
        assertEquals(406, none.statusCode(), none.body());
        assertTrue(none.body().contains("application/x-bibtex") && none.body().contains("text/x-bibliography"), "the formats there are: " + none.body());
    }

    @Test
    void jsonStaysTheAnswerForJsonOrAnythingAndSearchResultsCiteEveryDe() {
        assertEquals("Replication techniques for availability",
                RunningIdiom.json(idiom.get("/api/entities/" + id, "Accept", "*/*")).get("metadata").get("title").asText());
        HttpResponse<String> page = idiom.get("/api/entities?q=replication", "Accept", "application/vnd.citationstyles.csl+json");
        assertEquals(200, page.statusCode(), page.body());
        JsonNode items = RunningIdiom.json(page);
        assertTrue(items.isArray() && items.size() >= 1, page.body());
        assertEquals(id, items.get(0).get("id").asText());
    }

    @Test
    void soapCitesOverTheSameApplicationLayer() {
        Document d = Xml.parse(idiom.soap("<de:cite><de:id>" + id + "</de:id><de:format>bibtex</de:format></de:cite>").body());
        assertEquals("application/x-bibtex", Xml.text(d, "citeResponse/mediaType"));
        assertTrue(Xml.text(d, "citeResponse/citation").startsWith("@incollection{vanrenesse2010,"), Xml.text(d, "citeResponse/citation"));
        Document apa = Xml.parse(idiom.soap("<de:cite><de:id>" + id + "</de:id><de:format>bibliography</de:format><de:style>apa</de:style></de:cite>")
                .body());
        assertTrue(Xml.text(apa, "citeResponse/citation").contains("van Renesse, R."), Xml.text(apa, "citeResponse/citation"));
        HttpResponse<String> bad = idiom.soap("<de:cite><de:id>" + id + "</de:id><de:format>docx</de:format></de:cite>");
        assertTrue(Xml.text(Xml.parse(bad.body()), "faultcode").endsWith(":Invalid"), bad.body());
    }
}
