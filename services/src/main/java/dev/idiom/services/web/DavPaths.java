package dev.idiom.services.web;

import dev.idiom.services.app.BookmarkFolders;
import dev.idiom.services.app.BookmarkFolders.Item;
import dev.idiom.services.app.BrowserReplicas;
import dev.idiom.services.http.PublicUrl;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * WebDAV's names for a folder's items: a request's path as segments (checked: no dot segments, no
 * backslash or NUL, none of Idiom's temporary names), a COPY or MOVE's {@code Destination} as an item
 * of the same folder, and the path the folders are reached at from outside.
 */
final class DavPaths {
    private final BookmarkFolders folders;
    private final PublicUrl publicUrl;

    DavPaths(BookmarkFolders folders, PublicUrl publicUrl) {
        this.folders = folders;
        this.publicUrl = publicUrl;
    }

    /** The decoded path's segments after /dav: the account first. */
    List<String> segments(String pathInfo) throws BookmarkDav.Refused {
        List<String> out = new ArrayList<>();
        for (String s : (pathInfo == null ? "" : pathInfo).split("/")) {
            if (s.isEmpty()) {
                continue;
            }
            if (s.equals(".") || s.equals("..") || s.indexOf('\\') >= 0 || s.indexOf('\0') >= 0 || s.endsWith(BookmarkFolders.TEMP)) {
                throw new BookmarkDav.Refused(400, "a path segment may not be '.', '..', hold '\\' or NUL, or end in " + BookmarkFolders.TEMP);
            }
            out.add(s);
        }
        if (out.isEmpty()) {
            throw new BookmarkDav.Refused(404, "a browsers' account is served at /dav/ACCOUNT/ (its tool account's name)");
        }
        return out;
    }

    /** The Destination header as an item in the same account's folder (an absolute URL as this server is reached, or a path). */
    Item destination(HttpServletRequest req, BrowserReplicas.Folder folder) throws BookmarkDav.Refused {
        String header = req.getHeader("Destination");
        if (header == null || header.isBlank()) {
            throw new BookmarkDav.Refused(400, "COPY and MOVE need a Destination header");
        }
        String davRoot = davRoot(req);
        String path;
        try {
            URI u = new URI(header.strip());
            String here = publicUrl.of(req);
            if (u.getHost() != null && !u.getHost().equalsIgnoreCase(req.getServerName()) && !header.strip().startsWith(here)) {
                throw new BookmarkDav.Refused(502, "the Destination is on another server: " + header);
            }
            path = u.getPath();
        } catch (URISyntaxException e) {
            throw new BookmarkDav.Refused(400, "the Destination header is not a URI: " + e.getMessage());
        }
        String inside = path == null ? null : path.startsWith(davRoot) ? path.substring(davRoot.length())
                : path.startsWith(req.getContextPath() + "/dav/") ? path.substring(req.getContextPath().length() + "/dav/".length()) : null;
        List<String> segments = inside == null ? List.of() : segments("/" + inside);
        if (segments.isEmpty() || !segments.getFirst().equals(folder.account())) {
            throw new BookmarkDav.Refused(403, "the Destination must be in this account's folder, " + davRoot + folder.account() + "/");
        }
        return folders.item(folder, segments.subList(1, segments.size()));
    }

    /** The path the folders are reached at from outside ("/dav/", or under the public URL's path behind a proxy). */
    String davRoot(HttpServletRequest req) {
        String prefix = URI.create(publicUrl.of(req)).getRawPath();
        return (prefix == null ? "" : prefix.replaceAll("/+$", "")) + "/dav/";
    }
}
