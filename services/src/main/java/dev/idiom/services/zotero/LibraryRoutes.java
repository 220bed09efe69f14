package dev.idiom.services.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.zotero.ServedLibraries.Library;
import dev.idiom.services.app.zotero.LibraryView;
import dev.idiom.services.app.zotero.LibraryView.Stored;
import dev.idiom.services.app.zotero.ObjectQuery;
import dev.idiom.services.app.zotero.ServedZotero;
import dev.idiom.services.app.zotero.ZoteroApiException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One library's routes: items, collections, searches, tags, settings, deleted; the API's paths turned into queries and writes. */
final class LibraryRoutes {
    private final ServedZotero zotero;
    private final ZoteroAnswers answers;
    private final ZoteroAtom atom;
    private final String base;

    LibraryRoutes(ServedZotero zotero, ZoteroAnswers answers, String base) {
        this.zotero = zotero;
        this.answers = answers;
        this.atom = new ZoteroAtom(zotero.types(), zotero.clock());
        this.base = base;
    }

    void serve(HttpServletRequest req, HttpServletResponse resp, Library library, List<String> p) throws IOException {
        String method = req.getMethod();
        String what = p.get(0);
        switch (what) {
            case "items", "collections", "searches" -> {
                String type = what.equals("searches") ? "search" : what.substring(0, what.length() - 1);
                if (method.equals("GET") || method.equals("HEAD")) {
                    read(req, resp, library, type, p);
                } else {
                    write(req, resp, library, type, p);
                }
            }
            case "tags" -> tags(req, resp, library, p);
            case "settings" -> settings(req, resp, library, p);
            case "deleted" -> {
                LibraryView view = zotero.view(library);
                if (notModified(req, resp, view.version())) {
                    return;
                }
                long since = longParam(req, "since", -1);
                if (since < 0) {
                    throw new ZoteroApiException(400, "'since' parameter must be provided");
                }
                ObjectNode out = ZoteroAnswers.JSON.createObjectNode();
                zotero.deleted(library, since).forEach((t, keys) -> keys.forEach(out.withArray(t)::add));
                ok(resp, view.version());
                ZoteroApi.json(resp, 200, out);
            }
            case "fulltext" -> {
                ok(resp, zotero.view(library).version());
                ZoteroApi.json(resp, 200, ZoteroAnswers.JSON.createObjectNode()); // Idiom keeps no full text: nothing has changed
            }
            default -> throw new ZoteroApiException(404, "Not found");
        }
    }

    private static void ok(HttpServletResponse resp, long version) {
        resp.setHeader("Last-Modified-Version", Long.toString(version));
    }

    private static boolean notModified(HttpServletRequest req, HttpServletResponse resp, long version) {
        String ims = req.getHeader("If-Modified-Since-Version");
        if (ims != null && parse(ims, "If-Modified-Since-Version") >= version) {
            ok(resp, version);
            resp.setStatus(304);
            return true;
        }
        return false;
    }

    private void read(HttpServletRequest req, HttpServletResponse resp, Library library, String type, List<String> p) throws IOException {
        LibraryView view = zotero.view(library);
        // a single object: items/{key}, collections/{key}
        if (p.size() == 2 && p.get(1).matches("[23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8}")) {
            Stored o = view.of(type).get(p.get(1));
            if (o == null) {
                throw new ZoteroApiException(404, label(type) + " not found");
            }
            if (notModified(req, resp, o.version())) {
                return;
            }
            ok(resp, o.version());
            String format = ZoteroApi.format(req);
            switch (format) {
                case "json" -> ZoteroApi.json(resp, 200, answer(req, view, o));
                case "atom" -> ZoteroApi.atom(resp, atom.entry(answer(req, view, o), ZoteroAtom.content(req.getParameter("content")), base));
                default -> throw new ZoteroApiException(400, "Invalid 'format' value '" + format + "'; Idiom serves json and atom for one object");
            }
            return;
        }
        if (p.size() >= 2 && p.getLast().equals("tags")) {
            tagsWithin(req, resp, view, type, p);
            return;
        }
        String scope = "all";
        String within = null;
        String objectType = type;
        if (p.size() == 2 && (p.get(1).equals("top") || p.get(1).equals("trash"))) {
            scope = p.get(1);
        } else if (p.size() == 3 && type.equals("item") && p.get(2).equals("children")) {
            scope = "children";
            within = existing(view, "item", p.get(1));
        } else if (p.size() >= 3 && type.equals("collection") && p.get(2).equals("items")) {
            objectType = "item";
            within = existing(view, "collection", p.get(1));
            scope = p.size() == 4 && p.get(3).equals("top") ? "collectionTop" : "collection";
        } else if (p.size() == 3 && type.equals("collection") && p.get(2).equals("collections")) {
            within = existing(view, "collection", p.get(1));
            scope = "subcollections";
        } else if (p.size() != 1) {
            throw new ZoteroApiException(404, "Not found");
        }
        if (notModified(req, resp, view.version())) {
            return;
        }
        List<Stored> all = query(req, objectType, scope, within).select(view);
        ok(resp, view.version());
        resp.setHeader("Total-Results", Integer.toString(all.size()));
        String format = ZoteroApi.format(req);
        boolean paged = !Set.of("keys", "versions").contains(format) || req.getParameter("limit") != null; // keys and versions: all, unless a limit is set
        List<Stored> page = paged ? ZoteroApi.page(all, req) : all;
        List<ZoteroAtom.Link> pages = paged ? links(req, resp, all.size()) : List.of();
        switch (format) {
            case "versions" -> {
                ObjectNode out = ZoteroAnswers.JSON.createObjectNode();
                page.forEach(o -> out.put(o.key(), o.version()));
                ZoteroApi.json(resp, 200, out);
            }
            case "keys" -> {
                StringBuilder s = new StringBuilder();
                page.forEach(o -> s.append(o.key()).append('\n'));
                ZoteroApi.text(resp, 200, s.toString());
            }
            case "json" -> {
                ArrayNode out = ZoteroApi.array();
                page.forEach(o -> out.add(answer(req, view, o)));
                ZoteroApi.json(resp, 200, out);
            }
            case "atom" -> ZoteroApi.atom(resp, atom.feed("Zotero / " + view.library().name() + " / " + label(type.equals("search") ? "searche" : type) + "s",
                    requested(req), pages,
                    page.stream().map(o -> answer(req, view, o)).toList(), ZoteroAtom.content(req.getParameter("content")), base));
            default -> throw new ZoteroApiException(400, "Invalid 'format' value '" + format + "'; Idiom serves json, atom, keys and versions");
        }
    }

    /** The URL the client asked for, its query included (an Atom feed's id and self link). */
    private static String requested(HttpServletRequest req) {
        return req.getRequestURL() + (req.getQueryString() == null ? "" : "?" + req.getQueryString());
    }

    private static String label(String type) {
        return Character.toUpperCase(type.charAt(0)) + type.substring(1);
    }

    /** {@code Link}: next, last (and prev, first) pages of a listing, as the API writes them; the same links for an Atom feed. */
    private static List<ZoteroAtom.Link> links(HttpServletRequest req, HttpServletResponse resp, int total) {
        int start = ZoteroApi.intParam(req, "start", 0);
        int limit = ZoteroApi.limit(req);
        String self = req.getRequestURL().toString();
        String query = req.getQueryString() == null ? "" : req.getQueryString().replaceAll("(^|&)start=[^&]*", "");
        java.util.List<ZoteroAtom.Link> out = new java.util.ArrayList<>();
        // as the dataserver writes them: no start for the first page (nor a prev or last that is the first)
        java.util.function.IntFunction<String> at = s -> {
            String q = (query.replaceAll("^&", "") + (s > 0 ? "&start=" + s : "")).replaceAll("^&", "");
            return self + (q.isEmpty() ? "" : "?" + q);
        };
        if (start + limit < total) {
            out.add(new ZoteroAtom.Link("next", at.apply(start + limit)));
        }
        int last = start >= total ? total - limit : ((total - 1) / limit) * limit; // where the last page starts; past the end, one page back from it
        out.add(new ZoteroAtom.Link("last", at.apply(Math.max(0, last))));
        if (start > 0) {
            out.add(new ZoteroAtom.Link("prev", at.apply(Math.max(0, start - limit))));
            out.add(new ZoteroAtom.Link("first", at.apply(0)));
        }
        resp.setHeader("Link", String.join(", ", out.stream().map(l -> "<" + l.href() + ">; rel=\"" + l.rel() + "\"").toList()));
        return out;
    }

    private static String existing(LibraryView view, String type, String key) {
        if (view.of(type).get(key) == null) {
            throw new ZoteroApiException(404, label(type) + " not found");
        }
        return key;
    }

    private ObjectQuery query(HttpServletRequest req, String type, String scope, String within) {
        String keyParam = type + "Key";
        List<String> keys = req.getParameter(keyParam) == null ? null : Arrays.stream(req.getParameter(keyParam).split(",")).map(String::strip)
                .filter(k -> !k.isEmpty()).toList();
        if (keys != null && keys.size() > 50) {
            throw new ZoteroApiException(400, "Cannot specify more than 50 " + type + " keys");
        }
        String[] tags = req.getParameterValues("tag");
        String sort = req.getParameter("sort");
        String direction = req.getParameter("direction");
        String order = req.getParameter("order"); // deprecated in v3, read as the dataserver reads it: a direction, or a field with sort= its direction
        if (order != null && (order.equals("asc") || order.equals("desc"))) {
            direction = order;
        } else if (order != null) {
            if (sort != null && (sort.equals("asc") || sort.equals("desc"))) {
                direction = sort;
            }
            sort = order;
        }
        if (sort != null && sort.endsWith("KeyList")) {
            sort = "keyList";
        }
        if (sort == null && "atom".equals(ZoteroApi.format(req))) {
            sort = "dateAdded"; // the dataserver's default order for Atom
        }
        if (direction != null && !direction.equals("asc") && !direction.equals("desc")) {
            throw new ZoteroApiException(400, "Invalid 'direction' value '" + direction + "'");
        }
        return new ObjectQuery(type, scope, within, since(req), keys, req.getParameter("itemType"),
                tags == null ? List.of() : List.of(tags), req.getParameter("q"), req.getParameter("qmode"), "1".equals(req.getParameter("includeTrashed")),
                sort, direction);
    }

    /**
     * An object as this client is answered it: an attachment's {@code lastRead} (schema 42) left out
     * for a client that asks for an older schema, Android's before schema 44, and Zotero desktop 7 and
     * 8 whatever schema they name (they fail on a property they do not know), as the dataserver gates it.
     */
    private ObjectNode answer(HttpServletRequest req, LibraryView view, Stored o) {
        ObjectNode out = answers.object(view, o, base);
        if (out.path("data").has("lastRead") && !lastReadVisible(req)) {
            ((ObjectNode) out.get("data")).remove("lastRead");
        }
        return out;
    }

    private static boolean lastReadVisible(HttpServletRequest req) {
        String agent = req.getHeader("User-Agent") == null ? "" : req.getHeader("User-Agent");
        int schema;
        try {
            schema = req.getHeader("Zotero-Schema-Version") == null ? 0 : Integer.parseInt(req.getHeader("Zotero-Schema-Version").strip());
        } catch (NumberFormatException e) {
            schema = 0;
        }
        // a client naming the schema Idiom serves is current, whatever that schema's number
        return !(schema > 0 && schema < Math.min(42, ZoteroApi.SCHEMA_VERSION)) && !(agent.contains("Android") && schema < 44)
                && !agent.matches(".*Gecko/\\d+ Zotero/[78]\\..*");
    }

    /** Whether Zotero's own client (or its connector) sends this: the dataserver keeps the dateModified they give. */
    private static boolean zoteroClient(HttpServletRequest req) {
        String agent = req.getHeader("User-Agent");
        return agent != null && (agent.contains("Zotero") || agent.contains("Firefox"));
    }

    /** {@code since}, or {@code newer} as older clients name it; 0 when neither is given. */
    private static long since(HttpServletRequest req) {
        return req.getParameter("since") != null ? longParam(req, "since", 0) : longParam(req, "newer", 0);
    }

    private static long longParam(HttpServletRequest req, String name, long otherwise) {
        String v = req.getParameter(name);
        return v == null || v.isEmpty() ? otherwise : parse(v, name);
    }

    private static long parse(String v, String name) {
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new ZoteroApiException(400, "Invalid '" + name + "' value '" + v + "'");
        }
    }

    private static Long header(HttpServletRequest req, String name) {
        String v = req.getHeader(name);
        return v == null ? null : parse(v, name);
    }

    private void write(HttpServletRequest req, HttpServletResponse resp, Library library, String type, List<String> p) throws IOException {
        Long iusv = header(req, "If-Unmodified-Since-Version");
        switch (req.getMethod() + " " + p.size()) {
            case "POST 1" -> {
                JsonNode body = ZoteroApi.body(req);
                ServedZotero.Posted posted = zotero.post(library, type, body, iusv, zotero.caller(ZoteroApi.keyOf(req)), req.getHeader("Zotero-Write-Token"),
                        zoteroClient(req));
                ObjectNode out = ZoteroAnswers.JSON.createObjectNode();
                ObjectNode successful = out.putObject("successful");
                ObjectNode success = out.putObject("success");
                ObjectNode unchanged = out.putObject("unchanged");
                ObjectNode failed = out.putObject("failed");
                LibraryView view = posted.outcomes().stream().anyMatch(o -> o.written() != null) ? zotero.view(library) : null;
                for (var o : posted.outcomes()) {
                    String i = Integer.toString(o.index());
                    if (o.failed()) {
                        ObjectNode f = failed.putObject(i).put("key", o.key()).put("code", o.code()).put("message", o.message());
                        if (!o.data().isEmpty()) {
                            o.data().forEach(f.putObject("data")::put);
                        }
                    } else if (o.unchanged()) {
                        unchanged.put(i, o.key());
                    } else {
                        Stored s = view.of(type).get(o.key());
                        successful.set(i, s == null ? o.written() : answer(req, view, s));
                        success.put(i, o.key());
                    }
                }
                ok(resp, posted.version());
                ZoteroApi.json(resp, 200, out);
            }
            case "PUT 2", "PATCH 2" -> {
                JsonNode body = ZoteroApi.body(req);
                if (!body.isObject()) {
                    throw new ZoteroApiException(400, "Uploaded data must be a JSON object");
                }
                ObjectNode data = ((ObjectNode) body).deepCopy();
                data.put("key", p.get(1));
                ok(resp, zotero.put(library, type, p.get(1), data, iusv, req.getMethod().equals("PATCH"), zotero.caller(ZoteroApi.keyOf(req)), zoteroClient(req)));
                resp.setStatus(204);
            }
            case "DELETE 2" -> {
                ok(resp, zotero.delete(library, type, p.get(1), iusv));
                resp.setStatus(204);
            }
            case "DELETE 1" -> {
                String keys = req.getParameter(type + "Key");
                if (keys == null) {
                    throw new ZoteroApiException(400, "No " + type + " keys specified");
                }
                ok(resp, zotero.deleteAll(library, type, Arrays.stream(keys.split(",")).map(String::strip).toList(), iusv));
                resp.setStatus(204);
            }
            default -> throw new ZoteroApiException(405, "Method not allowed");
        }
    }

    private void tags(HttpServletRequest req, HttpServletResponse resp, Library library, List<String> p) throws IOException {
        if (req.getMethod().equals("DELETE")) {
            String tag = req.getParameter("tag");
            if (tag == null) {
                throw new ZoteroApiException(400, "No tags specified");
            }
            ok(resp, zotero.deleteTags(library, Arrays.stream(tag.split("\\s*\\|\\|\\s*")).toList(), header(req, "If-Unmodified-Since-Version")));
            resp.setStatus(204);
            return;
        }
        LibraryView view = zotero.view(library);
        if (notModified(req, resp, view.version())) {
            return;
        }
        List<Stored> items = itemsForTags(req, "all", null).select(view);
        if (p.size() == 2) {
            String name = java.net.URLDecoder.decode(p.get(1), java.nio.charset.StandardCharsets.UTF_8);
            if (!zotero.tags(view, items).containsKey(name)) {
                throw new ZoteroApiException(404, "Tag not found");
            }
        }
        tagsOf(req, resp, view, items);
    }

    /**
     * The tags of some items: {@code items/tags}, {@code items/top/tags}, {@code items/trash/tags},
     * {@code collections/{key}/tags}, {@code collections/{key}/items/tags} and {@code …/items/top/tags}.
     */
    private void tagsWithin(HttpServletRequest req, HttpServletResponse resp, LibraryView view, String type, List<String> p) throws IOException {
        String scope;
        String within = null;
        if (type.equals("item") && p.size() == 2) {
            scope = "all";
        } else if (type.equals("item") && p.size() == 3 && (p.get(1).equals("top") || p.get(1).equals("trash"))) {
            scope = p.get(1);
        } else if (type.equals("collection") && (p.size() == 3 || p.size() == 4 && p.get(2).equals("items"))) {
            within = existing(view, "collection", p.get(1));
            scope = "collection";
        } else if (type.equals("collection") && p.size() == 5 && p.get(2).equals("items") && p.get(3).equals("top")) {
            within = existing(view, "collection", p.get(1));
            scope = "collectionTop";
        } else {
            throw new ZoteroApiException(404, "Not found");
        }
        if (notModified(req, resp, view.version())) {
            return;
        }
        tagsOf(req, resp, view, itemsForTags(req, scope, within).select(view));
    }

    /** The items whose tags a tag listing shows: those of its scope that {@code itemQ}, {@code itemQMode} and {@code itemTag} select. */
    private static ObjectQuery itemsForTags(HttpServletRequest req, String scope, String within) {
        String[] itemTags = req.getParameterValues("itemTag");
        return new ObjectQuery("item", scope, within, 0, null, null, itemTags == null ? List.of() : List.of(itemTags), req.getParameter("itemQ"),
                req.getParameter("itemQMode"), false, null, null);
    }

    /** A tag listing, its tags selected by name ({@code tag=a || b}), by {@code q} ({@code qmode} contains or startsWith) and by {@code since}. */
    private void tagsOf(HttpServletRequest req, HttpServletResponse resp, LibraryView view, List<Stored> items) throws IOException {
        Map<String, ServedZotero.TagUse> tags = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        tags.putAll(zotero.tags(view, items));
        String named = req.getParameter("tag");
        if (named != null) {
            Set<String> names = new java.util.TreeSet<>(String.CASE_INSENSITIVE_ORDER);
            names.addAll(Arrays.asList(named.split("\\s*\\|\\|\\s*")));
            tags.keySet().retainAll(names);
        }
        String q = req.getParameter("q");
        if (q != null && !q.isEmpty()) {
            String needle = q.toLowerCase(java.util.Locale.ROOT);
            boolean starts = "startswith".equalsIgnoreCase(req.getParameter("qmode"));
            tags.keySet().removeIf(t -> starts ? !t.toLowerCase(java.util.Locale.ROOT).startsWith(needle) : !t.toLowerCase(java.util.Locale.ROOT).contains(needle));
        }
        long since = since(req);
        tags.values().removeIf(t -> t.version() <= since);
        ok(resp, view.version());
        resp.setHeader("Total-Results", Integer.toString(tags.size()));
        String format = ZoteroApi.format(req);
        if (!format.equals("json") && !format.equals("atom")) {
            throw new ZoteroApiException(400, "Invalid 'format' value '" + format + "'; Idiom serves tags in json and atom");
        }
        List<ZoteroAtom.Link> pages = links(req, resp, tags.size());
        List<ObjectNode> page = tags.entrySet().stream().skip(ZoteroApi.intParam(req, "start", 0)).limit(ZoteroApi.limit(req)).map(t -> {
            ObjectNode o = ZoteroAnswers.JSON.createObjectNode().put("tag", t.getKey());
            o.putObject("links").putObject("self").put("href", base + "/" + view.library().path() + "/tags/"
                    + java.net.URLEncoder.encode(t.getKey(), java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20")).put("type", "application/json");
            o.putObject("meta").put("type", t.getValue().type()).put("numItems", t.getValue().numItems());
            return o;
        }).toList();
        if (format.equals("atom")) {
            ObjectNode library = answers.library(view.library(), base);
            ZoteroApi.atom(resp, atom.feed("Zotero / " + view.library().name() + " / Tags", requested(req), pages, page.stream().map(o -> o.deepCopy().set("library", library)).map(ObjectNode.class::cast).toList(),
                    ZoteroAtom.content(req.getParameter("content")), base));
            return;
        }
        ArrayNode out = ZoteroApi.array();
        page.forEach(out::add);
        ZoteroApi.json(resp, 200, out);
    }

    /** 403 when a group member who is no admin would change an admin-only setting. */
    private void adminOnly(HttpServletRequest req, Library library, List<String> settings) {
        var caller = zotero.caller(ZoteroApi.keyOf(req));
        for (String s : settings) {
            if (!zotero.mayChangeSetting(caller, library, s)) {
                throw new ZoteroApiException(403, "Only group admins can change setting '" + s + "'");
            }
        }
    }

    private void settings(HttpServletRequest req, HttpServletResponse resp, Library library, List<String> p) throws IOException {
        Long iusv = header(req, "If-Unmodified-Since-Version");
        switch (req.getMethod()) {
            case "GET" -> {
                LibraryView view = zotero.view(library);
                long since = longParam(req, "since", 0);
                if (notModified(req, resp, view.version())) {
                    return;
                }
                ObjectNode out = ZoteroAnswers.JSON.createObjectNode();
                for (var s : zotero.settings(library)) {
                    if (s.version() > since && (p.size() == 1 || p.get(1).equals(s.name()))) {
                        out.putObject(s.name()).set("value", LibraryView.parse("{\"v\":" + s.value() + "}").get("v"));
                        out.with(s.name()).put("version", s.version());
                    }
                }
                if (p.size() == 2) {
                    if (!out.has(p.get(1))) {
                        throw new ZoteroApiException(404, "Setting not found");
                    }
                    ok(resp, out.path(p.get(1)).path("version").asLong());
                    ZoteroApi.json(resp, 200, out.get(p.get(1)));
                    return;
                }
                ok(resp, view.version());
                ZoteroApi.json(resp, 200, out);
            }
            case "POST" -> {
                JsonNode body = ZoteroApi.body(req);
                var caller = zotero.caller(ZoteroApi.keyOf(req));
                ObjectNode failed = ZoteroAnswers.JSON.createObjectNode();
                if (body.isObject()) {
                    // an admin-only setting from a member is refused on its own; the others are written (a write report answers)
                    ObjectNode allowed = ZoteroAnswers.JSON.createObjectNode();
                    int i = 0;
                    for (var s : body.properties()) {
                        if (zotero.mayChangeSetting(caller, library, s.getKey())) {
                            allowed.set(s.getKey(), s.getValue());
                        } else {
                            failed.putObject(Integer.toString(i)).put("key", s.getKey()).put("code", 403)
                                    .put("message", "Only group admins can change setting '" + s.getKey() + "'");
                        }
                        i++;
                    }
                    body = allowed;
                }
                long version = body.isEmpty() && !failed.isEmpty() ? zotero.view(library).version() : zotero.putSettings(library, body, iusv);
                ok(resp, version);
                if (failed.isEmpty()) {
                    resp.setStatus(204);
                } else {
                    ObjectNode report = ZoteroAnswers.JSON.createObjectNode();
                    report.putObject("successful");
                    report.putObject("success");
                    report.putObject("unchanged");
                    report.set("failed", failed);
                    ZoteroApi.json(resp, 200, report);
                }
            }
            case "PUT" -> {
                if (p.size() != 2) {
                    throw new ZoteroApiException(405, "Method not allowed");
                }
                adminOnly(req, library, List.of(p.get(1)));
                ok(resp, zotero.putSetting(library, p.get(1), ZoteroApi.body(req), iusv));
                resp.setStatus(204);
            }
            case "DELETE" -> {
                if (p.size() != 2) {
                    String named = req.getParameter("settingKey");
                    if (named == null || named.isBlank()) {
                        throw new ZoteroApiException(400, "settingKey parameter not provided");
                    }
                    adminOnly(req, library, List.of(named.split(",")));
                    ok(resp, zotero.deleteSettings(library, List.of(named.split(",")), iusv));
                    resp.setStatus(204);
                    return;
                }
                adminOnly(req, library, List.of(p.get(1)));
                ok(resp, zotero.deleteSetting(library, p.get(1), iusv));
                resp.setStatus(204);
            }
            default -> throw new ZoteroApiException(405, "Method not allowed");
        }
    }
}
