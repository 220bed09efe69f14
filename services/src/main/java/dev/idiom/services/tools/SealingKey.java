package dev.idiom.services.tools;

import dev.idiom.events.accounts.SecretBox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the key that seals tool secrets comes from: {@code IDIOM_SECRET_KEY} when it is set; else
 * the data folder's {@code secret.key}; else, while no secret is stored yet, a new random key written
 * there owner-only (as {@code admin.key} is), so that a first tool account just works. Secrets
 * sealed under a variable that is no longer set are not given a new key: that start is refused.
 */
public final class SealingKey {
    /** The key's file in the data folder. */
    public static final String FILE = "secret.key";

    private SealingKey() {}

    /**
     * The base64 key to seal with, or null when there is none to use (the variable is unset, there is
     * no key file, and secrets are stored already).
     */
    public static String resolve(String fromEnvironment, Path dataDir, boolean secretsStored) {
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment;
        }
        Path file = dataDir.resolve(FILE);
        try {
            if (Files.exists(file)) {
                return Files.readString(file).strip();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file + ": " + e.getMessage(), e);
        }
        if (secretsStored) {
            return null;
        }
        String key = SecretBox.newKey();
        OwnerOnlyFile.write(file, key);
        return key;
    }

    /** True if the key in use is the data folder's (no variable set and the file exists). */
    public static boolean fromFile(String fromEnvironment, Path dataDir) {
        return (fromEnvironment == null || fromEnvironment.isBlank()) && Files.exists(dataDir.resolve(FILE));
    }

    /** After a rotation: the data folder's key becomes {@code key}. */
    public static void replace(Path dataDir, String key) {
        OwnerOnlyFile.write(dataDir.resolve(FILE), key);
    }
}
