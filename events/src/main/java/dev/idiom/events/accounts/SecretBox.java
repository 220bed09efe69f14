package dev.idiom.events.accounts;

import dev.idiom.events.InvalidValueException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals tool credentials with AES-GCM under the key in {@code IDIOM_SECRET_KEY} (base64 of 16, 24
 * or 32 random bytes, e.g. {@code openssl rand -base64 32}). Without a key no secret is stored.
 * Each secret is bound to its account (name, kind, base URL, library) as GCM's associated data, so a
 * secret does not open for an account whose address someone changed in the database: it cannot be
 * sent anywhere but where it was configured for. Secrets sealed before the binding ({@link #bound}
 * false) still open, and are re-sealed bound at start-up.
 */
public final class SecretBox {
    public static final String ENV = "IDIOM_SECRET_KEY";
    /** The key {@code ./idiom rotate-secret-key} re-seals to. */
    public static final String ENV_NEW = "IDIOM_NEW_SECRET_KEY";
    private static final int IV_BYTES = 12;
    /** Marks a secret sealed with its account as associated data. */
    private static final String BOUND = "v2:";

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    private SecretBox(SecretKeySpec key) {
        this.key = key;
    }

    /** From the environment value; null or blank gives a box that refuses to seal. */
    public static SecretBox fromKey(String base64) {
        if (base64 == null || base64.isBlank()) {
            return new SecretBox(null);
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ENV + " is not base64; make one with: openssl rand -base64 32");
        }
        if (raw.length != 16 && raw.length != 24 && raw.length != 32) {
            throw new IllegalArgumentException(ENV + " must decode to 16, 24 or 32 bytes, got " + raw.length);
        }
        return new SecretBox(new SecretKeySpec(raw, "AES"));
    }

    public boolean ready() {
        return key != null;
    }

    /** @param account what the secret is bound to ({@link ToolAccounts#binding}) */
    public String seal(String secret, String account) {
        if (key == null) {
            throw new InvalidValueException("cannot store a tool secret: set " + ENV + " (openssl rand -base64 32) and restart Idiom");
        }
        try {
            byte[] iv = new byte[IV_BYTES];
            random.nextBytes(iv);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
            c.updateAAD(account.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = c.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return BOUND + Base64.getEncoder().encodeToString(ByteBuffer.allocate(iv.length + sealed.length).put(iv).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    }

    /** Whether {@code sealed} was sealed under this key, for this account. */
    public boolean opens(String sealed, String account) {
        try {
            open(sealed, account);
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** A new random 256-bit key, as the environment variable takes it. */
    public static String newKey() {
        byte[] raw = new byte[32];
        new SecureRandom().nextBytes(raw);
        return Base64.getEncoder().encodeToString(raw);
    }

    /** Whether {@code sealed} is bound to its account (sealed since the binding). */
    public static boolean bound(String sealed) {
        return sealed.startsWith(BOUND);
    }

    public String open(String sealed, String account) {
        if (key == null) {
            throw new IllegalStateException("a stored tool secret cannot be opened: " + ENV + " is not set");
        }
        try {
            boolean bound = bound(sealed);
            byte[] all = Base64.getDecoder().decode(bound ? sealed.substring(BOUND.length()) : sealed);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, all, 0, IV_BYTES));
            if (bound) {
                c.updateAAD(account.getBytes(StandardCharsets.UTF_8));
            }
            return new String(c.doFinal(all, IV_BYTES, all.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("a stored tool secret does not open with this " + ENV + " for this account (was the key changed, or "
                    + "the account's address changed outside Idiom?)");
        }
    }
}
