package dev.idiom.services.web;

import dev.idiom.services.http.PublicUrl;
import dev.idiom.consistency.report.AccountFailure;
import dev.idiom.db.TimeSource;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.services.app.Administration;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.Operation;
import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.app.HealthChecks;
import dev.idiom.services.app.Role;
import dev.idiom.services.app.ServiceTime;
import dev.idiom.services.http.ConflictJson;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;

/**
 * {@code /} and {@code /admin}: where things are; {@code /admin/metrics}: per-operation requests and
 * latencies, cache statistics, change feed position and lag, the store's head, the connection pool,
 * JVM memory, as JSON or Prometheus text; {@code /admin/health}: each part's health, 200 or 503.
 */
final class AdminPages extends HttpServlet {
    private final transient Application app;
    private final transient PublicUrl publicUrl;
    private final transient Admission admission;
    private final transient SaturationReports reports;
    private final transient Meters meters;
    private final transient HealthChecks health;
    private final transient RecentLog log;

    AdminPages(Application app, PublicUrl publicUrl, Admission admission, SaturationReports reports, Meters meters, HealthChecks health, RecentLog log) {
        this.log = log;
        this.app = app;
        this.meters = meters;
        this.health = health;
        this.publicUrl = publicUrl;
        this.admission = admission;
        this.reports = reports;
    }

    @Override
    public void destroy() {
        log.close();
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String path = req.getServletPath() + (req.getPathInfo() == null ? "" : req.getPathInfo());
        if (path.equals("/") || path.isEmpty()) {
            res.setContentType("text/html;charset=UTF-8");
            res.getWriter().write(page(publicUrl.of(req)));
            return;
        }
        // everything else here is for admins (the key check already refused requests without a key)
        if (!(req.getAttribute(Caller.ATTRIBUTE) instanceof Caller caller) || !Operation.ADMIN_CONSOLE.allows(caller)) {
            Refusal.send(req, res, ErrorCode.FORBIDDEN, "the admin pages need an admin key");
            return;
        }
        if (path.equals("/admin/metrics")) {
            metrics(req, res);
        } else if (path.equals("/admin/health")) {
            health(res);
        } else if (path.equals("/admin/log")) {
            json(res, JsonNodeFactory.instance.objectNode().put("keeps", RecentLog.KEEP).set("entries", log.json()));
        } else if (path.equals("/admin/conflicts")) {
            var list = JsonNodeFactory.instance.arrayNode();
            app.sync().conflicts(0, 500).forEach(e -> ConflictJson.write(list.addObject(), e));
            json(res, JsonNodeFactory.instance.objectNode().set("conflicts", list));
        } else if (path.equals("/admin/reports") || path.equals("/admin/reports/")) {
            listReports(req, res);
        } else if (path.startsWith("/admin/reports/")) {
            serveReport(res, path.substring("/admin/reports/".length()));
        } else if (path.equals("/admin") || path.equals("/admin/")) {
            String csrf = req.getAttribute(KeyCheck.SESSION) instanceof AdminSessions.Session s ? s.csrf() : null;
            var latest = reports.list().stream().filter(SaturationReports.Listed::complete).findFirst();
            AdminConsole.page(res, 200, ConsolePage.dashboard(publicUrl.of(req), csrf, latest.map(SaturationReports.Listed::baselineSaturation).orElse(null),
                    latest.map(SaturationReports.Listed::name).orElse(null)));
        } else {
            res.setStatus(404);
            res.setContentType("text/plain;charset=UTF-8");
            res.getWriter().write("no such page; try /admin, /api/openapi.json or /services/DigitalEntityService?wsdl\n");
        }
    }

    /**
     * JSON for the pages and for people; the Prometheus text format for a scraper: asked with
     * {@code ?format=prometheus}, or an {@code Accept} naming {@code text/plain} or OpenMetrics.
     */
    private void metrics(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String accept = req.getHeader("Accept");
        boolean asked = "prometheus".equals(req.getParameter("format"));
        if (asked || accept != null && (accept.contains("text/plain") || accept.contains("application/openmetrics-text"))) {
            String[] scrape = meters.scrape(asked ? null : accept);
            res.setContentType(scrape[0]);
            res.getWriter().write(scrape[1]);
        } else {
            res.setContentType("application/json");
            res.getWriter().write(metrics().toString());
        }
    }

    /** Each part's health (database, feeds, tool accounts) in the style of Dropwizard's health checks: 200 when all are healthy, 503 otherwise. */
    private void health(HttpServletResponse res) throws IOException {
        HealthChecks.Result r = health.run();
        ObjectNode n = JsonNodeFactory.instance.objectNode().put("healthy", r.healthy());
        ObjectNode checks = n.putObject("checks");
        r.checks().forEach(c -> checks.putObject(c.name()).put("healthy", c.healthy()).put("message", c.message()));
        res.setStatus(r.healthy() ? 200 : 503);
        json(res, n);
    }

    private static void json(HttpServletResponse res, ObjectNode n) throws IOException {
        res.setHeader("Cache-Control", "no-store");
        res.setContentType("application/json");
        res.getWriter().write(n.toString());
    }

    /** The saturation reports, newest first: a page, or JSON for {@code Accept: application/json}. */
    private void listReports(HttpServletRequest req, HttpServletResponse res) throws IOException {
        var listed = reports.list();
        String accept = req.getHeader("Accept");
        if (accept != null && accept.contains("application/json")) {
            res.setContentType("application/json");
            res.getWriter().write(JsonNodeFactory.instance.objectNode().put("folder", reports.dir().toString())
                    .set("reports", new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(listed)).toString());
            return;
        }
        String base = publicUrl.of(req);
        StringBuilder rows = new StringBuilder();
        for (var r : listed) {
            rows.append("<tr><td><a href=\"").append(ConsolePage.esc(base)).append("/admin/reports/").append(ConsolePage.esc(r.name())).append("/\">").append(ConsolePage.esc(r.name()))
                    .append("</a></td><td>").append(r.complete() ? "complete" : "<b>incomplete</b>: " + ConsolePage.esc(String.valueOf(r.incompleteReason())))
                    .append("</td><td>").append(r.operations()).append("</td><td>").append(r.baselineSaturation() == null ? "–" : ConsolePage.esc(r.baselineSaturation()))
                    .append("</td><td>").append(ConsolePage.esc(r.target())).append("</td></tr>");
        }
        res.setContentType("text/html;charset=UTF-8");
        res.getWriter().write("""
                <!doctype html><html><head><meta charset="utf-8"><title>Idiom saturation reports</title>
                <style>body{font-family:sans-serif;max-width:70em;margin:2em auto}td,th{padding:.2em .8em;text-align:left}</style></head><body>
                <p><a href="../admin">← the dashboard</a></p>
                <h1>Saturation reports</h1><p>From <code>./idiom perf</code>, in %s, newest first.</p>
                <table><tr><th>report</th><th>status</th><th>operations</th><th>empty SOAP saturation msg/s</th><th>target</th></tr>%s</table>
                </body></html>
                """.formatted(ConsolePage.esc(reports.dir().toString()), rows.length() == 0 ? "<tr><td colspan=5>none yet: run ./idiom perf</td></tr>" : rows));
    }

    private void serveReport(HttpServletResponse res, String relative) throws IOException {
        var file = reports.file(relative);
        if (file.isEmpty()) {
            res.setStatus(404);
            res.setContentType("text/plain;charset=UTF-8");
            res.getWriter().write("no such report file: " + relative + " (the reports are listed at /admin/reports)\n");
            return;
        }
        res.setContentType(SaturationReports.contentType(file.get()));
        res.setContentLengthLong(java.nio.file.Files.size(file.get()));
        java.nio.file.Files.copy(file.get(), res.getOutputStream());
    }

    /** What the console's live view gets each tick: every figure of {@link #metrics()}, the time, and each tool account's state. */
    String liveSnapshot() {
        ObjectNode n = metrics();
        n.put("at", TimeSource.currentTimeMillis());
        var accounts = n.putArray("accounts");
        for (var a : app.sync().report()) {
            accounts.addObject().put("name", a.name()).put("kind", a.kind()).put("account", a.account()).put("paused", a.paused()).put("held", a.held())
                    .put("replicas", a.replicas()).put("inSync", a.inSync()).put("pending", a.pending()).put("parked", a.parked())
                    .put("divergent", a.divergent()).put("lastPullAt", a.lastPullAt() == null ? null : a.lastPullAt().toString())
                    .put("lastPushAt", a.lastPushAt() == null ? null : a.lastPushAt().toString()).put("lagP99", a.lag().p99())
                    .put("lastError", app.sync().failure(a.name()).map(AccountFailure::said).orElse(null));
        }
        return n.toString();
    }

    ObjectNode metrics() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        Administration.Figures f = app.administration().figures();
        ObjectNode cache = n.putObject("cache");
        cache.put("implementation", f.cache().implementation());
        cache.put("hits", f.cache().hits());
        cache.put("misses", f.cache().misses());
        cache.put("hitRatio", f.cache().hitRatio());
        cache.put("evictions", f.cache().evictions());
        cache.put("size", f.cache().size());
        cache.put("invalidations", f.cache().invalidations());
        ObjectNode feed = n.putObject("changeFeed");
        feed.put("headPosition", f.feed().headPosition());
        if (f.feed().followed()) {
            feed.put("followedPosition", f.feed().followedPosition());
            feed.put("eventsFollowed", f.feed().eventsFollowed());
            feed.put("lastLagMillis", f.feed().lastLagMillis());
            feed.put("maxLagMillis", f.feed().maxLagMillis());
        }
        if (f.commits() != null) {
            ObjectNode commits = n.putObject("groupCommit");
            commits.put("batches", f.commits().batches());
            commits.put("appends", f.commits().appends());
            commits.put("meanBatch", f.commits().meanBatch());
            commits.put("largestBatch", f.commits().largestBatch());
        }
        ObjectNode pool = n.putObject("databasePool");
        pool.put("active", f.pool().active()).put("idle", f.pool().idle()).put("total", f.pool().total()).put("max", f.pool().max())
                .put("waiting", f.pool().waiting());
        n.set("operations", meters.requests());
        ObjectNode pushes = n.putObject("replicaPushes");
        app.sync().pushOutcomes().forEach(pushes::put);
        ServiceTime.Figures t = admission.serviceTime();
        ObjectNode requests = n.putObject("requests");
        requests.put("served", t.served());
        requests.put("servedMicros", t.servedNanos() / 1000);
        requests.put("databaseMicros", t.databaseNanos() / 1000);
        requests.put("refused", admission.refused());
        requests.put("inFlight", admission.inFlight());
        Runtime rt = Runtime.getRuntime();
        ObjectNode jvm = n.putObject("jvm");
        jvm.put("heapUsedBytes", rt.totalMemory() - rt.freeMemory());
        jvm.put("heapMaxBytes", rt.maxMemory());
        jvm.put("uptimeMillis", ManagementFactory.getRuntimeMXBean().getUptime());
        jvm.put("javaVersion", Runtime.version().toString());
        return n;
    }

    /** The landing page: where things are, no figures. */
    private static String page(String base) {
        return """
                <!doctype html><html><head><meta charset="utf-8"><title>Idiom</title>
                <link rel="stylesheet" href="%1$s/admin/assets/console.css"></head><body><section>
                <h1>Idiom</h1>
                <p>Federation service for scholarly bookmarks and references.</p>
                <ul>
                <li>SOAP: <a href="%1$s/services/DigitalEntityService?wsdl">%1$s/services/DigitalEntityService?wsdl</a></li>
                <li>REST: <a href="%1$s/api/openapi.json">%1$s/api/openapi.json</a> (entities under /api/entities, change feed /api/changes)</li>
                <li>Admin console: <a href="%1$s/admin">%1$s/admin</a> (log in with an admin key): live figures, tools and replicas, reports</li>
                <li>Metrics: <a href="%1$s/admin/metrics">%1$s/admin/metrics</a> (JSON; <code>?format=prometheus</code> for Prometheus text);
                health: <a href="%1$s/admin/health">%1$s/admin/health</a>; saturation reports: <a href="%1$s/admin/reports">%1$s/admin/reports</a>
                (an admin key: a console session, or Authorization: Bearer &lt;key&gt;)</li>
                </ul>
                </section></body></html>
                """.formatted(ConsolePage.esc(base));
    }
}
