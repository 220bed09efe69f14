package dev.idiom.services.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class SaturationPointTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String point(String operation) throws Exception {
        return SaturationReports.point(JSON.readTree(operation));
    }

    @Test
    void theReportsListShowsASaturationPointAsItsReportWritesIt() throws Exception {
        assertEquals("2,518", point("{\"saturation\":{\"msgPerSecond\":2518.0,\"reached\":true}}"));
        assertEquals("3,777+", point("{\"saturation\":{\"msgPerSecond\":3777.0,\"reached\":false}}"), "stopped before it saturated");
        assertEquals("< 2,066", point("{\"saturation\":{\"msgPerSecond\":0,\"reached\":true},\"open\":[{\"offered\":2066.0},{\"offered\":3000.0}]}"),
                "saturated at the first step: below it, not zero");
        assertNull(point("{\"saturation\":null}"));
    }
}
