package dev.idiom.services.zotero;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.zotero.ServedLibraries.Library;
import dev.idiom.services.app.zotero.LibraryView;
import dev.idiom.services.app.zotero.ServedZotero;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The super-user routes Zotero's own API suite sets itself up with ({@code test/setup},
 * {@code users/{id}/clear}, {@code groups/{id}/clear}, {@code users/{id}/groups}, group creation in
 * XML), answered only to HTTP Basic with the test root's name
 * and password, and only when Idiom was started with one (IDIOM_ZOTERO_TEST_ROOT, {@code name:password}, from
 * the environment or the file IDIOM_ZOTERO_TEST_ROOT_FILE names). Without a root none of them exists.
 */
public final class TestRoot {
    private static final Pattern ATTRIBUTE = Pattern.compile("([A-Za-z]+)=\"([^\"]*)\"");

    private final ServedZotero zotero;
    private final String credentials;
    private final dev.idiom.services.http.PublicUrl publicUrl;

    /** The test root Idiom was started with ({@code name:password}), or none (null). */
    public TestRoot(ServedZotero zotero, String credentials, dev.idiom.services.http.PublicUrl publicUrl) {
        this.zotero = zotero;
        this.publicUrl = publicUrl;
        this.credentials = credentials;
    }

    public boolean configured() {
        return credentials != null;
    }

    /** Whether the request carries the test root's credentials (never, without a root). */
    boolean isRoot(HttpServletRequest req) {
        String auth = req.getHeader("Authorization");
        if (credentials == null || auth == null || !auth.regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        byte[] given;
        try {
            given = Base64.getDecoder().decode(auth.substring(6).strip());
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(given, credentials.getBytes(StandardCharsets.UTF_8));
    }

    /** Answers a root route and says so; false: not one (or no root, or not the root's credentials). */
    boolean routes(HttpServletRequest req, HttpServletResponse resp, List<String> p) throws IOException {
        if (!isRoot(req)) {
            return false;
        }
        String route = req.getMethod() + " " + String.join("/", p.stream().map(s -> s.matches("[0-9]+") ? "N" : s).toList());
        switch (route) {
            case "POST test/setup" -> {
                long u1 = Long.parseLong(req.getParameter("u"));
                long u2 = Long.parseLong(req.getParameter("u2"));
                Map<Long, String> keys = zotero.setUpForTests(u1, u2);
                ObjectNode out = ZoteroAnswers.JSON.createObjectNode();
                out.putObject("user1").put("apiKey", keys.get(u1));
                out.putObject("user2").put("apiKey", keys.get(u2));
                ZoteroApi.json(resp, 200, out);
            }
            case "POST users/N/clear" -> {
                zotero.clear(zotero.userLibrary(Long.parseLong(p.get(1))));
                resp.setStatus(204);
            }
            case "POST groups/N/clear" -> {
                zotero.clear(zotero.library("group", Long.parseLong(p.get(1))));
                resp.setStatus(204);
            }
            case "GET users/N/groups" -> ZoteroApi.groups(zotero, publicUrl.of(req), req, resp, Long.parseLong(p.get(1)));
            case "POST groups" -> {
                ObjectNode meta = attributes(new String(req.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                meta.putArray("members");
                Library g = zotero.createGroup(meta.path("name").asText("group"), meta);
                resp.setHeader("Location", req.getRequestURL().toString() + "/" + g.number());
                resp.setStatus(201);
            }
            case "POST groups/N/users" -> {
                Library g = zotero.library("group", Long.parseLong(p.get(1)));
                ObjectNode meta = (ObjectNode) LibraryView.parse(g.meta());
                Matcher m = Pattern.compile("<user id=\"([0-9]+)\"").matcher(new String(req.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                while (m.find()) {
                    meta.withArray("members").add(Long.parseLong(m.group(1)));
                }
                zotero.describeGroup(g, meta);
                resp.setStatus(200);
            }
            case "DELETE groups/N" -> {
                zotero.dropGroup(zotero.library("group", Long.parseLong(p.get(1))));
                resp.setStatus(204);
            }
            default -> {
                return false; // the root's key routes are the website's, in KeyRoutes
            }
        }
        return true;
    }

    /** A group's XML element's attributes ({@code <group owner="1" type="Private" …/>}), as the group's data. */
    private static ObjectNode attributes(String xml) {
        ObjectNode out = ZoteroAnswers.JSON.createObjectNode();
        Matcher m = ATTRIBUTE.matcher(xml);
        while (m.find()) {
            String v = m.group(2);
            if (m.group(1).equals("owner")) {
                out.put("owner", Long.parseLong(v));
            } else {
                out.put(m.group(1), v);
            }
        }
        return out;
    }
}
