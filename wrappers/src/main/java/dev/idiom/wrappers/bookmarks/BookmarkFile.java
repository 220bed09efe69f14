package dev.idiom.wrappers.bookmarks;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.events.Fingerprint;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * A browser's bookmark export (Netscape bookmark HTML) as an annotation tool: bookmarks keyed by
 * URL; the folders a bookmark sits in become tags (and stay folders when written back), the
 * {@code TAGS} attribute adds more, a {@code <DD>} is its notes.
 */
public final class BookmarkFile implements AnnotationTool {
    private final Path file;
    private final Clock clock;

    public BookmarkFile(Path file, Clock clock) {
        this.file = file.toAbsolutePath();
        this.clock = clock;
    }

    /** A bookmark holds a title, a URL, a description and tags (folders are tags); nothing else of a DE. */
    @Override
    public java.util.Set<dev.idiom.events.Field> fieldsKept() {
        return java.util.EnumSet.of(dev.idiom.events.Field.TITLE, dev.idiom.events.Field.URL, dev.idiom.events.Field.TAGS,
                dev.idiom.events.Field.NOTES);
    }

    @Override
    public String kind() {
        return "bookmarks";
    }

    @Override
    public boolean keepsPrivate() {
        return true;
    }

    @Override
    public String account() {
        return file.getFileName().toString();
    }

    @Override
    public ToolLimits limits() {
        return ToolLimits.LOCAL_FILE;
    }

    private record Parsed(List<Bookmark> bookmarks, List<Skipped> skipped, String hash) {}

    private synchronized Parsed read() {
        if (!Files.exists(file)) {
            return new Parsed(new ArrayList<>(), List.of(), "");
        }
        String html;
        try {
            html = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ToolException("cannot read bookmark file " + file + ": " + e.getMessage(), e);
        }
        Document doc = Jsoup.parse(html);
        List<Bookmark> bookmarks = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        Map<String, Boolean> seen = new LinkedHashMap<>();
        for (Element a : doc.select("a")) {
            String href = a.attr("href").strip();
            if (href.isEmpty()) {
                skipped.add(new Skipped(null, "a link without HREF (\"" + a.text() + "\")"));
                continue;
            }
            if (!href.startsWith("http://") && !href.startsWith("https://")) {
                skipped.add(new Skipped(href, "not a web address"));
                continue;
            }
            if (seen.put(href, true) != null) {
                skipped.add(new Skipped(href, "the same URL appears again in the file; the first one is used"));
                continue;
            }
            List<String> folders = new ArrayList<>();
            for (Element up = a.parent(); up != null; up = up.parent()) {
                if (up.tagName().equals("dt")) {
                    Element h3 = up.selectFirst("> h3");
                    // the browser's own root folders (the toolbar, "Other Bookmarks") say where, not what: they are no tags
                    if (h3 != null && !h3.text().isBlank() && !h3.hasAttr("personal_toolbar_folder") && !h3.hasAttr("unfiled_bookmarks_folder")) {
                        folders.addFirst(h3.text().strip());
                    }
                }
            }
            SortedSet<String> tags = new TreeSet<>();
            for (String t : a.attr("tags").split(",")) {
                if (!t.isBlank()) {
                    tags.add(t.strip());
                }
            }
            Element dt = a.parent() != null && a.parent().tagName().equals("dt") ? a.parent() : null;
            Element dd = dt == null ? null : dt.nextElementSibling();
            String description = dd != null && dd.tagName().equals("dd") ? dd.ownText().strip() : null;
            bookmarks.add(new Bookmark(href, a.text().strip(), blankToNull(a.attr("add_date")), blankToNull(a.attr("last_modified")),
                    tags, folders, blankToNull(description), "1".equals(a.attr("private").strip())));
        }
        return new Parsed(bookmarks, skipped, Fingerprint.of(html));
    }

    /** The {@code TAGS} attribute separates tags by commas: a tag with a comma of its own is left out of the copy (it stays in Idiom). */
    @Override
    public Metadata writable(Metadata wanted, Metadata known) {
        if (wanted.tags().stream().noneMatch(t -> t.indexOf(',') >= 0)) {
            return wanted;
        }
        SortedSet<String> tags = new TreeSet<>();
        wanted.tags().stream().filter(t -> t.indexOf(',') < 0).forEach(tags::add);
        return wanted.with(Field.TAGS, tags);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static RemoteRecord record(Bookmark b) {
        SortedSet<String> tags = new TreeSet<>(b.tags());
        tags.addAll(b.folders());
        Metadata m = Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.URL, b.href())
                .with(Field.TITLE, b.title().isEmpty() ? b.href() : b.title()).with(Field.TAGS, tags).with(Field.NOTES, b.description());
        return new RemoteRecord(b.href(), Fingerprint.of(b.href() + "\n" + m.title() + "\n" + tags + "\n" + b.description()), m, null, null,
                b.privateMark());
    }

    @Override
    public ChangePage changedSince(String cursor) {
        Parsed p = read();
        if (p.hash().equals(cursor)) {
            return new ChangePage(List.of(), List.of(), List.of(), cursor, false);
        }
        return new ChangePage(p.bookmarks().stream().map(BookmarkFile::record).toList(), List.of(), p.skipped(), p.hash(), false,
                p.skipped().isEmpty()); // the whole file
    }

    @Override
    public Optional<RemoteRecord> fetch(String remoteId) {
        return read().bookmarks().stream().filter(b -> b.href().equals(remoteId)).findFirst().map(BookmarkFile::record);
    }

    @Override
    public synchronized RemoteRecord create(Metadata m, boolean keepPrivate) {
        if (m.url() == null) {
            throw new ToolException("a bookmark needs a URL; this entity has none");
        }
        Parsed p = read();
        if (p.bookmarks().stream().anyMatch(b -> b.href().equals(m.url()))) {
            throw new ToolException("the bookmark file already has " + m.url());
        }
        String now = Long.toString(clock.instant().getEpochSecond());
        Bookmark b = new Bookmark(m.url(), m.title() == null ? m.url() : m.title(), now, now, new TreeSet<>(m.tags()), List.of(), m.notes(), keepPrivate);
        String html = null;
        try {
            html = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            throw new ToolException("cannot read bookmark file " + file + ": " + e.getMessage(), e);
        }
        int rootEnd = html == null ? -1 : html.toUpperCase(java.util.Locale.ROOT).lastIndexOf("</DL>");
        if (rootEnd < 0) {
            p.bookmarks().add(b);
            write(p.bookmarks());
        } else { // added at the end of the top folder; the rest of the file as it was
            int lineStart = html.lastIndexOf('\n', rootEnd) + 1;
            StringBuilder line = new StringBuilder();
            anchorLine(line, b, "    ");
            writeText(html.substring(0, lineStart) + line + html.substring(lineStart));
        }
        return record(b);
    }

    @Override
    public synchronized RemoteRecord update(RemoteRecord known, Metadata wanted) {
        String remoteId = known.remoteId();
        String knownVersion = known.version();
        // a bookmark holds only these: the wanted state of each, the rest stays as the file has it
        Metadata m = wanted;
        Parsed p = read();
        for (int i = 0; i < p.bookmarks().size(); i++) {
            Bookmark old = p.bookmarks().get(i);
            if (old.href().equals(remoteId)) {
                if (knownVersion != null && !record(old).version().equals(knownVersion)) {
                    throw new RemoteChangedException("bookmark " + remoteId + " was edited since version " + knownVersion);
                }
                // tags that are folder names stay folders (the bookmark stays where it is); the others go into TAGS
                SortedSet<String> tags = new TreeSet<>(m.tags());
                List<String> folders = old.folders().stream().filter(tags::contains).toList();
                tags.removeAll(folders);
                Bookmark b = new Bookmark(m.url() == null ? old.href() : m.url(), m.title() == null ? old.title() : m.title(), old.addDate(),
                        Long.toString(clock.instant().getEpochSecond()), tags, old.folders(), m.notes(), old.privateMark());
                if (record(b).version().equals(record(old).version())) {
                    return record(old); // nothing to write: the file is left as it is
                }
                splice(remoteId, b);
                return record(b);
            }
        }
        throw new RemoteChangedException("bookmark " + remoteId + " is no longer in " + file.getFileName());
    }

    @Override
    public synchronized void delete(String remoteId, String knownVersion) {
        Parsed p = read();
        Optional<Bookmark> b = p.bookmarks().stream().filter(x -> x.href().equals(remoteId)).findFirst();
        if (b.isEmpty()) {
            return;
        }
        if (knownVersion != null && !record(b.get()).version().equals(knownVersion)) {
            throw new RemoteChangedException("bookmark " + remoteId + " was edited since version " + knownVersion);
        }
        splice(remoteId, null);
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper KEPT = new com.fasterxml.jackson.databind.ObjectMapper();

    /**
     * Deletes the bookmark and keeps its lines as they stood (its {@code <DT><A …>} line and its
     * {@code <DD>}), the two lines before them and where they began: {@link #restore(String, String)}
     * puts those bytes back at that place, in its folder, with every attribute it had.
     */
    @Override
    public synchronized String deleteKeeping(String remoteId, String knownVersion) {
        String html = readText();
        Optional<int[]> lines = lines(html, remoteId);
        delete(remoteId, knownVersion);
        if (lines.isEmpty()) {
            return null; // not there, or not on lines of its own: a restore makes it anew
        }
        int start = lines.get()[0];
        int contextStart = start;
        for (int i = 0; i < 2 && contextStart > 0; i++) {
            contextStart = html.lastIndexOf('\n', contextStart - 2) + 1;
        }
        return KEPT.createObjectNode().put("text", html.substring(start, lines.get()[1])).put("before", html.substring(contextStart, start))
                .put("at", start).put("previous", neighbour(html, start, true)).put("next", neighbour(html, lines.get()[1], false)).toString();
    }

    /** The bookmark whose lines end where {@code at} is ({@code previous}) or begin there, if one does. */
    private static String neighbour(String html, int at, boolean previous) {
        java.util.regex.Matcher a = ANCHOR.matcher(html);
        while (a.find()) {
            String href = org.jsoup.parser.Parser.unescapeEntities(attribute(a.group(1), "HREF"), true).strip();
            Optional<int[]> l = lines(html, href);
            if (l.isPresent() && l.get()[previous ? 1 : 0] == at) {
                return href;
            }
        }
        return null;
    }

    /**
     * The bookmark's own lines back where they stood: after the two lines that preceded them when
     * those are still in the file once, else after the bookmark that preceded it or before the one
     * that followed it, else at the same place if the file still reads the same up to there, else at
     * the end of the top folder. Empty if nothing was kept.
     */
    @Override
    public synchronized Optional<RemoteRecord> restore(String remoteId, String kept) {
        if (kept == null) {
            return Optional.empty();
        }
        if (fetch(remoteId).isPresent()) {
            return fetch(remoteId); // put back by hand: as it now is
        }
        String text;
        String before;
        int at;
        String previous;
        String next;
        try {
            com.fasterxml.jackson.databind.JsonNode k = KEPT.readTree(kept);
            text = k.path("text").asText(null);
            before = k.path("before").asText("");
            at = k.path("at").asInt(-1);
            previous = k.path("previous").isTextual() ? k.get("previous").asText() : null;
            next = k.path("next").isTextual() ? k.get("next").asText() : null;
        } catch (IOException e) {
            return Optional.empty();
        }
        if (text == null) {
            return Optional.empty();
        }
        String html = readText();
        int first = before.isEmpty() ? -1 : html.indexOf(before);
        Optional<int[]> after = previous == null ? Optional.empty() : lines(html, previous);
        Optional<int[]> ahead = next == null ? Optional.empty() : lines(html, next);
        int where;
        if (first >= 0 && html.indexOf(before, first + 1) < 0) {
            where = first + before.length();
        } else if (after.isPresent()) {
            where = after.get()[1];
        } else if (ahead.isPresent()) {
            where = ahead.get()[0];
        } else if (at >= 0 && at <= html.length() && html.startsWith(before, at - before.length())) {
            where = at;
        } else {
            int rootEnd = html.toUpperCase(java.util.Locale.ROOT).lastIndexOf("</DL>");
            where = rootEnd < 0 ? html.length() : html.lastIndexOf('\n', rootEnd) + 1;
        }
        writeText(html.substring(0, where) + text + html.substring(where));
        return fetch(remoteId);
    }

    private String readText() {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new ToolException("cannot read bookmark file " + file + ": " + e.getMessage(), e);
        }
    }

    /** Where the bookmark's own lines begin and end (past their last newline), if it stands on lines of its own. */
    private static Optional<int[]> lines(String html, String href) {
        java.util.regex.Matcher a = ANCHOR.matcher(html);
        while (a.find()) {
            if (!href.equals(org.jsoup.parser.Parser.unescapeEntities(attribute(a.group(1), "HREF"), true).strip())) {
                continue;
            }
            java.util.regex.Matcher dd = DESCRIPTION.matcher(html).region(a.end(), html.length());
            int descriptionEnd = dd.lookingAt() ? dd.end() : a.end();
            int lineStart = html.lastIndexOf('\n', a.start()) + 1;
            int lineEnd = html.indexOf('\n', descriptionEnd);
            if (!html.substring(lineStart, a.start()).isBlank() || lineEnd < 0 || !html.substring(descriptionEnd, lineEnd).isBlank()) {
                return Optional.empty();
            }
            return Optional.of(new int[] {lineStart, lineEnd + 1});
        }
        return Optional.empty();
    }

    /** A bookmark's {@code <DT><A …>title</A>} in the file's text, and its {@code <DD>} description if one follows. */
    private static final java.util.regex.Pattern ANCHOR = java.util.regex.Pattern.compile("(?is)<DT>\\s*<A\\b([^>]*)>(.*?)</A>");
    private static final java.util.regex.Pattern ATTRIBUTE = java.util.regex.Pattern.compile("(?is)\\s([A-Z_][A-Z0-9_-]*)\\s*=\\s*\"([^\"]*)\"");
    private static final java.util.regex.Pattern DESCRIPTION = java.util.regex.Pattern.compile("(?is)[ \\t]*\\r?\\n?[ \\t]*<DD>([^<]*?)(?=\\s*<|\\s*\\z)");

    /**
     * Rewrites one bookmark in place in the file's own text ({@code changed} null: removes it), so
     * everything else is kept byte for byte: other bookmarks, folders (empty ones too), separators,
     * bookmarklets and {@code place:} queries, and the bookmark's own attributes Idiom does not model
     * ({@code ICON}, {@code ICON_URI}, {@code SHORTCUTURL}, …).
     */
    private void splice(String href, Bookmark changed) {
        String html;
        try {
            html = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ToolException("cannot read bookmark file " + file + ": " + e.getMessage(), e);
        }
        java.util.regex.Matcher a = ANCHOR.matcher(html);
        while (a.find()) {
            if (!href.equals(org.jsoup.parser.Parser.unescapeEntities(attribute(a.group(1), "HREF"), true).strip())) {
                continue;
            }
            int start = a.start();
            int end = a.end();
            java.util.regex.Matcher dd = DESCRIPTION.matcher(html).region(end, html.length());
            boolean hasDescription = dd.lookingAt();
            int descriptionEnd = hasDescription ? dd.end() : end;
            String out;
            if (changed == null) {
                int lineStart = html.lastIndexOf('\n', start) + 1;
                int lineEnd = html.indexOf('\n', descriptionEnd);
                boolean alone = html.substring(lineStart, start).isBlank();
                out = alone ? html.substring(0, lineStart) + (lineEnd < 0 ? "" : html.substring(lineEnd + 1))
                        : html.substring(0, start) + html.substring(descriptionEnd);
            } else {
                String attrs = a.group(1);
                attrs = withAttribute(attrs, "HREF", changed.href());
                attrs = withAttribute(attrs, "LAST_MODIFIED", attribute(attrs, "LAST_MODIFIED") == null ? null : changed.lastModified());
                // a TAGS attribute the file has stays, empty if no tag is left (floccus writes TAGS=""); none is added for no tags
                String writtenTags = attribute(attrs, "TAGS");
                List<String> written = writtenTags == null ? List.of() : tagList(org.jsoup.parser.Parser.unescapeEntities(writtenTags, true));
                if (writtenTags == null || !Set.copyOf(written).equals(changed.tags())) {
                    attrs = withAttribute(attrs, "TAGS", changed.tags().isEmpty() && writtenTags == null ? null
                            : String.join(",", inWrittenOrder(written, changed.tags())));
                } // the same tags: TAGS stays as written, in its order (a title edit does not re-sort them)
                String anchor = html.substring(start, a.start(1)) + attrs + ">" + text(changed.title()) + "</A>";
                String description;
                if (changed.description() == null) {
                    description = "";
                } else if (hasDescription) {
                    description = html.substring(end, dd.start(1)) + text(changed.description());
                } else {
                    int lineStart = html.lastIndexOf('\n', start) + 1;
                    description = "\n" + html.substring(lineStart, start).replaceAll("\\S", "") + "<DD>" + text(changed.description());
                }
                out = html.substring(0, start) + anchor + description + html.substring(descriptionEnd);
            }
            writeText(out);
            return;
        }
        throw new RemoteChangedException("bookmark " + href + " is no longer in " + file.getFileName());
    }

    /** An attribute's raw value in a tag's attribute text, or null. */
    /** A {@code TAGS} value's tags in the order written, each once. */
    private static List<String> tagList(String written) {
        return java.util.Arrays.stream(written.split(",")).map(String::strip).filter(t -> !t.isEmpty()).distinct().toList();
    }

    /** {@code tags} in the order {@code written} has them, the new ones after, in name order: a changed TAGS keeps the curator's order. */
    static List<String> inWrittenOrder(List<String> written, java.util.Collection<String> tags) {
        List<String> out = new java.util.ArrayList<>(written.stream().filter(tags::contains).toList());
        tags.stream().filter(t -> !out.contains(t)).sorted().forEach(out::add);
        return out;
    }

    private static String attribute(String attrs, String name) {
        java.util.regex.Matcher m = ATTRIBUTE.matcher(attrs);
        while (m.find()) {
            if (m.group(1).equalsIgnoreCase(name)) {
                return m.group(2);
            }
        }
        return null;
    }

    /** The attribute text with {@code name} set to {@code value} where it stands (added at the end if new; removed if null). */
    private static String withAttribute(String attrs, String name, String value) {
        java.util.regex.Matcher m = ATTRIBUTE.matcher(attrs);
        while (m.find()) {
            if (m.group(1).equalsIgnoreCase(name)) {
                if (value == null) {
                    return attrs.substring(0, m.start()) + attrs.substring(m.end());
                }
                return attrs.substring(0, m.start(2)) + attr(value) + attrs.substring(m.end(2));
            }
        }
        return value == null ? attrs : attrs + " " + name + "=\"" + attr(value) + "\"";
    }

    /** Writes the standard export format, folders nested as they were. */
    private void write(List<Bookmark> bookmarks) {
        StringBuilder out = new StringBuilder("""
                <!DOCTYPE NETSCAPE-Bookmark-file-1>
                <!-- This is an automatically generated file.
                     It will be read and overwritten.
                     DO NOT EDIT! -->
                <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
                <TITLE>Bookmarks</TITLE>
                <H1>Bookmarks</H1>
                <DL><p>
                """);
        writeFolder(out, bookmarks, List.of(), 1);
        out.append("</DL><p>\n");
        writeText(out.toString());
    }

    private void writeText(String text) {
        try {
            Path tmp = file.resolveSibling("." + file.getFileName() + ".idiom-tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ToolException("cannot write bookmark file " + file + ": " + e.getMessage(), e);
        }
    }

    private static void writeFolder(StringBuilder out, List<Bookmark> all, List<String> path, int depth) {
        String indent = "    ".repeat(depth);
        for (Bookmark b : all) {
            if (b.folders().equals(path)) {
                anchorLine(out, b, indent);
            }
        }
        List<String> children = new ArrayList<>();
        for (Bookmark b : all) {
            if (b.folders().size() > path.size() && b.folders().subList(0, path.size()).equals(path)) {
                String child = b.folders().get(path.size());
                if (!children.contains(child)) {
                    children.add(child);
                }
            }
        }
        for (String child : children) {
            out.append(indent).append("<DT><H3>").append(text(child)).append("</H3>\n").append(indent).append("<DL><p>\n");
            List<String> sub = new ArrayList<>(path);
            sub.add(child);
            writeFolder(out, all, sub, depth + 1);
            out.append(indent).append("</DL><p>\n");
        }
    }

    /** One bookmark in the export format: its {@code <DT><A …>} line and its {@code <DD>} line if it has a description. */
    private static void anchorLine(StringBuilder out, Bookmark b, String indent) {
        out.append(indent).append("<DT><A HREF=\"").append(attr(b.href())).append('"');
        if (b.addDate() != null) {
            out.append(" ADD_DATE=\"").append(attr(b.addDate())).append('"');
        }
        if (b.lastModified() != null) {
            out.append(" LAST_MODIFIED=\"").append(attr(b.lastModified())).append('"');
        }
        if (b.privateMark()) {
            out.append(" PRIVATE=\"1\"");
        }
        if (!b.tags().isEmpty()) {
            out.append(" TAGS=\"").append(attr(String.join(",", b.tags()))).append('"');
        }
        out.append('>').append(text(b.title())).append("</A>\n");
        if (b.description() != null) {
            out.append(indent).append("<DD>").append(text(b.description())).append('\n');
        }
    }

    private static String text(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String attr(String s) {
        return text(s).replace("\"", "&quot;");
    }
}
