package dev.idiom.services.app.zotero;

import dev.idiom.services.app.zotero.LibraryView.Stored;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What a read of objects asks for, as the API's paths and parameters say it (www.zotero.org/support
 * /dev/web_api/v3/basics: "Read Requests", "Search Parameters", "Sorting and Pagination").
 *
 * @param scope {@code all}, {@code top}, {@code trash}, {@code children} (of {@code within}), {@code collection} (items of {@code within}),
 *              {@code collectionTop}, {@code subcollections}
 * @param keys the {@code itemKey}/{@code collectionKey}/{@code searchKey} list, or null
 * @param tags each {@code tag} parameter (each an {@code ||} list, {@code -tag} for not)
 */
public record ObjectQuery(String type, String scope, String within, long since, List<String> keys, String itemType, List<String> tags, String q,
                          String qmode, boolean includeTrashed, String sort, String direction) {

    /** The objects the query selects, sorted. */
    public List<Stored> select(LibraryView view) {
        Predicate<Stored> wanted = o -> o.version() > since;
        if (keys != null) {
            // items/top?itemKey=: each key's top-level item (a child names its parent, an annotation its attachment's parent)
            Set<String> k = "top".equals(scope) ? keys.stream().map(key -> top(view, key)).collect(java.util.stream.Collectors.toSet()) : Set.copyOf(keys);
            wanted = wanted.and(o -> k.contains(o.key()));
        }
        wanted = wanted.and(inScope(view));
        Predicate<Stored> live = o -> includeTrashed || "trash".equals(scope) || !o.trashed(); // collections and searches go to the trash too
        wanted = wanted.and(live);
        Predicate<Stored> found = found(false);
        Predicate<Stored> excluded = found(true);
        if ("top".equals(scope) && found != null) {
            // items/top?q= (itemType=, tag=): what a search finds at any depth names its top-level item, as the dataserver
            // answers; a negation (tag=-b) is of the top-level item itself
            Set<String> tops = view.of(type).values().stream().filter(live.and(found)).map(o -> top(view, o.key()))
                    .collect(java.util.stream.Collectors.toSet());
            wanted = wanted.and(o -> tops.contains(o.key()));
        } else if (found != null) {
            wanted = wanted.and(found);
        }
        if (excluded != null) {
            wanted = wanted.and(excluded);
        }
        return view.of(type).values().stream().filter(wanted).sorted(order(view)).toList();
    }

    /**
     * What the search finds: with {@code negations} false its terms that select (itemType, tag, q, or a
     * collection's or search's name), with true those that leave out ({@code itemType=-x}, {@code tag=-x});
     * null when it has none of them.
     */
    private Predicate<Stored> found(boolean negations) {
        if (!"item".equals(type)) {
            // collections?q=, searches?q=: by name
            return negations || q == null || q.isBlank() ? null : terms(q).stream().map(t -> (Predicate<Stored>) o -> o.data().path("name").asText("")
                    .toLowerCase(java.util.Locale.ROOT).contains(t)).reduce(Predicate::and).orElse(o -> true);
        }
        Predicate<Stored> found = o -> true;
        boolean any = false;
        if (itemType != null && itemType.startsWith("-") == negations) {
            found = found.and(typeMatches(itemType));
            any = true;
        }
        for (String t : tags) {
            if (t.startsWith("-") == negations) {
                found = found.and(tagMatches(t));
                any = true;
            }
        }
        if (!negations && q != null && !q.isBlank()) {
            boolean everything = "everything".equals(qmode);
            for (String term : terms(q)) {
                found = found.and(o -> text(o, everything).contains(term));
            }
            any = true;
        }
        return any ? found : null;
    }

    private String top(LibraryView view, String key) {
        Stored o = view.of(type).get(key);
        for (int depth = 0; o != null && o.parentKey() != null && depth < 10; depth++) {
            Stored parent = view.of(type).get(o.parentKey());
            if (parent == null) {
                break;
            }
            o = parent;
        }
        return o == null ? key : o.key();
    }

    private Predicate<Stored> inScope(LibraryView view) {
        return switch (scope) {
            case "top" -> o -> o.parentKey() == null;
            case "trash" -> Stored::trashed;
            case "children" -> o -> within.equals(o.parentKey());
            // an item in the collection and its child notes and attachments, as the dataserver lists them (items/top: the items alone)
            case "collection" -> o -> inCollection(o) || o.parentKey() != null && view.of(type).get(o.parentKey()) != null
                    && inCollection(view.of(type).get(o.parentKey()));
            case "collectionTop" -> o -> o.parentKey() == null && inCollection(o);
            case "subcollections" -> o -> within.equals(o.parentKey());
            default -> o -> true;
        };
    }

    private boolean inCollection(Stored o) {
        for (var c : o.data().path("collections")) {
            if (within.equals(c.asText())) {
                return true;
            }
        }
        return false;
    }

    private static Predicate<Stored> typeMatches(String expression) {
        boolean not = expression.startsWith("-");
        Set<String> types = Set.copyOf(Arrays.stream((not ? expression.substring(1) : expression).split("\\s*\\|\\|\\s*")).toList());
        return o -> types.contains(o.data().path("itemType").asText()) != not && !(not && annotation(o));
    }

    /** The dataserver's negations ({@code itemType=-x}, {@code tag=-x}) never select annotations. */
    private static boolean annotation(Stored o) {
        return "annotation".equals(o.data().path("itemType").asText());
    }

    private static Predicate<Stored> tagMatches(String expression) {
        boolean not = expression.startsWith("-");
        // tag=B finds b: the dataserver compares tags without case
        Set<String> any = Set.copyOf(Arrays.stream((not ? expression.substring(1) : expression).split("\\s*\\|\\|\\s*"))
                .map(t -> t.toLowerCase(java.util.Locale.ROOT)).toList());
        return o -> {
            boolean has = false;
            for (var t : o.data().path("tags")) {
                has |= any.contains(t.path("tag").asText().toLowerCase(java.util.Locale.ROOT));
            }
            return has != not && !(not && annotation(o));
        };
    }

    /** A quick search's terms, each of which must be found: its words, and its "quoted phrases" whole (lower case). */
    static List<String> terms(String q) {
        List<String> out = new java.util.ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"([^\"]*)\"|(\\S+)").matcher(q.toLowerCase(java.util.Locale.ROOT));
        while (m.find()) {
            String t = m.group(1) != null ? m.group(1).strip() : m.group(2);
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    /** The text {@code q} is looked for in: title, creators' names and year; everything adds every field. */
    private static String text(Stored o, boolean everything) {
        StringBuilder s = new StringBuilder();
        var d = o.data();
        s.append(d.path("title").asText()).append(' ').append(d.path("note").asText()).append(' ').append(d.path("date").asText()).append(' ');
        d.path("creators").forEach(c -> s.append(c.path("firstName").asText()).append(' ').append(c.path("lastName").asText()).append(' ')
                .append(c.path("name").asText()).append(' '));
        if (everything) {
            d.properties().forEach(p -> {
                if (p.getValue().isTextual()) {
                    s.append(p.getValue().asText()).append(' ');
                }
            });
        }
        return s.toString().toLowerCase(java.util.Locale.ROOT);
    }

    private Comparator<Stored> order(LibraryView view) {
        String by = sort == null ? "dateModified" : sort;
        if (by.equals("keyList") && keys != null) {
            return Comparator.comparingInt(o -> keys.indexOf(o.key())); // order=itemKeyList: as the keys were named
        }
        Comparator<Stored> c = switch (by) {
            case "title" -> Comparator.comparing(o -> sortTitle(o).toLowerCase(java.util.Locale.ROOT));
            // by name as a reader would order them, items with no creator last (in the order they were added)
            case "creator" -> Comparator.comparing((Stored o) -> creatorSummary(o.data()).isEmpty())
                    .thenComparing(o -> creatorSummary(o.data()), java.text.Collator.getInstance(java.util.Locale.ROOT));
            case "itemType" -> Comparator.comparing(o -> o.data().path("itemType").asText());
            case "date" -> Comparator.comparing(o -> ZoteroDates.sortable(o.data().path("date").asText()));
            case "dateAdded" -> Comparator.comparing(o -> o.data().path("dateAdded").asText());
            case "numItems" -> Comparator.comparingLong(o -> view.of("item").values().stream().filter(i -> i.data().path("collections").toString()
                    .contains("\"" + o.key() + "\"")).count());
            case "dateModified" -> Comparator.comparing(o -> o.data().path("dateModified").asText(""));
            default -> Comparator.comparing(o -> o.data().path(by).asText(""));
        };
        c = c.thenComparing(Stored::version).thenComparing(Stored::key);
        // the API's default direction: newest first for the two dates, ascending for everything else
        boolean descending = direction == null ? Set.of("dateAdded", "dateModified").contains(by) : "desc".equals(direction);
        return descending ? c.reversed() : c;
    }

    static String sortTitle(Stored o) {
        String t = o.data().path("title").asText("");
        if (t.isEmpty()) {
            t = o.data().path("name").asText("");
        }
        if (t.isEmpty() && o.data().has("note")) {
            t = o.data().path("note").asText("").replaceAll("<[^>]*>", "").strip();
        }
        return t;
    }

    /** Zotero's creator summary: one primary creator's last name, "A and B" for two, "A et al." beyond. */
    public static String creatorSummary(com.fasterxml.jackson.databind.JsonNode data) {
        List<String> names = new java.util.ArrayList<>();
        // a name of nothing but spaces or a byte-order mark is no name (the dataserver trims them away)
        data.path("creators").forEach(c -> names.add((c.hasNonNull("name") ? c.path("name").asText() : c.path("lastName").asText()).replace("\uFEFF", "").strip()));
        names.removeIf(String::isEmpty);
        return switch (names.size()) {
            case 0 -> "";
            case 1 -> names.get(0);
            case 2 -> names.get(0) + " and " + names.get(1);
            default -> names.get(0) + " et al.";
        };
    }
}
