package dev.idiom.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

class DurabilitySettingsTest {
    @Test
    void settingsThatCouldLoseAcknowledgedWritesAreNamedAndDurableOnesAreNot() throws Exception {
        try (Database db = TestDatabase.fresh()) {
            assertEquals(List.of(), db.durabilityRisks(), "the embedded server flushes at every commit");
            try (Connection c = db.connection(); Statement s = c.createStatement()) {
                s.execute("SET GLOBAL innodb_flush_log_at_trx_commit = 2");
                try {
                    List<String> risks = db.durabilityRisks();
                    assertEquals(1, risks.size(), risks.toString());
                    assertTrue(risks.getFirst().contains("innodb_flush_log_at_trx_commit is 2"), risks.getFirst());
                } finally {
                    s.execute("SET GLOBAL innodb_flush_log_at_trx_commit = 1");
                }
            }
        }
    }
}
