package dev.idiom.wrappers.bibtex;

import dev.idiom.events.Changes;
import dev.idiom.events.Field;
import dev.idiom.events.Fingerprint;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
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
        Metadata m = BibTeXFields.metadata(BibTeXFields.inheriting(e, entries), bibtexDialect);
        return new RemoteRecord(remoteId, version(e), remoteId.startsWith(EntryParser.KEYLESS_PREFIX) ? m : m.with(Field.CITATION_KEY, remoteId));
    }

    /** One listed entry as a record (an untitled one too), or skipped with why (no field Idiom reads, a value Idiom cannot read). */
    static void listed(String id, BibTeXEntry e, Function<String, BibTeXEntry> parents, List<RemoteRecord> records, List<Skipped> skipped,
                       boolean bibtexDialect) {
        try {
            RemoteRecord r = record(parents, id, e, bibtexDialect);
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
