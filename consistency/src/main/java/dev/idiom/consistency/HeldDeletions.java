package dev.idiom.consistency;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;

/**
 * Why an account is held, and the deletions a held pull kept back for a curator (none when it is
 * held for another reason, e.g. the tool now answers for another user). Stored in the account's
 * sync state as JSON.
 */
record HeldDeletions(String reason, List<String> deletions) {
    private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    HeldDeletions {
        deletions = deletions == null ? List.of() : List.copyOf(deletions);
    }

    String json() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a record of strings always serialises", e);
        }
    }

    /** The stored form read back; null for an account that is not held. */
    static HeldDeletions read(String json) {
        if (json == null) {
            return null;
        }
        try {
            return JSON.readValue(json, HeldDeletions.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the stored hold of a tool account is not readable: " + e.getOriginalMessage(), e);
        }
    }

    static String reasonOf(String json) {
        HeldDeletions h = read(json);
        return h == null ? null : h.reason();
    }
}
