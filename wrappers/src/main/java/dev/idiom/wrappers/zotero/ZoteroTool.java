package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RecordRefusedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolLimits;
import dev.idiom.wrappers.http.ToolHttp;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Zotero Web API v3 (api.zotero.org or a compatible server). Sync: {@code items/top?since=V&format=versions&includeTrashed=1},
 * then the changed items 50 keys at a time, then {@code deleted?since=V}; the cursor is the
 * library version. An item moved to the trash is reported as deleted. Standalone notes,
 * attachments and annotations describe no work: they are left alone (neither records nor
 * unreadable), so a listing that holds them is still complete. Writes carry
 * {@code If-Unmodified-Since-Version} (412 → {@link RemoteChangedException}); a creation carries
 * an item key made here and {@code "version": 0} ("must not exist yet"), so a POST retried after
 * its answer was lost cannot create twice: Zotero refuses the second (412 for that object) and the
 * item the first made, under that key, is the copy. (A {@code Zotero-Write-Token} would make the
 * retry a 412 for the whole request and leave the outcome unknown.) An update is a PATCH of the
 * changed properties only (a PUT replaces the whole item: collections, relations and the trash
 * flag would be lost); only a change of item type is a PUT, of the whole item as Zotero returned it.
 */
public final class ZoteroTool implements AnnotationTool {
    public static final ToolLimits LIMITS = new ToolLimits(50, Duration.ZERO, 4);
    /** Most objects one write request takes (the API answers 413 above it). */
    static final int MAX_WRITE = 50;
    private static final String KEY_ALPHABET = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(ZoteroTool.class.getName());
    private final URI base;
    private final String library;
    private final String apiKey;
    private final ToolHttp http;
    private final String kind;
    private final SecureRandom random = new SecureRandom();

    /**
     * @param base the API root, e.g. https://api.zotero.org
     * @param library "users/123" or "groups/456"
     */
    public ZoteroTool(URI base, String library, String apiKey, ToolHttp http) {
        this(base, library, apiKey, http, "zotero");
    }

    /**
     * As above, its copies named for {@code kind}: a library Idiom serves itself ({@code zotero-api})
     * is not zotero.org's library of the same number.
     */
    public ZoteroTool(URI base, String library, String apiKey, ToolHttp http, String kind) {
        this.kind = kind;
        this.base = base;
        this.library = library.replaceAll("^/+|/+$", "");
        this.apiKey = apiKey;
        this.http = http;
    }

    /** Zotero sets {@code dateModified} on every change of an item, wherever it was made. */
    @Override
    public java.time.Instant modifiedAt(RemoteRecord record) {
        if (record.shadow() == null) {
            return null;
        }
        try {
            return AnnotationTool.isoTime(JSON.readTree(record.shadow()).path("dateModified").asText(null));
        } catch (IOException e) {
            return null;
        }
    }

    /** Zotero holds every field but Idiom's notes (Zotero's notes are child items; {@code extra} is data, see {@link ZoteroItems}). */
    @Override
    public java.util.Set<dev.idiom.events.Field> fieldsKept() {
        return ZoteroItems.KEPT;
    }

    /**
     * The Zotero extras part as the copy's item type holds it after a write ({@link ZoteroItems#holdable}):
     * a copy's type is the one it has (its extras' item type) while Idiom's type stays, else the one a new copy gets.
     * Read by the schema last served, never asking the service (a sync's comparisons call this often).
     */
    @Override
    public dev.idiom.events.Metadata writable(dev.idiom.events.Metadata wanted, dev.idiom.events.Metadata known) {
        ZoteroSchema s = schema != null ? schema : ZoteroSchema.published();
        ZoteroSchema.ItemType t = known == null || !java.util.Objects.equals(known.type(), wanted.type()) ? ZoteroItems.newItemType(s, wanted)
                : ZoteroItems.newItemType(s, known);
        return ZoteroItems.holdable(s, t, wanted);
    }

    /** True: an item's version moves with every write to it (Zotero's API: If-Unmodified-Since-Version). */
    @Override
    public boolean versionNamesContent() {
        return true;
    }

    @Override
    public String kind() {
        return kind;
    }

    @Override
    public String account() {
        return library;
    }

    @Override
    public ToolLimits limits() {
        return LIMITS;
    }

    /** How long the service's schema is used before it is asked again (with its ETag), as the Zotero API asks of its clients. */
    static final Duration SCHEMA_KEPT = Duration.ofHours(1);
    private volatile ZoteroSchema schema;
    private volatile String schemaEtag;
    private volatile java.time.Instant schemaAskedAt;

    /**
     * The schema the service runs ({@code GET /schema}, kept with its ETag, asked again hourly with
     * {@code If-None-Match}): what an item is written by, so that a field the service does not know
     * goes to an extra line instead of getting the write refused. Until the service answers with
     * one (an older server, a network fault), the schema Idiom ships.
     */
    ZoteroSchema schema() {
        java.time.Instant now = http.clock().instant();
        ZoteroSchema known = schema;
        if (known != null && schemaAskedAt != null && now.isBefore(schemaAskedAt.plus(SCHEMA_KEPT))) {
            return known;
        }
        synchronized (this) {
            if (schema != null && schemaAskedAt != null && now.isBefore(schemaAskedAt.plus(SCHEMA_KEPT))) {
                return schema;
            }
            schemaAskedAt = now;
            try {
                HttpRequest.Builder ask = HttpRequest.newBuilder(base.resolve("/schema")).header("Zotero-API-Version", "3").timeout(Duration.ofSeconds(60));
                if (schemaEtag != null && schema != null) {
                    ask.header("If-None-Match", schemaEtag);
                }
                HttpResponse<String> r = http.send(ask.GET().build());
                if (r.statusCode() == 200) {
                    schema = ZoteroSchema.served(json(r), base.getHost());
                    schemaEtag = r.headers().firstValue("ETag").orElse(null);
                } else if (r.statusCode() != 304 || schema == null) {
                    LOG.info("Zotero at " + base + " answered " + r.statusCode() + " for its schema: items are written by the schema Idiom ships ("
                            + ZoteroSchema.published().source() + ")");
                    schema = ZoteroSchema.published();
                }
            } catch (RuntimeException unreadable) {
                LOG.info("the schema of Zotero at " + base + " could not be read (" + unreadable.getMessage() + "): items are written by the one Idiom ships");
                schema = schema == null ? ZoteroSchema.published() : schema;
            }
            return schema;
        }
    }

    private HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(base.resolve("/" + library + "/" + pathAndQuery))
                .header("Zotero-API-Version", "3").header("Zotero-API-Key", apiKey).timeout(Duration.ofSeconds(60));
    }

    @Override
    public ChangePage changedSince(String cursor) {
        String since = cursor == null ? "0" : cursor;
        HttpResponse<String> versions = http.send(request("items/top?since=" + since + "&format=versions&includeTrashed=1")
                .header("If-Modified-Since-Version", since).GET().build());
        if (versions.statusCode() == 304) {
            return new ChangePage(List.of(), List.of(), List.of(), since, false);
        }
        expect(versions, 200, "list changed items");
        String libraryVersion = versions.headers().firstValue("Last-Modified-Version")
                .orElseThrow(() -> new ToolException("Zotero answered without Last-Modified-Version"));
        List<String> keys = new ArrayList<>();
        json(versions).fieldNames().forEachRemaining(keys::add);

        List<RemoteRecord> records = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        List<String> trashed = new ArrayList<>();
        // whole only if every item listed came back and the library did not move between the calls (as Zotero's own sync checks):
        // a listing that missed items never counts them as deleted
        boolean whole = true;
        boolean allCame = true;
        for (int i = 0; i < keys.size(); i += LIMITS.maxBatch()) {
            int asked = Math.min(keys.size(), i + LIMITS.maxBatch()) - i;
            String batch = String.join(",", keys.subList(i, i + asked));
            HttpResponse<String> items = http.send(request("items?itemKey=" + URLEncoder.encode(batch, StandardCharsets.UTF_8)
                    + "&includeTrashed=1&limit=" + asked).GET().build());
            expect(items, 200, "fetch changed items");
            JsonNode fetched = json(items);
            allCame &= fetched.size() == asked;
            whole &= fetched.size() == asked && libraryVersion.equals(items.headers().firstValue("Last-Modified-Version").orElse(null));
            for (JsonNode item : fetched) {
                try {
                    if (ZoteroItems.trashed(item.path("data"))) {
                        trashed.add(item.path("key").asText());
                        continue;
                    }
                    if (!ZoteroItems.work(item.path("data"))) {
                        continue; // a standalone note, attachment or annotation: no work to import, nothing unreadable, the listing stays whole
                    }
                    records.add(record(item, skipped));
                } catch (RuntimeException bad) {
                    skipped.add(new Skipped(item.path("key").asText(null), "unreadable Zotero item: " + bad.getMessage()));
                }
            }
        }
        records = withNotes(records, since);
        List<String> deleted = new ArrayList<>(trashed);
        if (cursor != null) {
            HttpResponse<String> gone = http.send(request("deleted?since=" + since).GET().build());
            expect(gone, 200, "list deletions");
            json(gone).path("items").forEach(k -> deleted.add(k.asText()));
        }
        // from the start, the listing is every top-level item (the trashed ones among the deleted)
        if (!whole) {
            LOG.info("Zotero " + library + " changed while it was listed, or left items out: its listing counts no deletion this time");
        }
        if (!allCame) {
            // an item listed as changed that did not come back (deleted meanwhile, or a server that pages by itemKey) is read again
            // next time: the cursor stays, so a change is never passed over (the items that did come are then unchanged)
            LOG.warning("Zotero " + library + " left out items it listed as changed since " + since + ": they are asked for again next sync");
            return new ChangePage(records, deleted, skipped, cursor, false, false);
        }
        return new ChangePage(records, deleted, skipped, libraryVersion, false, cursor == null && skipped.stream().allMatch(Skipped::imported) && whole);
    }

    /**
     * The records with their child notes as their notes (each note's text, in the order Zotero added
     * them, a blank line between): read so that a new item's notes arrive with its first import (a
     * `.bib` copy writes them as its {@code note}). Zotero keeps no notes as a field, so they are no
     * field the tool keeps ({@link ZoteroItems#KEPT}): a later change of a note is not followed, and
     * Idiom never writes one back. Only notes changed since the cursor are listed (all of them from the start).
     */
    private List<RemoteRecord> withNotes(List<RemoteRecord> records, String since) {
        if (records.isEmpty()) {
            return records;
        }
        java.util.Set<String> wanted = new java.util.HashSet<>();
        records.forEach(r -> wanted.add(r.remoteId()));
        Map<String, List<JsonNode>> byParent = new java.util.HashMap<>();
        int total = Integer.MAX_VALUE;
        for (int start = 0; start < total; start += NOTES_PAGE) {
            HttpResponse<String> r = http.send(request("items?itemType=note&since=" + since + "&limit=" + NOTES_PAGE + "&start=" + start).GET().build());
            expect(r, 200, "list changed notes");
            total = r.headers().firstValue("Total-Results").map(Integer::parseInt).orElse(0);
            JsonNode page = json(r);
            for (JsonNode note : page) {
                String parent = note.path("data").path("parentItem").asText("");
                if (wanted.contains(parent)) {
                    byParent.computeIfAbsent(parent, k -> new ArrayList<>()).add(note.path("data"));
                }
            }
            if (page.isEmpty()) {
                break;
            }
        }
        if (byParent.isEmpty()) {
            return records;
        }
        return records.stream().map(r -> withNotes(r, byParent.getOrDefault(r.remoteId(), List.of()))).toList();
    }

    /** The record with these child notes' text as its notes (in the order Zotero added them, a blank line between); as it is without any. */
    private static RemoteRecord withNotes(RemoteRecord r, List<JsonNode> notes) {
        String text = notes.stream().sorted(java.util.Comparator.comparing((JsonNode n) -> n.path("dateAdded").asText()).thenComparing(n -> n.path("key").asText()))
                .map(n -> ZoteroNote.text(n.path("note").asText(""))).filter(t -> !t.isBlank()).reduce((a, b) -> a + "\n\n" + b).orElse(null);
        return text == null ? r : new RemoteRecord(r.remoteId(), r.version(), r.metadata().with(dev.idiom.events.Field.NOTES, text), r.identityHint(),
                r.shadow(), r.privateCopy());
    }

    /** Notes listed per request, the API's most. */
    private static final int NOTES_PAGE = 100;

    private RemoteRecord record(JsonNode item) {
        return record(item, new ArrayList<>());
    }

    /** The item as a record; a value it holds past the record's bounds is left in the item and said in {@code notices}. */
    private RemoteRecord record(JsonNode item, List<Skipped> notices) {
        JsonNode data = item.has("data") ? item.get("data") : item;
        String key = item.path("key").asText(data.path("key").asText());
        String version = Long.toString(item.has("version") ? item.path("version").asLong() : data.path("version").asLong());
        dev.idiom.wrappers.RecordBounds.Read<Metadata> read = ZoteroItems.bounded(schema(), data);
        read.keptAside().forEach(what -> notices.add(Skipped.keptAside(key, "Zotero item " + key + ": " + what)));
        return new RemoteRecord(key, version, read.value(), null, data.toString());
    }

    /** The shadow is the item's {@code data} object exactly as Zotero returned it. */
    private RemoteRecord record(String key, String version, ObjectNode data) {
        return new RemoteRecord(key, version, ZoteroItems.bounded(schema(), data).value(), null, data.toString());
    }

    @Override
    public String probeId() {
        return "ZZZZZZZZ"; // in Zotero's key alphabet; no item has it
    }

    @Override
    public Optional<RemoteRecord> fetch(String key) {
        HttpResponse<String> r = http.send(request("items/" + ToolHttp.segment(key)).GET().build());
        if (r.statusCode() == 404) {
            return Optional.empty();
        }
        expect(r, 200, "fetch item " + key);
        JsonNode item = json(r);
        if (!ZoteroItems.work(item.has("data") ? item.get("data") : item)) {
            return Optional.empty(); // a note, an attachment or an annotation is no record of a work
        }
        HttpResponse<String> children = http.send(request("items/" + ToolHttp.segment(key) + "/children").GET().build());
        expect(children, 200, "fetch the child notes of item " + key);
        List<JsonNode> notes = new ArrayList<>();
        json(children).forEach(c -> {
            if (c.path("data").path("itemType").asText().equals("note")) {
                notes.add(c.path("data"));
            }
        });
        return Optional.of(withNotes(record(item), notes));
    }

    @Override
    public RemoteRecord create(Metadata metadata, boolean keepPrivate) {
        return one(create(List.of(new NewCopy(metadata, keepPrivate, null)), List.of(newKey())).getFirst());
    }

    /** The item key is made from the DE and this library: a copy made again (a crash before Idiom recorded it) is the same item. */
    @Override
    public RemoteRecord create(Metadata metadata, boolean keepPrivate, java.util.UUID origin) {
        return create(new NewCopy(metadata, keepPrivate, origin));
    }

    @Override
    public RemoteRecord create(NewCopy copy) {
        return one(create(List.of(copy), List.of(copy.origin() == null ? newKey() : keyOf(copy.origin()))).getFirst());
    }

    /** Every Zotero library's items are in one form: Idiom's own served libraries' as zotero.org's. */
    @Override
    public boolean takesFormOf(String kind) {
        return "zotero".equals(kind) || dev.idiom.wrappers.registry.ToolRegistry.SERVED_ZOTERO.equals(kind);
    }

    private static RemoteRecord one(Made made) {
        if (made.failure() != null) {
            throw made.failure();
        }
        return made.record();
    }

    /** Up to 50 items a request, as the API takes them, each under the key made from its DE. */
    @Override
    public List<Made> createAll(List<NewCopy> copies) {
        List<Made> out = new ArrayList<>();
        for (int from = 0; from < copies.size(); from += MAX_WRITE) {
            List<NewCopy> chunk = copies.subList(from, Math.min(copies.size(), from + MAX_WRITE));
            try {
                out.addAll(create(chunk, chunk.stream().map(c -> c.origin() == null ? newKey() : keyOf(c.origin())).toList()));
            } catch (ToolException failed) { // the request as a whole: every item of it is tried again later
                chunk.forEach(c -> out.add(new Made(null, failed)));
            }
        }
        return out;
    }

    /**
     * A new item's data: from another Zotero library's item of the DE where there is one (its tag
     * types and order, a creator's field mode, its extra lines as they were), with the DE's values
     * where they differ from it; otherwise made from the DE alone. What belongs to the other library
     * (key, version, collections, relations, dates, trash, My Publications) is not carried.
     */
    private ObjectNode newItem(NewCopy copy) {
        if (copy.form() != null) {
            try {
                JsonNode form = JSON.readTree(copy.form());
                if (form.isObject() && form.hasNonNull("itemType") && schema().type(form.path("itemType").asText()) != null) {
                    ObjectNode data = ((ObjectNode) form).deepCopy();
                    data.remove(List.of("key", "version", "collections", "relations", "dateAdded", "dateModified", "deleted", "parentItem", "inPublications"));
                    return ZoteroItems.withChanges(schema(), data, ZoteroItems.bounded(schema(), data).value(), copy.metadata());
                }
            } catch (java.io.IOException | RuntimeException unreadable) {
                // a form that cannot be read is no form: the item is made from the DE alone
            }
        }
        return ZoteroItems.newItem(schema(), copy.metadata());
    }

    @Override
    public boolean namesOrigin() {
        return true;
    }

    @Override
    public boolean madeFor(RemoteRecord r, java.util.UUID origin) {
        return r.remoteId().equals(keyOf(origin));
    }

    /** The item key of the copy of DE {@code origin} in this library: 8 characters of Zotero's alphabet from a digest of both. */
    private String keyOf(java.util.UUID origin) {
        byte[] h = java.util.HexFormat.of().parseHex(dev.idiom.events.Fingerprint.of(origin + "\n" + account()));
        StringBuilder k = new StringBuilder(8);
        for (int i = 0; i < 8; i++) {
            k.append(KEY_ALPHABET.charAt(((h[2 * i] & 0xff) << 8 | (h[2 * i + 1] & 0xff)) % KEY_ALPHABET.length()));
        }
        return k.toString();
    }

    /**
     * One POST of new items with client-made keys and {@code "version": 0} ("must not exist yet"):
     * a create whose answer was lost and is sent again meets 412 for an item that exists under its
     * key, and that item is the copy. The answer names each item by its index in the request.
     */
    private List<Made> create(List<NewCopy> copies, List<String> keys) {
        List<Metadata> items = copies.stream().map(NewCopy::metadata).toList();
        List<ObjectNode> childNotes = new ArrayList<>();
        ArrayNode body = JSON.createArrayNode();
        for (int i = 0; i < items.size(); i++) {
            body.add(newItem(copies.get(i)).put("key", keys.get(i)).put("version", 0));
        }
        HttpResponse<String> r = http.send(request("items").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build());
        expect(r, 200, "create items");
        JsonNode result = json(r);
        List<Made> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String key = keys.get(i);
            JsonNode failed = result.path("failed").path(Integer.toString(i));
            JsonNode created = result.path("successful").path(Integer.toString(i));
            try {
                if (failed.path("code").asInt() == 412) {
                    // an item with this key exists: only a create of this copy made one (the key is the DE's), and its answer was lost
                    out.add(new Made(existing(key), null));
                } else if (!failed.isMissingNode()) {
                    out.add(new Made(null, new RecordRefusedException("Zotero refused the item: " + failed.path("message").asText(failed.toString()))));
                } else if (created.isMissingNode()) {
                    out.add(new Made(null, new ToolException("Zotero did not report the created item " + key + ": " + result)));
                } else {
                    out.add(new Made(record(created), null));
                    String notes = items.get(i).notes();
                    if (notes != null && !notes.isBlank()) {
                        childNotes.add(ZoteroNote.child(key, notes));
                    }
                }
            } catch (ToolException fetchFailed) {
                out.add(new Made(null, fetchFailed));
            }
        }
        writeNotes(childNotes);
        return out;
    }

    /**
     * The notes of items just made, each as a child note of its item (Zotero keeps notes as child
     * items, HTML): written once, with the new item. Idiom does not read child notes back (its
     * listing is of top-level items) and never writes one again: a later change of either side's
     * notes does not travel, and a note Idiom did not make is never touched. A note Zotero refuses is
     * logged; its item stands.
     */
    private void writeNotes(List<ObjectNode> notes) {
        for (int from = 0; from < notes.size(); from += MAX_WRITE) {
            ArrayNode body = JSON.createArrayNode();
            notes.subList(from, Math.min(notes.size(), from + MAX_WRITE)).forEach(body::add);
            try {
                HttpResponse<String> r = http.send(request("items").header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build());
                expect(r, 200, "create child notes");
                json(r).path("failed").properties().forEach(f -> LOG.warning("Zotero refused the child note of item "
                        + body.path(Integer.parseInt(f.getKey())).path("parentItem").asText() + ": " + f.getValue().path("message").asText()));
            } catch (ToolException failed) {
                LOG.warning("the child notes of " + body.size() + " new Zotero items were not written: " + failed.getMessage());
            }
        }
    }

    /**
     * The item a create met under its key: made by an earlier create of the same copy whose answer
     * was lost, or moved to the trash when a rule stopped selecting the DE (then it is taken out of
     * the trash: the DE wants its copy back).
     */
    private RemoteRecord existing(String key) {
        RemoteRecord found = fetch(key).orElseThrow(() -> new ToolException("Zotero refused item " + key + " as existing but does not have it"));
        if (shadow(found).path("deleted").asInt(0) != 1 && !shadow(found).path("deleted").asBoolean(false)) {
            return found;
        }
        HttpResponse<String> r = http.send(request("items/" + ToolHttp.segment(key)).header("If-Unmodified-Since-Version", found.version())
                .header("Content-Type", "application/json").method("PATCH", HttpRequest.BodyPublishers.ofString("{\"deleted\":0}")).build());
        if (r.statusCode() == 412) {
            throw new ToolException("Zotero item " + key + " changed while it was taken out of the trash; tried again later");
        }
        expect(r, 204, "take item " + key + " out of the trash");
        return fetch(key).orElseThrow(() -> new ToolException("Zotero item " + key + " is gone after leaving the trash"));
    }

    /** The item back out of Zotero's trash (as a curator restores it there), if Zotero still has it. */
    @Override
    public java.util.Optional<RemoteRecord> restore(String key) {
        return fetch(key).isPresent() ? java.util.Optional.of(existing(key)) : java.util.Optional.empty();
    }

    /** An item key as Zotero makes them: 8 characters of its alphabet (no 0, 1, O), random enough never to meet another. */
    private String newKey() {
        StringBuilder k = new StringBuilder(8);
        for (int i = 0; i < 8; i++) {
            k.append(KEY_ALPHABET.charAt(random.nextInt(KEY_ALPHABET.length())));
        }
        return k.toString();
    }

    @Override
    public RemoteRecord update(RemoteRecord known, Metadata wanted) {
        String key = known.remoteId();
        ObjectNode data = shadow(known);
        dev.idiom.wrappers.UnreadValues.refuseToReplace(known.metadata(), ZoteroItems.bounded(schema(), data).value(), wanted, fieldsKept(), "Zotero item " + key);
        ObjectNode updated = ZoteroItems.withChanges(schema(), data, known.metadata(), wanted);
        ObjectNode patch = ZoteroItems.patch(data, updated);
        if (patch != null && patch.isEmpty()) {
            return record(key, known.version(), data); // nothing Zotero holds differs
        }
        HttpRequest.Builder b = request("items/" + ToolHttp.segment(key)).header("Content-Type", "application/json")
                .header("If-Unmodified-Since-Version", known.version());
        HttpResponse<String> r = http.send(patch != null ? b.method("PATCH", HttpRequest.BodyPublishers.ofString(patch.toString())).build()
                : b.PUT(HttpRequest.BodyPublishers.ofString(updated.toString())).build());
        if (r.statusCode() == 412) {
            throw new RemoteChangedException("Zotero item " + key + " changed since version " + known.version());
        }
        expect(r, 204, "update item " + key);
        String version = r.headers().firstValue("Last-Modified-Version")
                .orElseThrow(() -> new ToolException("Zotero answered the update without Last-Modified-Version"));
        updated.put("version", Long.parseLong(version));
        return record(key, version, updated);
    }

    /** The item as last synced; read from Zotero when Idiom has no shadow of it (a replica from before shadows). */
    private ObjectNode shadow(RemoteRecord known) {
        if (known.shadow() != null) {
            try {
                return (ObjectNode) JSON.readTree(known.shadow());
            } catch (IOException | ClassCastException e) {
                throw new ToolException("the stored copy of Zotero item " + known.remoteId() + " is not an item's JSON: " + e.getMessage());
            }
        }
        RemoteRecord current = fetch(known.remoteId())
                .orElseThrow(() -> new RemoteChangedException("Zotero no longer has item " + known.remoteId()));
        if (!current.version().equals(known.version())) {
            throw new RemoteChangedException("Zotero item " + known.remoteId() + " changed since version " + known.version());
        }
        return shadow(current);
    }

    /**
     * Moves the item to Zotero's trash ({@code "deleted": 1}), never a permanent delete: a curator
     * can restore it there, and it is listed as deleted from then on.
     */
    @Override
    public void delete(String key, String knownVersion) {
        HttpResponse<String> r = http.send(request("items/" + ToolHttp.segment(key)).header("If-Unmodified-Since-Version", knownVersion)
                .header("Content-Type", "application/json").method("PATCH", HttpRequest.BodyPublishers.ofString("{\"deleted\":1}")).build());
        if (r.statusCode() == 412) {
            throw new RemoteChangedException("Zotero item " + key + " changed since version " + knownVersion);
        }
        if (r.statusCode() != 404) {
            expect(r, 204, "move item " + key + " to the trash");
        }
    }

    private static void expect(HttpResponse<String> r, int status, String what) {
        if (r.statusCode() != status) {
            ToolHttp.logRefusal("Zotero", what, r);
            String message = "Zotero could not " + what + ": HTTP " + r.statusCode() + " (" + ToolHttp.reason(r.statusCode()) + ")";
            // 400 (invalid item) and 413 (too large) do not change by retrying; 409 (library locked) and 5xx may
            throw r.statusCode() == 400 || r.statusCode() == 413 ? new RecordRefusedException(message) : new ToolException(message);
        }
    }

    private static JsonNode json(HttpResponse<String> r) {
        try {
            JsonNode read = JSON.readTree(r.body());
            if (read == null || !read.isContainerNode()) { // an empty or cut-off answer reads as nothing: refused whole, never taken for an empty library
                throw new ToolException("Zotero answered HTTP " + r.statusCode() + " without a JSON object or array (an empty or cut-off answer)");
            }
            return read;
        } catch (IOException e) {
            throw new ToolException("Zotero answered malformed JSON (HTTP " + r.statusCode() + ")"); // the parser's words quote the answer
        }
    }
}
