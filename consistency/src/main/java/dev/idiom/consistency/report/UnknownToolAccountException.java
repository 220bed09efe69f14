package dev.idiom.consistency.report;

/** No tool account has that name. */
public final class UnknownToolAccountException extends RuntimeException {
    public UnknownToolAccountException(String name) {
        super("no tool account named '" + name + "'; configure it with PUT /api/tools/" + name);
    }
}
