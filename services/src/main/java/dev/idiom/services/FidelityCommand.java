package dev.idiom.services;

import dev.idiom.consistency.report.FidelityTable;
import dev.idiom.events.InvalidValueException;
import java.io.PrintStream;
import java.util.Map;

/**
 * {@code ./idiom fidelity --from ACCOUNT --to ACCOUNT}: what of one tool account's records a copy in
 * another would hold, per type and field (as {@code GET /api/fidelity}), in-process on the data directory.
 */
final class FidelityCommand {
    private final PrintStream out;

    FidelityCommand(PrintStream out) {
        this.out = out;
    }

    int run(IdiomConfig config, Map<String, String> flags) throws Exception {
        String from = flags.get("from");
        String to = flags.get("to");
        if (from == null || from.isBlank() || to == null || to.isBlank()) {
            throw new InvalidValueException("say which accounts: --from NAME --to NAME (tool accounts configured with PUT /api/tools/NAME)");
        }
        try (Idiom idiom = Idiom.start(config)) {
            print(idiom.application().sync().fidelity(from, to));
            return 0;
        }
    }

    void print(FidelityTable t) {
        int[] sums = t.totals();
        out.printf("idiom: %s -> %s, %d records: of %d values, %d arrive, %d travel as extras, %d cannot be held there%n", t.from(), t.to(),
                t.records(), sums[0], sums[1], sums[2], sums[3]);
        out.printf("%-22s %-36s %8s %8s %8s %8s%n", "type", "field", "present", "arrives", "extras", "cannot");
        for (FidelityTable.Row r : t.rows()) {
            out.printf("%-22s %-36s %8d %8d %8d %8d%n", r.type(), r.field(), r.present(), r.arrives(), r.asExtras(), r.cannotHold());
        }
    }
}
