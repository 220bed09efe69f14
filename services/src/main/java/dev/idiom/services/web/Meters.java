package dev.idiom.services.web;

import dev.idiom.db.TimeSource;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.idiom.services.app.Administration;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.ReplicaSync;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.http.Outcome;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Idiom's metrics in one Micrometer registry: a timer per protocol, operation and outcome (rate,
 * latency histogram, p50/p90/p99 over the last half minute), and gauges and counters read from the
 * application at scrape time — cache, change feed, group commit, search feed, admission, the
 * connection pool, each tool account's outbox and propagation lag, push outcomes — plus the JVM's.
 * The figures behind the gauges are read once per scrape, not once per gauge: several of them
 * query the database.
 */
final class Meters implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(Meters.class.getName());
    /** How long one reading of the application's figures serves the gauges of a scrape. */
    private static final Duration READING = Duration.ofMillis(500);
    /** The two exposition formats the registry writes, chosen by these content types. */
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final String OPEN_METRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<RequestKey, Timer> timers = new ConcurrentHashMap<>();
    private final Reading<Administration.Figures> figures;
    private final Reading<List<dev.idiom.consistency.report.AccountConsistency>> accounts;
    private final Reading<Map<String, Long>> pushes;
    private final Map<MultiGauge, ToDoubleFunction<dev.idiom.consistency.report.AccountConsistency>> perAccount = new ConcurrentHashMap<>();
    private final JvmGcMetrics gc = new JvmGcMetrics();

    private record RequestKey(String protocol, String operation, String outcome) {}

    /** Each outcome's label, worked out once rather than on every request. */
    private static final Map<Outcome, String> OUTCOMES = new java.util.EnumMap<>(Outcome.class);

    static {
        for (Outcome o : Outcome.values()) {
            OUTCOMES.put(o, o.name().toLowerCase(Locale.ROOT));
        }
    }

    Meters(Application app, Admission admission) {
        figures = new Reading<>(() -> app.administration().figures());
        accounts = new Reading<>(() -> app.sync().report());
        pushes = new Reading<>(() -> app.sync().pushOutcomes());

        counter("idiom.cache.hits", "DE reads the cache answered", f -> f.cache().hits());
        counter("idiom.cache.misses", "DE reads the cache could not answer", f -> f.cache().misses());
        counter("idiom.cache.evictions", "DEs the cache evicted for room", f -> f.cache().evictions());
        counter("idiom.cache.invalidations", "DEs the change feed invalidated", f -> f.cache().invalidations());
        gauge("idiom.cache.size", "DEs in the cache", f -> f.cache().size());
        gauge("idiom.cache.hit.ratio", "hits / (hits + misses) since start", f -> f.cache().hitRatio());
        gauge("idiom.events.head.position", "the highest position committed to the event store", f -> f.feed().headPosition());
        gauge("idiom.change.feed.behind", "events committed that this node's cache has not followed yet",
                f -> f.feed().followed() ? Math.max(0, f.feed().headPosition() - f.feed().followedPosition()) : 0);
        gauge("idiom.change.feed.lag.milliseconds", "commit to cache invalidation, the last event followed", f -> f.feed().lastLagMillis());
        counter("idiom.events.appended", "events this node appended (durably committed)", f -> f.commits() == null ? 0 : f.commits().appends());
        counter("idiom.group.commit.batches", "durable commits, each carrying one or more appends", f -> f.commits() == null ? 0 : f.commits().batches());
        gauge("idiom.group.commit.batch.mean", "appends per durable commit, mean since start", f -> f.commits() == null ? 0 : f.commits().meanBatch());
        gauge("idiom.group.commit.batch.largest", "the most appends one durable commit carried", f -> f.commits() == null ? 0 : f.commits().largestBatch());
        gauge("idiom.search.feed.lag.p99.milliseconds", "commit to searchable, p99", Administration.Figures::searchLagP99Millis);
        gauge("idiom.search.documents", "DEs in the search index", Administration.Figures::searchDocuments);
        gauge("idiom.db.pool.active", "database connections in use", f -> f.pool().active());
        gauge("idiom.db.pool.idle", "database connections open and idle", f -> f.pool().idle());
        gauge("idiom.db.pool.max", "the most connections the pool opens", f -> f.pool().max());
        gauge("idiom.db.pool.waiting", "requests waiting for a database connection", f -> f.pool().waiting());

        FunctionCounter.builder("idiom.admission.refused", admission, Admission::refused)
                .description("requests refused busy (503 / SOAP Busy) by the admission limit").register(registry);
        Gauge.builder("idiom.requests.in.flight", admission, Admission::inFlight).description("requests in service now").register(registry);

        for (String outcome : app.sync().pushOutcomes().keySet()) {
            FunctionCounter.builder("idiom.replica.pushes", pushes, p -> p.get().getOrDefault(outcome, 0L)).tag("outcome", outcome)
                    .description("pushes to tool replicas this node made, by outcome (merged: the replica had changed; a conflict keeps both values)")
                    .register(registry);
        }
        accountGauge("idiom.outbox.pending", "pushes owed to the account's replicas", dev.idiom.consistency.report.AccountConsistency::pending);
        accountGauge("idiom.outbox.parked", "pushes the tool refused for good, waiting for a curator", dev.idiom.consistency.report.AccountConsistency::parked);
        accountGauge("idiom.replicas.divergent", "replicas the last check found different", dev.idiom.consistency.report.AccountConsistency::divergent);
        accountGauge("idiom.replicas", "replicas the account holds", dev.idiom.consistency.report.AccountConsistency::replicas);
        accountGauge("idiom.propagation.lag.p99.milliseconds", "commit to the tool's acknowledgement, p99 over the last window", a -> a.lag().p99());

        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    private void counter(String name, String description, ToDoubleFunction<Administration.Figures> value) {
        FunctionCounter.builder(name, figures, read(value)).description(description).register(registry);
    }

    private void gauge(String name, String description, ToDoubleFunction<Administration.Figures> value) {
        Gauge.builder(name, figures, read(value)).description(description).register(registry);
    }

    /** NaN when the figures cannot be read (the database down): the rest of the scrape still answers, and the health check says why. */
    private static ToDoubleFunction<Reading<Administration.Figures>> read(ToDoubleFunction<Administration.Figures> value) {
        return r -> {
            try {
                return value.applyAsDouble(r.get());
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        };
    }

    private void accountGauge(String name, String description, ToDoubleFunction<dev.idiom.consistency.report.AccountConsistency> value) {
        MultiGauge g = MultiGauge.builder(name).description(description).register(registry);
        perAccount.put(g, value);
    }

    /** One request served: its protocol ({@code soap}, {@code rest}, {@code admin}), operation, HTTP status and time. */
    void served(String protocol, String operation, int status, long nanos) {
        RequestKey key = new RequestKey(protocol, operation, OUTCOMES.get(Outcome.forStatus(status)));
        timers.computeIfAbsent(key, k -> Timer.builder("idiom.requests").description("requests served, from admission to the last byte")
                .tags(Tags.of("protocol", k.protocol(), "operation", k.operation(), "outcome", k.outcome()))
                .publishPercentiles(0.5, 0.9, 0.99).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(30))
                .distributionStatisticExpiry(Duration.ofSeconds(30)).distributionStatisticBufferLength(3)
                .register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * The Prometheus exposition for a scraper's {@code Accept}: OpenMetrics when it asks for it,
     * otherwise the classic text format. Returns the content type and the text.
     */
    String[] scrape(String accept) {
        refreshAccounts();
        String type = accept != null && accept.contains("application/openmetrics-text") ? OPEN_METRICS : PROMETHEUS_TEXT;
        return new String[] {type, registry.scrape(type)};
    }

    /** Per protocol and operation: requests, outcome, mean, p50, p90, p99 and max in ms, for the admin pages. */
    ArrayNode requests() {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        timers.entrySet().stream().sorted(Map.Entry.comparingByKey(Comparator.comparing(RequestKey::protocol)
                .thenComparing(RequestKey::operation).thenComparing(RequestKey::outcome))).forEach(e -> {
                    var snapshot = e.getValue().takeSnapshot();
                    var row = out.addObject().put("protocol", e.getKey().protocol()).put("operation", e.getKey().operation())
                            .put("outcome", e.getKey().outcome()).put("count", snapshot.count())
                            .put("meanMillis", snapshot.mean(TimeUnit.MILLISECONDS))
                            .put("maxMillis", snapshot.max(TimeUnit.MILLISECONDS));
                    for (ValueAtPercentile p : snapshot.percentileValues()) {
                        row.put("p" + Math.round(p.percentile() * 100) + "Millis", p.value(TimeUnit.MILLISECONDS));
                    }
                });
        return out;
    }

    /** Per-account gauges follow the accounts configured now: rows of removed accounts go, new ones appear. */
    private void refreshAccounts() {
        List<dev.idiom.consistency.report.AccountConsistency> now;
        try {
            now = accounts.get();
        } catch (RuntimeException e) { // the database down: the rest of the scrape still answers
            LOG.log(Level.FINE, "no account figures for this scrape: " + e.getMessage(), e);
            return;
        }
        perAccount.forEach((gauge, value) -> gauge.register(now.stream()
                .map(a -> MultiGauge.Row.of(Tags.of("account", a.name(), "tool", a.kind()), value.applyAsDouble(a))).toList(), true));
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }

    /** A value read at most once per {@link #READING}: the gauges of one scrape share it. */
    private static final class Reading<T> {
        private final Supplier<T> source;
        private volatile T value;
        private volatile long readAt;

        Reading(Supplier<T> source) {
            this.source = source;
        }

        T get() {
            long now = TimeSource.nanoTime();
            T v = value;
            if (v == null || now - readAt > READING.toNanos()) {
                v = source.get();
                value = v;
                readAt = now;
            }
            return v;
        }
    }
}
