package quota.vectors;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Kafka logs through SLF4J (slf4j-simple here). Some Kafka paths catch an exception and only log it
 * (ClientQuotaMetadataManager.handleUserClientQuotaChange logs "Failed to update user-client quota" and
 * carries on), so a run could silently skip an operation. The generator therefore routes Kafka's log to a
 * captured stderr at WARN level and fails the run on any entry written there, except the WARN entries
 * listed in {@link #EXPECTED} (Kafka behaviour that a case may legitimately trigger and whose effect is
 * visible in the outputs).
 */
final class Logs {
    private static final ByteArrayOutputStream CAPTURED = new ByteArrayOutputStream();
    private static PrintStream realErr;
    /**
     * WARN entries that are Kafka behaviour, not a failure: ConfigDef (4.x) removes duplicate values of a
     * LIST config that has a ValidList validator and warns ("contains duplicate values. Duplicates will be
     * removed"); the parsed list is a case output (principal.json {@code rules}).
     */
    private static final List<String> EXPECTED = List.of("WARN org.apache.kafka.common.config.ConfigDef - ");

    private Logs() {
    }

    /** Must run before any Kafka class (and so any SLF4J logger) is loaded. */
    static void install() {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "false");
        realErr = System.err;
        System.setErr(new PrintStream(CAPTURED, true, StandardCharsets.UTF_8));
    }

    static PrintStream err() {
        return realErr != null ? realErr : System.err;
    }

    /** Throws if Kafka logged anything at WARN or above since the last call. */
    static void failOnKafkaWarnings(String where) {
        synchronized (CAPTURED) {
            if (CAPTURED.size() == 0) return;
            String text = CAPTURED.toString(StandardCharsets.UTF_8);
            CAPTURED.reset();
            // slf4j-simple writes "[thread] LEVEL logger - message", continuation lines (stack traces) follow.
            List<String> entries = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (line.startsWith("[") || entries.isEmpty()) entries.add(line);
                else entries.set(entries.size() - 1, entries.get(entries.size() - 1) + "\n" + line);
            }
            List<String> unexpected = new ArrayList<>();
            for (String e : entries) {
                if (EXPECTED.stream().noneMatch(e::contains)) unexpected.add(e);
            }
            if (!unexpected.isEmpty()) {
                throw new IllegalStateException("Kafka logged a warning or error during " + where + ":\n" + String.join("\n", unexpected));
            }
        }
    }
}
