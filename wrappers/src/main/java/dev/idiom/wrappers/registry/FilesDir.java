package dev.idiom.wrappers.registry;

import dev.idiom.events.InvalidValueException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The one folder BibTeX and bookmark file accounts may read and write ({@code files-dir}): a
 * relative path resolves inside it; an absolute path elsewhere, a path that climbs out with
 * {@code ..}, or one that leaves it through a symbolic link is refused. Checked when an account is
 * configured and again each time its file is opened (a link may be planted later).
 *
 * @param root the folder, absolute and normalised
 */
public record FilesDir(Path root) {
    public FilesDir {
        root = root.toAbsolutePath().normalize();
    }

    /** The folder, created if missing. */
    public static FilesDir at(Path root) {
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create files-dir " + root + ": " + e.getMessage(), e);
        }
        return new FilesDir(root);
    }

    /** The file a file account names, inside this folder. @throws InvalidValueException it is not */
    public Path resolve(String given) {
        Path named;
        try {
            named = Path.of(given.strip());
        } catch (java.nio.file.InvalidPathException e) {
            throw new InvalidValueException("baseUrl is not a file path: " + e.getReason());
        }
        Path full = (named.isAbsolute() ? named : root.resolve(named)).normalize();
        if (!full.startsWith(root) || full.equals(root)) {
            throw new InvalidValueException("a file account's baseUrl must name a file inside files-dir (" + root + "); a relative path resolves "
                    + "there, got '" + given + "'");
        }
        // the deepest part that exists, as the file system resolves it, must still be inside (no link out)
        Path existing = full;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        try {
            Path realRoot = Files.exists(root) ? root.toRealPath() : root;
            if (existing != null && Files.exists(existing) && !existing.toRealPath().startsWith(realRoot)) {
                throw new InvalidValueException("'" + given + "' leads out of files-dir (" + root + ") through a symbolic link");
            }
            if (existing != null && Files.isSymbolicLink(existing) && !Files.exists(existing)) {
                throw new InvalidValueException("'" + given + "' is a dangling symbolic link");
            }
        } catch (IOException e) {
            throw new InvalidValueException("'" + given + "' cannot be checked: " + e.getMessage());
        }
        return full;
    }

    /**
     * The WebDAV folder of a browsers' account ({@code .dav/NAME} in this folder), created if missing.
     * An account's name is letters, digits, '.', '_' and '-' and never "." or "..".
     */
    public Path davFolder(String account) {
        if (account == null || !account.matches("[A-Za-z0-9._-]{1,64}") || account.matches("\\.{1,2}")) {
            throw new InvalidValueException("not an account name: '" + account + "'");
        }
        Path folder = root.resolve(".dav").resolve(account);
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the WebDAV folder " + folder + ": " + e.getMessage(), e);
        }
        return folder;
    }
}
