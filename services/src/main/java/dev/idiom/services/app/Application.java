package dev.idiom.services.app;

import dev.idiom.cache.ChangeFeedInvalidation;
import dev.idiom.cache.EntityCache;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.services.tools.Tools;

/**
 * The application layer as the endpoints see it: the use cases plus what the admin pages report.
 * Built in one place ({@code dev.idiom.services.Idiom}) and passed to both endpoints.
 */
public record Application(EntityReads reads, EntityWrites writes, ImportRecords imports, ReplicaLinks replicas, Tools tools, OperatorAccess operators,
                          EventStore store, EntityCache cache, ChangeFeedInvalidation feed, EventCodec codec) {}
