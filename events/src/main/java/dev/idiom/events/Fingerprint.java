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
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(Fingerprint::sha256);

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String of(String canonical) {
        return hex(SHA_256.get().digest(canonical.getBytes(StandardCharsets.UTF_8))); // digest() resets it for the next call
    }

    private static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest, 0, 16);
    }

    /** A fingerprint taken of a text given in parts (a file read as a stream): the same as {@link #of} of the parts joined. */
    public static final class Running {
        private final MessageDigest digest = sha256();

        /** The next part; a part must not end inside a surrogate pair. */
        public Running add(String part) {
            digest.update(part.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        public String finish() {
            return hex(digest.digest());
        }
    }
}
