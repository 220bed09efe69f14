package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import dev.idiom.wrappers.zotero.ZoteroStub;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin console in a real browser — Debian's chromium, headless, through its chromedriver
 * (installed by {@code src/test/debian/install-commands.sh} when missing) — against a real Idiom:
 * log in with the admin key, see the live figures take in a REST update within a second, pause and
 * resume a tool account from the page, open a saturation report. A reader's key gets 403 on every
 * admin page and action. Screenshots land in {@code target/browser/}.
 */
@Tag("slow") // drives a real Chromium: left out of ./mvnw -Pquick verify, run by ./mvnw verify
class ConsoleInBrowserTest {
    private static final Path SHOTS = Path.of("target", "browser");
    private static RunningIdiom idiom;
    private static WebDriver browser;
    private static String reader;

    @BeforeAll
    static void start() throws Exception {
        List<String> paths = install();
        Path reports = Files.createDirectories(Path.of("target", "browser-reports", "2026-11-01T10-00-00"));
        Files.writeString(reports.resolve("summary.json"), """
                {"complete":true,"incompleteReason":null,"startedAt":"2026-11-01T10:00:00Z","target":"embedded","baseline":"soap-empty",
                 "operations":[{"name":"soap-empty","saturation":{"msgPerSecond":2500.0}}]}""");
        Files.writeString(reports.resolve("report.html"), "<!doctype html><title>Idiom saturation report</title><h1>Saturation report of the browser test</h1>");
        idiom = new RunningIdiom(Map.of("sync-interval-ms", "0", "reports", reports.getParent().toString()));
        idiom.server.idiom().application().tools().accounts().put("browser-zot", "zotero", "http://127.0.0.1:9/", "users/1", "k");
        reader = RunningIdiom.json(idiom.post("/api/keys", "application/json", "{\"name\":\"browser-reader\",\"role\":\"reader\"}")).get("key").asText();

        Files.createDirectories(SHOTS);
        browser = chromium(paths);
    }

    /** Debian's chromium, headless, through its own chromedriver ({@code paths}: as {@link #install} found them). */
    static ChromeDriver chromium(List<String> paths) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(paths.get(0));
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1100");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(paths.get(1))).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (idiom != null) {
            idiom.close();
        }
    }

    static List<String> install() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "src/test/debian/install-commands.sh", "chromium=chromium", "chromedriver=chromium-driver").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip().lines().toList();
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "installing chromium took over 10 minutes");
        assertEquals(0, p.exitValue(), "could not install chromium and its driver (see the messages above)");
        assertEquals(2, lines.size(), "chromium and chromedriver: " + lines);
        return lines;
    }

    private static WebDriverWait within(Duration d) {
        // the live tables are redrawn as figures arrive: an element read a moment ago may be gone
        WebDriverWait wait = new WebDriverWait(browser, d, Duration.ofMillis(25));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    private static void shot(String name) throws IOException {
        File f = ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    private static void logIn(String key) {
        browser.get(idiom.url("/admin/login"));
        browser.manage().deleteAllCookies(); // whoever logged in before
        browser.get(idiom.url("/admin"));
        within(Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("/admin/login"));
        browser.findElement(By.id("key")).sendKeys(key);
        browser.findElement(By.cssSelector("form button[type=submit]")).click();
    }

    private static void click(String css) {
        within(Duration.ofSeconds(3)).until(d -> {
            d.findElement(By.cssSelector(css)).click();
            return true;
        });
    }

    /** A few clients reading and writing for a while: SOAP empty calls, REST creates and reads. */
    private static void traffic(Duration d) throws InterruptedException {
        long end = System.nanoTime() + d.toNanos();
        List<Thread> clients = new java.util.ArrayList<>();
        for (int c = 0; c < 4; c++) {
            clients.add(Thread.ofVirtual().start(() -> {
                while (System.nanoTime() < end) {
                    idiom.soap("<de:empty/>");
                    String id = RunningIdiom.json(idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Traffic\"}}")).get("id").asText();
                    idiom.get("/api/entities/" + id);
                    idiom.get("/api/entities/" + id);
                }
            }));
        }
        for (Thread t : clients) {
            t.join();
        }
    }

    private static List<String> logRows() {
        return browser.findElements(By.cssSelector("#log tbody tr")).stream().map(WebElement::getText).toList();
    }

    private static WebElement accountState() {
        return browser.findElement(By.cssSelector("#accounts tr[data-account='browser-zot'] td.state"));
    }

    @Test
    void anAdminWatchesAnUpdateArriveLivePausesAnAccountAndOpensAReport() throws Exception {
        logIn(RunningIdiom.ADMIN_TOKEN);
        within(Duration.ofSeconds(10)).until(d -> d.findElement(By.id("status")).getText().equals("live"));
        within(Duration.ofSeconds(5)).until(d -> !d.findElements(By.cssSelector("#accounts tr[data-account='browser-zot']")).isEmpty());
        traffic(Duration.ofSeconds(4)); // something for the charts to draw
        within(Duration.ofSeconds(3)).until(d -> !d.findElement(By.id("t-rate")).getText().equals("–"));
        shot("1-dashboard");

        String id = RunningIdiom.json(idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Seen live\"}}")).get("id").asText();
        long sent = System.nanoTime();
        assertEquals(200, idiom.patch("/api/entities/" + id, "{\"metadata\":{\"title\":\"Seen live, changed\"}}", "If-Match", "\"1\"").statusCode());
        // how fast it shows is measured (printed below, and in perf/), not asserted: a loaded CI machine is not the console
        within(Duration.ofSeconds(15)).until(d -> d.findElements(By.cssSelector("#operations tbody tr")).stream()
                .anyMatch(r -> r.getText().contains("PATCH /api/entities/{id}") && r.getText().contains("success")));
        long shownMillis = (System.nanoTime() - sent) / 1_000_000;
        System.out.println("console: the REST update showed in the live table after " + shownMillis + " ms");
        shot("2-update-seen");

        click("#accounts tr[data-account='browser-zot'] button");
        within(Duration.ofSeconds(3)).until(d -> accountState().getText().equals("paused"));
        assertTrue(idiom.server.idiom().application().tools().accounts().syncState("zotero", "users/1").paused(), "paused for real, not only on the page");
        shot("3-paused");
        click("#accounts tr[data-account='browser-zot'] button");
        within(Duration.ofSeconds(3)).until(d -> accountState().getText().equals("in sync"));

        // a pull writes a line to the log; the page filters the log as the admin types
        try (ZoteroStub zotero = new ZoteroStub()) {
            idiom.server.idiom().application().tools().accounts().put("browser-pull", "zotero", zotero.uri().toString(), ZoteroStub.LIBRARY, ZoteroStub.KEY);
            zotero.addRemotely("{\"itemType\":\"journalArticle\",\"title\":\"Pulled into the log\",\"date\":\"1987\"}");
            assertEquals(200, idiom.post("/api/tools/browser-pull/sync", "application/json", "").statusCode());
        }
        WebElement filter = browser.findElement(By.id("log-filter"));
        filter.sendKeys("pulled zotero " + ZoteroStub.LIBRARY);
        within(Duration.ofSeconds(5)).until(d -> logRows().stream().anyMatch(t -> t.contains("1 records: 1 created")));
        assertTrue(logRows().stream().allMatch(t -> t.contains("pulled zotero " + ZoteroStub.LIBRARY)), "only the matching lines: " + logRows());
        shot("3b-log-filtered");
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("log-level"))).selectByVisibleText("WARNING");
        within(Duration.ofSeconds(2)).until(d -> logRows().isEmpty());
        filter.clear();

        browser.findElement(By.linkText("Saturation reports")).click();
        within(Duration.ofSeconds(5)).until(d -> d.getTitle().contains("saturation reports"));
        browser.findElement(By.linkText("2026-11-01T10-00-00")).click();
        within(Duration.ofSeconds(5)).until(d -> d.findElement(By.tagName("h1")).getText().equals("Saturation report of the browser test"));
        shot("4-report");
    }

    @Test
    void aCuratorLogsIntoTheWorkspaceAndPausesAnAccountFromThePage() throws Exception {
        String curator = RunningIdiom.json(idiom.post("/api/keys", "application/json", "{\"name\":\"browser-curator\",\"role\":\"curator\"}"))
                .get("key").asText();
        browser.get(idiom.url("/curator/login"));
        browser.manage().deleteAllCookies();
        browser.get(idiom.url("/curator"));
        within(Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("/curator/login"));
        browser.findElement(By.id("key")).sendKeys(curator);
        browser.findElement(By.cssSelector("form button[type=submit]")).click();
        within(Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("/curator") && !d.getTitle().contains("log in"));
        assertTrue(browser.manage().getCookieNamed("idiom_curator").isHttpOnly());
        shot("5-curator-workspace");
        WebElement row = browser.findElements(By.cssSelector("#accounts tbody tr")).stream().filter(r -> r.getText().startsWith("browser-zot"))
                .findFirst().orElseThrow();
        row.findElement(By.xpath(".//button[text()='Pause']")).click();
        within(Duration.ofSeconds(5)).until(d -> d.findElement(By.cssSelector("p[role=status]")).getText().equals("Paused browser-zot."));
        assertTrue(idiom.server.idiom().application().tools().accounts().syncState("zotero", "users/1").paused(), "paused for real");
        shot("6-curator-paused");
        browser.findElements(By.cssSelector("#accounts tbody tr")).stream().filter(r -> r.getText().startsWith("browser-zot")).findFirst().orElseThrow()
                .findElement(By.xpath(".//button[text()='Resume']")).click();
        within(Duration.ofSeconds(5)).until(d -> d.findElement(By.cssSelector("p[role=status]")).getText().equals("Resumed browser-zot."));
    }

    @Test
    void aReaderKeyGets403OnEveryAdminPageAndAction() {
        logIn(reader);
        within(Duration.ofSeconds(5)).until(d -> d.findElement(By.cssSelector(".error")).getText().contains("needs an admin key"));
        assertTrue(browser.manage().getCookieNamed("idiom_admin") == null, "no session for a reader");
        for (String path : new String[] {"/admin", "/admin/metrics", "/admin/health", "/admin/reports", "/admin/live", "/admin/log",
                "/admin/conflicts", "/admin/reports/2026-11-01T10-00-00/report.html"}) {
            assertEquals(403, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url(path))).header("Authorization", "Bearer " + reader)).statusCode(), path);
        }
        for (String action : new String[] {"pause", "resume", "retry"}) {
            assertEquals(403, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/actions/tools/browser-zot/" + action)))
                    .header("Authorization", "Bearer " + reader).POST(HttpRequest.BodyPublishers.noBody())).statusCode(), action);
        }
        assertEquals(403, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/logout")))
                .header("Authorization", "Bearer " + reader).POST(HttpRequest.BodyPublishers.noBody())).statusCode(), "logout");
    }
}
