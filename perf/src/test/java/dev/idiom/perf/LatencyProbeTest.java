package dev.idiom.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The probe follows the DE's version from each answer, or updateDE would measure 412s. */
class LatencyProbeTest {

    @Test
    void theVersionIsReadFromSoapAnswersWhateverTheirPrefix() {
        String soap = "<soapenv:Envelope><soapenv:Body><de:updateDEResponse><de:entity><de:id>x</de:id><de:version>17</de:version>"
                + "</de:entity></de:updateDEResponse></soapenv:Body></soapenv:Envelope>";
        assertEquals("17", LatencyProbe.first(LatencyProbe.VERSION_XML, soap));
        assertEquals("3", LatencyProbe.first(LatencyProbe.VERSION_XML, "<entity><version>3</version></entity>"));
    }

    @Test
    void theVersionIsReadFromRestAnswersAndAnUnexpectedAnswerStopsTheRun() {
        assertEquals("9", LatencyProbe.first(LatencyProbe.VERSION_JSON, "{\"id\":\"a\",\"version\":9,\"metadata\":{}}"));
        assertThrows(IllegalStateException.class, () -> LatencyProbe.first(LatencyProbe.VERSION_JSON, "{\"code\":\"StaleVersion\"}"));
    }
}
