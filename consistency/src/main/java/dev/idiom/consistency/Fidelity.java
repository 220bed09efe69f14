package dev.idiom.consistency;

import dev.idiom.consistency.report.FidelityTable;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Which fields of the records one account holds would reach a copy in another ({@link FidelityTable}),
 * decided by the target's adapter as a push decides: the fields its tool keeps, and what a new copy
 * of the record would hold there ({@link AnnotationTool#writable}). Reads the copies Idiom last synced
 * from the source account; calls neither tool and writes nothing.
 */
public final class Fidelity {
    private final ToolDirectory tools;
    private final AccountReplicas replicas;

    Fidelity(ToolDirectory tools, AccountReplicas replicas) {
        this.tools = tools;
        this.replicas = replicas;
    }

    public FidelityTable between(String from, String to) {
        AnnotationTool source = tools.open(from);
        AnnotationTool target = tools.open(to);
        java.util.Set<Field> kept = target.fieldsKept();
        Map<String, Map<String, int[]>> byType = new TreeMap<>();
        int[] records = {0};
        replicas.forEach(source, (de, r) -> {
            Metadata m = r.synced();
            if (m == null) {
                return;
            }
            records[0]++;
            Metadata copy = target.writable(m, null);
            Map<String, int[]> fields = byType.computeIfAbsent(m.type() == null ? "document" : m.type(), t -> new java.util.LinkedHashMap<>());
            for (Field f : Field.values()) {
                Object v = m.get(f);
                if (v == null || v instanceof Collection<?> c && c.isEmpty()) {
                    continue;
                }
                if (f.kind() == Field.Kind.EXTRAS) {
                    for (String name : m.extras(f).keySet()) {
                        boolean travels = kept.contains(f) && copy.extras(f).containsKey(name);
                        count(fields, f.jsonName() + "." + name, travels ? 2 : 3);
                    }
                } else {
                    boolean arrives = kept.contains(f) && Objects.equals(CanonicalForm.value(copy, f), CanonicalForm.value(m, f));
                    count(fields, f.jsonName(), arrives ? 1 : 3);
                }
            }
        });
        List<FidelityTable.Row> rows = new ArrayList<>();
        byType.forEach((type, fields) -> fields.forEach((field, c) -> rows.add(new FidelityTable.Row(type, field, c[0], c[1], c[2], c[3]))));
        return new FidelityTable(from, to, records[0], rows);
    }

    /** One value present, and where it goes: 1 arrives, 2 travels as extras, 3 stays behind. */
    private static void count(Map<String, int[]> fields, String field, int where) {
        int[] c = fields.computeIfAbsent(field, f -> new int[4]);
        c[0]++;
        c[where]++;
    }
}
