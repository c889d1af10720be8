package quota.vectors;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.common.utils.AppInfoParser;

import java.nio.file.Path;
import java.security.CodeSource;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The provenance object of each generated file, and the check that the Kafka classes really are loaded
 * from the Maven Central 4.3.1 jars (not from anything else on the class path).
 */
final class Provenance {
    static final String KAFKA_VERSION = "4.3.1";

    /** artifact (as named by {@link Family#artifacts()}) -> [Maven coordinates, a class it must provide]. */
    private static final Map<String, String[]> ARTIFACTS = new LinkedHashMap<>();

    static {
        ARTIFACTS.put("kafka-clients", new String[] {"org.apache.kafka:kafka-clients:" + KAFKA_VERSION, "org.apache.kafka.common.metrics.Sensor"});
        ARTIFACTS.put("kafka-clients:test", new String[] {"org.apache.kafka:kafka-clients:" + KAFKA_VERSION + ":test", "org.apache.kafka.common.utils.MockTime"});
        ARTIFACTS.put("kafka-server-common", new String[] {"org.apache.kafka:kafka-server-common:" + KAFKA_VERSION, "org.apache.kafka.server.quota.QuotaUtils"});
        ARTIFACTS.put("kafka-server", new String[] {"org.apache.kafka:kafka-server:" + KAFKA_VERSION, "org.apache.kafka.server.quota.ClientQuotaManager"});
        ARTIFACTS.put("kafka-metadata", new String[] {"org.apache.kafka:kafka-metadata:" + KAFKA_VERSION, "org.apache.kafka.controller.ClientQuotaControlManager"});
        ARTIFACTS.put("kafka_2.13", new String[] {"org.apache.kafka:kafka_2.13:" + KAFKA_VERSION, "kafka.server.metadata.ClientQuotaMetadataManager"});
        ARTIFACTS.put("jackson-databind", new String[] {"com.fasterxml.jackson.core:jackson-databind:2.21.2", "com.fasterxml.jackson.databind.ObjectMapper"});
    }

    private Provenance() {
    }

    /** The jar file a class was loaded from. */
    private static String jarOf(String className) throws ClassNotFoundException {
        Class<?> c = Class.forName(className, false, Provenance.class.getClassLoader());
        CodeSource src = c.getProtectionDomain().getCodeSource();
        if (src == null || src.getLocation() == null) throw new IllegalStateException(className + " has no code source");
        return Path.of(src.getLocation().getPath()).getFileName().toString();
    }

    /** Fails unless every probe class comes from the jar its Maven coordinates name, and Kafka says it is 4.3.1. */
    static void verifyClasspath() throws ClassNotFoundException {
        for (Map.Entry<String, String[]> e : ARTIFACTS.entrySet()) {
            String[] gav = e.getValue()[0].split(":");
            String expected = gav[1] + "-" + gav[2] + (gav.length > 3 ? "-" + gav[3] : "") + ".jar";
            String jar = jarOf(e.getValue()[1]);
            if (!jar.equals(expected)) {
                throw new IllegalStateException(e.getValue()[1] + " was loaded from " + jar + ", expected " + expected);
            }
        }
        if (!KAFKA_VERSION.equals(AppInfoParser.getVersion())) {
            throw new IllegalStateException("kafka-clients reports version " + AppInfoParser.getVersion());
        }
    }

    static ObjectNode of(Family f, Path inputFile) {
        ObjectNode p = Json.obj();
        p.put("kafka_version", KAFKA_VERSION);
        p.put("kafka_commit_id", AppInfoParser.getCommitId());
        ArrayNode arts = p.putArray("maven_artifacts");
        for (String a : f.artifacts()) arts.add(ARTIFACTS.get(a)[0]);
        p.put("json_library", ARTIFACTS.get("jackson-databind")[0] + " (reads the inputs)");
        p.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        p.put("generator", "lab/vectors (quota.vectors.Main, " + f.getClass().getSimpleName() + "); regenerate with lab/vectors/generate.sh");
        p.put("inputs", "every case's inputs are replayed from " + inputFile.normalize()
            + " (the handed-over set); every output field is what Kafka " + KAFKA_VERSION + " returned");
        ArrayNode classes = p.putArray("kafka_classes");
        f.kafkaClasses().forEach(classes::add);
        f.provenanceNotes(p);
        return p;
    }
}
