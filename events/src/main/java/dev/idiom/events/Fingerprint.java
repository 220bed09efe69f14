package dev.idiom.events;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** A short SHA-256 of a canonical text, for keys and versions that must fit an index. */
public final class Fingerprint {
    private Fingerprint() {}

    /**
     * One digest per thread: looking SHA-256 up among the providers on every call was half of this
     * method's time, and an import takes several fingerprints per record (its version, its keys).
     */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    public static String of(String canonical) {
        byte[] d = SHA_256.get().digest(canonical.getBytes(StandardCharsets.UTF_8)); // digest() resets it for the next call
        return HexFormat.of().formatHex(d, 0, 16);
    }
}
