package dev.idiom.services.web;

import dev.idiom.services.app.BookmarkFolders;
import dev.idiom.services.app.BookmarkFolders.Item;
import dev.idiom.services.app.BrowserReplicas;
import dev.idiom.services.app.ServiceTime;
import dev.idiom.services.http.AuthFailures;
import dev.idiom.services.http.BodyLimitExceeded;
import dev.idiom.services.http.PublicUrl;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * {@code /dav/NAME/…}: a browsers' account's folder over WebDAV (class 1: RFC 4918 without locks,
 * which floccus does not use), for floccus and any other WebDAV client. HTTP Basic with the
 * account's password (any user name). This class translates WebDAV onto the folder's store
 * ({@link BookmarkFolders}: the bookmark file is a pull when written and owed writes when read,
 * floccus' lock file holds Idiom's writes back): paths, headers, strong ETags, {@code If-Match} and
 * {@code If-None-Match}, PROPFIND at depth 0 and 1 ({@link DavProperties}). Refusals are plain text
 * saying why, and change nothing.
 */
final class BookmarkDav extends HttpServlet {
    static final String ALLOW = "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, MKCOL, COPY, MOVE";
    private static final java.util.Set<String> SERVED = java.util.Set.of(ALLOW.split(", "));

    private final transient BookmarkFolders folders;
    private final transient AuthFailures authFailures;
    private final transient PublicUrl publicUrl;
    private final transient DavPaths paths;

    BookmarkDav(BookmarkFolders folders, AuthFailures authFailures, PublicUrl publicUrl) {
        this.folders = folders;
        this.authFailures = authFailures;
        this.publicUrl = publicUrl;
        this.paths = new DavPaths(folders, publicUrl);
    }

    @Override
    public void destroy() {
        folders.close();
    }

    /** A refusal: the status and why, in plain text. */
    static final class Refused extends Exception {
        final int status;

        Refused(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String method = req.getMethod();
        req.setAttribute(ServiceTime.OPERATION, "dav " + (SERVED.contains(method) ? method : "other")); // a bounded set of names
        try {
            List<String> segments = paths.segments(req.getPathInfo());
            BrowserReplicas.Folder folder = authenticate(req, res, segments.getFirst());
            if (folder == null) {
                return;
            }
            Item r = folders.item(folder, segments.subList(1, segments.size()));
            switch (method) {
                case "OPTIONS" -> {
                    res.setHeader("DAV", "1");
                    res.setHeader("Allow", ALLOW);
                    res.setContentLength(0);
                }
                case "GET", "HEAD" -> read(req, res, r, method.equals("GET"));
                case "PUT" -> put(req, res, r);
                case "DELETE" -> {
                    String depth = req.getHeader("Depth");
                    folders.delete(r, depth == null || depth.equalsIgnoreCase("infinity"), preconditions(req));
                    res.setStatus(204);
                }
                case "MKCOL" -> {
                    if (req.getContentLengthLong() > 0 || req.getHeader("Transfer-Encoding") != null) {
                        throw new Refused(415, "MKCOL takes no body");
                    }
                    folders.makeCollection(r);
                    res.setStatus(201);
                }
                case "COPY", "MOVE" -> {
                    String depth = req.getHeader("Depth");
                    boolean replaced = folders.copyOrMove(r, paths.destination(req, folder), method.equals("MOVE"),
                            !"F".equalsIgnoreCase(String.valueOf(req.getHeader("Overwrite")).strip()), depth != null && depth.strip().equals("0"));
                    res.setStatus(replaced ? 204 : 201);
                }
                case "PROPFIND" -> propfind(req, res, r);
                default -> {
                    res.setHeader("Allow", ALLOW);
                    throw new Refused(405, method + " is not served here (WebDAV class 1 without locks or property changes); allowed: " + ALLOW);
                }
            }
        } catch (Refused refused) {
            refuse(req, res, refused.status, refused.getMessage());
        } catch (BookmarkFolders.Refused refused) {
            refuse(req, res, status(refused.why()), refused.getMessage());
        } catch (BodyLimitExceeded tooLarge) { // a chunked body cut off at max-dav-body: nothing was written
            refuse(req, res, 413, tooLarge.getMessage() + " (max-dav-body)");
        }
    }

    /** A folder's refusal in WebDAV's statuses (RFC 4918 §9). */
    private static int status(BookmarkFolders.Refusal why) {
        return switch (why) {
            case NOT_FOUND -> 404;
            case EXISTS, NOT_ALLOWED -> 405;
            case CONFLICT -> 409;
            case PROTECTED -> 403;
            case STALE -> 412;
            case UNREADABLE -> 422;
            case LOCKED -> 423;
            case BAD_REQUEST -> 400;
        };
    }

    private static void refuse(HttpServletRequest req, HttpServletResponse res, int status, String message) throws IOException {
        req.setAttribute(ServiceTime.FAULT_STATUS, status);
        res.setStatus(status);
        res.setContentType("text/plain;charset=UTF-8");
        res.getWriter().write(message + "\n");
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
        Optional<BrowserReplicas.Folder> folder = folders.open(account, password);
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

    private void read(HttpServletRequest req, HttpServletResponse res, Item r, boolean body) throws IOException, Refused {
        folders.beforeRead(r);
        if (r.isCollection()) {
            StringBuilder list = new StringBuilder();
            for (Path p : BookmarkFolders.children(r.file())) {
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
            throw new Refused(404, "no " + r.name() + " in this folder");
        }
        byte[] content = Files.readAllBytes(r.file());
        String etag = BookmarkFolders.tag(content);
        String ifMatch = req.getHeader("If-Match");
        if (ifMatch != null && !matches(ifMatch, etag)) {
            throw new Refused(412, "If-Match: the file is now " + etag);
        }
        res.setHeader("ETag", etag);
        res.setHeader("Last-Modified", DavProperties.HTTP_DATE.format(Files.getLastModifiedTime(r.file()).toInstant()));
        res.setHeader("Cache-Control", "no-cache");
        String ifNoneMatch = req.getHeader("If-None-Match");
        if (ifNoneMatch != null && matches(ifNoneMatch, etag)) {
            res.setStatus(304);
            return;
        }
        res.setContentType(r.contentType());
        res.setContentLength(content.length);
        if (body) {
            res.getOutputStream().write(content);
        }
    }

    private void put(HttpServletRequest req, HttpServletResponse res, Item r) throws IOException, Refused {
        if (r.isRoot() || r.isCollection()) {
            throw new Refused(405, "a collection cannot be written with PUT");
        }
        if (req.getHeader("Content-Range") != null) {
            throw new Refused(400, "a partial PUT (Content-Range) is not taken: send the whole file");
        }
        byte[] content;
        try (InputStream in = req.getInputStream()) {
            content = in.readAllBytes();
        }
        boolean existed = folders.put(r, content, preconditions(req));
        res.setHeader("ETag", BookmarkFolders.tag(r));
        res.setStatus(existed ? 204 : 201);
    }

    private void propfind(HttpServletRequest req, HttpServletResponse res, Item r) throws IOException, Refused {
        String depth = req.getHeader("Depth") == null ? "infinity" : req.getHeader("Depth").strip();
        if (!depth.equals("0") && !depth.equals("1")) {
            res.setStatus(403);
            res.setContentType("application/xml;charset=UTF-8");
            res.getWriter().write("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:error xmlns:d=\"DAV:\"><d:propfind-finite-depth/></d:error>\n");
            req.setAttribute(ServiceTime.FAULT_STATUS, 403);
            return;
        }
        DavProperties.Asked asked;
        try (InputStream in = req.getInputStream()) {
            asked = DavProperties.asked(in.readAllBytes());
        } catch (DavProperties.NotAPropfind e) {
            throw new Refused(400, e.getMessage());
        }
        if (!r.exists()) {
            throw new Refused(404, "no " + r.name() + " in this folder");
        }
        List<Path> listed = new ArrayList<>();
        listed.add(r.file());
        if (depth.equals("1") && r.isCollection()) {
            listed.addAll(BookmarkFolders.children(r.file()));
        }
        byte[] body = DavProperties.multistatus(r.folder(), listed, asked, paths.davRoot(req));
        res.setStatus(207);
        res.setContentType("application/xml;charset=UTF-8");
        res.setContentLength(body.length);
        res.getOutputStream().write(body);
    }

    /** The request's If-Match and If-None-Match, checked against a file's current tag (null: there is none). */
    private static BookmarkFolders.Precondition preconditions(HttpServletRequest req) {
        String ifMatch = req.getHeader("If-Match");
        String ifNoneMatch = req.getHeader("If-None-Match");
        if (ifMatch == null && ifNoneMatch == null) {
            return BookmarkFolders.Precondition.NONE;
        }
        return etag -> {
            if (ifMatch != null && (etag == null || !matches(ifMatch, etag))) {
                throw new BookmarkFolders.Refused(BookmarkFolders.Refusal.STALE, "If-Match: " + (etag == null ? "there is no such file" : "the file is now " + etag));
            }
            if (ifNoneMatch != null && etag != null && matches(ifNoneMatch, etag)) {
                throw new BookmarkFolders.Refused(BookmarkFolders.Refusal.STALE, "If-None-Match: the file exists as " + etag);
            }
        };
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
}
