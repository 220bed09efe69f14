package dev.idiom.consistency;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.Fingerprint;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.events.Normalized;
import dev.idiom.events.Replica;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A tool account's replication rule: which DEs it should hold and which way copies flow. Idiom
 * makes, updates and removes copies so that the account holds exactly what {@link #selects} says
 * (the DEs it brought in itself stay whatever the rule: see {@link Mirrors}).
 *
 * @param all every DE
 * @param tags a DE carrying one of these tags (case and accents ignored); empty: any
 * @param types a DE of one of these types; empty: any
 * @param query words that must all occur in the DE's title, authors, venue, abstract, tags or notes (case and accents ignored); null: any
 * @param from a DE holding a copy in one of these accounts (by name); empty: any
 * @param propagatesDeletions a DE deleted in Idiom has its copies in the account deleted (a tool with a trash keeps them there),
 *        and a copy deleted there deletes the DE when it was the DE's last; false ("keep", the default): copies stay, and a copy
 *        deleted there is only unlinked
 */
public record MirrorRule(boolean all, SortedSet<String> tags, SortedSet<String> types, String query, SortedSet<String> from, Direction direction,
                         boolean propagatesDeletions) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_CRITERIA = 100;

    /** The rule of an account that holds only what it brings in or is uploaded to it (the default). */
    public static final MirrorRule NONE = new MirrorRule(false, new TreeSet<>(), new TreeSet<>(), null, new TreeSet<>(), Direction.BOTH);

    /** Which way copies flow between the account and Idiom. */
    public enum Direction {
        /** Idiom takes the account's changes and writes its own. */
        BOTH("both"),
        /** The account feeds Idiom; Idiom never writes to it. */
        RECEIVE_ONLY("receive-only"),
        /** Idiom writes to the account and never takes its changes (a change met there is overwritten). */
        SEND_ONLY("send-only");

        private final String text;

        Direction(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }

        /** Idiom writes to the account. */
        public boolean written() {
            return this != RECEIVE_ONLY;
        }

        /** Idiom takes the account's changes. */
        public boolean read() {
            return this != SEND_ONLY;
        }

        public static Direction named(String name) {
            if (name == null || name.isBlank()) {
                return BOTH;
            }
            for (Direction d : values()) {
                if (d.text.equals(name.strip())) {
                    return d;
                }
            }
            throw new InvalidValueException("direction must be one of \"both\", \"receive-only\", \"send-only\", got '" + name + "'");
        }
    }

    public MirrorRule(boolean all, SortedSet<String> tags, SortedSet<String> types, String query, SortedSet<String> from, Direction direction) {
        this(all, tags, types, query, from, direction, false);
    }

    /** The same rule with the account's deletions setting: "propagate" or "keep" (null: keep). */
    public MirrorRule withDeletions(String deletions) {
        boolean propagate = switch (deletions == null ? "keep" : deletions.strip()) {
            case "keep" -> false;
            case "propagate" -> true;
            default -> throw new InvalidValueException("deletions must be \"propagate\" or \"keep\", got '" + deletions + "'");
        };
        return new MirrorRule(all, tags, types, query, from, direction, propagate);
    }

    /** The deletions setting as the API and the store name it. */
    public String deletions() {
        return propagatesDeletions ? "propagate" : "keep";
    }

    /** True if Idiom has work of its own to do in the account: copies a rule selects, or deletions to carry there. */
    public boolean plans() {
        return direction.written() && (mirrors() || propagatesDeletions);
    }

    public MirrorRule {
        tags = Collections.unmodifiableSortedSet(new TreeSet<>(tags));
        types = Collections.unmodifiableSortedSet(new TreeSet<>(types));
        from = Collections.unmodifiableSortedSet(new TreeSet<>(from));
        query = query == null || query.isEmpty() ? null : query; // a query of no words selects every DE
    }

    /** True if the rule selects some DEs (otherwise the account holds only what it brings in or is given). */
    public boolean mirrors() {
        return all || !tags.isEmpty() || !types.isEmpty() || query != null || !from.isEmpty();
    }

    /**
     * True if the account should hold {@code de}. {@code inFrom} says whether a replica is in one of
     * the {@link #from} accounts (the directory knows which kind and account a name is).
     */
    public boolean selects(DigitalEntity de, Predicate<Replica> inFrom) {
        if (!mirrors() || !de.live()) {
            return false;
        }
        if (all) {
            return true;
        }
        Metadata m = de.metadata();
        if (!tags.isEmpty() && (m.tags() == null || m.tags().stream().map(Normalized::fold).noneMatch(foldedTags()::contains))) {
            return false;
        }
        if (!types.isEmpty() && !types.contains(m.type())) {
            return false;
        }
        if (!from.isEmpty() && de.replicas().stream().noneMatch(inFrom)) {
            return false;
        }
        return query == null || matchesWords(m);
    }

    private Set<String> foldedTags() {
        return tags.stream().map(Normalized::fold).collect(Collectors.toSet());
    }

    private boolean matchesWords(Metadata m) {
        StringBuilder text = new StringBuilder();
        for (Object v : new Object[] {m.title(), m.venue(), m.abstractText(), m.notes()}) {
            if (v != null) {
                text.append(v).append(' ');
            }
        }
        if (m.authors() != null) {
            for (Author a : m.authors()) {
                text.append(a.family()).append(' ').append(a.given()).append(' ');
            }
        }
        if (m.tags() != null) {
            m.tags().forEach(t -> text.append(t).append(' '));
        }
        Set<String> words = Arrays.stream(Normalized.fold(text.toString()).split("[^\\p{L}\\p{N}]+")).collect(Collectors.toSet());
        return Arrays.stream(Normalized.fold(query).split("[^\\p{L}\\p{N}]+")).filter(w -> !w.isEmpty()).allMatch(words::contains);
    }

    /**
     * The rule as a request gives it: {@code "none"}, {@code "all"} or a filter object
     * {@code {"tags": [...], "types": [...], "query": "...", "from": [...]}} (each optional, at least one);
     * null or absent: none. A name in {@code from} need not be configured yet: it selects nothing until it is.
     */
    public static MirrorRule of(JsonNode mirror, String direction) {
        Direction d = Direction.named(direction);
        if (mirror == null || mirror.isNull() || (mirror.isTextual() && mirror.asText().equals("none"))) {
            return new MirrorRule(false, new TreeSet<>(), new TreeSet<>(), null, new TreeSet<>(), d);
        }
        if (mirror.isTextual() && mirror.asText().equals("all")) {
            return new MirrorRule(true, new TreeSet<>(), new TreeSet<>(), null, new TreeSet<>(), d);
        }
        if (!mirror.isObject()) {
            throw new InvalidValueException("mirror must be \"none\", \"all\" or a filter {\"tags\", \"types\", \"query\", \"from\"}, got " + mirror);
        }
        for (Iterator<String> names = mirror.fieldNames(); names.hasNext(); ) {
            String n = names.next();
            if (!Set.of("tags", "types", "query", "from").contains(n)) {
                throw new InvalidValueException("mirror: unknown member '" + n + "' (a filter has tags, types, query, from)");
            }
        }
        SortedSet<String> types = new TreeSet<>();
        for (String t : strings(mirror, "types")) {
            String current = Field.currentType(t);
            if (current == null || !Field.TYPES.contains(current)) {
                throw new InvalidValueException("mirror.types: '" + t + "' is not a record type (" + Field.TYPES + ")");
            }
            types.add(current);
        }
        SortedSet<String> from = new TreeSet<>(strings(mirror, "from"));
        for (String name : from) {
            if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
                throw new InvalidValueException("mirror.from names tool accounts (1–64 letters, digits, '.', '_' or '-'), got '" + name + "'");
            }
        }
        JsonNode q = mirror.get("query");
        if (q != null && (!q.isTextual() || q.asText().isEmpty() || q.asText().length() > 1000)) {
            throw new InvalidValueException("mirror.query is a text of 1 to 1000 characters");
        }
        MirrorRule rule = new MirrorRule(false, new TreeSet<>(strings(mirror, "tags")), types, q == null ? null : q.asText(), from, d);
        if (!rule.mirrors()) {
            throw new InvalidValueException("mirror: a filter needs at least one of tags, types, query, from (or say \"all\" or \"none\")");
        }
        return rule;
    }

    private static List<String> strings(JsonNode rule, String member) {
        JsonNode n = rule.get(member);
        if (n == null) {
            return List.of();
        }
        if (!n.isArray() || n.isEmpty() || n.size() > MAX_CRITERIA) {
            throw new InvalidValueException("mirror." + member + " is a list of 1 to " + MAX_CRITERIA + " texts");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode v : n) {
            if (!v.isTextual() || v.asText().isEmpty() || v.asText().length() > 1000) {
                throw new InvalidValueException("mirror." + member + " holds texts of 1 to 1000 characters, got " + v);
            }
            out.add(v.asText());
        }
        return out;
    }

    /** The stored form (null for none): canonical JSON, so that equal rules have equal text and {@link #fingerprint}. */
    public String stored() {
        if (!mirrors()) {
            return null;
        }
        return view().toString();
    }

    /** The rule as the API shows it: "none", "all" or the filter object. */
    public JsonNode view() {
        if (!mirrors()) {
            return JSON.getNodeFactory().textNode("none");
        }
        if (all) {
            return JSON.getNodeFactory().textNode("all");
        }
        ObjectNode n = JSON.createObjectNode();
        if (!tags.isEmpty()) {
            tags.forEach(n.putArray("tags")::add);
        }
        if (!types.isEmpty()) {
            types.forEach(n.putArray("types")::add);
        }
        if (query != null) {
            n.put("query", query);
        }
        if (!from.isEmpty()) {
            from.forEach(n.putArray("from")::add);
        }
        return n;
    }

    /**
     * A rule as a command line or a SOAP element gives it, as text: "none", "all", or a filter as
     * JSON; what {@link #of} reads (it checks the rest).
     */
    public static JsonNode text(String text) {
        String t = text.strip();
        if (!t.startsWith("{")) {
            return JSON.getNodeFactory().textNode(t);
        }
        try {
            return JSON.readTree(t);
        } catch (JsonProcessingException e) {
            throw new InvalidValueException("mirror: a filter is JSON such as {\"tags\": [\"gossip\"]}: " + e.getOriginalMessage());
        }
    }

    /** The rule as stored (null: none) with the account's direction; an unreadable stored rule is refused loudly. */
    public static MirrorRule stored(String mirror, String direction) {
        if (mirror == null) {
            return of(null, direction);
        }
        try {
            return of(JSON.readTree(mirror), direction);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored replication rule is not JSON: " + mirror, e);
        }
    }

    /**
     * Identifies what is planned (not the direction): a new fingerprint starts planning again from the
     * first event (deletions that now propagate reach the DEs already in the trash).
     */
    public String fingerprint() {
        return Fingerprint.of(String.valueOf(stored()) + (propagatesDeletions ? "\npropagate" : ""));
    }

    @Override
    public String toString() {
        return view() + " (" + direction.text() + (propagatesDeletions ? ", deletions propagate" : "") + ")";
    }
}
