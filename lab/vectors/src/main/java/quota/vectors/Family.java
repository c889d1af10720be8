package quota.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/** One vector family: its file name, the Kafka classes it runs, and the replay of one case. */
interface Family {
    /** The {@code family} value and file stem (rate, token_bucket, precedence, principal, validation). */
    String name();

    /** The Kafka 4.3.1 classes the replay runs, for the provenance object. */
    List<String> kafkaClasses();

    /** The Maven artifacts (group:artifact[:classifier]) whose classes the replay runs; see {@link Provenance}. */
    List<String> artifacts();

    /** Extra provenance fields (how the runs were set up, cross-checks); may be empty. */
    default void provenanceNotes(ObjectNode provenance) {
    }

    /**
     * Replays one case: takes its inputs (and only its inputs) from {@code input}, runs them through the
     * Kafka classes and returns the case with the same keys, in the same order, holding Kafka's outputs.
     */
    ObjectNode replay(JsonNode input) throws Exception;

    static JsonNode need(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null) throw new IllegalArgumentException("case field " + field + " missing in " + Json.compact(n));
        return v;
    }
}
