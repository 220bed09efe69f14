package dev.idiom.consistency;

import dev.idiom.wrappers.AnnotationTool;
import java.util.List;
import java.util.Optional;

/** How the engine reaches the tools: the configured accounts, their adapters and their conflict policies (the application implements it). */
public interface ToolDirectory {
    /** The adapter of the configured account called {@code name}; throws if there is none. */
    AnnotationTool open(String name);

    /** The names of the configured accounts. */
    List<String> names();

    /** The adapter of the configured account holding this replica, or empty if no such account is configured. */
    Optional<AnnotationTool> open(String kind, String account);

    ConflictPolicy policy(String kind, String account);

    /** A configured account: its name, its kind and account as its replicas name them (the adapter's), its replication rule. */
    record Account(String name, String kind, String account, MirrorRule rule) {}

    /** Every configured account with its rule (default: none, each holding only what it brings in or is given). */
    default List<Account> configured() {
        return List.of();
    }
}
