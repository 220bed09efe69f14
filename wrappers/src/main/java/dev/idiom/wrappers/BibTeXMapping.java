package dev.idiom.wrappers;

import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one mapping between BibTeX/BibLaTeX entries and Idiom's canonical record (CSL-JSON's model),
 * used by every adapter that speaks BibTeX (BibTeX files, BibSonomy's posts): which CSL type an
 * entry type is, in which BibTeX field each CSL variable lives for an entry type
 * ({@link #fieldName}: container-title is {@code journal} in an article and {@code booktitle} in a
 * chapter, the publisher is {@code school} in a thesis), how names and dates are read, and how a
 * change is written — only the fields that changed, in the entry's own type, everything else left
 * as it was (keys, unknown fields, the forms values were written in).
 *
 * <p>Every CSL type is written so that it reads back as itself: a type BibTeX has no entry type for
 * is a {@code @misc} with BibLaTeX's {@code entrysubtype} naming it (and magazine and newspaper
 * articles are {@code @article}s with that subtype, as BibLaTeX does).
 */
public final class BibTeXMapping {
    private BibTeXMapping() {}

    /** One entry as an adapter holds it: its type and its fields by BibTeX name. */
    public interface Entry {
        String type();

        void type(String entryType);

        /** The field's plain-text value, or null. */
        String get(String field);

        /**
         * A name list's value: each name's text plain, but a name the file has wholly in braces (an
         * institution, {@code {Services de traduction de l'Université McGill}}) kept in one pair, so
         * that it stays one literal name. Default: the plain value (a tool whose names carry no braces).
         */
        default String names(String field) {
            return get(field);
        }

        /** Sets the field; null or empty removes it. */
        void set(String field, String value);

        /** True if the entry is in a file of BibTeX's own dialect ({@link #bibtexDialect}): entries are typed as BibTeX's styles know them. */
        default boolean bibtexDialect() {
            return false;
        }

        /** True if the entry may hold a date as BibLaTeX's {@code date} says one (a range, a season, circa): a file's entry in BibLaTeX. */
        default boolean keepsWholeDates() {
            return false;
        }

        /** Moves a field's value, as written, to another field (a venue when the entry type changes). */
        default void move(String from, String to) {
            String v = get(from);
            set(from, null);
            set(to, v);
        }
    }

    private static final Map<String, String> CSL_TYPE = Map.ofEntries(Map.entry("article", "article-journal"),
            Map.entry("inproceedings", "paper-conference"), Map.entry("conference", "paper-conference"), Map.entry("book", "book"),
            Map.entry("mvbook", "book"), Map.entry("inbook", "chapter"), Map.entry("incollection", "chapter"), Map.entry("bookinbook", "chapter"),
            Map.entry("suppbook", "chapter"), Map.entry("suppcollection", "chapter"), Map.entry("booklet", "pamphlet"),
            Map.entry("collection", "book"), Map.entry("mvcollection", "book"), Map.entry("proceedings", "book"),
            Map.entry("mvproceedings", "book"), Map.entry("reference", "book"), Map.entry("inreference", "entry-encyclopedia"),
            Map.entry("phdthesis", "thesis"), Map.entry("mastersthesis", "thesis"), Map.entry("thesis", "thesis"),
            Map.entry("techreport", "report"), Map.entry("report", "report"), Map.entry("manual", "report"),
            Map.entry("online", "webpage"), Map.entry("electronic", "webpage"), Map.entry("www", "webpage"),
            Map.entry("software", "software"), Map.entry("dataset", "dataset"), Map.entry("unpublished", "manuscript"),
            Map.entry("patent", "patent"), Map.entry("periodical", "periodical"), Map.entry("misc", "document"),
            Map.entry("video", "motion_picture"), Map.entry("movie", "motion_picture"), Map.entry("jurisdiction", "legal_case"));

    /** The entry type each CSL type is written as; any other type is a {@code @misc} with that entrysubtype. */
    private static final Map<String, String> ENTRY_TYPE = Map.ofEntries(Map.entry("article-journal", "article"),
            Map.entry("article-magazine", "article"), Map.entry("article-newspaper", "article"), Map.entry("paper-conference", "inproceedings"),
            Map.entry("book", "book"), Map.entry("chapter", "incollection"), Map.entry("pamphlet", "booklet"),
            Map.entry("entry-encyclopedia", "inreference"), Map.entry("thesis", "phdthesis"), Map.entry("report", "techreport"),
            Map.entry("webpage", "online"), Map.entry("software", "software"), Map.entry("dataset", "dataset"),
            Map.entry("manuscript", "unpublished"), Map.entry("patent", "patent"), Map.entry("periodical", "periodical"),
            Map.entry("document", "misc"), Map.entry("post-weblog", "online"), Map.entry("post", "online"),
            Map.entry("motion_picture", "video"), Map.entry("legal_case", "jurisdiction"));

    /** CSL types written as an {@code @online} that says which it is in its {@code entrysubtype} (a blog post, a forum post), as read back. */
    public static final Set<String> ONLINE_SUBTYPES = Set.of("post-weblog", "post");

    /**
     * CSL types Idiom wrote as a {@code @misc} naming the type in its {@code entrysubtype} before it
     * gave them an entry type of their own (a blog post's {@code @online}, a film's {@code @video}, a
     * court case's {@code @jurisdiction}): such a {@code @misc} still reads as it did, its entry type no extra of the record's.
     */
    public static final Set<String> FORMERLY_MISC = Set.of("post-weblog", "post", "motion_picture", "broadcast", "legal_case");

    /** Entry types of BibLaTeX (and Mendeley's {@code @movie}) for a film, a video or a television broadcast. */
    private static final Set<String> VIDEOS = Set.of("video", "movie");

    /** True if a record is written as a video ({@code @video}, in BibLaTeX's dialect): a film, a television broadcast. */
    public static boolean writtenAsVideo(Metadata m) {
        return VIDEOS.contains(lower(entryType(m, false)));
    }
    /** The {@code entrysubtype}s of a {@code @video} that make it a television broadcast, as Better BibTeX writes and reads them. */
    private static final Set<String> TV_SUBTYPES = Set.of("tvbroadcast", "tvepisode");
    /** The Zotero item type of a television broadcast, the one kind of CSL broadcast written as a {@code @video}. */
    private static final String TV_BROADCAST = "tvBroadcast";

    /** BibLaTeX's subtypes of {@code @article}. */
    private static final Map<String, String> ARTICLE_SUBTYPE = Map.of("magazine", "article-magazine", "newspaper", "article-newspaper");

    /** Entry types whose container is a book or proceedings ({@code booktitle}). */
    private static final Set<String> IN_BOOK = Set.of("inproceedings", "conference", "incollection", "inbook", "bookinbook", "suppbook",
            "suppcollection", "inreference");
    /** Entry types that are a whole book or volume: no container; {@code number} is the number in a series. */
    private static final Set<String> BOOKS = Set.of("book", "mvbook", "collection", "mvcollection", "proceedings", "mvproceedings",
            "reference", "booklet", "manual");
    private static final Set<String> THESES = Set.of("phdthesis", "mastersthesis", "thesis");
    private static final Set<String> REPORTS = Set.of("techreport", "report");
    /** Entry types without a container (their publisher, school or institution is not one). */
    private static final Set<String> NO_CONTAINER = Set.of("book", "mvbook", "collection", "mvcollection", "proceedings", "mvproceedings",
            "reference", "manual", "phdthesis", "mastersthesis", "thesis", "techreport", "report", "software", "dataset", "unpublished",
            "patent", "periodical");

    /** The fields held in one BibTeX field each whose name does not depend on the entry type. */
    private static final Map<Field, String> PLAIN = Map.ofEntries(Map.entry(Field.TITLE, "title"), Map.entry(Field.VOLUME, "volume"),
            Map.entry(Field.PAGES, "pages"), Map.entry(Field.DOI, "doi"), Map.entry(Field.URL, "url"), Map.entry(Field.ABSTRACT, "abstract"),
            Map.entry(Field.COLLECTION_TITLE, "series"), Map.entry(Field.PUBLISHER_PLACE, "address"), Map.entry(Field.EDITION, "edition"),
            Map.entry(Field.ISBN, "isbn"), Map.entry(Field.ISSN, "issn"), Map.entry(Field.PMID, "pmid"), Map.entry(Field.PMCID, "pmcid"),
            Map.entry(Field.LANGUAGE, "language"), Map.entry(Field.EVENT, "eventtitle"), Map.entry(Field.GENRE, "type"),
            Map.entry(Field.ACCESSED, "urldate"), Map.entry(Field.TITLE_SHORT, "shorttitle"), Map.entry(Field.CONTAINER_TITLE_SHORT, "shortjournal"),
            Map.entry(Field.VERSION, "version"), Map.entry(Field.NUMBER_OF_PAGES, "pagetotal"), Map.entry(Field.NUMBER_OF_VOLUMES, "volumes"),
            Map.entry(Field.EVENT_PLACE, "venue"), Map.entry(Field.STATUS, "pubstate"), Map.entry(Field.CHAPTER_NUMBER, "chapter"),
            Map.entry(Field.ORIGINAL_PUBLISHER, "origpublisher"), Map.entry(Field.ORIGINAL_PUBLISHER_PLACE, "origlocation"),
            Map.entry(Field.LICENSE, "rights"));

    /**
     * BibLaTeX's names for fields, read where the entry has not the name this mapping writes and
     * written back there: the language as {@code langid} (babel's name: english, ngerman), the place
     * as {@code location}, an article's issue as {@code issue}.
     */
    private static final Map<Field, String> OTHER_NAMES = Map.of(Field.LANGUAGE, "langid", Field.PUBLISHER_PLACE, "location", Field.ISSUE, "issue");

    /**
     * CSL variables a BibTeX entry has no field for (BibLaTeX's data model and Better BibTeX's export
     * leave them out): a file or a BibSonomy post does not hold them, so they are never owed to one
     * (but those of {@link #ONE_TYPE}, which a file holds in the one entry type that has a place).
     */
    public static final Set<Field> NO_FIELD = EnumSet.of(Field.ARCHIVE, Field.ARCHIVE_LOCATION, Field.CALL_NUMBER, Field.SOURCE,
            Field.DIMENSIONS, Field.MEDIUM, Field.SCALE, Field.AUTHORITY, Field.SECTION, Field.PART_NUMBER, Field.PART_TITLE, Field.REFERENCES);

    /** BibLaTeX's entry type of a court case. */
    private static final String JURISDICTION = "jurisdiction";

    /**
     * Variables one entry type alone has a place for (a {@code @jurisdiction}'s court, its
     * {@code institution}): read and written there, held by a file but not by a BibSonomy post, whose
     * older {@code misc} posts of a case could never take one. A file's copy of a case made before, a
     * {@code @misc}, is owed its court once: the write changes nothing, and the court becomes the copy's own.
     */
    public static final Set<Field> ONE_TYPE = EnumSet.of(Field.AUTHORITY);

    /** The fields this mapping reads and writes (notes, tags and the citation key are each adapter's). */
    public static final Set<Field> MAPPED = mapped();

    private static Set<Field> mapped() {
        Set<Field> out = EnumSet.complementOf(EnumSet.of(Field.NOTES, Field.TAGS, Field.CITATION_KEY, Field.ZOTERO_EXTRAS, Field.BIBTEX_EXTRAS));
        out.removeAll(NO_FIELD);
        out.addAll(ONE_TYPE);
        return out;
    }

    /** The fields an entry holds, in a file or a BibSonomy post: all but the variables BibTeX has no field for and the tool kinds' extras. */
    public static Set<Field> entryFields() {
        Set<Field> out = EnumSet.complementOf(EnumSet.copyOf(Field.EXTRAS));
        out.removeAll(NO_FIELD);
        return out;
    }

    /** Every BibTeX field this mapping reads, whatever the entry type (the others are an entry's extras). */
    public static final Set<String> READ = readFields();

    private static Set<String> readFields() {
        Set<String> out = new java.util.HashSet<>(PLAIN.values());
        out.addAll(Set.of("journal", "journaltitle", "booktitle", "howpublished", "school", "institution", "publisher", "number", "issue", "location",
                "author", "editor", "translator", "date", "year", "month", "day", "eprint", "eprinttype", "archiveprefix", "langid",
                "entrysubtype"));
        return Set.copyOf(out);
    }

    /** The key of the BibTeX extras that holds an entry type other than the one the record's type is written as ({@code @conference}, {@code @online} of a BibTeX file). */
    public static final String ENTRY_TYPE_EXTRA = "@type";

    /** BibTeX's name separator (compiled once; String.split compiled it per name list). */
    private static final Pattern AND = Pattern.compile("\\s+and\\s+");
    private static final Pattern YEAR = Pattern.compile("(?<!\\d)(\\d{4})(?!\\d)");
    private static final Pattern ISO_DATE = Pattern.compile("^\\s*(\\d{4})(?:-(\\d{1,2})(?:-(\\d{1,2}))?)?");
    private static final List<String> MONTHS = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");

    /** The CSL type of an entry: by its entry type, and for {@code @misc} and {@code @article} by its entrysubtype. */
    public static String cslType(Entry e) {
        String type = lower(e.type());
        String subtype = lower(e.get("entrysubtype"));
        if (type.equals("article") && ARTICLE_SUBTYPE.containsKey(subtype)) {
            return ARTICLE_SUBTYPE.get(subtype);
        }
        if (type.equals("misc") && Field.TYPES.contains(subtype) || type.equals("online") && ONLINE_SUBTYPES.contains(subtype)) {
            return subtype;
        }
        if (VIDEOS.contains(type) && (TV_SUBTYPES.contains(subtype) || subtype.equals("broadcast"))) {
            return "broadcast";
        }
        return CSL_TYPE.getOrDefault(type, "document");
    }

    /** The entry type a CSL type is written as when an entry is created or changes type. */
    public static String entryType(String cslType) {
        return ENTRY_TYPE.getOrDefault(cslType == null ? "document" : cslType, "misc");
    }

    /** The entry type a record is written as: by its CSL type, a thesis by its genre (a master's thesis is a {@code @mastersthesis}, as Better BibTeX writes one). */
    public static String entryType(Metadata m) {
        String own = m.extras(Field.BIBTEX_EXTRAS).get(ENTRY_TYPE_EXTRA); // the entry type of the file it came from, while it is of the record's type
        if (own != null && m.type() != null && (m.type().equals(CSL_TYPE.get(lower(own))) || VIDEOS.contains(lower(own)) && m.type().equals("broadcast"))) {
            return own;
        }
        return defaultEntryType(m);
    }

    /** The entry types BibTeX's own styles know; a file with no other, and without BibLaTeX's {@code date}, {@code journaltitle}, {@code location} or {@code options}, is in BibTeX's dialect. */
    public static final Set<String> BIBTEX_TYPES = Set.of("article", "book", "booklet", "conference", "inbook", "incollection", "inproceedings",
            "manual", "mastersthesis", "misc", "phdthesis", "proceedings", "techreport", "unpublished");
    public static final Set<String> BIBLATEX_FIELDS = Set.of("date", "journaltitle", "location", "options");

    /**
     * True if a file with entries of these types and fields is in BibTeX's own dialect: it has
     * entries, each of a type BibTeX's styles know, none with a field only BibLaTeX reads. A new entry
     * there is written so ({@link #entryType(Metadata, boolean)}): a file keeps its dialect.
     */
    public static boolean bibtexDialect(java.util.Collection<String> entryTypes, java.util.Collection<String> fieldNames) {
        return !entryTypes.isEmpty() && entryTypes.stream().allMatch(t -> BIBTEX_TYPES.contains(lower(t)))
                && fieldNames.stream().noneMatch(f -> BIBLATEX_FIELDS.contains(lower(f)));
    }

    /** The entry type a record is written as in a file of BibTeX's own dialect ({@code bibtexDialect}): BibLaTeX's own types ({@code @online}, {@code @software}…) as {@code @misc} with the CSL type as {@code entrysubtype}. */
    public static String entryType(Metadata m, boolean bibtexDialect) {
        return inDialect(entryType(m), bibtexDialect);
    }

    /** As {@link #defaultEntryType(Metadata)}, in a file of BibTeX's own dialect when {@code bibtexDialect}. */
    public static String defaultEntryType(Metadata m, boolean bibtexDialect) {
        return inDialect(defaultEntryType(m), bibtexDialect);
    }

    /** An entry type as a file of BibTeX's own dialect writes it: one BibTeX's styles do not know is a {@code @misc}. */
    private static String inDialect(String entryType, boolean bibtexDialect) {
        return bibtexDialect && !BIBTEX_TYPES.contains(lower(entryType)) ? "misc" : entryType;
    }

    /** The entry type a record is written as when no entry type of its own travels with it. */
    public static String defaultEntryType(Metadata m) {
        Object genre = m.get(Field.GENRE);
        if ("thesis".equals(m.type()) && genre != null && MASTERS.matcher(genre.toString()).find()) {
            return "mastersthesis";
        }
        if ("broadcast".equals(m.type()) && TV_BROADCAST.equals(m.extras(Field.ZOTERO_EXTRAS).get("itemType"))) {
            return "video"; // Better BibTeX's @video with entrysubtype tvbroadcast; a radio broadcast or a podcast stays a @misc saying so
        }
        return entryType(m.type());
    }

    /** A thesis type that names a master's degree (the words Better BibTeX and Zotero's translators read as one). */
    private static final Pattern MASTERS = Pattern.compile("(?i)\\bmaster|\\bm\\.?\\s?a\\.?\\b|\\bm\\.?\\s?sc?\\.?\\b|\\bmagist|\\bdiplom");

    /** The thesis type an entry type says by itself, without a {@code type} field: what Zotero's thesis type becomes. */
    public static String impliedGenre(String entryType) {
        return switch (lower(entryType)) {
            case "mastersthesis" -> "Master's thesis";
            case "phdthesis" -> "PhD thesis";
            default -> null;
        };
    }

    /**
     * The entrysubtype that completes {@link #entryType} for a record, or null: a film's or a video's
     * {@code @video} says which as Better BibTeX does ({@code film}, {@code video} for a Zotero video
     * recording, {@code tvbroadcast}).
     */
    static String entrySubtype(Metadata m) {
        String cslType = m.type();
        if (cslType == null) {
            return null;
        }
        if (cslType.equals("broadcast")) {
            return "tvbroadcast"; // the entry subtype of a broadcast's @video; a @misc names the CSL type
        }
        if (cslType.equals("motion_picture")) {
            return "videoRecording".equals(m.extras(Field.ZOTERO_EXTRAS).get("itemType")) ? "video" : "film";
        }
        for (Map.Entry<String, String> article : ARTICLE_SUBTYPE.entrySet()) {
            if (article.getValue().equals(cslType)) {
                return article.getKey();
            }
        }
        return ENTRY_TYPE.containsKey(cslType) && !ONLINE_SUBTYPES.contains(cslType) ? null : cslType;
    }

    /**
     * The BibTeX field that holds {@code f} in an entry of {@code entryType}, or null where the
     * entry type has no place for it (names, dates, notes, tags and the arXiv id are handled apart).
     */
    public static String fieldName(String entryType, Field f) {
        String t = lower(entryType);
        return switch (f) {
            case VENUE -> t.equals("article") || t.equals("periodical") ? "journal" : IN_BOOK.contains(t) || VIDEOS.contains(t) ? "booktitle"
                    : t.equals("online") ? "organization" // a web page's site, as Better BibTeX writes it
                    : t.equals(JURISDICTION) ? "journaltitle" // a case's reporter, as BibLaTeX's and Better BibTeX's @jurisdiction has it
                    : NO_CONTAINER.contains(t) ? null : "howpublished";
            case AUTHORITY -> t.equals(JURISDICTION) ? "institution" : null; // a case's court; no other entry type has a place for an authority
            case PUBLISHER -> THESES.contains(t) ? "school" : REPORTS.contains(t) ? "institution" : "publisher";
            case ISSUE -> t.equals("article") || t.equals("periodical") ? "number" : "issue";
            case COLLECTION_NUMBER -> BOOKS.contains(t) || IN_BOOK.contains(t) ? "number" : null;
            case NUMBER -> t.equals("article") || t.equals("periodical") || BOOKS.contains(t) || IN_BOOK.contains(t) ? null : "number";
            default -> PLAIN.get(f);
        };
    }

    private static String lower(String s) {
        return s == null ? "" : s.toLowerCase(Locale.ROOT).strip();
    }

    /** The canonical record an entry holds (all but notes, tags and the citation key, which each adapter reads its own way). */
    public static Metadata metadata(Entry e) {
        Metadata m = Metadata.EMPTY.with(Field.TYPE, cslType(e));
        for (Field f : MAPPED) {
            String name = f == Field.VENUE ? venueField(e) : fieldName(e.type(), f);
            if (name != null) {
                m = set(m, f, e.get(name));
            }
        }
        if (m.venue() == null && fieldName(e.type(), Field.VENUE) != null) {
            m = set(m, Field.VENUE, firstOf(e, VENUE_NAMES.toArray(String[]::new)));
        }
        for (Map.Entry<Field, String> other : OTHER_NAMES.entrySet()) { // BibLaTeX's name for a field, where the entry has no BibTeX one
            String name = fieldName(e.type(), other.getKey());
            if (m.get(other.getKey()) == null && name != null && e.get(name) == null && e.get(other.getValue()) != null) {
                m = set(m, other.getKey(), e.get(other.getValue()));
            }
        }
        if (m.get(Field.GENRE) == null && impliedGenre(e.type()) != null) { // a @mastersthesis is a master's thesis, though no field says so
            m = m.with(Field.GENRE, impliedGenre(e.type()));
        }
        boolean directors = directorsAsEditors(e);
        m = names(m, Field.AUTHORS, e.names(directors ? "editor" : "author"));
        m = names(m, Field.EDITORS, directors ? null : e.names("editor"));
        m = names(m, Field.TRANSLATORS, e.names("translator"));
        m = date(m, e);
        String eprintType = firstOf(e, "eprinttype", "archiveprefix");
        if (eprintType != null && lower(eprintType).equals("arxiv")) {
            m = set(m, Field.ARXIV, e.get("eprint"));
        }
        if (m.pmid() == null && eprintType != null && lower(eprintType).equals("pubmed")) {
            m = set(m, Field.PMID, e.get("eprint")); // BibLaTeX's (and Better BibTeX's) way of giving a PubMed id
        }
        return m;
    }

    /**
     * True if the entry is a video whose {@code editor} names its directors ({@code editortype =
     * {director}}), as BibLaTeX and Better BibTeX write a film's: read as the record's authors (a
     * film's first creators, as Zotero and CSL hold them), and written back there.
     */
    public static boolean directorsAsEditors(Entry e) {
        return VIDEOS.contains(lower(e.type())) && e.get("author") == null && lower(e.get("editortype")).equals("director");
    }

    private static String firstOf(Entry e, String... fields) {
        for (String f : fields) {
            if (e.get(f) != null) {
                return e.get(f);
            }
        }
        return null;
    }

    private static Metadata names(Metadata m, Field f, String bibtex) {
        return bibtex == null ? m : m.with(f, authors(bibtex));
    }

    /** Year, month and day from BibLaTeX's {@code date} (an ISO date), or from {@code year}, {@code month} and {@code day}. */
    private static Metadata date(Metadata m, Entry e) {
        String date = e.get("date");
        if (e.get("year") == null && date != null && (date.strip().startsWith("-") || ISO_DATE.matcher(date).find())) {
            return isoDate(m, date);
        }
        String year = e.get("year") != null ? e.get("year") : e.get("date");
        Matcher y = year == null ? null : YEAR.matcher(year);
        if (y != null && y.find()) {
            m = setNumber(m, Field.YEAR, y.group(1));
        }
        String month = e.get("month");
        if (month != null) {
            int named = MONTHS.indexOf(lower(month).length() >= 3 ? lower(month).substring(0, 3) : "");
            m = named >= 0 ? m.with(Field.MONTH, named + 1) : setNumber(m, Field.MONTH, month);
        }
        return setNumber(m, Field.DAY, e.get("day"));
    }

    /** The year, month and day an ISO (EDTF) date starts with; a range's start, a season's year (its month, 21–24, is none). */
    private static Metadata isoDate(Metadata m, String date) {
        if (date.strip().startsWith("-")) {
            return m; // a year before the common era (BibLaTeX's -0333): no year of the record's, which start at 1; the entry keeps it
        }
        Matcher iso = ISO_DATE.matcher(date);
        if (!iso.find()) {
            return m;
        }
        m = setNumber(m, Field.YEAR, iso.group(1));
        m = iso.group(2) == null ? m : setNumber(m, Field.MONTH, iso.group(2));
        return iso.group(2) == null || iso.group(3) == null || m.month() == null ? m : setNumber(m, Field.DAY, iso.group(3));
    }

    /** An EDTF date as BibLaTeX reads one: a day, month or year, qualified (~ ? %), unspecified digits (199X), a season, an open or closed range. */
    private static final Pattern EDTF = Pattern.compile(
            "(?:-?\\d{4}|\\d{2}[\\dXu]{2}|\\d{3}[\\dXu])(?:-(?:\\d{2}|XX|uu)(?:-(?:\\d{2}|XX|uu))?)?[~?%]?(?:/(?:\\.\\.)?(?:-?\\d{4}(?:-\\d{2}(?:-\\d{2})?)?[~?%]?)?)?");

    /** True if {@code date} says more than a plain year, month and day: what {@code year}, {@code month} and {@code day} cannot carry. */
    public static boolean saysMoreThanParts(String date) {
        String d = date == null ? "" : date.strip();
        return EDTF.matcher(d).matches() && !d.matches("\\d{4}(?:-(?:0[1-9]|1[0-2])(?:-\\d{2})?)?"); // 1988-23 is a season, no month
    }

    /**
     * The date to write whole as BibLaTeX's {@code date}: what a .bib copy's {@code date} said or what
     * Zotero's date field holds, as EDTF (a range, a season, circa, 199X, a year before the common era;
     * "June 18–23, 2017" is {@code 2017-06-18/2017-06-23}), where the record's year, month and day are
     * still the ones it starts with; else null.
     */
    public static String wholeDate(Metadata m) {
        for (Field part : List.of(Field.BIBTEX_EXTRAS, Field.ZOTERO_EXTRAS)) {
            String d = m.extras(part).get("date");
            d = d == null ? null : part == Field.ZOTERO_EXTRAS ? edtf(d) : d;
            if (d != null && saysMoreThanParts(d)) {
                Metadata parts = isoDate(Metadata.EMPTY, d);
                if (Objects.equals(parts.year(), m.year()) && Objects.equals(parts.month(), m.month()) && Objects.equals(parts.day(), m.day())) {
                    return d.strip();
                }
            }
        }
        return null;
    }

    private static final String MONTH_WORD = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?";
    private static final Pattern SEASON = Pattern.compile("(?i)(spring|summer|autumn|fall|winter)\\s+(\\d{4})");
    private static final Pattern DAYS_OF_MONTH = Pattern.compile("(?i)" + MONTH_WORD + "\\s+(\\d{1,2})\\s*[–—-]\\s*(\\d{1,2}),?\\s+(\\d{4})");
    private static final Pattern DAYS_BEFORE_MONTH = Pattern.compile("(?i)(\\d{1,2})\\s*[–—-]\\s*(\\d{1,2})\\s+" + MONTH_WORD + ",?\\s+(\\d{4})");
    private static final Pattern DAYS_OF_TWO_MONTHS = Pattern.compile(
            "(?i)" + MONTH_WORD + "\\s+(\\d{1,2})\\s*[–—-]\\s*" + MONTH_WORD + "\\s+(\\d{1,2}),?\\s+(\\d{4})");
    private static final Pattern YEARS = Pattern.compile("(\\d{4})\\s*[–—-]{1,2}\\s*(\\d{4})");
    private static final Pattern CIRCA = Pattern.compile("(?i)(?:c\\.|ca\\.?|circa)\\s*(\\d{4})");

    /**
     * A date as typed in Zotero, in EDTF where it is one of the forms that say more than a day: a
     * season ("Summer 1993" → {@code 1993-22}), a run of days ("June 18–23, 2017", "18–23 June 2017",
     * "June 28 – July 2, 2017"), of years ("1993–1995"), circa ("ca. 1990" → {@code 1990~}); a date
     * already in EDTF as it is; else null.
     */
    static String edtf(String typed) {
        String t = typed.strip();
        if (saysMoreThanParts(t)) {
            return t;
        }
        Matcher m = SEASON.matcher(t);
        if (m.matches()) {
            int season = List.of("spring", "summer", "autumn", "winter").indexOf(lower(m.group(1)).equals("fall") ? "autumn" : lower(m.group(1)));
            return m.group(2) + "-" + (21 + season);
        }
        if ((m = DAYS_OF_MONTH.matcher(t)).matches()) {
            return run(day(m.group(4), m.group(1), m.group(2)), day(m.group(4), m.group(1), m.group(3)));
        }
        if ((m = DAYS_BEFORE_MONTH.matcher(t)).matches()) {
            return run(day(m.group(4), m.group(3), m.group(1)), day(m.group(4), m.group(3), m.group(2)));
        }
        if ((m = DAYS_OF_TWO_MONTHS.matcher(t)).matches()) {
            return run(day(m.group(5), m.group(1), m.group(2)), day(m.group(5), m.group(3), m.group(4)));
        }
        if ((m = YEARS.matcher(t)).matches()) {
            return m.group(1) + "/" + m.group(2);
        }
        if ((m = CIRCA.matcher(t)).matches()) {
            return m.group(1) + "~";
        }
        return null;
    }

    /** {@code YYYY-MM-DD}, or null for a day no month has (a run of days written wrong stays as typed, in Zotero). */
    private static String day(String year, String month, String day) {
        int d = Integer.parseInt(day);
        return d < 1 || d > 31 ? null : String.format(Locale.ROOT, "%s-%02d-%02d", year, MONTHS.indexOf(lower(month).substring(0, 3)) + 1, d);
    }

    /** A run from one day to another, or null where either is no day. */
    private static String run(String from, String to) {
        return from == null || to == null ? null : from + "/" + to;
    }

    /** A month or day that is a number in range, else nothing (BibTeX has free text there: "Spring", "1--3"). */
    private static Metadata setNumber(Metadata m, Field f, String v) {
        try {
            return v == null ? m : m.with(f, f.fromText(v));
        } catch (RuntimeException notANumber) {
            return m;
        }
    }

    private static Metadata set(Metadata m, Field f, String v) {
        return v == null || v.isBlank() ? m : m.with(f, f.fromToolText(v));
    }

    /**
     * {@code m} without the fields an entry of its type has no place for (a book has no container,
     * an article no series number): what an entry written from {@code m} holds, so a sync does not
     * owe the entry a field it cannot take.
     */
    public static Metadata holdable(Metadata m) {
        return holdable(m, false);
    }

    /** As above, in a file of BibTeX's own dialect when {@code bibtexDialect}. */
    public static Metadata holdable(Metadata m, boolean bibtexDialect) {
        String entryType = entryType(m, bibtexDialect);
        for (Field f : List.of(Field.VENUE, Field.COLLECTION_NUMBER, Field.NUMBER, Field.AUTHORITY)) {
            if (fieldName(entryType, f) == null && m.get(f) != null) {
                m = m.with(f, null);
            }
        }
        return m;
    }

    /** The BibTeX month macro ({@code jan} … {@code dec}) of a month number. */
    public static String monthMacro(int month) {
        return MONTHS.get(month - 1);
    }

    /**
     * Writes into {@code e} the fields that differ between {@code before} (as last synced, or
     * {@link Metadata#EMPTY} for a new entry) and {@code after}, and nothing else. The entry type
     * changes only when the entry does not already read as the new type (an {@code @inbook} stays
     * one while it is a chapter); values held in fields whose name depends on the type then move to
     * the new type's fields.
     */
    public static void applyChanges(Entry e, Metadata before, Metadata after) {
        String oldType = e.type();
        if (!Objects.equals(before.type(), after.type()) && after.type() != null && !cslType(e).equals(after.type())) {
            e.type(entryType(after, e.bibtexDialect()));
            String subtype = "misc".equalsIgnoreCase(e.type()) && !"document".equals(after.type()) ? after.type() : entrySubtype(after);
            if (subtype != null || e.get("entrysubtype") != null) {
                e.set("entrysubtype", subtype);
            }
            for (Field f : MAPPED) {
                String from = fieldName(oldType, f);
                String to = fieldName(e.type(), f);
                if (from != null && !from.equals(to) && e.get(from) != null && Objects.equals(text(before.get(f)), e.get(from))) {
                    if (to == null) {
                        e.set(from, null);
                    } else if (e.get(to) == null) {
                        e.move(from, to);
                    }
                }
            }
        } else if (before.type() == null && after.type() != null && e.get("entrysubtype") == null && entrySubtype(after) != null) {
            e.set("entrysubtype", entrySubtype(after)); // a new entry whose type reads as the record's already: a film's @video says film
        }
        for (Field f : MAPPED) {
            String name = fieldName(e.type(), f); // null for the type, names, dates and the arXiv id: below
            if (name != null && OTHER_NAMES.containsKey(f) && e.get(name) == null && e.get(OTHER_NAMES.get(f)) != null) {
                name = OTHER_NAMES.get(f); // an entry that says it by BibLaTeX's name keeps saying it there
            }
            if (f == Field.VENUE) {
                name = venueField(e); // an entry that names its container otherwise keeps naming it so
            }
            if (f == Field.PMID && e.get("pmid") == null && pubmedEprint(e, after)) {
                if (changed(before, after, f)) { // BibLaTeX's (and Better BibTeX's) way of giving a PubMed id
                    e.set("eprint", after.pmid());
                    e.set("eprinttype", after.pmid() == null ? null : "pubmed");
                }
                continue;
            }
            if (name != null && changed(before, after, f)) {
                String value = text(after.get(f));
                // the thesis type its entry type says already is not written again in a type field
                e.set(name, f == Field.GENRE && Objects.equals(value, impliedGenre(e.type())) ? null : value);
            }
        }
        // a video's directors are its editor (editortype director) where the entry has them so, or has neither list and the record no editors
        boolean directors = directorsAsEditors(e)
                || VIDEOS.contains(lower(e.type())) && e.get("author") == null && e.get("editor") == null && after.editors().isEmpty();
        if (directors && changed(before, after, Field.AUTHORS)) {
            e.set("editortype", after.authors().isEmpty() ? null : "director");
        }
        for (Map.Entry<Field, String> names : Map.of(Field.AUTHORS, directors ? "editor" : "author", Field.EDITORS, "editor", Field.TRANSLATORS,
                "translator").entrySet()) {
            if (directors && names.getKey() == Field.EDITORS) {
                continue; // the list holds the directors
            }
            if (changed(before, after, names.getKey())) {
                List<?> list = (List<?>) after.get(names.getKey());
                e.set(names.getValue(), list.isEmpty() ? null : authorList(list.stream().map(Author.class::cast).toList()));
            }
        }
        if (changed(before, after, Field.YEAR) || changed(before, after, Field.MONTH) || changed(before, after, Field.DAY)
                || e.keepsWholeDates() && !Objects.equals(wholeDate(before), wholeDate(after))) {
            writeDate(e, before, after);
        }
        if (changed(before, after, Field.ARXIV)) {
            e.set("eprint", after.arxiv());
            if (after.arxiv() != null && e.get("eprinttype") == null && e.get("archiveprefix") == null) {
                // BibTeX's styles and arXiv's own export name it archivePrefix; BibLaTeX, eprinttype
                e.set(e.bibtexDialect() ? "archiveprefix" : "eprinttype", e.bibtexDialect() ? "arXiv" : "arxiv");
            } else if (after.arxiv() == null && e.get("eprinttype") != null && lower(e.get("eprinttype")).equals("arxiv")) {
                e.set("eprinttype", null);
            } else if (after.arxiv() == null && e.get("archiveprefix") != null && lower(e.get("archiveprefix")).equals("arxiv")) {
                e.set("archiveprefix", null);
            }
        }
        if (changed(before, after, Field.URL)) { // in either dialect, as Better BibTeX writes it: BibTeX's styles pass over eprint
            String[] was = urlEprint(before.url());
            String[] now = urlEprint(after.url());
            boolean derived = was != null && was[0].equalsIgnoreCase(Objects.toString(e.get("eprinttype"), "")) && was[1].equals(e.get("eprint"));
            boolean free = e.get("eprint") == null && e.get("eprinttype") == null && e.get("archiveprefix") == null;
            if (derived || free && now != null) { // the eprint an address names, as it changes; one the entry gives otherwise stays
                e.set("eprinttype", now == null ? null : now[0]);
                e.set("eprint", now == null ? null : now[1]);
            }
        }
    }

    /** Addresses that name an archive's own id, and the {@code eprinttype} BibLaTeX links it by (Better BibTeX's list; PubMed's is a {@link Field#PMID}). */
    private static final List<Map.Entry<String, Pattern>> URL_EPRINTS = List.of(
            Map.entry("jstor", Pattern.compile("^https?://www\\.jstor\\.org/stable/([^\\s?#]+)(?:[?#].*)?$", Pattern.CASE_INSENSITIVE)),
            Map.entry("googlebooks", Pattern.compile("^https?://books\\.google\\.com/books\\?id=([^\\s&#]+)$", Pattern.CASE_INSENSITIVE)),
            Map.entry("hdl", Pattern.compile("^https?://hdl\\.handle\\.net/([^/\\s]+/\\S+)$", Pattern.CASE_INSENSITIVE)));

    /**
     * The eprint an address names, as Better BibTeX writes it ({@code eprinttype} and
     * {@code eprint}: a JSTOR, Google Books or Handle address), or null. Written with the address
     * and not read back: the address says it, so it is no value of the record's.
     */
    static String[] urlEprint(String url) {
        if (url == null) {
            return null;
        }
        for (Map.Entry<String, Pattern> p : URL_EPRINTS) {
            java.util.regex.Matcher m = p.getValue().matcher(url.strip());
            if (m.matches()) {
                return new String[] {p.getKey(), java.net.URLDecoder.decode(m.group(1).replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8)};
            }
        }
        return null;
    }

    /** A PubMed address's id ({@code https://www.ncbi.nlm.nih.gov/pubmed/123}), or null. */
    public static String pubmedIdOf(String url) {
        java.util.regex.Matcher m = url == null ? null : PUBMED_URL.matcher(url.strip());
        return m != null && m.find() ? m.group(1) : null;
    }

    private static final Pattern PUBMED_URL = Pattern.compile("^https?://www\\.ncbi\\.nlm\\.nih\\.gov/pubmed/(\\d+)", Pattern.CASE_INSENSITIVE);

    /** An arXiv id as Zotero keeps it with its subject classes: {@code 2005.14017 [cs, eess]}. */
    private static final Pattern ARXIV_WITH_CLASS = Pattern.compile("^\\s*(\\S+)\\s*\\[([^\\]]+)]\\s*$");

    /**
     * An arXiv id with its subject classes ({@code 2005.14017 [cs, eess]}) as a BibTeX entry says it:
     * {@code eprint} the id alone (BibLaTeX links it to arxiv.org/abs/ and the classes would break the
     * link), the classes in {@code eprintclass} (BibTeX's dialect: {@code primaryclass}); an id without
     * classes, or none, as it is. Returns the id and the classes' field and value, or null.
     */
    public static String[] arxivParts(String arxiv, boolean bibtexDialect) {
        java.util.regex.Matcher m = arxiv == null ? null : ARXIV_WITH_CLASS.matcher(arxiv);
        return m == null || !m.matches() ? null : new String[] {m.group(1), bibtexDialect ? "primaryclass" : "eprintclass", m.group(2).strip()};
    }

    /** The fields an entry may name its container by, as read when the one its type writes is absent. */
    private static final List<String> VENUE_NAMES = List.of("journal", "journaltitle", "booktitle", "howpublished");

    /**
     * The field the entry's container is read from and written to: the first the entry has of the one
     * its type writes and {@link #VENUE_NAMES}, else the one its type writes; null where its type has
     * no container. A web page's {@code organization} comes after the others, so that an {@code @online}
     * written with {@code howpublished} (as Idiom wrote one before) reads and is written as it was.
     */
    public static String venueField(Entry e) {
        String own = fieldName(e.type(), Field.VENUE);
        if (own == null) {
            return null;
        }
        List<String> names = new ArrayList<>(VENUE_NAMES);
        names.add(own.equals("organization") ? names.size() : 0, own);
        return names.stream().filter(n -> e.get(n) != null).findFirst().orElse(own);
    }

    /**
     * Whether the entry gives its PubMed id as {@code eprint} with {@code eprinttype = {pubmed}}: where
     * it does already, or where the eprint is free (no arXiv id) and no {@code pmid} field is written (in
     * either dialect, as Better BibTeX writes it).
     */
    private static boolean pubmedEprint(Entry e, Metadata after) {
        String type = e.get("eprinttype");
        return type != null ? lower(type).equals("pubmed")
                : e.get("eprint") == null && e.get("archiveprefix") == null && after.arxiv() == null;
    }

    /** BibLaTeX's {@code date} where the entry has one and no {@code year}; else {@code year}, {@code month} (a macro) and {@code day}. */
    private static void writeDate(Entry e, Metadata before, Metadata after) {
        String whole = e.keepsWholeDates() && e.get("year") == null ? wholeDate(after) : null;
        if (whole != null) { // a range, a season, circa: what year, month and day cannot say
            e.set("date", whole);
            e.set("month", null);
            e.set("day", null);
            return;
        }
        if (e.get("year") == null && e.get("date") != null) {
            e.set("date", after.year() == null ? null : after.year()
                    + (after.month() == null ? "" : String.format("-%02d", after.month())
                    + (after.day() == null ? "" : String.format("-%02d", after.day()))));
            return;
        }
        if (changed(before, after, Field.YEAR)) {
            e.set("year", text(after.year()));
        }
        if (changed(before, after, Field.MONTH)) {
            e.set("month", after.month() == null ? null : monthMacro(after.month()));
        }
        if (changed(before, after, Field.DAY)) {
            e.set("day", text(after.day()));
        }
    }

    private static boolean changed(Metadata before, Metadata after, Field f) {
        return !Objects.equals(before.get(f), after.get(f));
    }

    private static String text(Object v) {
        return v == null ? null : v.toString();
    }

    /**
     * "Family, Given and Family2, Given2"; a name with no given part (an institution, a mononym) is
     * one literal name: in braces when it has more than one word, or BibTeX would read its last word
     * as the family name ({@code JTC 1/SC 22/WG 14} → "14").
     */
    public static String authorList(List<Author> authors) {
        return String.join(" and ", authors.stream().map(BibTeXMapping::bibtexName).toList());
    }

    /**
     * One name as BibTeX writes it. A suffix is in the given part after a comma, as Zotero and
     * citeproc-js keep it ("Martin Luther, Jr."); BibTeX's form for it is "Family, Jr., Given" (written
     * "Family, Given, Jr." BibTeX reads "Given" as the suffix and "Jr." as the given name).
     */
    private static String bibtexName(Author a) {
        if (a.given().isEmpty()) {
            return LITERAL_NEEDS_BRACES.matcher(a.family()).find() ? "{" + a.family() + "}" : a.family();
        }
        String family = a.family().indexOf(',') >= 0 ? "{" + a.family() + "}" : a.family();
        int comma = a.given().indexOf(',');
        return comma < 0 ? family + ", " + a.given()
                : family + ", " + a.given().substring(comma + 1).strip() + ", " + a.given().substring(0, comma).strip();
    }

    /** What makes a lone family name more than one BibTeX name part: a space, a comma, or a tilde. */
    private static final Pattern LITERAL_NEEDS_BRACES = Pattern.compile("[\\s,~]");

    /**
     * A BibTeX name list: "Family, Given", "Family, Jr., Given" (given "Given, Jr.", as Zotero keeps a
     * suffix) or "Given Family", joined by "and" outside braces; a name wholly in braces is one literal
     * name (family only); "others" dropped.
     */
    public static List<Author> authors(String bibtex) {
        List<Author> authors = new ArrayList<>();
        for (String name : topLevelNames(bibtex)) {
            String n = name.strip();
            if (n.isEmpty() || n.equalsIgnoreCase("others")) {
                continue;
            }
            if (Braces.wholeBraced(n)) {
                String literal = n.substring(1, n.length() - 1).strip();
                if (!literal.isEmpty()) {
                    authors.add(new Author(literal, ""));
                }
                continue;
            }
            List<String> parts = topLevelParts(n);
            if (parts.size() >= 3) { // "Family, Jr., Given": the suffix after the given names and a comma, as Zotero keeps it
                String family = parts.get(0).strip();
                String middle = parts.get(1).strip();
                String last = String.join(", ", parts.subList(2, parts.size())).strip();
                // "Family, Given, Jr." is how Idiom wrote a suffix until 2026-11-27: read as it was meant, not as BibTeX would
                boolean oldForm = !SUFFIX.matcher(middle).matches() && SUFFIX.matcher(last).matches();
                authors.add(new Author(Braces.wholeBraced(family) ? family.substring(1, family.length() - 1) : family,
                        oldForm ? middle + ", " + last : last + ", " + middle));
            } else if (parts.size() == 2) {
                String family = parts.get(0).strip();
                authors.add(new Author(Braces.wholeBraced(family) && family.indexOf(',') >= 0 ? family.substring(1, family.length() - 1) : family,
                        parts.get(1)));
            } else {
                int space = n.lastIndexOf(' ');
                authors.add(space < 0 ? new Author(n, "") : new Author(n.substring(space + 1), n.substring(0, space)));
            }
        }
        return authors;
    }

    /**
     * A name written "First von Last" split as BibTeX splits it (Patashnik's btxdoc, "Tame the BeaST"
     * §11), before LaTeX is read, since braces decide: words part at white space and ties outside
     * braces (not at the space a control word eats); the von part begins at the first word, but the
     * last, whose case is lower; the family name is the von part with all that follows it ("Valeria de Paiva":
     * family "de Paiva", as Zotero and CSL's non-dropping particle keep it); a braced word has no case
     * ("{van} Gogh": given "{van}"). Null when the name has one word.
     */
    public static String[] firstVonLast(String name) {
        List<String> words = Braces.split(name, i -> Character.isWhitespace(name.charAt(i)) && !afterControlWord(name, i) || name.charAt(i) == '~', null)
                .stream().filter(w -> !w.isEmpty()).toList();
        if (words.size() < 2) {
            return null;
        }
        int von = -1;
        for (int w = 0; w < words.size() - 1 && von < 0; w++) {
            von = lowerCase(words.get(w)) ? w : -1;
        }
        int family = von < 0 ? words.size() - 1 : von;
        return new String[] {String.join(" ", words.subList(family, words.size())), String.join(" ", words.subList(0, family))};
    }

    /** Whether the space at {@code i} follows a control word ({@code Wei\\ss becker}): TeX eats it, so it parts no words. */
    private static boolean afterControlWord(String name, int i) {
        int j = i;
        while (j > 0 && Character.isLetter(name.charAt(j - 1)) && name.charAt(j - 1) < 128) {
            j--;
        }
        return j < i && j > 0 && name.charAt(j - 1) == '\\' && (j < 2 || name.charAt(j - 2) != '\\');
    }

    /** A word's case as BibTeX sees it: its first letter outside braces, or the letter of a leading {@code {\"u}}; none for other braced words. */
    private static boolean lowerCase(String word) {
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c == '{') {
                if (i + 1 < word.length() && word.charAt(i + 1) == '\\') { // a special character: the case of its letter
                    for (int j = i + 2; j < word.length() && word.charAt(j) != '}'; j++) {
                        if (Character.isLetter(word.charAt(j))) {
                            return Character.isLowerCase(word.charAt(j));
                        }
                    }
                    return false;
                }
                i = Braces.closing(word, i); // a braced group has no case: skipped
                if (i < 0) {
                    return false;
                }
            } else if (c == '\\') {
                i++; // \'e outside braces: the accent's letter decides
            } else if (Character.isLetter(c)) {
                return Character.isLowerCase(c);
            }
        }
        return false;
    }

    /** A name's suffix: Jr., Sr., a generation's numeral. */
    private static final Pattern SUFFIX = Pattern.compile("(?i)(jr|sr|jun|sen|junior|senior)\\.?|[IVX]{1,5}|\\d(st|nd|rd|th)");

    /** A name's parts, split at each comma that stands outside braces. */
    public static List<String> topLevelParts(String name) {
        return Braces.split(name, i -> name.charAt(i) == ',', null);
    }

    /** The names of a list, split at each "and" that stands outside braces. */
    public static List<String> topLevelNames(String bibtex) {
        return Braces.split(bibtex, i -> Character.isWhitespace(bibtex.charAt(i)), AND);
    }

    /** Letters without a decomposition to ASCII, and Cyrillic and Greek, as key parts spell them (Better BibTeX's keys are ASCII too). */
    private static final Map<Character, String> TRANSLITERATED = transliterations();

    private static Map<Character, String> transliterations() {
        Map<Character, String> t = new java.util.HashMap<>();
        String[] latin = {"ł", "l", "ø", "o", "ß", "ss", "æ", "ae", "œ", "oe", "đ", "d", "ð", "d", "þ", "th", "ı", "i", "ŋ", "ng", "ħ", "h"};
        for (int i = 0; i < latin.length; i += 2) {
            t.put(latin[i].charAt(0), latin[i + 1]);
        }
        String cyrillic = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґ";
        String[] cyrillicLatin = {"a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u", "f", "kh",
            "ts", "ch", "sh", "shch", "", "y", "", "e", "iu", "ia", "i", "i", "ie", "g"};
        for (int i = 0; i < cyrillic.length(); i++) {
            t.put(cyrillic.charAt(i), cyrillicLatin[i]);
        }
        String greek = "αβγδεζηθικλμνξοπρσςτυφχψω";
        String[] greekLatin = {"a", "b", "g", "d", "e", "z", "e", "th", "i", "k", "l", "m", "n", "x", "o", "p", "r", "s", "s", "t", "y", "ph", "ch",
            "ps", "o"};
        for (int i = 0; i < greek.length(); i++) {
            t.put(greek.charAt(i), greekLatin[i]);
        }
        return Map.copyOf(t);
    }

    /**
     * Text as part of a new citation key: ASCII letters and digits only, lower case — accents taken
     * off, other Latin letters, Cyrillic and Greek transliterated, anything else left out — so a key
     * works in every BibTeX, BibLaTeX and LaTeX {@code \cite}.
     */
    public static String keyPart(String text) {
        if (text == null) {
            return "";
        }
        String bare = java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFD).toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(bare.length());
        for (int i = 0; i < bare.length(); i++) {
            char c = bare.charAt(i);
            if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
                out.append(c);
            } else if (TRANSLITERATED.containsKey(c)) {
                out.append(TRANSLITERATED.get(c));
            }
        }
        return out.toString();
    }
}
