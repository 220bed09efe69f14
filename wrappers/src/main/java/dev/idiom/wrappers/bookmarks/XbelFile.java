package dev.idiom.wrappers.bookmarks;

import dev.idiom.events.Field;
import dev.idiom.events.Fingerprint;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RecordRefusedException;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import dev.idiom.wrappers.ToolException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * A bookmark file in XBEL 1.0 that browsers sync through floccus, served by Idiom over WebDAV: a
 * bookmark is keyed by its URL (its floccus {@code id} follows it when the URL changes in a
 * browser), the folders it sits in are its tags. Only what floccus itself writes back is
 * modelled — URL, title and folders: floccus drops a {@code <desc>} when it writes the file, so a
 * description is kept in the file but not taken as a record's notes (a browser's sync would
 * otherwise clear every note). Idiom changes the file's text in place (see {@link XmlSpans}):
 * every byte it does not change stays as written — other elements and attributes in their order,
 * quotes, entities, white space, separators, bookmarklets, comments, the prolog and floccus'
 * {@code highestId} comment, which a bookmark Idiom adds advances. floccus' names for a browser's
 * own top folders ("Bookmarks Bar", …) are no tags, and its separators no records. While a
 * browser holds the file's {@link BrowserLock}, Idiom's writes wait (a retry later).
 */
public final class XbelFile extends BrowserFile {
    /** @param account the Idiom account the file belongs to (its copies' account) */
    public XbelFile(Path file, String account, Clock clock) {
        super(file, account, clock);
    }

    /** One bookmark: its element and where it stands in the text, its URL, title, the folders above it (titles from the top) and floccus' id. */
    private record Entry(Element element, XmlSpans.Span span, String href, String title, List<String> folders, String id) {}

    private record Parsed(String text, XmlSpans.Span root, List<Entry> entries, List<Skipped> skipped, String hash) {}

    /** The file's text, or "" when there is none yet. */
    private String text() {
        return FileText.read(file);
    }

    private Parsed read() {
        String text;
        synchronized (monitor) {
            text = text();
        }
        return parsed(text);
    }

    private Parsed parsed(String text) {
        if (text.isBlank()) {
            return new Parsed(text, null, List.of(), List.of(), "");
        }
        Document doc = parse(text, file.getFileName().toString());
        XmlSpans.Span root = XmlSpans.root(text);
        // the parser's elements and the text's, both in document order
        Map<Element, XmlSpans.Span> spans = new IdentityHashMap<>();
        org.w3c.dom.NodeList elements = doc.getElementsByTagName("*");
        List<XmlSpans.Span> inText = XmlSpans.all(root);
        if (elements.getLength() != inText.size()) {
            throw new ToolException(file.getFileName() + " could not be read element by element (" + elements.getLength() + " elements parsed, "
                    + inText.size() + " found in its text)");
        }
        for (int i = 0; i < elements.getLength(); i++) {
            spans.put((Element) elements.item(i), inText.get(i));
        }
        List<Entry> entries = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        walk(doc.getDocumentElement(), List.of(), entries, skipped, new HashSet<>(), spans);
        return new Parsed(text, root, entries, skipped, Fingerprint.of(text));
    }

    /**
     * The XBEL document in {@code text}, or a {@link ToolException} saying why it is none: not XML,
     * not XBEL, encrypted by floccus, or declaring entities (no DTD is fetched and no entity expanded).
     */
    public static Document parse(String text, String what) {
        String start = text.stripLeading();
        if (start.startsWith("{")) {
            throw new ToolException(what + " is encrypted by floccus (its profile has a passphrase): Idiom has to read the bookmarks to sync them, "
                    + "so leave floccus' passphrase empty for an Idiom server");
        }
        if (text.contains("<!ENTITY")) {
            throw new ToolException(what + " declares entities: an XBEL file needs none, and Idiom expands none");
        }
        Document doc;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(false);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            b.setEntityResolver((publicId, systemId) -> new InputSource(new StringReader(""))); // the XBEL DTD is never fetched
            doc = b.parse(new InputSource(new StringReader(text)));
        } catch (SAXException e) {
            throw new ToolException(what + " is not well-formed XML: " + e.getMessage());
        } catch (IOException | javax.xml.parsers.ParserConfigurationException e) {
            throw new ToolException(what + " cannot be read: " + e.getMessage(), e);
        }
        if (!"xbel".equals(doc.getDocumentElement().getTagName())) {
            throw new ToolException(what + " is not XBEL: its root element is <" + doc.getDocumentElement().getTagName() + ">, not <xbel>");
        }
        return doc;
    }

    /** floccus' names for a browser's own top folders (its toolbar, menu, "other" and mobile folders): where a bookmark is, not what. */
    static final Set<String> BROWSER_ROOTS = Set.of("Bookmarks Bar", "Other Bookmarks", "Bookmarks Menu", "Mobile Bookmarks");
    /** floccus writes a browser's separators as bookmarks of this host. */
    static final String SEPARATOR_HOST = "separator.floccus.org";

    private static void walk(Element parent, List<String> folders, List<Entry> out, List<Skipped> skipped, Set<String> seen,
                             Map<Element, XmlSpans.Span> spans) {
        boolean top = parent == parent.getOwnerDocument().getDocumentElement();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element e)) {
                continue;
            }
            if (e.getTagName().equals("folder")) {
                String title = title(e).strip();
                List<String> path = new ArrayList<>(folders);
                if (!title.isEmpty() && !(top && BROWSER_ROOTS.contains(title))) {
                    path.add(title);
                }
                walk(e, path, out, skipped, seen, spans);
            } else if (e.getTagName().equals("bookmark")) {
                String href = e.getAttribute("href").strip();
                if (!href.startsWith("http://") && !href.startsWith("https://")) {
                    skipped.add(new Skipped(href.isEmpty() ? null : href, href.isEmpty() ? "a bookmark without href" : "not a web address"));
                } else if (href.startsWith("https://" + SEPARATOR_HOST + "/")) {
                    continue; // a browser's separator: no record, left where it is
                } else if (!seen.add(href)) {
                    skipped.add(new Skipped(href, "the same URL appears again in the file (in " + String.join(" / ", folders)
                            + "); the first one is used"));
                } else {
                    out.add(new Entry(e, spans.get(e), href, title(e).strip(), List.copyOf(folders), e.hasAttribute("id") ? e.getAttribute("id") : null));
                }
            }
        }
    }

    /** The text of an element's own {@code <title>}, or "". */
    private static String title(Element e) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element t && t.getTagName().equals("title")) {
                return t.getTextContent();
            }
        }
        return "";
    }

    private static RemoteRecord record(Entry e) {
        return record(e.href(), e.title(), e.folders(), e.id());
    }

    private static RemoteRecord record(String href, String rawTitle, List<String> folders, String id) {
        SortedSet<String> tags = new TreeSet<>(folders);
        String title = rawTitle.isEmpty() ? href : rawTitle;
        Metadata m = Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.URL, href).with(Field.TITLE, title).with(Field.TAGS, tags);
        return new RemoteRecord(href, Fingerprint.of(href + "\n" + title + "\n" + tags), m, null, id, false);
    }

    @Override
    public ChangePage changedSince(String cursor) {
        Parsed p = read();
        if (p.hash().equals(cursor)) {
            return new ChangePage(List.of(), List.of(), List.of(), cursor, false);
        }
        // the whole file every time: a bookmark not in it was deleted (one listed twice is there all the same)
        return new ChangePage(p.entries().stream().map(XbelFile::record).toList(), List.of(), p.skipped(), p.hash(), false, true);
    }

    @Override
    public Optional<RemoteRecord> fetch(String remoteId) {
        return read().entries().stream().filter(e -> e.href().equals(remoteId)).findFirst().map(XbelFile::record);
    }

    @Override
    public RemoteRecord create(Metadata m, boolean keepPrivate) {
        Made made = createAll(List.of(new NewCopy(m, keepPrivate, null))).getFirst();
        if (made.failure() != null) {
            throw made.failure();
        }
        return made.record();
    }

    /**
     * The new bookmarks in one rewrite: each where {@link #topFolder} says, after what is there, with
     * the next floccus id; the rest of the file as it was.
     */
    @Override
    public List<Made> createAll(List<NewCopy> copies) {
        synchronized (monitor) {
            return createAllNow(copies);
        }
    }

    private List<Made> createAllNow(List<NewCopy> copies) {
        waitForBrowser();
        String original = text();
        String text = original.isBlank() ? EMPTY : original;
        Parsed p = parsed(text);
        Set<String> present = new HashSet<>();
        p.entries().forEach(e -> present.add(e.href()));
        long next = nextId(text);
        List<Made> out = new ArrayList<>();
        for (NewCopy c : copies) {
            Metadata m = c.metadata();
            Optional<String> refused = refusal(m);
            if (refused.isPresent()) {
                out.add(new Made(null, new RecordRefusedException(refused.get())));
                continue;
            }
            if (!present.add(m.url())) {
                out.add(new Made(null, new RecordRefusedException("the bookmark file already has " + m.url())));
                continue;
            }
            XmlSpans.Span root = XmlSpans.root(text);
            XmlSpans.Span folder = topFolder(text, root, m.tags());
            String title = m.title() == null ? m.url() : m.title();
            String id = Long.toString(next++);
            text = appended(text, folder, "<bookmark href=\"" + escape(m.url()) + "\" id=\"" + id + "\">", "<title>" + escape(title) + "</title>",
                    "</bookmark>");
            String folderTitle = folder == root ? null : titleText(text, XmlSpans.root(text), folder.start());
            List<String> folders = folderTitle == null || BROWSER_ROOTS.contains(folderTitle) ? List.of() : List.of(folderTitle);
            out.add(new Made(record(m.url(), title, folders, id), null));
        }
        if (out.stream().anyMatch(made -> made.record() != null)) {
            writeText(withHighestId(text, next - 1));
        }
        return out;
    }

    @Override
    public RemoteRecord update(RemoteRecord known, Metadata wanted) {
        synchronized (monitor) {
            return updateNow(known, wanted);
        }
    }

    private RemoteRecord updateNow(RemoteRecord known, Metadata wanted) {
        waitForBrowser();
        Parsed p = read();
        Entry old = entry(p, known.remoteId());
        if (known.version() != null && !record(old).version().equals(known.version())) {
            throw new RemoteChangedException("bookmark " + known.remoteId() + " was edited since version " + known.version());
        }
        String href = wanted.url() == null ? old.href() : wanted.url();
        String title = wanted.title() == null || wanted.title().equals(old.href()) && old.title().isEmpty() ? old.title() : wanted.title();
        if (href.equals(old.href()) && title.equals(old.title())) {
            return record(old); // nothing to write: the file stays as it is
        }
        if (!href.equals(old.href()) && p.entries().stream().anyMatch(e -> e.href().equals(href))) {
            throw new RecordRefusedException("the bookmark file already has " + href + "; a second bookmark cannot take that address");
        }
        String text = p.text();
        XmlSpans.Span b = old.span();
        if (!title.equals(old.title())) {
            XmlSpans.Span t = b.child("title");
            if (t != null && !t.selfClosed()) {
                text = text.substring(0, t.startTagEnd()) + escape(title) + text.substring(t.endTagStart());
            } else if (t != null) {
                text = text.substring(0, t.start()) + "<title>" + escape(title) + "</title>" + text.substring(t.end());
            } else if (!b.selfClosed()) {
                text = text.substring(0, b.startTagEnd()) + "<title>" + escape(title) + "</title>" + text.substring(b.startTagEnd());
            } else {
                String tag = text.substring(b.start(), b.end() - 2).stripTrailing();
                text = text.substring(0, b.start()) + tag + "><title>" + escape(title) + "</title></bookmark>" + text.substring(b.end());
            }
        }
        if (!href.equals(old.href())) { // the start tag stands before the title: its offsets still hold
            text = text.substring(0, b.start()) + withHref(text.substring(b.start(), b.startTagEnd()), href) + text.substring(b.startTagEnd());
        }
        writeText(text);
        return record(href, title, old.folders(), old.id());
    }

    @Override
    public void delete(String remoteId, String knownVersion) {
        synchronized (monitor) {
            deleteNow(remoteId, knownVersion);
        }
    }

    private void deleteNow(String remoteId, String knownVersion) {
        waitForBrowser();
        Parsed p = read();
        Optional<Entry> e = p.entries().stream().filter(x -> x.href().equals(remoteId)).findFirst();
        if (e.isEmpty()) {
            return;
        }
        if (knownVersion != null && !record(e.get()).version().equals(knownVersion)) {
            throw new RemoteChangedException("bookmark " + remoteId + " was edited since version " + knownVersion);
        }
        String text = p.text();
        XmlSpans.Span b = e.get().span();
        int from = b.start();
        int to = b.end();
        int lineStart = text.lastIndexOf('\n', from - 1) + 1;
        int lineEnd = text.indexOf('\n', to);
        if (text.substring(lineStart, from).isBlank() && (lineEnd < 0 ? text.substring(to) : text.substring(to, lineEnd)).isBlank()) {
            from = lineStart == 0 ? 0 : lineStart - 1; // its line goes with it (the newline before it, so the next line stays as it is)
            to = lineEnd < 0 ? text.length() : lineEnd;
        }
        writeText(text.substring(0, from) + text.substring(to));
    }

    private Entry entry(Parsed p, String remoteId) {
        return p.entries().stream().filter(e -> e.href().equals(remoteId)).findFirst()
                .orElseThrow(() -> new RemoteChangedException("bookmark " + remoteId + " is no longer in " + file.getFileName()));
    }

    @Override
    void check(String text) {
        parse(text, file.getFileName().toString());
    }

    private static final String EMPTY = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE xbel PUBLIC "+//IDN python.org//DTD XML Bookmark Exchange Language 1.0//EN//XML" "http://pyxml.sourceforge.net/topics/dtds/xbel.dtd">
            <xbel version="1.0">
            <!--- highestId :0: for Floccus bookmark sync browser extension -->
            </xbel>""";

    private static final Pattern HREF = Pattern.compile("(\\shref\\s*=\\s*)([\"'])(.*?)\\2", Pattern.DOTALL);

    /** A start tag with its href attribute set to {@code href}, in its own quotes. */
    private static String withHref(String startTag, String href) {
        Matcher m = HREF.matcher(startTag);
        if (m.find()) {
            return startTag.substring(0, m.start(3)) + escape(href) + startTag.substring(m.end(3));
        }
        int at = startTag.endsWith("/>") ? startTag.length() - 2 : startTag.length() - 1;
        return startTag.substring(0, at) + " href=\"" + escape(href) + "\"" + startTag.substring(at);
    }

    /**
     * Where a new bookmark goes: the top-level folder titled as one of its tags (the first such in
     * the file); else a browser's "Other Bookmarks" when the file syncs a whole browser (a browser
     * keeps no bookmark beside its own top folders); else the file's top level.
     */
    private static XmlSpans.Span topFolder(String text, XmlSpans.Span root, Set<String> tags) {
        XmlSpans.Span other = null;
        for (XmlSpans.Span f : root.children()) {
            if (f.name().equals("folder") && !f.selfClosed()) {
                String title = titleText(text, root, f.start());
                if (title != null && tags.contains(title)) {
                    return f;
                }
                if (other == null && OTHER_BOOKMARKS.equals(title)) {
                    other = f;
                }
            }
        }
        return other != null ? other : root;
    }

    /** floccus' name for a browser's folder of bookmarks filed nowhere else. */
    private static final String OTHER_BOOKMARKS = "Other Bookmarks";

    /** The title of the folder starting at {@code at}, as written (entities read), or null. */
    private static String titleText(String text, XmlSpans.Span root, int at) {
        for (XmlSpans.Span f : XmlSpans.all(root)) {
            if (f.start() == at) {
                XmlSpans.Span t = f.child("title");
                return t == null || t.selfClosed() ? null : unescape(text.substring(t.startTagEnd(), t.endTagStart())).strip();
            }
        }
        return null;
    }

    /**
     * {@code parent}'s content with a new child (its start tag, one inner line, its end tag) after
     * its last child, each on a line of its own, indented as its siblings are (or a step in from it).
     */
    private static String appended(String text, XmlSpans.Span parent, String open, String inner, String close) {
        String parentIndent = indentOf(text, parent.start());
        XmlSpans.Span last = parent.children().isEmpty() ? null : parent.children().getLast();
        String indent = last != null ? indentOf(text, last.start()) : parentIndent + (parent.name().equals("xbel") ? "" : "  ");
        String step = step(text, parent, parentIndent, indent);
        String child = "\n" + indent + open + "\n" + indent + step + inner + "\n" + indent + close;
        int at = last != null ? last.end() : parent.startTagEnd();
        if (last == null && parent.selfClosed()) { // <folder/>: opened for its first child
            String tag = text.substring(parent.start(), parent.end() - 2).stripTrailing();
            return text.substring(0, parent.start()) + tag + ">" + child + "\n" + parentIndent + "</" + parent.name() + ">" + text.substring(parent.end());
        }
        if (last == null) {
            int closing = parent.endTagStart();
            String before = text.substring(parent.startTagEnd(), closing);
            String trailing = before.isBlank() ? "\n" + parentIndent : before;
            return text.substring(0, parent.startTagEnd()) + child + trailing + text.substring(closing);
        }
        return text.substring(0, at) + child + text.substring(at);
    }

    /** One level of the file's indentation: as between a parent and its child here, or in the first such pair found; else two spaces. */
    private static String step(String text, XmlSpans.Span parent, String parentIndent, String indent) {
        if (indent.length() > parentIndent.length() && indent.startsWith(parentIndent)) {
            return indent.substring(parentIndent.length());
        }
        for (XmlSpans.Span s : XmlSpans.all(parent)) {
            if (!s.children().isEmpty()) {
                String outer = indentOf(text, s.start());
                String inner = indentOf(text, s.children().getFirst().start());
                if (inner.length() > outer.length() && inner.startsWith(outer)) {
                    return inner.substring(outer.length());
                }
            }
        }
        return "  ";
    }

    /** The white space between the line's start and {@code at}, if only white space stands there; else "". */
    private static String indentOf(String text, int at) {
        int lineStart = text.lastIndexOf('\n', at - 1) + 1;
        String before = text.substring(lineStart, at);
        return before.isBlank() ? before : "";
    }

    /** As floccus' XML builder escapes text and attributes (quotes and apostrophes too). */
    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&apos;");
    }

    private static String unescape(String s) {
        return org.jsoup.parser.Parser.unescapeEntities(s, false);
    }

    private void writeText(CharSequence text) {
        FileText.write(file, text);
    }
}
