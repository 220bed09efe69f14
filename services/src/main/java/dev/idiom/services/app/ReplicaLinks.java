package dev.idiom.services.app;

import dev.idiom.consistency.Upload;
import dev.idiom.events.Replica;
import dev.idiom.services.tools.Tools;
import dev.idiom.consistency.report.UnknownToolAccountException;
import dev.idiom.wrappers.AnnotationTool;
import java.util.UUID;

/** Upload = create the record in a tool from a DE, forming a replica, recorded as an event (the engine's {@link Upload}). */
public final class ReplicaLinks {
    private final Upload upload;
    private final Tools tools;

    public ReplicaLinks(Upload upload, Tools tools) {
        this.upload = upload;
        this.tools = tools;
    }

    /** Upload to the configured tool account {@code toolName}. */
    public Replica upload(UUID id, String toolName) {
        AnnotationTool tool;
        try {
            tool = tools.open(toolName);
        } catch (UnknownToolAccountException e) {
            // the body names it, not the address: the entity is there, the account is not (yet)
            throw new ConflictException(e.getMessage());
        }
        return upload.upload(id, tool);
    }
}
