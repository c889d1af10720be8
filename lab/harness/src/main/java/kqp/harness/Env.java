package kqp.harness;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The output of {@code scripts/kafka-cluster.sh env}: KEY=VALUE lines
 * ({@code export KEY=VALUE} and quoted values are accepted; blank lines and
 * {@code #} comments are skipped).
 */
final class Env {
    final Map<String, String> values;
    final List<Integer> brokerIds;

    private Env(Map<String, String> values) {
        this.values = values;
        String ids = require("BROKER_IDS");
        List<Integer> list = new ArrayList<>();
        for (String s : ids.split(",")) {
            if (!s.isBlank()) list.add(Integer.parseInt(s.trim()));
        }
        if (list.isEmpty()) throw new IllegalArgumentException("BROKER_IDS is empty in the env file");
        this.brokerIds = List.copyOf(list);
    }

    static Env read(Path file) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        int n = 0;
        for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            if (line.startsWith("export ")) line = line.substring(7).strip();
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(file + ":" + n + ": not KEY=VALUE: " + raw);
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                    || value.startsWith("'") && value.endsWith("'"))) {
                value = value.substring(1, value.length() - 1);
            }
            values.put(key, value);
        }
        return new Env(values);
    }

    String get(String key) {
        return values.get(key);
    }

    String require(String key) {
        String v = values.get(key);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("the env file has no " + key
                + " (expected from scripts/kafka-cluster.sh env)");
        }
        return v;
    }

    /** host:port of broker {@code id}'s JMX, or null when the env does not give one. */
    String jmx(int id) {
        return values.get("BROKER_" + id + "_JMX");
    }

    Path clientConfigDir() {
        return Path.of(require("CLIENT_CONFIG_DIR"));
    }

    /**
     * Client properties: {@code configKey}'s value if it names a file, else
     * {@code CLIENT_CONFIG_DIR/fallbackFile}; {@code bootstrap.servers} from
     * {@code bootstrapKey} when the file does not set it.
     */
    Properties clientProperties(String configKey, String fallbackFile, String bootstrapKey) throws IOException {
        Path file = null;
        String configured = configKey == null ? null : values.get(configKey);
        if (configured != null && !configured.isEmpty() && Files.isRegularFile(Path.of(configured))) {
            file = Path.of(configured);
        } else if (fallbackFile != null) {
            Path candidate = clientConfigDir().resolve(fallbackFile);
            if (Files.isRegularFile(candidate)) file = candidate;
        }
        Properties p = new Properties();
        if (file != null) p.putAll(load(file));
        if (!p.containsKey("bootstrap.servers")) {
            p.setProperty("bootstrap.servers", require(bootstrapKey));
        }
        if (file == null && configured != null && !configured.isEmpty() && configured.contains("=")) {
            // An inline "k=v,k=v" form: not part of the contract, but harmless to accept.
            for (String kv : configured.split(",")) {
                int eq = kv.indexOf('=');
                if (eq > 0) p.setProperty(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
            }
        }
        return p;
    }

    static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return p;
    }

    /** The env facts for the output, without anything that looks like a secret. */
    Map<String, String> facts() {
        Map<String, String> out = new LinkedHashMap<>();
        for (var e : values.entrySet()) {
            String k = e.getKey().toUpperCase();
            if (k.contains("PASSWORD") || k.contains("SECRET") || k.contains("TOKEN")) continue;
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }
}
