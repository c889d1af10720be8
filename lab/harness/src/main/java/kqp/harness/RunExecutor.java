package kqp.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Sanitizer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import javax.management.ObjectName;

/** One repeat of one run: set up, measure, tear down; the repeat's JSON. */
final class RunExecutor {
    /** Broker settings a scenario may name, compared with the cluster's (they are read-only broker configs). */
    static final List<String> COMPARED_SETTINGS = List.of("quota.window.num", "quota.window.size.seconds",
        "num.io.threads", "num.network.threads", "fetch.max.bytes", "metrics.num.samples",
        "metrics.sample.window.ms", "ssl.principal.mapping.rules", "sasl.kerberos.principal.to.local.rules",
        "socket.receive.buffer.bytes");
    /**
     * The controller-mutation quota's window (ControllerMutationQuotaManager's token bucket: burst =
     * controller_mutation_rate x num x size), read from the brokers with the settings above; not a
     * scenario setting.
     */
    static final List<String> MUTATION_SETTINGS = List.of("controller.quota.window.num",
        "controller.quota.window.size.seconds");
    /**
     * Broker settings a scenario may name that the harness applies for the run as a dynamic config of each of the
     * scenario's brokers (incrementalAlterConfigs on ConfigResource BROKER "id", removed after the run) instead
     * of comparing them with the cluster's: max.connection.creation.rate is a per-broker dynamic config (Kafka
     * 4.3.1 DynamicBrokerConfig; SocketServer.reconfigure calls ConnectionQuotas.updateBrokerMaxConnectionRate,
     * which sets the broker-wide connection-rate sensor's quota at once).
     */
    static final List<String> DYNAMIC_SETTINGS = List.of("max.connection.creation.rate");
    /** The client.id of the throwaway Admin client that looks the brokers' PLAINTEXT addresses up. */
    static final String HARNESS_LOOKUP_CLIENT_ID = "harness-plaintext-lookup";
    /** The client.id of the harness's own Admin client (Cluster); no scenario connection may use it. */
    static final String HARNESS_ADMIN_CLIENT_ID = "harness-admin";

    private final Main.Options opt;
    private final ObjectMapper mapper;
    private final Cluster cluster;
    private final Connections connections;
    private final Map<Integer, Map<String, String>> brokerConfigs;
    /** Last time (System.nanoTime) a budget key (client-id:X, user:Y) carried measured traffic. */
    private final Map<String, Long> lastUse = new HashMap<>();
    /**
     * For a Mutation budget key: how far (ms) below empty the run that used it last may have left its token
     * bucket (strict mode accepts a topic while the bucket holds at least 0 tokens, then takes all of its
     * partitions: at most the largest topic's partitions / the rate), refilled on top of the window.
     */
    private final Map<String, Long> mutationDebtMs = new HashMap<>();
    /** Each broker's PLAINTEXT listener, looked up at the first connects workload. */
    private Map<Integer, java.net.InetSocketAddress> plaintextAddresses;
    /** The harness Admin client's connection-creation-total when last read. */
    private double lastAdminConnections;

    RunExecutor(Main.Options opt, ObjectMapper mapper, Cluster cluster, Map<Integer, Map<String, String>> brokerConfigs) {
        this.opt = opt;
        this.mapper = mapper;
        this.cluster = cluster;
        this.connections = new Connections(cluster.env,
            brokerConfigs.get(cluster.env.brokerIds.get(0)).get("ssl.principal.mapping.rules"));
        this.brokerConfigs = brokerConfigs;
        // Main's warm-up clients (and its Admin client's first connections) have just connected to every broker.
        connectionUse(System.nanoTime());
        lastAdminConnections = cluster.adminConnectionCreations();
    }

    /**
     * The budget key of broker {@code id}'s connection-rate sensors: the broker-wide one (every connection to a
     * listener other than the inter-broker one, max.connection.creation.rate), the listeners' and the per-IP one
     * of 127.0.0.1 (connection_creation_rate; it records connections while an ip quota applies). Every client of
     * the harness connects from 127.0.0.1, so any connection it opens to a broker is a sample there.
     */
    static String connectionKey(int brokerId) {
        return "Connection/broker:" + brokerId;
    }

    /** The harness may have opened a connection to any broker at {@code atNs}. */
    private void connectionUse(long atNs) {
        for (int id : cluster.env.brokerIds) lastUse.merge(connectionKey(id), atNs, Math::max);
    }

    /** Reads the harness Admin client's connection-creation-total; a new connection counts as a connection use now. */
    private double adminConnectionsNow() {
        double n = cluster.adminConnectionCreations();
        if (n > lastAdminConnections) connectionUse(System.nanoTime());
        lastAdminConnections = Math.max(lastAdminConnections, n);
        return n;
    }

    /** The outcome of one repeat: its JSON and the line for stdout. */
    record Outcome(ObjectNode json, String line, boolean ok) {}

    Outcome run(String runName, ScenarioPlan plan, int repeat) {
        ObjectNode out = mapper.createObjectNode();
        out.put("repeat", repeat);
        List<String> errors = new ArrayList<>();
        List<ClientRun> clients = new ArrayList<>();
        List<String> realTopics = new ArrayList<>();
        List<String> adminPrefixes = new ArrayList<>();
        Map<Integer, List<String>> dynamicApplied = new LinkedHashMap<>();
        ArrayNode eventsJson = out.putArray("events");
        boolean measured = false;
        try {
            execute(runName, plan, repeat, out, errors, clients, realTopics, adminPrefixes, dynamicApplied, eventsJson);
            measured = true;
        } catch (ScenarioPlan.Refused r) {
            errors.add("refused: " + r.getMessage());
        } catch (Throwable t) {
            errors.add("harness error: " + t);
        } finally {
            for (ClientRun c : clients) {
                try {
                    c.close();
                } catch (Throwable t) {
                    errors.add("closing " + c.name + ": " + t);
                }
            }
            try {
                List<String> removed = cluster.clearQuotas();
                out.put("quotas_removed_after", removed.size());
            } catch (Throwable t) {
                errors.add("removing the quotas after the run: " + t);
            }
            if (!dynamicApplied.isEmpty()) {
                try {
                    out.put("broker_settings_removed_after", removeDynamicSettings(dynamicApplied));
                } catch (Throwable t) {
                    errors.add("removing the dynamic broker settings " + dynamicApplied + " after the run: " + t);
                }
            }
            try {
                cluster.deleteTopics(realTopics);
            } catch (Throwable t) {
                errors.add("deleting topics " + realTopics + ": " + t);
            }
            // The admin workloads' topics (every topic under their prefixes, whatever the futures said), by the
            // harness's own Admin client (client.id harness-admin, which no scenario connection may use) after
            // the scenario's quotas are gone, so no quota applies to the deletion and it draws on no budget of
            // the run; waited for, so the cluster does not fill up.
            if (!adminPrefixes.isEmpty()) {
                try {
                    int n = cluster.deleteTopicsUnder(adminPrefixes);
                    out.put("admin_topics_deleted_after", n);
                } catch (Throwable t) {
                    errors.add("deleting the admin workloads' topics " + adminPrefixes + "-*: " + t);
                }
            }
            // This repeat's clients and the cleanup above may have connected to any broker until now.
            connectionUse(System.nanoTime());
            adminConnectionsNow();
        }
        String error = errors.isEmpty() ? null : String.join("; ", errors);
        if (error == null) out.putNull("error");
        else out.put("error", error);
        // Every repeat has the same keys, a run that never started included (empty clients, run null).
        if (!out.has("clients")) out.set("clients", mapper.createArrayNode());
        if (!out.has("run")) out.putNull("run");
        if (!out.has("broker_metrics")) out.set("broker_metrics", mapper.createArrayNode());
        // Keep the spec's key order: clients, run, broker_metrics, events, error first.
        ObjectNode ordered = mapper.createObjectNode();
        for (String k : List.of("clients", "run", "broker_metrics", "events", "error")) {
            if (out.has(k)) ordered.set(k, out.get(k));
        }
        out.fieldNames().forEachRemaining(k -> {
            if (!ordered.has(k)) ordered.set(k, out.get(k));
        });
        String line = line(runName, repeat, ordered, error, measured);
        return new Outcome(ordered, line, error == null);
    }

    private void execute(String runName, ScenarioPlan plan, int repeat, ObjectNode out, List<String> errors,
                         List<ClientRun> clients, List<String> realTopics, List<String> adminPrefixes,
                         Map<Integer, List<String>> dynamicApplied, ArrayNode eventsJson) throws Exception {
        // --- checks that need the cluster ---
        List<Integer> ids = cluster.env.brokerIds;
        if (plan.brokerCount > ids.size()) {
            throw new ScenarioPlan.Refused("scenario.brokers.count", plan.brokerCount + " brokers; the cluster has "
                + ids.size() + " (BROKER_IDS=" + ids + ")");
        }
        Map<String, String> dynamicSettings = new LinkedHashMap<>();
        for (var s : plan.brokerSettings.entrySet()) {
            if (DYNAMIC_SETTINGS.contains(s.getKey())) {
                long v;
                try {
                    v = Long.parseLong(s.getValue());
                } catch (NumberFormatException e) {
                    v = -1;
                }
                if (v < 1 || v > Integer.MAX_VALUE) {
                    // The config's definition says atLeast(0), but a dynamic update is validated by each listener's
                    // ConnectionQuotas.ListenerConnectionQuota.validateReconfiguration, which refuses a rate <= 0.
                    throw new ScenarioPlan.Refused("scenario.brokers.settings." + s.getKey(), s.getValue()
                        + ": an integer from 1 to " + Integer.MAX_VALUE + " (a broker refuses a dynamic "
                        + s.getKey() + " <= 0)");
                }
                dynamicSettings.put(s.getKey(), Long.toString(v));
                continue;
            }
            if (!COMPARED_SETTINGS.contains(s.getKey())) {
                throw new ScenarioPlan.Refused("scenario.brokers.settings." + s.getKey(), "unknown broker setting");
            }
            for (int b = 0; b < plan.brokerCount; b++) {
                String real = brokerConfigs.get(ids.get(b)).get(s.getKey());
                if (!sameSetting(s.getValue(), real)) {
                    throw new ScenarioPlan.Refused("scenario.brokers.settings." + s.getKey(), s.getValue()
                        + "; broker " + ids.get(b) + " has " + real + " (a static broker config: the harness does"
                        + " not restart the cluster)");
                }
            }
        }
        Map<String, Connections.Resolved> resolved = new LinkedHashMap<>();
        for (int i = 0; i < plan.connections.size(); i++) {
            ScenarioPlan.Connection c = plan.connections.get(i);
            if (HARNESS_ADMIN_CLIENT_ID.equals(c.clientId()) || HARNESS_LOOKUP_CLIENT_ID.equals(c.clientId())) {
                throw new ScenarioPlan.Refused("scenario.connections[" + i + "].client.id", "\""
                    + c.clientId() + "\" is the harness's own Admin client (it creates and deletes the"
                    + " run's topics, or looks the brokers' addresses up)");
            }
            resolved.put(c.name(), connections.resolve(c, "scenario.connections[" + i + "]"));
        }
        for (ScenarioPlan.Workload w : plan.workloads) {
            if (w.isAdmin() && w.admin().replicationFactor() > ids.size()) {
                throw new ScenarioPlan.Refused("scenario.workloads[" + w.index() + "].admin.replication_factor",
                    w.admin().replicationFactor() + "; the cluster has " + ids.size() + " brokers");
            }
        }
        boolean hasConnects = plan.workloads.stream().anyMatch(ScenarioPlan.Workload::isConnects);
        if (hasConnects && plaintextAddresses == null) {
            plaintextAddresses = cluster.plaintextAddresses();
            connectionUse(System.nanoTime());
        }
        for (ScenarioPlan.Workload w : plan.workloads) {
            if (w.isConnects() && !plaintextAddresses.containsKey(ids.get(w.connects().broker()))) {
                throw new ScenarioPlan.Refused("scenario.workloads[" + w.index() + "].connects.broker", "broker "
                    + ids.get(w.connects().broker()) + " has no PLAINTEXT listener in describeCluster on the"
                    + " PLAINTEXT bootstrap (" + plaintextAddresses + ")");
            }
        }
        if (!plan.ignored.isEmpty()) out.set("ignored", mapper.valueToTree(plan.ignored));

        // --- a clean slate: no client quota anywhere, no dynamic broker setting the harness sets ---
        List<String> removed = cluster.clearQuotas();
        out.put("quotas_removed_before", removed.size());
        // Also the harness Admin client's connection to every broker (describeConfigs on a BROKER resource goes
        // to that broker), opened here, before the run's quotas are set.
        out.put("broker_settings_removed_before", clearDynamicSettings());

        // --- topics under fresh names, then the preload (no quota is set yet, so it is not throttled) ---
        Map<String, String> topicNames = new LinkedHashMap<>();
        Set<Integer> leaderBrokers = new HashSet<>();
        String suffix = Long.toHexString(Double.doubleToLongBits(Math.random())).substring(0, 6);
        for (ScenarioPlan.Topic t : plan.topics) {
            String real = t.name() + "-" + runName + "-r" + repeat + "-" + suffix;
            if (real.length() > 249) real = real.substring(real.length() - 249);
            List<Integer> replicas = new ArrayList<>();
            for (int b : t.leaders()) replicas.add(ids.get(b));
            leaderBrokers.addAll(replicas);
            cluster.createTopic(real, replicas);
            realTopics.add(real);
            topicNames.put(t.name(), real);
        }
        out.set("topics", mapper.valueToTree(topicNames));
        for (ScenarioPlan.Topic t : plan.topics) {
            if (t.preload() != null) preload(topicNames.get(t.name()), t, plan.seed);
        }

        // --- the scenario's quotas, applied on every broker; its dynamic broker settings, on its brokers ---
        double adminConnQuota = adminConnectionsNow();
        cluster.alterQuotas(plan.quotas);
        for (int b = 0; b < plan.brokerCount && !dynamicSettings.isEmpty(); b++) {
            int id = ids.get(b);
            for (var s : dynamicSettings.entrySet()) {
                dynamicApplied.computeIfAbsent(id, k -> new ArrayList<>()).add(s.getKey());
                cluster.alterBrokerConfig(id, s.getKey(), s.getValue());
            }
        }
        double propagation = cluster.waitApplied();
        out.put("quota_propagation_ms", Main.round(propagation, 1));
        if (!dynamicSettings.isEmpty()) {
            ObjectNode applied = out.putObject("broker_settings_applied");
            for (var e : dynamicApplied.entrySet()) {
                ObjectNode o = applied.putObject(Integer.toString(e.getKey()));
                for (var ce : cluster.brokerConfigEntries(e.getKey(), e.getValue()).entrySet()) {
                    String want = dynamicSettings.get(ce.getKey());
                    org.apache.kafka.clients.admin.ConfigEntry entry = ce.getValue();
                    if (entry == null || !want.equals(entry.value())
                        || entry.source() != org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG) {
                        throw new IllegalStateException("broker " + e.getKey() + " reports " + ce.getKey() + "="
                            + (entry == null ? null : entry.value() + " (" + entry.source() + ")") + " after setting it"
                            + " to " + want);
                    }
                    o.put(ce.getKey(), entry.value());
                }
            }
        }

        // --- the clients, built before t0 ---
        for (ScenarioPlan.Workload w : plan.workloads) {
            ScenarioPlan.Connection c = plan.connection(w.connection());
            Connections.Resolved r = resolved.get(c.name());
            Properties props = new Properties();
            props.putAll(r.props());
            props.putAll(w.config());
            props.setProperty("client.id", c.clientId()); // exactly as the scenario says, "" included
            if (w.isAdmin()) {
                // <topic_prefix>-<run>-r<repeat>-<suffix>-<i>: the harness adds the run, the repeat and a random
                // suffix to the scenario's prefix, so that no repeat (nor a topic not yet deleted from an earlier
                // one) collides with another.
                String prefix = w.admin().topicPrefix() + "-" + runName + "-r" + repeat + "-" + suffix
                    + (plan.workloads.stream().filter(ScenarioPlan.Workload::isAdmin).count() > 1 ? "-w" + w.index()
                        : "");
                int room = 249 - 1 - Integer.toString(w.admin().topics() - 1).length();
                if (prefix.length() > room) prefix = prefix.substring(prefix.length() - room);
                adminPrefixes.add(prefix);
                try {
                    clients.add(new AdminRun(w, props, prefix, r.principal(), r.source()));
                } catch (org.apache.kafka.common.KafkaException e) {
                    // Admin.create refuses a bad config (e.g. a default.api.timeout.ms set below
                    // request.timeout.ms) with a ConfigException under "Failed to create new KafkaAdminClient".
                    for (Throwable t = e; t != null; t = t.getCause()) {
                        if (t instanceof org.apache.kafka.common.config.ConfigException ce) {
                            throw new ScenarioPlan.Refused("scenario.workloads[" + w.index() + "].admin.config",
                                "the Java Admin 4.3.1 refuses it: " + ce.getMessage() + " (request.timeout.ms: "
                                    + props.getProperty("request.timeout.ms", "30000, the default") + ")");
                        }
                    }
                    throw e;
                }
                continue;
            }
            if (w.isConnects()) {
                int id = ids.get(w.connects().broker());
                clients.add(new ConnectsRun(w, props, plaintextAddresses.get(id), id, r.principal(), r.source()));
                continue;
            }
            String topic = topicNames.get(w.topic());
            if (w.producer()) {
                clients.add(new ClientRun.Producer(w, props, topic, plan.seed, r.principal(), r.source()));
            } else {
                clients.add(new ClientRun.Consumer(w, props, topic, plan.topic(w.topic()).partitions(),
                    r.principal(), r.source()));
            }
        }
        if (clients.isEmpty()) throw new ScenarioPlan.Refused("scenario.workloads", "no workload to run");

        // --- let an earlier run's traffic on the same budgets leave the brokers' quota windows ---
        // A Mutation budget (controller_mutation_rate) is a token bucket that refills at the rate: full again
        // controller.quota.window.num x controller.quota.window.size.seconds after it was empty, plus what it went
        // below empty, plus a second (Main's mutationCooldownMs) -- unless --cooldown-ms says otherwise.
        Set<String> keys = budgetKeys(clients, ALL_KINDS);
        // A connects workload: its broker's connection-rate sensors (quota.window.num x quota.window.size.seconds
        // of samples) must hold none of the harness's connections, the harness Admin client's included.
        adminConnectionsNow();
        for (ClientRun c : clients) {
            if (c instanceof ConnectsRun cr) keys.add(connectionKey(cr.brokerId));
        }
        long waitUntil = 0;
        for (String k : keys) {
            Long last = lastUse.get(k);
            if (last == null) continue;
            long ms = isMutationKey(k) ? opt.mutationCooldownMs + (opt.cooldownGiven ? 0
                : mutationDebtMs.getOrDefault(k, 0L)) : opt.cooldownMs;
            waitUntil = Math.max(waitUntil, last + ms * 1_000_000L);
        }
        long cool = waitUntil - System.nanoTime();
        if (cool > 0) Thread.sleep(cool / 1_000_000L + 1);
        out.put("cooldown_ms", Main.round(Math.max(0, cool) / 1e6, 0));

        // --- t0: every workload thread waits for t0 + start_ms ---
        double adminConnT0 = adminConnectionsNow();
        long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        out.put("t0_epoch_ms", System.currentTimeMillis() + 50);
        List<Thread> threads = new ArrayList<>();
        for (ClientRun c : clients) {
            c.t0Ns = t0;
            Thread th = new Thread(c, "workload-" + c.w.index() + "-" + c.name);
            th.setDaemon(true);
            threads.add(th);
        }
        AtomicReference<Boolean> clientsDone = new AtomicReference<>(false);
        List<ObjectNode> eventResults = new ArrayList<>();
        AtomicReference<String> eventError = new AtomicReference<>();
        Thread events = null;
        if (!plan.events.isEmpty()) {
            events = new Thread(() -> runEvents(plan, t0, clientsDone, eventResults, eventError), "events");
            events.setDaemon(true);
        }
        threads.forEach(Thread::start);
        if (events != null) events.start();

        long deadline = t0 + TimeUnit.SECONDS.toNanos(opt.timeoutS);
        boolean timedOut = false;
        Set<ClientRun> stopped = new HashSet<>();
        while (true) {
            boolean alive = false;
            for (Thread th : threads) alive |= th.isAlive();
            if (!alive) break;
            long now = System.nanoTime();
            for (ClientRun c : clients) {
                if (c.w.stopMs() != null && !stopped.contains(c) && now >= t0 + c.w.stopMs() * 1_000_000L) {
                    stopped.add(c);
                    c.stopNow("stop_ms");
                }
            }
            if (now > deadline) {
                timedOut = true;
                for (ClientRun c : clients) c.stopNow("timeout");
                for (Thread th : threads) th.join(10_000);
                break;
            }
            Thread.sleep(2);
        }
        clientsDone.set(true);
        long runEnd = System.nanoTime();
        double adminConnEnd = cluster.adminConnectionCreations();
        if (hasConnects) {
            ObjectNode h = out.putObject("harness_admin_connections");
            // The harness Admin client's connection-creation-total: before the run's quotas were set, then the new
            // connections from there to t0 (the cooldown waits for them) and during the measured part.
            h.put("before_quotas", (long) adminConnQuota);
            h.put("quotas_to_t0", (long) (adminConnT0 - adminConnQuota));
            h.put("during_run", (long) (adminConnEnd - adminConnT0));
            if (adminConnEnd > adminConnT0) {
                errors.add("the harness's own Admin client opened " + Main.num(adminConnEnd - adminConnT0)
                    + " connection(s) during the measured part: the brokers' connection-rate sensors count them");
            }
        }

        // --- the brokers' quota MBeans of the budgets the run touched, read at once ---
        ArrayNode bm = out.putArray("broker_metrics");
        Set<Integer> connectBrokers = new java.util.TreeSet<>();
        for (ClientRun c : clients) if (c instanceof ConnectsRun cr) connectBrokers.add(cr.brokerId);
        for (int b : ids) {
            List<Cluster.MBeanReading> readings = new ArrayList<>(cluster.quotaMBeans(b, n -> touched(n, clients,
                leaderBrokers.contains(b))));
            if (connectBrokers.contains(b)) readings.addAll(cluster.connectionMBeans(b, "PLAINTEXT"));
            for (Cluster.MBeanReading m : readings) {
                ObjectNode o = bm.addObject();
                o.put("broker", m.broker());
                o.put("mbean", m.mbean());
                ObjectNode attrs = o.putObject("attributes");
                m.attributes().forEach((k, v) -> {
                    if (v == null) attrs.putNull(k);
                    else attrs.put(k, v);
                });
            }
        }
        if (events != null) {
            events.join(30_000);
            if (eventError.get() != null) errors.add("event: " + eventError.get());
        }
        eventResults.forEach(eventsJson::add);
        long debt = mutationDebtMs(plan);
        for (String k : budgetKeys(clients, quotaKinds(plan))) {
            lastUse.put(k, runEnd);
            if (isMutationKey(k)) mutationDebtMs.put(k, debt);
        }

        // --- the clients' figures ---
        ArrayNode cj = mapper.createArrayNode();
        double runDuration = 0;
        double runEndMs = 0;
        Double runThrottleMax = null;
        Double runThrottleAvg = null;
        long runBytes5 = 0;
        long runFailed = 0;
        Long runFetches = null;
        long runOk = 0;
        boolean allFinished = true;
        List<AdminRun> admins = new ArrayList<>();
        List<ConnectsRun> connects = new ArrayList<>();
        for (ClientRun c : clients) {
            if (c instanceof ConnectsRun cr) {
                connects.add(cr);
                cj.add(connectsJson(cr, t0));
                if (cr.endNs > 0) runEndMs = Math.max(runEndMs, (cr.endNs - t0) / 1e6);
                else allFinished = false;
                if (cr.error != null) errors.add(cr.name + ": " + cr.error);
                continue;
            }
            if (c instanceof AdminRun a) {
                admins.add(a);
                cj.add(adminJson(a, t0));
                if (a.endNs > 0) runEndMs = Math.max(runEndMs, (a.endNs - t0) / 1e6);
                else allFinished = false;
                if (a.error != null) errors.add(a.name + ": " + a.error);
                long failed = a.count("failed");
                if (failed > 0) {
                    errors.add(a.name + ": " + failed + " topics failed for another reason than the quota: "
                        + String.join(" | ", a.otherErrors(5)));
                }
                continue;
            }
            ObjectNode o = clientJson(c, t0);
            cj.add(o);
            if (c.endNs > 0) {
                runDuration = Math.max(runDuration, (c.endNs - c.startNs) / 1e6);
                runEndMs = Math.max(runEndMs, (c.endNs - t0) / 1e6);
            } else {
                allFinished = false;
            }
            runThrottleMax = maxOf(runThrottleMax, c.throttleMax());
            runThrottleAvg = maxOf(runThrottleAvg, c.throttleAvg());
            runBytes5 += o.get("bytes_first_5s").asLong();
            if (c instanceof ClientRun.Consumer k) {
                Double n = k.metricsAtEnd().get("fetch-total");
                if (n != null && !n.isNaN()) runFetches = (runFetches == null ? 0 : runFetches) + n.longValue();
            }
            runFailed += c.recordsFailed();
            runOk += c.recordsOk();
            if (c.error != null) errors.add(c.name + ": " + c.error);
            if (c.recordsFailed() > 0) {
                String first = c instanceof ClientRun.Producer p ? p.firstFailure() : null;
                errors.add(c.name + ": " + c.recordsFailed() + " records failed" + (first == null ? ""
                    : " (first: " + first + ")"));
            }
            if (c.recordsOk() < c.w.records()) {
                errors.add(c.name + ": " + c.recordsOk() + " of " + c.w.records() + " records "
                    + (c.w.producer() ? "acknowledged" : "consumed")
                    + (c.w.stopMs() != null && stopped.contains(c) ? " before its stop_ms" : ""));
            }
        }
        if (timedOut) errors.add("timed out after " + opt.timeoutS + " s");
        out.set("clients", cj);
        // The admin workloads: from their first createTopics call to their last topic future.
        long adminFirst = Long.MAX_VALUE;
        long adminLast = 0;
        for (AdminRun a : admins) {
            if (a.startNs > 0) adminFirst = Math.min(adminFirst, a.startNs);
            if (a.endNs > 0) adminLast = Math.max(adminLast, a.endNs);
        }
        if (!admins.isEmpty() && allFinished && adminFirst != Long.MAX_VALUE) {
            runDuration = Math.max(runDuration, (adminLast - adminFirst) / 1e6);
        }
        if (!admins.isEmpty()) {
            double m = 0;
            for (AdminRun a : admins) m = Math.max(m, a.throttleTimeMax());
            runThrottleMax = maxOf(runThrottleMax, m);
        }
        // The connects workloads: from their start (t0 + start_ms) to the last client's answer.
        long connectsFirst = Long.MAX_VALUE;
        long connectsLast = 0;
        for (ConnectsRun cr : connects) {
            connectsFirst = Math.min(connectsFirst, cr.startAtNs());
            connectsLast = Math.max(connectsLast, cr.endNs);
        }
        if (!connects.isEmpty()) {
            if (allFinished) runDuration = Math.max(runDuration, (connectsLast - connectsFirst) / 1e6);
            runThrottleMax = maxOf(runThrottleMax, 0.0);
        }
        ObjectNode run = out.putObject("run");
        if (allFinished) run.put("duration_ms", Main.round(runDuration, 1));
        else run.putNull("duration_ms");
        if (allFinished) run.put("end_ms", Main.round(runEndMs, 1));
        else run.putNull("end_ms");
        putNullable(run, "throttle_max_ms", runThrottleMax);
        putNullable(run, "throttle_avg_ms", runThrottleAvg);
        run.put("bytes_first_5s", runBytes5);
        run.put("records_ok", runOk);
        run.put("records_failed", runFailed);
        if (runFetches != null) run.put("fetch_requests", runFetches);
        if (!admins.isEmpty()) {
            long requested = 0;
            long created = 0;
            long throttled = 0;
            long failed = 0;
            List<String> topicErrors = new ArrayList<>();
            List<Double> createdAt = new ArrayList<>();
            List<Double> throttledAt = new ArrayList<>();
            long base = adminFirst == Long.MAX_VALUE ? t0 : adminFirst;
            for (AdminRun a : admins) {
                requested += a.spec.topics();
                for (AdminRun.TopicOutcome o : a.outcomes()) {
                    double at = Main.round((o.atNs() - base) / 1e6, 1);
                    switch (o.outcome()) {
                        case "created" -> {
                            created++;
                            createdAt.add(at);
                        }
                        case "throttled" -> {
                            throttled++;
                            throttledAt.add(at);
                        }
                        default -> {
                            failed++;
                            if (!topicErrors.contains(o.error()) && topicErrors.size() < 5) topicErrors.add(o.error());
                        }
                    }
                }
            }
            createdAt.sort(null);
            throttledAt.sort(null);
            run.put("topics_requested", requested);
            run.put("topics_created", created);
            run.put("topics_throttled", throttled);
            run.put("topics_failed", failed);
            run.set("topic_errors", mapper.valueToTree(topicErrors));
            run.set("created_at_ms", mapper.valueToTree(createdAt));
            run.set("throttled_at_ms", mapper.valueToTree(throttledAt));
        }
        if (!connects.isEmpty()) {
            long requested = 0;
            long ready = 0;
            long attempts = 0;
            long refusedFirst = 0;
            long refusals = 0;
            List<Double> closeAt = new ArrayList<>();
            List<Double> readyAt = new ArrayList<>();
            Map<String, Long> closesBy = new java.util.TreeMap<>();
            for (ConnectsRun cr : connects) {
                requested += cr.spec.count();
                ready += cr.ready();
                refusedFirst += cr.refusedFirst();
                refusals += cr.refusals();
                for (ConnectsRun.Attempt a : cr.attempts()) {
                    attempts++;
                    double at = Main.round((a.atNs() - t0) / 1e6, 1);
                    if (a.outcome().equals("closed")) closeAt.add(at);
                    if (a.outcome().equals("ready")) readyAt.add(at);
                }
                cr.closesBy().forEach((k, v) -> closesBy.merge(k, v, Long::sum));
            }
            closeAt.sort(null);
            readyAt.sort(null);
            run.put("connections_requested", requested);
            run.put("connections_ready", ready);
            run.put("connections_refused_first", refusedFirst);
            run.put("connection_refusals", refusals);
            run.put("connection_attempts", attempts);
            if (closeAt.isEmpty()) run.putNull("first_close_ms");
            else run.put("first_close_ms", closeAt.get(0));
            run.set("close_ms", mapper.valueToTree(closeAt));
            run.set("ready_ms", mapper.valueToTree(readyAt));
            run.set("closes_seen_as", mapper.valueToTree(closesBy));
        }
    }

    /** One connects workload's figures: its clients (cycles for reopen) and every attempt. */
    private ObjectNode connectsJson(ConnectsRun c, long t0) {
        ObjectNode o = mapper.createObjectNode();
        o.put("name", c.name);
        o.put("kind", c.w.kind());
        o.put("client_id", c.configuredClientId);
        o.put("client_id_effective", c.effectiveClientId);
        o.put("principal", "User:" + c.principal);
        o.put("config", c.configSource);
        o.put("pattern", c.spec.pattern());
        o.put("count", c.spec.count());
        o.put("interval_ms", c.spec.intervalMs());
        o.put("broker", c.spec.broker());
        o.put("broker_id", c.brokerId);
        o.put("address", c.address.getHostString() + ":" + c.address.getPort());
        o.put("api_versions_version", c.version);
        o.put("answer_timeout_ms", ConnectsRun.ANSWER_TIMEOUT_MS);
        o.set("client_config", mapper.valueToTree(c.w.config()));
        o.put("start_ms", Main.round((c.startAtNs() - t0) / 1e6, 1));
        o.put("first_connect_ms", c.firstConnectNs() > 0 ? Main.round((c.firstConnectNs() - t0) / 1e6, 1) : null);
        if (c.endNs > 0) {
            o.put("end_ms", Main.round((c.endNs - t0) / 1e6, 1));
            o.put("duration_ms", Main.round((c.endNs - c.startAtNs()) / 1e6, 1));
        } else {
            o.putNull("end_ms");
            o.putNull("duration_ms");
        }
        o.put("connections_ready", c.ready());
        o.put("connections_refused_first", c.refusedFirst());
        o.put("connection_refusals", c.refusals());
        o.put("connections_open_at_end", c.openConnections());
        // Per client (cycle): [ready ms or null, attempts, refusals].
        ArrayNode cl = o.putArray("clients");
        for (int k = 0; k < c.clients(); k++) {
            ArrayNode row = cl.addArray();
            long r = c.readyNs(k);
            if (r > 0) row.add(Main.round((r - t0) / 1e6, 1));
            else row.addNull();
            row.add(c.attemptsOf(k));
            row.add(c.refusalsOf(k));
        }
        // Every attempt by the time its outcome was seen: [client, attempt, connect ms, outcome ms, outcome, how,
        // the reconnect backoff drawn after a close (ms) or null].
        ArrayNode at = o.putArray("attempts");
        for (ConnectsRun.Attempt a : c.attempts()) {
            ArrayNode row = at.addArray();
            row.add(a.client());
            row.add(a.attempt());
            row.add(Main.round((a.connectNs() - t0) / 1e6, 1));
            row.add(Main.round((a.atNs() - t0) / 1e6, 1));
            row.add(a.outcome());
            row.add(a.how());
            if (a.backoffMs() >= 0) row.add(a.backoffMs());
            else row.addNull();
        }
        if (c.error != null) o.put("error", c.error);
        return o;
    }

    /**
     * Removes broker-level dynamic values of {@link #DYNAMIC_SETTINGS} from every broker of the cluster (left by
     * an earlier run that did not finish), waits until they are applied; the count removed. A cluster-wide default
     * (ConfigResource BROKER "") is not the harness's: the repeat fails on it.
     */
    private int clearDynamicSettings() throws Exception {
        int n = 0;
        for (int id : cluster.env.brokerIds) {
            for (var e : cluster.brokerConfigEntries(id, DYNAMIC_SETTINGS).entrySet()) {
                org.apache.kafka.clients.admin.ConfigEntry c = e.getValue();
                if (c == null) continue;
                if (c.source() == org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG) {
                    cluster.alterBrokerConfig(id, e.getKey(), null);
                    n++;
                } else if (c.source() == org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG) {
                    throw new IllegalStateException("the cluster has a cluster-wide dynamic " + e.getKey() + "="
                        + c.value() + " (not the harness's: remove it with kafka-configs --alter --entity-type brokers"
                        + " --entity-default --delete-config " + e.getKey() + ")");
                }
            }
        }
        if (n > 0) cluster.waitApplied();
        return n;
    }

    /** Deletes the dynamic settings the run set, waits until applied, and checks they are gone; the count removed. */
    private int removeDynamicSettings(Map<Integer, List<String>> applied) throws Exception {
        int n = 0;
        for (var e : applied.entrySet()) {
            for (String k : e.getValue()) {
                cluster.alterBrokerConfig(e.getKey(), k, null);
                n++;
            }
        }
        cluster.waitApplied();
        for (var e : applied.entrySet()) {
            for (var ce : cluster.brokerConfigEntries(e.getKey(), e.getValue()).entrySet()) {
                org.apache.kafka.clients.admin.ConfigEntry c = ce.getValue();
                if (c != null && c.source() == org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG) {
                    throw new IllegalStateException("broker " + e.getKey() + " still has the dynamic " + ce.getKey()
                        + "=" + c.value());
                }
            }
        }
        applied.clear();
        return n;
    }

    private static boolean isMutationKey(String k) {
        return k.startsWith("Mutation/");
    }

    /**
     * How far below empty (in ms of refill) the run can leave a Mutation token bucket: strict mode
     * (CreateTopics v6+) accepts a topic while the bucket is at 0 or above and then takes all its partitions,
     * so at most the largest topic's partitions / the smallest controller_mutation_rate of the run.
     */
    private static long mutationDebtMs(ScenarioPlan plan) {
        int parts = 0;
        for (ScenarioPlan.Workload w : plan.workloads) if (w.isAdmin()) parts = Math.max(parts, w.admin().partitions());
        double rate = Double.MAX_VALUE;
        List<ScenarioPlan.Quota> all = new ArrayList<>(plan.quotas);
        for (ScenarioPlan.Event e : plan.events) all.add(e.quota());
        for (ScenarioPlan.Quota q : all) {
            if ("controller_mutation_rate".equals(q.key()) && q.value() != null && q.value() > 0) {
                rate = Math.min(rate, q.value());
            }
        }
        if (parts == 0 || rate == Double.MAX_VALUE) return 0;
        return (long) Math.ceil(parts / rate * 1000);
    }

    private ObjectNode adminJson(AdminRun a, long t0) {
        ObjectNode o = mapper.createObjectNode();
        o.put("name", a.name);
        o.put("kind", a.w.kind());
        o.put("client_id", a.configuredClientId);
        o.put("client_id_effective", a.effectiveClientId);
        o.put("principal", "User:" + a.principal);
        o.put("config", a.configSource);
        o.put("operation", a.spec.operation());
        o.put("topic_prefix", a.realPrefix);
        o.put("topics_requested", a.spec.topics());
        o.put("partitions", a.spec.partitions());
        o.put("replication_factor", a.spec.replicationFactor());
        o.put("topics_per_call", a.spec.topicsPerCall());
        o.put("call_interval_ms", a.spec.callIntervalMs());
        o.put("retry_on_quota_violation", a.spec.retryOnQuotaViolation());
        if (!a.w.config().isEmpty()) o.set("client_config", mapper.valueToTree(a.w.config()));
        o.put("start_ms", a.startNs > 0 ? Main.round((a.startNs - t0) / 1e6, 1) : null);
        if (a.endNs > 0) {
            o.put("end_ms", Main.round((a.endNs - t0) / 1e6, 1));
            o.put("duration_ms", Main.round((a.endNs - a.startNs) / 1e6, 1));
        } else {
            o.putNull("end_ms");
            o.putNull("duration_ms");
        }
        ArrayNode calls = o.putArray("calls_at_ms");
        for (int k = 0; k < a.callsMade(); k++) calls.add(Main.round((a.callNs[k] - t0) / 1e6, 1));
        List<AdminRun.TopicOutcome> outs = a.outcomes();
        o.put("topics_created", a.count("created"));
        o.put("topics_throttled", a.count("throttled"));
        o.put("topics_failed", a.count("failed"));
        o.set("topic_errors", mapper.valueToTree(a.otherErrors(5)));
        o.put("throttle_max_ms", a.throttleTimeMax());
        // Each topic in completion order: [ms since t0, index, outcome, throttle_time_ms or null].
        ArrayNode topics = o.putArray("topics");
        for (AdminRun.TopicOutcome t : outs) {
            ArrayNode row = topics.addArray();
            row.add(Main.round((t.atNs() - t0) / 1e6, 1));
            row.add(Integer.parseInt(t.topic().substring(t.topic().lastIndexOf('-') + 1)));
            row.add(t.outcome());
            if (t.throttleTimeMs() == null) row.addNull();
            else row.add(t.throttleTimeMs());
        }
        ObjectNode m = o.putObject("metrics");
        a.metricsAtEnd().forEach((k, v) -> putNullable(m, k, v));
        if (a.error != null) o.put("error", a.error);
        return o;
    }

    /**
     * The budgets (quota manager type x client-id or principal) the clients draw on, for the types and
     * entity kinds given. A broker's quota manager records a client's traffic in its sensors only while some
     * quota of its type is set (ClientQuotaManager.quotasEnabled); a sensor's tags carry the user only when
     * a quota of that type names a user (or the default user), the client-id only when one names a
     * client-id; and a sensor keeps its samples for quota.window.num x quota.window.size.seconds. So a run
     * waits for an earlier one only where both drew on a budget that could be the same sensor. Client-id
     * and principal are keyed separately, which errs on the side of waiting.
     */
    private static Set<String> budgetKeys(List<ClientRun> clients, Map<String, Set<String>> kinds) {
        Set<String> keys = new HashSet<>();
        for (ClientRun c : clients) {
            List<String> types = c.w.isAdmin() ? List.of("Mutation", "Request")
                : c.w.isConnects() ? List.of("Request")
                : c.w.producer() ? List.of("Produce", "Request") : List.of("Fetch", "Request");
            for (String type : types) {
                Set<String> k = kinds.get(type);
                if (k == null) continue;
                if (k.contains("client-id")) keys.add(type + "/client-id:" + c.effectiveClientId);
                if (k.contains("user")) keys.add(type + "/user:" + c.principal);
            }
        }
        return keys;
    }

    /** Every type and entity kind: the keys a new run checks against. */
    private static final Map<String, Set<String>> ALL_KINDS = Map.of("Produce", Set.of("user", "client-id"),
        "Fetch", Set.of("user", "client-id"), "Request", Set.of("user", "client-id"),
        "Mutation", Set.of("user", "client-id"));

    /**
     * The quota manager types that had a quota at some time in the run (its quotas and its events), each with
     * the entity kinds (user, client-id) its quotas named.
     */
    private static Map<String, Set<String>> quotaKinds(ScenarioPlan plan) {
        Map<String, Set<String>> kinds = new HashMap<>();
        List<ScenarioPlan.Quota> all = new ArrayList<>(plan.quotas);
        for (ScenarioPlan.Event e : plan.events) all.add(e.quota());
        for (ScenarioPlan.Quota q : all) {
            String type = switch (q.key()) {
                case "producer_byte_rate" -> "Produce";
                case "consumer_byte_rate" -> "Fetch";
                case "request_percentage" -> "Request";
                case "controller_mutation_rate" -> "Mutation";
                default -> null;
            };
            if (type == null) continue;
            Set<String> k = kinds.computeIfAbsent(type, t -> new HashSet<>());
            for (String e : q.entity().keySet()) if (!e.equals("ip")) k.add(e);
        }
        return kinds;
    }

    private void runEvents(ScenarioPlan plan, long t0, AtomicReference<Boolean> clientsDone,
                           List<ObjectNode> results, AtomicReference<String> error) {
        for (ScenarioPlan.Event e : plan.events) {
            ObjectNode o = mapper.createObjectNode();
            o.put("at_ms", e.atMs());
            o.put("kind", "set_quota");
            o.put("quota", e.quota().describe());
            long due = t0 + e.atMs() * 1_000_000L;
            while (System.nanoTime() < due && !clientsDone.get()) {
                long left = due - System.nanoTime();
                try {
                    Thread.sleep(Math.max(1, Math.min(20, left / 1_000_000L)));
                } catch (InterruptedException ie) {
                    return;
                }
            }
            if (clientsDone.get() && System.nanoTime() < due) {
                o.putNull("applied_ms");
                o.put("skipped", "every client had finished before at_ms");
                synchronized (results) {
                    results.add(o);
                }
                continue;
            }
            try {
                long sent = System.nanoTime();
                cluster.alterQuotas(List.of(e.quota()));
                long acked = System.nanoTime();
                cluster.waitApplied();
                long applied = System.nanoTime();
                o.put("sent_ms", Main.round((sent - t0) / 1e6, 1));
                o.put("committed_ms", Main.round((acked - t0) / 1e6, 1));
                o.put("applied_ms", Main.round((applied - t0) / 1e6, 1));
            } catch (Throwable t) {
                o.putNull("applied_ms");
                o.put("error", t.toString());
                error.compareAndSet(null, "events[" + e.index() + "] " + t);
            }
            synchronized (results) {
                results.add(o);
            }
        }
    }

    /** An MBean of a budget the run used: its user / client-id keys are those of one of the run's clients. */
    private static boolean touched(ObjectName n, List<ClientRun> clients, boolean leaderBroker) {
        String user = key(n, "user");
        String cid = key(n, "client-id");
        if (user == null && cid == null) return leaderBroker && n.getKeyPropertyList().size() == 1;
        for (ClientRun c : clients) {
            boolean u = user == null || user.equals(c.principal);
            boolean k = cid == null || cid.equals(c.effectiveClientId);
            if (u && k) return true;
        }
        return false;
    }

    private static String key(ObjectName n, String k) {
        String v = n.getKeyProperty(k);
        if (v == null) return null;
        if (v.startsWith("\"")) v = ObjectName.unquote(v);
        return Sanitizer.desanitize(v);
    }

    private ObjectNode clientJson(ClientRun c, long t0) {
        ObjectNode o = mapper.createObjectNode();
        o.put("name", c.name);
        o.put("kind", c.w.kind());
        o.put("client_id", c.configuredClientId);
        o.put("client_id_effective", c.effectiveClientId);
        o.put("principal", "User:" + c.principal);
        o.put("config", c.configSource);
        boolean finished = c.endNs > 0;
        o.put("start_ms", c.startNs > 0 ? Main.round((c.startNs - t0) / 1e6, 1) : null);
        if (finished) {
            o.put("end_ms", Main.round((c.endNs - t0) / 1e6, 1));
            o.put("duration_ms", Main.round((c.endNs - c.startNs) / 1e6, 1));
        } else {
            o.putNull("end_ms");
            o.putNull("duration_ms");
        }
        o.put("records_target", c.w.records());
        o.put("records_ok", c.recordsOk());
        o.put("records_failed", c.recordsFailed());
        putNullable(o, "record_retry_total", c.retryTotal());
        List<long[]> progress = c.progress();
        long first5 = 0;
        long total = 0;
        for (long[] p : progress) {
            if (p[0] < 5_000_000_000L) first5 = p[1];
            total = p[1];
        }
        o.put("bytes_ok", total);
        o.put("bytes_first_5s", first5);
        putNullable(o, "throttle_avg_ms", c.throttleAvg());
        putNullable(o, "throttle_max_ms", c.throttleMax());
        double[] lat = c.latencies();
        if (lat != null && lat.length > 0) {
            o.put("latency_p50_ms", Main.round(lat[(int) (lat.length * 0.5)], 1));
            o.put("latency_p99_ms", Main.round(lat[(int) (lat.length * 0.99)], 1));
            o.put("latency_max_ms", Main.round(lat[lat.length - 1], 1));
        } else {
            o.putNull("latency_p50_ms");
            o.putNull("latency_p99_ms");
        }
        Map<String, Double> metrics = c instanceof ClientRun.Producer p ? p.metricsAtEnd()
            : ((ClientRun.Consumer) c).metricsAtEnd();
        ObjectNode m = o.putObject("metrics");
        metrics.forEach((k, v) -> putNullable(m, k, v));
        ArrayNode pr = o.putArray("progress");
        for (long[] p : thin(progress, opt.maxPoints)) {
            ArrayNode pt = pr.addArray();
            pt.add(Main.round(p[0] / 1e6, 1));
            pt.add(p[1]);
        }
        if (c.error != null) o.put("error", c.error);
        return o;
    }

    /**
     * At most {@code max} points of a cumulative curve: the first point, then the last point of each of
     * {@code max - 1} equal time slices (so every step's end is kept to within one slice).
     */
    static List<long[]> thin(List<long[]> points, int max) {
        if (points.size() <= max) return points;
        long first = points.get(0)[0];
        long last = points.get(points.size() - 1)[0];
        int slices = max - 1;
        double width = Math.max(1, (double) (last - first) / slices);
        List<long[]> out = new ArrayList<>();
        out.add(points.get(0));
        int current = -1;
        long[] pending = null;
        for (int i = 1; i < points.size(); i++) {
            long[] p = points.get(i);
            int s = (int) Math.min(slices - 1, (p[0] - first) / width);
            if (s != current && pending != null) out.add(pending);
            current = s;
            pending = p;
        }
        if (pending != null) out.add(pending);
        return out;
    }

    private void preload(String topic, ScenarioPlan.Topic t, long seed) throws Exception {
        Properties props = new Properties();
        props.putAll(cluster.env.clientProperties("PLAINTEXT_CONFIG", "plaintext.properties", "PLAINTEXT_BOOTSTRAP"));
        props.setProperty("client.id", "harness-preload");
        props.setProperty("acks", "all");
        props.setProperty("batch.size", Integer.toString(t.preload().batchSize()));
        byte[][] payloads = ClientRun.payloads(seed + 1, t.preload().recordSize());
        AtomicLong failed = new AtomicLong();
        AtomicReference<Exception> first = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(props, new ByteArraySerializer(),
            new ByteArraySerializer())) {
            for (long i = 0; i < t.preload().records(); i++) {
                int partition = (int) (i % t.partitions());
                p.send(new ProducerRecord<>(topic, partition, null, null, payloads[(int) (i % payloads.length)]),
                    (md, ex) -> {
                        if (ex != null) {
                            failed.incrementAndGet();
                            first.compareAndSet(null, ex);
                        }
                    });
            }
            p.flush();
            p.close(Duration.ofSeconds(10));
        }
        if (failed.get() > 0) {
            throw new IllegalStateException("preload of " + topic + ": " + failed.get() + " records failed, first: "
                + first.get());
        }
    }

    private static boolean sameSetting(String wanted, String real) {
        if (real == null) return false;
        if (wanted.equals(real)) return true;
        try {
            return Double.parseDouble(wanted) == Double.parseDouble(real);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static Double maxOf(Double a, Double b) {
        if (a == null) return b;
        if (b == null) return a;
        return Math.max(a, b);
    }

    static void putNullable(ObjectNode o, String k, Double v) {
        if (v == null || !Double.isFinite(v)) o.putNull(k);
        else o.put(k, Main.round(v, 3));
    }

    private static String line(String runName, int repeat, ObjectNode r, String error, boolean measured) {
        StringBuilder sb = new StringBuilder();
        sb.append(runName).append(" #").append(repeat).append(": ");
        ObjectNode run = r.get("run") instanceof ObjectNode o ? o : null;
        if (run != null) {
            sb.append(fmt(run.get("duration_ms"), "%.0f ms"));
            sb.append(", throttle max=").append(fmt(run.get("throttle_max_ms"), "%.0f ms"));
            sb.append(" avg=").append(fmt(run.get("throttle_avg_ms"), "%.1f ms"));
            sb.append(", first 5 s=").append(String.format(Locale.ROOT, "%.1f MB",
                run.get("bytes_first_5s").asLong() / 1e6));
            sb.append(", failed=").append(run.get("records_failed").asLong());
            if (run.has("fetch_requests")) sb.append(", fetches=").append(run.get("fetch_requests").asLong());
            if (run.has("connections_requested")) {
                sb.append(", ready=").append(run.get("connections_ready").asLong()).append('/')
                    .append(run.get("connections_requested").asLong())
                    .append(" refused first=").append(run.get("connections_refused_first").asLong())
                    .append(" refusals=").append(run.get("connection_refusals").asLong())
                    .append(" first close=").append(fmt(run.get("first_close_ms"), "%.0f ms"));
            }
            if (run.has("topics_requested")) {
                sb.append(", topics created=").append(run.get("topics_created").asLong()).append('/')
                    .append(run.get("topics_requested").asLong())
                    .append(" throttled=").append(run.get("topics_throttled").asLong())
                    .append(" failed=").append(run.get("topics_failed").asLong());
            }
            int n = r.get("clients").size();
            if (n > 1) sb.append(", clients=").append(n);
        } else {
            sb.append(measured ? "no figures" : "not run");
        }
        sb.append(error == null ? " [ok]" : " [FAILED: " + error + "]");
        return sb.toString();
    }

    private static String fmt(com.fasterxml.jackson.databind.JsonNode v, String f) {
        if (v == null || v.isNull()) return "n/a";
        return String.format(Locale.ROOT, f, v.asDouble());
    }
}
