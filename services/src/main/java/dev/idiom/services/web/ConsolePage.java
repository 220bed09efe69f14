package dev.idiom.services.web;

/**
 * The console's two pages: the login form and the dashboard. Markup only: the dashboard's
 * behaviour is {@code console.js}, its look {@code console.css}, so the pages run under a
 * Content-Security-Policy that allows no inline script and nothing from another origin.
 */
final class ConsolePage {
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
            + "frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

    private ConsolePage() {}

    static String login(String base, String error) {
        return login(base, error, "Idiom admin", "/admin/login", "Admin key", "An admin key: the first start writes one to "
                + "<code>&lt;data&gt;/admin.key</code>; <code>./idiom keys create</code> makes more.");
    }

    /** A console's login form: its title, where it posts, the key's label and a hint (markup, written here only). */
    static String login(String base, String error, String title, String action, String label, String hint) {
        return """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>%3$s — log in</title>
                <link rel="stylesheet" href="%1$s/admin/assets/console.css"></head><body class="login">
                <main><h1>%3$s</h1>
                %2$s
                <form method="post" action="%1$s%4$s">
                <label for="key">%5$s</label>
                <input id="key" name="key" type="password" autocomplete="current-password" required autofocus>
                <button type="submit">Log in</button>
                </form>
                <p class="hint">%6$s
                The browser keeps only a session cookie (HttpOnly, SameSite=Strict), never the key.</p></main>
                </body></html>
                """.formatted(esc(base), error == null ? "" : "<p class=\"error\" role=\"alert\">" + esc(error) + "</p>", esc(title), esc(action), esc(label),
                hint);
    }

    /**
     * @param csrf the session's CSRF token, for the page's actions (null for a bearer-key visitor: no actions need it)
     * @param saturation the empty SOAP baseline's saturation point of the latest report, msg/s, or null
     */
    static String dashboard(String base, String csrf, String saturation, String reportName) {
        return """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Idiom admin</title>
                <meta name="idiom-base" content="%1$s"><meta name="idiom-csrf" content="%2$s">
                <meta name="idiom-saturation" content="%3$s"><meta name="idiom-report" content="%4$s">
                <link rel="stylesheet" href="%1$s/admin/assets/console.css">
                <script src="%1$s/admin/assets/chart.umd.js" defer></script><script src="%1$s/admin/assets/console.js" defer></script></head>
                <body>
                <header><h1>Idiom admin</h1><span id="status" class="status">connecting…</span>
                <nav><a href="%1$s/admin/reports">Saturation reports</a> · <a href="%1$s/admin/health">Health</a> ·
                <a href="%1$s/admin/metrics">Metrics (JSON)</a> · <a href="%1$s/admin/metrics?format=prometheus">Prometheus</a> ·
                <a href="%1$s/api/openapi.json">OpenAPI</a> · <a href="%1$s/services/DigitalEntityService?wsdl">WSDL</a></nav>
                <form method="post" action="%1$s/admin/logout" class="logout"><input type="hidden" name="csrf" value="%2$s"><button type="submit">Log out</button></form>
                </header>
                <section class="tiles">
                <div class="tile"><span class="label">messages / s</span><span id="t-rate" class="value">–</span></div>
                <div class="tile"><span class="label">events / s</span><span id="t-events" class="value">–</span></div>
                <div class="tile"><span class="label">requests served</span><span id="t-served" class="value">–</span></div>
                <div class="tile"><span class="label">cache hit ratio</span><span id="t-hits" class="value">–</span></div>
                <div class="tile"><span class="label">outbox pending</span><span id="t-outbox" class="value">–</span></div>
                <div class="tile"><span class="label">parked pushes</span><span id="t-parked" class="value">–</span></div>
                <div class="tile"><span class="label">propagation lag p99</span><span id="t-lag" class="value">–</span></div>
                <div class="tile"><span class="label">refused busy / s</span><span id="t-refused" class="value">–</span></div>
                </section>
                <section id="held" hidden><h2>Held accounts</h2><p class="hint">A pull or a rule would have removed more than the account's share
                of copies: nothing was removed, and the account waits for a person (its actions are in the table below).</p>
                <table id="held-accounts"><thead><tr><th>account</th><th>tool</th><th>what was held</th></tr></thead><tbody></tbody></table></section>
                <section><h2>Tools and replicas</h2><table id="accounts"><thead><tr><th>account</th><th>tool</th><th>state</th><th>replicas</th>
                <th>in sync</th><th>pending</th><th>parked</th><th>divergent</th><th>last pull</th><th>last push</th><th>lag p99 ms</th><th>last error</th><th></th></tr></thead>
                <tbody></tbody></table></section>
                <section class="charts">
                <figure><figcaption>Messages per second, per operation (dashed: the empty SOAP saturation point of the latest report)</figcaption><canvas id="c-rate"></canvas></figure>
                <figure><figcaption>Latency p50 / p99 per operation, ms (last 30 s)</figcaption><canvas id="c-latency"></canvas></figure>
                <figure><figcaption>Events appended per second and cache hit ratio</figcaption><canvas id="c-events"></canvas></figure>
                <figure><figcaption>Outbox depth and propagation lag p99, ms</figcaption><canvas id="c-outbox"></canvas></figure>
                </section>
                <section><h2>Operations</h2><table id="operations"><thead><tr><th>protocol</th><th>operation</th><th>outcome</th><th>count</th>
                <th>msg/s</th><th>p50 ms</th><th>p99 ms</th><th>max ms</th></tr></thead><tbody></tbody></table></section>
                <section><h2>Conflicts</h2><p class="hint">Both values kept in the DE's history; the winner by the account's policy.
                <input id="conflicts-filter" type="search" placeholder="filter: DE, field, tool, value…" aria-label="filter conflicts"></p>
                <table id="conflicts"><thead><tr><th>when</th><th>DE</th><th>field</th><th>base</th><th>Idiom's value</th><th>tool's value</th>
                <th>winner</th><th>policy</th><th>tool account</th></tr></thead><tbody></tbody></table></section>
                <section><h2>Log</h2><p class="hint">Pulls, imports, holds, failed pushes and syncs, errors: the last %5$s lines at INFO and above, newest first.
                <select id="log-level" aria-label="level"><option value="">every level</option><option>INFO</option><option>WARNING</option><option>SEVERE</option></select>
                <input id="log-filter" type="search" placeholder="filter: source, words…" aria-label="filter the log">
                <button id="log-prev" type="button">newer</button> <span id="log-page"></span> <button id="log-next" type="button">older</button></p>
                <table id="log"><thead><tr><th>when</th><th>level</th><th>source</th><th>message</th></tr></thead><tbody></tbody></table></section>
                <section><h2>Now</h2><details><summary>every figure, as the last snapshot gave it</summary><pre id="raw"></pre></details></section>
                </body></html>
                """.formatted(esc(base), csrf == null ? "" : esc(csrf), saturation == null ? "" : esc(saturation), reportName == null ? "" : esc(reportName), RecentLog.KEEP);
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
