package dev.idiom.wrappers.bookmarks;

import dev.idiom.events.Field;
import dev.idiom.events.Fingerprint;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RecordRefusedException;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolLimits;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Comment;
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
 * otherwise clear every note). Everything Idiom does not model stays in the file: other
 * elements and attributes, separators, bookmarklets, comments, the prolog and floccus'
 * {@code highestId} comment, which a bookmark Idiom adds advances. While a browser holds the
 * file's {@link BrowserLock}, Idiom's writes wait (a retry later).
 */
public final class XbelFile implements AnnotationTool {
    private static final Pattern HIGHEST_ID = Pattern.compile("^- highestId :(\\d+):");
    private static final Pattern ROOT_START = Pattern.compile("<xbel[\\s>/]");
    /** How soon a write refused by a browser's lock is tried again. */
    private static final Duration LOCK_RETRY = Duration.ofSeconds(5);

    /** One monitor per file, whoever opened it: the engine's writes and a browser's whole-file replacement never interleave. */
    private static final java.util.concurrent.ConcurrentHashMap<Path, Object> MONITORS = new java.util.concurrent.ConcurrentHashMap<>();

    private final Path file;
    private final String account;
    private final Clock clock;
    private final Object monitor;

    /** @param account the Idiom account the file belongs to (its copies' account) */
    public XbelFile(Path file, String account, Clock clock) {
        this.file = file.toAbsolutePath();
        this.account = account;
        this.clock = clock;
        this.monitor = MONITORS.computeIfAbsent(this.file, f -> new Object());
    }

    @Override
    public String kind() {
        return "xbel-dav";
    }

    @Override
    public String account() {
        return account;
    }

    @Override
    public ToolLimits limits() {
        return ToolLimits.LOCAL_FILE;
    }

    @Override
    public boolean keepsPrivate() {
        return true;
    }

    /** What floccus keeps when it writes the file: a bookmark's URL, its title and the folders it is in. */
    @Override
    public Set<Field> fieldsKept() {
        return EnumSet.of(Field.TITLE, Field.URL, Field.TAGS);
    }

    /** One bookmark: its element, URL, title, the folders above it (titles from the top) and floccus' id. */
    private record Entry(Element element, String href, String title, List<String> folders, String id) {}

    private record Parsed(String text, Document doc, List<Entry> entries, List<Skipped> skipped, String hash) {}

    /** The file's text, or "" when there is none yet. */
    private String text() {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new ToolException("cannot read bookmark file " + file.getFileName() + ": " + e.getMessage(), e);
        }
    }

    private Parsed read() {
        String text;
        synchronized (monitor) {
            text = text();
        }
        if (text.isBlank()) {
            return new Parsed(text, null, List.of(), List.of(), "");
        }
        Document doc = parse(text, file.getFileName().toString());
        List<Entry> entries = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        walk(doc.getDocumentElement(), List.of(), entries, skipped, new HashSet<>());
        return new Parsed(text, doc, entries, skipped, Fingerprint.of(text));
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

    private static void walk(Element parent, List<String> folders, List<Entry> out, List<Skipped> skipped, Set<String> seen) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element e)) {
                continue;
            }
            if (e.getTagName().equals("folder")) {
                String title = title(e);
                List<String> path = new ArrayList<>(folders);
                if (!title.isBlank()) {
                    path.add(title.strip());
                }
                walk(e, path, out, skipped, seen);
            } else if (e.getTagName().equals("bookmark")) {
                String href = e.getAttribute("href").strip();
                if (!href.startsWith("http://") && !href.startsWith("https://")) {
                    skipped.add(new Skipped(href.isEmpty() ? null : href, href.isEmpty() ? "a bookmark without href" : "not a web address"));
                } else if (!seen.add(href)) {
                    skipped.add(new Skipped(href, "the same URL appears again in the file (in " + String.join(" / ", folders)
                            + "); the first one is used"));
                } else {
                    out.add(new Entry(e, href, title(e).strip(), List.copyOf(folders), e.hasAttribute("id") ? e.getAttribute("id") : null));
                }
            }
        }
    }

    /** The text of an element's own {@code <title>}, or "". */
    private static String title(Element e) {
        Element t = child(e, "title");
        return t == null ? "" : t.getTextContent();
    }

    private static Element child(Element e, String name) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && c.getTagName().equals(name)) {
                return c;
            }
        }
        return null;
    }

    private static RemoteRecord record(Entry e) {
        SortedSet<String> tags = new TreeSet<>(e.folders());
        String title = e.title().isEmpty() ? e.href() : e.title();
        Metadata m = Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.URL, e.href()).with(Field.TITLE, title).with(Field.TAGS, tags);
        return new RemoteRecord(e.href(), Fingerprint.of(e.href() + "\n" + title + "\n" + tags), m, null, e.id(), false);
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

    /** A bookmark that moved to a new URL in a browser keeps its floccus id: it is the copy Idiom knew under the old URL. */
    @Override
    public boolean succeeds(RemoteRecord now, RemoteRecord former) {
        return now.shadow() != null && now.shadow().equals(former.shadow());
    }

    /** Folders are where a bookmark sits, which only the browser changes: a copy holds the folders it is in, whatever tags its DE has. */
    @Override
    public Metadata writable(Metadata wanted, Metadata known) {
        return wanted.with(Field.TAGS, known == null ? new TreeSet<>() : new TreeSet<>(known.tags()));
    }

    @Override
    public Optional<String> refusal(Metadata wanted) {
        if (wanted.url() == null || !(wanted.url().startsWith("http://") || wanted.url().startsWith("https://"))) {
            return Optional.of("a browser bookmark needs a web address (http or https); give the record a URL");
        }
        return Optional.empty();
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
     * The new bookmarks in one rewrite: each in the top-level folder named for one of its tags, if
     * there is one, else at the end of the file's top level, with the next floccus id.
     */
    @Override
    public List<Made> createAll(List<NewCopy> copies) {
        synchronized (monitor) {
            return createAllNow(copies);
        }
    }

    private List<Made> createAllNow(List<NewCopy> copies) {
        waitForBrowser();
        Parsed p = read();
        Document doc = p.doc() != null ? p.doc() : parse(EMPTY, file.getFileName().toString());
        Set<String> present = new HashSet<>();
        p.entries().forEach(e -> present.add(e.href()));
        long next = nextId(doc, p.entries());
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
            Element folder = topFolder(doc, m.tags());
            Element b = doc.createElement("bookmark");
            b.setAttribute("href", m.url());
            b.setAttribute("id", Long.toString(next++));
            Element t = doc.createElement("title");
            t.setTextContent(m.title() == null ? m.url() : m.title());
            append(folder, b);
            append(b, t);
            List<String> folders = folder == doc.getDocumentElement() ? List.of() : List.of(title(folder).strip());
            out.add(new Made(record(new Entry(b, m.url(), t.getTextContent(), folders, b.getAttribute("id"))), null));
        }
        if (out.stream().anyMatch(made -> made.record() != null)) {
            highestId(doc, next - 1);
            write(p.text().isBlank() ? EMPTY : p.text(), doc);
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
        old.element().setAttribute("href", href);
        Element t = child(old.element(), "title");
        if (t == null) {
            t = p.doc().createElement("title");
            old.element().insertBefore(t, old.element().getFirstChild());
        }
        t.setTextContent(title);
        write(p.text(), p.doc());
        return record(new Entry(old.element(), href, title, old.folders(), old.id()));
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
        Element b = e.get().element();
        Node before = b.getPreviousSibling();
        if (before != null && before.getNodeType() == Node.TEXT_NODE && before.getTextContent().isBlank()) {
            before.getParentNode().removeChild(before); // its line goes with it
        }
        b.getParentNode().removeChild(b);
        write(p.text(), p.doc());
    }

    /**
     * The whole file as a browser (or another WebDAV client) wrote it, in place of what is there,
     * after it is read as XBEL; Idiom's writes are never interleaved with it.
     *
     * @throws ToolException the text is no XBEL Idiom can read (nothing is written)
     */
    public void replace(String text) {
        parse(text, file.getFileName().toString());
        synchronized (monitor) {
            writeText(text);
        }
    }

    private Entry entry(Parsed p, String remoteId) {
        return p.entries().stream().filter(e -> e.href().equals(remoteId)).findFirst()
                .orElseThrow(() -> new RemoteChangedException("bookmark " + remoteId + " is no longer in " + file.getFileName()));
    }

    /** Idiom's writes wait while a browser syncs the file: it read the file at the start and will write it whole at the end. */
    private void waitForBrowser() {
        Optional<Instant> held = BrowserLock.of(file).heldSince(clock.instant());
        if (held.isPresent()) {
            throw new ToolException("a browser is syncing " + file.getFileName() + " (floccus' lock, put " + held.get()
                    + "): Idiom's changes are written once it is done", null, LOCK_RETRY);
        }
    }

    private static final String EMPTY = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE xbel PUBLIC "+//IDN python.org//DTD XML Bookmark Exchange Language 1.0//EN//XML" "http://pyxml.sourceforge.net/topics/dtds/xbel.dtd">
            <xbel version="1.0">
            <!--- highestId :0: for Floccus bookmark sync browser extension -->
            </xbel>""";

    /** The id after every id in the file and floccus' {@code highestId}: floccus numbers its items from there. */
    private static long nextId(Document doc, List<Entry> entries) {
        long highest = 0;
        Comment c = highestIdComment(doc);
        if (c != null) {
            Matcher m = HIGHEST_ID.matcher(c.getData());
            if (m.find()) {
                highest = Long.parseLong(m.group(1));
            }
        }
        org.w3c.dom.NodeList all = doc.getElementsByTagName("*");
        for (int i = 0; i < all.getLength(); i++) {
            String id = ((Element) all.item(i)).getAttribute("id");
            if (id.matches("[0-9]{1,18}")) {
                highest = Math.max(highest, Long.parseLong(id));
            }
        }
        return highest + 1;
    }

    private static Comment highestIdComment(Document doc) {
        for (Node n = doc.getDocumentElement().getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Comment c && HIGHEST_ID.matcher(c.getData()).find()) {
                return c;
            }
        }
        return null;
    }

    private static void highestId(Document doc, long highest) {
        Comment c = highestIdComment(doc);
        if (c != null) {
            c.setData(HIGHEST_ID.matcher(c.getData()).replaceFirst("- highestId :" + highest + ":"));
        }
    }

    /** The top-level folder titled as one of these tags (the first such in the file), else the file's top level. */
    private static Element topFolder(Document doc, Set<String> tags) {
        Element root = doc.getDocumentElement();
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element f && f.getTagName().equals("folder") && tags.contains(title(f).strip())) {
                return f;
            }
        }
        return root;
    }

    /** Appends a child on a line of its own, indented as the sibling before it is (else as floccus indents: two spaces a level). */
    private static void append(Element parent, Element child) {
        Document doc = parent.getOwnerDocument();
        Node last = parent.getLastChild();
        Node trailing = last != null && blank(last) ? last : null;
        Node previous = trailing == null ? last : trailing.getPreviousSibling();
        String indent = null;
        if (previous != null && previous.getNodeType() != Node.TEXT_NODE && previous.getPreviousSibling() != null && blank(previous.getPreviousSibling())) {
            indent = previous.getPreviousSibling().getTextContent();
        }
        if (indent == null) {
            indent = "\n" + column(depth(parent) + 1);
        }
        if (trailing == null) {
            trailing = parent.appendChild(doc.createTextNode("\n" + column(depth(parent))));
        }
        parent.insertBefore(doc.createTextNode(indent), trailing);
        parent.insertBefore(child, trailing);
    }

    private static boolean blank(Node n) {
        return n.getNodeType() == Node.TEXT_NODE && n.getTextContent().isBlank();
    }

    /** How many elements enclose this one (the root: none). */
    private static int depth(Node e) {
        int depth = 0;
        for (Node n = e.getParentNode(); n != null && n.getNodeType() == Node.ELEMENT_NODE; n = n.getParentNode()) {
            depth++;
        }
        return depth;
    }

    /** floccus writes the root's children at the line's start and two spaces more for each folder they are in. */
    private static String column(int depth) {
        return "  ".repeat(Math.max(0, depth - 1));
    }

    /** The file with its root element written from the document; what stands before and after the root (prolog, doctype) as it was. */
    private void write(String original, Document doc) {
        Matcher start = ROOT_START.matcher(original);
        int end = original.lastIndexOf("</xbel>");
        if (!start.find() || end < 0) {
            throw new ToolException("cannot find the <xbel> element's bounds in " + file.getFileName());
        }
        StringBuilder out = new StringBuilder(original.length() + 256).append(original, 0, start.start());
        XbelText.element(out, doc.getDocumentElement());
        out.append(original, end + "</xbel>".length(), original.length());
        writeText(out);
    }

    /** Written whole, then moved over the file: a reader sees the old text or the new, never part of one. */
    private void writeText(CharSequence text) {
        try {
            Path tmp = file.resolveSibling("." + file.getFileName() + ".idiom-tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ToolException("cannot write bookmark file " + file.getFileName() + ": " + e.getMessage(), e);
        }
    }
}
