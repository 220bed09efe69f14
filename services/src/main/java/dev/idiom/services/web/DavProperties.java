package dev.idiom.services.web;

import dev.idiom.services.app.BookmarkFolders;
import dev.idiom.services.app.BrowserReplicas;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * WebDAV's PROPFIND in both directions (RFC 4918 §9.1): what a request body asks for (every live
 * property, their names, or named ones), parsed with DTDs refused; and the multistatus answer of an
 * item and, at depth 1, its members, with each asked property that is not there in a 404 propstat.
 */
final class DavProperties {
    static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private DavProperties() {}

    /** What a PROPFIND asks for: every live property, their names only, or these (namespace, name) pairs. */
    record Asked(boolean names, List<String[]> props) {}

    /** A PROPFIND body that is not one: 400 with why. */
    static final class NotAPropfind extends Exception {
        NotAPropfind(String message) {
            super(message, null, false, false);
        }
    }

    static Asked asked(byte[] body) throws NotAPropfind {
        if (body.length == 0) {
            return new Asked(false, null);
        }
        Element root = xml(body).getDocumentElement();
        if (!"DAV:".equals(root.getNamespaceURI()) || !"propfind".equals(root.getLocalName())) {
            throw new NotAPropfind("a PROPFIND body is a DAV:propfind element");
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
        throw new NotAPropfind("a DAV:propfind holds DAV:allprop, DAV:propname or DAV:prop");
    }

    /** A request body parsed with DTDs refused (no external entities, no expansion). */
    private static Document xml(byte[] body) throws NotAPropfind {
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
            throw new NotAPropfind("the body is not well-formed XML (DTDs are refused)");
        }
    }

    /** The multistatus body for these paths of the folder; {@code davRoot} the path the folders are reached at ("/dav/"). */
    static byte[] multistatus(BrowserReplicas.Folder folder, List<Path> listed, Asked asked, String davRoot) throws IOException {
        StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:multistatus xmlns:d=\"DAV:\">\n");
        for (Path p : listed) {
            response(out, folder, p, asked, davRoot);
        }
        return out.append("</d:multistatus>\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void response(StringBuilder out, BrowserReplicas.Folder folder, Path p, Asked asked, String davRoot) throws IOException {
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
            live.put("getetag", escape(BookmarkFolders.tag(content)));
        }
        out.append("<d:response><d:href>").append(escape(href(davRoot, folder, p, collection))).append("</d:href>\n");
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

    private static String href(String davRoot, BrowserReplicas.Folder folder, Path p, boolean collection) {
        StringBuilder h = new StringBuilder(davRoot).append(encode(folder.account()));
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
}
