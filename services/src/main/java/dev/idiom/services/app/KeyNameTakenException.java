package dev.idiom.services.app;

/** A key of that name exists (or existed: names of revoked keys are not reused). */
public final class KeyNameTakenException extends ConflictException {
    public KeyNameTakenException(String name) {
        super("a key named '" + name + "' exists already (names of revoked keys are not reused)");
    }
}
