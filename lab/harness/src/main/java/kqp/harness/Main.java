package kqp.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.AppInfoParser;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The seed lab on a real cluster.
 *
 * <pre>
 * java -jar real-kafka-harness.jar --runs lab/runs.json --env ENV_FILE --out target/real-kafka/real.json
 *      [--only NAME,NAME] [--repeats-override N] [--timeout-s 120] [--cooldown-ms MS]
 *      [--max-points 300] [--no-warmup]
 * </pre>
 *
 * Exit status: 0 every run and repeat measured without error; 3 the harness ran but at least one run failed
 * (its repeat has an "error" in the JSON and a FAILED line); 1 the harness itself failed (bad arguments or
 * input, cluster unreachable); 2 usage.
 */
public final class Main {
    static final String TIME_BASE = "Each client's clock runs from just before its first send() (producer) or"
        + " poll() (consumer) to the callback of its last acknowledgement (producer: after flush(), every"
        + " callback awaited) or the return of the poll() that brought its last record (consumer); duration_ms"
        + " is that span. The clients are constructed before (a KafkaConsumer opens no connection until"
        + " poll(); a KafkaProducer's sender thread may already fetch cluster metadata from a bootstrap"
        + " broker), so topic metadata, the connection to the partition leader and its handshake fall inside"
        + " the measured time. t0 is the instant the workloads are released (each starts at t0 + start_ms);"
        + " progress points, start_ms, end_ms, bytes_first_5s (< t0 + 5000 ms) and the events' times are"
        + " relative to t0. This is the article's perf-test-like measurement: kafka-producer-perf-test.sh"
        + " also starts its clock after building the producer, before the first send(). An admin workload's"
        + " clock starts just before its first Admin.createTopics call (the Admin client is built before t0 and"
        + " may already have fetched metadata) and ends when its last topic future completes. A connects workload's"
        + " clients are raw sockets to one broker's PLAINTEXT listener, each sending one ApiVersionsRequest (Kafka's"
        + " own classes, the newest version); its start is t0 + start_ms; a client is ready when the ApiVersions"
        + " response has arrived, and a refused attempt (end-of-stream or reset before an answer: the acceptor held"
        + " the socket for the connection_creation_rate throttle, then closed it) is timed when the client saw the"
        + " close; ready_ms, close_ms and first_close_ms are ms since t0.";
    static final String AGGREGATION = "run.duration_ms = the longest client duration_ms; run.end_ms = the"
        + " latest client end_ms (from t0); run.throttle_max_ms = the max of the clients' throttle_max_ms;"
        + " run.throttle_avg_ms = the max of the clients' throttle_avg_ms (the most throttled client's"
        + " average); run.bytes_first_5s, records_ok and records_failed = sums over the clients; run.fetch_requests (runs with"
        + " consumers) = the consumers' fetch-total (consumer-fetch-manager-metrics: fetch responses) summed. Null when"
        + " no client has the figure (a client metric with no sample reads NaN, written null). With admin"
        + " workloads: run.duration_ms also covers the span from their first createTopics call to the completion"
        + " of their last topic future (the longest of that and the clients' durations), run.throttle_max_ms also"
        + " the largest ThrottlingQuotaExceededException.throttleTimeMs() of a topic future (0 when none);"
        + " topics_requested / topics_created / topics_throttled (ThrottlingQuotaExceededException) / topics_failed"
        + " (any other exception; up to 5 distinct \"Class: message\" in topic_errors, and an error of the repeat)"
        + " count their topics; created_at_ms / throttled_at_ms are the sorted completion times of those topics'"
        + " futures, ms since the first createTopics call. With connects workloads: run.duration_ms also covers the span"
        + " from their start (t0 + start_ms) to the last client's (reopen: the last cycle's) ApiVersions answer (null"
        + " when one never got it); connections_ready = clients/cycles answered, connections_refused_first = those"
        + " whose first attempt was closed unanswered, connection_refusals = every attempt closed unanswered,"
        + " connection_attempts = every attempt; first_close_ms / close_ms / ready_ms = the first and the sorted"
        + " times of those closes and answers (ms since t0); closes_seen_as counts the closes by how the client saw"
        + " them (eof, reset); throttle_max_ms 0, bytes_first_5s 0, records_failed 0.";
    static final String CLIENT_METRICS = "throttle_avg_ms / throttle_max_ms are the clients' own windowed"
        + " metrics read before close(): producer-metrics produce-throttle-time-avg/-max (producer),"
        + " consumer-fetch-manager-metrics fetch-throttle-time-avg/-max (consumer), over the last"
        + " metrics.num.samples (2) x metrics.sample.window.ms (30000) - the whole run for runs under 30 s;"
        + " every response the client's NetworkClient receives is a sample, 0 ms included (Metadata and ApiVersions"
        + " responses too, so an acks=0 producer, which gets no produce response, reads 0, not NaN)."
        + " records_failed = the larger of record-error-total and"
        + " the failed callbacks; record_retry_total = record-retry-total. bytes are value bytes acknowledged"
        + " (producer) or value+key bytes returned by poll() (consumer). latency = callback time - time just"
        + " before send(), p50/p99 taken as perf-test does (sorted[(int)(n*p)]).";

    static final class Options {
        Path runs;
        Path env;
        Path out;
        Set<String> only;
        Integer repeatsOverride;
        int timeoutS = 120;
        /** -1: (quota.window.num x quota.window.size.seconds + 1) s, from the brokers' configs. */
        long cooldownMs = -1;
        /** --cooldown-ms was given: it is then the cooldown of every budget, controller mutations included. */
        boolean cooldownGiven;
        /**
         * A controller-mutation budget's cooldown: (controller.quota.window.num x
         * controller.quota.window.size.seconds + 1) s from the brokers' configs (11 + 1 s when they do not say).
         */
        long mutationCooldownMs = -1;
        int maxPoints = 300;
        boolean warmup = true;
    }

    public static void main(String[] args) {
        int code;
        try {
            code = run(args);
        } catch (UsageException e) {
            System.err.println("harness: " + e.getMessage());
            System.err.println("usage: --runs FILE --env FILE --out FILE [--only NAME,NAME] [--repeats-override N]"
                + " [--timeout-s S] [--cooldown-ms MS] [--max-points N] [--no-warmup]");
            code = 2;
        } catch (Throwable t) {
            System.err.println("harness: FAILED: " + t);
            t.printStackTrace(System.err);
            code = 1;
        }
        System.out.flush();
        System.err.flush();
        // Client threads are daemons or closed; exit explicitly so a stuck one cannot keep the JVM alive.
        System.exit(code);
    }

    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String m) {
            super(m);
        }
    }

    static Options parse(String[] args) throws UsageException {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = (i + 1 < args.length) ? args[i + 1] : null;
            switch (a) {
                case "--runs" -> { o.runs = Path.of(need(a, v)); i++; }
                case "--env" -> { o.env = Path.of(need(a, v)); i++; }
                case "--out" -> { o.out = Path.of(need(a, v)); i++; }
                case "--only" -> {
                    o.only = new LinkedHashSet<>();
                    for (String s : need(a, v).split(",")) if (!s.isBlank()) o.only.add(s.strip());
                    i++;
                }
                case "--repeats-override" -> { o.repeatsOverride = positive(a, need(a, v)); i++; }
                case "--timeout-s" -> { o.timeoutS = positive(a, need(a, v)); i++; }
                case "--cooldown-ms" -> {
                    o.cooldownMs = Long.parseLong(need(a, v));
                    o.cooldownGiven = o.cooldownMs >= 0;
                    i++;
                }
                case "--max-points" -> { o.maxPoints = Math.max(2, positive(a, need(a, v))); i++; }
                case "--no-warmup" -> o.warmup = false;
                case "-h", "--help" -> throw new UsageException("help");
                default -> throw new UsageException("unknown argument " + a);
            }
        }
        if (o.runs == null || o.env == null || o.out == null) throw new UsageException("--runs, --env and --out are required");
        return o;
    }

    private static String need(String a, String v) throws UsageException {
        if (v == null) throw new UsageException(a + " needs a value");
        return v;
    }

    private static int positive(String a, String v) throws UsageException {
        try {
            int n = Integer.parseInt(v);
            if (n < 1) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(a + " needs a positive integer, not " + v);
        }
    }

    static int run(String[] args) throws Exception {
        Options opt = parse(args);
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        JsonNode runsFile = mapper.readTree(opt.runs.toFile());
        if (runsFile == null || !runsFile.path("runs").isArray()) {
            throw new IllegalArgumentException(opt.runs + ": no \"runs\" array");
        }
        List<JsonNode> runs = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (JsonNode r : runsFile.get("runs")) {
            String n = r.path("name").asText(null);
            if (n == null || r.path("scenario").asText(null) == null) {
                throw new IllegalArgumentException(opt.runs + ": a run without name or scenario: " + r);
            }
            if (!names.add(n)) throw new IllegalArgumentException(opt.runs + ": run " + n + " twice");
            runs.add(r);
        }
        if (opt.only != null) {
            for (String n : opt.only) {
                if (!names.contains(n)) throw new IllegalArgumentException("--only " + n + ": no such run in " + opt.runs
                    + " (runs: " + names + ")");
            }
            runs.removeIf(r -> !opt.only.contains(r.get("name").asText()));
        }
        Path base = opt.runs.toAbsolutePath().getParent();
        Path repoRoot = base == null ? Path.of(".") : (base.getParent() == null ? base : base.getParent());

        Env env = Env.read(opt.env);
        long started = System.nanoTime();
        ObjectNode root = mapper.createObjectNode();
        root.put("kafka_version", runsFile.path("kafka_version").asText(""));
        root.put("kafka_clients_version", AppInfoParser.getVersion());
        root.put("java_version", System.getProperty("java.version"));
        root.put("java_vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        root.put("started_at", Instant.now().toString());
        root.put("time_base", TIME_BASE);
        root.put("aggregation", AGGREGATION);
        root.put("client_metrics", CLIENT_METRICS);
        ObjectNode harness = root.putObject("harness");
        harness.put("args", String.join(" ", args));
        harness.put("timeout_s", opt.timeoutS);
        ObjectNode clusterJson = root.putObject("cluster");
        ArrayNode runsJson = mapper.createArrayNode();
        boolean allOk = true;

        try (Cluster cluster = new Cluster(env)) {
            clusterJson.set("env", mapper.valueToTree(env.facts()));
            clusterJson.set("broker_ids", mapper.valueToTree(env.brokerIds));
            List<Integer> live = cluster.liveBrokers();
            clusterJson.set("live_brokers", mapper.valueToTree(live));
            if (!live.containsAll(env.brokerIds)) {
                throw new IllegalStateException("BROKER_IDS=" + env.brokerIds + " but the cluster has " + live);
            }
            Map<Integer, Map<String, String>> brokerConfigs = new LinkedHashMap<>();
            ObjectNode bc = clusterJson.putObject("broker_configs");
            for (int id : env.brokerIds) {
                List<String> wanted = new ArrayList<>(RunExecutor.COMPARED_SETTINGS);
                wanted.addAll(RunExecutor.MUTATION_SETTINGS);
                wanted.addAll(RunExecutor.DYNAMIC_SETTINGS);
                Map<String, String> c = cluster.brokerConfigs(id, wanted);
                brokerConfigs.put(id, c);
                bc.set(Integer.toString(id), mapper.valueToTree(c));
            }
            clusterJson.put("quota_propagation_signal", cluster.propagationSignal);
            if (opt.cooldownMs < 0) {
                long windows = 0;
                for (Map<String, String> c : brokerConfigs.values()) {
                    windows = Math.max(windows, Long.parseLong(c.get("quota.window.num"))
                        * Long.parseLong(c.get("quota.window.size.seconds")));
                }
                opt.cooldownMs = (windows + 1) * 1000;
            }
            if (opt.cooldownGiven) {
                opt.mutationCooldownMs = opt.cooldownMs;
            } else {
                long windows = 0;
                for (Map<String, String> c : brokerConfigs.values()) {
                    try {
                        windows = Math.max(windows, Long.parseLong(c.get("controller.quota.window.num"))
                            * Long.parseLong(c.get("controller.quota.window.size.seconds")));
                    } catch (RuntimeException e) {
                        // not reported: Kafka's defaults below
                    }
                }
                if (windows <= 0) windows = 11;
                opt.mutationCooldownMs = (windows + 1) * 1000;
            }
            harness.put("cooldown_ms", opt.cooldownMs);
            harness.put("mutation_cooldown_ms", opt.mutationCooldownMs);
            harness.put("cooldown", "before a run, wait until cooldown_ms (quota.window.num x"
                + " quota.window.size.seconds + 1 s unless --cooldown-ms) has passed since an earlier run drew on"
                + " the same budget (quota type Produce/Fetch/Request x the same client-id or principal) while a"
                + " quota of that type naming that kind of entity (client-id or user) was set, so that its samples have left the brokers' quota windows and each"
                + " run starts as the simulator does, with fresh sensors. A controller-mutation budget (quota type"
                + " Mutation, controller_mutation_rate: a token bucket of rate x controller.quota.window.num x"
                + " controller.quota.window.size.seconds tokens that refills at the rate) waits mutation_cooldown_ms"
                + " (that window + 1 s, from the brokers' configs, 11 + 1 s when they do not report it;"
                + " --cooldown-ms when given) plus, unless --cooldown-ms, the largest topic's partitions / the smallest"
                + " controller_mutation_rate of the run that used it last (strict mode takes a topic's partitions"
                + " while the bucket is not below 0, so it can end that far below empty), so that it starts full."
                + " A connects workload waits cooldown_ms since the harness last may have opened a connection to its"
                + " broker (the end of the previous repeat and its cleanup, Main's warm-up, a new connection of the"
                + " harness Admin client, the PLAINTEXT address lookup), so that the broker's connection-rate sensors"
                + " (broker-wide, per listener, per IP: every harness client connects from 127.0.0.1) hold none of"
                + " them");
            if (!cluster.jmxProblems.isEmpty()) {
                clusterJson.set("jmx_problems", mapper.valueToTree(cluster.jmxProblems));
                System.err.println("harness: WARNING: " + cluster.jmxProblems);
            }
            List<String> removed = cluster.clearQuotas();
            if (!removed.isEmpty()) clusterJson.set("quotas_found_at_start", mapper.valueToTree(removed));
            if (opt.warmup) {
                double ms = warmup(cluster, env);
                root.put("warmup", "unmeasured, before the first run: 5000 x 1000 B produced and consumed on a"
                    + " throwaway topic by harness-warmup-* clients, so that the first run does not pay for class"
                    + " loading and JIT (" + Math.round(ms) + " ms)");
            }
            root.set("runs", runsJson);

            RunExecutor exec = new RunExecutor(opt, mapper, cluster, brokerConfigs);
            for (JsonNode r : runs) {
                String name = r.get("name").asText();
                String scen = r.get("scenario").asText();
                int repeats = opt.repeatsOverride != null ? opt.repeatsOverride : Math.max(1, r.path("repeats").asInt(1));
                ObjectNode rj = runsJson.addObject();
                rj.put("name", name);
                rj.put("scenario", scen);
                ArrayNode reps = rj.putArray("repeats");
                ScenarioPlan plan = null;
                String refused = null;
                Path scenPath = Path.of(scen);
                if (!Files.exists(scenPath)) scenPath = repoRoot.resolve(scen);
                try {
                    plan = ScenarioPlan.read(mapper, scenPath);
                    rj.put("scenario_name", plan.name);
                } catch (ScenarioPlan.Refused e) {
                    refused = "refused: " + scenPath + ": " + e.getMessage();
                } catch (Exception e) {
                    refused = "cannot read the scenario " + scenPath + ": " + e;
                }
                for (int k = 1; k <= repeats; k++) {
                    if (refused != null) {
                        ObjectNode o = reps.addObject();
                        o.set("clients", mapper.createArrayNode());
                        o.putNull("run");
                        o.set("broker_metrics", mapper.createArrayNode());
                        o.set("events", mapper.createArrayNode());
                        o.put("error", refused);
                        o.put("repeat", k);
                        String line = name + " #" + k + ": not run [FAILED: " + refused + "]";
                        System.out.println(line);
                        System.err.println("harness: " + line);
                        allOk = false;
                    } else {
                        checkReachable(cluster);
                        RunExecutor.Outcome out = exec.run(name, plan, k);
                        reps.add(out.json());
                        System.out.println(out.line());
                        if (!out.ok()) {
                            System.err.println("harness: " + out.line());
                            allOk = false;
                        }
                    }
                    System.out.flush();
                    write(mapper, opt.out, root, started, false);
                }
            }
        } finally {
            if (!root.has("runs")) root.set("runs", runsJson);
            write(mapper, opt.out, root, started, true);
        }
        System.out.printf("harness: %d runs in %.0f s, wrote %s%s%n", runs.size(),
            (System.nanoTime() - started) / 1e9, opt.out, allOk ? "" : " (some runs FAILED)");
        return allOk ? 0 : 3;
    }

    private static void checkReachable(Cluster cluster) throws Exception {
        try {
            cluster.admin.describeCluster().nodes().get(15, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the cluster does not answer (describeCluster): " + e, e);
        }
    }

    private static void write(ObjectMapper mapper, Path out, ObjectNode root, long started, boolean finished)
        throws Exception {
        if (finished) {
            root.put("finished_at", Instant.now().toString());
            root.put("total_s", round((System.nanoTime() - started) / 1e9, 1));
        }
        Path abs = out.toAbsolutePath();
        if (abs.getParent() != null) Files.createDirectories(abs.getParent());
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
        mapper.writeValue(tmp.toFile(), root);
        Files.move(tmp, abs, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
            java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** An unmeasured produce and consume, so that class loading and JIT do not land in the first run. */
    private static double warmup(Cluster cluster, Env env) throws Exception {
        long s = System.nanoTime();
        String topic = "harness-warmup-" + Long.toHexString(System.nanoTime());
        cluster.createTopic(topic, List.of(env.brokerIds.get(0)));
        try {
            Properties pp = env.clientProperties("PLAINTEXT_CONFIG", "plaintext.properties", "PLAINTEXT_BOOTSTRAP");
            Properties cp = new Properties();
            cp.putAll(pp);
            pp.setProperty("client.id", "harness-warmup-producer");
            pp.setProperty("acks", "1");
            pp.setProperty("batch.size", "65536");
            byte[] v = new byte[1000];
            Arrays.fill(v, (byte) 'w');
            int n = 5000;
            try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(pp, new ByteArraySerializer(),
                new ByteArraySerializer())) {
                for (int i = 0; i < n; i++) p.send(new ProducerRecord<>(topic, v));
                p.flush();
            }
            cp.setProperty("client.id", "harness-warmup-consumer");
            KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(cp, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
            try {
                TopicPartition tp = new TopicPartition(topic, 0);
                c.assign(List.of(tp));
                c.seekToBeginning(List.of(tp));
                int got = 0;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (got < n && System.nanoTime() < deadline) got += c.poll(Duration.ofMillis(100)).count();
                if (got < n) throw new IllegalStateException("warm-up consumed " + got + " of " + n);
            } finally {
                c.close(CloseOptions.timeout(Duration.ofSeconds(5)));
            }
        } finally {
            cluster.deleteTopics(List.of(topic));
        }
        return (System.nanoTime() - s) / 1e6;
    }

    static double round(double v, int digits) {
        if (!Double.isFinite(v)) return v;
        return BigDecimal.valueOf(v).setScale(digits, RoundingMode.HALF_UP).doubleValue();
    }

    /** A number as Kafka's tools print a config value: integral without a fraction. */
    static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        return Double.toString(v);
    }
}
