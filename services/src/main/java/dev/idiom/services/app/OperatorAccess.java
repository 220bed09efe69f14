package dev.idiom.services.app;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who may configure tool accounts, import and upload: whoever presents the operator token
 * ({@code IDIOM_ADMIN_TOKEN}) as {@code Authorization: Bearer …}. Without a token configured these
 * operations are open, which is only sensible while Idiom listens on loopback (the default).
 */
public final class OperatorAccess {
    public static final String ENV = "IDIOM_ADMIN_TOKEN";
    private final byte[] token;

    public OperatorAccess(String token) {
        this.token = token == null || token.isBlank() ? null : token.strip().getBytes(StandardCharsets.UTF_8);
    }

    public boolean open() {
        return token == null;
    }

    /** @throws NotAuthorizedException the header is missing or names another token */
    public void require(String authorizationHeader) {
        if (token == null) {
            return;
        }
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new NotAuthorizedException("this operation needs the operator token: send Authorization: Bearer <IDIOM_ADMIN_TOKEN>");
        }
        byte[] given = authorizationHeader.substring(7).strip().getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(token, given)) {
            throw new NotAuthorizedException("the operator token is wrong");
        }
    }
}
