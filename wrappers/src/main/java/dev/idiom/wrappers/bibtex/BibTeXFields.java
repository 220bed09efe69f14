package dev.idiom.wrappers.bibtex;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.BibTeXMapping;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import dev.idiom.wrappers.Braces;
import org.jbibtex.BibTeXEntry;
import org.jbibtex.Key;
import org.jbibtex.StringValue;
import org.jbibtex.Value;

/**
 * Between a BibTeX file's entries and canonical metadata: the shared {@link BibTeXMapping} over
 * jbibtex entries, plus what a file keeps that BibSonomy keeps elsewhere (tags in
 * {@code keywords}, notes in {@code note}).
 */
final class BibTeXFields {
    private BibTeXFields() {}

    /** A jbibtex entry as the shared mapping sees it; a change of type replaces the entry (jbibtex types are fixed). */
    private static final class View implements BibTeXMapping.Entry {
        private BibTeXEntry e;

        private final boolean bibtexDialect;

        View(BibTeXEntry e) {
            this(e, false);
        }

        View(BibTeXEntry e, boolean bibtexDialect) {
            this.e = e;
            this.bibtexDialect = bibtexDialect;
        }

        @Override
        public boolean bibtexDialect() {
            return bibtexDialect;
        }

        @Override
        public String type() {
            return e.getType().getValue();
        }

        @Override
        public void type(String entryType) {
            BibTeXEntry retyped = new BibTeXEntry(new Key(entryType), e.getKey());
            e.getFields().forEach(retyped::addField);
            e = retyped;
        }

        /** Moves the value as written (its LaTeX kept), not its plain text. */
        @Override
        public void move(String from, String to) {
            Value v = e.getField(new Key(from));
            e.removeField(new Key(from));
            e.addField(new Key(to), v);
        }

        @Override
        public String get(String field) {
            return text(e, field);
        }

        @Override
        public String names(String field) {
            Value v = e.getField(new Key(field));
            if (v == null) {
                return null;
            }
            List<String> names = new java.util.ArrayList<>();
            for (String name : BibTeXMapping.topLevelNames(v.toUserString())) {
                String n = name.strip();
                if (Braces.wholeBraced(n)) {
                    String text = plain(n.substring(1, n.length() - 1));
                    if (text != null) {
                        names.add("{" + text + "}");
                    }
                    continue;
                }
                List<String> raw = BibTeXMapping.topLevelParts(n);
                String[] split = raw.size() == 1 ? BibTeXMapping.firstVonLast(n) : null;
                if (split != null) { // "First von Last": split by BibTeX's rules while the braces still show
                    String family = plain(split[0]);
                    String given = plain(split[1]);
                    if (family != null) {
                        names.add(given == null ? "{" + family + "}" : (family.indexOf(',') >= 0 ? "{" + family + "}" : family) + ", " + given);
                    }
                    continue;
                }
                // part by part, so that a braced comma ("{Barnes, Noble}, Inc") stays inside its part
                List<String> parts = new java.util.ArrayList<>();
                for (String part : raw) {
                    String text = plain(part);
                    parts.add(text == null ? "" : text.indexOf(',') >= 0 ? "{" + text + "}" : text);
                }
                String text = String.join(", ", parts).strip();
                if (!text.isEmpty() && !text.equals(",")) {
                    names.add(text);
                }
            }
            return names.isEmpty() ? null : String.join(" and ", names);
        }

        @Override
        public boolean keepsWholeDates() {
            return !bibtexDialect;
        }

        @Override
        public void set(String field, String value) {
            if (value != null && value.equals(get(field))) {
                return; // what the field says already: not rewritten (nor moved to the entry's end)
            }
            e.removeField(new Key(field));
            put(e, field, value == null || value.isEmpty() ? null : value);
        }
    }

    static Metadata metadata(BibTeXEntry e) {
        return metadata(e, false);
    }

    /** As above, for an entry of a file in BibTeX's own dialect when {@code bibtexDialect} (its {@code @misc} for a web page is no entry type of its own). */
    static Metadata metadata(BibTeXEntry e, boolean bibtexDialect) {
        Metadata m = BibTeXMapping.metadata(new View(e));
        if (m.title() == null) { // a collection or proceedings named by its booktitle alone, as JabRef's own files have them
            m = set(m, Field.TITLE, text(e, "booktitle"));
        }
        if (urlOnly(e, "note") == null) {
            m = set(m, Field.NOTES, text(e, "note"));
        }
        for (Alias a : ALIASES) { // a field the entry names as the file's dialect does, where it has not the mapping's name
            if (a.of(e) && m.get(a.field()) == null && e.getField(new Key(a.mapped())) == null) {
                m = set(m, a.field(), text(e, a.name()));
            }
        }
        for (String place : URL_PLACES) { // classic BibTeX's place for an address its styles print: the note (a @misc's howpublished), in a url command
            String url = urlOnly(e, place);
            if (url != null && e.getField(new Key("url")) == null) {
                m = set(m, Field.URL, url);
            }
            if (url != null && place.equals("howpublished") && m.venue() != null && m.venue().equals(text(e, place))) {
                m = m.with(Field.VENUE, null); // an address, not what the entry was published in
            }
        }
        Value keywords = e.getField(new Key("keywords"));
        if (keywords != null) {
            SortedSet<String> tags = new TreeSet<>();
            for (String k : keywordList(keywords.toUserString())) {
                String tag = plain(k);
                if (tag != null) {
                    tags.add(tag);
                }
            }
            m = m.with(Field.TAGS, tags);
        }
        return m.with(Field.BIBTEX_EXTRAS, Field.extras(extras(e, m, bibtexDialect)));
    }

    /**
     * Fields that are a library's own bookkeeping (JabRef's owner, dates, file links, groups and
     * marks; BibTeX's cross-references, which name entries of this file) or that the file adapter
     * reads itself: kept in their file, not carried to other files.
     */
    private static final java.util.Set<String> NOT_EXTRAS = java.util.Set.of("owner", "timestamp", "creationdate", "modificationdate", "file",
            "groups", "ranking", "priority", "relevance", "readstatus", "printed", "qualityassured", "crossref", "xref", "note", "keywords");

    /** Zotero extra lines Zotero and Better BibTeX read as data that no canonical field holds, and the BibTeX field Better BibTeX writes each as. */
    private static final java.util.Map<String, String> KNOWN_LINES = java.util.Map.of("lccn", "lccn", "mr", "mrnumber", "zbl", "zmnumber",
            "original-date", "origdate", "original-title", "origtitle");
    /** A data line of {@code extra}: a key, a colon, a value (which may hold a paragraph separator, U+2029: no line end to Zotero). */
    private static final java.util.regex.Pattern KNOWN_LINE = java.util.regex.Pattern.compile("^\\s*([A-Za-z][A-Za-z -]{0,40}?)\\s*:\\s*(\\S.*)$",
            java.util.regex.Pattern.DOTALL);

    /**
     * A Zotero extra line Better BibTeX writes as a BibTeX field: {@code tex.name: text} (a name in
     * quotes may hold a colon: {@code tex."author+an:role": …}, BibLaTeX's name annotations) (escaped for
     * LaTeX) or {@code tex.name= LaTeX}; {@code bibtex.name} only in BibTeX's dialect, {@code biblatex.name} only in BibLaTeX's.
     */
    private static final java.util.regex.Pattern TEX_LINE = java.util.regex.Pattern.compile(
            "^\\s*(tex|bibtex|biblatex)\\.\"?([A-Za-z][A-Za-z0-9_.:+-]{0,60})\"?\\s*([:=])\\s*(\\S.*)$", java.util.regex.Pattern.CASE_INSENSITIVE | java.util.regex.Pattern.DOTALL);

    /** A tex line's field: its name (lower case), its value as LaTeX, and whether the line names this dialect ({@code bibtex.}, {@code biblatex.}) rather than both. */
    private record TexField(String name, String value, boolean dialectOwn) {}

    /** The field a {@code tex.} line of {@code extra} gives an entry in a file of this dialect, or null (no such line, or one for the other dialect). */
    private static TexField texField(String line, boolean bibtexDialect) {
        java.util.regex.Matcher t = TEX_LINE.matcher(line);
        if (!t.matches()) {
            return null;
        }
        String prefix = t.group(1).toLowerCase(java.util.Locale.ROOT);
        if (!prefix.equals("tex") && prefix.equals("bibtex") != bibtexDialect) {
            return null;
        }
        String value = t.group(3).equals("=") ? t.group(4).strip() : latex(t.group(4).strip());
        return new TexField(t.group(2).toLowerCase(java.util.Locale.ROOT), value, !prefix.equals("tex"));
    }

    /**
     * The fields beyond the mapping an entry written from {@code m} holds: the record's BibTeX extras,
     * and, where those do not name them, the fields Better BibTeX writes from a Zotero item's
     * {@code extra} ({@link #fromZotero}). A copy already in a file ({@code known}, as last synced)
     * gets a field of the second kind only where it has it: what this adapter began to write after
     * the copy was made is not owed to it (an upgrade rewrites no entry). A name the mapping or the
     * file adapter reads, a file's bookkeeping and a value whose braces do not balance (it would break
     * the file) are left out. Writes and {@link BibTeXFile#writable} both use this, so what a copy
     * holds is what it is owed.
     */
    static java.util.Map<String, String> extrasFor(Metadata m, boolean bibtexDialect, Metadata known) {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        m.extras(Field.BIBTEX_EXTRAS).forEach((name, value) -> {
            if (name.equals(BibTeXMapping.ENTRY_TYPE_EXTRA) || extraName(name) && Braces.balanced(value)) {
                out.put(name, value);
            }
        });
        java.util.Map<String, String> copyHas = known == null ? null : known.extras(Field.BIBTEX_EXTRAS);
        java.util.Map<String, String> here = fromZotero(m, bibtexDialect);
        java.util.Map<String, String> otherDialect = copyHas == null ? java.util.Map.of() : fromZotero(m, !bibtexDialect);
        // a film's copy written as a @misc (before films were @video) has its creators' lists as a @misc's were made (in BibLaTeX's
        // dialect, the one with such lists: the copy keeps them if its file has since read as BibTeX's)
        java.util.Map<String, String> asMisc = copyHas == null || !BibTeXMapping.FORMERLY_MISC.contains(m.type()) ? java.util.Map.of()
                : fromZotero(m, false, false, true);
        // what a copy may have been written with before: in the other dialect (one entry's options = {…} makes a file BibLaTeX's),
        // as a @misc (a film before it was a @video), with event-date lines in its annotation
        List<java.util.Map<String, String>> former = copyHas == null ? List.of()
                : List.of(otherDialect, asMisc, fromZotero(m, bibtexDialect, null, true), fromZotero(m, !bibtexDialect, null, true));
        unread(m, bibtexDialect).forEach((name, value) -> {
            if (copyHas == null || value.equals(copyHas.get(name))) {
                out.put(name, value); // written with a new entry, read as nothing: part of the copy as synced, never owed again
            }
        });
        java.util.Set<String> names = new java.util.LinkedHashSet<>(here.keySet());
        former.forEach(f -> names.addAll(f.keySet()));
        for (String name : names) {
            // a copy keeps what it was written with while the record still makes that
            String value = former.stream().map(f -> f.get(name)).filter(v -> v != null && v.equals(copyHas.get(name))).findFirst().orElse(here.get(name));
            // bookkeeping a new entry is written with is part of it as synced (a reading of it has none): never owed again
            if (value != null && (extraName(name) || derivedName(name) && (copyHas == null || value.equals(copyHas.get(name)))) && Braces.balanced(value)
                    && (copyHas == null || copyHas.containsKey(name))) {
                out.putIfAbsent(name, value);
            }
        }
        return out;
    }

    /**
     * The fields Better BibTeX writes from what a Zotero item holds beyond the mapping: its
     * {@code tex.name: value} lines (and {@code bibtex.}/{@code biblatex.} ones for their dialect),
     * LCCN, MR and original-date lines, {@code extra}'s free text as {@code annotation}, in
     * BibTeX's dialect the call number as {@code lccn}, in BibLaTeX's the creators of roles the
     * record keeps no list for ({@link #roles}) and a patent's assignee field as its {@code holder}.
     */
    private static java.util.Map<String, String> fromZotero(Metadata m, boolean bibtexDialect) {
        return fromZotero(m, bibtexDialect, null, false);
    }

    /**
     * As above; {@code video}: whether the record is written as a video ({@code @video}: its script
     * writers beside its directors in {@code editora}), null for as it is written now; {@code formerly}:
     * as Idiom wrote them before an {@code event-date} line became the entry's {@code eventdate} (it was
     * a line of the annotation).
     */
    private static java.util.Map<String, String> fromZotero(Metadata m, boolean bibtexDialect, Boolean video, boolean formerly) {
        if (m.extras(Field.ZOTERO_EXTRAS).isEmpty() && m.get(Field.CALL_NUMBER) == null) {
            return java.util.Map.of(); // a record no Zotero item made: nothing to derive (every owed-write check of every copy asks, in both dialects)
        }
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        String extra = m.extras(Field.ZOTERO_EXTRAS).get("extra");
        for (String line : extra == null ? java.util.List.<String>of() : extra.lines().toList()) {
            TexField tex = texField(line, bibtexDialect);
            java.util.regex.Matcher known = KNOWN_LINE.matcher(line);
            String eventDate = formerly ? null : dev.idiom.wrappers.ZoteroExtras.eventDate(line);
            if (eventDate != null) { // CSL's event date: BibLaTeX's eventdate, as typed
                out.putIfAbsent("eventdate", latex(eventDate));
            } else if (known.matches()) { // LCCN: …, Original Date: …: the fields Better BibTeX writes them as
                String name = KNOWN_LINES.get(known.group(1).strip().toLowerCase(java.util.Locale.ROOT).replace(' ', '-'));
                if (name != null) {
                    out.putIfAbsent(name, latex(known.group(2).strip()));
                }
            } else if (tex != null && tex.dialectOwn()) {
                out.put(tex.name(), tex.value()); // the dialect's own line says it for this dialect
            } else if (tex != null) {
                out.putIfAbsent(tex.name(), tex.value());
            }
        }
        String classes = arxivClasses(m, extra);
        if (classes == null && m.arxiv() == null && "preprint".equals(m.type()) && m.get(Field.SECTION) != null) {
            classes = m.get(Field.SECTION).toString(); // a preprint server's section, as Better BibTeX gives it (Oceanography)
        }
        if (classes != null) {
            out.putIfAbsent(bibtexDialect ? "primaryclass" : "eprintclass", latex(classes));
        }
        String text = dev.idiom.wrappers.ZoteroExtras.freeText(extra, formerly);
        if (!text.isEmpty()) { // a LaTeX line break between lines, on one line of the file (a value's further lines are indented when written)
            out.putIfAbsent("annotation", String.join("\\\\ ", text.lines().map(BibTeXFields::latex).toList()));
        }
        if (bibtexDialect && m.get(Field.CALL_NUMBER) != null) {
            out.putIfAbsent("lccn", latex(Field.CALL_NUMBER.toText(m.get(Field.CALL_NUMBER))));
        }
        if (bibtexDialect) { // BibTeX has one list for every other role (a series editor is an editor there: the record keeps its own)
            List<dev.idiom.events.Author> others = dev.idiom.wrappers.ZoteroExtras.otherCreators(m).stream()
                    .filter(c -> !c.role().equals("seriesEditor")).map(dev.idiom.wrappers.ZoteroExtras.Creator::name).toList();
            if (!others.isEmpty()) {
                out.putIfAbsent("collaborator", latex(BibTeXMapping.authorList(others)));
            }
        }
        if (!bibtexDialect) {
            roles(m, video != null ? video : BibTeXMapping.writtenAsVideo(m)).forEach(out::putIfAbsent);
            String assignee = m.extras(Field.ZOTERO_EXTRAS).get("assignee"); // a patent's assignee typed in its field: one literal name
            if (assignee != null && !assignee.isBlank()) {
                out.putIfAbsent("holder", "{" + latex(assignee.strip()) + "}");
            }
        }
        return out;
    }

    /** An arXiv id with its subject classes as Zotero's arXiv translator leaves it in {@code extra} or a journal title: {@code arXiv:2005.14165 [cs]}. */
    private static final java.util.regex.Pattern ARXIV_CLASSES = java.util.regex.Pattern.compile("^\\s*arXiv:\\s*(\\S+)\\s*\\[([^\\]]+)]\\s*$",
            java.util.regex.Pattern.CASE_INSENSITIVE);

    /**
     * The subject classes of the record's arXiv id (held without them) where the item names them
     * beside the same id: in an {@code extra} line or as its journal title; else null.
     */
    private static String arxivClasses(Metadata m, String extra) {
        if (m.arxiv() == null || m.arxiv().contains("[")) {
            return null; // none, or held with its classes: the entry's eprintclass is made from that
        }
        List<String> places = new java.util.ArrayList<>(extra == null ? List.of() : extra.lines().toList());
        if (m.venue() != null) {
            places.add(m.venue());
        }
        for (String place : places) {
            java.util.regex.Matcher a = ARXIV_CLASSES.matcher(place);
            if (a.matches() && a.group(1).equalsIgnoreCase(m.arxiv().strip())) {
                return a.group(2).strip();
            }
        }
        return null;
    }

    private static final String DIRECTOR = "director";

    /** The directors among a record's creators of other roles (a Zotero video recording's, whose first role is "creator"). */
    private static List<dev.idiom.events.Author> directors(List<dev.idiom.wrappers.ZoteroExtras.Creator> others) {
        return others.stream().filter(c -> c.role().equals(DIRECTOR)).map(dev.idiom.wrappers.ZoteroExtras.Creator::name).toList();
    }

    /** Fields a tex line may not fill: the date (read from several fields at once) and what names the entry's kind or eprint. */
    private static final java.util.Set<String> NOT_FILLED = java.util.Set.of("date", "year", "month", "day", "entrysubtype", "eprint", "eprinttype",
            "archiveprefix");

    /**
     * The record with what a Zotero item's tex lines say in fields the mapping holds
     * ({@code tex.journaltitle= Psychophysiology}, {@code tex.author= …}, as Better BibTeX writes them),
     * and a video recording's directors as its editor (its first creators, as read back), where the
     * record has no value of its own there: each as an entry of {@code entryType} reads it
     * back, so the copy made holds, as synced, what it is read as (a later edit of the entry brings no
     * such value along as a change of the curator's), and follows what fills it (a renamed conference).
     * A copy made before ({@code known}, as last synced) with no value there gets none: no copy is
     * owed what this began to write.
     */
    static Metadata filled(Metadata m, boolean bibtexDialect, Metadata known, String entryType) {
        String extra = m.extras(Field.ZOTERO_EXTRAS).get("extra");
        List<dev.idiom.events.Author> directors = !bibtexDialect && m.authors().isEmpty() && m.editors().isEmpty() && BibTeXMapping.writtenAsVideo(m)
                ? directors(dev.idiom.wrappers.ZoteroExtras.otherCreators(m)) : List.of();
        BibTeXEntry scratch = new BibTeXEntry(new Key(entryType), new Key("scratch"));
        if (!directors.isEmpty()) { // a video recording's directors (no role of its first kind): its editor, as Better BibTeX writes them
            scratch.addField(new Key("editor"), new StringValue(latex(BibTeXMapping.authorList(directors)), StringValue.Style.BRACED));
            scratch.addField(new Key("editortype"), new StringValue(DIRECTOR, StringValue.Style.BRACED));
        }
        java.util.Map<String, String> derived = derived(m, bibtexDialect);
        if ((extra == null || !extra.contains(".")) && directors.isEmpty() && derived.isEmpty()) {
            return m;
        }
        for (String line : extra == null ? List.<String>of() : extra.lines().toList()) {
            TexField tex = texField(line, bibtexDialect);
            if (tex != null && BibTeXMapping.READ.contains(tex.name()) && !NOT_FILLED.contains(tex.name()) && Braces.balanced(tex.value())
                    && (tex.dialectOwn() || scratch.getField(new Key(tex.name())) == null)) {
                scratch.removeField(new Key(tex.name()));
                scratch.addField(new Key(tex.name()), new StringValue(tex.value(), StringValue.Style.BRACED));
            }
        }
        derived.forEach((name, value) -> {
            if (scratch.getField(new Key(name)) == null) { // a tex line says it otherwise
                scratch.addField(new Key(name), new StringValue(value, StringValue.Style.BRACED));
            }
        });
        if (scratch.getFields().isEmpty()) {
            return m;
        }
        Metadata said = metadata(scratch, bibtexDialect);
        Metadata none = metadata(new BibTeXEntry(new Key(entryType), new Key("scratch")), bibtexDialect);
        Metadata out = m;
        for (Field f : BibTeXMapping.MAPPED) {
            Object v = said.get(f);
            // a copy made since holds the filled value (the record has none): it follows what fills it now
            if (f != Field.TYPE && !empty(v) && !v.equals(none.get(f)) && empty(m.get(f)) && (known == null || !empty(known.get(f)))) {
                out = out.with(f, v);
            }
        }
        return out;
    }

    /** A Zotero date that says there is none ("n.d."), as citation styles print it. */
    private static final java.util.regex.Pattern NO_DATE = java.util.regex.Pattern.compile("(?i)n\\.\\s?d\\.?|no date|undated");

    /**
     * Fields a new entry is written with that its mapping reads as nothing, as Better BibTeX writes
     * them for a Zotero item: in BibLaTeX's dialect {@code year = {\\bibstring{nodate}}} for a date
     * given as "n.d." (BibLaTeX prints its "n.d." in the document's language). Written once, like
     * bookkeeping: an edit of the entry leaves them alone, a year the record gets later replaces it.
     */
    private static java.util.Map<String, String> unread(Metadata m, boolean bibtexDialect) {
        String date = m.extras(Field.ZOTERO_EXTRAS).get("date");
        if (!bibtexDialect && m.year() == null && date != null && NO_DATE.matcher(date.strip()).matches()) {
            return java.util.Map.of("year", "\\bibstring{nodate}");
        }
        return java.util.Map.of();
    }

    /** Patent offices by the prefix of a patent's number, as BibLaTeX's patent types name them ({@code patenteu}, {@code patrequs}). */
    private static final java.util.Map<String, String> PATENT_REGIONS = java.util.Map.of("us", "us", "ep", "eu", "gb", "uk", "de", "de", "fr", "fr");

    /**
     * Fields the mapping reads that are filled from what the record holds otherwise (each as LaTeX): in
     * BibTeX's dialect, which has no eventtitle, a conference paper's conference as its booktitle where
     * it names no proceedings; and as Better BibTeX fills them for a Zotero item: a patent's type by its office and state ({@code patenteu}; {@code patreqeu} for an
     * application) and an application's number, where it has no patent number; in BibLaTeX's dialect a
     * preprint's {@code pubstate} (prepublished) where it states none, in BibTeX's its arXiv id as its
     * number; an article's journal by its abbreviation where it names no journal otherwise.
     */
    private static java.util.Map<String, String> derived(Metadata m, boolean bibtexDialect) {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        if (bibtexDialect && "paper-conference".equals(m.type()) && m.venue() == null && m.get(Field.EVENT) != null) {
            out.put("booktitle", latex(m.get(Field.EVENT).toString())); // BibTeX has no eventtitle: the conference names the proceedings
        }
        if (m.extras(Field.ZOTERO_EXTRAS).isEmpty()) {
            return out; // a record no Zotero item made: the rest is what Better BibTeX makes of one
        }
        if ("patent".equals(m.type())) {
            Object number = m.get(Field.NUMBER);
            Object application = m.get(Field.CALL_NUMBER); // Zotero's application number is CSL's call number
            Object given = number != null ? number : application;
            String region = given == null || given.toString().length() < 2 ? null
                    : PATENT_REGIONS.get(given.toString().substring(0, 2).toLowerCase(java.util.Locale.ROOT));
            if (region != null) {
                out.put("type", (number != null ? "patent" : "patreq") + region);
            }
            if (number == null && application != null) {
                out.put("number", latex(application.toString()));
            }
        }
        if (!bibtexDialect && "preprint".equals(m.type()) && m.get(Field.STATUS) == null) {
            out.put("pubstate", "prepublished");
        }
        if (bibtexDialect && "preprint".equals(m.type()) && m.get(Field.NUMBER) == null && m.arxiv() != null) {
            out.put("number", "arXiv:" + latex(m.arxiv().replaceAll("\\s*\\[.*$", ""))); // the archive id Zotero's preprint has
        }
        if ("article-journal".equals(m.type()) && m.venue() == null && m.get(Field.CONTAINER_TITLE_SHORT) != null) {
            out.put("journal", latex(m.get(Field.CONTAINER_TITLE_SHORT).toString()));
        }
        return out;
    }

    private static boolean empty(Object v) {
        return v == null || v instanceof java.util.Collection<?> c && c.isEmpty();
    }

    /** BibLaTeX's name lists Better BibTeX writes a Zotero creator role to where the role has none of its own: a list and the role it names ({@code editora} with {@code editoratype}). */
    private static final java.util.Map<String, String> ROLE_LISTS = java.util.Map.of("bookAuthor", "bookauthor", "commenter", "commentator",
            "assignee", "holder");

    /**
     * The name lists of BibLaTeX the creators of roles Idiom keeps no list for are written in, as
     * Better BibTeX writes them: a book's author as {@code bookauthor}, a commenter as
     * {@code commentator}, an assignee as {@code holder}; a series editor (a {@code redactor}) and a
     * video's script writer in the next free {@code editora}…{@code editorc} with its
     * {@code editoratype}; every other role (a contributor, a cast member, a producer…) in
     * {@code namea}…{@code namec} as a {@code collaborator}. A video keeps {@code editor} for its director.
     */
    private static java.util.Map<String, String> roles(Metadata m, boolean video) {
        List<dev.idiom.wrappers.ZoteroExtras.Creator> others = dev.idiom.wrappers.ZoteroExtras.otherCreators(m);
        if (video && !m.authors().isEmpty() && m.authors().equals(directors(others))) {
            others = others.stream().filter(c -> !c.role().equals(DIRECTOR)).toList(); // a video recording's directors, written as its editor
        }
        if (others.isEmpty()) {
            return java.util.Map.of();
        }
        java.util.Map<String, String> listOfType = new java.util.HashMap<>(); // the list each role went to
        java.util.Map<String, String> typeOfList = new java.util.HashMap<>();
        if (video || !m.editors().isEmpty()) {
            typeOfList.put("editor", video ? "director" : "editor");
        }
        java.util.Map<String, List<dev.idiom.events.Author>> lists = new java.util.LinkedHashMap<>();
        for (dev.idiom.wrappers.ZoteroExtras.Creator c : others) {
            String list = ROLE_LISTS.get(c.role());
            if (list == null) {
                boolean editorLike = c.role().equals("seriesEditor") || video && c.role().equals("scriptwriter");
                String type = c.role().equals("seriesEditor") ? "redactor" : editorLike ? "scriptwriter" : "collaborator";
                list = listOfType.computeIfAbsent(type, t -> {
                    for (String candidate : editorLike ? List.of("editor", "editora", "editorb", "editorc") : List.of("namea", "nameb", "namec")) {
                        if (!typeOfList.containsKey(candidate) || candidate.endsWith("c")) {
                            typeOfList.put(candidate, t);
                            return candidate;
                        }
                    }
                    return null;
                });
            }
            if (list != null && !list.equals("editor")) {
                lists.computeIfAbsent(list, l -> new java.util.ArrayList<>()).add(c.name());
            }
        }
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        lists.forEach((list, names) -> {
            out.put(list, latex(BibTeXMapping.authorList(names)));
            if (typeOfList.containsKey(list)) {
                out.put(list + "type", typeOfList.get(list));
            }
        });
        return out;
    }

    /** The field names an extras part can hold (others, rare in files, stay in the file alone). */
    private static final java.util.regex.Pattern EXTRA_NAME = java.util.regex.Pattern.compile("[a-z][a-z0-9_.:@+-]{0,63}");

    /** A field name an entry's extras may hold: none the mapping or the file adapter reads, no bookkeeping. */
    private static boolean extraName(String name) {
        return EXTRA_NAME.matcher(name).matches() && !BibTeXMapping.READ.contains(name) && !NOT_EXTRAS.contains(name) && !name.startsWith("comment-")
                && !name.equals(BibTeXMapping.ENTRY_TYPE_EXTRA);
    }

    /**
     * A field name a new entry may be written with from a Zotero item's {@code extra}: as {@link #extraName},
     * but a library's bookkeeping too ({@code tex.owner}, {@code tex.crossref}: the curator asked for it
     * in so many words, as Better BibTeX writes it); never a field the file adapter reads itself.
     * Bookkeeping is not read back into a copy's extras: written once, with the entry, then the file's
     * own ({@link BibTeXFile} leaves out a crossref that names an entry of the file: that entry's
     * fields would be read as this one's, which the record does not hold).
     */
    private static boolean derivedName(String name) {
        return extraName(name) || NOT_EXTRAS.contains(name) && !ADAPTER_READS.contains(name);
    }

    /** Fields the file adapter reads into the record itself (its notes, tags and attached files). */
    private static final java.util.Set<String> ADAPTER_READS = java.util.Set.of("note", "keywords", "file");

    /**
     * What of the entry no canonical field holds, as the file has it (the BibTeX extras part): its
     * entry type where the record's type is written otherwise ({@code @conference}, {@code @online}),
     * and every field the mapping does not read ({@code eventdate}, {@code addendum}, {@code titleaddon},
     * {@code adsurl}…), each as written (its LaTeX kept). Copies in other .bib files get it whole.
     */
    private static java.util.Map<String, String> extras(BibTeXEntry e, Metadata m, boolean bibtexDialect) {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        String type = e.getType().getValue();
        // a blog or forum post was written as a @misc saying its type until it became an @online: such an entry reads as it did
        View view = new View(e, bibtexDialect);
        String subtype = view.get("entrysubtype");
        boolean miscOfType = type.equalsIgnoreCase("misc") && subtype != null && subtype.strip().equals(m.type())
                && BibTeXMapping.FORMERLY_MISC.contains(m.type());
        if (!type.equalsIgnoreCase(BibTeXMapping.defaultEntryType(m, bibtexDialect)) && !miscOfType) {
            out.put(BibTeXMapping.ENTRY_TYPE_EXTRA, type.toLowerCase(java.util.Locale.ROOT));
        }
        Value date = e.getField(new Key("date"));
        if (date != null && e.getField(new Key("year")) == null && BibTeXMapping.saysMoreThanParts(date.toUserString())) {
            out.put("date", date.toUserString().strip()); // a range, a season, circa: the record's year, month and day are where it starts
        }
        String venue = BibTeXMapping.venueField(view);
        boolean directors = BibTeXMapping.directorsAsEditors(view);
        e.getFields().forEach((k, v) -> {
            String name = k.getValue().toLowerCase(java.util.Locale.ROOT);
            boolean aliased = ALIASES.stream().anyMatch(a -> a.name().equals(name) && a.of(e) && e.getField(new Key(a.mapped())) == null);
            if (extraName(name) && !name.equals(venue) && !aliased // a web page's organization, where it is its site; a field read as the mapping's
                    && !(directors && name.equals("editortype")) // a video's editor as its directors: the mapping's
                    && !(name.equals("options") && !bibtexDialect && v.toUserString().strip().equals(USEPREFIX) && useprefix(m))) {
                out.put(name, v.toUserString()); // the useprefix Idiom writes for a name with a particle is the names' own
            }
        });
        return out;
    }

    /**
     * The keywords of a {@code keywords} value as written (each with the white space around it):
     * separated by semicolons when the value has one outside braces (MeSH headings such as
     * {@code Rats, Inbred F344; Rats, Sprague-Dawley} hold commas), else by commas; a braced keyword
     * is taken whole ({@code {Neoplasms, Experimental}}, as {@link #keywords} writes a tag that holds a
     * separator).
     */
    static java.util.List<String> keywordItems(String raw) {
        char sep = separator(raw);
        return Braces.split(raw, i -> raw.charAt(i) == sep, null);
    }

    /** The separator a keywords value uses: ';' if one stands outside braces, else ','. */
    private static char separator(String raw) {
        return Braces.first(raw, 0, i -> raw.charAt(i) == ';') >= 0 ? ';' : ',';
    }

    /** The keywords of a {@code keywords} value (see {@link #keywordItems}), stripped, a braced one unbraced. */
    static java.util.List<String> keywordList(String raw) {
        java.util.List<String> keywords = new java.util.ArrayList<>();
        for (String s : keywordItems(raw)) {
            String t = unbraced(s.strip());
            if (!t.isBlank()) {
                keywords.add(t);
            }
        }
        return keywords;
    }

    private static String unbraced(String t) {
        return Braces.wholeBraced(t) ? t.substring(1, t.length() - 1) : t;
    }

    /**
     * The {@code keywords} value as written ({@code raw}) with the tag changes from {@code before} to
     * {@code after} made in its own form: the keywords that stay are kept as written, in their order,
     * with their separator and spacing; a removed one goes with its separator; an added one is appended
     * with the separator the value uses. Null when no keyword is left.
     */
    static String keywordsChanged(String raw, java.util.Set<String> before, java.util.Set<String> after) {
        char sep = separator(raw);
        java.util.List<String> items = keywordItems(raw);
        java.util.List<String> kept = new java.util.ArrayList<>();
        java.util.Set<String> present = new java.util.HashSet<>();
        boolean removed = false;
        for (String item : items) {
            String tag = plain(unbraced(item.strip()));
            if (tag == null) {
                continue;
            }
            if (before.contains(tag) && !after.contains(tag)) {
                removed = true;
            } else {
                kept.add(item);
                present.add(tag);
            }
        }
        java.util.List<String> added = after.stream().filter(t -> !present.contains(t)).toList();
        String joiner = joiner(raw, sep);
        StringBuilder b = new StringBuilder();
        if (!removed) {
            b.append(raw.stripTrailing()); // nothing taken out: the value as written, to the byte
        } else {
            for (String item : kept) {
                b.append(b.isEmpty() ? item.strip() : joiner + item.strip());
            }
        }
        for (String t : added) {
            boolean guard = t.indexOf(sep) >= 0 || t.indexOf(',') >= 0 || t.indexOf(';') >= 0 || t.startsWith("{") && t.endsWith("}");
            String written = guard ? "{" + latex(t) + "}" : latex(t);
            b.append(b.toString().isBlank() ? written : joiner + written);
        }
        return b.toString().isBlank() ? null : b.toString();
    }

    /** The separator as the value writes it, with the white space after it ("; ", ","); the usual one if it has none yet. */
    private static String joiner(String raw, char sep) {
        int i = Braces.first(raw, 0, j -> raw.charAt(j) == sep);
        if (i < 0) {
            return sep + " ";
        }
        int j = i + 1;
        while (j < raw.length() && (raw.charAt(j) == ' ' || raw.charAt(j) == '\t')) {
            j++;
        }
        return raw.substring(i, j);
    }

    /** Tags as a {@code keywords} value: comma-separated, a tag with a separator or a brace of its own in braces. */
    static String keywords(java.util.Collection<String> tags) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String t : tags) {
            boolean guard = t.indexOf(',') >= 0 || t.indexOf(';') >= 0 || t.startsWith("{") && t.endsWith("}");
            out.add(guard ? "{" + t + "}" : t);
        }
        return String.join(", ", out);
    }

    private static Metadata set(Metadata m, Field f, String value) {
        return value == null ? m : m.with(f, f.fromText(value));
    }

    /**
     * {@code e}, or a copy of it under a new entry type when the change of canonical type needs
     * one (every field and the key carried over), with the fields that changed between
     * {@code before} and {@code after} written and every other field left alone.
     */
    static BibTeXEntry withChanges(BibTeXEntry e, Metadata before, Metadata after) {
        return withChanges(e, before, after, false);
    }

    /** As above, in a file of BibTeX's own dialect when {@code bibtexDialect} (a changed type is written as BibTeX's styles know it). */
    static BibTeXEntry withChanges(BibTeXEntry e, Metadata before, Metadata after, boolean bibtexDialect) {
        return withChanges(e, before, after, bibtexDialect, false);
    }

    /** As above, in a file that gives addresses as <code>note = {&#92;url{…}}</code> when {@code urlsAsNotes} (a new one is written so). */
    static BibTeXEntry withChanges(BibTeXEntry e, Metadata before, Metadata after, boolean bibtexDialect, boolean urlsAsNotes) {
        View target = new View(e, bibtexDialect);
        String urlPlace = java.util.Objects.equals(before.url(), after.url()) ? null : urlPlace(target, after, urlsAsNotes);
        java.util.Set<String> had = new java.util.HashSet<>();
        e.getFields().keySet().forEach(k -> had.add(k.getValue().toLowerCase(java.util.Locale.ROOT)));
        BibTeXMapping.applyChanges(target, before, after);
        aliased(target, before, after, had);
        if (urlPlace != null) { // the address stays where the entry (or its file) gives it
            target.e.removeField(new Key("url"));
            target.e.removeField(new Key(urlPlace));
            if (after.url() != null) { // LaTeX as written: the url command prints it
                target.e.addField(new Key(urlPlace), new StringValue(urlValue(after.url()), StringValue.Style.BRACED));
            }
        }
        java.util.Map<String, String> extrasWere = extrasFor(before, bibtexDialect, null);
        java.util.Map<String, String> now = extrasFor(after, bibtexDialect, before == Metadata.EMPTY ? null : before);
        java.util.Set<String> names = new java.util.TreeSet<>(extrasWere.keySet());
        names.addAll(now.keySet());
        for (String name : names) { // the fields of another file's entry no canonical field holds, as it has them
            // the entry type, a whole date, a web page's organization and the useprefix its names make are the mapping's, written with
            // the record's type, date, container and names (an entry read before they were keeps them)
            if (!name.equals(BibTeXMapping.ENTRY_TYPE_EXTRA) && !name.equals("date") && !name.equals(BibTeXMapping.fieldName(target.type(), Field.VENUE))
                    && !(name.equals("options") && useprefix(after) && (USEPREFIX.equals(extrasWere.get(name)) || USEPREFIX.equals(now.get(name))))
                    && !java.util.Objects.equals(extrasWere.get(name), now.get(name))
                    && (extraName(name) || before == Metadata.EMPTY)) { // bookkeeping an entry was made with is the file's from then on
                target.e.removeField(new Key(name));
                if (now.get(name) != null) {
                    StringValue value = new StringValue(now.get(name), StringValue.Style.BRACED);
                    // jbibtex looks a field an entry lacks up in the entry its crossref names: one it cannot resolve, as its parser leaves it
                    target.e.addField(new Key(name), name.equals("crossref") ? new org.jbibtex.CrossReferenceValue(value, null) : value);
                }
            }
        }
        if (!bibtexDialect && target.e.getField(new Key("options")) == null && useprefix(after)
                && (!before.authors().equals(after.authors()) || !before.editors().equals(after.editors()))) {
            target.set("options", USEPREFIX); // BibLaTeX then sorts "van der Meer" under v, as Zotero and CSL do
        }
        if (!java.util.Objects.equals(before.notes(), after.notes())) {
            String url = urlOnly(target.e, "note");
            if (url != null && after.notes() != null) { // notes take the note: the address it held goes to url
                target.set("url", url);
            }
            if (url == null || after.notes() != null) {
                target.set("note", after.notes());
            }
        }
        if (!before.tags().equals(after.tags())) {
            Value was = target.e.getField(new Key("keywords"));
            String value = was == null ? (after.tags().isEmpty() ? null : keywords(after.tags()))
                    : keywordsChanged(was.toUserString(), before.tags(), after.tags());
            target.e.removeField(new Key("keywords"));
            if (value != null) { // written as composed: the keywords kept are the file's own text, the added ones already escaped
                target.e.addField(new Key("keywords"), new StringValue(was == null ? escape(latex(value)) : value, StringValue.Style.BRACED));
            }
        }
        return target.e;
    }

    /** BibLaTeX's option that makes a name's particle part of the name it is sorted and cited by. */
    private static final String USEPREFIX = "useprefix=true";
    /** A family name that opens with a particle: a lower-case word before a space, an apostrophe or a hyphen ("van der Meer", "d'Arcy", "al-One"). */
    private static final java.util.regex.Pattern PARTICLE = java.util.regex.Pattern.compile("^\\p{Ll}[\\p{L}.]*(?:\\s+|['’-]\\s*)\\S.*");

    /**
     * Whether a BibLaTeX entry of these names says {@code useprefix=true}, as Better BibTeX writes it:
     * Zotero keeps a family name's particle in the family name ("van der Meer"), where BibLaTeX would
     * by default sort and cite it without.
     */
    private static boolean useprefix(Metadata m) {
        return java.util.stream.Stream.concat(m.authors().stream(), m.editors().stream())
                .anyMatch(a -> !a.given().isEmpty() && PARTICLE.matcher(a.family()).matches());
    }

    /** Fields an entry never takes from the one its {@code crossref} names. */
    private static final java.util.Set<String> NOT_INHERITED = java.util.Set.of("crossref", "xref", "ids", "entryset", "key", "label");
    /** BibLaTeX's rule for the entries inside a whole: the whole's title is their {@code booktitle}. */
    private static final java.util.Set<String> PARTS = java.util.Set.of("inproceedings", "incollection", "inbook", "bookinbook", "suppbook");

    /**
     * {@code e} as read, with what it does not say itself taken from the entry its {@code crossref}
     * names (BibTeX's inheritance: every field the child lacks; BibLaTeX's: the parent's title as a
     * part's {@code booktitle}). Only for reading: writing changes the entry's own fields alone, so
     * the crossref and the parent stay as they are.
     */
    static BibTeXEntry inheriting(BibTeXEntry e, java.util.function.Function<String, BibTeXEntry> entries) {
        String ref = crossref(e);
        BibTeXEntry parent = ref == null ? null : entries.apply(ref);
        if (parent == null || parent == e) {
            return e;
        }
        BibTeXEntry view = new BibTeXEntry(e.getType(), e.getKey());
        e.getFields().forEach(view::addField);
        parent.getFields().forEach((k, v) -> {
            String name = k.getValue().toLowerCase(java.util.Locale.ROOT);
            if (!NOT_INHERITED.contains(name) && e.getField(k) == null && view.getField(k) == null) {
                view.addField(k, v);
            }
        });
        if (PARTS.contains(e.getType().getValue().toLowerCase(java.util.Locale.ROOT)) && view.getField(new Key("booktitle")) == null
                && parent.getField(new Key("title")) != null) {
            view.addField(new Key("booktitle"), parent.getField(new Key("title")));
        }
        return view;
    }

    /** The key the entry's {@code crossref} names, or null. */
    static String crossref(BibTeXEntry e) {
        Value ref = e.getField(new Key("crossref"));
        return ref == null ? null : ref.toUserString().strip();
    }

    /** {@code e} under another key, every field carried over. */
    static BibTeXEntry rekeyed(BibTeXEntry e, String key) {
        BibTeXEntry out = new BibTeXEntry(e.getType(), new Key(key));
        e.getFields().forEach(out::addField);
        return out;
    }

    private static void put(BibTeXEntry e, String field, String value) {
        if (value != null && field.equalsIgnoreCase("month") && MONTH_MACRO.matcher(value).matches()) {
            e.addField(new Key(field), new org.jbibtex.KeyValue(value)); // month = feb: BibTeX's own macro, which every style prints in its language
        } else if (value != null) {
            String written = VERBATIM.contains(field.toLowerCase(java.util.Locale.ROOT)) ? value : latex(value);
            e.addField(new Key(field), new StringValue(escape(written), StringValue.Style.BRACED));
        }
    }

    /** A value as Idiom writes it into a file ({@code {…}}, {@code "…"}, a macro or a number), or null for another form. */
    static String written(Value v) {
        if (v instanceof StringValue s) {
            return s.getStyle() == StringValue.Style.QUOTED ? "\"" + s.getString() + "\"" : "{" + s.getString() + "}";
        }
        if (v instanceof org.jbibtex.KeyValue k) {
            return k.getString();
        }
        if (v instanceof org.jbibtex.DigitStringValue d) {
            return d.getString();
        }
        return null;
    }

    private static final java.util.regex.Pattern MONTH_MACRO = java.util.regex.Pattern.compile("jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec");

    /** Fields BibLaTeX and hyperref read verbatim: LaTeX's special characters are not escaped in them. */
    private static final java.util.Set<String> VERBATIM = java.util.Set.of("url", "doi", "eprint", "file", "urldate");

    /**
     * Plain text as LaTeX reads it back: the characters LaTeX gives a meaning of its own
     * ({@code & % $ # _}) escaped with a backslash; everything else, accented letters included,
     * is written as it is (the file is UTF-8 or its declared charset). Reading decodes them again
     * ({@link #plain}), so a value round-trips.
     */
    static String latex(String value) {
        StringBuilder out = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ("&%$#_".indexOf(c) >= 0 && (i == 0 || value.charAt(i - 1) != '\\')) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }

    /**
     * Braces must balance inside a braced value. BibTeX and Biber count a brace even after a
     * backslash, so where they do not balance each is written as LaTeX's {@code \textbraceleft{}} or
     * {@code \textbraceright{}} (as Better BibTeX writes them): a backslashed closing brace would end the value early
     * and take the rest of the file with it. {@link LatexReader} reads them back.
     */
    private static String escape(String v) {
        if (Braces.balanced(v)) {
            return v;
        }
        StringBuilder out = new StringBuilder(v.length() + 32);
        for (char c : v.toCharArray()) {
            out.append(c == '{' ? "\\textbraceleft{}" : c == '}' ? "\\textbraceright{}" : String.valueOf(c));
        }
        return out.toString();
    }

    /**
     * A field a file names otherwise than the shared mapping does ({@code name} for {@code mapped}), in
     * entries of {@code types} (any, if empty): read there where the entry has not the mapping's name,
     * and a new value written there where the entry has it, or has neither and its file's dialect
     * names it so ({@code bibtexDialect}), as Better BibTeX writes it: a BibLaTeX {@code @misc}'s or
     * {@code @software}'s publisher is its {@code organization}, an {@code @unpublished}'s kind (a
     * manuscript's type: Working Paper) its {@code howpublished}, a licence in BibTeX's dialect its {@code copyright}.
     */
    private record Alias(Field field, String mapped, String name, java.util.Set<String> types, boolean bibtexDialect) {
        boolean of(BibTeXEntry e) {
            return (types.isEmpty() || types.contains(e.getType().getValue().toLowerCase(java.util.Locale.ROOT))) && e.getField(new Key(name)) != null
                    && urlOnly(e, name) == null; // an address there is the entry's url
        }
    }

    private static final List<Alias> ALIASES = List.of(new Alias(Field.PUBLISHER, "publisher", "organization", java.util.Set.of("misc", "software"), false),
            new Alias(Field.LICENSE, "rights", "copyright", java.util.Set.of(), true),
            new Alias(Field.GENRE, "type", "howpublished", java.util.Set.of("unpublished"), false));

    /** Each alias's value moved where the entry (or its dialect) names it, after the mapping wrote {@code after} under its own names into an entry that {@code had} these fields. */
    private static void aliased(View target, Metadata before, Metadata after, java.util.Set<String> had) {
        String type = target.type().toLowerCase(java.util.Locale.ROOT);
        for (Alias a : ALIASES) {
            if (java.util.Objects.equals(before.get(a.field()), after.get(a.field())) || !(a.types().isEmpty() || a.types().contains(type))) {
                continue;
            }
            boolean there = had.contains(a.name()) && !had.contains(a.mapped()) || !had.contains(a.mapped()) && a.bibtexDialect() == target.bibtexDialect();
            if (there) {
                target.e.removeField(new Key(a.mapped()));
                target.set(a.name(), after.get(a.field()) == null ? null : a.field().toText(after.get(a.field())));
            }
        }
    }

    /** The fields classic BibTeX files give an entry's address in, as <code>&#92;url{…}</code>: its note, a {@code @misc}'s howpublished. */
    private static final List<String> URL_PLACES = List.of("note", "howpublished");
    private static final java.util.regex.Pattern URL_ONLY = java.util.regex.Pattern.compile("^\\s*\\\\url\\s*\\{([^{}\\s]+)}\\s*$");

    /** The address a field holds and nothing else (<code>note = {&#92;url{https://…}}</code>), LaTeX's escapes undone; else null. */
    static String urlOnly(BibTeXEntry e, String field) {
        Value v = e.getField(new Key(field));
        java.util.regex.Matcher m = v == null ? null : URL_ONLY.matcher(v.toUserString());
        return m == null || !m.matches() ? null : m.group(1).replaceAll("\\\\([#%&_~$])", "$1");
    }

    /** An address as <code>&#92;url{…}</code> in a field of a .bib file: the characters that would end or comment out the field's argument escaped. */
    private static String urlValue(String url) {
        return "\\url{" + url.replaceAll("([#%])", "\\\\$1") + "}";
    }

    /**
     * Where the entry gives its address, if it has no {@code url}: the field that holds it as
     * <code>&#92;url{…}</code> alone; for a new address in a file that gives addresses so ({@code urlsAsNotes}),
     * a {@code @misc}'s or {@code @booklet}'s free howpublished, else its note where the record has no
     * notes; else null (the {@code url} field).
     */
    private static String urlPlace(View target, Metadata after, boolean urlsAsNotes) {
        if (target.e.getField(new Key("url")) != null) {
            return null; // the address is read from there
        }
        for (String place : URL_PLACES) {
            if (urlOnly(target.e, place) != null) {
                return place;
            }
        }
        if (!urlsAsNotes) {
            return null;
        }
        boolean misc = java.util.Set.of("misc", "booklet").contains(target.type().toLowerCase(java.util.Locale.ROOT));
        return misc && target.e.getField(new Key("howpublished")) == null ? "howpublished" : after.notes() == null ? "note" : null;
    }

    /** A field's value as plain text: LaTeX accents and braces resolved. */
    static String text(BibTeXEntry e, String field) {
        Value v = e.getField(new Key(field));
        if (v == null) {
            return null;
        }
        return plain(v.toUserString());
    }

    private static final java.util.regex.Pattern WHITESPACE = java.util.regex.Pattern.compile("\\s+");

    /** A value as plain text: LaTeX accents and braces resolved, runs of white space as one. */
    static String plain(String raw) {
        String plain;
        if (raw.indexOf('\\') < 0 && raw.indexOf('{') < 0 && raw.indexOf('$') < 0) {
            // plain text stays as written: "42--81" is not LaTeX's en dash to us, an address's ~ no tie
            plain = raw;
        } else {
            plain = LatexReader.read(raw);
        }
        plain = WHITESPACE.matcher(plain).replaceAll(" ").strip(); // String.replaceAll compiled the pattern for every field: a sixth of an import's main thread
        return plain.isEmpty() ? null : plain;
    }
}
