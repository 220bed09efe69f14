package dev.idiom.events;

import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The keys by which an imported record is recognised as a work Idiom already has (DESIGN.md):
 * normalised DOI, then normalised URL, then normalised title + first author's family name (with
 * the year checked separately: within one year). Accents, case and punctuation are folded.
 */
public final class MatchKeys {
    public static final String DOI = "doi";
    public static final String URL = "url";
    public static final String TITLE = "title";
    /** Not a match of works but of copies: a replica's tool, account and remote id. */
    public static final String REPLICA = "replica";
    /** A tool's own id of the work across its users (BibSonomy's interhash). */
    public static final String HINT = "hint";
    /** A copy unlinked by hand from the DE holding the key. */
    public static final String DETACHED = "detached";
    /** Not a match of works: every DE with a copy in one tool account holds that account's key. */
    public static final String ACCOUNT = "account";

    private MatchKeys() {}

    /** One key: its kind and value. */
    public record Key(String kind, String value) {}

    /** The keys of one record's metadata, strongest first. */
    public static Set<Key> of(Metadata m) {
        Set<Key> keys = new LinkedHashSet<>();
        String doi = doi(m);
        if (doi != null) {
            keys.add(new Key(DOI, doi));
        }
        String url = url(m.url());
        if (url != null && !url.startsWith("doi.org/")) {
            keys.add(new Key(URL, url));
        }
        String title = title(m);
        if (title != null) {
            keys.add(new Key(TITLE, title));
        }
        return keys;
    }

    /** The keys of a DE: of its metadata and of every replica's last synced record. */
    public static Set<Key> of(DigitalEntity de) {
        // a DE out of the live ones (trashed, purged, merged) is found by its copies only: a new record of its work is a new DE
        boolean live = de.lifecycle().live();
        Set<Key> keys = new LinkedHashSet<>(live ? of(de.metadata()) : Set.of());
        de.replicas().forEach(r -> {
            if (live) {
                keys.addAll(of(r.synced()));
            }
            keys.add(replica(r.tool(), r.account(), r.remoteId()));
            keys.add(account(r.tool(), r.account()));
            if (r.identityHint() != null) {
                keys.add(hint(r.tool(), r.identityHint()));
            }
        });
        de.detached().forEach(c -> keys.add(detached(c.tool(), c.account(), c.remoteId())));
        return keys;
    }

    /** The key of a copy a curator unlinked from the DE holding it: a pull leaves that copy alone. */
    public static Key detached(String tool, String account, String remoteId) {
        return new Key(DETACHED, clip(Fingerprint.of(tool + "\n" + account + "\n" + remoteId)));
    }

    /** The key of a tool's identity hint (tools' hints live in separate spaces). */
    public static Key hint(String tool, String hint) {
        return new Key(HINT, clip(tool + ":" + hint));
    }

    /** The key every DE with a copy in this tool account holds: how a full snapshot's deletions are found. */
    public static Key account(String tool, String account) {
        return new Key(ACCOUNT, clip(Fingerprint.of(tool + "\n" + account)));
    }

    /** The key of one copy in one tool. */
    public static Key replica(String tool, String account, String remoteId) {
        return new Key(REPLICA, clip(Fingerprint.of(tool + "\n" + account + "\n" + remoteId)));
    }

    /** The normalised DOI, from the doi field or a doi.org URL; null if none. */
    public static String doi(Metadata m) {
        String d = doi(m.doi());
        if (d == null && m.url() != null) {
            String u = url(m.url());
            if (u != null && u.startsWith("doi.org/")) {
                d = doi(u.substring("doi.org/".length()));
            }
        }
        return d;
    }

    static String doi(String raw) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        String d = raw.strip().toLowerCase(Locale.ROOT);
        for (String prefix : new String[] {"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi.org/", "doi:"}) {
            if (d.startsWith(prefix)) {
                d = d.substring(prefix.length()).strip();
            }
        }
        return d.startsWith("10.") ? clip(d) : null;
    }

    /** Scheme, "www.", fragment, tracking parameters and a trailing slash dropped; host lower-cased. */
    static String url(String raw) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        try {
            URI u = URI.create(raw.strip());
            if (u.getHost() == null) {
                return null;
            }
            String host = u.getHost().toLowerCase(Locale.ROOT);
            if (host.startsWith("www.")) {
                host = host.substring(4);
            }
            if (host.equals("dx.doi.org")) {
                host = "doi.org";
            }
            String path = u.getRawPath() == null ? "" : u.getRawPath();
            while (path.endsWith("/")) {
                path = path.substring(0, path.length() - 1);
            }
            StringBuilder query = new StringBuilder();
            if (u.getRawQuery() != null) {
                for (String p : u.getRawQuery().split("&")) {
                    if (!p.isEmpty() && !p.startsWith("utm_")) {
                        query.append(query.isEmpty() ? "?" : "&").append(p);
                    }
                }
            }
            return clip(host + (u.getPort() > 0 && u.getPort() != 80 && u.getPort() != 443 ? ":" + u.getPort() : "") + path + query);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Folded title + "|" + folded family name of the first author; null without both. */
    static String title(Metadata m) {
        String t = Normalized.fold(m.title());
        if (t.isEmpty() || m.authors().isEmpty()) {
            return null;
        }
        String family = Normalized.fold(m.authors().getFirst().family());
        return family.isEmpty() ? null : clip(t + "|" + family);
    }

    /**
     * Whether a record matched by key may join a DE: never with different DOIs, never with years
     * more than one apart; a title match also needs both years.
     */
    public static boolean compatible(Metadata record, Metadata de, String kind) {
        String d1 = doi(record);
        String d2 = doi(de);
        if (d1 != null && d2 != null && !d1.equals(d2)) {
            return false;
        }
        Integer y1 = record.year();
        Integer y2 = de.year();
        if (y1 != null && y2 != null && Math.abs(y1 - y2) > 1) {
            return false;
        }
        return !kind.equals(TITLE) || (y1 != null && y2 != null);
    }

    /**
     * The DE a record describes: the holder of its first key (DOI, then URL, then title + first
     * author), in the holders' order, whose metadata is {@link #compatible} with the record.
     */
    public static Optional<UUID> firstMatch(Metadata record, Function<Key, List<UUID>> holders, Function<UUID, Metadata> metadata) {
        return firstMatch(record, holders, metadata, id -> true);
    }

    /**
     * As above, among the holders {@code eligible} accepts only: a record of one tool account never
     * joins a DE that already holds a copy in that account (two entries of one file are two records to
     * their owner, whatever they share; DESIGN.md).
     */
    public static Optional<UUID> firstMatch(Metadata record, Function<Key, List<UUID>> holders, Function<UUID, Metadata> metadata,
            java.util.function.Predicate<UUID> eligible) {
        for (Key k : of(record)) {
            for (UUID id : holders.apply(k)) {
                if (eligible.test(id) && compatible(record, metadata.apply(id), k.kind())) {
                    return Optional.of(id);
                }
            }
        }
        return Optional.empty();
    }

    private static String clip(String s) {
        return s.length() > 190 ? s.substring(0, 190) : s;
    }
}
