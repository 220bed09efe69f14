package dev.idiom.perf.saturation;

/**
 * report.html: a table of saturation points and ratios, then per operation achieved-vs-offered and
 * latency-vs-offered (open model) and throughput-vs-clients with the fitted USL curve (closed model),
 * the empty baseline drawn on every chart; and where each operation's time goes. Chart.js draws
 * them from the run's own summary, embedded in the page; nothing is fetched from the internet.
 */
final class ReportPage {
    private ReportPage() {}

    static String html(Report.Summary s, String json) {
        String status = s.complete() ? "complete" : "INCOMPLETE: " + s.incompleteReason();
        return PAGE.replace("@STATUS@", escape(status)).replace("@CLASS@", s.complete() ? "ok" : "bad")
                .replace("@DATA@", json.replace("</", "<\\/"));
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static final String PAGE = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Idiom saturation report</title>
            <script src="chart.umd.js"></script>
            <style>
            body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:72em;color:#222}
            table{border-collapse:collapse;margin:1em 0}td,th{padding:.25em .7em;border-bottom:1px solid #ddd;text-align:right}
            td:first-child,th:first-child{text-align:left}.ok{color:#1a7f37}.bad{color:#b42318;font-weight:bold}
            .charts{display:grid;grid-template-columns:1fr 1fr 1fr;gap:1em}.charts div{height:16em}
            h2{margin-top:2em;border-top:1px solid #ccc;padding-top:.5em}small{color:#666}
            </style></head><body>
            <h1>Idiom saturation report</h1>
            <p class="@CLASS@">Run @STATUS@</p>
            <p id="meta"></p>
            <p><small id="rule"></small></p>
            <table id="summary"><thead><tr><th>operation</th><th>saturation msg/s</th><th>× empty</th><th>closed peak msg/s</th><th>× empty</th>
            <th>unloaded p99 ms</th><th>USL λ</th><th>σ</th><th>κ</th><th>N*</th><th>limited by</th></tr></thead><tbody></tbody></table>
            <h2>Where the time goes</h2>
            <p><small>Mean per request at the closed model's busiest point: outside Idiom (client, network, container, queueing before Idiom's
            first filter), inside Idiom but not the database (protocol parsing and writing, application), and the database
            (connections held, group-commit waits). The bare servlet and the bare Axis2 echo have no Idiom code: their whole time is the
            container's, and Axis2's.</small></p>
            <div style="height:22em"><canvas id="breakdown"></canvas></div>
            <div id="ops"></div>
            <p><small>JMeter's own dashboard of every request of this run: <a href="jmeter-dashboard/index.html">jmeter-dashboard/</a>.
            Every figure: <a href="summary.json">summary.json</a>.</small></p>
            <script id="data" type="application/json">@DATA@</script>
            <script>
            const s = JSON.parse(document.getElementById('data').textContent);
            const f = (x, d = 0) => x == null || !isFinite(x) ? '–' : Number(x).toLocaleString('en', {maximumFractionDigits: d, minimumFractionDigits: d});
            document.getElementById('meta').textContent = `target: ${s.target}; started ${s.startedAt}, finished ${s.finishedAt}; `
              + `machine: ${s.machine.cores} cores, Java ${s.machine.java} (${s.machine.note}); settings: ${JSON.stringify(s.settings)}`;
            document.getElementById('rule').textContent = 'Rule: ' + s.rule + '. Ratios are to ' + s.baseline + ' of this same run.';
            const base = s.operations.find(o => o.name === s.baseline);
            const tbody = document.querySelector('#summary tbody');
            for (const o of s.operations) {
              const tr = document.createElement('tr');
              const below = o.saturation && o.saturation.reached && o.saturation.msgPerSecond === 0 && o.open && o.open.length > 0;
              const point = below ? '< ' + f(o.open[0].offered) : f(o.saturation && o.saturation.msgPerSecond) + (o.saturation && !o.saturation.reached ? '+' : '');
              const cells = [o.name, point, f(o.ratioToEmpty, 2),
                f(o.closedPeak), f(o.peakRatioToEmpty, 2), f(o.unloadedP99, 1), o.usl ? f(o.usl.lambda) : '–', o.usl ? f(o.usl.sigma, 3) : '–',
                o.usl ? f(o.usl.kappa, 5) : '–', f(o.uslPeakClients, 0), o.problem ? 'FAILED: ' + o.problem : (o.saturation ? o.saturation.limitedBy : '–')];
              cells.forEach(c => { const td = document.createElement('td'); td.textContent = c; tr.appendChild(td); });
              tbody.appendChild(tr);
            }
            const busiest = o => o.closed.reduce((a, b) => (b.figures.achievedPerSecond > (a ? a.figures.achievedPerSecond : -1) ? b : a), null);
            const bars = s.operations.map(o => {
              const p = busiest(o);
              if (!p) return [0, 0, 0];
              const total = p.figures.mean;
              const inIdiom = p.serverMicros == null ? 0 : p.serverMicros / 1000;
              const db = p.databaseMicros == null ? 0 : p.databaseMicros / 1000;
              return [Math.max(0, total - inIdiom), Math.max(0, inIdiom - db), db];
            });
            new Chart(document.getElementById('breakdown'), {type: 'bar', data: {labels: s.operations.map(o => o.name), datasets: [
              {label: 'outside Idiom (ms)', data: bars.map(b => b[0]), backgroundColor: '#c6d4e1'},
              {label: 'in Idiom, not the database (ms)', data: bars.map(b => b[1]), backgroundColor: '#3b82c4'},
              {label: 'database (ms)', data: bars.map(b => b[2]), backgroundColor: '#e07b39'}]},
              options: {maintainAspectRatio: false, animation: false, scales: {x: {stacked: true}, y: {stacked: true, title: {display: true, text: 'ms per request (mean)'}}}}});
            const xy = (xs, ys) => xs.map((x, i) => ({x, y: ys[i]}));
            const line = (label, data, color, dash) => ({label, data, borderColor: color, backgroundColor: color, borderDash: dash || [], showLine: true, pointRadius: 3});
            const linear = (title) => ({type: 'linear', title: {display: true, text: title}, beginAtZero: true});
            for (const o of s.operations) {
              const h = document.createElement('h2'); h.textContent = o.name; document.getElementById('ops').appendChild(h);
              const p = document.createElement('p'); p.textContent = o.description + (o.problem ? ' — FAILED: ' + o.problem : '')
                + (o.unloaded ? ` — unloaded (open model, ${f(o.unloaded.sentPerSecond)} msg/s): p50 ${f(o.unloaded.p50)} ms, p99 ${f(o.unloaded.p99)} ms` : '');
              document.getElementById('ops').appendChild(p);
              const div = document.createElement('div'); div.className = 'charts'; document.getElementById('ops').appendChild(div);
              const canvas = () => { const d = document.createElement('div'); const c = document.createElement('canvas'); d.appendChild(c); div.appendChild(d); return c; };
              const off = o.open.map(st => st.offered);
              const ds1 = [line('offered = achieved', xy(off, off), '#999', [4, 4]), line(o.name + ' achieved', xy(off, o.open.map(st => st.figures.achievedPerSecond)), '#3b82c4')];
              const ds2 = [line(o.name + ' p50', xy(off, o.open.map(st => st.figures.p50)), '#7fb3e0'), line(o.name + ' p99', xy(off, o.open.map(st => st.figures.p99)), '#3b82c4')];
              const ds3 = [line(o.name + ' measured', o.closed.map(c => ({x: c.clients, y: c.figures.achievedPerSecond})), '#3b82c4')];
              if (o.usl) {
                const maxN = Math.max(...o.closed.map(c => c.clients));
                const pts = []; for (let n = 1; n <= maxN; n += Math.max(1, Math.floor(maxN / 40))) pts.push({x: n, y: o.usl.lambda * n / (1 + o.usl.sigma * (n - 1) + o.usl.kappa * n * (n - 1))});
                ds3.push({...line('USL fit', pts, '#999', [4, 4]), pointRadius: 0});
              }
              if (base && base !== o) {
                ds1.push(line(base.name + ' achieved (baseline)', xy(base.open.map(st => st.offered), base.open.map(st => st.figures.achievedPerSecond)), '#e07b39', [2, 2]));
                ds2.push(line(base.name + ' p99 (baseline)', xy(base.open.map(st => st.offered), base.open.map(st => st.figures.p99)), '#e07b39', [2, 2]));
                ds3.push(line(base.name + ' (baseline)', base.closed.map(c => ({x: c.clients, y: c.figures.achievedPerSecond})), '#e07b39'));
              }
              if (o.saturation && o.saturation.msgPerSecond > 0) {
                const top = Math.max(...off, 1);
                ds1.push({...line('saturation point', [{x: o.saturation.msgPerSecond, y: 0}, {x: o.saturation.msgPerSecond, y: top}], '#b42318', [6, 3]), pointRadius: 0});
              }
              const opts = (x, y) => ({maintainAspectRatio: false, animation: false, scales: {x: linear(x), y: linear(y)}, plugins: {legend: {labels: {boxWidth: 10, font: {size: 10}}}}});
              new Chart(canvas(), {type: 'scatter', data: {datasets: ds1}, options: opts('offered msg/s (open model)', 'achieved msg/s')});
              new Chart(canvas(), {type: 'scatter', data: {datasets: ds2}, options: opts('offered msg/s (open model)', 'latency ms')});
              new Chart(canvas(), {type: 'scatter', data: {datasets: ds3}, options: opts('clients (closed model)', 'msg/s')});
              // every closed-model point (in matrix mode: clients × think time × payload)
              const t = document.createElement('table');
              t.innerHTML = '<tr><th>clients</th><th>think ms</th><th>+ bytes</th><th>msg/s</th><th>p50 ms</th><th>p99 ms</th><th>p99.9 ms</th>'
                + '<th>errors</th><th>request B (JMeter counts them for Apache HttpClient only)</th><th>in Idiom µs</th><th>database µs</th></tr>';
              for (const c of o.closed) {
                const tr = document.createElement('tr');
                [c.clients, c.thinkMillis, c.payloadBytes, f(c.figures.achievedPerSecond), f(c.figures.p50), f(c.figures.p99), f(c.figures.p999),
                 c.figures.errors, c.figures.meanRequestBytes ? f(c.figures.meanRequestBytes) : '–', f(c.serverMicros), f(c.databaseMicros)].forEach(v => {
                  const td = document.createElement('td'); td.textContent = v; tr.appendChild(td); });
                t.appendChild(tr);
              }
              document.getElementById('ops').appendChild(t);
            }
            </script>
            </body></html>
            """;
}
