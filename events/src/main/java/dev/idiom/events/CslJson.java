package dev.idiom.events;

import com.fasterxml.jackson.databind.JsonNode;
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
 * {@code number} {@code arXiv:…}, as Zotero writes a preprint's. From the Zotero extras part, what
 * Zotero's own export gives: {@code extra} as {@code note} (where the record has no notes) and the
 * creators of roles the record keeps no list of, each under its CSL name variable.
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
        zoteroCreators(item, m.extras(Field.ZOTERO_EXTRAS).get("creators"));
        String extra = m.extras(Field.ZOTERO_EXTRAS).get("extra");
        if (m.notes() == null && extra != null) {
            item.put("note", extra); // Zotero's extra is CSL's note, as Zotero exports it
        }
        if (m.arxiv() != null && m.number() == null) {
            item.put("number", "arXiv:" + m.arxiv());
        }
        if (!m.tags().isEmpty()) {
            item.put("keyword", String.join(", ", m.tags()));
        }
        return item;
    }

    /**
     * The creators of roles the record keeps no list of (its Zotero extras: a director, a contributor,
     * a series editor…), each under the CSL name variable Zotero exports the role as, after any names
     * the record's own lists put there.
     */
    private static void zoteroCreators(ObjectNode item, String creators) {
        if (creators == null) {
            return;
        }
        JsonNode list;
        try {
            list = READER.readTree(creators);
        } catch (java.io.IOException notJson) {
            return; // a value typed by hand that is no list of creators holds none
        }
        for (JsonNode c : list) {
            String variable = ROLES.path(c.path("creatorType").asText()).asText(null);
            if (variable == null) {
                continue;
            }
            ArrayNode names = item.has(variable) ? (ArrayNode) item.get(variable) : item.putArray(variable);
            if (c.has("name")) {
                names.addObject().put("literal", c.path("name").asText());
            } else if (c.path("firstName").asText("").isEmpty()) {
                names.addObject().put("literal", c.path("lastName").asText());
            } else {
                names.addObject().put("family", c.path("lastName").asText()).put("given", c.path("firstName").asText());
            }
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper READER = new com.fasterxml.jackson.databind.ObjectMapper();
    /** Each Zotero creator type's CSL name variable. */
    private static final JsonNode ROLES = ZoteroCslMapping.csl().path("names");

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
