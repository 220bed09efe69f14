package dev.idiom.services;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;

/**
 * A browser with floccus' "XBEL in a WebDAV folder" profile, replaying the requests its WebDAV
 * adapter makes (floccusaddon/floccus, src/lib/adapters/WebDav.ts, in a browser): GET the lock
 * (200 with a Last-Modified under 15 minutes old: locked), PUT the lock ({@code <html><body>I am a
 * lock file</body></html>}, text/html; 423 or 409: locked), GET the file with
 * {@code Cache-Control: no-store}, PROPFIND depth 0 for its size, then — only when its tree
 * changed — PUT {@code file.temp}, PROPFIND it, MOVE it onto the file with {@code Overwrite: T},
 * PROPFIND the file; DELETE the lock. The file is written as floccus' createXBEL writes it.
 * Between the server's tree and its own it merges as floccus' sync does, against the tree it
 * last synced (its cache): a change on one side is applied to the other, by floccus' ids.
 */
final class FloccusBrowser {
    /** One bookmark: floccus' id, its URL, title and folder ("" at the top). */
    record Bookmark(int id, String url, String title, String folder) {}

    static final class Locked extends RuntimeException {
        Locked(String why) {
            super(why);
        }
    }

    private final String name;
    private final String davUrl;
    private final String auth;
    private final String file;
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(10)).build();
    /** The browser's own bookmarks, by URL. */
    final Map<String, Bookmark> local = new LinkedHashMap<>();
    /** The server's tree as this browser last synced it, by id (floccus' cache). */
    private Map<Integer, Bookmark> cache = new LinkedHashMap<>();
    private int highestId;
    /** The requests of the last sync, method and file, in order. */
    final List<String> requests = new ArrayList<>();
    /** Whether the last sync wrote the file. */
    boolean wrote;

    FloccusBrowser(String name, String davUrl, String password, String file) {
        this.name = name;
        this.davUrl = davUrl.endsWith("/") ? davUrl : davUrl + "/";
        this.auth = "Basic " + Base64.getEncoder().encodeToString((name + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.file = file;
    }

    void add(String url, String title, String folder) {
        local.put(url, new Bookmark(0, url, title, folder));
    }

    /** A whole sync: lock, read, merge, write if the tree changed, unlock. */
    void sync() {
        requests.clear();
        lock();
        try {
            syncLocked(() -> { });
        } finally {
            unlock();
        }
    }

    /** The lock as floccus obtains it; {@link Locked} if another browser holds it. */
    void lock() {
        HttpResponse<String> lock = send("GET", file + ".lock", null, null);
        if (lock.statusCode() == 200) {
            String lastModified = lock.headers().firstValue("Last-Modified").orElse(null);
            if (lastModified == null || ZonedDateTime.parse(lastModified, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant()
                    .plus(Duration.ofMinutes(15)).isAfter(Instant.now())) {
                throw new Locked(name + ": the lock is fresh (" + lastModified + ")");
            }
            return; // abandoned: floccus goes on without putting it (its two-minute renewal puts it)
        }
        if (lock.statusCode() != 404) {
            throw new IllegalStateException(name + ": GET lock answered " + lock.statusCode() + " " + lock.body());
        }
        HttpResponse<String> put = send("PUT", file + ".lock", "text/html", "<html><body>I am a lock file</body></html>");
        if (put.statusCode() == 423 || put.statusCode() == 409) {
            throw new Locked(name + ": PUT lock answered " + put.statusCode() + ": " + put.body());
        }
        check(put, "PUT lock");
    }

    /** floccus' renewal, every two minutes while it syncs. */
    void renewLock() {
        check(send("PUT", file + ".lock", "text/html", "<html><body>I am a lock file</body></html>"), "PUT lock again");
    }

    void unlock() {
        HttpResponse<String> r = send("DELETE", file + ".lock", null, null);
        if (r.statusCode() != 200 && r.statusCode() != 204 && r.statusCode() != 404) {
            throw new IllegalStateException(name + ": DELETE lock answered " + r.statusCode() + " " + r.body());
        }
    }

    /** The server text this sync read (null: 404). */
    String read;

    /** Read, merge, write; {@code meanwhile} runs between the read and the write (something else happening during the sync). */
    void syncLocked(Runnable meanwhile) {
        HttpResponse<String> got = send("GET", file, null, null);
        Map<Integer, Bookmark> server = new LinkedHashMap<>();
        read = null;
        if (got.statusCode() == 200) {
            read = got.body();
            if (!read.contains(html() ? "<!DOCTYPE NETSCAPE-Bookmark-file-1>" : "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")) {
                throw new IllegalStateException(name + ": floccus would refuse this file (FileUnreadableError): " + read);
            }
            size(file, read.getBytes(StandardCharsets.UTF_8).length);
            Matcher m = Pattern.compile("<!--- highestId :(\\d+):").matcher(read);
            highestId = m.find() ? Integer.parseInt(m.group(1)) : highestId;
            server = html() ? parseHtml(read) : parse(read);
        } else if (got.statusCode() != 404) {
            throw new IllegalStateException(name + ": GET answered " + got.statusCode() + " " + got.body());
        }
        meanwhile.run();
        Map<Integer, Bookmark> before = new LinkedHashMap<>(server);
        // the server's changes since the cache, into the browser
        for (Bookmark s : server.values()) {
            Bookmark c = cache.get(s.id());
            if (c == null || !c.equals(s)) {
                if (c != null && !c.url().equals(s.url())) {
                    local.remove(c.url());
                }
                local.put(s.url(), s);
            }
        }
        for (Bookmark c : cache.values()) {
            if (!server.containsKey(c.id())) {
                local.remove(c.url());
            }
        }
        // the browser's changes since the cache, onto the server's tree
        Map<String, Bookmark> serverByUrl = new LinkedHashMap<>();
        server.values().forEach(b -> serverByUrl.put(b.url(), b));
        for (Bookmark l : new ArrayList<>(local.values())) {
            Bookmark s = serverByUrl.get(l.url());
            if (s == null) {
                Bookmark made = new Bookmark(++highestId, l.url(), l.title(), l.folder());
                server.put(made.id(), made);
                local.put(l.url(), made);
            } else if (!Objects.equals(s.title(), l.title()) || !Objects.equals(s.folder(), l.folder())) {
                Bookmark changed = new Bookmark(s.id(), l.url(), l.title(), l.folder());
                server.put(s.id(), changed);
                local.put(l.url(), changed);
            }
        }
        server.values().removeIf(s -> !local.containsKey(s.url()));
        wrote = !server.equals(before);
        if (wrote) {
            String xbel = html() ? html(server, highestId) : xbel(server, highestId);
            check(send("PUT", file + ".temp", html() ? "text/html" : "application/xml", xbel), "PUT temp");
            size(file + ".temp", xbel.getBytes(StandardCharsets.UTF_8).length);
            HttpResponse<String> move = send("MOVE", file + ".temp", null, null, "Destination", davUrl + file, "Overwrite", "T");
            if (move.statusCode() >= 300) {
                send("DELETE", file + ".temp", null, null);
                throw new IllegalStateException(name + ": MOVE answered " + move.statusCode() + " " + move.body());
            }
            size(file, xbel.getBytes(StandardCharsets.UTF_8).length);
        }
        cache = server;
    }

    private boolean html() {
        return file.endsWith(".html");
    }

    /** As floccus' Html serializer reads a file: each link's ID, HREF, title and the folder it is in. */
    static Map<Integer, Bookmark> parseHtml(String html) {
        Map<Integer, Bookmark> out = new LinkedHashMap<>();
        for (org.jsoup.nodes.Element a : org.jsoup.Jsoup.parse(html).select("dt > a")) {
            org.jsoup.nodes.Element dl = a.parent().parent();
            org.jsoup.nodes.Element h3 = dl == null || dl.parent() == null ? null : dl.parent().selectFirst("> h3");
            if (h3 == null && dl != null) { // jsoup nests <DL> inside the <DT> of its folder or beside it
                org.jsoup.nodes.Element before = dl.previousElementSibling();
                h3 = before == null ? null : before.tagName().equals("h3") ? before : before.selectFirst("> h3");
            }
            int id = Integer.parseInt(a.attr("id"));
            out.put(id, new Bookmark(id, a.attr("href"), a.text(), h3 == null ? "" : h3.text()));
        }
        return out;
    }

    /** As floccus' createHTML writes it: its doctype, META and TITLE, the highestId comment, numeric entities, TAGS="". */
    static String html(Map<Integer, Bookmark> tree, int highestId) {
        StringBuilder out = new StringBuilder("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=UTF-8\">\n"
                + "<TITLE>Bookmarks</TITLE>");
        out.append("<!--- highestId :").append(highestId).append(": for Floccus bookmark sync browser extension -->\n<DL><p>\n");
        Map<String, List<Bookmark>> byFolder = new LinkedHashMap<>();
        tree.values().forEach(b -> byFolder.computeIfAbsent(b.folder(), k -> new ArrayList<>()).add(b));
        int folderId = 100_000;
        for (Map.Entry<String, List<Bookmark>> f : byFolder.entrySet()) {
            String indent = f.getKey().isEmpty() ? "" : "  ";
            if (!f.getKey().isEmpty()) {
                out.append("<DT><H3 ID=\"").append(folderId++).append("\">").append(num(f.getKey())).append("</H3>\n<DL><p>\n");
            }
            for (Bookmark b : f.getValue()) {
                out.append(indent).append("<DT><A HREF=\"").append(num(b.url())).append("\" TAGS=\"\" ID=\"").append(b.id()).append("\">")
                        .append(num(b.title())).append("</A>\n");
            }
            if (!f.getKey().isEmpty()) {
                out.append("</DL><p>\n");
            }
        }
        return out.append("</DL><p>\n</html>").toString();
    }

    private static String num(String s) {
        StringBuilder b = new StringBuilder();
        s.chars().forEach(c -> b.append("<>&\"'".indexOf(c) >= 0 ? "&#" + c + ";" : String.valueOf((char) c)));
        return b.toString();
    }

    /** floccus' size check: PROPFIND depth 0, getcontentlength against the bytes it has. */
    private void size(String path, int bytes) {
        HttpResponse<String> r = send("PROPFIND", path, null, null, "Depth", "0");
        Matcher m = Pattern.compile("<.*?:?getcontentlength[^>]*?>(.*?)<").matcher(r.body());
        if (r.statusCode() != 207 || !m.find() || Integer.parseInt(m.group(1)) != bytes) {
            throw new IllegalStateException(name + ": file size mismatch on " + path + " (" + r.statusCode() + "): " + r.body());
        }
    }

    static Map<Integer, Bookmark> parse(String xbel) {
        Map<Integer, Bookmark> out = new LinkedHashMap<>();
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            Element root = f.newDocumentBuilder().parse(new InputSource(new StringReader(xbel))).getDocumentElement();
            walk(root, "", out);
        } catch (Exception e) {
            throw new IllegalStateException("floccus could not parse the file (XbelParseError): " + e.getMessage() + "\n" + xbel, e);
        }
        return out;
    }

    private static void walk(Element parent, String folder, Map<Integer, Bookmark> out) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals("bookmark")) {
                out.put(Integer.parseInt(e.getAttribute("id")), new Bookmark(Integer.parseInt(e.getAttribute("id")), e.getAttribute("href"), title(e), folder));
            } else if (n instanceof Element e && e.getTagName().equals("folder")) {
                walk(e, title(e), out);
            }
        }
    }

    private static String title(Element e) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element t && t.getTagName().equals("title")) {
                return t.getTextContent();
            }
        }
        return "";
    }

    /** As floccus' createXBEL writes it: its prolog, doctype and highestId comment, fast-xml-parser's formatting and escapes. */
    static String xbel(Map<Integer, Bookmark> tree, int highestId) {
        StringBuilder out = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE xbel PUBLIC "+//IDN python.org//DTD XML Bookmark Exchange Language 1.0//EN//XML" "http://pyxml.sourceforge.net/topics/dtds/xbel.dtd">
                <xbel version="1.0">
                """);
        out.append("<!--- highestId :").append(highestId).append(": for Floccus bookmark sync browser extension -->\n");
        Map<String, List<Bookmark>> byFolder = new LinkedHashMap<>();
        tree.values().forEach(b -> byFolder.computeIfAbsent(b.folder(), k -> new ArrayList<>()).add(b));
        List<String> items = new ArrayList<>();
        int folderId = 100_000;
        for (Map.Entry<String, List<Bookmark>> f : byFolder.entrySet()) {
            if (f.getKey().isEmpty()) {
                f.getValue().forEach(b -> items.add(bookmark(b, "")));
            } else {
                StringBuilder folder = new StringBuilder("<folder id=\"" + (folderId++) + "\">\n  <title>" + esc(f.getKey()) + "</title>\n");
                f.getValue().forEach(b -> folder.append(bookmark(b, "  ")).append('\n'));
                items.add(folder.append("</folder>").toString());
            }
        }
        out.append(String.join("\n", items));
        return out.append("\n</xbel>").toString();
    }

    private static String bookmark(Bookmark b, String indent) {
        return indent + "<bookmark href=\"" + esc(b.url()) + "\" id=\"" + b.id() + "\">\n" + indent + "  <title>" + esc(b.title()) + "</title>\n"
                + indent + "</bookmark>";
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&apos;").replace("\"", "&quot;");
    }

    HttpResponse<String> send(String method, String path, String type, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(davUrl + path)).timeout(Duration.ofSeconds(60)).header("Authorization", auth)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (type != null) {
            b.header("Content-Type", type);
        }
        if (method.equals("GET")) {
            b.header("Cache-Control", "no-store");
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        requests.add(method + " " + path);
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(name + ": " + method + " " + path + " failed: " + e, e);
        }
    }

    private void check(HttpResponse<String> r, String what) {
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(name + ": " + what + " answered " + r.statusCode() + ": " + r.body());
        }
    }
}
