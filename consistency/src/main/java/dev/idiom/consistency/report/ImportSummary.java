package dev.idiom.consistency.report;

import dev.idiom.db.TimeSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The tally of an import: records per outcome, what was skipped and why, and how fast. */
public final class ImportSummary {
    private final Map<ImportOutcome.Kind, Integer> counts = new EnumMap<>(ImportOutcome.Kind.class);
    private final List<ImportOutcome> skipped = new ArrayList<>();
    private int deletedRemotely;
    private long startedNanos = TimeSource.nanoTime();
    private long elapsedNanos;
    private String cursor;

    public ImportSummary() {
        for (ImportOutcome.Kind k : ImportOutcome.Kind.values()) {
            counts.put(k, 0);
        }
    }

    private int conflicts;

    public void add(ImportOutcome o) {
        counts.merge(o.kind(), 1, Integer::sum);
        conflicts += o.conflicts();
        if (o.kind() == ImportOutcome.Kind.SKIPPED) {
            skipped.add(o);
        }
    }

    private final java.util.List<String> deletedIds = new java.util.ArrayList<>();

    /** Copies the tool reports (or a full snapshot shows) deleted: a sync unlinks them (or holds a mass deletion); an import lists them. */
    public void deletedRemotely(java.util.List<String> remoteIds) {
        deletedRemotely += remoteIds.size();
        deletedIds.addAll(remoteIds);
    }

    public void finish(String cursor) {
        this.cursor = cursor;
        elapsedNanos = TimeSource.nanoTime() - startedNanos;
    }

    public int count(ImportOutcome.Kind k) {
        return counts.get(k);
    }

    public int records() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    public List<ImportOutcome> skipped() {
        return List.copyOf(skipped);
    }

    private final java.util.List<KeptAside> keptAside = new java.util.ArrayList<>();

    /** Record {@code remoteId} was imported without a value past the record's bounds, which stays in its copy: {@code what} says which and where. */
    public void keptAside(String remoteId, String what) {
        keptAside.add(new KeptAside(remoteId, what));
    }

    /** The values kept aside (each record is counted by its own outcome, not here). */
    public List<KeptAside> keptAside() {
        return List.copyOf(keptAside);
    }

    /** Fields changed on both sides, decided by the account's conflict policy (both values kept). */
    public int conflicts() {
        return conflicts;
    }

    public int deletedRemotely() {
        return deletedRemotely;
    }

    /** The remote ids of the copies deleted in the tool. */
    public java.util.List<String> deletedRemoteIds() {
        return java.util.List.copyOf(deletedIds);
    }

    public double seconds() {
        return elapsedNanos / 1e9;
    }

    /** Records handled per second (skipped ones included). */
    public double rate() {
        return elapsedNanos == 0 ? 0 : records() / seconds();
    }

    public String cursor() {
        return cursor;
    }

    @Override
    public String toString() {
        return String.format("%d records: %d created, %d merged, %d updated, %d unchanged, %d skipped; %d conflicts; %d deleted remotely; %.1f s, %.0f records/s",
                records(), count(ImportOutcome.Kind.CREATED), count(ImportOutcome.Kind.MERGED), count(ImportOutcome.Kind.UPDATED),
                count(ImportOutcome.Kind.UNCHANGED), count(ImportOutcome.Kind.SKIPPED), conflicts, deletedRemotely, seconds(), rate());
    }
}
