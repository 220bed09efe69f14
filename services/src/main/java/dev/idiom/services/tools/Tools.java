package dev.idiom.services.tools;

import dev.idiom.consistency.ConfiguredTools;
import dev.idiom.events.InvalidValueException;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.registry.ToolRegistry;
import java.nio.file.Path;

/**
 * The application's side of the tool accounts: saving one with a check that it answers, a search's
 * tool filter, a local file opened for an import or export. The adapters themselves are the
 * engine's ({@link ConfiguredTools}: opened once per account); this class only asks it for one.
 */
public final class Tools {
    private final ToolAccounts accounts;
    private final ConfiguredTools opened;

    public Tools(ToolAccounts accounts, ConfiguredTools opened) {
        this.accounts = accounts;
        this.opened = opened;
    }

    public ToolAccounts accounts() {
        return accounts;
    }

    /**
     * A search's {@code tool} filter as the index reads it: a tool kind as given ({@code zotero}), or
     * the name of a configured account turned into that account's copies ({@code kind/account});
     * anything else as given, which then matches nothing.
     */
    public String filter(String tool) {
        if (tool == null || ToolRegistry.KINDS.contains(tool) || !ToolAccounts.validName(tool) || accounts.stored(tool).isEmpty()) {
            return tool;
        }
        AnnotationTool t = open(tool);
        return dev.idiom.events.SearchQuery.toolAccount(t.kind(), t.account());
    }

    /** The adapter of the account called {@code name}. */
    public AnnotationTool open(String name) {
        return opened.open(name);
    }

    /**
     * Saves an account ({@code put}) and checks it: a file account's file exists (with {@code create},
     * an empty one is made now), an API account's tool answers to its key (one cheap read). When the
     * check fails the account is as it was before (or absent) and the answer says why; {@code check}
     * false saves without asking the tool or the file.
     */
    public ToolAccount saveChecked(String name, boolean create, boolean check, java.util.function.Supplier<ToolAccount> put) {
        // a name the account table cannot hold is refused by put, before any lookup of it
        java.util.Optional<dev.idiom.events.accounts.StoredToolAccount> before = ToolAccounts.validName(name) ? accounts.stored(name) : java.util.Optional.empty();
        ToolAccount saved = put.get();
        try {
            if (ToolRegistry.isFile(saved.kind())) {
                Path file = accounts.files().resolve(saved.baseUrl());
                if (!java.nio.file.Files.exists(file)) {
                    if (create) {
                        java.nio.file.Files.createDirectories(file.getParent());
                        java.nio.file.Files.createFile(file);
                    } else if (check) { // a request the files-dir as it stands does not allow: 409, like any state that refuses it
                        throw new dev.idiom.consistency.report.SyncRefusedException("the file " + file + " does not exist: say \"create\": true to have Idiom"
                                + " make it, or check the path (?check=false saves anyway)");
                    }
                }
            }
            if (check) {
                open(name).verify();
            }
            return saved;
        } catch (java.io.IOException e) {
            accounts.putBack(name, before);
            throw new InvalidValueException("the file for account '" + name + "' could not be made: " + e.getMessage());
        } catch (dev.idiom.wrappers.ToolAuthException refused) { // the tool's own refusal: 502 ToolAuth, as any call it refuses
            accounts.putBack(name, before);
            throw new dev.idiom.wrappers.ToolAuthException("the account was not saved: " + refused.getMessage() + " (?check=false saves it anyway)");
        } catch (ToolException failed) { // the tool did not answer as it should: 502 ToolFailed
            accounts.putBack(name, before);
            throw new ToolException("the account was not saved: " + failed.getMessage() + " (?check=false saves it anyway)", failed);
        } catch (RuntimeException failed) {
            accounts.putBack(name, before);
            throw failed;
        }
    }

    /**
     * Asks the account's tool whether it answers to the stored key (one cheap read; for a file, that
     * it can be read): nothing if it does, the tool's refusal ({@code ToolAuthException}) or failure
     * ({@code ToolException}) in its words otherwise.
     */
    public void checkConnection(String name) {
        open(name).verify();
    }

    /** A local file: bibtex (.bib) or bookmarks (Netscape HTML). */
    public AnnotationTool file(String kind, Path file) {
        return opened.registry().file(kind, file);
    }
}
