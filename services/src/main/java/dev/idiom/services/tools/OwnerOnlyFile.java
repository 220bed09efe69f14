package dev.idiom.services.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** A secret kept in the data folder: written whole (a temporary file moved into place), readable by its owner only. */
public final class OwnerOnlyFile {
    private OwnerOnlyFile() {}

    /** Writes {@code text} and a line break to {@code file}, replacing it atomically, mode 0600. */
    public static void write(Path file, String text) {
        Path dir = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(tmp, text + "\n");
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file + ": " + e.getMessage(), e);
        }
    }
}
