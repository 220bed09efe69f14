package dev.idiom.services.app;

import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;

/**
 * Who is calling: the name of the key presented and its role. Events record the name, so
 * provenance names the principal.
 */
public record Caller(String keyName, Role role, boolean privateRight) {
    public Caller(String keyName, Role role) {
        this(keyName, role, false);
    }

    /** Whether this key sees private records ({@code Visibility}): curators and admins do, readers only if made so. */
    public boolean seesPrivate() {
        return privateRight || role.includes(Role.CURATOR);
    }

    /** Where the endpoints keep the caller of a request (a servlet request attribute). */
    public static final String ATTRIBUTE = "dev.idiom.caller";
    /** The longest self-description (Idiom-Source) a client may give, as the OpenAPI document says. */
    public static final int MAX_SOURCE = 200;
    private static final java.util.regex.Pattern UNPRINTABLE = java.util.regex.Pattern.compile("[\\p{Cc}\\p{Cs}\\uFFFE\\uFFFF]");

    /**
     * The caller the key check left in a request's {@link #ATTRIBUTE}.
     *
     * @throws NotAuthorizedException there is none (the request did not pass the key check)
     */
    public static Caller of(Object attribute) {
        if (attribute instanceof Caller caller) {
            return caller;
        }
        throw new NotAuthorizedException("this needs an API key: send the HTTP header Authorization: Bearer <key>");
    }

    /** @throws ForbiddenException this key's role does not include {@code needed} */
    /** Refused unless this caller may call {@code operation} ({@link Operation}: the one table). */
    public void require(Operation operation) {
        require(operation.role());
    }

    public void require(Role needed) {
        if (!role.includes(needed)) {
            throw new ForbiddenException("the key '" + keyName + "' has role " + role.id() + "; this needs " + needed.id());
        }
    }

    /**
     * The source of the events this caller causes: the key's name, the protocol, and what the
     * client said of itself (optional, e.g. a portal's name).
     */
    public String source(String protocol, String given) {
        // what the client says of itself is kept printable: it ends up in history over SOAP too
        if (given != null && Field.longerThan(given, MAX_SOURCE)) {
            throw new InvalidValueException("Idiom-Source is at most " + MAX_SOURCE + " characters");
        }
        String said = given == null ? "" : UNPRINTABLE.matcher(given).replaceAll("").strip();
        String s = "key:" + keyName + " (" + protocol + (said.isEmpty() ? "" : ", " + said) + ")";
        return s.length() > 200 ? s.substring(0, 199) + ")" : s;
    }
}
