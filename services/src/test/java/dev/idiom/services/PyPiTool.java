package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A real Python client the tests run (Schemathesis, pyzotero), pinned from PyPI into a cached virtual environment of its own. */
final class PyPiTool {
    private PyPiTool() {
    }

    /** The virtual environment's folder, the package installed in it the first time. */
    static Path installed(String name, String version) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "src/test/fuzz/install-pypi.sh", name, version).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String path = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "installing " + name + " took over 10 minutes");
        assertEquals(0, p.exitValue(), "could not install " + name + " (see the messages above)");
        return Path.of(path);
    }
}
