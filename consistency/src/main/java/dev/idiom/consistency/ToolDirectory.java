package dev.idiom.consistency;

import dev.idiom.wrappers.AnnotationTool;
import java.util.Optional;

/** How the engine reaches a replica's tool: the configured account of that kind and account, and its conflict policy. */
public interface ToolDirectory {
    /** The adapter of the configured account holding this replica, or empty if no such account is configured. */
    Optional<AnnotationTool> open(String kind, String account);

    ConflictPolicy policy(String kind, String account);
}
