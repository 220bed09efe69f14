package dev.idiom.consistency.report;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * What a curator's sync of one account would do, planned without doing it (a dry run): what its pull
 * would bring in, and what each account Idiom writes would be sent.
 *
 * @param account the account the sync is of
 * @param writes per account Idiom writes: copies to make, changes to send, copies to remove
 */
public record SyncPlan(String account, Pulled pulled, List<Writes> writes) {
    /** Most samples named per list. */
    public static final int SAMPLES = 10;

    /** A count of DEs (each counted once) with samples of their titles. */
    public static final class Named {
        private final Set<UUID> ids = new HashSet<>();
        private final List<String> samples = new ArrayList<>();
        private int count;

        /** Counts one (a DE not made yet has no id, and is counted each time). */
        public void add(UUID id, String sample) {
            if (id != null && !ids.add(id)) {
                return;
            }
            count++;
            if (samples.size() < SAMPLES) {
                samples.add(sample == null ? (id == null ? "[untitled]" : id.toString()) : sample);
            }
        }

        public int count() {
            return count;
        }

        public List<String> samples() {
            return List.copyOf(samples);
        }
    }

    /** What the pull would bring in: new DEs, records merged into DEs Idiom has, updates, unchanged and unreadable records, copies unlinked. */
    public static final class Pulled {
        public final Named created = new Named();
        public final Named merged = new Named();
        public final Named updated = new Named();
        public final Named unlinked = new Named();
        public int unchanged;
        public int skipped;
        /** Why the pull's deletions would be held for a curator, or null. */
        public String held;
        /** Why the pull could not be planned now and when it can (a tool's turn not yet due), or null. */
        public String queued;
    }

    /** What one account would be written. */
    public static final class Writes {
        private final String name;
        public final Named copies = new Named();
        public final Named updates = new Named();
        public final Named removals = new Named();
        /** Copies the tool would refuse (each title with the tool's reason): they would be parked, not made. */
        public final Named refused = new Named();
        /** Why the account would be held instead of its copies removed (more than the mass-delete share), or null. */
        public String held;

        public Writes(String name) {
            this.name = name;
        }

        public String name() {
            return name;
        }

        public void copy(UUID id, String title) {
            copies.add(id, title);
        }

        public void update(UUID id, String title) {
            updates.add(id, title);
        }

        public void remove(UUID id, String title) {
            removals.add(id, title);
        }

        public void refuse(UUID id, String titleAndReason) {
            refused.add(id, titleAndReason);
        }
    }
}
