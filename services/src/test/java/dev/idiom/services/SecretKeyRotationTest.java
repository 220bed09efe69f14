package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.TestDatabase;
import dev.idiom.events.accounts.mysql.MySqlToolAccounts;
import dev.idiom.events.accounts.SecretBox;
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
        // api.zotero.org need not resolve here: the test is about sealing, not about hosts
        return IdiomConfig.from(new HashMap<>(Map.of("db-url", dbUrl, "data", dir.toString(), "sync-interval-ms", "0", "local-tool-hosts", "true")), env,
                k -> null);
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
            assertEquals("zotero-api-key", box.open(stored.sealedSecret(), ZOT_BINDING));
        }
    }

    /** What the zot account's secret is bound to: its name, kind, address and library. */
    private static final String ZOT_BINDING = "zot\nzotero\nhttps://api.zotero.org\nusers/1";

    @Test
    void aSecretIsBoundToItsAccountSoAnAddressChangedInTheDatabaseGetsNothing() throws Exception {
        storeTwoSecrets();
        try (Idiom idiom = Idiom.start(config(OLD))) {
            // someone with the database, not the API, points the account at their own server
            try (var c = idiom.database().connection(); var s = c.createStatement()) {
                s.executeUpdate("UPDATE tool_account SET base_url = 'https://collector.example' WHERE name = 'zot'");
            }
        }
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Idiom.start(config(OLD)).close());
        assertTrue(refused.getMessage().contains("zot") && !refused.getMessage().contains("pin"), refused.getMessage());
    }

    @Test
    void secretsSealedBeforeTheBindingAreBoundAtTheNextStart() throws Exception {
        storeTwoSecrets();
        SecretBox box = SecretBox.fromKey(OLD);
        try (Idiom idiom = Idiom.start(config(OLD))) {
            // as an older release stored it: the secret sealed without its account
            String legacy = legacySeal(OLD, "zotero-api-key");
            try (var c = idiom.database().connection(); var s = c.prepareStatement("UPDATE tool_account SET secret = ? WHERE name = 'zot'")) {
                s.setString(1, legacy);
                s.executeUpdate();
            }
        }
        try (Idiom idiom = Idiom.start(config(OLD))) {
            String stored = new MySqlToolAccounts(idiom.database().dataSource()).find("zot").orElseThrow().sealedSecret();
            assertTrue(SecretBox.bound(stored), "re-sealed bound at start-up");
            assertEquals("zotero-api-key", box.open(stored, ZOT_BINDING));
        }
    }

    /** AES-GCM without associated data, IV first, as secrets were sealed before they were bound. */
    private static String legacySeal(String key, String secret) throws Exception {
        byte[] iv = new byte[12];
        new java.security.SecureRandom().nextBytes(iv);
        javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
        c.init(javax.crypto.Cipher.ENCRYPT_MODE, new javax.crypto.spec.SecretKeySpec(java.util.Base64.getDecoder().decode(key), "AES"),
                new javax.crypto.spec.GCMParameterSpec(128, iv));
        byte[] sealed = c.doFinal(secret.getBytes(StandardCharsets.UTF_8));
        return java.util.Base64.getEncoder().encodeToString(java.nio.ByteBuffer.allocate(12 + sealed.length).put(iv).put(sealed).array());
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
            assertThrows(IllegalStateException.class, () -> repository.resealSecrets(account -> {
                if (calls.incrementAndGet() == 2) {
                    throw new IllegalStateException("the second does not open");
                }
                return "resealed:" + account.sealedSecret();
            }, Instant.now()));
            assertEquals(2, calls.get());
            assertEquals(zotBefore, repository.find("zot").orElseThrow().sealedSecret());
            assertEquals(pinBefore, repository.find("pin").orElseThrow().sealedSecret());
        }
    }
}
