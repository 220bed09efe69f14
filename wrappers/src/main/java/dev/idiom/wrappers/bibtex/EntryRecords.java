package dev.idiom.wrappers.bibtex;

import dev.idiom.events.Changes;
import dev.idiom.events.Field;
import dev.idiom.events.Fingerprint;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.RecordBounds;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.jbibtex.BibTeXEntry;
import org.jbibtex.Key;
import org.jbibtex.Value;

/** A parsed entry as the record a sync reads, and its version. */
final class EntryRecords {
    private EntryRecords() {
    }

    /** The entry as a record; what it does not say itself it takes from the entry its {@code crossref} names ({@code entries}), as BibTeX does. */
    static RemoteRecord record(Function<String, BibTeXEntry> entries, String remoteId, BibTeXEntry e, boolean bibtexDialect) {
        return record(entries, remoteId, e, bibtexDialect, new ArrayList<>());
    }

    /** As above; a value past the record's bounds is left in the entry and said in {@code notices}. */
    private static RemoteRecord record(Function<String, BibTeXEntry> entries, String remoteId, BibTeXEntry e, boolean bibtexDialect,
                                       List<Skipped> notices) {
        RecordBounds.Read<Metadata> read = bounded(BibTeXFields.inheriting(e, entries), bibtexDialect);
        read.keptAside().forEach(what -> notices.add(Skipped.keptAside(remoteId, "entry " + remoteId + ": field " + what)));
        Metadata m = read.value();
        return new RemoteRecord(remoteId, version(e), remoteId.startsWith(EntryParser.KEYLESS_PREFIX) ? m : m.with(Field.CITATION_KEY, remoteId));
    }

    /**
     * The entry read within the record's bounds: a field longer than the record holds (a quotation
     * past 20,000 characters) or holding a character XML cannot carry is left out and named; the file keeps its bytes ({@link RecordBounds}).
     */
    private static RecordBounds.Read<Metadata> bounded(BibTeXEntry entry, boolean bibtexDialect) {
        return RecordBounds.read(entry, e -> BibTeXFields.metadata(e, bibtexDialect), e -> {
            java.util.Map<String, String> texts = new java.util.LinkedHashMap<>();
            e.getFields().forEach((k, v) -> texts.put(k.getValue(), v.toUserString()));
            return texts;
        }, (e, name) -> {
            BibTeXEntry copy = new BibTeXEntry(e.getType(), e.getKey());
            e.getFields().forEach((k, v) -> {
                if (!k.getValue().equals(name)) {
                    copy.addField(k, v);
                }
            });
            return copy;
        });
    }

    /** One listed entry as a record (an untitled one too), or skipped with why (no field Idiom reads, a value Idiom cannot read). */
    static void listed(String id, BibTeXEntry e, Function<String, BibTeXEntry> parents, List<RemoteRecord> records, List<Skipped> skipped,
                       boolean bibtexDialect) {
        try {
            RemoteRecord r = record(parents, id, e, bibtexDialect, skipped);
            if (!Changes.describes(r.metadata().with(Field.CITATION_KEY, null))) {
                skipped.add(new Skipped(r.remoteId(), "entry has no field Idiom reads"));
            } else {
                records.add(r);
            }
        } catch (RuntimeException bad) {
            skipped.add(new Skipped(id, bad.getMessage()));
        }
    }

    /** Fingerprint of the entry's type and fields in key order. */
    static String version(BibTeXEntry e) {
        Map<String, String> fields = new TreeMap<>();
        for (Map.Entry<Key, Value> f : e.getFields().entrySet()) {
            fields.put(f.getKey().getValue().toLowerCase(Locale.ROOT), f.getValue().toUserString());
        }
        return Fingerprint.of(e.getType().getValue().toLowerCase(Locale.ROOT) + fields);
    }
}
