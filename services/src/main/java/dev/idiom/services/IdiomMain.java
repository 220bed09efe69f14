package dev.idiom.services;

import dev.idiom.services.app.ApiKeys;
import dev.idiom.events.accounts.SecretBox;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.RebuildReport;
import java.io.IOException;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.LogManager;

/** The command line: {@code serve}, {@code rebuild}, {@code import}, {@code sync}, {@code seed}, {@code help}. */
public final class IdiomMain {
    private IdiomMain() {}

    public static void main(String[] args) {
        if (System.getProperty("java.util.logging.config.file") == null) {
            try (var in = IdiomMain.class.getResourceAsStream("/idiom-logging.properties")) {
                LogManager.getLogManager().readConfiguration(in);
            } catch (IOException e) {
                System.err.println("idiom: default logging configuration unreadable: " + e.getMessage());
            }
        }
        System.exit(run(List.of(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        String command = args.isEmpty() ? "help" : args.getFirst();
        if (args.equals(List.of("help", "--markdown"))) {
            out.print(IdiomConfig.markdownTable()); // docs/operations.md's configuration table
            return 0;
        }
        try {
            // keys has a verb of its own: ./idiom keys create --name N --role R
            String sub = command.equals("keys") && args.size() > 1 && !args.get(1).startsWith("--") ? args.get(1) : null;
            Map<String, String> flags = flags(args.subList(Math.min(sub == null ? 1 : 2, args.size()), args.size()));
            Map<String, String> commandFlags = new HashMap<>();
            List<String> own = switch (command) {
                case "import" -> List.of("tool", "file", "account", "from-start");
                case "seed" -> List.of("entities", "events-per-entity");
                case "sync" -> List.of("account", "allow-deletions", "check", "server", "dry-run", "json");
                case "keys" -> List.of("name", "role");
                case "mirror" -> List.of("account", "rule", "direction", "deletions", "server");
                case "repair" -> List.of("split-same-account", "dry-run");
                case "fidelity" -> List.of("from", "to");
                default -> List.of();
            };
            for (String k : own) {
                if (flags.containsKey(k)) {
                    commandFlags.put(k, flags.remove(k));
                }
            }
            if (command.equals("rotate-secret-key")) {
                flags.put("sync-interval-ms", "0"); // no push may open a secret while they are resealed
            }
            if (command.equals("seed")) {
                flags.putIfAbsent("cache.enabled", "false"); // a million offers to a bounded cache would only churn it
            }
            IdiomConfig config = IdiomConfig.from(flags, System.getenv(), System::getProperty);
            return switch (command) {
                case "serve" -> serve(config, out);
                case "rebuild" -> rebuild(config, out, err);
                case "repair" -> repair(config, commandFlags, out, err);
                case "import" -> new ImportCommand(out, err).run(config, commandFlags);
                case "seed" -> new SeedCommand(out, err).run(config, commandFlags);
                case "sync" -> new SyncCommand(out, err).run(config, commandFlags);
                case "mirror" -> new MirrorCommand(out, err).run(config, commandFlags);
                case "fidelity" -> new FidelityCommand(out).run(config, commandFlags);
                case "keys" -> new KeysCommand(out).run(config, sub, commandFlags);
                case "rotate-secret-key" -> rotateSecretKey(config, System.getenv(SecretBox.ENV_NEW), out);
                case "help", "--help", "-h" -> {
                    usage(out);
                    yield 0;
                }
                default -> {
                    err.println("idiom: unknown command '" + command + "'");
                    usage(err);
                    yield 2;
                }
            };
        } catch (IllegalArgumentException | InvalidValueException e) {
            err.println("idiom: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("idiom: " + command + " failed: " + e.getMessage());
            return 1;
        }
    }

    private static int serve(IdiomConfig config, PrintStream out) {
        long started = System.nanoTime();
        // The first admin key is on disk before the port opens: whoever waits for /api/ping may read it then.
        var firstKey = new AtomicReference<Optional<String>>(Optional.empty());
        IdiomServer server = IdiomServer.start(config, idiom -> firstKey.set(idiom.application().keys().firstAdminKey(config.data())));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            out.println("idiom: stopping…");
            server.close();
            out.println("idiom: stopped");
            stopped.countDown();
        }, "idiom-shutdown"));
        String url = server.url();
        out.printf("idiom: serving on %s (started in %d ms; database: %s)%n", url, (System.nanoTime() - started) / 1_000_000,
                config.dbUrl() == null ? "embedded MariaDB in " + config.data().resolve("mariadb").toAbsolutePath() : config.dbUrl());
        out.println("  SOAP WSDL : " + url + "/services/DigitalEntityService?wsdl");
        out.println("  REST      : " + url + "/api/entities   (OpenAPI: " + url + "/api/openapi.json)");
        out.println("  Admin     : " + url + "/admin          (metrics: " + url + "/admin/metrics)");
        firstKey.get().ifPresent(key -> {
            out.println("  Admin key : " + key);
            out.println("              shown once; kept in " + config.data().resolve(ApiKeys.ADMIN_KEY_FILE).toAbsolutePath()
                    + " (owner-only). Send it as Authorization: Bearer <key>; make others with ./idiom keys create.");
        });
        out.println("  Ctrl-C stops it.");
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** Re-seals the stored tool secrets under IDIOM_NEW_SECRET_KEY (or a new random key, printed once). */
    static int rotateSecretKey(IdiomConfig config, String newKey, PrintStream out) {
        boolean generated = newKey == null || newKey.isBlank();
        String next = generated ? SecretBox.newKey() : newKey.strip();
        SecretBox box = SecretBox.fromKey(next);
        try (Idiom idiom = Idiom.start(config)) {
            int resealed = idiom.application().tools().accounts().rotateSecretKey(box);
            out.println("idiom: resealed " + resealed + " tool secret(s) under the new key, in one transaction.");
            if (dev.idiom.services.tools.SealingKey.fromFile(config.secretKey(), config.data())) { // the key was the data folder's: so is the new one
                dev.idiom.services.tools.SealingKey.replace(config.data(), next);
                out.println("idiom: the new key replaces " + config.data().resolve(dev.idiom.services.tools.SealingKey.FILE) + " (owner-only).");
            } else if (generated) {
                out.println("idiom: the new key is shown this once; from now on start Idiom with:");
                out.println("export " + SecretBox.ENV + "=" + next);
            } else {
                out.println("idiom: from now on start Idiom with " + SecretBox.ENV + " set to the value of " + SecretBox.ENV_NEW + ".");
            }
            return 0;
        }
    }

    private static int rebuild(IdiomConfig config, PrintStream out, PrintStream err) {
        try (Idiom idiom = Idiom.start(config)) {
            out.println("idiom: refolding every digital entity from its events…");
            long started = System.nanoTime();
            RebuildReport report = idiom.application().administration().verifyProjections();
            long ms = (System.nanoTime() - started) / 1_000_000;
            if (report.clean()) {
                out.printf("idiom: rebuild check passed: %d entities, %d events, every projection identical (%d ms)%n",
                        report.entities(), report.events(), ms);
                return 0;
            }
            err.printf("idiom: REBUILD CHECK FAILED: %d of %d entities differ from the fold of their events:%n",
                    report.differing().size(), report.entities());
            report.differing().forEach(id -> err.println("  " + id));
            return 1;
        }
    }

    /**
     * {@code ./idiom repair --split-same-account [--dry-run]}: a DE that holds two copies of one tool
     * account (two entries of one file joined by matching before it kept a library's records apart)
     * has each extra copy split off into a DE of its own.
     */
    private static int repair(IdiomConfig config, Map<String, String> flags, PrintStream out, PrintStream err) {
        if (!Boolean.parseBoolean(flags.getOrDefault("split-same-account", "false"))) {
            err.println("idiom: repair needs what to repair: --split-same-account [--dry-run]");
            return 2;
        }
        boolean dryRun = Boolean.parseBoolean(flags.getOrDefault("dry-run", "false"));
        try (Idiom idiom = Idiom.startForCommand(config)) {
            out.println("idiom: looking for DEs that hold two copies of one tool account" + (dryRun ? " (dry run: nothing is changed)" : "") + "…");
            List<dev.idiom.services.app.EntityLifecycle.SplitCopy> copies = idiom.application().lifecycle().splitSameAccount(dryRun, "cli:repair");
            for (dev.idiom.services.app.EntityLifecycle.SplitCopy c : copies) {
                out.printf("  %s %s %s %s off %s (\"%s\")%s%n", dryRun ? "would split" : "split", c.tool(), c.account() == null ? "" : c.account(),
                        c.remoteId(), c.entity(), c.title(), c.newEntity() == null ? "" : " into " + c.newEntity());
            }
            out.printf("idiom: %d copies %s%n", copies.size(), dryRun ? "would be split off" : "split off, each a DE of its own");
            return 0;
        }
    }

    /** Options that are switches: given alone, they are true. */
    private static final java.util.Set<String> SWITCHES = java.util.Set.of("split-same-account", "dry-run", "json");

    static Map<String, String> flags(List<String> args) {
        Map<String, String> flags = new HashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + a + "'; options look like --port 8080");
            }
            String key = a.substring(2);
            String value;
            int eq = key.indexOf('=');
            if (eq >= 0) {
                value = key.substring(eq + 1);
                key = key.substring(0, eq);
            } else if (SWITCHES.contains(key) && (i + 1 == args.size() || args.get(i + 1).startsWith("--"))) {
                value = "true";
            } else if (i + 1 < args.size()) {
                value = args.get(++i);
            } else {
                throw new IllegalArgumentException("option --" + key + " needs a value");
            }
            flags.put(key, value);
        }
        return flags;
    }

    private static void usage(PrintStream out) {
        out.println("""
                usage: ./idiom serve   [--port 8080] [--host 127.0.0.1] [--data ./data] [--db-url jdbc:mysql://…] [options]
                       ./idiom rebuild [--data ./data] [--db-url jdbc:mysql://…]
                       ./idiom repair  --split-same-account [--dry-run] [--data ./data] [--db-url jdbc:mysql://…]
                       ./idiom import  --tool bibtex|bookmarks --file FILE [--from-start true] [--data …] [--db-url …]
                       ./idiom import  --account NAME [--from-start true] [--data …] [--db-url …]
                       ./idiom sync    --account NAME [--allow-deletions true] [--check true] [--dry-run true] [--server http://HOST:PORT [--json]] [--data …]
                       ./idiom mirror  --account NAME [--rule none|all|'{"tags":[…],"types":[…],"query":"…","from":[…]}'] [--direction both|receive-only|send-only]
                                       [--deletions keep|propagate] [--server http://HOST:PORT] [--data …]
                       ./idiom fidelity --from NAME --to NAME [--data …] [--db-url …]
                       ./idiom seed    --entities N [--events-per-entity 1] [--data …] [--db-url …]
                       ./idiom rotate-secret-key [--data …] [--db-url …]   (stop the server first)
                       ./idiom keys    create --name NAME --role reader|curator|admin | list | revoke --name NAME [--data …] [--db-url …]
                
                serve    runs Idiom (SOAP, REST, admin) on embedded Tomcat; without --db-url on an embedded MariaDB
                rebuild  refolds every digital entity from its events; exits 1 if any stored projection differs
                repair   --split-same-account: a DE holding two copies of one tool account (two entries of one file that
                         matching joined before it kept a library's records apart) has each extra copy split off into a DE
                         of its own, its fields as that copy held them; --dry-run lists them, changing nothing
                import   imports the records of a file, or of a configured tool account (PUT /api/tools/NAME), with a
                         progress bar and a summary (created / merged / updated / unchanged / skipped with reasons)
                fidelity what of one tool account's records a copy in another would hold, per type and field: arrives,
                         travels as the target kind's extras (Zotero to Zotero, .bib to .bib), cannot be held there
                sync     a curator's sync of one tool account: pulls its changes (merged with its conflict policy), unlinks
                         copies deleted there (a deletion of more than mass-delete-percent is held: exit 3), pushes what
                         is owed; prints pulled / pushed / merged / conflicts / unlinked / parked. --check also runs
                         anti-entropy; --dry-run only says what it would pull and write where (counts, samples), changing
                         nothing; --server asks a running Idiom (IDIOM_ADMIN_TOKEN) instead of opening the data dir
                mirror   a tool account's replication settings (a flag left out keeps its setting): which DEs it holds (--rule),
                         which way copies flow (--direction), whether deletions in Idiom reach its copies (--deletions); then
                         where its mirror stands: events planned, writes owed, and about how long they take at the tool's pace
                keys     API keys: create (the key is printed once), list (never the keys), revoke. Roles: reader (portals:
                         read), curator (also create, update, import, sync), admin (also tool accounts, keys, admin pages)
                rotate-secret-key  re-seals every stored tool secret, atomically, from IDIOM_SECRET_KEY (the current key) to
                         IDIOM_NEW_SECRET_KEY (or to a new random key it prints once); then start Idiom with the new key
                seed     fills the store with N realistic digital entities (for growth runs), through the real append path
                
                Options (also as IDIOM_* environment variables; see docs/operations.md, "Configuration"):""");
        for (IdiomConfig.Key k : IdiomConfig.KEYS) {
            out.printf("  --%-20s %s (default %s; %s)%n", k.name(), k.doc().replace("`", ""), k.shownDefault().replace("`", ""), k.environmentVariable());
        }
    }
}
