package dev.idiom.services.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BrowserPasswordTest {

    @Test
    void aBrowsersPasswordIsURLSafeAndNeverReadAsACommandLineOption() {
        // one in 32 of the URL-safe Base64 passwords began with '-' or '_' ('-': rclone and litmus read an option): 4,096 draws
        // find such a one with a chance of 1 - (31/32)^4096, all but certain, were the rule gone
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 4096; i++) {
            String p = ToolAccounts.newBrowserPassword();
            assertTrue(p.matches("[A-Za-z0-9][A-Za-z0-9_-]{31}"), p);
            seen.add(p);
        }
        assertEquals(4096, seen.size(), "each one new");
    }
}
