package dev.idiom.services;

import dev.idiom.db.TimeSource;
import dev.idiom.events.InvalidValueException;
import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.consistency.report.ImportSummary;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** {@code ./idiom import}: a file or a tool account into the event store, with a progress bar. */
final class ImportCommand {
    private static final int BAR = 30;

    private final PrintStream out;
    private final PrintStream err;
    private long lastDraw;

    ImportCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int run(IdiomConfig config, Map<String, String> flags) {
        boolean fromStart = Boolean.parseBoolean(flags.getOrDefault("from-start", "false"));
        try (Idiom idiom = Idiom.startForCommand(config)) {
            ImportSummary s;
            if (flags.containsKey("account")) {
                out.println("idiom: importing from tool account " + flags.get("account") + "…");
                s = idiom.application().imports().importAccount(flags.get("account"), fromStart, this::draw);
            } else if (flags.containsKey("tool") && flags.containsKey("file")) {
                Path file = Path.of(flags.get("file"));
                if (!Files.isReadable(file)) {
                    err.println("idiom: cannot read " + file.toAbsolutePath());
                    return 2;
                }
                out.println("idiom: importing " + flags.get("tool") + " file " + file + "…");
                s = idiom.application().imports().importFile(flags.get("tool"), file, this::draw);
            } else {
                throw new InvalidValueException("say what to import: --tool bibtex|bookmarks --file FILE, or --account NAME");
            }
            err.print("\r" + " ".repeat(100) + "\r");
            out.println("idiom: import finished: " + s);
            if (!s.skipped().isEmpty()) {
                out.println("skipped:");
                for (ImportOutcome o : s.skipped()) {
                    out.println("  " + (o.remoteId() == null ? "(unnamed entry)" : o.remoteId()) + ": " + o.reason());
                }
            }
            if (!s.keptAside().isEmpty()) {
                out.println("imported, with a value kept aside (too long for Idiom's record; the copy keeps it whole):");
                s.keptAside().forEach(k -> out.println("  " + k.what()));
            }
            return 0;
        }
    }

    private void draw(ImportSummary s, int done, int size, boolean lastPage) {
        long now = TimeSource.nanoTime();
        if (done < size && now - lastDraw < 100_000_000L) {
            return;
        }
        lastDraw = now;
        int filled = size == 0 ? BAR : (int) ((long) BAR * done / size);
        err.printf("\r[%s%s] %d/%d%s  created %d  merged %d  skipped %d", "#".repeat(filled), " ".repeat(BAR - filled), done, size,
                lastPage ? "" : " (page)", s.count(ImportOutcome.Kind.CREATED), s.count(ImportOutcome.Kind.MERGED), s.count(ImportOutcome.Kind.SKIPPED));
        err.flush();
    }
}
