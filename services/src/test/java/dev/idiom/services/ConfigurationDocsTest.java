package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The configuration keys are defined once; the table in docs/operations.md and ./idiom help come from that definition. */
class ConfigurationDocsTest {

    @Test
    void theReadmeTableIsTheOneGeneratedFromTheKeys() throws Exception {
        String readme = Files.readString(Path.of("..", "docs", "operations.md"));
        int begin = readme.indexOf("-->", readme.indexOf("<!-- config-table")) + 4;
        int end = readme.indexOf("<!-- /config-table -->");
        assertTrue(begin > 3 && end > begin, "docs/operations.md has the config-table markers");
        assertEquals(IdiomConfig.markdownTable(), readme.substring(begin, end),
                "docs/operations.md's configuration table drifted from IdiomConfig.KEYS: replace it with the output of ./idiom help --markdown");
    }

    @Test
    void helpListsEveryKeyWithItsDefaultAndEnvironmentVariable() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        assertEquals(0, IdiomMain.run(List.of("help"), new PrintStream(buffer, true, StandardCharsets.UTF_8), System.err));
        String help = buffer.toString(StandardCharsets.UTF_8);
        for (IdiomConfig.Key k : IdiomConfig.KEYS) {
            assertTrue(help.contains("--" + k.name() + " ") && help.contains(k.environmentVariable()), () -> k.name() + " missing from help:\n" + help);
        }
    }

    @Test
    void eachKeyIsValidatedByItsKindWhereverItComesFrom() {
        IllegalArgumentException flag = assertThrows(IllegalArgumentException.class,
                () -> IdiomConfig.from(Map.of("port", "eighty"), Map.of(), k -> null));
        assertTrue(flag.getMessage().contains("port must be a whole number"), flag.getMessage());
        IllegalArgumentException env = assertThrows(IllegalArgumentException.class,
                () -> IdiomConfig.from(Map.of(), Map.of("IDIOM_CACHE_ENABLED", "maybe"), k -> null));
        assertTrue(env.getMessage().contains("cache.enabled must be true or false"), env.getMessage());
        assertThrows(IllegalArgumentException.class, () -> IdiomConfig.from(Map.of("no-such-key", "1"), Map.of(), k -> null));
        assertEquals(256, IdiomConfig.from(Map.of(), Map.of(), k -> null).groupCommit());
    }
}
