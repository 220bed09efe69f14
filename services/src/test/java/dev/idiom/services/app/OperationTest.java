package dev.idiom.services.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The one table of who may call what. */
class OperationTest {
    @Test
    void aSoapOperationTheTableDoesNotNameNeedsAnAdmin() {
        assertEquals(Role.ADMIN, Operation.soap("setToolAccount").role());
        assertEquals(Role.ADMIN, Operation.soap("").role());
        assertEquals(Role.READER, Operation.soap("moreInfo").role());
        assertEquals(Role.CURATOR, Operation.soap("updateDE").role());
    }

    @Test
    void aRoleMayCallWhatItsTableRowAndTheRolesBelowItAllow() {
        Caller curator = new Caller("c", Role.CURATOR);
        assertTrue(Operation.READ_ENTITIES.allows(curator));
        assertTrue(Operation.SYNC_TOOLS.allows(curator));
        assertFalse(Operation.PURGE.allows(curator));
        assertFalse(Operation.ADMIN_CONSOLE.allows(null));
    }
}
