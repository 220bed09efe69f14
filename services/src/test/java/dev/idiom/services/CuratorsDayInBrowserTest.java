package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idiom.db.TestDatabase;
import dev.idiom.wrappers.pinboard.PinboardStub;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A curator's day in the workspace, in Debian's chromium against a real Idiom, a real BibTeX file
 * and the Zotero and Pinboard stubs: log in; see a write Pinboard refused with its reason, fix the
 * record in the edit form and see the write go through; settle a conflict taking the file's value
 * and find it in the file; merge a likely duplicate; delete a record and restore it from the trash;
 * search the library and open a record with its provenance, its copies and an APA citation. Every
 * page is checked by axe-core (no serious or critical violation) and saved as a screenshot under
 * {@code target/browser/}.
 */
@Tag("slow") // drives a real Chromium: left out of ./mvnw -Pquick verify, run by ./mvnw verify
class CuratorsDayInBrowserTest {
    private static final Path SHOTS = Path.of("target", "browser");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static WebDriver browser;
    private static String axe;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        List<String> paths = ConsoleInBrowserTest.install();
        Files.createDirectories(SHOTS);
        try (InputStream in = CuratorsDayInBrowserTest.class.getResourceAsStream("/axe.min.js")) {
            axe = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        browser = ConsoleInBrowserTest.chromium(paths);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
    }

    private static WebDriverWait within(Duration d) {
        WebDriverWait wait = new WebDriverWait(browser, d, Duration.ofMillis(25));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    /** A screenshot of the page, after axe-core found no serious or critical violation on it. */
    private static void page(String name) throws IOException {
        JavascriptExecutor js = (JavascriptExecutor) browser;
        js.executeScript(axe);
        Object result = js.executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "axe.run(document, {resultTypes: ['violations']}).then(r => done(JSON.stringify(r.violations))).catch(e => done('failed: ' + e));");
        String violations = String.valueOf(result);
        assertTrue(violations.startsWith("["), "axe-core did not run on " + name + ": " + violations);
        List<String> bad = new ArrayList<>();
        for (JsonNode v : JSON.readTree(violations)) {
            String impact = v.path("impact").asText();
            if (impact.equals("serious") || impact.equals("critical")) {
                bad.add(impact + " " + v.path("id").asText() + ": " + v.path("help").asText() + " at " + v.path("nodes").path(0).path("target"));
            }
        }
        File f = ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), SHOTS.resolve("curator-" + name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        assertEquals(List.of(), bad, "axe-core on the " + name + " page");
    }

    private static String status() {
        return within(Duration.ofSeconds(10)).until(d -> d.findElement(By.cssSelector("p[role=status]"))).getText();
    }

    /** Waits for the page an action led to to say how it went ({@code prefix}): the page before may still be showing its own word. */
    private static void said(String prefix) {
        try {
            within(Duration.ofSeconds(10)).until(d -> {
                try {
                    return d.findElements(By.cssSelector("p[role=status]")).stream().anyMatch(e -> e.getText().startsWith(prefix));
                } catch (org.openqa.selenium.WebDriverException leaving) { // the element was on the page being left ("does not belong to the document")
                    return false;
                }
            });
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("the page did not say \u201c" + prefix + "\u2026\u201d; it says: " + status(), e);
        }
    }

    private static void press(String label) {
        within(Duration.ofSeconds(5)).until(d -> {
            d.findElement(By.xpath("//button[normalize-space()='" + label + "']")).click();
            return true;
        });
    }

    private static WebElement row(String table, String containing) {
        return within(Duration.ofSeconds(5)).until(d -> {
            try {
                return d.findElements(By.cssSelector(table + " tbody tr")).stream().filter(r -> r.getText().contains(containing)).findFirst().orElse(null);
            } catch (org.openqa.selenium.WebDriverException leaving) { // read while the page was being replaced
                return null;
            }
        });
    }

    private static JsonNode titled(RunningIdiom idiom, String title) {
        for (JsonNode e : RunningIdiom.json(idiom.get("/api/entities?limit=50")).get("entities")) {
            if (e.get("metadata").get("title").asText().equals(title)) {
                return e;
            }
        }
        throw new AssertionError("no DE titled " + title);
    }

    /** Adds a tool account through the form, and waits for its page. */
    private static void addAccount(String name, String kind, String base, String account, String secret, String policy) {
        browser.get(browser.getCurrentUrl().replaceAll("/curator.*", "/curator"));
        browser.findElement(By.linkText("Add an account")).click();
        within(Duration.ofSeconds(5)).until(d -> d.findElement(By.id("a-name"))).sendKeys(name);
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("a-kind"))).selectByValue(kind);
        browser.findElement(By.id("a-base")).sendKeys(base);
        browser.findElement(By.id("a-account")).sendKeys(account);
        browser.findElement(By.id("a-secret")).sendKeys(secret);
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("a-policy"))).selectByValue(policy);
        press("Add and check");
        said("Added " + name);
    }

    @Test
    void aCuratorSetsUpBrowsersAndReadsWhatToTypeIntoFloccus() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "0",
                "pull-interval-ms", "0"))) {
            String curator = RunningIdiom.json(idiom.post("/api/keys", "application/json", "{\"name\":\"ada\",\"role\":\"curator\"}")).get("key").asText();
            browser.get(idiom.url("/curator/login"));
            browser.manage().deleteAllCookies();
            browser.get(idiom.url("/curator/login"));
            browser.findElement(By.id("key")).sendKeys(curator);
            browser.findElement(By.cssSelector("form button[type=submit]")).click();
            within(Duration.ofSeconds(10)).until(d -> d.getTitle().contains("All in step"));

            browser.findElement(By.linkText("Add an account")).click();
            within(Duration.ofSeconds(5)).until(d -> d.findElement(By.id("a-name"))).sendKeys("browsers");
            new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("a-kind"))).selectByValue("xbel-dav");
            browser.findElement(By.id("a-base")).sendKeys("bookmarks.xbel");
            press("Add and check");
            said("browsers is ready");
            page("8-browsers-password");
            String url = browser.findElement(By.id("dav-url")).getText();
            String password = browser.findElement(By.id("dav-password")).getText();
            assertEquals(idiom.url("/dav/browsers/"), url);
            FloccusBrowser floccus = new FloccusBrowser("chromium", url, password, "bookmarks.xbel");
            floccus.add("https://example.org/from-the-page", "Set up from the page", "");
            floccus.sync();
            assertEquals("Set up from the page", titled(idiom, "Set up from the page").get("metadata").get("title").asText());

            // by keyboard: the link to the account's page, then its new-password button
            WebElement link = browser.findElement(By.linkText("The account's page"));
            link.sendKeys(org.openqa.selenium.Keys.ENTER);
            within(Duration.ofSeconds(10)).until(d -> d.findElements(By.id("dav")).size() == 1);
            assertTrue(browser.findElement(By.id("dav")).getText().contains(url), browser.findElement(By.id("dav")).getText());
            assertFalse(browser.getPageSource().contains(password), "the password is shown once");
            page("9-browsers-account");
            browser.findElement(By.xpath("//button[normalize-space()='Make a new password']")).sendKeys(org.openqa.selenium.Keys.ENTER);
            said("browsers is ready");
            assertFalse(browser.findElement(By.id("dav-password")).getText().equals(password));
        }
    }

    @Test
    void aCuratorsDayFromTheInboxToTheLibrary() throws Exception {
        Path bib = Files.writeString(dir.resolve("shelf.bib"), """
                @article{demers87,
                  title = {Epidemic algorithms},
                  author = {Demers, Alan and Greene, Dan},
                  journal = {PODC},
                  year = {1987},
                  doi = {10.1145/41840.41841},
                  url = {https://doi.org/10.1145/41840.41841},
                }

                @article{demers87erratum,
                  title = {Erratum: Epidemic algorithms},
                  author = {Demers, Alan},
                  year = {1988},
                  doi = {10.1145/41840.41841},
                  url = {https://dl.acm.org/doi/10.1145/41840.41841},
                }

                @article{lamport78,
                  title = {Time, clocks, and the ordering of events in a distributed system},
                  author = {Lamport, Leslie},
                  journal = {Communications of the ACM},
                  volume = {21},
                  pages = {558--565},
                  year = {1978},
                }
                """);
        try (ZoteroStub zotero = new ZoteroStub(); PinboardStub pinboard = new PinboardStub();
             RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "0",
                     "pull-interval-ms", "0"))) {
            String curator = RunningIdiom.json(idiom.post("/api/keys", "application/json", "{\"name\":\"ada\",\"role\":\"curator\"}")).get("key").asText();

            // log in
            browser.get(idiom.url("/curator/login"));
            browser.manage().deleteAllCookies();
            browser.get(idiom.url("/curator"));
            within(Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("/curator/login"));
            page("0-login");
            browser.findElement(By.id("key")).sendKeys(curator);
            browser.findElement(By.cssSelector("form button[type=submit]")).click();
            within(Duration.ofSeconds(10)).until(d -> d.getTitle().contains("All in step"));

            // add the file and the Zotero library, and bring the file's records in
            addAccount("shelf", "bibtex", bib.toString(), "", "", "ask");
            page("1-account-added");
            browser.get(idiom.url("/curator"));
            row("#accounts", "shelf").findElement(By.xpath(".//button[text()='Sync now']")).click();
            said("Synced shelf: 3 records read");
            addAccount("zot", "zotero", zotero.uri().toString(), ZoteroStub.LIBRARY, ZoteroStub.KEY, "prefer-idiom");

            press("Check the connection");
            said("Checked zot: the tool answered");

            // a rule previewed, then saved: every record to Zotero
            browser.findElement(By.id("m-all")).click();
            press("Preview");
            WebElement preview = within(Duration.ofSeconds(5)).until(d -> d.findElement(By.id("preview")));
            assertTrue(preview.getText().contains("3 new copies") && preview.getText().contains("Time, clocks"), preview.getText());
            assertEquals(0, zotero.size(), "a preview writes nothing");
            page("2-rule-preview");
            press("Save this rule");
            said("Saved the rule of zot");
            browser.get(idiom.url("/curator"));
            row("#accounts", "zot").findElement(By.xpath(".//button[text()='Sync now']")).click();
            said("Synced zot");
            assertEquals(3, zotero.size(), "the rule's copies are made");

            assertEquals(200, idiom.put("/api/tools/pins", "{\"kind\":\"pinboard\",\"baseUrl\":\"" + pinboard.uri() + "/v1/\",\"secret\":\""
                    + PinboardStub.TOKEN + "\",\"mirror\":\"all\"}").statusCode());
            assertEquals(200, idiom.post("/api/tools/pins/sync", "application/json", "").statusCode());
            // someone edits a title in Idiom while the file changes it too: under "ask" it waits for a person
            JsonNode demers = titled(idiom, "Epidemic algorithms");
            assertEquals(200, idiom.patch("/api/entities/" + demers.get("id").asText(), "{\"metadata\":{\"title\":\"Epidemic algorithms for replicated "
                    + "databases\"}}", "If-Match", "\"" + demers.get("version").asInt() + "\"").statusCode());
            Files.writeString(bib, Files.readString(bib).replace("{Epidemic algorithms}", "{Epidemic algorithms (PODC)}"));
            assertEquals(200, idiom.post("/api/tools/shelf/sync", "application/json", "").statusCode());
            // the open page counts them as they come, without a reload (htmx over the workspace's server-sent events)
            within(Duration.ofSeconds(10)).until(d -> d.findElement(By.id("waiting")).getText().equals("3"));
            browser.get(idiom.url("/curator"));
            within(Duration.ofSeconds(10)).until(d -> d.getTitle().contains("Needs you"));
            assertTrue(browser.getTitle().startsWith("(3) "), "a refused write, a conflict and a likely pair: " + browser.findElement(By.tagName("main")).getText());
            page("3-inbox");

            // the refused write, with Pinboard's reason; fixed in the edit form, it goes through
            WebElement refused = row("#parked", "Time, clocks");
            assertTrue(refused.getText().contains("needs a URL"), refused.getText());
            refused.findElement(By.tagName("a")).click();
            within(Duration.ofSeconds(5)).until(d -> d.findElement(By.tagName("h2")).getText().startsWith("Time, clocks"));
            assertTrue(row("#copies", "pins").getText().contains("refused"), "the copy's state says so on the record");
            browser.findElement(By.linkText("Edit")).click();
            WebElement url = within(Duration.ofSeconds(5)).until(d -> d.findElement(By.id("f-url")));
            url.sendKeys("https://lamport.azurewebsites.net/pubs/time-clocks.pdf");
            page("4-edit");
            press("Save");
            said("Saved 1 field");
            browser.get(idiom.url("/curator"));
            press("Retry refused writes");
            said("Retrying");
            press("Sync now"); // the first row's: the file account
            within(Duration.ofSeconds(30)).until(d -> {
                d.navigate().refresh();
                return d.findElement(By.cssSelector("#parked")).getText().contains("None");
            });

            // the conflict: the file's value is taken, and the file keeps it
            WebElement conflict = row("#conflicts", "Epidemic algorithms");
            assertTrue(conflict.getText().contains("Epidemic algorithms (PODC)") && conflict.getText().contains("for replicated databases"));
            conflict.findElement(By.xpath(".//button[text()=\"Take the tool's\"]")).click();
            said("Resolved");
            assertEquals(200, idiom.post("/api/tools/shelf/sync", "application/json", "").statusCode());
            assertTrue(Files.readString(bib).contains("{Epidemic algorithms (PODC)}"), Files.readString(bib));

            // the likely pair, compared field by field and merged, the other's URL taken
            browser.get(idiom.url("/curator"));
            row("#duplicates", "Erratum").findElement(By.linkText("Compare field by field")).click();
            WebElement differing = within(Duration.ofSeconds(5)).until(d -> d.findElement(By.id("differing")));
            assertTrue(differing.getText().contains("https://dl.acm.org/doi/10.1145/41840.41841"), differing.getText());
            String kept = browser.getCurrentUrl().replaceAll(".*[?&]one=([0-9a-f-]{36}).*", "$1");
            String otherUrl = browser.findElement(By.cssSelector("label[for=other-url]")).getText();
            browser.findElement(By.id("other-url")).click();
            page("5-merge");
            press("Merge");
            said("Merged into");
            within(Duration.ofSeconds(5)).until(d -> d.getTitle().startsWith("All in step"));
            assertEquals(otherUrl, RunningIdiom.json(idiom.get("/api/entities/" + kept)).get("metadata").get("url").asText(),
                    "the kept record took the other's URL, as chosen");
            page("5-all-in-step");

            // search the library, open a record: its provenance, its copies, an APA citation
            browser.findElement(By.linkText("Library")).click();
            WebElement q = within(Duration.ofSeconds(5)).until(d -> d.findElement(By.id("q")));
            q.sendKeys("clocks");
            press("Search");
            within(Duration.ofSeconds(5)).until(d -> d.findElement(By.cssSelector("#results")).getText().contains("1 record"));
            page("6-library");
            browser.findElement(By.partialLinkText("Time, clocks")).click();
            WebElement provenance = row("#fields", "URL");
            assertTrue(provenance.getText().contains("ada"), "the URL came from the curator's edit: " + provenance.getText());
            assertTrue(row("#fields", "Title").getText().contains("shelf"), "the title came from the file");
            assertTrue(row("#copies", "zot").findElements(By.tagName("a")).size() == 1, "a link into Zotero");
            String citation = browser.findElement(By.id("citation")).getText();
            assertTrue(citation.startsWith("Lamport, L. (1978). Time, clocks, and the ordering of events in a distributed system."), citation);
            page("7-record");

            // delete to the trash, restore from it
            press("Delete to the trash");
            said("Moved");
            page("8-trash");
            row("#trash", "Time, clocks").findElement(By.xpath(".//button[text()='Restore']")).click();
            said("Restored");
            assertEquals("LIVE", RunningIdiom.json(idiom.get("/api/entities/" + titled(idiom, "Time, clocks, and the ordering of events in a distributed "
                    + "system").get("id").asText())).path("lifecycle").path("state").asText("LIVE").toUpperCase());
        }
    }
}
