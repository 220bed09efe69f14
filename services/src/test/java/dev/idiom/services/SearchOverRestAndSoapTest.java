package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Search as portals call it: the same answer over REST and SOAP, their own writes visible at once, a rebuild that changes nothing. */
class SearchOverRestAndSoapTest {
    private static final String NS = "http://idiom.dev/de/1";
    private static RunningIdiom idiom;
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void start() {
        idiom = new RunningIdiom(Map.of());
        String[][] corpus = {
            {"Optimistic replication", "2005", "Saito", "article-journal", "ACM Computing Surveys"},
            {"Replication, optimistic and pessimistic", "2003", "Müller", "paper-conference", "SOSP"},
            {"Eventual consistency of replicated data", "2009", "Vogels", "article-journal", "CACM"},
            {"Caching the web", "2001", "Muller", "book", ""},
        };
        for (String[] w : corpus) {
            create(w[0], Integer.parseInt(w[1]), w[2], w[3], w[4]);
        }
    }

    @AfterAll
    static void stop() {
        idiom.close();
    }

    private static String create(String title, int year, String family, String type, String venue) {
        String body = "{\"metadata\":{\"type\":\"" + type + "\",\"title\":\"" + title + "\",\"year\":" + year
                + (venue.isEmpty() ? "" : ",\"venue\":\"" + venue + "\"") + ",\"authors\":[{\"family\":\"" + family + "\",\"given\":\"A\"}],"
                + "\"tags\":[\"run-" + RUN + "\",\"" + type + "-tag\"]}}";
        HttpResponse<String> r = idiom.post("/api/entities", "application/json", body);
        assertEquals(201, r.statusCode(), r.body());
        return RunningIdiom.json(r).get("id").asText();
    }

    @Test
    void restAndSoapGiveTheSameRankedPageTotalAndFacets() {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("q", "optimistc replication"); // a typo too
        query.put("tag", "run-" + RUN);
        query.put("yearFrom", "2000");
        query.put("limit", "1");

        JsonNode rest = RunningIdiom.json(idiom.get("/api/entities?" + queryString(query)));
        StringBuilder soapBody = new StringBuilder("<de:search>");
        for (String e : List.of("tag", "q", "limit", "yearFrom")) { // the schema's order
            soapBody.append("<de:").append(e).append('>').append(query.get(e)).append("</de:").append(e).append('>');
        }
        Document soap = Xml.parse(idiom.soap(soapBody.append("</de:search>").toString()).body());

        assertEquals(2, rest.get("total").asLong(), "both works with the two words; the third only has a word like one of them");
        assertEquals("Optimistic replication", rest.get("entities").get(0).get("metadata").get("title").asText(), "the exact title first");
        assertEquals(restIds(rest), soapIds(soap), "same entities, same order");
        assertEquals(rest.get("total").asText(), Xml.text(soap, "total"));
        assertEquals(restFacets(rest), soapFacets(soap));
        assertEquals(rest.get("next").asText().isEmpty(), Xml.count(soap, "next") == 0);

        JsonNode second = RunningIdiom.json(idiom.get("/api/entities?" + queryString(query) + "&cursor=" + rest.get("next").asText()));
        assertEquals(1, second.get("entities").size(), "the second of two");
        assertTrue(second.get("next").isNull());
        assertFalse(restIds(rest).contains(restIds(second).getFirst()));
    }

    @Test
    void authorMullerFindsBothSpellingsAndFacetsCountThem() {
        JsonNode r = RunningIdiom.json(idiom.get("/api/entities?author=muller&tag=run-" + RUN));
        assertEquals(2, r.get("total").asLong(), "Müller and Muller: the family name folded");
        Map<String, Long> types = new LinkedHashMap<>();
        r.get("facets").get("type").forEach(f -> types.put(f.get("value").asText(), f.get("count").asLong()));
        assertEquals(Map.of("paper-conference", 1L, "book", 1L), types);
    }

    @Test
    void aPortalSeesItsOwnWriteInTheVeryNextSearch() {
        for (int i = 0; i < 10; i++) {
            String title = "Fresh " + RUN + " number " + i;
            String id = create(title, 2020, "Fresh", "document", "");
            JsonNode r = RunningIdiom.json(idiom.get("/api/entities?q=" + URLEncoder.encode("\"" + title + "\"", StandardCharsets.UTF_8)));
            assertEquals(id, r.get("entities").get(0).get("id").asText(), "write " + i);
        }
    }

    @Test
    void anOnlineRebuildAnswersThroughoutAndChangesNoAnswer() throws InterruptedException {
        String q = "/api/entities?tag=run-" + RUN + "&q=replication&limit=50";
        JsonNode before = RunningIdiom.json(idiom.get(q));
        HttpResponse<String> started = idiom.post("/api/search-index", "application/json", "");
        assertEquals(202, started.statusCode(), started.body());
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (RunningIdiom.json(idiom.get("/api/search-index")).get("rebuilding").asBoolean() && System.nanoTime() < deadline) {
            assertEquals(before.get("total"), RunningIdiom.json(idiom.get(q)).get("total"), "searches answer during the rebuild");
            Thread.sleep(20);
        }
        Thread.sleep(200); // the swap happens on the follower's next round
        JsonNode after = RunningIdiom.json(idiom.get(q));
        assertEquals(restIds(before), restIds(after));
        assertEquals(restFacets(before), restFacets(after));
        assertTrue(RunningIdiom.json(idiom.get("/api/search-index")).get("documents").asLong() >= 4);
    }

    private static String queryString(Map<String, String> q) {
        List<String> parts = new ArrayList<>();
        q.forEach((k, v) -> parts.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return String.join("&", parts);
    }

    private static List<String> restIds(JsonNode r) {
        List<String> ids = new ArrayList<>();
        r.get("entities").forEach(e -> ids.add(e.get("id").asText()));
        return ids;
    }

    private static List<String> soapIds(Document d) {
        List<String> ids = new ArrayList<>();
        NodeList entities = d.getElementsByTagNameNS(NS, "entity");
        for (int i = 0; i < entities.getLength(); i++) {
            ids.add(((Element) entities.item(i)).getElementsByTagNameNS(NS, "id").item(0).getTextContent());
        }
        return ids;
    }

    private static Map<String, Map<String, Long>> restFacets(JsonNode r) {
        Map<String, Map<String, Long>> out = new LinkedHashMap<>();
        r.get("facets").properties().forEach(f -> {
            Map<String, Long> values = new LinkedHashMap<>();
            f.getValue().forEach(v -> values.put(v.get("value").asText(), v.get("count").asLong()));
            out.put(f.getKey(), values);
        });
        return out;
    }

    private static Map<String, Map<String, Long>> soapFacets(Document d) {
        Map<String, Map<String, Long>> out = new LinkedHashMap<>();
        NodeList facets = d.getElementsByTagNameNS(NS, "facet");
        for (int i = 0; i < facets.getLength(); i++) {
            Element f = (Element) facets.item(i);
            Map<String, Long> values = new LinkedHashMap<>();
            NodeList vs = f.getElementsByTagNameNS(NS, "value");
            for (int k = 0; k < vs.getLength(); k++) {
                Element v = (Element) vs.item(k);
                values.put(v.getTextContent(), Long.parseLong(v.getAttribute("count")));
            }
            out.put(f.getAttribute("name"), values);
        }
        return out;
    }
}
