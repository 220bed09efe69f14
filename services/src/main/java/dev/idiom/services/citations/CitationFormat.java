package dev.idiom.services.citations;

import java.util.Locale;
import java.util.Optional;

/** The formats a citation is given in, by the media type a client asks for (as DOI content negotiation names them). */
public enum CitationFormat {
    CSL_JSON("application/vnd.citationstyles.csl+json"),
    BIBTEX("application/x-bibtex"),
    RIS("application/x-research-info-systems"),
    BIBLIOGRAPHY("text/x-bibliography");

    private final String mediaType;

    CitationFormat(String mediaType) {
        this.mediaType = mediaType;
    }

    public String mediaType() {
        return mediaType;
    }

    /** The format of a media type (its parameters aside), if it is one. */
    public static Optional<CitationFormat> ofMediaType(String mediaType) {
        if (mediaType == null) {
            return Optional.empty();
        }
        String bare = mediaType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        for (CitationFormat f : values()) {
            if (f.mediaType.equals(bare)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /** The format SOAP's cite names: csl-json, bibtex, ris or bibliography (or a media type). */
    public static CitationFormat named(String name) {
        String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "csl-json", "csl", "csljson" -> CSL_JSON;
            case "bibtex" -> BIBTEX;
            case "ris" -> RIS;
            case "bibliography", "text" -> BIBLIOGRAPHY;
            default -> ofMediaType(n).orElseThrow(() -> new dev.idiom.events.InvalidValueException(
                    "format must be csl-json, bibtex, ris or bibliography (or one of their media types), got '" + name + "'"));
        };
    }
}
