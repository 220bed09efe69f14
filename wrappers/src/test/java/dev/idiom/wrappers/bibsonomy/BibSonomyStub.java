package dev.idiom.wrappers.bibsonomy;

import dev.idiom.wrappers.SafeXml;
import dev.idiom.wrappers.StubServer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * BibSonomy's REST API as published, for one user: HTTP Basic user:apikey (401 otherwise),
 * {@code /users/{u}/posts?resourcetype=&start=&end=} with a {@code next} link while more remain,
 * POST → 201 + resourcehash, PUT → the post's new hash (content-derived), DELETE, and
 * {@code <bibsonomy stat="fail"><error>…</error></bibsonomy>} on errors.
 *
 * <p>As strict as the service: a PUT replaces the whole post (groups, key, every attribute are
 * what was sent); publications need title, year, bibtexKey, entrytype and author or editor,
 * bookmarks url and title (400 otherwise). Hashes as BibSonomy computes them: a bookmark's is the
 * MD5 of its URL; a publication's intrahash the MD5 of its identifying fields (title, author,
 * editor, year, entrytype, journal, booktitle, volume, number), its interhash of title, persons and
 * year — so editing pages, abstract, misc, description or tags keeps the hash. The exact
 * normalisation of those fields before hashing (case, whitespace) is inferred from BibSonomy's
 * help pages on hashes, not taken from its source; error wording is inferred too.
 *
 * <p>System tags act as on the site (its help on tags): {@code for:<group>} copies the post into the
 * group's collection with that tag replaced by {@code from:<user>} (the copy stays when the post
 * changes), {@code send:<user>} puts it in that user's inbox, {@code myown} puts it on the CV page —
 * so a tag written by mistake shows in {@link #groupCopies}, {@link #inbox} and {@link #cv}.
 */
public final class BibSonomyStub extends StubServer {
    public static final String USER = "curator";
    public static final String KEY = "11111111222222223333333344444444";

    /** hash → post element (serialised), in posting order. */
    private final Map<String, String> posts = new LinkedHashMap<>();
    private Instant clock = Instant.parse("2026-02-01T10:00:00Z");
    private final Map<String, List<String>> groupCopies = new LinkedHashMap<>();
    private final Map<String, List<String>> inboxes = new LinkedHashMap<>();
    private final List<String> cv = new ArrayList<>();

    /** Posts copied into {@code group}'s collection by a {@code for:} tag. */
    public synchronized List<String> groupCopies(String group) {
        return List.copyOf(groupCopies.getOrDefault(group.toLowerCase(java.util.Locale.ROOT), List.of()));
    }

    /** Posts sent to {@code user} by a {@code send:} tag. */
    public synchronized List<String> inbox(String user) {
        return List.copyOf(inboxes.getOrDefault(user.toLowerCase(java.util.Locale.ROOT), List.of()));
    }

    private final java.util.Set<String> hidden = new java.util.HashSet<>();

    /** Listings leave this post out (as offset pages shifted by a deletion between two of them would); fetching it still finds it. */
    public synchronized void hideFromListings(String hash) {
        hidden.add(hash);
    }

    /** Someone deletes the post on the BibSonomy site. */
    public synchronized void deleteOnSite(String hash) {
        posts.remove(hash);
    }

    /** Posts put on the CV page by {@code myown}. */
    public synchronized List<String> cv() {
        return List.copyOf(cv);
    }

    /** Every post the stub holds, as XML. */
    public synchronized List<String> allPosts() {
        return List.copyOf(posts.values());
    }

    @Override
    protected Reply answer(Request r) {
        String expected = "Basic " + Base64.getEncoder().encodeToString((USER + ":" + KEY).getBytes(StandardCharsets.UTF_8));
        if (!expected.equals(r.header("Authorization"))) {
            return fail(401, "Please authenticate yourself.");
        }
        String prefix = "/users/" + USER + "/posts";
        if (!r.path().startsWith(prefix)) {
            return fail(404, "unknown resource");
        }
        String hash = r.path().length() > prefix.length() + 1 ? r.path().substring(prefix.length() + 1) : null;
        return switch (r.method()) {
            case "GET" -> hash == null ? list(r) : one(hash);
            case "POST" -> hash == null ? save(null, r.body(), 201) : fail(405, "method not allowed");
            case "PUT" -> hash == null ? fail(405, "method not allowed") : save(hash, r.body(), 200);
            case "DELETE" -> posts.remove(hash) == null ? fail(404, "The requested post was not found.")
                    : Reply.of(200, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><bibsonomy stat=\"ok\"/>");
            default -> fail(405, "method not allowed");
        };
    }

    private static Reply fail(int status, String message) {
        return Reply.of(status, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><bibsonomy stat=\"fail\"><error>" + message + "</error></bibsonomy>",
                "Content-Type", "application/xml");
    }

    private Reply list(Request r) {
        String type = r.query().getOrDefault("resourcetype", "publication");
        int start = Integer.parseInt(r.query().getOrDefault("start", "0"));
        int end = Integer.parseInt(r.query().getOrDefault("end", "20"));
        List<String> matching = new ArrayList<>();
        for (String p : posts.values()) {
            if (p.contains(type.equals("bookmark") ? "<bookmark " : "<bibtex ")) {
                matching.add(p);
            }
        }
        matching.removeIf(p -> hidden.stream().anyMatch(h -> p.contains("intrahash=\"" + h + "\"")));
        // as BibSonomy lists them: newest first by posting date (an edit does not move a post)
        matching.sort(java.util.Comparator.comparing((String p) -> attribute(p, "postingdate")).reversed());
        StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?><bibsonomy stat=\"ok\"><posts start=\"")
                .append(start).append("\" end=\"").append(Math.min(end, matching.size())).append('"');
        if (end < matching.size()) {
            out.append(" next=\"").append(SafeXml.escape(uri() + "/users/" + USER + "/posts?resourcetype=" + type + "&start=" + end + "&end="
                    + (2 * end - start))).append('"');
        }
        out.append('>');
        matching.subList(Math.min(start, matching.size()), Math.min(end, matching.size())).forEach(out::append);
        return Reply.of(200, out.append("</posts></bibsonomy>").toString(), "Content-Type", "application/xml");
    }

    private Reply one(String hash) {
        String p = posts.get(hash);
        return p == null ? fail(404, "The requested post was not found.")
                : Reply.of(200, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><bibsonomy stat=\"ok\">" + p + "</bibsonomy>", "Content-Type", "application/xml");
    }

    /** Stores a post; its hash comes from its resource's content, as BibSonomy's intrahash does. */
    private Reply save(String oldHash, String body, int status) {
        if (oldHash != null && !posts.containsKey(oldHash)) {
            return fail(404, "The requested post was not found.");
        }
        Document doc;
        try {
            doc = SafeXml.parse(body, "client");
        } catch (RuntimeException e) {
            return fail(400, "malformed XML");
        }
        Element post = (Element) doc.getElementsByTagName("post").item(0);
        if (post == null) {
            return fail(400, "no post given");
        }
        NodeList res = post.getElementsByTagName("bibtex");
        Element resource = res.getLength() > 0 ? (Element) res.item(0) : (Element) post.getElementsByTagName("bookmark").item(0);
        if (resource == null) {
            return fail(400, "a post needs a resource");
        }
        boolean publication = resource.getTagName().equals("bibtex");
        for (String required : publication ? List.of("title", "year", "bibtexKey", "entrytype") : List.of("url", "title")) {
            if (resource.getAttribute(required).isBlank()) {
                return fail(400, "Error: The field '" + required + "' is required.");
            }
        }
        if (publication && resource.getAttribute("author").isBlank() && resource.getAttribute("editor").isBlank()) {
            return fail(400, "Error: A publication needs an author or an editor.");
        }
        if (post.getElementsByTagName("group").getLength() == 0) {
            Element group = doc.createElement("group");
            group.setAttribute("name", "public"); // the site's default visibility
            post.appendChild(group);
        }
        String hash = intrahash(resource);
        if (oldHash == null && posts.containsKey(hash)) {
            return fail(400, "This post already exists.");
        }
        resource.setAttribute("intrahash", hash);
        if (publication) {
            resource.setAttribute("interhash", md5(norm(resource.getAttribute("title")) + " "
                    + norm(resource.getAttribute("author").isBlank() ? resource.getAttribute("editor") : resource.getAttribute("author"))
                    + " " + norm(resource.getAttribute("year"))));
        }
        clock = clock.plusSeconds(60);
        // an edit keeps the post's posting date (lists are ordered by it) and moves its change date
        String posted = oldHash == null ? clock.toString() : attribute(posts.get(oldHash), "postingdate");
        post.setAttribute("postingdate", posted);
        post.setAttribute("changedate", clock.toString());
        if (oldHash != null) {
            posts.remove(oldHash);
        }
        posts.put(hash, SafeXml.serialise(post));
        act(post);
        return Reply.of(status, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><bibsonomy stat=\"ok\"><resourcehash>" + hash + "</resourcehash></bibsonomy>",
                "Content-Type", "application/xml");
    }

    /** The system tags' effects, each time a post is saved with them. */
    private void act(Element post) {
        NodeList tags = post.getElementsByTagName("tag");
        for (int i = 0; i < tags.getLength(); i++) {
            String tag = ((Element) tags.item(i)).getAttribute("name").toLowerCase(java.util.Locale.ROOT);
            if (tag.startsWith("for:")) {
                Element copy = (Element) post.cloneNode(true);
                ((Element) copy.getElementsByTagName("tag").item(i)).setAttribute("name", "from:" + USER);
                groupCopies.computeIfAbsent(tag.substring(4), g -> new ArrayList<>()).add(SafeXml.serialise(copy));
            } else if (tag.startsWith("send:")) {
                inboxes.computeIfAbsent(tag.substring(5), u -> new ArrayList<>()).add(SafeXml.serialise(post));
            } else if (tag.equals("myown")) {
                cv.add(SafeXml.serialise(post));
            }
        }
    }

    /** Someone edits the post on the BibSonomy site: new change date, same content hash. */
    void touch(String hash) {
        clock = clock.plusSeconds(60);
        posts.put(hash, posts.get(hash).replaceFirst("changedate=\"[^\"]*\"", "changedate=\"" + clock + "\""));
    }

    /** A bookmark's hash is the MD5 of its URL; a publication's, of its identifying fields. */
    private static String intrahash(Element resource) {
        if (resource.getTagName().equals("bookmark")) {
            return md5(resource.getAttribute("url"));
        }
        StringBuilder b = new StringBuilder();
        for (String f : List.of("title", "author", "editor", "year", "entrytype", "journal", "booktitle", "volume", "number")) {
            b.append(norm(resource.getAttribute(f))).append(' ');
        }
        return md5(b.toString());
    }

    private static String norm(String s) {
        return s.toLowerCase(java.util.Locale.ROOT).replaceAll("\\s+", " ").strip();
    }


    /** Someone edits the post on the site: sets one attribute of its resource; the hash follows the content. Returns the new hash. */
    String editOnSite(String hash, String attribute, String value) {
        Document doc = SafeXml.parse(posts.get(hash), "stub");
        Element post = doc.getDocumentElement();
        Element resource = (Element) (post.getElementsByTagName("bibtex").getLength() > 0 ? post.getElementsByTagName("bibtex").item(0)
                : post.getElementsByTagName("bookmark").item(0));
        resource.setAttribute(attribute, value);
        String next = intrahash(resource);
        resource.setAttribute("intrahash", next);
        clock = clock.plusSeconds(60);
        post.setAttribute("changedate", clock.toString());
        posts.remove(hash);
        posts.put(next, SafeXml.serialise(post));
        return next;
    }

    /** Someone posts a publication on the site (the post's XML, without hashes); returns its hash. */
    String postOnSite(String postXml) {
        Reply r = save(null, "<bibsonomy>" + postXml + "</bibsonomy>", 201);
        if (r.status() != 201) {
            throw new IllegalArgumentException(r.body());
        }
        return r.body().replaceAll(".*<resourcehash>([^<]*)</resourcehash>.*", "$1");
    }

    /** The post as the stub holds it (XML). */
    String post(String hash) {
        return posts.get(hash);
    }

    private static String attribute(String postXml, String name) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(name + "=\"([^\"]*)\"").matcher(postXml);
        return m.find() ? m.group(1) : "";
    }
}
