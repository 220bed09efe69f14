package dev.idiom.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.contract.soap.Author;
import dev.idiom.contract.soap.Authors;
import dev.idiom.contract.soap.CreateDE;
import dev.idiom.contract.soap.DigitalEntityService;
import dev.idiom.contract.soap.DigitalEntityServicePortType;
import dev.idiom.contract.soap.Download;
import dev.idiom.contract.soap.Empty;
import dev.idiom.contract.soap.Entity;
import dev.idiom.contract.soap.History;
import dev.idiom.contract.soap.IdiomFault;
import dev.idiom.contract.soap.ImportAll;
import dev.idiom.contract.soap.ImportAllResponse;
import dev.idiom.contract.soap.Metadata;
import dev.idiom.contract.soap.MoreInfo;
import dev.idiom.contract.soap.Search;
import dev.idiom.contract.soap.SearchResponse;
import dev.idiom.contract.soap.Tags;
import dev.idiom.contract.soap.UpdateDE;
import dev.idiom.contract.soap.Upload;
import dev.idiom.db.TestDatabase;
import dev.idiom.services.IdiomConfig;
import dev.idiom.services.IdiomServer;
import jakarta.xml.ws.BindingProvider;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every WSDL operation and its fault through an independent client: JAX-WS classes generated from
 * the WSDL by CXF's wsdl2java, with CXF validating every response it receives against the WSDL's
 * schema. If the WSDL and what Idiom sends disagree, this fails.
 */
class SoapContractTest {
    @TempDir
    static Path dir;
    private static IdiomServer server;
    private static DigitalEntityServicePortType port;

    private static final String ADMIN = "soap-contract-admin-key-0123456789abcdef";

    @BeforeAll
    static void start() throws Exception {
        server = IdiomServer.start(IdiomConfig.from(Map.of("port", "0", "db-url", TestDatabase.freshUrl(), "data", dir.resolve("data").toString(),
                        "files-dir", dir.toString()),
                Map.of("IDIOM_ADMIN_TOKEN", ADMIN), k -> null));
        // the client reads the WSDL the server serves, with the address it serves
        port = client(server, ADMIN);
        Path bib = dir.resolve("refs.bib");
        Files.writeString(bib, "@article{saito05,\n  title = {Optimistic replication},\n  author = {Saito, Yasushi},\n  year = {2005},\n"
                + "  journal = {ACM Computing Surveys}\n}\n");
        HttpResponse<String> account = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url() + "/api/tools/refs"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + ADMIN).PUT(HttpRequest.BodyPublishers.ofString("{\"kind\":\"bibtex\",\"baseUrl\":\""
                        + bib.toAbsolutePath() + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, account.statusCode(), account.body());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Entity create(String title) throws IdiomFault {
        Metadata m = new Metadata();
        m.setTitle(title);
        m.setType("article-journal");
        m.setYear(2005);
        Authors authors = new Authors();
        Author a = new Author();
        a.setFamily("Shapiro");
        a.setGiven("Marc");
        authors.getAuthor().add(a);
        m.setAuthors(authors);
        Tags tags = new Tags();
        tags.getTag().add("crdt");
        m.setTags(tags);
        CreateDE request = new CreateDE();
        request.setEntity(m);
        return port.createDE(request).getEntity();
    }

    private static MoreInfo moreInfo(String id, String source) {
        MoreInfo request = new MoreInfo();
        request.setId(id);
        request.setSource(source);
        return request;
    }

    private static UpdateDE update(String id, String field, String value, int expected) {
        UpdateDE u = new UpdateDE();
        u.setId(id);
        u.setField(field);
        u.setValue(value);
        u.setExpectedVersion(expected);
        return u;
    }

    @Test
    void everyOperationAnswersWhatTheWsdlDeclares() throws Exception {
        assertNotNull(port.empty(new Empty()));
        Entity created = create("Conflict-free replicated data types");
        assertEquals(1, created.getVersion());
        assertEquals("crdt", created.getTags().getTag().getFirst());

        assertEquals(created.getId(), port.moreInfo(moreInfo(created.getId(), "db")).getEntity().getId());
        assertEquals(created.getTitle(), port.moreInfo(moreInfo(created.getId(), null)).getEntity().getTitle());

        Entity updated = port.updateDE(update(created.getId(), "venue", "SSS", 1)).getEntity();
        assertEquals("SSS", updated.getVenue());
        Entity cleared = port.updateDE(update(created.getId(), "venue", null, updated.getVersion())).getEntity(); // xsi:nil
        assertNull(cleared.getVenue());

        History h = new History();
        h.setId(created.getId());
        assertEquals(cleared.getVersion(), port.history(h).getEvent().size());

        Search s = new Search();
        s.setTag("crdt");
        s.setLimit(10);
        SearchResponse found = port.search(s);
        assertTrue(found.getEntity().stream().anyMatch(e -> e.getId().equals(created.getId())));

        ImportAll all = new ImportAll();
        all.setTool("refs");
        all.setFromStart(true);
        ImportAllResponse imported = port.importAll(all);
        assertEquals(1, imported.getRecords());

        Download d = new Download();
        d.setTool("refs");
        d.setRemoteId("saito05");
        assertEquals("unchanged", port.download(d).getOutcome());

        Upload u = new Upload();
        u.setId(created.getId());
        u.setTool("refs");
        assertEquals("bibtex", port.upload(u).getReplica().getTool());
    }

    @Test
    void theClientValidatesAgainstTheSchemaSoAPassingRunMeansConformingMessages() {
        // proof that validation is on: a request missing a required element is stopped by the client itself
        UpdateDE incomplete = update("0195f1e2-0000-7000-8000-000000000000", null, "x", 1);
        jakarta.xml.ws.WebServiceException e = assertThrows(jakarta.xml.ws.WebServiceException.class, () -> port.updateDE(incomplete));
        assertTrue(String.valueOf(e.getMessage()).contains("cvc-") || String.valueOf(e.getCause()).contains("cvc-"), e.toString());
    }

    @Test
    void eachFaultCarriesItsCodeInTheDeclaredDetail() throws Exception {
        IdiomFault notFound = assertThrows(IdiomFault.class, () -> port.moreInfo(moreInfo("0195f1e2-0000-7000-8000-000000000000", null)));
        assertEquals("NotFound", notFound.getFaultInfo().getCode());

        IdiomFault invalid = assertThrows(IdiomFault.class, () -> port.moreInfo(moreInfo("not-a-uuid", null)));
        assertEquals("Invalid", invalid.getFaultInfo().getCode());

        Entity e = create("Stale reads");
        IdiomFault stale = assertThrows(IdiomFault.class, () -> port.updateDE(update(e.getId(), "notes", "late", 7)));
        assertEquals("StaleVersion", stale.getFaultInfo().getCode());
        assertTrue(stale.getFaultInfo().getMessage().contains("version"), stale.getFaultInfo().getMessage());

        Download d = new Download();
        d.setTool("no-such-account");
        d.setRemoteId("x");
        IdiomFault unknownTool = assertThrows(IdiomFault.class, () -> port.download(d));
        assertTrue(Map.of("Invalid", 1, "NotFound", 1).containsKey(unknownTool.getFaultInfo().getCode()), unknownTool.getFaultInfo().getCode());

        // a tool that fails: a "BibTeX file" that is a directory cannot be read (saved without the check that would refuse it)
        Files.createDirectories(dir.resolve("broken.bib"));
        HttpResponse<String> broken = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url() + "/api/tools/broken?check=false"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + ADMIN).PUT(HttpRequest.BodyPublishers.ofString("{\"kind\":\"bibtex\",\"baseUrl\":\"broken.bib\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, broken.statusCode(), broken.body());
        ImportAll all = new ImportAll();
        all.setTool("broken");
        IdiomFault toolFailed = assertThrows(IdiomFault.class, () -> port.importAll(all));
        assertEquals("ToolFailed", toolFailed.getFaultInfo().getCode());
    }

    /** A client of the served WSDL, schema-validating both ways, presenting {@code key} (null: none). */
    static DigitalEntityServicePortType client(IdiomServer server, String key) throws Exception {
        DigitalEntityServicePortType client = new DigitalEntityService(new URL(server.url() + "/services/DigitalEntityService?wsdl"))
                .getDigitalEntityServiceSoap11();
        ((BindingProvider) client).getRequestContext().put("schema-validation-enabled", "BOTH");
        if (key != null) {
            ((BindingProvider) client).getRequestContext().put(jakarta.xml.ws.handler.MessageContext.HTTP_REQUEST_HEADERS,
                    Map.of("Authorization", List.of("Bearer " + key)));
        }
        return client;
    }

    @Test
    void withoutAKeyOrWithAReadersKeyOperationsAreFaultsTheClientReads() throws Exception {
        ImportAll all = new ImportAll();
        all.setTool("refs");
        IdiomFault unauthorized = assertThrows(IdiomFault.class, () -> client(server, null).importAll(all));
        assertEquals("Unauthorized", unauthorized.getFaultInfo().getCode());
        MoreInfo some = new MoreInfo();
        some.setId(java.util.UUID.randomUUID().toString());
        IdiomFault wrong = assertThrows(IdiomFault.class, () -> client(server, "not-a-key").moreInfo(some));
        assertEquals("Unauthorized", wrong.getFaultInfo().getCode());
        String reader = server.idiom().application().keys().create("soap-reader", dev.idiom.services.app.Role.READER, "test").secret();
        IdiomFault forbidden = assertThrows(IdiomFault.class, () -> client(server, reader).importAll(all));
        assertEquals("Forbidden", forbidden.getFaultInfo().getCode());
        client(server, reader).empty(new Empty());
    }
}
