package dev.idiom.services.tools;

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
 */
public final class SecretBox {
    public static final String ENV = "IDIOM_SECRET_KEY";
    /** The key {@code ./idiom rotate-secret-key} re-seals to. */
    public static final String ENV_NEW = "IDIOM_NEW_SECRET_KEY";
    private static final int IV_BYTES = 12;

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

    public String seal(String secret) {
        if (key == null) {
            throw new InvalidValueException("cannot store a tool secret: set " + ENV + " (openssl rand -base64 32) and restart Idiom");
        }
        try {
            byte[] iv = new byte[IV_BYTES];
            random.nextBytes(iv);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
            byte[] sealed = c.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(ByteBuffer.allocate(iv.length + sealed.length).put(iv).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    }

    /** Whether {@code sealed} was sealed under this key. */
    public boolean opens(String sealed) {
        try {
            open(sealed);
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

    public String open(String sealed) {
        if (key == null) {
            throw new IllegalStateException("a stored tool secret cannot be opened: " + ENV + " is not set");
        }
        try {
            byte[] all = Base64.getDecoder().decode(sealed);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, all, 0, IV_BYTES));
            return new String(c.doFinal(all, IV_BYTES, all.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("a stored tool secret does not open with this " + ENV + " (was the key changed?)");
        }
    }
}
