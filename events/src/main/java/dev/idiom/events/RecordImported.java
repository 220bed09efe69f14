package dev.idiom.events;

/**
 * Major event: a record was imported from a tool, or created directly ({@code tool} "idiom").
 *
 * @param metadata the record's full canonical metadata
 * @param tool the annotation tool it came from
 * @param remoteId its id in that tool (the new DE's id when created directly)
 */
public record RecordImported(Metadata metadata, String tool, String remoteId) implements EntityEvent {}
