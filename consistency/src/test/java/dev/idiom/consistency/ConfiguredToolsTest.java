package dev.idiom.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.consistency.report.UnknownToolAccountException;
import dev.idiom.events.accounts.SecretBox;
import dev.idiom.events.accounts.StoredToolAccount;
import dev.idiom.events.memory.InMemoryDatabase;
import dev.idiom.events.memory.InMemoryToolAccounts;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.FakeTime;
import dev.idiom.wrappers.http.CallBounds;
import dev.idiom.wrappers.http.ToolHosts;
import dev.idiom.wrappers.registry.FilesDir;
import dev.idiom.wrappers.registry.ToolRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configured accounts as the engine opens them: once per account, anew when it changes, one rule for a replica's account. */
class ConfiguredToolsTest {
    private final FakeTime time = new FakeTime();
    private final InMemoryToolAccounts repository = new InMemoryToolAccounts(new InMemoryDatabase());
    private final SecretBox secrets = SecretBox.fromKey(SecretBox.newKey());
    @TempDir
    Path files;
    private ConfiguredTools tools;

    @BeforeEach
    void openTools() {
        tools = new ConfiguredTools(repository, secrets,
                new ToolRegistry(time, time, ToolHosts.ANY, CallBounds.DEFAULTS, null, FilesDir.at(files)));
    }

    private void save(String name, String kind, String baseUrl, String account, String secret, String policy, Instant at) {
        String binding = StoredToolAccount.binding(name, kind, baseUrl, account);
        repository.save(new StoredToolAccount(name, kind, baseUrl, account, secret == null ? null : secrets.seal(secret, binding), "private",
                policy, at, false));
    }

    @Test
    void anAccountsAdapterIsOpenedOnceAndAnewWhenTheAccountChanges() {
        save("zot", "zotero", "http://127.0.0.1:9/", "users/1", "KEY1", "prefer-idiom", Instant.parse("2026-01-01T00:00:00Z"));
        AnnotationTool first = tools.open("zot");
        assertSame(first, tools.open("zot"), "kept between calls: no second decrypt and build per outbox row");
        assertSame(first, tools.open("zotero", "users/1").orElseThrow());

        save("zot", "zotero", "http://127.0.0.1:9/", "users/1", "KEY2", "prefer-idiom", Instant.parse("2026-01-02T00:00:00Z"));
        AnnotationTool renewed = tools.open("zot");
        assertNotSame(first, renewed, "a changed account (here its key) is opened anew");
        assertSame(renewed, tools.open("zot"));
    }

    @Test
    void aReplicasAccountIsTheAdaptersForPushesPullsAndPoliciesAlike() throws Exception {
        // a Pinboard account stored without a user name: its copies are named by the user its token is for
        save("pin", "pinboard", "http://127.0.0.1:9/v1/", "", "alice:ABCDEF", "prefer-remote", Instant.EPOCH);
        // a file account: its copies are named by the file's name, not the path it was configured with
        Files.writeString(files.resolve("library.bib"), "");
        save("file", "bibtex", "./library.bib", "", null, "prefer-remote", Instant.EPOCH);

        assertEquals("pin", tools.configured().stream().filter(a -> a.account().equals("alice")).findFirst().orElseThrow().name());
        assertEquals("pin", nameOf(tools.open("pinboard", "alice").orElseThrow()));
        assertTrue(tools.policy("pinboard", "alice").remoteWins("pinboard"), "the policy set on the account holds for its copies");
        assertTrue(tools.policy("bibtex", "library.bib").remoteWins("bibtex"));
        assertEquals("library.bib", tools.open("bibtex", "library.bib").orElseThrow().account());
        assertEquals(ConflictPolicy.PREFER_IDIOM, tools.policy("pinboard", "bob"), "no account holds bob's copies: the default");
    }

    private String nameOf(AnnotationTool t) {
        return tools.configured().stream().filter(a -> a.kind().equals(t.kind()) && a.account().equals(t.account())).findFirst().orElseThrow().name();
    }

    @Test
    void aNameNoAccountHasIsAnUnknownAccount() {
        assertThrows(UnknownToolAccountException.class, () -> tools.open("nobody"));
        assertThrows(UnknownToolAccountException.class, () -> tools.open("../etc"));
    }
}
