package dev.idiom.services.app;

import dev.idiom.events.EventCodec;
import java.time.Clock;
import dev.idiom.services.tools.Tools;

/**
 * The application layer as the endpoints see it: the use cases, and the codec that writes DEs as
 * JSON. Built in one place ({@code dev.idiom.services.Idiom}) and passed to both endpoints, the
 * admin pages and the command line; none of them sees the store, cache or change feed. The clock
 * is the one every expiry reads (sessions, remembered keys, throttles, health), so tests can move it.
 */
public record Application(EntityReads reads, EntityWrites writes, ImportRecords imports, ReplicaLinks replicas, Tools tools, ApiKeys keys,
                          Administration administration, EventCodec codec, ReplicaSync sync, Clock clock, EntityLifecycle lifecycle,
                          dev.idiom.services.app.zotero.ServedZotero zotero) {}
