package dev.idiom.wrappers;

/** The tool refused our credentials (401) or access (403): the sync stops here. */
public class ToolAuthException extends ToolException {
    public ToolAuthException(String message) {
        super(message);
    }
}
