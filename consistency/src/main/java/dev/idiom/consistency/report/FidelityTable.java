package dev.idiom.consistency.report;

import java.util.List;

/**
 * What of the records in one tool account a copy in another would hold, per type and field
 * ({@code GET /api/fidelity}, {@code ./idiom fidelity}): of the records with a value in a field, how
 * many would have it arrive as that field, travel in the target kind's extras part, or stay behind
 * because the target cannot hold it there. An extras entry is a field of its own
 * ({@code zoteroExtras.shortTitle}).
 */
public record FidelityTable(String from, String to, int records, List<Row> rows) {
    /** One field of one type: records holding a value, and where it goes. */
    public record Row(String type, String field, int present, int arrives, int asExtras, int cannotHold) {}

    /** The rows' sums: values present, arriving, travelling as extras, staying behind. */
    public int[] totals() {
        int[] t = new int[4];
        for (Row r : rows) {
            t[0] += r.present();
            t[1] += r.arrives();
            t[2] += r.asExtras();
            t[3] += r.cannotHold();
        }
        return t;
    }
}
