package dev.idiom.wrappers.bookmarks;

import dev.idiom.wrappers.ToolException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** A bookmark file's text: read whole ("" when there is none yet), written whole to a temporary file and moved over it, so a reader sees the old text or the new. */
final class FileText {
    private FileText() {}

    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new ToolException("cannot read bookmark file " + file.getFileName() + ": " + e.getMessage(), e);
        }
    }

    static void write(Path file, CharSequence text) {
        try {
            Path tmp = file.resolveSibling("." + file.getFileName() + ".idiom-tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ToolException("cannot write bookmark file " + file.getFileName() + ": " + e.getMessage(), e);
        }
    }
}
