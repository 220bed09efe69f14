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

/** One library's routes: items, collections, searches, tags, settings, deleted; the API's paths turned into queries and writes. */
final class LibraryRoutes {
    private final ServedZotero zotero;
    private final ZoteroAnswers answers;
    private final String base;

    LibraryRoutes(ServedZotero zotero, ZoteroAnswers answers, String base) {
        this.zotero = zotero;
        this.answers = answers;
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
            ZoteroApi.json(resp, 200, answers.object(view, o, base));
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
        } else if (p.size() == 3 && type.equals("collection") && p.get(2).equals("tags")) {
            tagsOf(req, resp, view, new ObjectQuery("item", "collection", existing(view, "collection", p.get(1)), 0, null, null, List.of(), null,
                    null, false, null, null).select(view));
            return;
        } else if (p.size() == 3 && p.get(2).equals("tags") && (p.get(1).equals("top") || p.get(1).equals("trash"))) {
            tagsOf(req, resp, view, query(req, type, p.get(1), null).select(view));
            return;
        } else if (p.size() != 1) {
            throw new ZoteroApiException(404, "Not found");
        }
        if (notModified(req, resp, view.version())) {
            return;
        }
        List<Stored> all = query(req, objectType, scope, within).select(view);
        ok(resp, view.version());
        resp.setHeader("Total-Results", Integer.toString(all.size()));
        String format = req.getParameter("format") == null ? "json" : req.getParameter("format");
        switch (format) {
            case "versions" -> {
                ObjectNode out = ZoteroAnswers.JSON.createObjectNode();
                all.forEach(o -> out.put(o.key(), o.version()));
                ZoteroApi.json(resp, 200, out);
            }
            case "keys" -> {
                StringBuilder s = new StringBuilder();
                all.forEach(o -> s.append(o.key()).append('\n'));
                ZoteroApi.text(resp, 200, s.toString());
            }
            case "json" -> {
                List<Stored> page = ZoteroApi.page(all, req);
                links(req, resp, all.size());
                ArrayNode out = ZoteroApi.array();
                page.forEach(o -> out.add(answers.object(view, o, base)));
                ZoteroApi.json(resp, 200, out);
            }
            default -> throw new ZoteroApiException(400, "Invalid 'format' value '" + format + "'; Idiom serves json, keys and versions");
        }
    }

    private static String label(String type) {
        return Character.toUpperCase(type.charAt(0)) + type.substring(1);
    }

    /** {@code Link}: next, last (and prev, first) pages of a listing, as the API writes them. */
    private static void links(HttpServletRequest req, HttpServletResponse resp, int total) {
        int start = ZoteroApi.intParam(req, "start", 0);
        int limit = ZoteroApi.limit(req);
        String self = req.getRequestURL().toString();
        String query = req.getQueryString() == null ? "" : req.getQueryString().replaceAll("(^|&)start=[^&]*", "");
        java.util.List<String> out = new java.util.ArrayList<>();
        // as the dataserver writes them: no start for the first page (nor a prev or last that is the first)
        java.util.function.IntFunction<String> at = s -> {
            String q = (query.replaceAll("^&", "") + (s > 0 ? "&start=" + s : "")).replaceAll("^&", "");
            return self + (q.isEmpty() ? "" : "?" + q);
        };
        if (start + limit < total) {
            out.add("<" + at.apply(start + limit) + ">; rel=\"next\"");
        }
        int last = start >= total ? total - limit : ((total - 1) / limit) * limit; // where the last page starts; past the end, one page back from it
        out.add("<" + at.apply(Math.max(0, last)) + ">; rel=\"last\"");
        if (start > 0) {
            out.add("<" + at.apply(Math.max(0, start - limit)) + ">; rel=\"prev\"");
            out.add("<" + at.apply(0) + ">; rel=\"first\"");
        }
        if (!out.isEmpty()) {
            resp.setHeader("Link", String.join(", ", out));
        }
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
        String sort = req.getParameter("sort") == null ? req.getParameter("order") : req.getParameter("sort");
        if (sort != null && sort.endsWith("KeyList")) {
            sort = null;
        }
        String direction = req.getParameter("direction");
        if (direction != null && !direction.equals("asc") && !direction.equals("desc")) {
            throw new ZoteroApiException(400, "Invalid 'direction' value '" + direction + "'");
        }
        return new ObjectQuery(type, scope, within, longParam(req, "since", 0), keys, req.getParameter("itemType"),
                tags == null ? List.of() : List.of(tags), req.getParameter("q"), req.getParameter("qmode"), "1".equals(req.getParameter("includeTrashed")),
                sort, direction);
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
                ServedZotero.Posted posted = zotero.post(library, type, body, iusv, zotero.caller(ZoteroApi.keyOf(req)), req.getHeader("Zotero-Write-Token"));
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
                        successful.set(i, s == null ? o.written() : answers.object(view, s, base));
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
                ok(resp, zotero.put(library, type, p.get(1), data, iusv, req.getMethod().equals("PATCH")));
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
        List<Stored> items = new ObjectQuery("item", "all", null, 0, null, null, List.of(), null, null, false, null, null).select(view);
        if (p.size() == 2) {
            Map<String, int[]> tags = zotero.tags(view, items);
            String name = java.net.URLDecoder.decode(p.get(1), java.nio.charset.StandardCharsets.UTF_8);
            if (!tags.containsKey(name)) {
                throw new ZoteroApiException(404, "Tag not found");
            }
        }
        tagsOf(req, resp, view, items);
    }

    private void tagsOf(HttpServletRequest req, HttpServletResponse resp, LibraryView view, List<Stored> items) throws IOException {
        Map<String, int[]> tags = zotero.tags(view, items);
        ok(resp, view.version());
        resp.setHeader("Total-Results", Integer.toString(tags.size()));
        ArrayNode out = ZoteroApi.array();
        int start = ZoteroApi.intParam(req, "start", 0);
        int limit = ZoteroApi.limit(req);
        tags.entrySet().stream().skip(start).limit(limit).forEach(t -> {
            ObjectNode o = out.addObject().put("tag", t.getKey());
            o.putObject("links").putObject("self").put("href", base + "/" + view.library().path() + "/tags/"
                    + java.net.URLEncoder.encode(t.getKey(), java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20")).put("type", "application/json");
            o.putObject("meta").put("type", t.getValue()[0]).put("numItems", t.getValue()[1]);
        });
        ZoteroApi.json(resp, 200, out);
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
                ok(resp, zotero.putSettings(library, ZoteroApi.body(req), iusv));
                resp.setStatus(204);
            }
            case "PUT" -> {
                if (p.size() != 2) {
                    throw new ZoteroApiException(405, "Method not allowed");
                }
                ObjectNode one = ZoteroAnswers.JSON.createObjectNode();
                one.set(p.get(1), ZoteroApi.body(req));
                ok(resp, zotero.putSettings(library, one, iusv));
                resp.setStatus(204);
            }
            case "DELETE" -> {
                if (p.size() != 2) {
                    String named = req.getParameter("settingKey");
                    if (named == null || named.isBlank()) {
                        throw new ZoteroApiException(400, "settingKey parameter not provided");
                    }
                    ok(resp, zotero.deleteSettings(library, List.of(named.split(",")), iusv));
                    resp.setStatus(204);
                    return;
                }
                ok(resp, zotero.deleteSetting(library, p.get(1), iusv));
                resp.setStatus(204);
            }
            default -> throw new ZoteroApiException(405, "Method not allowed");
        }
    }
}
