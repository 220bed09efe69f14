package dev.idiom.events;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.UUID;

/**
 * A DE's record as one CSL-JSON item (the citation style language's input, as DOI content
 * negotiation and Zotero give it): each field under the CSL variable {@link Field} names, names as
 * {@code {family, given}} (a name with no given part, an institution's, as {@code {literal}}: Zotero's
 * single-field creator, a braced BibTeX name), dates as {@code date-parts}, tags as {@code keyword}. Idiom's
 * {@code preprint} is CSL's {@code article}; an arXiv id with no other number is the
 * {@code number} {@code arXiv:…}, as Zotero writes a preprint's.
 */
public final class CslJson {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private CslJson() {}

    /** The CSL-JSON item of {@code m}, with {@code id} as its id. */
    public static ObjectNode item(UUID id, Metadata m) {
        ObjectNode item = JSON.objectNode().put("id", id.toString());
        item.put("type", m.type() == null ? "document" : "preprint".equals(m.type()) ? "article" : m.type());
        for (Field f : Field.values()) {
            Object v = m.get(f);
            if (v == null || f.cslName() == null || f == Field.TYPE) {
                continue;
            }
            switch (f.kind()) {
                case NAMES -> {
                    if (!((List<?>) v).isEmpty()) {
                        ArrayNode names = item.putArray(f.cslName());
                        for (Object o : (List<?>) v) {
                            Author a = (Author) o;
                            if (a.given().isEmpty()) {
                                names.addObject().put("literal", a.family());
                            } else {
                                names.addObject().put("family", a.family()).put("given", a.given());
                            }
                        }
                    }
                }
                case YEAR -> item.set("issued", dateParts(m.year(), m.month(), m.day()));
                case MONTH, DAY -> { } // parts of issued
                case DATE -> {
                    String[] parts = ((String) v).split("-");
                    item.set(f.cslName(), dateParts(Integer.valueOf(parts[0]), parts.length > 1 ? Integer.valueOf(parts[1]) : null,
                            parts.length > 2 ? Integer.valueOf(parts[2]) : null));
                }
                // a page range in CSL is "42-81" (the processor sets the dash); BibTeX's "42--81" would print two
                default -> item.put(f.cslName(), f == Field.PAGES ? v.toString().replaceAll("\\s*-{2,3}\\s*", "-") : v.toString());
            }
        }
        if (m.arxiv() != null && m.number() == null) {
            item.put("number", "arXiv:" + m.arxiv());
        }
        if (!m.tags().isEmpty()) {
            item.put("keyword", String.join(", ", m.tags()));
        }
        return item;
    }

    private static ObjectNode dateParts(Integer year, Integer month, Integer day) {
        ArrayNode parts = JSON.arrayNode().add(year);
        if (month != null) {
            parts.add(month);
            if (day != null) {
                parts.add(day);
            }
        }
        ObjectNode date = JSON.objectNode();
        date.putArray("date-parts").add(parts);
        return date;
    }
}
