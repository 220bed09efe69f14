package dev.idiom.services.app;

import java.util.List;

/**
 * Who may call what: every operation a face offers, with the role it needs. The one table REST
 * ({@code @Needs}), SOAP (by operation name), the admin console and pages, and the curator's
 * workspace consult; a face decides no role itself. An operation no face maps here needs an
 * admin (fail closed).
 */
public enum Operation {
    /** The empty operation: the service's own cost, for the saturation baseline. */
    EMPTY(Role.READER, "empty"),
    /** A DE, its citation, its history, search; a DE's replicas. */
    READ_ENTITIES(Role.READER, "moreInfo", "cite", "history", "search"),
    /** The change feed. */
    READ_CHANGES(Role.READER),
    /** Create, change, delete, restore and revert a DE. */
    WRITE_ENTITIES(Role.CURATOR, "createDE", "updateDE", "deleteDE", "restoreDE"),
    /** Merge and split DEs, unlink a copy, the suggested duplicates. */
    CURATE_ENTITIES(Role.CURATOR, "suggestedDuplicates", "dismissDuplicate"),
    /** Imports, downloads, uploads, syncs, parked writes, the tool accounts' rules and replication. */
    SYNC_TOOLS(Role.CURATOR, "download", "upload", "importAll", "sync", "parkedWrites", "setReplication"),
    /** The consistency report, conflicts and their resolution, fidelity. */
    CONSISTENCY(Role.CURATOR, "consistencyReport", "conflicts", "resolveConflict"),
    /** The trash: list, restore from it. */
    TRASH(Role.CURATOR),
    /** Purge a DE from the trash for good. */
    PURGE(Role.ADMIN),
    /** API keys. */
    KEYS(Role.ADMIN),
    /** Rebuild the search index. */
    SEARCH_INDEX(Role.ADMIN),
    /** The curator's workspace (pages and its session). */
    CURATOR_WORKSPACE(Role.CURATOR),
    /** The admin console and admin pages. */
    ADMIN_CONSOLE(Role.ADMIN),
    /** Anything a face offers that is not listed: tool accounts and their secrets over SOAP, for one. */
    ADMINISTER(Role.ADMIN);

    private final Role role;
    private final List<String> soapNames;

    Operation(Role role, String... soapNames) {
        this.role = role;
        this.soapNames = List.of(soapNames);
    }

    /** The role the operation needs (a role includes the ones below it). */
    public Role role() {
        return role;
    }

    /** The operation a SOAP request names; one not listed is {@link #ADMINISTER}. */
    public static Operation soap(String name) {
        for (Operation o : values()) {
            if (o.soapNames.contains(name)) {
                return o;
            }
        }
        return ADMINISTER;
    }

    /** True if {@code caller} may call this operation. */
    public boolean allows(Caller caller) {
        return caller != null && caller.role().includes(role);
    }
}
