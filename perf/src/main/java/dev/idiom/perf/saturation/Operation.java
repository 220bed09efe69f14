package dev.idiom.perf.saturation;

import java.util.Arrays;
import java.util.List;

/** The operations of perf/plans/saturation.jmx, by sampler name, and the rows each one reads. */
enum Operation {
    BARE_SERVLET("bare-servlet", "the container alone: a servlet that answers 204 (no Idiom code)", Rows.NONE, true),
    BARE_AXIS2_ECHO("bare-axis2-echo", "Axis2 alone: its raw-XML receiver echoing the body (no Idiom code)", Rows.NONE, true),
    SOAP_EMPTY("soap-empty", "Idiom's empty operation over SOAP: filters, key check, Axis2, Idiom's receiver", Rows.NONE, false),
    REST_EMPTY("rest-empty", "Idiom's empty operation over REST (GET /api/ping)", Rows.NONE, false),
    SOAP_MOREINFO_CACHE("soap-moreinfo-cache", "MoreInfo over SOAP, answered from the cache", Rows.IDS, false),
    SOAP_MOREINFO_DB("soap-moreinfo-db", "MoreInfo over SOAP, read from the database", Rows.IDS, false),
    REST_MOREINFO_CACHE("rest-moreinfo-cache", "MoreInfo over REST, answered from the cache", Rows.IDS, false),
    REST_MOREINFO_DB("rest-moreinfo-db", "MoreInfo over REST, read from the database", Rows.IDS, false),
    SOAP_UPDATE("soap-update", "UpdateDE over SOAP (~3.7 KB, durable commit), following versions", Rows.UPDATES, false),
    REST_UPDATE("rest-update", "UpdateDE over REST (merge patch with If-Match), following versions", Rows.UPDATES, false),
    REST_SEARCH("rest-search", "ranked search over REST, a page of 50 with facets", Rows.QUERIES, false),
    SOAP_DOWNLOAD("soap-download", "Download over SOAP: a record fetched from the tool (a local Zotero API stub) and imported as a new DE",
            Rows.DOWNLOADS, false),
    SOAP_UPLOAD("soap-upload", "Upload over SOAP: a DE created in the tool (a local Zotero API stub) and the replica recorded, durably",
            Rows.UPLOADS, false);

    /** What the plan's rows file holds for an operation. */
    enum Rows {
        NONE, IDS, UPDATES, QUERIES,
        /** Keys of records in the tool that Idiom has not seen: each request imports one (fresh ones per JMeter run). */
        DOWNLOADS,
        /** DEs with no replica in the tool yet: each request creates one (fresh ones per JMeter run). */
        UPLOADS;

        /** Whether each request uses up its row, so a run needs as many rows as it sends requests. */
        boolean usedUp() {
            return this == DOWNLOADS || this == UPLOADS;
        }
    }

    /** The baseline every operation is compared with, measured in the same run. */
    static final Operation BASELINE = SOAP_EMPTY;

    final String sampler;
    final String description;
    final Rows rows;
    final boolean bare;

    Operation(String sampler, String description, Rows rows, boolean bare) {
        this.sampler = sampler;
        this.description = description;
        this.rows = rows;
        this.bare = bare;
    }

    static Operation named(String name) {
        return Arrays.stream(values()).filter(o -> o.sampler.equals(name)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "unknown operation '" + name + "'; operations: " + names()));
    }

    static List<String> names() {
        return Arrays.stream(values()).map(o -> o.sampler).toList();
    }
}
