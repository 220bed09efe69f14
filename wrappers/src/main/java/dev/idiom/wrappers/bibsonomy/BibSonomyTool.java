package dev.idiom.wrappers.bibsonomy;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.BibTeXMapping;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RecordRefusedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.SafeXml;
import dev.idiom.wrappers.Skipped;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolLimits;
import dev.idiom.wrappers.http.ToolHttp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * BibSonomy's REST API. Posts of publications ({@code <bibtex>}) and bookmarks
 * ({@code <bookmark>}) are keyed by their intrahash, which changes when the post's identifying
 * content does: {@link #update} returns the new hash and the replica is re-keyed, and a post
 * edited on the site under a new hash is recognised as the same copy by its BibTeX key
 * ({@link #succeeds}). The change date is the version. BibSonomy has no write preconditions, so
 * an update re-reads the post first and refuses when its change date moved.
 *
 * <p>A PUT replaces the whole post, so an update re-sends the post exactly as BibSonomy returned
 * it — its groups (who may see it), its BibTeX key, every attribute (editor, number, month, series,
 * edition, misc with its ISBN/ISSN…) — with only the fields Idiom changed written through the
 * shared {@link BibTeXMapping}. New posts go to the {@code private} group unless the account says
 * otherwise. Required fields are checked before sending: title, year, BibTeX key, entry type and
 * author or editor for publications; URL and title for bookmarks.
 */
public final class BibSonomyTool implements AnnotationTool {
    public static final ToolLimits LIMITS = new ToolLimits(20, Duration.ofMillis(200), 2);
    /** The BibTeX fields a {@code <bibtex>} element has attributes for (BibSonomy's XML schema); the rest live in {@code misc}. */
    private static final java.util.Set<String> ATTRIBUTES = java.util.Set.of("address", "annote", "author", "booktitle", "chapter",
            "crossref", "day", "edition", "editor", "howpublished", "institution", "journal", "month", "note", "number", "organization",
            "pages", "publisher", "school", "series", "title", "type", "url", "volume", "year", "entrytype", "bibtexKey");

    /** One {@code name = {value}} entry of {@code misc}. */
    private static Pattern miscField(String name) {
        return Pattern.compile("(^|,)\\s*" + Pattern.quote(name) + "\\s*=\\s*\\{([^}]*)\\}\\s*", Pattern.CASE_INSENSITIVE);
    }

    private final URI base;
    private final String user;
    private final String authorization;
    private final ToolHttp http;
    private final boolean createPrivate;

    /** @param base the API root, e.g. https://www.bibsonomy.org/api */
    public BibSonomyTool(URI base, String user, String apiKey, ToolHttp http) {
        this(base, user, apiKey, http, true);
    }

    /** @param createPrivate whether posts Idiom creates go to the private group (else public) */
    public BibSonomyTool(URI base, String user, String apiKey, ToolHttp http, boolean createPrivate) {
        this.base = URI.create(base.toString().replaceAll("/+$", ""));
        this.user = user;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString((user + ":" + apiKey).getBytes(StandardCharsets.UTF_8));
        this.http = http;
        this.createPrivate = createPrivate;
    }

    /** A post's version is its change date. */
    @Override
    public java.time.Instant modifiedAt(RemoteRecord record) {
        return AnnotationTool.isoTime(record.version());
    }

    /** A post holds what a BibTeX entry holds (other fields in {@code misc}); not the tool kinds' extras. */
    @Override
    public java.util.Set<dev.idiom.events.Field> fieldsKept() {
        return BibTeXMapping.entryFields();
    }

    @Override
    public String kind() {
        return "bibsonomy";
    }

    @Override
    public boolean keepsPrivate() {
        return true;
    }

    @Override
    public String account() {
        return user;
    }

    @Override
    public ToolLimits limits() {
        return LIMITS;
    }

    private HttpResponse<String> send(String method, String pathAndQuery, String xml) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).header("Authorization", authorization)
                .timeout(Duration.ofSeconds(60));
        if (xml != null) {
            b.header("Content-Type", "application/xml").method(method, HttpRequest.BodyPublishers.ofString(xml));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return http.send(b.build());
    }

    private String postsPath() {
        return "/users/" + ToolHttp.segment(user) + "/posts";
    }

    /** How often a pull reads the whole listing (to see deletions and edits of older posts); between, pulls read only the newest pages. */
    public static final java.time.Duration FULL_LISTING_EVERY = java.time.Duration.ofMinutes(15);

    /**
     * BibSonomy lists no deletions and orders posts by posting date, newest first; an edit of an old
     * post moves its change date, not its place. So a pull reads the whole listing (publications,
     * then bookmarks, along the {@code next} links) at most every {@link #FULL_LISTING_EVERY}: it
     * returns the posts changed since the last pull, names the others as present, and is complete
     * (a post Idiom knows and it does not show was deleted) unless a post could not be read. Between
     * whole listings a pull reads pages only until it meets a post no newer than the newest it had
     * seen: new posts and edits of the newest come in at once, edits of older posts and deletions at
     * the next whole listing. Cursor: "v2;newest change;newest posting;last whole listing" (older
     * cursors are read as their newest change date, and the next pull lists everything).
     */
    @Override
    public ChangePage changedSince(String cursor) {
        String[] c = cursor(cursor);
        String since = c[0];
        String posted = c[1];
        java.time.Instant now = http.clock().instant();
        boolean whole = c[2].isEmpty() || !now.isBefore(java.time.Instant.parse(c[2]).plus(FULL_LISTING_EVERY));
        String newest = since;
        String newestPosted = posted;
        List<RemoteRecord> records = new ArrayList<>();
        List<String> present = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        for (String type : List.of("publication", "bookmark")) {
            int start = 0;
            boolean older = false;
            while (!older) {
                Document doc = ok(send("GET", postsPath() + "?resourcetype=" + type + "&start=" + start + "&end=" + (start + LIMITS.maxBatch()), null),
                        200, "list posts");
                NodeList posts = doc.getElementsByTagName("post");
                for (int i = 0; i < posts.getLength(); i++) {
                    Element post = (Element) posts.item(i);
                    String postedAt = post.getAttribute("postingdate");
                    older |= !whole && !later(postedAt, posted); // the rest of this listing was posted before the last pull saw it
                    if (later(postedAt, newestPosted)) {
                        newestPosted = postedAt;
                    }
                    try {
                        RemoteRecord rec = record(post);
                        if (later(rec.version(), since)) {
                            records.add(rec);
                        } else {
                            present.add(rec.remoteId());
                        }
                        if (later(rec.version(), newest)) {
                            newest = rec.version();
                        }
                    } catch (RuntimeException bad) {
                        skipped.add(new Skipped(null, "unreadable BibSonomy post: " + bad.getMessage()));
                    }
                }
                Element list = (Element) doc.getElementsByTagName("posts").item(0);
                if (list == null || list.getAttribute("next").isBlank() || posts.getLength() == 0) {
                    break;
                }
                start += posts.getLength();
            }
        }
        String next = String.join(";", "v2", newest, newestPosted, whole ? now.toString() : c[2]);
        return new ChangePage(records, List.of(), skipped, next, false, whole && skipped.isEmpty(), whole ? present : List.of());
    }

    /** A cursor's newest change date, newest posting date and last whole listing ("" where unknown). */
    private static String[] cursor(String cursor) {
        if (cursor == null) {
            return new String[] {"", "", ""};
        }
        String[] c = cursor.split(";", -1);
        if (c.length == 4 && c[0].equals("v2")) {
            return new String[] {c[1], c[2], c[3]};
        }
        if (c.length == 2 && c[0].equals("done")) {
            return new String[] {c[1], "", ""};
        }
        if (c.length == 4) { // "type;start;since;newest" of an earlier release
            return new String[] {c[2], "", ""};
        }
        throw new ToolException("not a BibSonomy sync cursor: " + cursor);
    }

    /** Offset pages shift when a post is deleted between two of them: a post a listing leaves out may still be there. */
    @Override
    public boolean listingMayMissRecords() {
        return true;
    }

    /** Whether change date {@code a} is after {@code b} ("" is before everything). */
    private static boolean later(String a, String b) {
        if (b == null || b.isEmpty()) {
            return true;
        }
        try {
            return OffsetDateTime.parse(a).isAfter(OffsetDateTime.parse(b));
        } catch (DateTimeParseException e) {
            try {
                return Instant.parse(a).isAfter(Instant.parse(b));
            } catch (DateTimeParseException e2) {
                return a.compareTo(b) > 0;
            }
        }
    }

    /** A {@code <bibtex>} element as the shared BibTeX mapping sees it: its attributes, DOI inside {@code misc}. */
    private record View(Element bibtex) implements BibTeXMapping.Entry {
        @Override
        public String type() {
            return bibtex.getAttribute("entrytype");
        }

        @Override
        public void type(String entryType) {
            bibtex.setAttribute("entrytype", entryType);
        }

        @Override
        public String get(String field) {
            String v;
            if (field.equals("abstract")) {
                v = bibtex.getAttribute("bibtexAbstract");
            } else if (ATTRIBUTES.contains(field)) {
                v = bibtex.getAttribute(field);
            } else {
                Matcher m = miscField(field).matcher(bibtex.getAttribute("misc"));
                v = m.find() ? m.group(2) : null;
            }
            return v == null || v.isBlank() ? null : v.strip();
        }

        /** A field BibSonomy has no attribute for (doi, isbn, issn, eprint…) lives in {@code misc} as {@code name = {value}}. */
        @Override
        public void set(String field, String value) {
            boolean clear = value == null || value.isEmpty();
            if (field.equals("abstract")) {
                attribute("bibtexAbstract", clear ? null : value);
            } else if (ATTRIBUTES.contains(field)) {
                attribute(field, clear ? null : value);
            } else {
                // misc holds other fields too: only this one's entry is touched
                String misc = miscField(field).matcher(bibtex.getAttribute("misc")).replaceAll("$1").replaceAll("^\\s*,\\s*|\\s*,\\s*$", "").strip();
                misc = clear ? misc : (misc.isEmpty() ? "" : misc + ", ") + field + " = {" + value + "}";
                attribute("misc", misc);
            }
        }

        private void attribute(String name, String value) {
            if (value == null || value.isEmpty()) {
                bibtex.removeAttribute(name);
            } else {
                bibtex.setAttribute(name, value);
            }
        }
    }

    /** The shadow is the {@code <post>} element exactly as BibSonomy returned it. */
    private static RemoteRecord record(Element post) {
        Element bibtex = child(post, "bibtex");
        Element bookmark = child(post, "bookmark");
        Element resource = bibtex != null ? bibtex : bookmark;
        if (resource == null) {
            throw new ToolException("a post with neither <bibtex> nor <bookmark>");
        }
        SortedSet<String> tags = new TreeSet<>();
        for (Element t : children(post, "tag")) {
            String name = t.getAttribute("name");
            if (!name.isBlank()) {
                tags.add(name); // as BibSonomy has it: Idiom's form comes from the copy's synced tags
            }
        }
        Metadata m;
        if (bibtex != null) {
            m = BibTeXMapping.metadata(new View(bibtex));
            m = set(m, Field.CITATION_KEY, bibtex.getAttribute("bibtexKey"));
            // "Given Family" names are common in posts: the mapping reads both forms
        } else {
            m = Metadata.EMPTY.with(Field.TYPE, "webpage");
            m = set(m, Field.URL, bookmark.getAttribute("url"));
            m = set(m, Field.TITLE, bookmark.getAttribute("title"));
        }
        m = set(m.with(Field.TAGS, tags), Field.NOTES, post.getAttribute("description"));
        String version = post.getAttribute("changedate").isBlank() ? post.getAttribute("postingdate") : post.getAttribute("changedate");
        // the interhash names the publication across all BibSonomy users: a cross-user identity hint
        String interhash = bibtex != null ? bibtex.getAttribute("interhash") : "";
        // a post is public only in the group "public"; "private", "friends" or a group's own keep it from the public
        boolean isPublic = children(post, "group").stream().anyMatch(g -> g.getAttribute("name").equalsIgnoreCase("public"));
        return new RemoteRecord(resource.getAttribute("intrahash"), version, m, interhash.isBlank() ? null : interhash, SafeXml.serialise(post),
                !isPublic);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        for (org.w3c.dom.Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                out.add(e);
            }
        }
        return out;
    }

    private static Metadata set(Metadata m, Field f, String v) {
        return v == null || v.isBlank() ? m : m.with(f, f.fromText(v));
    }

    private static Element child(Element parent, String name) {
        NodeList l = parent.getElementsByTagName(name);
        return l.getLength() == 0 ? null : (Element) l.item(0);
    }

    @Override
    public String probeId() {
        return "0".repeat(32);
    }

    @Override
    public Optional<RemoteRecord> fetch(String hash) {
        return postElement(hash).map(BibSonomyTool::record);
    }

    @Override
    public RemoteRecord create(Metadata wanted, boolean keepPrivate) {
        Metadata m = writable(wanted, null);
        Document doc = SafeXml.parse("<post description=\"\"><user name=\"" + SafeXml.escape(user) + "\"/><group name=\""
                + (createPrivate || keepPrivate ? "private" : "public") + "\"/>" + ("webpage".equals(m.type()) ? "<bookmark/>"
                : "<bibtex entrytype=\"" + BibTeXMapping.entryType(m) + "\" bibtexKey=\"" + SafeXml.escape(newKey(m)) + "\"/>")
                + "</post>", "Idiom");
        Element post = doc.getDocumentElement();
        apply(post, Metadata.EMPTY, m);
        Document answer = ok(send("POST", postsPath(), envelope(post)), 201, "create a post");
        return fetch(resourceHash(answer)).orElseThrow(() -> new ToolException("BibSonomy did not keep the new post"));
    }

    /**
     * Re-reads the post, refuses if its change date moved since {@code known}, then PUTs it back
     * as BibSonomy returned it with only Idiom's changes written into it.
     */
    @Override
    public RemoteRecord update(RemoteRecord known, Metadata wanted) {
        String hash = known.remoteId();
        Element post = postElement(hash).orElseThrow(() -> new RemoteChangedException(
                "BibSonomy post " + hash + " is gone (edited elsewhere, which changes its hash, or deleted)"));
        RemoteRecord current = record(post);
        if (known.version() != null && !known.version().equals(current.version())) {
            throw new RemoteChangedException("BibSonomy post " + hash + " changed since " + known.version());
        }
        if ("webpage".equals(known.metadata().type()) != (child(post, "bookmark") != null)
                || "webpage".equals(wanted.type()) != (child(post, "bookmark") != null)) {
            throw new RecordRefusedException("BibSonomy keeps bookmarks and publications apart: post " + hash + " cannot become a "
                    + ("webpage".equals(wanted.type()) ? "bookmark" : "publication"));
        }
        apply(post, known.metadata(), writable(wanted, known.metadata()));
        Document doc = ok(send("PUT", postsPath() + "/" + ToolHttp.segment(hash), envelope(post)), 200,
                "update post " + hash);
        return fetch(resourceHash(doc)).orElseThrow(() -> new ToolException("BibSonomy did not keep the updated post"));
    }

    /**
     * Tags with an effect in BibSonomy ({@code for:<group>} copies the post into the group,
     * {@code send:<user>} sends it to a user's inbox, {@code myown} puts it on the CV page,
     * {@code sys:}/{@code system:} tags drive features; see its help on system tags) are written only
     * when they came from this post: a tag from another tool must not publish a post or message a stranger.
     */
    @Override
    public Metadata writable(Metadata wanted, Metadata known) {
        Metadata out = "webpage".equals(wanted.type()) ? wanted : BibTeXMapping.holdable(wanted);
        if (wanted.citationKey() == null && known != null) {
            out = out.with(Field.CITATION_KEY, known.citationKey()); // a post always has a key: without one of Idiom's, it keeps its own
        }
        for (String tag : wanted.tags()) {
            if (SystemTags.acts(tag) && (known == null || !known.tags().contains(tag))) {
                out = out.withoutTag(tag);
            }
        }
        return out;
    }

    /** A post edited on the site gets a new hash; the same BibTeX key, with the old hash gone, is the same copy. */
    @Override
    public boolean succeeds(RemoteRecord now, RemoteRecord former) {
        String key = key(now.shadow());
        return key != null && key.equals(key(former.shadow())) && !now.remoteId().equals(former.remoteId())
                && postElement(former.remoteId()).isEmpty();
    }

    private static String key(String shadow) {
        if (shadow == null) {
            return null;
        }
        Element bibtex = child(SafeXml.parse(shadow, "the stored BibSonomy post").getDocumentElement(), "bibtex");
        return bibtex == null || bibtex.getAttribute("bibtexKey").isBlank() ? null : bibtex.getAttribute("bibtexKey");
    }

    private Optional<Element> postElement(String hash) {
        HttpResponse<String> r = send("GET", postsPath() + "/" + ToolHttp.segment(hash), null);
        if (r.statusCode() == 404) {
            return Optional.empty();
        }
        Element post = (Element) ok(r, 200, "fetch post " + hash).getElementsByTagName("post").item(0);
        return Optional.ofNullable(post);
    }

    /** Writes into the post the fields that differ between {@code before} and {@code after}; checks what BibSonomy requires. */
    /** BibSonomy separates tags by spaces: a space inside a tag is written "_". */
    @Override
    public String tagAsWritten(String tag) {
        return AnnotationTool.spacesAsUnderscores(tag);
    }

    private static void apply(Element post, Metadata before, Metadata after) {
        if (!java.util.Objects.equals(before.notes(), after.notes())) {
            post.setAttribute("description", after.notes() == null ? "" : after.notes());
        }
        if (!before.tags().equals(after.tags())) {
            children(post, "tag").forEach(post::removeChild);
            org.w3c.dom.Node first = post.getFirstChild();
            for (String t : after.tags()) {
                Element tag = post.getOwnerDocument().createElement("tag");
                tag.setAttribute("name", AnnotationTool.spacesAsUnderscores(t)); // BibSonomy separates tags by spaces
                post.insertBefore(tag, first);
            }
        }
        Element bookmark = child(post, "bookmark");
        if (bookmark != null) {
            if (!java.util.Objects.equals(before.url(), after.url())) {
                bookmark.setAttribute("url", after.url() == null ? "" : after.url());
            }
            if (!java.util.Objects.equals(before.title(), after.title())) {
                bookmark.setAttribute("title", after.title() == null ? "" : after.title());
            }
            require(bookmark, "a bookmark", "url", "title");
            return;
        }
        View bibtex = new View(child(post, "bibtex"));
        BibTeXMapping.applyChanges(bibtex, before, after);
        if (after.citationKey() != null && !after.citationKey().equals(before.citationKey())) {
            bibtex.bibtex().setAttribute("bibtexKey", after.citationKey());
        }
        require(bibtex.bibtex(), "a publication", "title", "year", "bibtexKey", "entrytype");
        if (bibtex.get("author") == null && bibtex.get("editor") == null) {
            throw new RecordRefusedException("BibSonomy requires an author or an editor for a publication; this entity has neither");
        }
    }

    private static void require(Element resource, String what, String... attributes) {
        for (String a : attributes) {
            if (resource.getAttribute(a).isBlank()) {
                throw new RecordRefusedException("BibSonomy requires " + ("bibtexKey".equals(a) ? "a BibTeX key" : "a " + a) + " for " + what
                        + "; this entity has none");
            }
        }
    }

    /** A new post's BibTeX key: the record's citation key, else as BibSonomy's own suggestion: first author's family name, year, first title word. */
    private static String newKey(Metadata m) {
        if (m.citationKey() != null && !m.citationKey().isBlank()) {
            return m.citationKey();
        }
        String family = m.authors().isEmpty() ? "" : m.authors().getFirst().family();
        String word = m.title() == null ? "" : m.title().split("\\s+")[0];
        String key = BibTeXMapping.keyPart(family) + (m.year() == null ? "" : m.year()) + BibTeXMapping.keyPart(word);
        return key.isEmpty() ? "idiom" : key;
    }

    private static String envelope(Element post) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><bibsonomy>" + SafeXml.serialise(post) + "</bibsonomy>";
    }

    @Override
    public void delete(String hash, String knownVersion) {
        Optional<RemoteRecord> current = fetch(hash);
        if (current.isEmpty()) {
            return;
        }
        if (knownVersion != null && !knownVersion.equals(current.get().version())) {
            throw new RemoteChangedException("BibSonomy post " + hash + " changed since " + knownVersion);
        }
        ok(send("DELETE", postsPath() + "/" + ToolHttp.segment(hash), null), 200, "delete post " + hash);
    }

    private static String resourceHash(Document doc) {
        NodeList h = doc.getElementsByTagName("resourcehash");
        if (h.getLength() == 0) {
            throw new ToolException("BibSonomy answered without a resourcehash");
        }
        return h.item(0).getTextContent().strip();
    }

    private static Document ok(HttpResponse<String> r, int status, String what) {
        if (r.statusCode() != status) {
            ToolHttp.logRefusal("BibSonomy", what, r);
            String message = "BibSonomy could not " + what + ": HTTP " + r.statusCode() + " (" + ToolHttp.reason(r.statusCode()) + ")";
            throw r.statusCode() == 400 || r.statusCode() == 413 || r.statusCode() == 422 ? new RecordRefusedException(message) : new ToolException(message);
        }
        return SafeXml.parse(r.body(), "BibSonomy");
    }
}
