package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.TestDatabase;
import dev.idiom.events.mysql.MySqlToolAccounts;
import dev.idiom.services.tools.SecretBox;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tool secrets are re-sealed atomically under a new key, and a wrong key stops Idiom at start-up with a clear message. */
class SecretKeyRotationTest {
    private static final String OLD = SecretBox.newKey();
    private static final String NEW = SecretBox.newKey();

    @TempDir
    Path dir;
    private final String dbUrl = TestDatabase.freshUrl();

    private IdiomConfig config(String secretKey) {
        Map<String, String> env = new HashMap<>();
        if (secretKey != null) {
            env.put(SecretBox.ENV, secretKey);
        }
        return IdiomConfig.from(new HashMap<>(Map.of("db-url", dbUrl, "data", dir.toString(), "sync-interval-ms", "0")), env, k -> null);
    }

    private void storeTwoSecrets() {
        try (Idiom idiom = Idiom.start(config(OLD))) {
            idiom.application().tools().accounts().put("zot", "zotero", "https://api.zotero.org", "users/1", "zotero-api-key");
            idiom.application().tools().accounts().put("pin", "pinboard", "https://api.pinboard.in", "maria", "maria:TOKEN");
        }
    }

    @Test
    void aWrongOrMissingKeyIsRefusedAtStartUpNamingTheAccounts() {
        storeTwoSecrets();
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class, () -> Idiom.start(config(NEW)).close());
        assertTrue(wrong.getMessage().contains("does not open") && wrong.getMessage().contains("zot") && wrong.getMessage().contains("pin"),
                wrong.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> Idiom.start(config(null)).close());
        assertTrue(missing.getMessage().contains(SecretBox.ENV + " is not set"), missing.getMessage());
        Idiom.start(config(OLD)).close(); // the right key still starts
    }

    @Test
    void rotationResealsEverySecretSoOnlyTheNewKeyOpensThem() {
        storeTwoSecrets();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, IdiomMain.rotateSecretKey(config(OLD), NEW, new PrintStream(out, true, StandardCharsets.UTF_8)));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("resealed 2 tool secret(s)"), out.toString(StandardCharsets.UTF_8));
        assertThrows(IllegalArgumentException.class, () -> Idiom.start(config(OLD)).close());
        try (Idiom idiom = Idiom.start(config(NEW))) {
            SecretBox box = SecretBox.fromKey(NEW);
            var stored = new MySqlToolAccounts(idiom.database().dataSource()).find("zot").orElseThrow();
            assertEquals("zotero-api-key", box.open(stored.sealedSecret()));
        }
    }

    @Test
    void rotationWithoutANewKeyPrintsAGeneratedOneThatOpensTheSecrets() {
        storeTwoSecrets();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, IdiomMain.rotateSecretKey(config(OLD), null, new PrintStream(out, true, StandardCharsets.UTF_8)));
        String printed = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("export " + SecretBox.ENV + "=")).findFirst()
                .orElseThrow().substring(("export " + SecretBox.ENV + "=").length());
        assertNotEquals(OLD, printed);
        Idiom.start(config(printed)).close();
    }

    @Test
    void aSecretThatFailsToResealLeavesEveryStoredSecretAsItWas() {
        storeTwoSecrets();
        try (Idiom idiom = Idiom.start(config(OLD))) {
            MySqlToolAccounts repository = new MySqlToolAccounts(idiom.database().dataSource());
            String zotBefore = repository.find("zot").orElseThrow().sealedSecret();
            String pinBefore = repository.find("pin").orElseThrow().sealedSecret();
            AtomicInteger calls = new AtomicInteger();
            assertThrows(IllegalStateException.class, () -> repository.resealSecrets(sealed -> {
                if (calls.incrementAndGet() == 2) {
                    throw new IllegalStateException("the second does not open");
                }
                return "resealed:" + sealed;
            }, Instant.now()));
            assertEquals(2, calls.get());
            assertEquals(zotBefore, repository.find("zot").orElseThrow().sealedSecret());
            assertEquals(pinBefore, repository.find("pin").orElseThrow().sealedSecret());
        }
    }
}
