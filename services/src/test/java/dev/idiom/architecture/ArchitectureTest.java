package dev.idiom.architecture;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link ArchitectureRules} hold for Idiom's main code, and each one fails, naming
 * itself, on a planted violation (test classes that are never part of the real scan).
 */
class ArchitectureTest {
    private static JavaClasses main;

    @BeforeAll
    static void importMainCode() {
        // main classes of every module: not test classes, and not the db module's test jar
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar")).importPackages("dev.idiom");
        assertTrue(main.size() > 100, "the scan found Idiom's classes: " + main.size());
    }

    private static List<ArchRule> all() {
        List<ArchRule> rules = new ArrayList<>();
        rules.add(ArchitectureRules.MODULE_ORDER);
        rules.addAll(ArchitectureRules.vendorRules());
        rules.addAll(ArchitectureRules.siblingRules());
        rules.add(ArchitectureRules.PROTOCOLS_THROUGH_APPLICATION);
        rules.add(ArchitectureRules.SERVICES_DECIDE_NO_SYNC);
        rules.add(ArchitectureRules.SERVICES_IMPLEMENT_NO_LOWER_PORT);
        rules.add(ArchitectureRules.TIME_FROM_ONE_SOURCE);
        rules.add(ArchitectureRules.SERVICES_PACKAGES_FREE_OF_CYCLES);
        return rules;
    }

    @Test
    void theMainCodeKeepsEveryRule() {
        List<String> broken = new ArrayList<>();
        for (ArchRule rule : all()) {
            try {
                rule.check(main);
            } catch (AssertionError e) {
                broken.add(e.getMessage());
            }
        }
        assertTrue(broken.isEmpty(), () -> String.join("\n\n", broken));
    }

    private static JavaClasses planted(String... names) {
        return new ClassFileImporter().importClasses(java.util.Arrays.stream(names).map(ArchitectureTest::load).toArray(Class<?>[]::new));
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    private static void failsNamingItself(ArchRule rule, JavaClasses classes, String expectedText) {
        AssertionError e = assertThrows(AssertionError.class, () -> rule.check(classes), () -> "did not fail: " + rule.getDescription());
        assertTrue(e.getMessage().contains(rule.getDescription()), () -> "the failure names the rule: " + e.getMessage());
        assertTrue(e.getMessage().contains(expectedText), () -> "the failure names the violation: " + e.getMessage());
    }

    @Test
    void anUpwardImportFailsTheModuleOrder() {
        failsNamingItself(ArchitectureRules.MODULE_ORDER, planted("dev.idiom.events.PlantedViolations", "dev.idiom.services.app.Application"), "dev.idiom.services.app.Application");
    }

    @Test
    void eachVendorLibraryOutsideItsAdapterPackageFails() {
        JavaClasses classes = planted("dev.idiom.events.PlantedViolations");
        for (ArchRule rule : ArchitectureRules.vendorRules()) {
            failsNamingItself(rule, classes, "PlantedViolations");
        }
    }

    @Test
    void eachSiblingAdapterImportingAnotherFails() {
        List<ArchRule> rules = ArchitectureRules.siblingRules();
        for (ArchRule rule : rules) {
            String adapter = rule.getDescription().replaceAll(".*: (\\S+) imports.*", "$1");
            String planted = adapter.equals("dev.idiom.services.rest") ? adapter + ".PlantedStoreAccess" : adapter + ".PlantedSiblingImport";
            failsNamingItself(rule, planted(planted), adapter);
        }
        assertTrue(rules.size() >= 10, "a rule per adapter: " + rules.size());
    }

    @Test
    void aProtocolAdapterReachingTheStoreFails() {
        failsNamingItself(ArchitectureRules.PROTOCOLS_THROUGH_APPLICATION, planted("dev.idiom.services.rest.PlantedStoreAccess"), "EventStore");
    }

    @Test
    void aMergeARetryOrAReplicaEventUnderServicesFails() {
        JavaClasses planted = planted("dev.idiom.services.app.PlantedSyncDecision");
        failsNamingItself(ArchitectureRules.SERVICES_DECIDE_NO_SYNC, planted, "ReplicaMerge");
        failsNamingItself(ArchitectureRules.SERVICES_DECIDE_NO_SYNC, planted, "ReplicaUnlinked");
        failsNamingItself(ArchitectureRules.SERVICES_DECIDE_NO_SYNC, planted, "StaleVersionException");
    }

    @Test
    void aServicesClassImplementingAnEnginePortFails() {
        failsNamingItself(ArchitectureRules.SERVICES_IMPLEMENT_NO_LOWER_PORT, planted("dev.idiom.services.tools.PlantedEnginePort"), "ToolDirectory");
    }

    @Test
    void twoFacesCallingEachOtherFail() {
        failsNamingItself(ArchitectureRules.SERVICES_PACKAGES_FREE_OF_CYCLES,
                planted("dev.idiom.services.rest.PlantedFaceCall", "dev.idiom.services.web.PlantedFaceCallBack"), "PlantedFaceCallBack");
    }

    @Test
    void readingTheMachinesTimeOutsideTheTimeSourceFails() {
        JavaClasses planted = planted("dev.idiom.consistency.PlantedSystemTime");
        failsNamingItself(ArchitectureRules.TIME_FROM_ONE_SOURCE, planted, "System.nanoTime");
        failsNamingItself(ArchitectureRules.TIME_FROM_ONE_SOURCE, planted, "Thread.sleep");
        failsNamingItself(ArchitectureRules.TIME_FROM_ONE_SOURCE, planted, "Instant.now");
    }
}
