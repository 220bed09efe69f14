package dev.idiom.services.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.RecordedEvent;

/** One conflict as JSON, the same for the API and the admin console: where and when, the field, the base, both values, the winner and the policy. */
public final class ConflictJson {
    private ConflictJson() {}

    public static ObjectNode write(ObjectNode o, RecordedEvent e) {
        ConflictResolved c = (ConflictResolved) e.event();
        o.put("entityId", e.entityId().toString()).put("position", e.position()).put("version", e.version()).put("at", e.recordedAt().toString())
                .put("source", e.source()).put("field", c.field().jsonName());
        o.set("base", c.field().toJson(c.base()));
        o.set("idiomValue", c.field().toJson(c.idiomValue()));
        o.set("remoteValue", c.field().toJson(c.remoteValue()));
        o.set("winner", c.field().toJson(c.winner()));
        return o.put("policy", c.policy()).put("tool", c.tool()).put("account", c.account());
    }
}
