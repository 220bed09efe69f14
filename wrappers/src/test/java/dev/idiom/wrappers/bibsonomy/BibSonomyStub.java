package dev.idiom.wrappers.bibsonomy;

import dev.idiom.events.Fingerprint;
import dev.idiom.wrappers.SafeXml;
import dev.idiom.wrappers.StubServer;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * BibSonomy's REST API as published, for one user: HTTP Basic user:apikey (401 otherwise),
 * {@code /users/{u}/posts?resourcetype=&start=&end=} with a {@code next} link while more remain,
 * POST → 201 + resourcehash, PUT → the post's new hash (content-derived), DELETE, and
 * {@code <bibsonomy stat="fail"><error>…</error></bibsonomy>} on errors.
 */
public final class BibSonomyStub extends StubServer {
    public static final String USER = "curator";
    public static final String KEY = "11111111222222223333333344444444";

    /** hash → post element (serialised), in posting order. */
    private final Map<String, String> posts = new LinkedHashMap<>();
    private Instant clock = Instant.parse("2026-02-01T10:00:00Z");

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
        String hash = Fingerprint.of(resource.getAttribute("title") + "|" + resource.getAttribute("author") + "|" + resource.getAttribute("year")
                + "|" + resource.getAttribute("url") + "|" + resource.getAttribute("journal") + resource.getAttribute("booktitle")
                + resource.getAttribute("volume") + resource.getAttribute("pages") + resource.getAttribute("misc")
                + resource.getAttribute("bibtexAbstract") + resource.getAttribute("entrytype"));
        if (oldHash == null && posts.containsKey(hash)) {
            return fail(400, "This post already exists.");
        }
        resource.setAttribute("intrahash", hash);
        resource.setAttribute("interhash", Fingerprint.of(resource.getAttribute("title") + resource.getAttribute("year")));
        clock = clock.plusSeconds(60);
        post.setAttribute("postingdate", clock.toString());
        post.setAttribute("changedate", clock.toString());
        if (oldHash != null) {
            posts.remove(oldHash);
        }
        posts.put(hash, serialise(post));
        return Reply.of(status, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><bibsonomy stat=\"ok\"><resourcehash>" + hash + "</resourcehash></bibsonomy>",
                "Content-Type", "application/xml");
    }

    /** Someone edits the post on the BibSonomy site: new change date, same content hash. */
    void touch(String hash) {
        clock = clock.plusSeconds(60);
        posts.put(hash, posts.get(hash).replaceFirst("changedate=\"[^\"]*\"", "changedate=\"" + clock + "\""));
    }

    private static String serialise(Element e) {
        try {
            var t = TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            StringWriter w = new StringWriter();
            t.transform(new DOMSource(e), new StreamResult(w));
            return w.toString();
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }
}
