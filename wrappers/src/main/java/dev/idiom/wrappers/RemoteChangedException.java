package dev.idiom.wrappers;

/** The record changed in the tool since the version we knew (Zotero's 412): pull, merge, then push. */
public class RemoteChangedException extends ToolException {
    public RemoteChangedException(String message) {
        super(message);
    }
}
