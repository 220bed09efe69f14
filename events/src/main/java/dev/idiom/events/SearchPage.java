package dev.idiom.events;

import java.util.List;
import java.util.Map;

/**
 * One page of search results, best match first.
 *
 * @param total how many DEs match the whole query
 * @param estimated whether the total and the facet counts are estimated from a random sample of the matches
 *     (a query matching very many DEs; the page itself is always exact)
 * @param facets for each of tag, year, type and venue, the most frequent values among all matches
 * @param nextCursor null on the last page
 */
public record SearchPage(List<DigitalEntity> entities, long total, boolean estimated, Map<String, List<FacetCount>> facets, String nextCursor) {
    /** The facets every answer carries, in this order. */
    public static final List<String> FACETS = List.of("tag", "year", "type", "venue");

    public SearchPage {
        entities = List.copyOf(entities);
        facets = Map.copyOf(facets);
    }

    /** One value of a facet and how many matches have it. */
    public record FacetCount(String value, long count) {}
}
