package dev.idiom.services.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.services.tools.ToolAccount;
import dev.idiom.services.tools.ToolAccounts;
import jakarta.ws.rs.Consumes;
import dev.idiom.services.app.Operation;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.QueryParam;
import dev.idiom.services.app.ReplicaSync;
import dev.idiom.events.accounts.SyncState;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code /api/tools}: configured annotation-tool accounts (secrets go in, never out), and a curator's sync, check, pause and resume of each. */
@Needs(Operation.SYNC_TOOLS)
@Path("/tools")
@Produces(MediaType.APPLICATION_JSON)
public final class ToolsResource {
    private final dev.idiom.services.tools.Tools tools;
    private final ToolAccounts accounts;
    private final JsonBodies json;

    private final ReplicaSync sync;
    private final dev.idiom.services.http.PublicUrl publicUrl;

    private final dev.idiom.services.app.zotero.ServedAccounts served;

    ToolsResource(dev.idiom.services.tools.Tools tools, ReplicaSync sync, dev.idiom.services.app.zotero.ServedAccounts served, JsonBodies json,
                  dev.idiom.services.http.PublicUrl publicUrl) {
        this.publicUrl = publicUrl;
        this.served = served;
        this.tools = tools;
        this.sync = sync;
        this.accounts = tools.accounts();
        this.json = json;
    }

    @GET
    public String list() {
        ArrayNode out = json.mapper().createArrayNode();
        accounts.list().forEach(a -> out.add(view(a)));
        return out.toString();
    }

    /**
     * Body: {"kind", "baseUrl", "account", "secret", "newRecords", "conflictPolicy", "privateLibrary", "mirror", "direction"}; the
     * secret is sealed with IDIOM_SECRET_KEY. {@code mirror}: "none" (the default), "all" or a filter {"tags", "types", "query",
     * "from"}; {@code direction}: "both" (the default), "receive-only" or "send-only"; {@code deletions}: "keep" (the default)
     * or "propagate" (a DE deleted in Idiom has its copies there deleted; a copy deleted there deletes a DE it was the last copy of).
     */
    @Needs(Operation.SYNC_TOOLS)
    @PUT
    @Path("{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    public String put(@PathParam("name") String name, byte[] body, @QueryParam("check") String check,
                      @jakarta.ws.rs.core.Context jakarta.servlet.http.HttpServletRequest request) {
        ObjectNode b = JsonBodies.closed(json.object(body), "kind", "baseUrl", "account", "secret", "newRecords", "conflictPolicy", "privateLibrary",
                "mirror", "direction", "deletions", "create", "group");
        if (ToolAccounts.SERVED.equals(JsonBodies.string(b, "kind"))) {
            return putServed(name, b, checked(check), request);
        }
        boolean checked = checked(check);
        String kind = JsonBodies.string(b, "kind");
        if (b.has("group")) {
            throw new dev.idiom.events.InvalidValueException("\"group\" says what a zotero-api account serves; a " + kind + " account has none");
        }
        boolean browsers = ToolAccounts.BROWSERS.equals(kind);
        String secret = JsonBodies.string(b, "secret");
        String made = null; // a browsers' account's password, said once: when Idiom made it
        if (browsers && (secret == null || secret.isEmpty())) {
            secret = accounts.browserPassword(name).orElse(null);
            if (secret == null) {
                made = secret = ToolAccounts.newBrowserPassword();
            }
        }
        // a browser's bookmarks are a person's own: private unless the account says otherwise
        boolean flag = JsonBodies.strictFlag(b, "privateLibrary"); // a value that is not true or false (null too) is refused, as for every account
        boolean privateLibrary = browsers && !b.has("privateLibrary") || flag;
        String given = secret;
        ObjectNode out = view(tools.saveChecked(name, JsonBodies.strictFlag(b, "create"), checked, () -> accounts.put(name, kind,
                JsonBodies.string(b, "baseUrl"), JsonBodies.string(b, "account"), given, JsonBodies.string(b, "newRecords"),
                JsonBodies.string(b, "conflictPolicy"), privateLibrary, b.get("mirror"), JsonBodies.string(b, "direction"),
                JsonBodies.string(b, "deletions"))));
        if (browsers) {
            out.put("davUrl", publicUrl.of(request) + "/dav/" + name + "/");
            if (made != null) {
                out.put("davPassword", made);
            }
        }
        return out.toString();
    }

    private static boolean checked(String check) {
        return check == null || QueryParams.flag("check", check);
    }

    /**
     * A Zotero library Idiom serves: made with the account (a user library, or with {@code "group":
     * true} a group one), its key for clients said once; the engine syncs it as any Zotero account.
     */
    private String putServed(String name, ObjectNode b, boolean checked, jakarta.servlet.http.HttpServletRequest request) {
        for (String given : java.util.List.of("baseUrl", "account", "secret")) {
            if (b.has(given)) {
                throw new dev.idiom.events.InvalidValueException("a zotero-api account's " + given + " is Idiom's to make: PUT it without one");
            }
        }
        dev.idiom.services.app.zotero.ServedAccounts.Saved saved = served.save(tools, name, JsonBodies.strictFlag(b, "group"), checked,
                JsonBodies.string(b, "newRecords"), JsonBodies.string(b, "conflictPolicy"), JsonBodies.strictFlag(b, "privateLibrary"), b.get("mirror"),
                JsonBodies.string(b, "direction"), JsonBodies.string(b, "deletions"));
        var s = saved.served();
        ObjectNode out = view(saved.account());
        out.put("apiUrl", publicUrl.of(request)).put(s.group() ? "groupID" : "userID", s.library().number());
        if (s.group()) {
            out.put("userID", s.userNumber());
        }
        if (s.clientKey() != null) {
            out.put("apiKey", s.clientKey());
        }
        out.put("username", name); // Zotero desktop 7 and 8 sign in with these (POST /keys)
        if (s.password() != null) {
            out.put("password", s.password());
        }
        return out.toString();
    }

    /** A new key for a zotero-api account's clients, said once; the old one is refused from now on. */
    @Needs(Operation.SYNC_TOOLS)
    @POST
    @Path("{name}/zotero-key")
    public String renewZoteroKey(@PathParam("name") String name) {
        String engine = accounts.servedKey(name).orElseThrow(() -> new dev.idiom.consistency.report.UnknownToolAccountException(name));
        return json.mapper().createObjectNode().put("name", name).put("apiKey", served.renewClientKey(name, engine)).toString();
    }

    /** A new password for a zotero-api account's clients to sign in with (its name is the account's), said once; the old one is refused from now on. */
    @Needs(Operation.SYNC_TOOLS)
    @POST
    @Path("{name}/zotero-password")
    public String renewZoteroPassword(@PathParam("name") String name) {
        String engine = accounts.servedKey(name).orElseThrow(() -> new dev.idiom.consistency.report.UnknownToolAccountException(name));
        return json.mapper().createObjectNode().put("name", name).put("username", name).put("password", served.renewPassword(name, engine)).toString();
    }

    /**
     * Changes only the account's replication settings. Body: any of {"mirror", "direction",
     * "deletions"} (as for PUT); the rest of the account, its secret included, stays.
     * {@code dryRun=true}: what the account would be written under the new settings (copies,
     * changes, removals, a hold, with samples), nothing saved.
     */
    @Needs(Operation.SYNC_TOOLS)
    @jakarta.ws.rs.PATCH
    @Path("{name}")
    @Consumes({EntitiesResource.MERGE_PATCH, MediaType.APPLICATION_JSON})
    public String replicate(@PathParam("name") String name, byte[] body, @QueryParam("dryRun") String dryRun) {
        ObjectNode b = JsonBodies.closed(json.object(body), "mirror", "direction", "deletions");
        if (QueryParams.flag("dryRun", dryRun)) {
            return plan(sync.previewRule(name, accounts.candidate(name, b.get("mirror"), JsonBodies.string(b, "direction"),
                    JsonBodies.string(b, "deletions")))).toString();
        }
        return view(accounts.replicate(name, b.get("mirror"), JsonBodies.string(b, "direction"), JsonBodies.string(b, "deletions"))).toString();
    }

    /** Removes the account: its copies unlinked (the records stay in the tool), what it was owed dropped, its secret destroyed. */
    @Needs(Operation.SYNC_TOOLS)
    @DELETE
    @Path("{name}")
    public String remove(@PathParam("name") String name) {
        return json.mapper().createObjectNode().put("name", name).put("removed", true).put("unlinked", sync.removeAccount(name)).toString();
    }

    /** Where the account's mirror stands: its rule, how far it has been planned, how many writes it is owed and when they should be done. */
    @GET
    @Path("{name}/mirror")
    public String mirror(@PathParam("name") String name) {
        dev.idiom.consistency.report.MirrorProgress p = sync.mirror(name);
        ObjectNode n = json.mapper().createObjectNode().put("name", name);
        n.set("mirror", p.mirror());
        n.put("direction", p.direction()).put("plannedEvents", p.planned()).put("ofEvents", p.of()).put("owed", p.owed())
                .put("estimatedSeconds", p.estimate().toSeconds()).put("parked", p.parked()).put("complete", p.complete());
        parkedWrites(n.putArray("parkedSamples"), p.parkedSamples());
        return n.toString();
    }

    /**
     * The writes the tool refused for good, parked until their DE changes or a curator retries them
     * ({@code POST /api/tools/{name}/retry}): each record's title, its copy there, and the tool's own words.
     */
    @GET
    @Path("{name}/parked")
    public String parked(@PathParam("name") String name, @QueryParam("limit") String limit) {
        ObjectNode n = json.mapper().createObjectNode().put("name", name).put("advice", dev.idiom.consistency.report.ParkedWrite.ADVICE);
        parkedWrites(n.putArray("parked"), sync.parked(name, (int) QueryParams.whole("limit", limit, 100, 1, 1000)));
        return n.toString();
    }

    private static void parkedWrites(com.fasterxml.jackson.databind.node.ArrayNode list, java.util.List<dev.idiom.consistency.report.ParkedWrite> parked) {
        parked.forEach(w -> list.addObject().put("entityId", w.entityId().toString()).put("title", w.title()).put("remoteId", w.remoteId())
                .put("reason", w.reason()).put("attempts", w.attempts()));
    }

    /**
     * A curator's sync of one account: pull what changed there, unlink copies deleted there (held
     * past the account's share unless {@code allowDeletions=true}), plan what the replication rules
     * owe, push everything owed. {@code dryRun=true}: what it would do, with counts and samples, changing nothing.
     */
    @POST
    @Path("{name}/sync")
    public String sync(@PathParam("name") String name, @QueryParam("allowDeletions") String allowDeletions, @QueryParam("dryRun") String dryRun) {
        if (QueryParams.flag("dryRun", dryRun)) {
            return plan(sync.plan(name)).toString();
        }
        dev.idiom.consistency.report.SyncReport r = sync.sync(name, QueryParams.flag("allowDeletions", allowDeletions), (s, done, size, last) -> { });
        ObjectNode n = json.mapper().createObjectNode().put("account", name);
        n.set("pulled", json.summary(r.pulled()));
        n.put("unlinked", r.unlinked()).put("held", r.held()).put("queued", r.queued());
        ObjectNode pushed = n.putObject("pushed");
        r.pushedByOutcome().forEach(pushed::put);
        n.put("merged", r.mergedCount()).put("conflicts", r.pulled().conflicts());
        ArrayNode owed = n.putArray("owed");
        r.owed().forEach(e -> owed.addObject().put("entityId", e.entityId().toString()).put("remoteId", e.remoteId()).put("parked", e.parked())
                .put("attempts", e.attempts()).put("lastError", e.lastError()));
        ArrayNode withheld = n.putArray("withheldTags");
        r.withheldTags().forEach((id, tags) -> {
            ArrayNode t = withheld.addObject().put("entityId", id.toString()).putArray("tags");
            tags.forEach(t::add);
        });
        return n.toString();
    }

    private ObjectNode plan(dev.idiom.consistency.report.SyncPlan p) {
        ObjectNode n = json.mapper().createObjectNode().put("account", p.account()).put("dryRun", true);
        ObjectNode pull = n.putObject("pull");
        named(pull, "created", p.pulled().created);
        named(pull, "merged", p.pulled().merged);
        named(pull, "updated", p.pulled().updated);
        named(pull, "unlinked", p.pulled().unlinked);
        pull.put("unchanged", p.pulled().unchanged).put("skipped", p.pulled().skipped).put("held", p.pulled().held).put("queued", p.pulled().queued);
        ArrayNode writes = n.putArray("writes");
        for (dev.idiom.consistency.report.SyncPlan.Writes w : p.writes()) {
            ObjectNode a = writes.addObject().put("account", w.name());
            named(a, "copies", w.copies);
            named(a, "updates", w.updates);
            named(a, "removals", w.removals);
            named(a, "refused", w.refused); // copies the tool would refuse as they stand: parked, not made
            a.put("held", w.held);
        }
        return n;
    }

    private static void named(ObjectNode parent, String field, dev.idiom.consistency.report.SyncPlan.Named named) {
        ObjectNode o = parent.putObject(field).put("count", named.count());
        named.samples().forEach(o.putArray("samples")::add);
    }

    /**
     * Anti-entropy now: every replica of the account fetched, compared in canonical form, repaired through the merge; a copy
     * unchanged in its tool that Idiom reads otherwise now is re-based ({@code reread}), not merged.
     */
    @POST
    @Path("{name}/check")
    public String check(@PathParam("name") String name) {
        dev.idiom.consistency.report.CheckReport r = sync.check(name);
        return json.mapper().createObjectNode().put("account", r.account()).put("listed", r.listed()).put("replicas", r.replicas())
                .put("divergent", r.divergent()).put("repaired", r.repaired()).put("reEnqueued", r.reEnqueued()).put("missing", r.missing())
                .put("reread", r.reread()).put("shared", r.shared()).put("held", r.held()).toString();
    }

    /** Parked pushes (refused by the tool for good) are tried again now. */
    @POST
    @Path("{name}/retry")
    public String retry(@PathParam("name") String name) {
        return json.mapper().createObjectNode().put("name", name).put("unparked", sync.retryParked(name)).toString();
    }

    @POST
    @Path("{name}/pause")
    public String pause(@PathParam("name") String name) {
        return state(name, sync.pause(name));
    }

    /** Resumes; a held account (a mass deletion, a changed identity) only with {@code allowDeletions=true}, which applies what was held. */
    @POST
    @Path("{name}/resume")
    public String resume(@PathParam("name") String name, @QueryParam("allowDeletions") String allowDeletions) {
        return state(name, sync.resume(name, QueryParams.flag("allowDeletions", allowDeletions)));
    }

    private String state(String name, SyncState s) {
        return json.mapper().createObjectNode().put("name", name).put("paused", s.paused()).put("held", s.held() != null).toString();
    }

    private ObjectNode view(ToolAccount a) {
        return json.mapper().createObjectNode().put("name", a.name()).put("kind", a.kind()).put("baseUrl", a.baseUrl())
                .put("account", a.account()).put("hasSecret", a.hasSecret())
                .put("newRecords", a.newRecords()).put("conflictPolicy", a.conflictPolicy()).put("privateLibrary", a.privateLibrary())
                .put("direction", a.direction()).put("deletions", a.deletions()).set("mirror", a.mirror());
    }
}
