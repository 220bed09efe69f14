package dev.idiom.wrappers.bibsonomy;

import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.BibTeXTypes;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.SafeXml;
import dev.idiom.wrappers.Skipped;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolLimits;
import dev.idiom.wrappers.http.ToolHttp;
import java.net.URI;
import java.net.URLEncoder;
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
 * ({@code <bookmark>}) are keyed by their intrahash, which changes whenever the post's content
 * does: {@link #update} returns the new hash and the replica is re-keyed. The change date is the
 * version. BibSonomy has no write preconditions, so an update re-reads the post first and
 * refuses when its change date moved.
 */
public final class BibSonomyTool implements AnnotationTool {
    public static final ToolLimits LIMITS = new ToolLimits(20, Duration.ofMillis(200), 2);
    private static final Pattern MISC_DOI = Pattern.compile("doi\\s*=\\s*\\{([^}]*)\\}", Pattern.CASE_INSENSITIVE);

    private final URI base;
    private final String user;
    private final String authorization;
    private final ToolHttp http;

    /** @param base the API root, e.g. https://www.bibsonomy.org/api */
    public BibSonomyTool(URI base, String user, String apiKey, ToolHttp http) {
        this.base = URI.create(base.toString().replaceAll("/+$", ""));
        this.user = user;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString((user + ":" + apiKey).getBytes(StandardCharsets.UTF_8));
        this.http = http;
    }

    @Override
    public String kind() {
        return "bibsonomy";
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
        return "/users/" + URLEncoder.encode(user, StandardCharsets.UTF_8) + "/posts";
    }

    /**
     * Cursor: "type;start;since;newest". A pass reads publications then bookmarks, page by page
     * along the {@code next} links, and returns the posts changed after {@code since} (the newest
     * change date of the previous pass, which ends as "done;newest"). BibSonomy lists no deletions.
     */
    @Override
    public ChangePage changedSince(String cursor) {
        String[] c = cursor == null ? new String[] {"publication", "0", "", ""}
                : cursor.startsWith("done;") ? new String[] {"publication", "0", cursor.substring(5), cursor.substring(5)}
                : cursor.split(";", -1);
        if (c.length != 4) {
            throw new ToolException("not a BibSonomy sync cursor: " + cursor);
        }
        String type = c[0];
        int start = Integer.parseInt(c[1]);
        String since = c[2];
        String newest = c[3];
        Document doc = ok(send("GET", postsPath() + "?resourcetype=" + type + "&start=" + start + "&end=" + (start + LIMITS.maxBatch()), null),
                200, "list posts");
        List<RemoteRecord> records = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        NodeList posts = doc.getElementsByTagName("post");
        for (int i = 0; i < posts.getLength(); i++) {
            try {
                RemoteRecord rec = record((Element) posts.item(i));
                if (later(rec.version(), since)) {
                    records.add(rec);
                }
                if (later(rec.version(), newest)) {
                    newest = rec.version();
                }
            } catch (RuntimeException bad) {
                skipped.add(new Skipped(null, "unreadable BibSonomy post: " + bad.getMessage()));
            }
        }
        Element list = (Element) doc.getElementsByTagName("posts").item(0);
        if (list != null && !list.getAttribute("next").isBlank()) {
            return new ChangePage(records, List.of(), skipped, String.join(";", type, Integer.toString(start + posts.getLength()), since, newest), true);
        }
        if (type.equals("publication")) {
            return new ChangePage(records, List.of(), skipped, String.join(";", "bookmark", "0", since, newest), true);
        }
        return new ChangePage(records, List.of(), skipped, "done;" + newest, false);
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

    private static RemoteRecord record(Element post) {
        Element bibtex = child(post, "bibtex");
        Element bookmark = child(post, "bookmark");
        Element resource = bibtex != null ? bibtex : bookmark;
        if (resource == null) {
            throw new ToolException("a post with neither <bibtex> nor <bookmark>");
        }
        SortedSet<String> tags = new TreeSet<>();
        NodeList tagNodes = post.getElementsByTagName("tag");
        for (int i = 0; i < tagNodes.getLength(); i++) {
            String t = ((Element) tagNodes.item(i)).getAttribute("name");
            if (!t.isBlank()) {
                tags.add(t);
            }
        }
        Metadata m = Metadata.EMPTY.with(Field.TAGS, tags);
        String description = post.getAttribute("description");
        if (bibtex != null) {
            String type = BibTeXTypes.canonicalType(bibtex.getAttribute("entrytype"));
            m = m.with(Field.TYPE, type);
            m = set(m, Field.TITLE, bibtex.getAttribute("title"));
            List<Author> authors = new ArrayList<>();
            for (String a : bibtex.getAttribute("author").split("\\s+and\\s+")) {
                if (!a.isBlank()) {
                    authors.add(Author.parse(a.contains(",") ? a : flip(a)));
                }
            }
            m = m.with(Field.AUTHORS, authors);
            m = set(m, Field.YEAR, bibtex.getAttribute("year"));
            m = set(m, Field.VENUE, firstNonBlank(BibTeXTypes.VENUE_FIELDS.stream().map(bibtex::getAttribute).toArray(String[]::new)));
            m = set(m, Field.VOLUME, bibtex.getAttribute("volume"));
            m = set(m, Field.PAGES, bibtex.getAttribute("pages"));
            m = set(m, Field.URL, bibtex.getAttribute("url"));
            m = set(m, Field.ABSTRACT, bibtex.getAttribute("bibtexAbstract"));
            Matcher doi = MISC_DOI.matcher(bibtex.getAttribute("misc"));
            if (doi.find()) {
                m = set(m, Field.DOI, doi.group(1));
            }
        } else {
            m = m.with(Field.TYPE, "webpage");
            m = set(m, Field.URL, bookmark.getAttribute("url"));
            m = set(m, Field.TITLE, bookmark.getAttribute("title"));
        }
        m = set(m, Field.NOTES, description);
        String version = post.getAttribute("changedate").isBlank() ? post.getAttribute("postingdate") : post.getAttribute("changedate");
        // the interhash names the publication across all BibSonomy users: a cross-user identity hint
        String interhash = bibtex != null ? bibtex.getAttribute("interhash") : "";
        return new RemoteRecord(resource.getAttribute("intrahash"), version, m, interhash.isBlank() ? null : interhash);
    }

    /** "Given Family" → "Family, Given". */
    private static String flip(String name) {
        String n = name.strip();
        int space = n.lastIndexOf(' ');
        return space < 0 ? n : n.substring(space + 1) + ", " + n.substring(0, space);
    }

    private static String firstNonBlank(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return null;
    }

    private static Metadata set(Metadata m, Field f, String v) {
        return v == null || v.isBlank() ? m : m.with(f, f.fromText(v));
    }

    private static Element child(Element parent, String name) {
        NodeList l = parent.getElementsByTagName(name);
        return l.getLength() == 0 ? null : (Element) l.item(0);
    }

    @Override
    public Optional<RemoteRecord> fetch(String hash) {
        HttpResponse<String> r = send("GET", postsPath() + "/" + URLEncoder.encode(hash, StandardCharsets.UTF_8), null);
        if (r.statusCode() == 404) {
            return Optional.empty();
        }
        Document doc = ok(r, 200, "fetch post " + hash);
        Element post = (Element) doc.getElementsByTagName("post").item(0);
        return post == null ? Optional.empty() : Optional.of(record(post));
    }

    @Override
    public RemoteRecord create(Metadata m) {
        Document doc = ok(send("POST", postsPath(), postXml(m)), 201, "create a post");
        return fetch(resourceHash(doc)).orElseThrow(() -> new ToolException("BibSonomy did not keep the new post"));
    }

    @Override
    public RemoteRecord update(String hash, Metadata m, String knownVersion) {
        RemoteRecord current = fetch(hash).orElseThrow(() -> new RemoteChangedException(
                "BibSonomy post " + hash + " is gone (edited elsewhere, which changes its hash, or deleted)"));
        if (knownVersion != null && !knownVersion.equals(current.version())) {
            throw new RemoteChangedException("BibSonomy post " + hash + " changed since " + knownVersion);
        }
        Document doc = ok(send("PUT", postsPath() + "/" + URLEncoder.encode(hash, StandardCharsets.UTF_8), postXml(m)), 200, "update post " + hash);
        return fetch(resourceHash(doc)).orElseThrow(() -> new ToolException("BibSonomy did not keep the updated post"));
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
        ok(send("DELETE", postsPath() + "/" + URLEncoder.encode(hash, StandardCharsets.UTF_8), null), 200, "delete post " + hash);
    }

    private static String resourceHash(Document doc) {
        NodeList h = doc.getElementsByTagName("resourcehash");
        if (h.getLength() == 0) {
            throw new ToolException("BibSonomy answered without a resourcehash");
        }
        return h.item(0).getTextContent().strip();
    }

    private String postXml(Metadata m) {
        StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><bibsonomy><post description=\"")
                .append(SafeXml.escape(m.notes() == null ? "" : m.notes())).append("\"><user name=\"").append(SafeXml.escape(user)).append("\"/>");
        m.tags().forEach(t -> x.append("<tag name=\"").append(SafeXml.escape(t.replace(' ', '_'))).append("\"/>"));
        x.append("<group name=\"public\"/>");
        if ("webpage".equals(m.type())) {
            x.append("<bookmark url=\"").append(SafeXml.escape(m.url() == null ? "" : m.url())).append("\" title=\"")
                    .append(SafeXml.escape(m.title() == null ? "" : m.title())).append("\"/>");
        } else {
            String entrytype = BibTeXTypes.entryType(m.type());
            String venueAttr = BibTeXTypes.venueField(m.type());
            x.append("<bibtex entrytype=\"").append(entrytype).append('"');
            attr(x, "title", m.title());
            attr(x, "author", m.authors().isEmpty() ? null : String.join(" and ", m.authors().stream().map(Author::toString).toList()));
            attr(x, "year", m.year() == null ? null : m.year().toString());
            attr(x, venueAttr, m.venue());
            attr(x, "volume", m.volume());
            attr(x, "pages", m.pages());
            attr(x, "url", m.url());
            attr(x, "bibtexAbstract", m.abstractText());
            attr(x, "misc", m.doi() == null ? null : "doi = {" + m.doi() + "}");
            attr(x, "bibtexKey", (m.authors().isEmpty() ? "idiom" : m.authors().getFirst().family().toLowerCase(Locale.ROOT).replaceAll("[^a-z]", ""))
                    + (m.year() == null ? "" : m.year()));
            x.append("/>");
        }
        return x.append("</post></bibsonomy>").toString();
    }

    private static void attr(StringBuilder x, String name, String value) {
        if (value != null) {
            x.append(' ').append(name).append("=\"").append(SafeXml.escape(value)).append('"');
        }
    }

    private static Document ok(HttpResponse<String> r, int status, String what) {
        if (r.statusCode() != status) {
            String reason = r.body() == null ? "" : r.body();
            if (reason.contains("<error>")) {
                reason = reason.substring(reason.indexOf("<error>") + 7, Math.max(reason.indexOf("<error>") + 7, reason.indexOf("</error>")));
            }
            throw new ToolException("BibSonomy could not " + what + ": HTTP " + r.statusCode() + (reason.isBlank() ? "" : " " + reason));
        }
        return SafeXml.parse(r.body(), "BibSonomy");
    }
}
