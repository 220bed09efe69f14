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

/** SOAP exactly as the WSDL says: dispatch by the body, namespaces enforced, faults in one shape, clearing by empty or nil. */
class ProtocolFidelityTest {
    private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    private static RunningIdiom idiom;

    @BeforeAll
    static void start() {
        idiom = new RunningIdiom(Map.of());
    }

    @AfterAll
    static void stop() {
        idiom.close();
    }

    private static JsonNode created() {
        HttpResponse<String> r = idiom.post("/api/entities", "application/json",
                "{\"metadata\":{\"title\":\"Fidelity\",\"year\":2005,\"venue\":\"CSUR\",\"doi\":\"10.1/f\",\"notes\":\"n\",\"type\":\"article-journal\"}}");
        assertEquals(201, r.statusCode(), r.body());
        return RunningIdiom.json(r);
    }

    private static HttpResponse<String> update(String id, String field, String valueElement, int expected) {
        return idiom.soap("<de:updateDE><de:id>" + id + "</de:id><de:field>" + field + "</de:field>" + valueElement
                + "<de:expectedVersion>" + expected + "</de:expectedVersion></de:updateDE>");
    }

    private static void assertFault(HttpResponse<String> r, String code) {
        Document d = Xml.parse(r.body());
        assertTrue(Xml.text(d, "faultcode").endsWith(":" + code), () -> "faultcode " + code + ": " + r.body());
        assertEquals(code, Xml.text(d, "detail/fault/code"), () -> "detail/fault/code: " + r.body());
        assertFalse(r.body().contains("\tat ") || r.body().contains("at org.apache"), "no stack trace: " + r.body());
    }

    @Test
    void aToolKindsOwnFieldsAndTheFurtherCslVariablesTravelOverRestAndSoapAlike() {
        HttpResponse<String> r = idiom.post("/api/entities", "application/json", """
                {"metadata": {"title": "The Replication Hour", "type": "broadcast", "shortTitle": "Replication", "eventPlace": "Chicago",
                 "zoteroExtras": [{"name": "itemType", "value": "tvBroadcast"}, {"name": "runningTime", "value": "58 min"}],
                 "bibtexExtras": [{"name": "addendum", "value": "Reprinted in {CACM}"}]}}""");
        assertEquals(201, r.statusCode(), r.body());
        JsonNode de = RunningIdiom.json(r);
        String id = de.get("id").asText();
        assertEquals("[{\"name\":\"itemType\",\"value\":\"tvBroadcast\"},{\"name\":\"runningTime\",\"value\":\"58 min\"}]",
                de.path("metadata").path("zoteroExtras").toString(), "as sent, by name");
        assertEquals("Replication", de.path("metadata").path("shortTitle").asText());

        Document soap = Xml.parse(idiom.soap("<de:moreInfo><de:id>" + id + "</de:id></de:moreInfo>").body());
        assertEquals("Replication", Xml.text(soap, "entity/shortTitle"));
        assertEquals("Chicago", Xml.text(soap, "entity/eventPlace"));
        assertEquals("Reprinted in {CACM}", Xml.text(soap, "entity/bibtexExtras/field"));
        HttpResponse<String> made = idiom.soap("""
                <de:createDE><de:entity><de:title>Over SOAP</de:title>
                <de:zoteroExtras><de:field name="callNumber">QA 76</de:field></de:zoteroExtras></de:entity></de:createDE>""");
        assertEquals(200, made.statusCode(), made.body());
        assertEquals("QA 76", Xml.text(Xml.parse(made.body()), "entity/zoteroExtras/field"));

        HttpResponse<String> badName = idiom.patch("/api/entities/" + id, "{\"metadata\":{\"bibtexExtras\":[{\"name\":\"two words\",\"value\":\"x\"}]}}",
                "If-Match", "\"1\"");
        assertEquals(400, badName.statusCode(), badName.body());
        assertTrue(badName.body().contains("two words"), badName.body());
        HttpResponse<String> cleared = idiom.patch("/api/entities/" + id, "{\"metadata\":{\"zoteroExtras\":null}}", "If-Match", "\"1\"");
        assertEquals(200, cleared.statusCode(), cleared.body());
        assertTrue(RunningIdiom.json(cleared).path("metadata").path("zoteroExtras").isMissingNode(), cleared.body());
        assertEquals("Reprinted in {CACM}", RunningIdiom.json(cleared).path("metadata").path("bibtexExtras").get(0).path("value").asText());
    }

    @Test
    void anEmptyValueOrXsiNilClearsAFieldOverSoapAsNullDoesOverRest() {
        JsonNode de = created();
        String id = de.get("id").asText();
        int version = de.get("version").asInt();
        for (String field : new String[] {"venue", "year", "doi", "notes"}) {
            HttpResponse<String> r = update(id, field, "<de:value/>", version);
            assertEquals(200, r.statusCode(), field + ": " + r.body());
            assertEquals("", Xml.text(Xml.parse(r.body()), "entity/" + field), field + " cleared");
            version++;
        }
        HttpResponse<String> notes = update(id, "notes", "<de:value>again</de:value>", version++);
        assertEquals(200, notes.statusCode());
        HttpResponse<String> nil = update(id, "notes", "<de:value xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:nil=\"true\"/>", version);
        assertEquals(200, nil.statusCode(), nil.body());
        assertTrue(RunningIdiom.json(idiom.get("/api/entities/" + id)).path("metadata").path("notes").isMissingNode()
                || RunningIdiom.json(idiom.get("/api/entities/" + id)).path("metadata").path("notes").isNull());
        // a field that may not be empty is refused as Invalid, never Internal
        HttpResponse<String> title = update(id, "title", "<de:value/>", version + 1);
        assertFalse(title.body().contains(":Internal"), title.body());
    }

    @Test
    void theBodyDecidesTheOperationAndADisagreeingSoapActionIsInvalidNamingBoth() {
        String id = created().get("id").asText();
        HttpResponse<String> r = idiom.post("/services/DigitalEntityService", "text/xml; charset=UTF-8",
                RunningIdiom.envelope("<de:moreInfo><de:id>" + id + "</de:id></de:moreInfo>"), "SOAPAction", "\"urn:idiom:createDE\"");
        assertFault(r, "Invalid");
        String reason = Xml.text(Xml.parse(r.body()), "faultstring");
        assertTrue(reason.contains("createDE") && reason.contains("moreInfo"), reason);
        HttpResponse<String> agreeing = idiom.post("/services/DigitalEntityService", "text/xml; charset=UTF-8",
                RunningIdiom.envelope("<de:moreInfo><de:id>" + id + "</de:id></de:moreInfo>"), "SOAPAction", "\"urn:idiom:moreInfo\"");
        assertEquals(200, agreeing.statusCode(), agreeing.body());
    }

    @Test
    void aBodyInAnotherNamespaceOrNoneIsRefused() {
        String id = created().get("id").asText();
        for (String body : new String[] {"<x:moreInfo xmlns:x=\"http://idiom.dev/de/2\"><x:id>" + id + "</x:id></x:moreInfo>",
                "<moreInfo><id>" + id + "</id></moreInfo>", "<de:moreInfo><id>" + id + "</id></de:moreInfo>"}) {
            HttpResponse<String> r = idiom.soap(body);
            assertTrue(r.statusCode() >= 400, body + " -> " + r.body());
            assertTrue(r.body().contains("faultcode"), r.body());
            assertTrue(Xml.text(Xml.parse(r.body()), "detail/fault/code").matches("Invalid"), r.body());
        }
    }

    @Test
    void aSoap12EnvelopeGetsAVersionMismatchFault() {
        HttpResponse<String> r = idiom.post("/services/DigitalEntityService", "application/soap+xml; charset=UTF-8",
                "<env:Envelope xmlns:env=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:de=\"http://idiom.dev/de/1\"><env:Body><de:empty/></env:Body></env:Envelope>");
        assertTrue(r.statusCode() >= 400, r.body());
        assertTrue(r.body().contains("VersionMismatch"), r.body());
        assertEquals("VersionMismatch", Xml.text(Xml.parse(r.body()), "fault/code"), r.body());
    }

    @Test
    void aHeaderThatMustBeUnderstoodGetsTheSoapMustUnderstandFaultWithOurDetail() {
        String envelope = "<soapenv:Envelope xmlns:soapenv=\"" + SOAP11 + "\" xmlns:de=\"http://idiom.dev/de/1\"><soapenv:Header>"
                + "<x:secret xmlns:x=\"urn:unknown\" soapenv:mustUnderstand=\"1\">?</x:secret></soapenv:Header><soapenv:Body><de:empty/></soapenv:Body></soapenv:Envelope>";
        HttpResponse<String> r = idiom.post("/services/DigitalEntityService", "text/xml; charset=UTF-8", envelope, "SOAPAction", "\"\"");
        assertTrue(r.statusCode() >= 400, r.body());
        Document d = Xml.parse(r.body());
        assertTrue(Xml.text(d, "faultcode").endsWith(":MustUnderstand"), r.body());
        assertEquals("MustUnderstand", Xml.text(d, "detail/fault/code"), r.body());
    }

    @Test
    void faultsRaisedBeforeOurReceiverCarryTheWsdlsDetail() {
        HttpResponse<String> malformed = idiom.post("/services/DigitalEntityService", "text/xml; charset=UTF-8",
                "<soapenv:Envelope xmlns:soapenv=\"" + SOAP11 + "\"><soapenv:Body><unclosed>", "SOAPAction", "\"\"");
        assertFault(malformed, "Invalid");
        HttpResponse<String> unknown = idiom.soap("<de:noSuchOperation/>");
        assertFault(unknown, "Invalid");
    }

    @Test
    void onlyTheWsdlIsServedAsMetadata() {
        assertEquals(200, idiom.get("/services/DigitalEntityService?wsdl").statusCode());
        HttpResponse<String> wsdl2 = idiom.get("/services/DigitalEntityService?wsdl2");
        assertEquals(404, wsdl2.statusCode());
        assertTrue(wsdl2.body().contains("?wsdl"), wsdl2.body());
        assertTrue(idiom.get("/services/DigitalEntityService?wsdl").body().contains("nillable=\"true\""));
    }
}
