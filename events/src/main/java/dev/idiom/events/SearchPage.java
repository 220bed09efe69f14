package dev.idiom.events;

import java.util.List;

/** One page of search results; {@code nextCursor} is null on the last page. */
public record SearchPage(List<DigitalEntity> entities, String nextCursor) {}
