package dev.idiom.services.web;

import dev.idiom.services.http.AuthFailures;
import dev.idiom.services.http.BodyLimitExceeded;
import dev.idiom.services.http.PublicUrl;
import dev.idiom.events.InvalidValueException;
import dev.idiom.services.app.BrowserReplicas;
import dev.idiom.services.app.ServiceTime;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * {@code /dav/NAME/…}: a browsers' account's folder over WebDAV (class 1: RFC 4918 without locks,
 * which floccus does not use), for floccus and any other WebDAV client. HTTP Basic with the
 * account's password (any user name). The bookmark file is XBEL: writing it (PUT, or a MOVE or
 * COPY onto it, as floccus does from its temporary file) is a pull of the account; reading it
 * first writes what Idiom owes the browsers. Other files (floccus' lock and temporary file, a
 * client's own) are kept as files. Strong ETags over the content, {@code If-Match} and
 * {@code If-None-Match} on reads and writes; PROPFIND at depth 0 and 1. Refusals are plain text
 * saying why, and change nothing.
 */
final class BookmarkDav extends HttpServlet {
    static final String ALLOW = "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, MKCOL, COPY, MOVE";
    private static final java.util.Set<String> SERVED = java.util.Set.of(ALLOW.split(", "));
    private static final String TEMP = ".idiom-tmp";
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private final transient BrowserReplicas browsers;
    private final transient AuthFailures authFailures;
    private final transient PublicUrl publicUrl;
    private final transient Clock clock;
    /** One writer at a time in an account's folder: a lock checked and put, a file replaced and pulled. */
    private final transient Map<String, Object> writers = new ConcurrentHashMap<>();
    /** What a browser's finished sync lets Idiom write, in the background (the browser does not wait for it). */
    private final transient ExecutorService after = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "idiom-browsers-after-sync");
        t.setDaemon(true);
        return t;
    });

    BookmarkDav(BrowserReplicas browsers, AuthFailures authFailures, PublicUrl publicUrl, Clock clock) {
        this.browsers = browsers;
        this.authFailures = authFailures;
        this.publicUrl = publicUrl;
        this.clock = clock;
    }

    @Override
    public void destroy() {
        after.shutdownNow();
    }

    /** A refusal: the status and why, in plain text. */
    private static final class Refused extends Exception {
        final int status;

        Refused(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    /** A resource in an account's folder: its file, and its path as URLs name it (segments, decoded). */
    private record Resource(BrowserReplicas.Folder folder, Path file, List<String> segments) {
        boolean isRoot() {
            return segments.isEmpty();
        }

        boolean isBookmarks() {
            return file.equals(folder.bookmarks());
        }

        boolean isLock() {
            return file.equals(folder.lockFile());
        }
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String method = req.getMethod();
        req.setAttribute(ServiceTime.OPERATION, "dav " + (SERVED.contains(method) ? method : "other")); // a bounded set of names
        try {
            List<String> segments = segments(req.getPathInfo());
            BrowserReplicas.Folder folder = authenticate(req, res, segments.getFirst());
            if (folder == null) {
                return;
            }
            Resource r = resource(folder, segments.subList(1, segments.size()));
            switch (method) {
                case "OPTIONS" -> {
                    res.setHeader("DAV", "1");
                    res.setHeader("Allow", ALLOW);
                    res.setContentLength(0);
                }
                case "GET", "HEAD" -> read(req, res, r, method.equals("GET"));
                case "PUT" -> {
                    synchronized (writer(folder)) {
                        put(req, res, r);
                    }
                }
                case "DELETE" -> {
                    synchronized (writer(folder)) {
                        delete(req, res, r);
                    }
                }
                case "MKCOL" -> {
                    synchronized (writer(folder)) {
                        mkcol(req, res, r);
                    }
                }
                case "COPY", "MOVE" -> {
                    synchronized (writer(folder)) {
                        copyOrMove(req, res, r, method.equals("MOVE"));
                    }
                }
                case "PROPFIND" -> propfind(req, res, r);
                default -> {
                    res.setHeader("Allow", ALLOW);
                    throw new Refused(405, method + " is not served here (WebDAV class 1 without locks or property changes); allowed: " + ALLOW);
                }
            }
        } catch (Refused refused) {
            refuse(req, res, refused.status, refused.getMessage());
        } catch (BodyLimitExceeded tooLarge) { // a chunked body cut off at max-dav-body: nothing was written
            refuse(req, res, 413, tooLarge.getMessage() + " (max-dav-body)");
        }
    }

    private Object writer(BrowserReplicas.Folder folder) {
        return writers.computeIfAbsent(folder.account(), a -> new Object());
    }

    private static void refuse(HttpServletRequest req, HttpServletResponse res, int status, String message) throws IOException {
        req.setAttribute(ServiceTime.FAULT_STATUS, status);
        res.setStatus(status);
        res.setContentType("text/plain;charset=UTF-8");
        res.getWriter().write(message + "\n");
    }

    /** The decoded path's segments after /dav: the account first. */
    private static List<String> segments(String pathInfo) throws Refused {
        List<String> out = new ArrayList<>();
        for (String s : (pathInfo == null ? "" : pathInfo).split("/")) {
            if (s.isEmpty()) {
                continue;
            }
            if (s.equals(".") || s.equals("..") || s.indexOf('\\') >= 0 || s.indexOf('\0') >= 0 || s.endsWith(TEMP)) {
                throw new Refused(400, "a path segment may not be '.', '..', hold '\\' or NUL, or end in " + TEMP);
            }
            out.add(s);
        }
        if (out.isEmpty()) {
            throw new Refused(404, "a browsers' account is served at /dav/ACCOUNT/ (its tool account's name)");
        }
        return out;
    }

    private static Resource resource(BrowserReplicas.Folder folder, List<String> segments) {
        Path file = folder.root();
        for (String s : segments) {
            file = file.resolve(s);
        }
        return new Resource(folder, file, List.copyOf(segments));
    }

    /** The account's folder if the request's Basic password opens it; else null, with 401 (or 429 for a guesser) sent. */
    private BrowserReplicas.Folder authenticate(HttpServletRequest req, HttpServletResponse res, String account) throws IOException, Refused {
        String header = req.getHeader("Authorization");
        String address = publicUrl.clientAddress(req);
        Optional<Duration> wait = header == null ? Optional.empty() : authFailures.wait(address, header);
        if (wait.isPresent()) {
            res.setHeader("Retry-After", Long.toString(Math.max(1, wait.get().toSeconds())));
            throw new Refused(429, "too many wrong passwords from this address; try again in " + Math.max(1, wait.get().toSeconds()) + " s");
        }
        String password = null;
        if (header != null && header.regionMatches(true, 0, "Basic ", 0, 6)) {
            try {
                String pair = new String(Base64.getDecoder().decode(header.substring(6).strip()), StandardCharsets.UTF_8);
                password = pair.indexOf(':') < 0 ? null : pair.substring(pair.indexOf(':') + 1);
            } catch (IllegalArgumentException notBase64) {
                password = null;
            }
        }
        Optional<BrowserReplicas.Folder> folder = browsers.open(account, password);
        if (folder.isEmpty()) {
            if (header != null) {
                authFailures.failed(address, header);
            }
            res.setHeader("WWW-Authenticate", "Basic realm=\"Idiom bookmarks\", charset=\"UTF-8\"");
            refuse(req, res, 401, "HTTP Basic with the account's WebDAV password (any user name) is needed for /dav/" + account + "/; "
                    + "the password was given once when the xbel-dav account was made");
            return null;
        }
        return folder.get();
    }

    private void read(HttpServletRequest req, HttpServletResponse res, Resource r, boolean body) throws IOException, Refused {
        if (r.isBookmarks()) {
            if (Files.exists(r.folder().lockFile())) {
                browsers.readUnderLock(r.folder());
            } else {
                browsers.beforeBrowserReads(r.folder());
            }
        }
        if (Files.isDirectory(r.file())) {
            StringBuilder list = new StringBuilder();
            for (Path p : children(r.file())) {
                list.append(p.getFileName()).append(Files.isDirectory(p) ? "/" : "").append('\n');
            }
            byte[] text = list.toString().getBytes(StandardCharsets.UTF_8);
            res.setContentType("text/plain;charset=UTF-8");
            res.setContentLength(text.length);
            if (body) {
                res.getOutputStream().write(text);
            }
            return;
        }
        if (!Files.isRegularFile(r.file())) {
            throw new Refused(404, "no " + String.join("/", r.segments()) + " in this folder");
        }
        byte[] content = Files.readAllBytes(r.file());
        String etag = etag(content);
        String ifMatch = req.getHeader("If-Match");
        if (ifMatch != null && !matches(ifMatch, etag)) {
            throw new Refused(412, "If-Match: the file is now " + etag);
        }
        res.setHeader("ETag", etag);
        res.setHeader("Last-Modified", HTTP_DATE.format(Files.getLastModifiedTime(r.file()).toInstant()));
        res.setHeader("Cache-Control", "no-cache");
        String ifNoneMatch = req.getHeader("If-None-Match");
        if (ifNoneMatch != null && matches(ifNoneMatch, etag)) {
            res.setStatus(304);
            return;
        }
        res.setContentType(contentType(r));
        res.setContentLength(content.length);
        if (body) {
            res.getOutputStream().write(content);
        }
    }

    private void put(HttpServletRequest req, HttpServletResponse res, Resource r) throws IOException, Refused {
        if (r.isRoot() || Files.isDirectory(r.file())) {
            throw new Refused(405, "a collection cannot be written with PUT");
        }
        if (!Files.isDirectory(r.file().getParent())) {
            throw new Refused(409, "the collection " + parentName(r) + " does not exist (MKCOL makes it)");
        }
        if (req.getHeader("Content-Range") != null) {
            throw new Refused(400, "a partial PUT (Content-Range) is not taken: send the whole file");
        }
        byte[] content;
        try (InputStream in = req.getInputStream()) {
            content = in.readAllBytes();
        }
        boolean existed = Files.isRegularFile(r.file());
        preconditions(req, r, existed);
        if (r.isLock()) {
            Optional<String> refused = browsers.lockRefusal(r.folder());
            if (refused.isPresent()) {
                throw new Refused(423, refused.get());
            }
            if (!existed) {
                browsers.beforeBrowserReads(r.folder()); // what Idiom owes the browsers goes in before the file is theirs
            }
            write(r.file(), content);
            Files.setLastModifiedTime(r.file(), FileTime.from(clock.instant()));
        } else if (r.isBookmarks()) {
            bookmarks(r, content);
        } else {
            write(r.file(), content);
        }
        res.setHeader("ETag", etag(Files.readAllBytes(r.file())));
        res.setStatus(existed ? 204 : 201);
    }

    /** The bookmark file written by a client: refused with why (422) unless it is XBEL (or floccus' HTML) Idiom reads; then pulled. */
    private void bookmarks(Resource r, byte[] content) throws Refused {
        try {
            browsers.bookmarksWritten(r.folder(), utf8(content));
        } catch (InvalidValueException unreadable) {
            throw new Refused(422, unreadable.getMessage());
        }
    }

    private static String utf8(byte[] content) throws Refused {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException e) {
            throw new Refused(422, "the bookmark file is not UTF-8 (XBEL files are written in UTF-8 here)");
        }
    }

    private void delete(HttpServletRequest req, HttpServletResponse res, Resource r) throws IOException, Refused {
        if (r.isRoot()) {
            throw new Refused(403, "the account's folder is not deleted over WebDAV");
        }
        if (r.isBookmarks()) {
            throw new Refused(403, r.folder().bookmarkFile() + " is the account's library: delete bookmarks in a browser, or remove the account");
        }
        if (!Files.exists(r.file())) {
            throw new Refused(404, "no " + String.join("/", r.segments()) + " in this folder");
        }
        if (Files.isDirectory(r.file())) {
            String depth = req.getHeader("Depth");
            if (depth != null && !depth.equalsIgnoreCase("infinity")) {
                throw new Refused(400, "a collection is deleted whole: Depth must be infinity");
            }
        } else {
            preconditions(req, r, true);
        }
        removeAll(r.file());
        if (r.isLock()) {
            after.execute(() -> browsers.browserDone(r.folder()));
        }
        res.setStatus(204);
    }

    private static void mkcol(HttpServletRequest req, HttpServletResponse res, Resource r) throws IOException, Refused {
        if (req.getContentLengthLong() > 0 || req.getHeader("Transfer-Encoding") != null) {
            throw new Refused(415, "MKCOL takes no body");
        }
        if (r.isRoot() || Files.exists(r.file())) {
            throw new Refused(405, String.join("/", r.segments()) + " already exists");
        }
        if (!Files.isDirectory(r.file().getParent())) {
            throw new Refused(409, "the collection " + parentName(r) + " does not exist");
        }
        Files.createDirectory(r.file());
        res.setStatus(201);
    }

    private void copyOrMove(HttpServletRequest req, HttpServletResponse res, Resource from, boolean move) throws IOException, Refused {
        Resource to = destination(req, from.folder());
        if (from.isRoot() || !Files.exists(from.file())) {
            throw new Refused(from.isRoot() ? 403 : 404, from.isRoot() ? "the account's folder stays where it is"
                    : "no " + String.join("/", from.segments()) + " in this folder");
        }
        if (move && from.isBookmarks()) {
            throw new Refused(403, from.folder().bookmarkFile() + " is the account's library and stays where it is (COPY it instead)");
        }
        if (to.isRoot() || to.file().equals(from.file()) || to.file().startsWith(from.file())) {
            throw new Refused(403, "a resource cannot be copied or moved onto itself or into itself");
        }
        if (!Files.isDirectory(to.file().getParent())) {
            throw new Refused(409, "the collection " + parentName(to) + " does not exist");
        }
        boolean overwrite = !"F".equalsIgnoreCase(String.valueOf(req.getHeader("Overwrite")).strip());
        boolean existed = Files.exists(to.file());
        if (existed && !overwrite) {
            throw new Refused(412, String.join("/", to.segments()) + " exists and Overwrite is F");
        }
        String depth = req.getHeader("Depth");
        boolean shallow = depth != null && depth.strip().equals("0");
        if (Files.isDirectory(from.file()) && move && shallow) {
            throw new Refused(400, "a collection is moved whole: Depth must be infinity");
        }
        if (to.isBookmarks()) {
            if (Files.isDirectory(from.file())) {
                throw new Refused(409, to.folder().bookmarkFile() + " is a file; a collection cannot take its place");
            }
            bookmarks(to, Files.readAllBytes(from.file())); // read as XBEL and pulled, or refused before anything moved
            if (move) {
                Files.delete(from.file());
            }
        } else {
            if (to.isLock()) {
                Optional<String> refused = browsers.lockRefusal(to.folder());
                if (refused.isPresent()) {
                    throw new Refused(423, refused.get());
                }
            }
            if (existed) {
                removeAll(to.file());
            }
            if (move) {
                Files.move(from.file(), to.file(), StandardCopyOption.ATOMIC_MOVE);
            } else {
                copy(from.file(), to.file(), shallow);
            }
        }
        res.setStatus(existed ? 204 : 201);
    }

    /** The Destination header as a resource in the same account's folder (an absolute URL as this server is reached, or a path). */
    private Resource destination(HttpServletRequest req, BrowserReplicas.Folder folder) throws Refused {
        String header = req.getHeader("Destination");
        if (header == null || header.isBlank()) {
            throw new Refused(400, "COPY and MOVE need a Destination header");
        }
        String davRoot = davRoot(req);
        String path;
        try {
            URI u = new URI(header.strip());
            String here = publicUrl.of(req);
            if (u.getHost() != null && !u.getHost().equalsIgnoreCase(req.getServerName()) && !header.strip().startsWith(here)) {
                throw new Refused(502, "the Destination is on another server: " + header);
            }
            path = u.getPath();
        } catch (URISyntaxException e) {
            throw new Refused(400, "the Destination header is not a URI: " + e.getMessage());
        }
        String inside = path == null ? null : path.startsWith(davRoot) ? path.substring(davRoot.length())
                : path.startsWith(req.getContextPath() + "/dav/") ? path.substring(req.getContextPath().length() + "/dav/".length()) : null;
        List<String> segments = inside == null ? List.of() : segments("/" + inside);
        if (segments.isEmpty() || !segments.getFirst().equals(folder.account())) {
            throw new Refused(403, "the Destination must be in this account's folder, " + davRoot + folder.account() + "/");
        }
        return resource(folder, segments.subList(1, segments.size()));
    }

    /** The path the folders are reached at from outside ("/dav/", or under the public URL's path behind a proxy). */
    private String davRoot(HttpServletRequest req) {
        String prefix = URI.create(publicUrl.of(req)).getRawPath();
        return (prefix == null ? "" : prefix.replaceAll("/+$", "")) + "/dav/";
    }

    private void propfind(HttpServletRequest req, HttpServletResponse res, Resource r) throws IOException, Refused {
        String depth = req.getHeader("Depth") == null ? "infinity" : req.getHeader("Depth").strip();
        if (!depth.equals("0") && !depth.equals("1")) {
            res.setStatus(403);
            res.setContentType("application/xml;charset=UTF-8");
            res.getWriter().write("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:error xmlns:d=\"DAV:\"><d:propfind-finite-depth/></d:error>\n");
            req.setAttribute(ServiceTime.FAULT_STATUS, 403);
            return;
        }
        Asked asked = asked(req);
        if (!Files.exists(r.file())) {
            throw new Refused(404, "no " + String.join("/", r.segments()) + " in this folder");
        }
        List<Path> listed = new ArrayList<>();
        listed.add(r.file());
        if (depth.equals("1") && Files.isDirectory(r.file())) {
            listed.addAll(children(r.file()));
        }
        StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:multistatus xmlns:d=\"DAV:\">\n");
        for (Path p : listed) {
            response(out, req, r.folder(), p, asked);
        }
        out.append("</d:multistatus>\n");
        byte[] body = out.toString().getBytes(StandardCharsets.UTF_8);
        res.setStatus(207);
        res.setContentType("application/xml;charset=UTF-8");
        res.setContentLength(body.length);
        res.getOutputStream().write(body);
    }

    /** What a PROPFIND asks for: every live property, their names only, or these (namespace, name) pairs. */
    private record Asked(boolean names, List<String[]> props) {}

    private static Asked asked(HttpServletRequest req) throws IOException, Refused {
        byte[] body;
        try (InputStream in = req.getInputStream()) {
            body = in.readAllBytes();
        }
        if (body.length == 0) {
            return new Asked(false, null);
        }
        Element root = xml(body).getDocumentElement();
        if (!"DAV:".equals(root.getNamespaceURI()) || !"propfind".equals(root.getLocalName())) {
            throw new Refused(400, "a PROPFIND body is a DAV:propfind element");
        }
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && "DAV:".equals(e.getNamespaceURI())) {
                switch (e.getLocalName()) {
                    case "allprop" -> {
                        return new Asked(false, null);
                    }
                    case "propname" -> {
                        return new Asked(true, null);
                    }
                    case "prop" -> {
                        List<String[]> props = new ArrayList<>();
                        for (Node p = e.getFirstChild(); p != null; p = p.getNextSibling()) {
                            if (p instanceof Element pe) {
                                props.add(new String[] {pe.getNamespaceURI() == null ? "" : pe.getNamespaceURI(), pe.getLocalName()});
                            }
                        }
                        return new Asked(false, props);
                    }
                    default -> { }
                }
            }
        }
        throw new Refused(400, "a DAV:propfind holds DAV:allprop, DAV:propname or DAV:prop");
    }

    /** A request body parsed with DTDs refused (no external entities, no expansion). */
    private static Document xml(byte[] body) throws Refused {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            var b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            return b.parse(new java.io.ByteArrayInputStream(body));
        } catch (Exception e) {
            throw new Refused(400, "the body is not well-formed XML (DTDs are refused)");
        }
    }

    private void response(StringBuilder out, HttpServletRequest req, BrowserReplicas.Folder folder, Path p, Asked asked) throws IOException {
        boolean collection = Files.isDirectory(p);
        Map<String, String> live = new java.util.LinkedHashMap<>(); // DAV: name → value as XML
        live.put("resourcetype", collection ? "<d:collection/>" : "");
        live.put("displayname", escape(p.equals(folder.root()) ? folder.account() : p.getFileName().toString()));
        live.put("getlastmodified", HTTP_DATE.format(Files.getLastModifiedTime(p).toInstant()));
        if (!collection) {
            byte[] content = Files.readAllBytes(p);
            live.put("getcontentlength", Long.toString(content.length));
            live.put("getcontenttype", p.equals(folder.bookmarks()) ? folder.contentType() : p.equals(folder.lockFile()) ? "text/html"
                    : "application/octet-stream");
            live.put("getetag", escape(etag(content)));
        }
        out.append("<d:response><d:href>").append(escape(href(req, folder, p, collection))).append("</d:href>\n");
        List<String[]> missing = new ArrayList<>();
        out.append("<d:propstat><d:prop>");
        if (asked.props() == null) {
            live.forEach((name, value) -> out.append("<d:").append(name).append(asked.names() ? "/>" : ">" + value + "</d:" + name + ">"));
        } else {
            for (String[] prop : asked.props()) {
                if (prop[0].equals("DAV:") && live.containsKey(prop[1])) {
                    out.append("<d:").append(prop[1]).append('>').append(live.get(prop[1])).append("</d:").append(prop[1]).append('>');
                } else {
                    missing.add(prop);
                }
            }
        }
        out.append("</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>\n");
        if (!missing.isEmpty()) {
            out.append("<d:propstat><d:prop>");
            int i = 0;
            for (String[] prop : missing) {
                if (prop[0].equals("DAV:")) {
                    out.append("<d:").append(prop[1]).append("/>");
                } else {
                    out.append("<x").append(i).append(':').append(prop[1]).append(" xmlns:x").append(i).append("=\"").append(escape(prop[0])).append("\"/>");
                }
                i++;
            }
            out.append("</d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>\n");
        }
        out.append("</d:response>\n");
    }

    private String href(HttpServletRequest req, BrowserReplicas.Folder folder, Path p, boolean collection) {
        StringBuilder h = new StringBuilder(davRoot(req)).append(encode(folder.account()));
        for (Path part : folder.root().relativize(p)) {
            if (!part.toString().isEmpty()) {
                h.append('/').append(encode(part.toString()));
            }
        }
        return collection ? h.append('/').toString() : h.toString();
    }

    /** A path segment percent-encoded (UTF-8; only RFC 3986's unreserved characters as they are). */
    private static String encode(String segment) {
        StringBuilder out = new StringBuilder();
        for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~".indexOf(c) >= 0)) {
                out.append(c);
            } else {
                out.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
            }
        }
        return out.toString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static void preconditions(HttpServletRequest req, Resource r, boolean exists) throws IOException, Refused {
        String ifMatch = req.getHeader("If-Match");
        String ifNoneMatch = req.getHeader("If-None-Match");
        if (ifMatch == null && ifNoneMatch == null) {
            return;
        }
        String etag = exists ? etag(Files.readAllBytes(r.file())) : null;
        if (ifMatch != null && (etag == null || !matches(ifMatch, etag))) {
            throw new Refused(412, "If-Match: " + (etag == null ? "there is no such file" : "the file is now " + etag));
        }
        if (ifNoneMatch != null && etag != null && matches(ifNoneMatch, etag)) {
            throw new Refused(412, "If-None-Match: the file exists as " + etag);
        }
    }

    private static boolean matches(String header, String etag) {
        for (String t : header.split(",")) {
            String tag = t.strip();
            if (tag.equals("*") || tag.equals(etag) || tag.startsWith("W/") && tag.substring(2).equals(etag)) {
                return true;
            }
        }
        return false;
    }

    /** A strong ETag over the content: the same bytes, the same tag (an idle round keeps it). */
    static String etag(byte[] content) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(content);
            return "\"" + HexFormat.of().formatHex(d, 0, 16) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static String contentType(Resource r) {
        return r.isBookmarks() ? r.folder().contentType() + ";charset=UTF-8" : r.isLock() ? "text/html;charset=UTF-8" : "application/octet-stream";
    }

    private static String parentName(Resource r) {
        return r.segments().size() <= 1 ? "/" : String.join("/", r.segments().subList(0, r.segments().size() - 1)) + "/";
    }

    /** A collection's members as clients see them (Idiom's own temporary files left out), in name order. */
    private static List<Path> children(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                if (!p.getFileName().toString().endsWith(TEMP)) {
                    out.add(p);
                }
            }
        }
        out.sort(null);
        return out;
    }

    /** Written whole to a temporary file, then moved over the old one: a reader sees one or the other. */
    private static void write(Path file, byte[] content) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + TEMP);
        Files.write(tmp, content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void copy(Path from, Path to, boolean shallow) throws IOException {
        if (!Files.isDirectory(from)) {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        Files.createDirectory(to);
        if (!shallow) {
            for (Path child : children(from)) {
                copy(child, to.resolve(child.getFileName().toString()), false);
            }
        }
    }

    private static void removeAll(Path p) throws IOException {
        if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(p)) {
                for (Path child : s) {
                    removeAll(child);
                }
            }
        }
        Files.deleteIfExists(p);
    }
}
