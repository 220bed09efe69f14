// Idiom admin console: live figures over Server-Sent Events (/admin/live), a snapshot every half second.
// Rates are differences of the server's counters between snapshots; the charts keep the last two minutes.
(function () {
  'use strict';
  const meta = (n) => document.querySelector('meta[name="' + n + '"]').content;
  const base = meta('idiom-base');
  const csrf = meta('idiom-csrf');
  const saturation = parseFloat(meta('idiom-saturation'));
  const report = meta('idiom-report');
  const WINDOW = 240; // two minutes of half-second snapshots
  const TOP = 8;
  const history = [];
  let prev = null;

  const $ = (id) => document.getElementById(id);
  const fmt = (v, digits) => (v === null || v === undefined || Number.isNaN(v)) ? '–'
    : v.toLocaleString('en', { maximumFractionDigits: digits === undefined ? 0 : digits });
  const opKey = (o) => o.protocol + ' ' + o.operation;

  function sumByOp(ops) {
    const m = new Map();
    for (const o of ops || []) {
      const k = opKey(o);
      const e = m.get(k) || { count: 0, p50: 0, p99: 0, served: 0 };
      e.count += o.count;
      if (o.outcome === 'success' || !e.served) { e.p50 = o.p50Millis; e.p99 = o.p99Millis; e.served = 1; }
      m.set(k, e);
    }
    return m;
  }

  function chart(id, yTitle, y2Title) {
    const scales = { x: { ticks: { maxTicksLimit: 8 } }, y: { beginAtZero: true, title: { display: true, text: yTitle } } };
    if (y2Title) { scales.y2 = { beginAtZero: true, position: 'right', grid: { drawOnChartArea: false }, title: { display: true, text: y2Title } }; }
    return new Chart($(id), {
      type: 'line', data: { labels: [], datasets: [] },
      options: { animation: false, responsive: true, maintainAspectRatio: false, elements: { point: { radius: 0 } },
        interaction: { mode: 'index', intersect: false }, scales: scales, plugins: { legend: { position: 'bottom', labels: { boxWidth: 12 } } } }
    });
  }

  const palette = ['#2456a6', '#d9822b', '#1e7a3c', '#b3261e', '#7b4ea3', '#0f8b8d', '#8d6e1f', '#c2185b', '#455a64'];
  let charts = null;

  function series(label, data, i, extra) {
    return Object.assign({ label: label, data: data, borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length], borderWidth: 2 }, extra || {});
  }

  function draw() {
    if (!charts) { return; }
    const labels = history.map((h) => h.time);
    const latest = history[history.length - 1];
    const top = [...latest.rates.keys()].sort((a, b) => (latest.rates.get(b) || 0) - (latest.rates.get(a) || 0)).slice(0, TOP);
    const rate = top.map((k, i) => series(k, history.map((h) => h.rates.get(k) || 0), i));
    if (!Number.isNaN(saturation)) {
      rate.push(series('saturation point, empty SOAP (' + report + ')', history.map(() => saturation), 8, { borderDash: [6, 4], borderWidth: 1 }));
    }
    charts.rate.data = { labels: labels, datasets: rate };
    const lat = [];
    top.slice(0, 4).forEach((k, i) => {
      lat.push(series(k + ' p99', history.map((h) => h.p99.get(k) ?? null), i));
      lat.push(series(k + ' p50', history.map((h) => h.p50.get(k) ?? null), i, { borderDash: [3, 3], borderWidth: 1 }));
    });
    charts.latency.data = { labels: labels, datasets: lat };
    charts.events.data = { labels: labels, datasets: [
      series('events / s', history.map((h) => h.events), 0),
      series('cache hit ratio', history.map((h) => h.hitRatio), 2, { yAxisID: 'y2' })] };
    charts.outbox.data = { labels: labels, datasets: [
      series('outbox pending', history.map((h) => h.outbox), 1),
      series('propagation lag p99 ms', history.map((h) => h.lag), 3, { yAxisID: 'y2' })] };
    Object.values(charts).forEach((c) => c.update('none'));
  }

  function cell(row, text, cls) {
    const td = row.insertCell();
    td.textContent = text;
    if (cls) { td.className = cls; }
    return td;
  }

  function operationsTable(s, rates) {
    const body = $('operations').tBodies[0];
    body.replaceChildren();
    for (const o of s.operations || []) {
      const r = body.insertRow();
      cell(r, o.protocol); cell(r, o.operation); cell(r, o.outcome, o.outcome === 'success' ? 'good' : o.outcome.endsWith('error') ? 'bad' : null);
      cell(r, fmt(o.count)); cell(r, fmt(rates.get(opKey(o) + ' ' + o.outcome), 1));
      cell(r, fmt(o.p50Millis, 1)); cell(r, fmt(o.p99Millis, 1)); cell(r, fmt(o.maxMillis, 1));
    }
  }

  function act(name, action) {
    const status = $('status');
    fetch(base + '/admin/actions/tools/' + encodeURIComponent(name) + '/' + action,
      { method: 'POST', headers: { 'X-CSRF-Token': csrf }, credentials: 'same-origin' })
      .then((r) => r.json().then((j) => ({ ok: r.ok, j: j })))
      .then((x) => { status.textContent = x.ok ? name + ': ' + action + ' done' : name + ': ' + (x.j.detail || action + ' refused'); })
      .catch((e) => { status.textContent = name + ': ' + e; });
  }

  let shownAccounts = null;

  /** "3 min ago", as a person reads a time; the exact time stays in the cell's title. */
  function ago(iso) {
    if (!iso) { return 'never'; }
    const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
    if (s < 60) { return 'just now'; }
    if (s < 3600) { return Math.floor(s / 60) + ' min ago'; }
    if (s < 172800) { return Math.floor(s / 3600) + ' h ago'; }
    return Math.floor(s / 86400) + ' days ago';
  }

  function accountsTable(s) {
    // rebuilt only when an account changed (or a minute passed, for the "ago"s), so a button is not replaced under the admin's pointer
    const now = JSON.stringify(s.accounts || []) + Math.floor(Date.now() / 60000);
    if (now === shownAccounts) { return; }
    shownAccounts = now;
    const held = (s.accounts || []).filter(a => a.held);
    $('held').hidden = held.length === 0;
    const heldBody = $('held-accounts').tBodies[0];
    heldBody.replaceChildren();
    for (const a of held) {
      const r = heldBody.insertRow();
      cell(r, a.name); cell(r, a.kind); cell(r, a.held, 'bad');
    }
    const body = $('accounts').tBodies[0];
    body.replaceChildren();
    for (const a of s.accounts || []) {
      const r = body.insertRow();
      r.dataset.account = a.name;
      const state = a.held ? 'held: ' + a.held : a.paused ? 'paused' : a.parked > 0 ? 'parked' : a.divergent > 0 ? 'divergent' : a.pending > 0 ? 'pending' : 'in sync';
      cell(r, a.name); cell(r, a.kind); cell(r, state, state === 'in sync' ? 'good' : (a.held || a.parked > 0) ? 'bad' : null).className += ' state';
      cell(r, fmt(a.replicas)); cell(r, fmt(a.inSync)); cell(r, fmt(a.pending)); cell(r, fmt(a.parked), a.parked > 0 ? 'bad' : null);
      cell(r, fmt(a.divergent));
      cell(r, ago(a.lastPullAt)).title = a.lastPullAt || '';
      cell(r, ago(a.lastPushAt)).title = a.lastPushAt || '';
      cell(r, fmt(a.lagP99));
      cell(r, a.lastError || '–', a.lastError ? 'bad' : null);
      const actions = r.insertCell();
      const b = document.createElement('button');
      b.textContent = a.paused ? 'resume' : 'pause';
      b.addEventListener('click', () => act(a.name, a.paused ? 'resume' : 'pause'));
      actions.appendChild(b);
      if (a.held) {
        const apply = document.createElement('button');
        apply.textContent = 'apply held deletions';
        apply.addEventListener('click', () => { if (window.confirm(a.name + ': ' + a.held + '\n\nApply what was held and resume?')) { act(a.name, 'apply-held'); } });
        actions.appendChild(apply);
        const restore = document.createElement('button');
        restore.textContent = 'reject: put the records back';
        restore.addEventListener('click', () => { if (window.confirm(a.name + ': ' + a.held + '\n\nPut the deleted records back into the tool from their DEs and resume?')) { act(a.name, 'restore-held'); } });
        actions.appendChild(restore);
      }
      if (a.parked > 0) {
        const retry = document.createElement('button');
        retry.textContent = 'retry parked';
        retry.addEventListener('click', () => act(a.name, 'retry'));
        actions.appendChild(retry);
      }
    }
  }

  function onFigures(s) {
    const rates = new Map();
    const point = { time: new Date(s.at).toLocaleTimeString('en-GB'), rates: new Map(), p50: new Map(), p99: new Map(), events: null, hitRatio: null, outbox: 0, lag: 0 };
    const now = sumByOp(s.operations);
    now.forEach((e, k) => { point.p50.set(k, e.p50); point.p99.set(k, e.p99); });
    let total = null;
    let refused = null;
    if (prev && s.at > prev.at) {
      const dt = (s.at - prev.at) / 1000;
      const before = sumByOp(prev.operations);
      total = 0;
      now.forEach((e, k) => { const r = Math.max(0, e.count - ((before.get(k) || {}).count || 0)) / dt; point.rates.set(k, r); total += r; });
      const seriesBefore = new Map((prev.operations || []).map((o) => [opKey(o) + ' ' + o.outcome, o.count]));
      for (const o of s.operations || []) { const k = opKey(o) + ' ' + o.outcome; rates.set(k, Math.max(0, o.count - (seriesBefore.get(k) || 0)) / dt); }
      point.events = Math.max(0, s.changeFeed.headPosition - prev.changeFeed.headPosition) / dt;
      const dh = s.cache.hits - prev.cache.hits;
      const dm = s.cache.misses - prev.cache.misses;
      point.hitRatio = dh + dm > 0 ? dh / (dh + dm) : null;
      refused = Math.max(0, s.requests.refused - prev.requests.refused) / dt;
    }
    for (const a of s.accounts || []) { point.outbox += a.pending; point.lag = Math.max(point.lag, a.lagP99 || 0); }
    history.push(point);
    if (history.length > WINDOW) { history.shift(); }
    prev = s;

    $('t-rate').textContent = fmt(total, 1);
    $('t-events').textContent = fmt(point.events, 1);
    $('t-served').textContent = fmt(s.requests.served);
    $('t-hits').textContent = point.hitRatio === null ? fmt(s.cache.hitRatio, 3) : fmt(point.hitRatio, 3);
    $('t-outbox').textContent = fmt(point.outbox);
    $('t-parked').textContent = fmt((s.accounts || []).reduce((n, a) => n + a.parked, 0));
    $('t-lag').textContent = point.lag ? fmt(point.lag) + ' ms' : '–';
    $('t-refused').textContent = fmt(refused, 1);
    operationsTable(s, rates);
    accountsTable(s);
    $('raw').textContent = JSON.stringify(s, null, 2);
    draw();
  }

  // conflicts and the log: fetched every two seconds, filtered in the page as the admin types
  let conflicts = [];
  let log = [];
  let logPage = 0;
  const PAGE = 50;
  const text = (v) => v === null || v === undefined ? '–' : typeof v === 'object' ? JSON.stringify(v) : String(v);

  function conflictsTable() {
    const q = $('conflicts-filter').value.toLowerCase();
    const body = $('conflicts').tBodies[0];
    body.replaceChildren();
    for (const c of conflicts) {
      const cells = [c.at, c.entityId, c.field, text(c.base), text(c.idiomValue), text(c.remoteValue), text(c.winner), c.policy, c.tool + ' ' + c.account];
      if (q && !cells.join(' ').toLowerCase().includes(q)) { continue; }
      const r = body.insertRow();
      cells.forEach((v) => cell(r, v));
    }
  }

  function logTable() {
    const q = $('log-filter').value.toLowerCase();
    const level = $('log-level').value;
    const shown = log.filter((e) => (!level || e.level === level) && (!q || (e.source + ' ' + e.message).toLowerCase().includes(q)));
    const pages = Math.max(1, Math.ceil(shown.length / PAGE));
    logPage = Math.min(logPage, pages - 1);
    const body = $('log').tBodies[0];
    body.replaceChildren();
    for (const e of shown.slice(logPage * PAGE, (logPage + 1) * PAGE)) {
      const r = body.insertRow();
      cell(r, e.at); cell(r, e.level, e.level === 'SEVERE' || e.level === 'WARNING' ? 'bad' : null); cell(r, e.source); cell(r, e.message);
    }
    $('log-page').textContent = 'page ' + (logPage + 1) + ' of ' + pages + ' (' + shown.length + ' lines)';
  }

  function refreshLists() {
    const get = (path) => fetch(base + path, { credentials: 'same-origin', headers: { Accept: 'application/json' } }).then((r) => r.json());
    get('/admin/conflicts').then((j) => { conflicts = j.conflicts || []; conflictsTable(); }).catch(() => {});
    get('/admin/log').then((j) => { log = j.entries || []; logTable(); }).catch(() => {});
  }

  function start() {
    $('conflicts-filter').addEventListener('input', conflictsTable);
    $('log-filter').addEventListener('input', () => { logPage = 0; logTable(); });
    $('log-level').addEventListener('change', () => { logPage = 0; logTable(); });
    $('log-prev').addEventListener('click', () => { logPage = Math.max(0, logPage - 1); logTable(); });
    $('log-next').addEventListener('click', () => { logPage += 1; logTable(); });
    refreshLists();
    setInterval(refreshLists, 2000);
    if (window.Chart) {
      charts = { rate: chart('c-rate', 'msg/s'), latency: chart('c-latency', 'ms'), events: chart('c-events', 'events/s', 'hit ratio'),
        outbox: chart('c-outbox', 'pushes owed', 'ms') };
    }
    const status = $('status');
    const live = new EventSource(base + '/admin/live');
    live.addEventListener('figures', (e) => { status.textContent = 'live'; status.className = 'status live'; onFigures(JSON.parse(e.data)); });
    live.onerror = () => { status.textContent = 'reconnecting…'; status.className = 'status down'; };
  }

  start();
}());
