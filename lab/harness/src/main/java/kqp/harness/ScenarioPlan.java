package kqp.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A scenario file (docs/scenario-format.md, version 1) read for a real
 * cluster: producers, consumers, admin workloads (create_topics only) and connects workloads (raw
 * connections to one broker's PLAINTEXT listener). Everything the harness cannot do for real is refused by name with
 * its path ({@link Refused}); the simulator-only parts (environment,
 * horizon_ms, textbook on the modelled network) are ignored and listed in
 * {@link #ignored}.
 */
final class ScenarioPlan {

    /** A scenario the harness will not run, with the path of the field and why. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String path, String why) {
            super(path + ": " + why);
        }
    }

    record Quota(Map<String, String> entity, String key, Double value) {
        String describe() {
            StringBuilder sb = new StringBuilder();
            for (var e : entity.entrySet()) {
                if (sb.length() > 0) sb.append(',');
                sb.append(e.getKey()).append('=').append(e.getValue() == null ? "<default>" : e.getValue());
            }
            return sb + " " + key + "=" + (value == null ? "(removed)" : Main.num(value));
        }
    }

    record Preload(long records, int recordSize, int batchSize) {}

    record Topic(String name, int partitions, List<Integer> leaders, Preload preload) {}

    record Connection(String name, String listener, String mechanism, String identity, String clientId,
                      String sslClientAuth) {}

    /**
     * An admin workload: {@code topics} topics named {@code <topicPrefix>-<i>} (the harness makes the prefix
     * unique per repeat), created with the real Java Admin client in calls of {@code topicsPerCall} topics,
     * call k at start_ms + k x callIntervalMs.
     */
    record AdminSpec(String operation, int topics, int partitions, short replicationFactor, String topicPrefix,
                     int topicsPerCall, long callIntervalMs, boolean retryOnQuotaViolation) {
        int calls() {
            return (topics + topicsPerCall - 1) / topicsPerCall;
        }
    }

    /**
     * A connects workload (the simulator's ConnectsWorkload): {@code count} clients each opening a raw connection
     * to the scenario broker {@code broker}'s listener (pool: the k-th at start_ms + k x intervalMs; storm: each at
     * start_ms + its first jittered reconnect backoff), or one client opening, sending one request and closing
     * {@code count} times, intervalMs after each close (reopen). A refused connection is reconnected after
     * {@code ExponentialBackoff(reconnectBackoffMs, 2, reconnectBackoffMaxMs, 0.2)}, as the Java NetworkClient does.
     */
    record ConnectsSpec(String pattern, int count, long intervalMs, int broker, long reconnectBackoffMs,
                        long reconnectBackoffMaxMs) {
        boolean reopen() {
            return "reopen".equals(pattern);
        }

        boolean storm() {
            return "storm".equals(pattern);
        }
    }

    /**
     * A producer, consumer, (admin != null) admin or (connects != null) connects workload; topic, records and
     * recordSize are 0 / null for admin and connects.
     */
    record Workload(int index, boolean producer, String connection, String topic, long records, int recordSize,
                    double throughput, long startMs, Long stopMs, Map<String, String> config, AdminSpec admin,
                    ConnectsSpec connects) {
        String kind() {
            return admin != null ? "admin" : connects != null ? "connects" : producer ? "producer" : "consumer";
        }

        boolean isAdmin() {
            return admin != null;
        }

        boolean isConnects() {
            return connects != null;
        }
    }

    record Event(int index, long atMs, Quota quota) {}

    String name = "";
    long seed;
    int brokerCount = 1;
    Map<String, String> brokerSettings = new LinkedHashMap<>();
    final List<Topic> topics = new ArrayList<>();
    final List<Quota> quotas = new ArrayList<>();
    final List<Connection> connections = new ArrayList<>();
    final List<Workload> workloads = new ArrayList<>();
    final List<Event> events = new ArrayList<>();
    final List<String> ignored = new ArrayList<>();

    static ScenarioPlan read(ObjectMapper mapper, Path file) throws IOException, Refused {
        JsonNode root = mapper.readTree(file.toFile());
        if (root == null || !root.isObject()) throw new Refused("$", "not a JSON object");
        JsonNode sc;
        if (root.has("format") || root.has("scenario")) {
            fields(root, "$", Set.of("format", "version", "scenario"));
            if (!"kafka-quota-playground/scenario".equals(root.path("format").asText())) {
                throw new Refused("format", "expected kafka-quota-playground/scenario");
            }
            if (root.path("version").asInt(-1) != 1) throw new Refused("version", "only version 1 is known");
            sc = root.get("scenario");
            if (sc == null || !sc.isObject()) throw new Refused("scenario", "missing");
        } else {
            sc = root; // a bare scenario object is version 1
        }
        ScenarioPlan p = new ScenarioPlan();
        p.parse(sc);
        return p;
    }

    private void parse(JsonNode sc) throws Refused {
        fields(sc, "scenario", Set.of("name", "description", "seed", "environment", "brokers", "topics", "quotas",
            "connections", "workloads", "horizon_ms", "events", "network", "textbook"));
        name = sc.path("name").asText("");
        seed = sc.path("seed").asLong(0);
        String network = sc.path("network").asText("modelled");
        if (!"modelled".equals(network)) {
            throw new Refused("scenario.network", "\"" + network + "\" is the simulator's textbook network;"
                + " a real cluster has only the real one");
        }
        if (sc.has("environment")) ignored.add("scenario.environment (the simulator's machine calibration)");
        if (sc.has("horizon_ms")) ignored.add("scenario.horizon_ms (the harness has its own per-run timeout)");
        if (sc.has("textbook")) ignored.add("scenario.textbook (read only on the textbook network)");

        JsonNode brokers = sc.path("brokers");
        if (!brokers.isMissingNode()) {
            fields(brokers, "scenario.brokers", Set.of("count", "settings"));
            brokerCount = brokers.path("count").asInt(1);
            if (brokerCount < 1) throw new Refused("scenario.brokers.count", "must be at least 1");
            JsonNode settings = brokers.path("settings");
            if (settings.isObject()) {
                for (Map.Entry<String, JsonNode> e : settings.properties()) {
                    brokerSettings.put(e.getKey(), scalar(e.getValue(), "scenario.brokers.settings." + e.getKey()));
                }
            }
        }

        int i = 0;
        for (JsonNode t : array(sc, "topics")) {
            String path = "scenario.topics[" + i++ + "]";
            fields(t, path, Set.of("name", "partitions", "preload", "leaders"));
            String tn = t.path("name").asText(null);
            if (tn == null || tn.isEmpty()) throw new Refused(path + ".name", "required");
            int parts = t.path("partitions").asInt(1);
            if (parts < 1) throw new Refused(path + ".partitions", "must be at least 1");
            List<Integer> leaders = new ArrayList<>();
            if (t.has("leaders")) {
                JsonNode l = t.get("leaders");
                if (!l.isArray() || l.size() != parts) {
                    throw new Refused(path + ".leaders", "not one broker per partition");
                }
                for (int k = 0; k < parts; k++) {
                    int b = l.get(k).asInt(-1);
                    if (b < 0 || b >= brokerCount) {
                        throw new Refused(path + ".leaders[" + k + "]", "no broker " + b + " (brokers.count "
                            + brokerCount + ")");
                    }
                    leaders.add(b);
                }
            } else {
                for (int k = 0; k < parts; k++) leaders.add(k % brokerCount);
            }
            Preload preload = null;
            if (t.has("preload")) {
                JsonNode pl = t.get("preload");
                fields(pl, path + ".preload", Set.of("records", "record.size", "batch.size"));
                long recs = requiredLong(pl, "records", path + ".preload");
                int size = (int) requiredLong(pl, "record.size", path + ".preload");
                preload = new Preload(recs, size, pl.path("batch.size").asInt(16384));
            }
            topics.add(new Topic(tn, parts, List.copyOf(leaders), preload));
        }

        i = 0;
        for (JsonNode q : array(sc, "quotas")) {
            quotas.add(quota(q, "scenario.quotas[" + i++ + "]", false));
        }

        i = 0;
        for (JsonNode c : array(sc, "connections")) {
            String path = "scenario.connections[" + i++ + "]";
            fields(c, path, Set.of("name", "listener", "mechanism", "ssl.client.auth", "identity", "client.id", "ip",
                "client_throttling"));
            String cn = c.path("name").asText(null);
            if (cn == null) throw new Refused(path + ".name", "required");
            String listener = c.path("listener").asText(null);
            if (listener == null) throw new Refused(path + ".listener", "required");
            String ip = c.path("ip").asText("127.0.0.1");
            if (!"127.0.0.1".equals(ip)) {
                throw new Refused(path + ".ip", "\"" + ip + "\": the lab's clients connect over loopback, so the"
                    + " broker sees them (and its ip quotas count them) as 127.0.0.1: the lab's connection must have"
                    + " \"ip\": \"127.0.0.1\"");
            }
            String throttling = c.path("client_throttling").asText("kip219");
            if (!"kip219".equals(throttling)) {
                throw new Refused(path + ".client_throttling", "\"" + throttling
                    + "\": the harness runs the Java 4.3.1 clients, which are kip219");
            }
            String identity = c.hasNonNull("identity") ? c.get("identity").asText() : null;
            connections.add(new Connection(cn, listener, c.path("mechanism").asText("PLAIN"), identity,
                c.path("client.id").asText(""), c.hasNonNull("ssl.client.auth") ? c.get("ssl.client.auth").asText()
                    : null));
        }

        i = 0;
        for (JsonNode w : array(sc, "workloads")) {
            String path = "scenario.workloads[" + i + "]";
            fields(w, path, Set.of("producer", "consumer", "admin", "connects"));
            int kinds = (w.has("producer") ? 1 : 0) + (w.has("consumer") ? 1 : 0) + (w.has("admin") ? 1 : 0)
                + (w.has("connects") ? 1 : 0);
            if (kinds != 1) throw new Refused(path, "one of producer, consumer, admin or connects");
            if (w.has("admin")) {
                workloads.add(admin(i, w.get("admin"), path + ".admin"));
                i++;
                continue;
            }
            if (w.has("connects")) {
                workloads.add(connects(i, w.get("connects"), path + ".connects"));
                i++;
                continue;
            }
            boolean producer = w.has("producer");
            JsonNode b = producer ? w.get("producer") : w.get("consumer");
            path += producer ? ".producer" : ".consumer";
            if (producer) {
                fields(b, path, Set.of("connection", "topic", "records", "record.size", "bytes", "request.size",
                    "throughput", "start_ms", "stop_ms", "config"));
            } else {
                fields(b, path, Set.of("connection", "topic", "records", "bytes", "fetch.size", "start_ms", "stop_ms",
                    "config"));
            }
            for (String textbook : List.of("bytes", "request.size", "fetch.size")) {
                if (b.has(textbook)) throw new Refused(path + "." + textbook, "textbook network only");
            }
            String conn = b.path("connection").asText(null);
            if (conn == null || connections.stream().noneMatch(c -> c.name().equals(conn))) {
                throw new Refused(path + ".connection", "no connection named " + conn);
            }
            String topic = b.path("topic").asText(null);
            if (topic == null || topics.stream().noneMatch(t -> t.name().equals(topic))) {
                throw new Refused(path + ".topic", "no topic named " + topic + " in scenario.topics");
            }
            long records = requiredLong(b, "records", path);
            int size = producer ? (int) requiredLong(b, "record.size", path) : 0;
            if (producer && size <= 0) throw new Refused(path + ".record.size", "must be above 0");
            double throughput = b.path("throughput").asDouble(-1);
            if (throughput != -1 && throughput <= 0) throw new Refused(path + ".throughput", "-1 or above 0");
            long start = b.path("start_ms").asLong(0);
            Long stop = b.hasNonNull("stop_ms") ? b.get("stop_ms").asLong() : null;
            if (stop != null && stop <= start) throw new Refused(path + ".stop_ms", "not after start_ms");
            Map<String, String> config = new LinkedHashMap<>();
            JsonNode cfg = b.path("config");
            if (cfg.isObject()) {
                for (Map.Entry<String, JsonNode> e : cfg.properties()) {
                    config.put(e.getKey(), scalar(e.getValue(), path + ".config." + e.getKey()));
                }
            }
            for (String owned : OWNED_CONFIGS) {
                if (config.containsKey(owned)) {
                    throw new Refused(path + ".config." + owned, "set by the connection / the harness");
                }
            }
            workloads.add(new Workload(i, producer, conn, topic, records, size, throughput, start, stop, config,
                null, null));
            i++;
        }

        i = 0;
        for (JsonNode e : array(sc, "events")) {
            String path = "scenario.events[" + i + "]";
            String kind = e.path("kind").asText(null);
            if ("move_leader".equals(kind)) {
                throw new Refused(path, "move_leader is not supported on the real cluster (the harness does not"
                    + " move leadership during a run)");
            }
            if (!"set_quota".equals(kind)) throw new Refused(path + ".kind", "unknown event kind " + kind);
            fields(e, path, Set.of("at_ms", "kind", "entity", "key", "value"));
            long at = requiredLong(e, "at_ms", path);
            events.add(new Event(i, at, quota(e, path, true)));
            i++;
        }
    }

    /** The operations of the simulator's admin workloads; the harness runs the first only. */
    static final List<String> ADMIN_OPERATIONS = List.of("create_topics", "create_partitions", "delete_topics");

    /** Clients configs the harness sets itself (the connection's, and client.id exactly as the scenario says). */
    static final List<String> OWNED_CONFIGS = List.of("bootstrap.servers", "client.id", "key.serializer",
        "value.serializer", "key.deserializer", "value.deserializer", "group.id");

    private Workload admin(int index, JsonNode b, String path) throws Refused {
        fields(b, path, Set.of("connection", "operation", "topics", "partitions", "replication_factor",
            "topic_prefix", "topics_per_call", "call_interval_ms", "start_ms", "retry_on_quota_violation",
            "api_version", "config"));
        String conn = b.path("connection").asText(null);
        if (conn == null || connections.stream().noneMatch(c -> c.name().equals(conn))) {
            throw new Refused(path + ".connection", "no connection named " + conn);
        }
        // Defaults as the simulator's: operation create_topics, partitions 1.
        JsonNode op = b.get("operation");
        if (op != null && !op.isTextual()) throw new Refused(path + ".operation", "a string");
        String operation = op == null ? "create_topics" : op.asText();
        if (!"create_topics".equals(operation)) {
            throw new Refused(path + ".operation", ADMIN_OPERATIONS.contains(operation)
                ? "\"" + operation + "\" runs in the simulator only: the lab runs create_topics only"
                : "unknown operation \"" + operation + "\" (the simulator has " + ADMIN_OPERATIONS
                    + "; the lab runs create_topics only)");
        }
        if (b.hasNonNull("api_version")) {
            throw new Refused(path + ".api_version", "the real Java Admin 4.3.1 always sends its newest"
                + " CreateTopics version (the highest both it and the broker support) and cannot be made to send"
                + " an older one; leave api_version out");
        }
        long topics = requiredLong(b, "topics", path);
        if (topics < 1 || topics > 100_000) throw new Refused(path + ".topics", "1 to 100000");
        long partitions = optionalLong(b, "partitions", path, 1);
        if (partitions < 1 || partitions > 100_000) throw new Refused(path + ".partitions", "1 to 100000");
        long rf = optionalLong(b, "replication_factor", path, 1);
        if (rf < 1 || rf > Short.MAX_VALUE) throw new Refused(path + ".replication_factor", "at least 1");
        JsonNode pre = b.get("topic_prefix");
        String prefix = "admin";
        if (pre != null) {
            if (!pre.isTextual()) throw new Refused(path + ".topic_prefix", "a string");
            prefix = pre.asText();
            if (prefix.isEmpty() || prefix.length() > 180 || !prefix.matches("[A-Za-z0-9._-]+")) {
                throw new Refused(path + ".topic_prefix", "1 to 180 of ASCII letters, digits, '.', '_' and '-'");
            }
        }
        long perCall = optionalLong(b, "topics_per_call", path, topics);
        if (perCall < 1) throw new Refused(path + ".topics_per_call", "at least 1");
        long interval = optionalLong(b, "call_interval_ms", path, 0);
        if (interval < 0) throw new Refused(path + ".call_interval_ms", "0 or above");
        long start = optionalLong(b, "start_ms", path, 0);
        if (start < 0) throw new Refused(path + ".start_ms", "0 or above");
        boolean retry = true;
        JsonNode r = b.get("retry_on_quota_violation");
        if (r != null) {
            if (!r.isBoolean()) throw new Refused(path + ".retry_on_quota_violation", "true or false");
            retry = r.asBoolean();
        }
        Map<String, String> config = new LinkedHashMap<>();
        JsonNode cfg = b.path("config");
        if (!cfg.isMissingNode() && !cfg.isNull() && !cfg.isObject()) throw new Refused(path + ".config", "an object");
        if (cfg.isObject()) {
            for (Map.Entry<String, JsonNode> e : cfg.properties()) {
                config.put(e.getKey(), scalar(e.getValue(), path + ".config." + e.getKey()));
            }
        }
        for (String owned : OWNED_CONFIGS) {
            if (config.containsKey(owned)) {
                throw new Refused(path + ".config." + owned, "set by the connection / the harness");
            }
        }
        AdminSpec spec = new AdminSpec(operation, (int) topics, (int) partitions, (short) rf, prefix,
            (int) Math.min(perCall, topics), interval, retry);
        return new Workload(index, false, conn, null, 0, 0, -1, start, null, config, spec, null);
    }

    /** The patterns of the simulator's connects workloads. */
    static final List<String> CONNECT_PATTERNS = List.of("pool", "storm", "reopen");
    /** The client configs a connects workload reads (the simulator's ConnectConfig), with Kafka's defaults. */
    static final Map<String, Long> CONNECT_CONFIGS = Map.of("reconnect.backoff.ms", 50L,
        "reconnect.backoff.max.ms", 1000L);
    /** At most this many pool / storm clients: the harness runs one thread (and one socket) per client. */
    static final int MAX_CONNECT_CLIENTS = 1000;

    private Workload connects(int index, JsonNode b, String path) throws Refused {
        // Fields and defaults as the simulator's ConnectsWorkload (deny_unknown_fields).
        fields(b, path, Set.of("connection", "pattern", "count", "interval_ms", "broker", "start_ms", "config"));
        String conn = b.path("connection").asText(null);
        int ci = -1;
        for (int k = 0; k < connections.size(); k++) if (connections.get(k).name().equals(conn)) ci = k;
        if (conn == null || ci < 0) throw new Refused(path + ".connection", "no connection named " + conn);
        Connection c = connections.get(ci);
        if (!"PLAINTEXT".equals(c.listener())) {
            throw new Refused("scenario.connections[" + ci + "].listener", "\"" + c.listener() + "\": the lab's"
                + " connects workloads (" + path + ") open raw PLAINTEXT connections only (no TLS or SASL handshake)");
        }
        JsonNode pat = b.get("pattern");
        if (pat != null && !pat.isTextual()) throw new Refused(path + ".pattern", "a string");
        String pattern = pat == null ? "pool" : pat.asText();
        if (!CONNECT_PATTERNS.contains(pattern)) {
            throw new Refused(path + ".pattern", "unknown pattern \"" + pattern + "\" (one of " + CONNECT_PATTERNS + ")");
        }
        long count = requiredLong(b, "count", path);
        if (count < 1 || count > 10_000) throw new Refused(path + ".count", "must be 1 to 10000");
        if (!"reopen".equals(pattern) && count > MAX_CONNECT_CLIENTS) {
            throw new Refused(path + ".count", count + ": the lab runs one thread and one socket per " + pattern
                + " client, at most " + MAX_CONNECT_CLIENTS);
        }
        long interval = optionalLong(b, "interval_ms", path, 0);
        if (interval < 0) throw new Refused(path + ".interval_ms", "0 or above");
        long broker = optionalLong(b, "broker", path, 0);
        if (broker < 0 || broker >= brokerCount) {
            throw new Refused(path + ".broker", "no broker " + broker + ": the cluster has brokers 0 to "
                + (brokerCount - 1) + " (brokers.count " + brokerCount + ")");
        }
        long start = optionalLong(b, "start_ms", path, 0);
        if (start < 0) throw new Refused(path + ".start_ms", "0 or above");
        Map<String, Long> cfg = new LinkedHashMap<>(CONNECT_CONFIGS);
        JsonNode cn = b.get("config");
        if (cn != null && !cn.isNull()) {
            if (!cn.isObject()) throw new Refused(path + ".config", "an object");
            for (Map.Entry<String, JsonNode> e : cn.properties()) {
                String p = path + ".config." + e.getKey();
                if (!CONNECT_CONFIGS.containsKey(e.getKey())) {
                    throw new Refused(p, "unknown config (a connects workload reads " + CONNECT_CONFIGS.keySet() + ")");
                }
                if (!e.getValue().isIntegralNumber() || e.getValue().asLong() < 0) {
                    throw new Refused(p, "an integer, 0 or above");
                }
                cfg.put(e.getKey(), e.getValue().asLong());
            }
        }
        Map<String, String> config = new LinkedHashMap<>();
        cfg.forEach((k, v) -> config.put(k, Long.toString(v)));
        ConnectsSpec spec = new ConnectsSpec(pattern, (int) count, interval, (int) broker,
            cfg.get("reconnect.backoff.ms"), cfg.get("reconnect.backoff.max.ms"));
        return new Workload(index, false, conn, null, 0, 0, -1, start, null, config, null, spec);
    }

    private static long optionalLong(JsonNode n, String field, String path, long dflt) throws Refused {
        JsonNode v = n.get(field);
        if (v == null) return dflt;
        if (!v.isIntegralNumber()) throw new Refused(path + "." + field, "an integer");
        return v.asLong();
    }

    private static Quota quota(JsonNode q, String path, boolean event) throws Refused {
        if (!event) fields(q, path, Set.of("entity", "key", "value"));
        JsonNode ent = q.path("entity");
        if (!ent.isObject() || ent.size() == 0) throw new Refused(path + ".entity", "required");
        Map<String, String> entity = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : ent.properties()) {
            if (!Set.of("user", "client-id", "ip").contains(e.getKey())) {
                throw new Refused(path + ".entity." + e.getKey(), "entity types are user, client-id and ip");
            }
            entity.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText());
        }
        String key = q.path("key").asText(null);
        if (key == null) throw new Refused(path + ".key", "required");
        JsonNode v = q.get("value");
        if (v == null || (!event && v.isNull())) throw new Refused(path + ".value", "required");
        if (v.isNull()) return new Quota(entity, key, null);
        // The scenario format writes the doubles JSON has no number for as
        // strings (quota_engine::json_f64); Kafka accepts them as quota values.
        if (v.isTextual()) {
            switch (v.asText()) {
                case "NaN": return new Quota(entity, key, Double.NaN);
                case "Infinity": return new Quota(entity, key, Double.POSITIVE_INFINITY);
                // Kafka refuses it (a quota must be above 0): sent so that its message is the one seen.
                case "-Infinity": return new Quota(entity, key, Double.NEGATIVE_INFINITY);
                default: throw new Refused(path + ".value", "a number, or \"NaN\", \"Infinity\" or \"-Infinity\" as the scenario format writes them");
            }
        }
        if (!v.isNumber()) throw new Refused(path + ".value", "a number");
        return new Quota(entity, key, v.asDouble());
    }

    private static Iterable<JsonNode> array(JsonNode sc, String field) throws Refused {
        JsonNode a = sc.get(field);
        if (a == null || a.isNull()) return List.of();
        if (!a.isArray()) throw new Refused("scenario." + field, "an array");
        List<JsonNode> out = new ArrayList<>();
        a.forEach(out::add);
        return out;
    }

    private static void fields(JsonNode n, String path, Set<String> known) throws Refused {
        if (!n.isObject()) throw new Refused(path, "an object");
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) throw new Refused(path + "." + f, "unknown field");
        }
    }

    private static long requiredLong(JsonNode n, String field, String path) throws Refused {
        JsonNode v = n.get(field);
        if (v == null || !v.isIntegralNumber()) throw new Refused(path + "." + field, "required (an integer)");
        return v.asLong();
    }

    /** A config value as the Java clients take it: strings verbatim, integral numbers without a fraction. */
    static String scalar(JsonNode v, String path) throws Refused {
        if (v.isTextual()) return v.asText();
        if (v.isIntegralNumber()) return Long.toString(v.asLong());
        if (v.isNumber()) return Main.num(v.asDouble());
        if (v.isBoolean()) return Boolean.toString(v.asBoolean());
        throw new Refused(path, "a string, number or boolean");
    }

    Connection connection(String name) {
        return connections.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    Topic topic(String name) {
        return topics.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }
}
