package dev.idiom.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.bibtex.BibTeXFile;
import dev.idiom.wrappers.http.ToolHttp;
import dev.idiom.wrappers.zotero.ZoteroSchema;
import dev.idiom.wrappers.zotero.ZoteroStub;
import dev.idiom.wrappers.zotero.ZoteroTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * How much of a record arrives when Idiom carries it from one tool to another, measured on public
 * test material nobody here wrote, through the adapters Idiom runs and the strict Zotero stand-in
 * (the wrappers' {@link ZoteroStub}, which refuses what the Zotero API refuses):
 * <ol>
 * <li><b>Zotero → BibTeX</b>: each item of Better BibTeX's export fixtures ({@code *.json}, the
 *     items a test exports, beside the {@code .bibtex}/{@code .biblatex} it must give) is put into a
 *     Zotero library, read by {@code ZoteroTool} and written as a new entry by {@code BibTeXFile};
 *     of the fields Better BibTeX writes for the same item, the share the entry has (by name, or by its
 *     other dialect's name: {@code date}/{@code year}, {@code location}/{@code address},
 *     {@code journaltitle}/{@code journal}, {@code institution}/{@code school}, {@code langid}/{@code language}).</li>
 * <li><b>Zotero → Zotero</b>: each item read as above is created as a new item (a mirror into
 *     another library); of the source item's non-empty fields its copy's item type has, each creator and
 *     each tag, the share the copy holds with the same value.</li>
 * <li><b>BibTeX → Zotero</b>: each entry of every other {@code .bib} file (Better BibTeX's import
 *     fixtures, JabRef's test files) is read by {@code BibTeXFile} and created as a Zotero item; of the
 *     entry's fields that have a place in a Zotero item ({@link #ZOTERO_HOLDS}: Better BibTeX's import
 *     table, a {@code note} as a child note), the share whose value arrived (the item's field, creators, tags, child notes).</li>
 * <li><b>CSL-JSON</b>: Idiom's CSL-JSON answer for each item read as above, variable by variable,
 *     against Zotero's own export of the same item ({@code allTypesAndFields.js}, Zotero's test items
 *     of every type with every field, and {@code citeProcJSExport.json}, its CSL JSON, keyed by item
 *     type) and against Better BibTeX's ({@code *.csl.json} beside a fixture); the variables Zotero's
 *     has and Idiom's lacks are listed apart.</li>
 * </ol>
 * A {@code .bibtex} fixture is compared with the entry Idiom writes to a file in BibTeX's dialect, a
 * {@code .biblatex} one with the entry of a BibLaTeX file. Prints the shares, then the fields lost
 * most ({@code FIDELITY_SHOW=field} prints each case of one field, {@code *} each lost .bib field, {@code csl:*} each CSL difference;
 * {@code FIDELITY_DIFF=field} each case where both have the field with other values).
 * Run with {@code perf/fidelity.sh FOLDER}.
 */
public final class FidelityMeasure {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Writes an idle sync of each fixture item sent, and items it changed: both must stay 0. */
    private static int idleWrites;
    private static int idleChanged;
    /** Variables Zotero's CSL JSON of its own items has and Idiom's answer for the same item lacks, with how often. */
    private static final Map<String, Integer> CSL_ABSENT = new TreeMap<>();
    private static final ZoteroSchema SCHEMA = ZoteroSchema.published();
    /** Fields of an item that are the library's, not the work's. */
    private static final Set<String> LIBRARY_OWN = Set.of("key", "version", "collections", "relations", "dateAdded", "dateModified", "itemType");
    /** A field of one BibTeX dialect and its name in the other. */
    private static final Map<String, String> DIALECT = Map.ofEntries(Map.entry("date", "year"), Map.entry("location", "address"),
            Map.entry("journaltitle", "journal"), Map.entry("institution", "school"), Map.entry("langid", "language"),
            Map.entry("year", "date"), Map.entry("address", "location"), Map.entry("journal", "journaltitle"), Map.entry("school", "institution"),
            Map.entry("language", "langid"));
    /** BibTeX fields a Zotero item has a place for (Better BibTeX's import): field → where it lands ("creators", "tags", "notes" or Zotero base fields). */
    static final Map<String, List<String>> ZOTERO_HOLDS = Map.ofEntries(Map.entry("title", List.of("title")),
            Map.entry("author", List.of("creators")), Map.entry("editor", List.of("creators")), Map.entry("translator", List.of("creators")),
            Map.entry("journal", List.of("publicationTitle")), Map.entry("journaltitle", List.of("publicationTitle")),
            Map.entry("booktitle", List.of("publicationTitle")), Map.entry("year", List.of("date")), Map.entry("date", List.of("date")),
            Map.entry("volume", List.of("volume")), Map.entry("pages", List.of("pages")), Map.entry("publisher", List.of("publisher")),
            Map.entry("school", List.of("publisher")), Map.entry("institution", List.of("publisher")), Map.entry("address", List.of("place")),
            Map.entry("location", List.of("place")), Map.entry("doi", List.of("DOI")), Map.entry("url", List.of("url")),
            Map.entry("abstract", List.of("abstractNote")), Map.entry("isbn", List.of("ISBN")), Map.entry("issn", List.of("ISSN")),
            Map.entry("edition", List.of("edition")), Map.entry("series", List.of("series")), Map.entry("keywords", List.of("tags")),
            Map.entry("language", List.of("language")), Map.entry("langid", List.of("language")), Map.entry("urldate", List.of("accessDate")),
            Map.entry("type", List.of("type")), Map.entry("shorttitle", List.of("shortTitle")), Map.entry("eventtitle", List.of("conferenceName")),
            Map.entry("issue", List.of("issue")), Map.entry("month", List.of("date")), Map.entry("number", List.of("number", "issue")),
            Map.entry("venue", List.of("place")), Map.entry("rights", List.of("rights")), Map.entry("eprint", List.of("archiveID")),
            Map.entry("note", List.of("notes")));

    /** Kept and total counts by field, for one direction. */
    private static final class Tally {
        final Map<String, int[]> byField = new TreeMap<>();
        int kept;
        int total;
        int records;
        int refused;

        void count(String field, boolean ok) {
            int[] c = byField.computeIfAbsent(field, f -> new int[2]);
            c[1]++;
            total++;
            if (ok) {
                c[0]++;
                kept++;
            }
        }

        String share() {
            return total == 0 ? "no fields" : String.format(Locale.ROOT, "%.2f%% (%d of %d fields, %d records, %d refused by the stand-in)",
                    100.0 * kept / total, kept, total, records, refused);
        }

        String losses(int n) {
            StringBuilder b = new StringBuilder();
            byField.entrySet().stream().filter(e -> e.getValue()[0] < e.getValue()[1])
                    .sorted((x, y) -> Integer.compare(y.getValue()[1] - y.getValue()[0], x.getValue()[1] - x.getValue()[0])).limit(n)
                    .forEach(e -> b.append(String.format(Locale.ROOT, "    %-22s %5d of %5d lost%n", e.getKey(), e.getValue()[1] - e.getValue()[0],
                            e.getValue()[1])));
            return b.toString();
        }
    }

    /** Every direction's tally, and what a .bib listing skipped, for one run. */
    private static final class Measures {
        final Tally toBibtex = new Tally();
        final Tally toBiblatex = new Tally();
        final Tally toZotero = new Tally();
        final Tally roundTrip = new Tally();
        final Tally bibToZotero = new Tally();
        final Tally bibAsZotero = new Tally();
        final Tally csl = new Tally();
        final Tally zoteroCsl = new Tally();
        /** Entries of .bib files and translator imports, and the ones a listing skipped, with why. */
        int entries;
        final List<String> skipped = new ArrayList<>();
        int translatorItems;
        int translators;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 || !Files.isDirectory(Path.of(args[0]))) {
            System.err.println("usage: perf/fidelity.sh FOLDER   (a folder holding Better BibTeX's test/fixtures, JabRef's .bib test files, …)");
            System.exit(2);
        }
        Path root = Path.of(args[0]);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        Measures all = new Measures();
        Path scratch = Files.createTempDirectory("idiom-fidelity");
        try (ZoteroStub stub = new ZoteroStub()) {
            ZoteroTool zotero = new ZoteroTool(stub.uri(), ZoteroStub.LIBRARY, ZoteroStub.KEY,
                    new ToolHttp("Zotero", ZoteroTool.LIMITS, Clock.systemUTC(), wait -> { }, 4));
            Carrier carrier = new Carrier(stub, zotero, scratch, all);
            int done = 0;
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (name.equals("allTypesAndFields.js")) {
                    zoteroItems(f, carrier, all.zoteroCsl);
                } else if (name.endsWith(".js")) {
                    translatorCases(f, carrier);
                } else if (name.endsWith(".json")) {
                    zoteroItems(f, carrier, all.csl);
                } else if (name.endsWith(".bib")) {
                    bibEntries(f, scratch, carrier, null);
                }
                if (++done % 100 == 0) {
                    System.err.println("fidelity: " + done + " of " + files.size() + " files");
                }
            }
        } finally {
            try (Stream<Path> walk = Files.walk(scratch)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.out.println("Zotero -> BibTeX, BibTeX mode (fields Better BibTeX writes): " + all.toBibtex.share());
        System.out.println("Zotero -> BibTeX, BibLaTeX mode (fields Better BibTeX writes): " + all.toBiblatex.share());
        System.out.println("Zotero -> Zotero (fields the copy's item type has): " + all.toZotero.share());
        System.out.println("Zotero -> BibTeX -> Zotero, both dialects (the source item's fields, its type, creators, tags): " + all.roundTrip.share());
        System.out.println("BibTeX -> Zotero (fields a Zotero item has a place for): " + all.bibToZotero.share());
        System.out.println("BibTeX -> Zotero = Zotero's own BibTeX import of the same text (its items' fields, type, creators, tags): "
                + all.bibAsZotero.share());
        System.out.println("Zotero items of " + all.translators + " translators' test cases: " + all.translatorItems);
        System.out.println("Idle sync of every Zotero item read: " + idleWrites + " writes sent, " + idleChanged + " items changed");
        System.out.println("CSL-JSON answer = Zotero's own CSL JSON of its items of every type, on the variables both hold: " + all.zoteroCsl.share());
        System.out.println("  variables it has that Idiom's answer lacks: " + (CSL_ABSENT.isEmpty() ? "none" : CSL_ABSENT));
        System.out.println("CSL-JSON answer = Better BibTeX's CSL JSON, on the variables both hold: " + all.csl.share());
        System.out.println(".bib entries read: " + all.entries + ", skipped: " + all.skipped.size());
        all.skipped.stream().limit(Integer.getInteger("fidelity.skipped", 40)).forEach(s -> System.out.println("    " + s));
        int n = Integer.getInteger("fidelity.losses", 15);
        System.out.println("\nLost most, Zotero -> BibTeX, BibTeX mode:\n" + all.toBibtex.losses(n));
        System.out.println("Lost most, Zotero -> BibTeX, BibLaTeX mode:\n" + all.toBiblatex.losses(n));
        System.out.println("Lost most, Zotero -> Zotero:\n" + all.toZotero.losses(n));
        System.out.println("Lost most, Zotero -> BibTeX -> Zotero:\n" + all.roundTrip.losses(n));
        System.out.println("Lost most, BibTeX -> Zotero:\n" + all.bibToZotero.losses(n));
        System.out.println("Differing most, BibTeX -> Zotero against Zotero's own import:\n" + all.bibAsZotero.losses(n));
        System.out.println("Differing most, CSL-JSON against Zotero's:\n" + all.zoteroCsl.losses(n));
        System.out.println("Differing most, CSL-JSON against Better BibTeX's:\n" + all.csl.losses(n));
    }

    /** The Zotero library items are carried through (the strict stand-in and Idiom's adapter for it), a scratch folder, the tallies. */
    private record Carrier(ZoteroStub stub, ZoteroTool zotero, Path scratch, Measures all) {}

    /** A Better BibTeX export fixture, or Zotero's allTypesAndFields.js: its items through Zotero to a .bib entry and to a second Zotero item. */
    private static void zoteroItems(Path f, Carrier carrier, Tally csl) throws IOException {
        JsonNode doc;
        try {
            doc = JSON.readTree(f.toFile());
        } catch (IOException notJson) {
            return;
        }
        // Better BibTeX's fixture: {"items": [...]}, matched by citation key; Zotero's allTypesAndFields.js: an item of
        // each type by its name, beside (anywhere in the folder) citeProcJSExport.json, Zotero's CSL JSON of them
        boolean zoterosOwn = f.getFileName().toString().equals("allTypesAndFields.js");
        List<Map.Entry<String, JsonNode>> items = new ArrayList<>(); // several items may share a key: a list, not a map
        if (zoterosOwn) {
            doc.properties().forEach(e -> items.add(Map.entry(e.getKey(), e.getValue())));
        } else if (doc.path("items").isArray()) {
            doc.path("items").forEach(i -> items.add(Map.entry(i.path("citationKey").asText(""), i)));
        } else {
            return;
        }
        String base = f.toString().substring(0, f.toString().length() - ".json".length());
        // what Better BibTeX writes, by dialect: a .bibtex fixture is compared with the entry Idiom writes to a file in BibTeX's dialect
        Map<Boolean, Map<String, Map<String, String>>> expected = new LinkedHashMap<>();
        for (String ext : List.of(".biblatex", ".bibtex")) {
            Path out = Path.of(base + ext);
            if (Files.exists(out)) {
                expected.put(ext.equals(".bibtex"), BibFields.entries(Files.readString(out, StandardCharsets.UTF_8)));
            }
        }
        Map<String, JsonNode> cslItems = new LinkedHashMap<>();
        Path cslFile = zoterosOwn ? citeProcExport(f) : Path.of(base + ".csl.json");
        if (cslFile != null && Files.exists(cslFile)) {
            try {
                JsonNode cslDoc = JSON.readTree(cslFile.toFile());
                if (zoterosOwn) {
                    cslDoc.properties().forEach(e -> cslItems.put(e.getKey(), e.getValue()));
                } else {
                    cslDoc.forEach(i -> cslItems.put(i.path("citation-key").asText(i.path("id").asText()), i));
                }
            } catch (IOException notJson) {
                // a fixture that is no CSL JSON: nothing to compare
            }
        }
        // Better BibTeX's BibTeX export with bibtexURL = note gives addresses in notes (a url command): a file that does so throughout
        boolean urlsAsNotes = "note".equals(doc.path("config").path("preferences").path("bibtexURL").asText());
        for (Map.Entry<String, JsonNode> keyed : items) {
            Metadata m = carry(keyed.getValue(), carrier);
            if (m == null) {
                continue;
            }
            JsonNode theirCsl = cslItems.get(keyed.getKey());
            if (theirCsl != null) {
                compareCsl(theirCsl, m, zoterosOwn, csl);
            }
            for (Map.Entry<Boolean, Map<String, Map<String, String>>> dialect : expected.entrySet()) {
                Map<String, String> theirs = dialect.getValue().get(keyed.getKey());
                if (theirs != null) {
                    compareEntry(theirs, m, dialect.getKey(), dialect.getKey() && urlsAsNotes, keyed.getValue(),
                            dialect.getKey() ? carrier.all().toBibtex : carrier.all().toBiblatex);
                }
            }
        }
    }

    /** A translator's test cases: every item a case gives is carried as a fixture's is; a BibTeX import's text is read by Idiom beside what Zotero read from it. */
    private static void translatorCases(Path f, Carrier carrier) throws IOException {
        TranslatorCases t = TranslatorCases.of(f);
        if (t == null) {
            return;
        }
        carrier.all().translators++;
        for (TranslatorCases.Case c : t.cases()) {
            if (c.type().equals("import") && t.label().equals("BibTeX")) {
                Path bib = carrier.scratch().resolve("import-" + carrier.all().entries + ".bib");
                Files.writeString(bib, c.input(), StandardCharsets.UTF_8);
                bibEntries(bib, carrier.scratch(), carrier, c.items());
            }
            for (JsonNode item : c.items()) {
                if (carry(item, carrier) != null) {
                    carrier.all().translatorItems++;
                }
            }
        }
    }

    /**
     * One item into the Zotero library, read by Idiom, synced idle (nothing may be sent), created as a
     * new item (Zotero -> Zotero) and written to a .bib file of each dialect and read back from it into a
     * new item (Zotero -> BibTeX -> Zotero): the record Idiom read, or null when the stand-in refused the
     * item or Idiom cannot hold it.
     */
    private static Metadata carry(JsonNode item, Carrier carrier) {
        ZoteroStub stub = carrier.stub();
        ZoteroTool zotero = carrier.zotero();
        Tally toZotero = carrier.all().toZotero;
        ObjectNode data = asItemData(item);
        if (data == null) {
            return null;
        }
        String key;
        try {
            key = stub.addRemotely(data.toString());
        } catch (IllegalArgumentException refused) {
            toZotero.refused++;
            return null;
        }
        for (JsonNode note : item.path("notes")) { // the item's child notes, as Zotero holds them (HTML)
            String html = note.isTextual() ? note.asText() : note.path("note").asText("");
            if (!html.isBlank()) {
                ObjectNode child = JSON.createObjectNode().put("itemType", "note").put("parentItem", key).put("note", html);
                child.putArray("tags");
                child.putObject("relations");
                stub.addRemotely(child.toString());
            }
        }
        Metadata m;
        try {
            m = zotero.fetch(key).orElseThrow().metadata();
        } catch (RuntimeException unreadable) { // a value Idiom cannot hold (a control character XML cannot carry): a sync reports it skipped
            toZotero.refused++;
            return null;
        }
        toZotero.records++;
        ObjectNode source = stub.data(key);
        int writes = stub.writeRequests();
        zotero.update(zotero.fetch(key).orElseThrow(), zotero.writable(m, m)); // an idle sync of the item: nothing is owed, nothing sent
        idleWrites += stub.writeRequests() - writes;
        if (!stub.data(key).equals(source)) {
            idleChanged++;
        }
        try {
            compareItems(source, stub.data(zotero.create(m).remoteId()), toZotero, false);
        } catch (RuntimeException refused) {
            toZotero.refused++;
        }
        for (boolean bibtexDialect : List.of(true, false)) {
            Tally t = carrier.all().roundTrip;
            try {
                // the file is all that carries the record: one entry as Idiom writes a new one, read back by a fresh adapter
                Path file = carrier.scratch().resolve("round-trip.bib");
                Files.writeString(file, BibTeXFile.entry(m, bibtexDialect), StandardCharsets.UTF_8);
                List<RemoteRecord> read = new BibTeXFile(file).changedSince(null).records();
                if (read.size() != 1) {
                    t.refused++;
                    continue;
                }
                t.records++;
                compareItems(source, stub.data(zotero.create(read.getFirst().metadata()).remoteId()), t, true,
                        n -> heldInBib(n, source, bibtexDialect), "rt:");
            } catch (IOException | RuntimeException refused) {
                t.refused++;
            }
        }
        return m;
    }

    /**
     * Whether a .bib entry holds field {@code n} of the item, as Better BibTeX writes one: not the fields
     * its quality report names "unused" (the library catalog; an archive and its location unless they
     * name an eprint, arXiv, JSTOR, PubMed, HDL or Google Books; the call number in BibLaTeX's dialect,
     * where only an arXiv class takes it; a section but a preprint's or dataset's, its eprint class).
     */
    private static boolean heldInBib(String n, JsonNode item, boolean bibtexDialect) {
        boolean eprintArchive = Set.of("arxiv", "jstor", "pubmed", "hdl", "googlebooks", "google books")
                .contains(item.path("archive").asText("").toLowerCase(Locale.ROOT)) && !item.path("archiveLocation").asText("").isEmpty();
        return switch (n) {
            case "libraryCatalog" -> false;
            case "archive", "archiveLocation" -> eprintArchive;
            case "callNumber" -> bibtexDialect || eprintArchive && item.path("archive").asText("").equalsIgnoreCase("arxiv");
            case "section" -> Set.of("preprint", "dataset").contains(item.path("itemType").asText());
            default -> true;
        };
    }

    /** Idiom's CSL-JSON answer for the record, variable by variable, against another's CSL JSON of the same item. */
    private static void compareCsl(JsonNode theirCsl, Metadata m, boolean zoterosOwn, Tally csl) {
        csl.records++;
        JsonNode ours = dev.idiom.events.CslJson.item(java.util.UUID.randomUUID(), m);
        theirCsl.properties().forEach(v -> {
            if (zoterosOwn && !ours.has(v.getKey()) && !Set.of("id", "citation-key").contains(v.getKey())) {
                CSL_ABSENT.merge(v.getKey(), 1, Integer::sum);
            }
            if (!Set.of("id", "citation-key").contains(v.getKey()) && ours.has(v.getKey())) {
                boolean same = cslValue(v.getValue()).equals(cslValue(ours.get(v.getKey())));
                if (!same && (("csl:" + v.getKey()).equals(System.getenv("FIDELITY_SHOW")) || "csl:*".equals(System.getenv("FIDELITY_SHOW")))) {
                    System.err.println((zoterosOwn ? "zotero" : "bbt") + " differs " + v.getKey() + ": " + v.getValue() + " / ours " + ours.get(v.getKey()));
                }
                csl.count(v.getKey(), same);
            }
        });
    }

    /** Of the fields Better BibTeX writes for an item, the ones the entry Idiom writes for the same record has (by name or its other dialect's). */
    private static void compareEntry(Map<String, String> theirs, Metadata m, boolean bibtexDialect, boolean urlsAsNotes, JsonNode item, Tally t) {
        t.records++;
        Map<String, String> ours = BibFields.entries(BibTeXFile.entry(m, bibtexDialect, urlsAsNotes)).values().iterator().next();
        for (Map.Entry<String, String> field : theirs.entrySet()) {
            String n = field.getKey();
            if (n.equals("@type") || n.equals("file")) { // attachments are not items' data; the entry type is not a field
                continue;
            }
            boolean kept = ours.containsKey(n) || DIALECT.containsKey(n) && ours.containsKey(DIALECT.get(n))
                    // BibLaTeX's @thesis with type = {phdthesis} is BibTeX's @phdthesis
                    || n.equals("type") && Set.of("phdthesis", "mathesis").contains(field.getValue().strip().toLowerCase(Locale.ROOT))
                    && Set.of("phdthesis", "mastersthesis").contains(ours.get("@type"));
            if (kept && ours.containsKey(n) && n.equals(System.getenv("FIDELITY_DIFF"))
                    && !ours.get(n).replaceAll("\\s+", " ").strip().equals(field.getValue().replaceAll("\\s+", " ").strip())) {
                System.err.println("differs " + n + " of @" + theirs.get("@type") + ": " + field.getValue() + "\n   ours:   " + ours.get(n));
            }
            if (!kept && (n.equals(System.getenv("FIDELITY_SHOW")) || "*".equals(System.getenv("FIDELITY_SHOW")))) {
                System.err.println("lost " + n + " of @" + theirs.get("@type") + " (" + item.path("itemType").asText() + "): " + field.getValue()
                        + "\n   ours: " + ours + (System.getenv("FIDELITY_RECORD") != null ? "\n   record: " + m : ""));
            }
            t.count(n, kept);
        }
    }

    /** Zotero's CSL JSON of its allTypesAndFields items: citeProcJSExport.json beside it, or anywhere under the folder above. */
    private static Path citeProcExport(Path allTypes) throws IOException {
        Path dir = allTypes.getParent();
        for (int up = 0; up < 3 && dir != null; up++, dir = dir.getParent()) {
            try (Stream<Path> walk = Files.walk(dir, 4)) {
                var found = walk.filter(p -> p.getFileName().toString().equals("citeProcJSExport.json")).findFirst();
                if (found.isPresent()) {
                    return found.get();
                }
            }
        }
        return null;
    }

    /** Of the source item's fields its copy's type has (or its own type has, and its type), each creator and each tag: kept with the same value. */
    private static void compareItems(ObjectNode source, ObjectNode copy, Tally t, boolean sameType) {
        compareItems(source, copy, t, sameType, n -> true, "");
    }

    /**
     * As above, of the fields {@code held} admits; a difference is printed when {@code FIDELITY_SHOW}
     * is {@code show} followed by the field's name (or {@code *}).
     */
    private static void compareItems(ObjectNode source, ObjectNode copy, Tally t, boolean sameType, java.util.function.Predicate<String> held,
            String show) {
        // sameType: the copy is owed the source's item type and every field of it (a round trip); else the fields its own type has
        var type = SCHEMA.type((sameType ? source : copy).path("itemType").asText());
        String shown = System.getenv("FIDELITY_SHOW") == null || !System.getenv("FIDELITY_SHOW").startsWith(show) ? null
                : System.getenv("FIDELITY_SHOW").substring(show.length());
        java.util.function.BiConsumer<String, String> print = (n, what) -> {
            if (n.equals(shown) || "*".equals(shown)) {
                System.err.println(show + "lost " + n + ": " + what);
            }
        };
        if (sameType) {
            boolean same = source.path("itemType").equals(copy.path("itemType"));
            if (!same) {
                print.accept("itemType", source.path("itemType") + " -> " + copy.path("itemType") + " " + source.path("title"));
            }
            t.count("itemType", same);
        }
        source.properties().forEach(p -> {
            String n = p.getKey();
            if (LIBRARY_OWN.contains(n) || n.equals("creators") || n.equals("tags") || p.getValue().asText("").isEmpty() || !type.has(n) || !held.test(n)) {
                return;
            }
            if (n.equals("extra")) { // line by line: a line Zotero reads as a field may sit in that field in the copy ("DOI: …" of an older item type)
                Set<String> values = new java.util.HashSet<>();
                copy.properties().forEach(c -> values.add(BibFields.plain(c.getValue().asText(""))));
                List<String> copyLines = copy.path("extra").asText("").lines().map(FidelityMeasure::line).toList();
                for (String l : p.getValue().asText().lines().filter(l -> !l.isBlank()).toList()) {
                    String normal = line(l);
                    int colon = normal.indexOf(": ");
                    boolean kept = copyLines.contains(normal) || colon > 0 && values.contains(BibFields.plain(normal.substring(colon + 2)));
                    if (!kept) {
                        print.accept("extra", l + " -> " + copy.path("extra").asText().replace("\n", " | "));
                    }
                    t.count("extra line", kept);
                }
                return;
            }
            boolean same = p.getValue().equals(copy.get(n))
                    || sameType && DATES.contains(n) && copy.has(n) && sameDay(p.getValue().asText(), copy.get(n).asText());
            if (!same) {
                print.accept(n, p.getValue() + " -> " + copy.get(n));
            }
            t.count(n, same);
        });
        List<JsonNode> creators = new ArrayList<>();
        copy.path("creators").forEach(creators::add);
        for (JsonNode c : source.path("creators")) {
            if (type.creatorTypes().contains(c.path("creatorType").asText())) {
                boolean kept = creators.remove(c);
                if (!kept) {
                    print.accept("creator", c + " -> " + copy.path("creators"));
                }
                t.count("creator:" + c.path("creatorType").asText(), kept);
            }
        }
        Set<String> tags = new java.util.HashSet<>();
        copy.path("tags").forEach(tag -> tags.add(tag.path("tag").asText()));
        source.path("tags").forEach(tag -> t.count("tags", tags.contains(tag.path("tag").asText())));
    }

    /** Zotero's date fields: between unlike tools a date is the same when it names the same day (month, year), whatever its form. */
    private static final Set<String> DATES = Set.of("date", "dateDecided", "dateEnacted", "issueDate", "filingDate", "accessDate");
    private static final java.util.regex.Pattern ISO_DAY = java.util.regex.Pattern.compile("^(\\d{4})(?:-(\\d{2})(?:-(\\d{2}))?)?(?:[T ][0-9:.]+Z?)?$");
    private static final java.util.regex.Pattern WORDED = java.util.regex.Pattern.compile(
            "^(?:(\\d{1,2})\\s+)?([A-Za-z]{3,9})\\.?\\s+(?:(\\d{1,2}),?\\s+)?(\\d{4})$");
    private static final List<String> MONTHS = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");

    /** Whether two dates name the same day, month or year: "August 27, 2009", "27 Aug 2009" and "2009-08-27" do; a time of day is not compared. */
    static boolean sameDay(String a, String b) {
        String x = day(a);
        return x != null && x.equals(day(b));
    }

    /** A date as year-month-day (as far as it is written), or null for any other form (a season, a range, words). */
    private static String day(String date) {
        String d = date.strip();
        java.util.regex.Matcher iso = ISO_DAY.matcher(d);
        if (iso.matches()) {
            return iso.group(1) + (iso.group(2) == null || iso.group(2).equals("00") ? "" : "-" + iso.group(2)
                    + (iso.group(3) == null || iso.group(3).equals("00") ? "" : "-" + iso.group(3)));
        }
        java.util.regex.Matcher w = WORDED.matcher(d);
        int month = w.matches() ? MONTHS.indexOf(w.group(2).substring(0, 3).toLowerCase(Locale.ROOT)) : -1;
        if (month < 0 || w.group(1) != null && w.group(3) != null) {
            return null;
        }
        String dayOf = w.group(1) != null ? w.group(1) : w.group(3);
        return w.group(4) + String.format(Locale.ROOT, "-%02d", month + 1) + (dayOf == null ? "" : String.format(Locale.ROOT, "-%02d", Integer.parseInt(dayOf)));
    }

    /** A CSL-JSON value as compared: date parts as numbers, names and text as they are. */
    private static String cslValue(JsonNode v) {
        if (v.has("date-parts")) {
            StringBuilder b = new StringBuilder();
            v.path("date-parts").forEach(part -> {
                part.forEach(n -> b.append(n.asInt()).append('-'));
                b.append('/');
            });
            return b.toString();
        }
        return v.toString();
    }

    /** An extra line as compared: "arXiv:2005.14017" and "arXiv: 2005.14017" are one line, and so are citeproc's older "{:key: value}" and "key: value" (Zotero reads both alike). */
    private static String line(String l) {
        String t = l.strip();
        if (t.startsWith("{:") && t.endsWith("}")) {
            t = t.substring(2, t.length() - 1);
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^([^:]{1,40}):\\s*(.*)$").matcher(t);
        return m.matches() ? m.group(1).toLowerCase(Locale.ROOT).replace(' ', '-') + ": " + m.group(2) : t; // keys as Zotero compares them
    }

    /** A fixture's item as the Zotero API holds one: the fields its type has, creators and tags in the API's form; null for notes and attachments. */
    private static ObjectNode asItemData(JsonNode item) {
        var type = SCHEMA.type(item.path("itemType").asText());
        if (type == null || Set.of("note", "attachment", "annotation").contains(type.name())) {
            return null;
        }
        ObjectNode data = JSON.createObjectNode().put("itemType", type.name());
        item.properties().forEach(p -> {
            // a fixture from an older Zotero may name a field by its base field (publicationTitle of a conference paper)
            String own = type.has(p.getKey()) ? p.getKey() : type.fieldFor(p.getKey()) != null ? type.fieldFor(p.getKey()) : sameVariable(type, p.getKey());
            if (own != null && !LIBRARY_OWN.contains(own) && p.getValue().isValueNode() && !p.getValue().asText().isEmpty() && !data.has(own)) {
                data.put(own, p.getValue().asText());
            }
        });
        if (item.path("extra").isArray() && !item.path("extra").isEmpty()) {
            List<String> lines = new ArrayList<>();
            item.path("extra").forEach(l -> lines.add(l.asText()));
            data.put("extra", String.join("\n", lines));
        }
        ArrayNode creators = data.putArray("creators");
        for (JsonNode c : item.path("creators")) {
            String role = c.path("creatorType").asText(type.primaryCreatorType()); // Zotero's default when a fixture names none
            if (!type.creatorTypes().contains(role)) {
                continue;
            }
            ObjectNode one = creators.addObject().put("creatorType", role);
            if (c.has("name") || c.path("fieldMode").asInt(0) == 1) {
                one.put("name", c.has("name") ? c.path("name").asText() : c.path("lastName").asText());
            } else {
                one.put("firstName", c.path("firstName").asText("")).put("lastName", c.path("lastName").asText(""));
            }
        }
        ArrayNode tags = data.putArray("tags");
        for (JsonNode tag : item.path("tags")) {
            String t = tag.isTextual() ? tag.asText() : tag.path("tag").asText("");
            if (!t.isBlank()) {
                tags.addObject().put("tag", t);
            }
        }
        data.putArray("collections");
        data.putObject("relations");
        return data;
    }

    /**
     * The field of {@code type} an older Zotero's base field stood for where the schema has since
     * unmapped it (a case's reporter was its publicationTitle): the type's field of the same CSL
     * variable, where it has exactly one; else null.
     */
    private static String sameVariable(dev.idiom.wrappers.zotero.ZoteroSchema.ItemType type, String base) {
        List<String> own = new ArrayList<>();
        dev.idiom.events.ZoteroCslMapping.csl().path("fields").path("text").forEach(fields -> {
            List<String> names = new ArrayList<>();
            fields.forEach(n -> names.add(n.asText()));
            if (names.contains(base)) {
                names.stream().filter(n -> !n.equals(base) && type.has(n)).forEach(own::add);
            }
        });
        return own.size() == 1 ? own.getFirst() : null;
    }

    /**
     * A .bib file's entries through BibTeXFile into new Zotero items; with {@code zoterosItems} (what
     * Zotero's own BibTeX import made of the same text, a translator's test case), each new item beside
     * Zotero's of the same entry (by citation key, else by place), else each entry's fields beside the
     * item's. Every entry the listing skipped is named.
     */
    private static void bibEntries(Path f, Path scratch, Carrier carrier, List<JsonNode> zoterosItems) throws IOException {
        ZoteroStub stub = carrier.stub();
        Measures all = carrier.all();
        Tally t = zoterosItems == null ? all.bibToZotero : all.bibAsZotero;
        Path copy = scratch.resolve("in.bib");
        Files.copy(f, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String text = Files.readString(f, StandardCharsets.ISO_8859_1);
        Map<String, Map<String, String>> raw = BibFields.entries(text);
        ChangePage page;
        try {
            page = new BibTeXFile(copy).changedSince(null);
        } catch (RuntimeException unreadable) {
            all.skipped.add(f.getFileName() + ": the whole file: " + unreadable.getMessage());
            return;
        }
        all.entries += page.records().size();
        for (dev.idiom.wrappers.Skipped skip : page.skipped()) {
            if (!skip.imported()) {
                all.entries++;
                all.skipped.add(f.getFileName() + ": " + skip.remoteId() + ": " + skip.reason());
            }
        }
        List<RemoteRecord> records = page.records();
        for (int i = 0; i < records.size(); i++) {
            RemoteRecord r = records.get(i);
            Map<String, String> fields = raw.get(r.remoteId());
            if (fields == null && zoterosItems == null) {
                continue; // an entry without a key: not matched to its text here
            }
            RemoteRecord made;
            try {
                made = carrier.zotero().create(r.metadata());
            } catch (RuntimeException refused) {
                t.refused++;
                continue;
            }
            t.records++;
            if (zoterosItems != null) {
                JsonNode theirs = null;
                for (JsonNode z : zoterosItems) {
                    theirs = z.path("itemID").asText().equals(r.remoteId()) ? z : theirs;
                }
                ObjectNode expected = asItemData(theirs != null ? theirs : i < zoterosItems.size() ? zoterosItems.get(i) : JSON.createObjectNode());
                if (expected != null) {
                    compareItems(expected, stub.data(made.remoteId()), t, true, n -> true, "bz:");
                }
                continue;
            }
            ObjectNode item = stub.data(made.remoteId());
            var type = SCHEMA.type(item.path("itemType").asText());
            for (Map.Entry<String, String> field : fields.entrySet()) {
                List<String> places = ZOTERO_HOLDS.get(field.getKey());
                if (places == null || field.getValue().isBlank()) {
                    continue;
                }
                boolean room = false;
                boolean arrived = false;
                for (String place : places) {
                    if (place.equals("notes")) { // a child note of the item, as Better BibTeX imports a note
                        room = true;
                        arrived |= stub.childNotes(made.remoteId()).stream().anyMatch(n -> BibFields.plain(n).contains(BibFields.plain(field.getValue())));
                    } else if (place.equals("creators") || place.equals("tags")) {
                        room = true;
                        arrived |= !item.path(place).isEmpty();
                    } else {
                        List<String> own = place.equals("type") ? Stream.of("thesisType", "reportType", "genre", "websiteType", "manuscriptType",
                                "letterType", "presentationType", "mapType", "postType").filter(type::has).toList()
                                : type.fieldFor(place) == null ? List.of() : List.of(type.fieldFor(place));
                        room |= !own.isEmpty();
                        arrived |= own.stream().anyMatch(n -> !item.path(n).asText("").isEmpty());
                    }
                }
                // a value Zotero keeps as an extra line it reads (publisher-place: …) has arrived too
                arrived |= BibFields.plain(item.path("extra").asText("")).contains(BibFields.plain(field.getValue()));
                if (!room && !arrived) {
                    continue; // no place in this item type: not a field Zotero can hold here
                }
                t.count(field.getKey(), arrived);
            }
        }
    }
}
