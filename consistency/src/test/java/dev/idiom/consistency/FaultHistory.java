package dev.idiom.consistency;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Replica;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a fault schedule did that its end state must show, and the checker that compares them (as
 * Jepsen's checkers read a history): every acknowledged edit in its DE and in every copy, one copy
 * per DE per account and no copy shared, no DE made from Idiom's own writes, no source item
 * rewritten that nobody edited. Shared by the schedule run inside one JVM ({@link FaultSchedule})
 * and the one that kills a real server process over MariaDB (services' {@code KilledNodeFaultSuiteTest}).
 * The source library is {@code users/1}; its copies are {@code users/2} and {@code library.bib}.
 */
public final class FaultHistory {
    /** The accounts a schedule checks: the source library first. */
    public static final List<String> ACCOUNTS = List.of("users/1", "users/2", "library.bib");

    /** The title each DE must end with: the last acknowledged edit of it (wherever it was made). */
    private final Map<UUID, String> lastEdit = new ConcurrentHashMap<>();
    private final Set<UUID> edited = ConcurrentHashMap.newKeySet();
    /** Edits made after a DE's last acknowledged one whose outcome nobody heard (the node died under them): either may stand. */
    private final Map<UUID, Set<String>> unheard = new ConcurrentHashMap<>();
    /** Each source item's version after the import. */
    private final Map<String, Long> importedVersions = new ConcurrentHashMap<>();

    /** The title an edit gives: numbered and seeded, so every edit's value is its own. */
    public static String editedTitle(int n, long seed, String title) {
        return "Edited " + n + " of seed " + seed + ": " + title.replaceFirst("^Edited \\d+ of seed \\d+: ", "");
    }

    /** The source library's items as the import found them. */
    public void imported(Map<String, Long> versions) {
        importedVersions.putAll(versions);
    }

    /** An edit that was acknowledged (by Idiom's API, or by the tool): it must be found everywhere. */
    public void acknowledged(UUID de, String title) {
        edited.add(de);
        lastEdit.put(de, title);
        unheard.remove(de);
    }

    /** An edit sent to a node that died before it answered: never acknowledged, so it may or may not have been applied. */
    public void unheard(UUID de, String title) {
        edited.add(de);
        unheard.computeIfAbsent(de, k -> ConcurrentHashMap.newKeySet()).add(title);
    }

    /**
     * What the history and the end state disagree on; empty when nothing was lost, duplicated or rewritten.
     *
     * @param all every DE in the store
     * @param titles per account in {@link #ACCOUNTS}, each record's title by its remote id
     * @param sourceVersions the source library's item versions now
     */
    public List<String> check(List<DigitalEntity> all, int items, Map<String, Map<String, String>> titles, Map<String, Long> sourceVersions) {
        List<String> wrong = new ArrayList<>();
        List<DigitalEntity> des = all.stream().filter(DigitalEntity::live).toList();
        if (des.size() != items) {
            wrong.add(des.size() + " live DEs for " + items + " source items: copies read back as new records, or records lost");
        }
        Map<String, UUID> holder = new HashMap<>();
        for (DigitalEntity de : des) {
            String expected = lastEdit.get(de.id());
            if (expected != null && !expected.equals(de.metadata().title()) && !unheard.getOrDefault(de.id(), Set.of()).contains(de.metadata().title())) {
                wrong.add("DE " + de.id() + " lost its last edit: '" + expected + "', has '" + de.metadata().title() + "'");
            }
            if (de.replicas().stream().noneMatch(r -> ACCOUNTS.getFirst().equals(r.account()))) {
                String no = de.metadata().title().replaceFirst(".*(, no\\. \\d+)$", "$1");
                String twin = des.stream().filter(o -> o != de && o.metadata().title().endsWith(no)).map(o -> o.metadata().title() + " " + o.metadata().year()
                        + " " + o.metadata().authors() + (edited.contains(o.id()) ? " (edited)" : "")).findFirst().orElse("none");
                wrong.add("DE " + de.id() + " '" + de.metadata().title() + "' " + de.metadata().year() + " " + de.metadata().authors() + " came from "
                        + de.replicas().stream().map(r -> r.account() + " " + r.remoteId()).toList() + ", not from the source library; its twin: " + twin);
                continue;
            }
            for (String account : ACCOUNTS) {
                List<Replica> copies = de.replicas().stream().filter(r -> account.equals(r.account())).toList();
                if (copies.size() != 1) {
                    wrong.add("DE " + de.id() + " has " + copies.size() + " copies in " + account);
                    continue;
                }
                String id = copies.getFirst().remoteId();
                UUID other = holder.put(account + "\n" + id, de.id());
                if (other != null) {
                    wrong.add("DEs " + other + " and " + de.id() + " share the copy " + id + " in " + account);
                }
                String there = titles.get(account).get(id);
                if (!de.metadata().title().equals(there)) {
                    wrong.add("DE " + de.id() + " '" + de.metadata().title() + "' but its copy " + id + " in " + account + " has '" + there + "'");
                }
                if (account.equals(ACCOUNTS.getFirst()) && !edited.contains(de.id()) && !Objects.equals(importedVersions.get(id), sourceVersions.get(id))) {
                    wrong.add("source item " + id + " nobody edited was rewritten (version " + importedVersions.get(id) + " -> " + sourceVersions.get(id) + ")");
                }
            }
        }
        for (String account : ACCOUNTS) {
            if (titles.get(account).size() != des.size()) {
                wrong.add(account + " holds " + titles.get(account).size() + " records for " + des.size() + " DEs");
            }
        }
        return wrong;
    }

    /** Each record's title as the account holds it now, by its remote id (a whole listing, page by page). */
    public static Map<String, String> titles(AnnotationTool tool) {
        Map<String, String> out = new TreeMap<>();
        String cursor = null;
        ChangePage page;
        do {
            page = tool.changedSince(cursor);
            for (RemoteRecord r : page.records()) {
                out.put(r.remoteId(), r.metadata().title());
            }
            page.deleted().forEach(out::remove);
            cursor = page.cursor();
        } while (page.more());
        return out;
    }
}
