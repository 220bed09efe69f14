package dev.idiom.wrappers.bookmarks;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RecordRefusedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.ToolException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;

/**
 * The bookmark file of floccus' HTML profile (Netscape bookmark HTML as floccus writes it: an
 * {@code ID} on every link and folder, {@code TAGS=""}, no {@code <DD>}, its {@code highestId}
 * comment), served over WebDAV like {@link XbelFile} and held to the same rules: a bookmark's URL,
 * title and folders (floccus' names for a browser's own folders are no tags, its separators no
 * records), nothing floccus drops when it writes the file (a {@code TAGS} value, a description),
 * floccus' id following a bookmark to a new URL, Idiom's writes waiting while a browser holds the
 * lock. The text is changed in place by {@link BookmarkFile}; a bookmark Idiom adds takes the
 * next id.
 */
public final class FloccusHtml extends BrowserFile {

    private final BookmarkFile inner;

    public FloccusHtml(Path file, String account, Clock clock) {
        super(file, account, clock);
        this.inner = new BookmarkFile(this.file, clock);
    }

    /** A link as floccus sees it: its folders from the top (a browser's own left out) and its id. */
    private record Place(List<String> folders, String id) {}

    /** Every web link's place, by address (the first of each address, as {@link BookmarkFile} reads them). */
    private Map<String, Place> places() {
        String html;
        synchronized (monitor) {
            html = read();
        }
        Map<String, Place> out = new HashMap<>();
        for (Element a : Jsoup.parse(html).select("a[href]")) {
            List<String> folders = new ArrayList<>();
            List<Element> h3s = new ArrayList<>();
            for (Element up = a.parent(); up != null; up = up.parent()) {
                Element h3 = up.tagName().equals("dt") ? up.selectFirst("> h3") : null;
                if (h3 != null) {
                    h3s.addFirst(h3);
                }
            }
            for (int i = 0; i < h3s.size(); i++) {
                String title = h3s.get(i).text().strip();
                if (!title.isEmpty() && !(i == 0 && XbelFile.BROWSER_ROOTS.contains(title))) {
                    folders.add(title);
                }
            }
            out.putIfAbsent(a.attr("href").strip(), new Place(folders, a.hasAttr("id") ? a.attr("id") : null));
        }
        return out;
    }

    /** The link as floccus keeps it: URL, title, folders; the version stays the file's own (the precondition of a write). */
    private static RemoteRecord seen(RemoteRecord r, Map<String, Place> places) {
        Place p = places.getOrDefault(r.remoteId(), new Place(List.of(), null));
        Metadata m = r.metadata().with(Field.TAGS, new TreeSet<>(p.folders())).with(Field.NOTES, null);
        return new RemoteRecord(r.remoteId(), r.version(), m, null, p.id(), false);
    }

    private static boolean separator(RemoteRecord r) {
        return r.remoteId().startsWith("https://" + XbelFile.SEPARATOR_HOST + "/");
    }

    @Override
    public ChangePage changedSince(String cursor) {
        ChangePage page = inner.changedSince(cursor);
        if (page.records().isEmpty()) {
            return page;
        }
        Map<String, Place> places = places();
        List<RemoteRecord> records = page.records().stream().filter(r -> !separator(r)).map(r -> seen(r, places)).toList();
        return new ChangePage(records, page.deleted(), page.skipped(), page.cursor(), page.more(), true, page.present());
    }

    @Override
    public Optional<RemoteRecord> fetch(String remoteId) {
        return inner.fetch(remoteId).filter(r -> !separator(r)).map(r -> seen(r, places()));
    }

    /**
     * A new link with floccus' next id, no tags or description (floccus keeps neither): in the
     * browser's "Other Bookmarks" when the file syncs a whole browser (a browser keeps no bookmark
     * beside its own top folders), else at the end of the file's top level.
     */
    @Override
    public RemoteRecord create(Metadata m, boolean keepPrivate) {
        Optional<String> refused = refusal(m);
        if (refused.isPresent()) {
            throw new RecordRefusedException(refused.get());
        }
        synchronized (monitor) {
            waitForBrowser();
            if (inner.fetch(m.url()).isPresent()) {
                throw new RecordRefusedException("the bookmark file already has " + m.url());
            }
            String html = read().isBlank() ? EMPTY : read(); // a new file, as floccus starts one
            long id = nextId(html);
            int close = closingOf(html, OTHER.matcher(html));
            if (close < 0) {
                close = html.toUpperCase(java.util.Locale.ROOT).lastIndexOf("</DL>");
            }
            int lineStart = html.lastIndexOf('\n', close) + 1;
            String indent = indent(html, lineStart, close);
            String line = indent + "<DT><A HREF=\"" + entities(m.url()) + "\" TAGS=\"\" ID=\"" + id + "\">"
                    + entities(m.title() == null ? m.url() : m.title()) + "</A>\n";
            writeText(withHighestId(html.substring(0, lineStart) + line + html.substring(lineStart), id));
            return fetch(m.url()).orElseThrow(() -> new ToolException("the new bookmark " + m.url() + " could not be read back"));
        }
    }

    /** A new line's indentation before the {@code </DL>} at {@code close}: its sibling's above, else a step in from the folder's. */
    private static String indent(String html, int lineStart, int close) {
        int previousStart = lineStart < 2 ? 0 : html.lastIndexOf('\n', lineStart - 2) + 1;
        String previous = html.substring(previousStart, lineStart);
        if (previous.stripLeading().toUpperCase(java.util.Locale.ROOT).startsWith("<DT>")) {
            return previous.substring(0, previous.length() - previous.stripLeading().length());
        }
        String closing = html.substring(lineStart, close);
        return closing.isBlank() ? closing + "  " : "";
    }

    /** floccus' folder for a browser's bookmarks filed nowhere else. */
    private static final java.util.regex.Pattern OTHER = java.util.regex.Pattern.compile("(?i)<DT><H3[^>]*>Other Bookmarks</H3>");

    /** Where the {@code <DL>} of the folder the matcher finds is closed, or -1 if there is none. */
    private static int closingOf(String html, java.util.regex.Matcher folder) {
        if (!folder.find()) {
            return -1;
        }
        String upper = html.toUpperCase(java.util.Locale.ROOT);
        int open = upper.indexOf("<DL", folder.end());
        int depth = 0;
        for (int i = open; i >= 0 && i < upper.length(); ) {
            int nextOpen = upper.indexOf("<DL", i + 1);
            int nextClose = upper.indexOf("</DL", i + 1);
            if (nextClose < 0) {
                return -1;
            }
            if (nextOpen >= 0 && nextOpen < nextClose) {
                depth++;
                i = nextOpen;
            } else if (depth == 0) {
                return nextClose;
            } else {
                depth--;
                i = nextClose;
            }
        }
        return -1;
    }

    /** As floccus' HTML serializer escapes: numeric references for the five characters HTML reserves. */
    private static String entities(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        s.chars().forEach(c -> out.append("<>&\"'".indexOf(c) >= 0 ? "&#" + c + ";" : String.valueOf((char) c)));
        return out.toString();
    }

    @Override
    public RemoteRecord update(RemoteRecord known, Metadata wanted) {
        synchronized (monitor) {
            waitForBrowser();
            RemoteRecord now = inner.fetch(known.remoteId()).orElse(null);
            // what floccus drops stays as the file has it: only the title and the address are written
            Metadata m = now == null ? wanted : wanted.with(Field.TAGS, now.metadata().tags()).with(Field.NOTES, now.metadata().notes());
            RemoteRecord written = inner.update(known, m);
            return seen(written, places());
        }
    }

    @Override
    public void delete(String remoteId, String knownVersion) {
        synchronized (monitor) {
            waitForBrowser();
            inner.delete(remoteId, knownVersion);
        }
    }

    @Override
    void check(String text) {
        check(text, file.getFileName().toString());
    }

    /** Refuses (with why) text floccus' HTML profile would not read: it needs the Netscape doctype. */
    public static void check(String text, String what) {
        if (text.stripLeading().startsWith("{")) {
            throw new ToolException(what + " is encrypted by floccus (its profile has a passphrase): Idiom has to read the bookmarks to sync them, "
                    + "so leave floccus' passphrase empty for an Idiom server");
        }
        if (!text.contains("<!DOCTYPE NETSCAPE-Bookmark-file-1>")) {
            throw new ToolException(what + " is not a Netscape bookmark file: it has no <!DOCTYPE NETSCAPE-Bookmark-file-1>, which floccus needs");
        }
    }

    /** As floccus' createHTML starts a file. */
    private static final String EMPTY = """
            <!DOCTYPE NETSCAPE-Bookmark-file-1>
            <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
            <TITLE>Bookmarks</TITLE><!--- highestId :0: for Floccus bookmark sync browser extension -->
            <DL><p>
            </DL><p>
            </html>""";

    private String read() {
        return FileText.read(file);
    }

    private void writeText(String text) {
        FileText.write(file, text);
    }

}
