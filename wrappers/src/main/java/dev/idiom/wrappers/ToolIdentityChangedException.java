package dev.idiom.wrappers;

/**
 * The tool behind an account is not the one Idiom synced with before (a recreated library, a peer
 * on a new database): its records must not be taken as changes of the known ones. The account is
 * held and reported until a curator decides.
 */
public class ToolIdentityChangedException extends ToolException {
    public ToolIdentityChangedException(String message) {
        super(message);
    }
}
