package dev.idiom.services.rest;

import dev.idiom.events.DigitalEntity;
import dev.idiom.services.app.EntityReads;
import dev.idiom.services.citations.CitationFormat;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Which citation format a request's {@code Accept} asks for, as DOI content negotiation reads it:
 * the most preferred acceptable type decides (JSON, or any type, keeps the DE's own JSON), and
 * {@code text/x-bibliography} takes {@code style} and {@code locale} parameters.
 */
record CitationNegotiation(CitationFormat format, String style, String locale) {
    static final String CSL_JSON = "application/vnd.citationstyles.csl+json";
    static final String BIBTEX = "application/x-bibtex";
    static final String RIS = "application/x-research-info-systems";
    static final String BIBLIOGRAPHY = "text/x-bibliography";

    /** The citation asked for, or empty when the client prefers JSON (or accepts anything). */
    static Optional<CitationNegotiation> chosen(HttpHeaders headers) {
        for (MediaType m : headers.getAcceptableMediaTypes()) { // most preferred first
            if (m.isCompatible(MediaType.APPLICATION_JSON_TYPE)) { // application/json, application/*, */*
                return Optional.empty();
            }
            Optional<CitationFormat> f = CitationFormat.ofMediaType(m.getType() + "/" + m.getSubtype());
            if (f.isPresent()) {
                return Optional.of(new CitationNegotiation(f.get(), m.getParameters().get("style"), m.getParameters().get("locale")));
            }
        }
        return Optional.empty();
    }

    Response answer(EntityReads reads, List<DigitalEntity> shown, boolean single, dev.idiom.services.app.Caller caller) {
        String body = reads.cite(shown, single, format, style, locale, caller);
        String type = format.mediaType() + (format == CitationFormat.CSL_JSON ? "" : "; charset=utf-8");
        return Response.ok(body.getBytes(StandardCharsets.UTF_8), type).header("Vary", "Accept").build();
    }
}
