package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Schemathesis (from PyPI) fuzzes a running Idiom from its own OpenAPI document, with all its
 * checks: every answer must be one the document declares, schema-valid requests accepted,
 * schema-violating ones refused, no 5xx but a tool's own failure (see src/test/fuzz/schemathesis.toml).
 * The seed is fixed so a failure reproduces; IDIOM_FUZZ_SEED=random (or a number) explores further.
 */
@Tag("slow") // the fuzzer runs for minutes: left out of ./mvnw -Pquick verify, run by ./mvnw verify
class SchemathesisTest {
    private static final String DEFAULT_SEED = "20261122";

    @Test
    void theOpenApiDocumentDescribesEveryAnswerTheServiceGives() throws Exception {
        String executable = install();
        Path log = Path.of("target", "schemathesis.log");
        try (RunningIdiom idiom = new RunningIdiom(Map.of())) {
            List<String> command = new ArrayList<>(List.of(executable, "--config-file", Path.of("src/test/fuzz/schemathesis.toml").toAbsolutePath().toString(),
                    "run", idiom.url("/api/openapi.json"), "--url", idiom.url("/api"), "-H", "Authorization: Bearer " + RunningIdiom.ADMIN_TOKEN,
                    // one worker: Hypothesis's caches are not thread-safe, and two worker threads made the fuzzer itself fail now and
                    // then with a KeyError in its lambda-source cache (a runtime error of the tool, not a finding); one is also what
                    // makes the fixed seed reproduce a run exactly
                    "--checks", "all", "--max-examples", "30", "--no-color", "--workers", "1",
                    // an account saved with its check asks the tool first: an address nobody answers at (a generated public IP)
                    // takes a connect failure on each of its three tries (12 s seen) before the 502: longer than the fuzzer's
                    // default wait and its response-time check's default limit (10 s each, the check on with --checks all)
                    "--request-timeout", "60", "--max-response-time", "60"));
            String seed = System.getenv().getOrDefault("IDIOM_FUZZ_SEED", DEFAULT_SEED);
            if (!seed.equals("random")) {
                command.addAll(List.of("--seed", seed));
            }
            Process run = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertTrue(run.waitFor(15, TimeUnit.MINUTES), "schemathesis did not finish in 15 minutes; see " + log.toAbsolutePath());
            String output = Files.readString(log, StandardCharsets.UTF_8);
            String summary = output.lines().filter(l -> l.matches(".*(failures?|passed|generated|Seed:).*")).reduce("", (a, b) -> a + "\n" + b);
            System.out.println("schemathesis:" + summary);
            assertEquals(0, run.exitValue(), "schemathesis found failures (full report: " + log.toAbsolutePath() + "):\n"
                    + output.substring(Math.max(0, output.indexOf("FAILURES"))));
        }
    }

    private static String install() throws IOException, InterruptedException {
        return PyPiTool.installed("schemathesis", "4.32.5").resolve("bin/schemathesis").toString();
    }
}
