package dev.idiom.services.citations;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import de.undercouch.citeproc.CSL;
import de.undercouch.citeproc.ListItemDataProvider;
import de.undercouch.citeproc.csl.CSLItemData;
import dev.idiom.events.CslJson;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.InvalidValueException;
import dev.idiom.wrappers.bibtex.BibTeXFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * DEs as citations: CSL-JSON (one item, or an array for several), BibTeX entries, RIS references,
 * or a bibliography formatted by a CSL style the CSL project ships (apa by default; any of the
 * styles in {@code org.citationstyles:styles}, in a locale of {@code org.citationstyles:locales}).
 */
public final class Citations {
    /** The style when a request names none, as DOI content negotiation's default. */
    public static final String DEFAULT_STYLE = "apa";
    public static final String DEFAULT_LOCALE = "en-US";
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,99}(/[a-z0-9][a-z0-9-]{0,99})?");
    private static final Pattern LOCALE = Pattern.compile("[a-z]{2,3}(-[A-Z]{2})?");
    private final ObjectMapper json = new ObjectMapper();

    /**
     * The citation of {@code des} in {@code format}; {@code single}: the answer for one DE (a
     * CSL-JSON object rather than an array).
     *
     * @param style a CSL style name (bibliography only; null: apa)
     * @param locale a CSL locale such as en-US or de-DE (bibliography only; null: en-US)
     * @throws InvalidValueException an unknown style or locale
     */
    public String render(CitationFormat format, List<DigitalEntity> des, boolean single, String style, String locale) {
        return switch (format) {
            case CSL_JSON -> {
                if (single && des.size() == 1) {
                    yield CslJson.item(des.getFirst().id(), des.getFirst().metadata()).toString();
                }
                ArrayNode items = json.createArrayNode();
                des.forEach(de -> items.add(CslJson.item(de.id(), de.metadata())));
                yield items.toString();
            }
            case BIBTEX -> String.join("\n", des.stream().map(de -> BibTeXFile.entry(de.metadata())).toList());
            case RIS -> String.join("\r\n", des.stream().map(de -> Ris.reference(de.metadata())).toList());
            case BIBLIOGRAPHY -> bibliography(des, style, locale);
        };
    }

    private String bibliography(List<DigitalEntity> des, String style, String locale) {
        String s = style == null || style.isBlank() ? DEFAULT_STYLE : style.strip();
        String l = locale == null || locale.isBlank() ? DEFAULT_LOCALE : locale.strip();
        if (!NAME.matcher(s).matches() || !CSL.supportsStyle(s)) {
            throw new InvalidValueException("style '" + s + "' is not a CSL style Idiom ships (e.g. apa, ieee, chicago-author-date, "
                    + "modern-language-association, harvard-cite-them-right, vancouver, nature)");
        }
        if (!LOCALE.matcher(l).matches()) {
            throw new InvalidValueException("locale must be a language tag such as en-US or de-DE, got '" + l + "'");
        }
        if (des.isEmpty()) {
            return "";
        }
        CSLItemData[] items = des.stream().map(this::cslItem).toArray(CSLItemData[]::new);
        try {
            CSL csl = new CSL(new ListItemDataProvider(items), s, l);
            csl.setOutputFormat("text");
            csl.registerCitationItems(des.stream().map(de -> de.id().toString()).toList());
            return csl.makeBibliography().makeString();
        } catch (IOException e) {
            throw new UncheckedIOException("style " + s + " in " + l + " could not be loaded", e);
        } catch (IllegalArgumentException e) {
            // the processor's own message names its classes: the caller gets what to send instead
            throw new InvalidValueException("locale '" + l + "' is not a CSL locale Idiom ships (e.g. en-US, en-GB, de-DE, fr-FR, es-ES, pt-BR, zh-CN)");
        }
    }

    @SuppressWarnings("unchecked")
    private CSLItemData cslItem(DigitalEntity de) {
        ObjectNode item = CslJson.item(de.id(), de.metadata());
        return CSLItemData.fromJson(json.convertValue(item, Map.class));
    }
}
