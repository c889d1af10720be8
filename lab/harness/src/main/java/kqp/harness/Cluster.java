package kqp.harness;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import javax.management.Attribute;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The cluster as the harness drives it: an Admin client on ADMIN_BOOTSTRAP
 * (quotas, topics, broker configs) and a JMX connection per broker (quota
 * MBeans, and the signal that a metadata change has been applied).
 *
 * <p>Quota alterations go to the KRaft controller, which answers once the
 * record is committed; each broker then applies it from the metadata log.
 * {@link #waitApplied} waits for that on every broker: it reads the
 * metadata log's high watermark after the alteration returned (Admin
 * describeMetadataQuorum: every committed record, ours included, is below
 * it) and polls each broker's {@code kafka.server:type=broker-metadata-metrics}
 * {@code last-applied-record-offset} until it has reached it. The broker's
 * MetadataLoader sets that gauge only after every metadata publisher (the
 * DynamicClientQuotaPublisher, which updates the quota managers, and the
 * publisher that makes a broker the leader of a new partition) has run on
 * the new image, so once it has reached the offset the broker enforces the
 * new quota and serves the new topic. (DescribeClientQuotas would not do:
 * the broker answers it from its metadata cache, and the Admin client sends
 * it to the least loaded broker, not to one of our choosing.)
 */
final class Cluster implements AutoCloseable {
    static final String METADATA_MBEAN = "kafka.server:type=broker-metadata-metrics";
    static final String APPLIED_ATTR = "last-applied-record-offset";

    final Env env;
    final Admin admin;
    final Properties adminProps;
    private final Map<Integer, JMXConnector> connectors = new TreeMap<>();
    private final Map<Integer, MBeanServerConnection> jmx = new TreeMap<>();
    final Map<Integer, String> jmxProblems = new TreeMap<>();
    String propagationSignal = "broker-metadata-metrics:last-applied-record-offset >= metadata high watermark - 1";

    Cluster(Env env) throws IOException {
        this.env = env;
        adminProps = env.clientProperties("ADMIN_CONFIG", "admin.properties", "ADMIN_BOOTSTRAP");
        adminProps.setProperty(AdminClientConfig.CLIENT_ID_CONFIG, "harness-admin");
        adminProps.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        admin = Admin.create(adminProps);
        for (int id : env.brokerIds) {
            String hp = env.jmx(id);
            if (hp == null) {
                jmxProblems.put(id, "no BROKER_" + id + "_JMX in the env");
                continue;
            }
            try {
                JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + hp + "/jmxrmi");
                JMXConnector c = JMXConnectorFactory.connect(url);
                connectors.put(id, c);
                jmx.put(id, c.getMBeanServerConnection());
            } catch (IOException e) {
                jmxProblems.put(id, "JMX at " + hp + ": " + e);
            }
        }
        if (!jmxProblems.isEmpty()) {
            propagationSignal = "no JMX on every broker (" + jmxProblems + "): describeClientQuotas plus a 2 s wait";
        }
    }

    boolean hasJmx(int broker) {
        return jmx.containsKey(broker);
    }

    /** The brokers the Admin client sees, by id. */
    List<Integer> liveBrokers() throws Exception {
        List<Integer> ids = new ArrayList<>();
        for (Node n : admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)) ids.add(n.id());
        ids.sort(null);
        return ids;
    }

    /** The values of {@code names} in broker {@code id}'s configuration (static and dynamic). */
    Map<String, String> brokerConfigs(int id, Collection<String> names) throws Exception {
        ConfigResource r = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(id));
        Config c = admin.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
        Map<String, String> out = new LinkedHashMap<>();
        for (String n : names) {
            ConfigEntry e = c.get(n);
            out.put(n, e == null ? null : e.value());
        }
        return out;
    }

    /** The entries of {@code names} in broker {@code id}'s configuration, with their sources (null when absent). */
    Map<String, ConfigEntry> brokerConfigEntries(int id, Collection<String> names) throws Exception {
        ConfigResource r = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(id));
        Config c = admin.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
        Map<String, ConfigEntry> out = new LinkedHashMap<>();
        for (String n : names) out.put(n, c.get(n));
        return out;
    }

    /**
     * Sets ({@code value} non-null) or deletes (null) broker {@code id}'s own dynamic config {@code name}
     * (incrementalAlterConfigs on ConfigResource BROKER "id"); returns once the controller has committed it
     * (not yet applied: {@link #waitApplied}).
     */
    void alterBrokerConfig(int id, String name, String value) throws Exception {
        ConfigResource r = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(id));
        AlterConfigOp op = value == null
            ? new AlterConfigOp(new ConfigEntry(name, ""), AlterConfigOp.OpType.DELETE)
            : new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
        admin.incrementalAlterConfigs(Map.of(r, List.of(op))).all().get(30, TimeUnit.SECONDS);
    }

    /** The harness Admin client's connection-creation-total (every connection it has opened, to any broker). */
    double adminConnectionCreations() {
        Double v = ClientRun.metric(admin.metrics(), "admin-client-metrics", "connection-creation-total");
        return v == null ? 0 : v;
    }

    /**
     * Each broker's PLAINTEXT listener (host:port by broker id), from describeCluster on the PLAINTEXT bootstrap:
     * a throwaway Admin client (client.id harness-plaintext-lookup), closed before this returns.
     */
    Map<Integer, InetSocketAddress> plaintextAddresses() throws Exception {
        Properties p = env.clientProperties("PLAINTEXT_CONFIG", "plaintext.properties", "PLAINTEXT_BOOTSTRAP");
        p.setProperty(AdminClientConfig.CLIENT_ID_CONFIG, "harness-plaintext-lookup");
        Map<Integer, InetSocketAddress> out = new TreeMap<>();
        try (Admin a = Admin.create(p)) {
            for (Node n : a.describeCluster().nodes().get(30, TimeUnit.SECONDS)) {
                out.put(n.id(), new InetSocketAddress(n.host(), n.port()));
            }
        }
        return out;
    }

    // ---- quotas -------------------------------------------------------------------------------------------

    static ClientQuotaEntity entity(Map<String, String> e) {
        Map<String, String> m = new HashMap<>();
        for (var kv : e.entrySet()) {
            String type = switch (kv.getKey()) {
                case "user" -> ClientQuotaEntity.USER;
                case "client-id" -> ClientQuotaEntity.CLIENT_ID;
                case "ip" -> ClientQuotaEntity.IP;
                default -> throw new IllegalArgumentException("entity type " + kv.getKey());
            };
            m.put(type, kv.getValue()); // null = the default entity
        }
        return new ClientQuotaEntity(m);
    }

    /** Every client quota on the cluster, as described now. */
    Map<ClientQuotaEntity, Map<String, Double>> describeQuotas() throws Exception {
        return admin.describeClientQuotas(ClientQuotaFilter.all()).entities().get(30, TimeUnit.SECONDS);
    }

    /**
     * Removes every client quota on the cluster and waits until each broker has applied that.
     * Returns what was removed (as text), empty if there was nothing.
     */
    List<String> clearQuotas() throws Exception {
        Map<ClientQuotaEntity, Map<String, Double>> all = describeQuotas();
        List<String> removed = new ArrayList<>();
        if (all.isEmpty()) return removed;
        List<ClientQuotaAlteration> alts = new ArrayList<>();
        for (var e : all.entrySet()) {
            List<ClientQuotaAlteration.Op> ops = new ArrayList<>();
            for (String key : e.getValue().keySet()) ops.add(new ClientQuotaAlteration.Op(key, null));
            alts.add(new ClientQuotaAlteration(e.getKey(), ops));
            removed.add(e.getKey().entries() + " " + e.getValue());
        }
        admin.alterClientQuotas(alts).all().get(30, TimeUnit.SECONDS);
        waitApplied();
        Map<ClientQuotaEntity, Map<String, Double>> left = describeQuotas();
        if (!left.isEmpty()) throw new IllegalStateException("client quotas left after removing them all: " + left);
        return removed;
    }

    /**
     * Sends the quotas (in order; several keys of one entity go in one alteration, the last value of a key
     * wins) and returns once the controller has committed them (not yet applied by the brokers).
     */
    void alterQuotas(List<ScenarioPlan.Quota> quotas) throws Exception {
        if (quotas.isEmpty()) return;
        Map<ClientQuotaEntity, Map<String, Double>> byEntity = new LinkedHashMap<>();
        for (ScenarioPlan.Quota q : quotas) {
            byEntity.computeIfAbsent(entity(q.entity()), k -> new LinkedHashMap<>()).put(q.key(), q.value());
        }
        List<ClientQuotaAlteration> alts = new ArrayList<>();
        for (var e : byEntity.entrySet()) {
            List<ClientQuotaAlteration.Op> ops = new ArrayList<>();
            for (var kv : e.getValue().entrySet()) ops.add(new ClientQuotaAlteration.Op(kv.getKey(), kv.getValue()));
            alts.add(new ClientQuotaAlteration(e.getKey(), ops));
        }
        admin.alterClientQuotas(alts).all().get(30, TimeUnit.SECONDS);
    }

    /**
     * Waits until every broker has applied every metadata record committed before this call; returns the
     * time it took (ms).
     */
    double waitApplied() throws Exception {
        long start = System.nanoTime();
        if (!jmxProblems.isEmpty()) {
            Thread.sleep(2000);
            return (System.nanoTime() - start) / 1e6;
        }
        long hw = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).highWatermark();
        long target = hw - 1;
        long deadline = start + TimeUnit.SECONDS.toNanos(20);
        for (var e : jmx.entrySet()) {
            while (true) {
                Object v = e.getValue().getAttribute(new ObjectName(METADATA_MBEAN), APPLIED_ATTR);
                long applied = ((Number) v).longValue();
                if (applied >= target) break;
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("broker " + e.getKey() + " has applied metadata up to offset "
                        + applied + " after 20 s, not " + target);
                }
                Thread.sleep(1);
            }
        }
        return (System.nanoTime() - start) / 1e6;
    }

    // ---- topics -------------------------------------------------------------------------------------------

    /** Creates a topic with replication factor 1, partition p on broker {@code replicas.get(p)}, and waits
     *  until every broker knows it and each partition's leader is the one asked for. */
    void createTopic(String name, List<Integer> replicas) throws Exception {
        Map<Integer, List<Integer>> assignment = new LinkedHashMap<>();
        for (int p = 0; p < replicas.size(); p++) assignment.put(p, List.of(replicas.get(p)));
        admin.createTopics(List.of(new NewTopic(name, assignment))).all().get(30, TimeUnit.SECONDS);
        waitApplied();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            String problem = null;
            try {
                TopicDescription d = admin.describeTopics(List.of(name)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(name);
                for (TopicPartitionInfo pi : d.partitions()) {
                    int want = replicas.get(pi.partition());
                    if (pi.leader() == null || pi.leader().id() != want) {
                        problem = "partition " + pi.partition() + " led by " + (pi.leader() == null ? "none"
                            : pi.leader().id()) + ", not " + want;
                    }
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) throw e;
                problem = "unknown yet";
            }
            if (problem == null) return;
            if (System.nanoTime() > deadline) throw new IllegalStateException("topic " + name + ": " + problem);
            Thread.sleep(20);
        }
    }

    void deleteTopics(Collection<String> names) throws Exception {
        if (names.isEmpty()) return;
        admin.deleteTopics(names).all().get(30, TimeUnit.SECONDS);
    }

    /**
     * Deletes every topic named {@code <prefix>-*} for one of the prefixes, then waits until the cluster
     * lists none of them and every broker has applied the deletion; returns how many it deleted.
     */
    int deleteTopicsUnder(Collection<String> prefixes) throws Exception {
        List<String> names = topicsUnder(prefixes);
        if (names.isEmpty()) return 0;
        admin.deleteTopics(names).all().get(60, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            List<String> left = topicsUnder(prefixes);
            if (left.isEmpty()) break;
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(left.size() + " topics still listed 60 s after their deletion, e.g. "
                    + left.get(0));
            }
            Thread.sleep(50);
        }
        waitApplied();
        return names.size();
    }

    private List<String> topicsUnder(Collection<String> prefixes) throws Exception {
        List<String> out = new ArrayList<>();
        for (String t : admin.listTopics().names().get(30, TimeUnit.SECONDS)) {
            for (String p : prefixes) {
                if (t.startsWith(p + "-")) {
                    out.add(t);
                    break;
                }
            }
        }
        out.sort(null);
        return out;
    }

    // ---- broker metrics -----------------------------------------------------------------------------------

    record MBeanReading(int broker, String mbean, Map<String, Object> keys, Map<String, Double> attributes) {}

    /**
     * Every MBean of {@code kafka.server:type=Produce|Fetch|Request,*} on broker {@code id} that
     * {@code keep} accepts, with every numeric attribute (NaN and infinities as null).
     */
    List<MBeanReading> quotaMBeans(int id, Predicate<ObjectName> keep) throws Exception {
        List<MBeanReading> out = new ArrayList<>();
        MBeanServerConnection c = jmx.get(id);
        if (c == null) return out;
        for (String type : List.of("Produce", "Fetch", "Request")) {
            Set<ObjectName> names = c.queryNames(new ObjectName("kafka.server:type=" + type + ",*"), null);
            List<ObjectName> sorted = new ArrayList<>(names);
            sorted.sort((a, b) -> a.getCanonicalName().compareTo(b.getCanonicalName()));
            for (ObjectName n : sorted) {
                if (!keep.test(n)) continue;
                MBeanAttributeInfo[] infos;
                try {
                    infos = c.getMBeanInfo(n).getAttributes();
                } catch (javax.management.InstanceNotFoundException gone) {
                    continue; // expired between the query and the read
                }
                String[] attrNames = new String[infos.length];
                for (int i = 0; i < infos.length; i++) attrNames[i] = infos[i].getName();
                Map<String, Double> attrs = new TreeMap<>();
                for (Attribute a : c.getAttributes(n, attrNames).asList()) {
                    if (a.getValue() instanceof Number num) {
                        double d = num.doubleValue();
                        attrs.put(a.getName(), Double.isFinite(d) ? d : null);
                    }
                }
                Map<String, Object> keys = new TreeMap<>(n.getKeyPropertyList());
                out.add(new MBeanReading(id, n.getCanonicalName(), keys, attrs));
            }
        }
        return out;
    }

    /**
     * Broker {@code id}'s connection-rate MBeans: {@code kafka.server:type=socket-server-metrics} (the broker-wide
     * broker-connection-accept-rate), {@code ...,listener=L} (the listener's connection-accept-rate and its
     * connection-accept-throttle-time / ip-connection-accept-throttle-time), {@code ...,ip=A} (the per-IP
     * connection-accept-rate, present once an ip quota recorded a connection), and the listener's
     * {@code kafka.network:type=Acceptor,name=AcceptorBlockedPercent}; every numeric attribute.
     */
    List<MBeanReading> connectionMBeans(int id, String listener) throws Exception {
        List<MBeanReading> out = new ArrayList<>();
        MBeanServerConnection c = jmx.get(id);
        if (c == null) return out;
        List<ObjectName> names = new ArrayList<>();
        for (ObjectName n : c.queryNames(new ObjectName("kafka.server:type=socket-server-metrics,*"), null)) {
            Map<String, String> keys = n.getKeyPropertyList();
            if (keys.size() == 1 || keys.size() == 2 && (listener.equals(keys.get("listener")) || keys.containsKey("ip"))) {
                names.add(n);
            }
        }
        names.addAll(c.queryNames(new ObjectName("kafka.network:type=Acceptor,name=AcceptorBlockedPercent,listener="
            + listener), null));
        names.sort((a, b) -> a.getCanonicalName().compareTo(b.getCanonicalName()));
        for (ObjectName n : names) {
            MBeanAttributeInfo[] infos;
            try {
                infos = c.getMBeanInfo(n).getAttributes();
            } catch (javax.management.InstanceNotFoundException gone) {
                continue;
            }
            String[] attrNames = new String[infos.length];
            for (int i = 0; i < infos.length; i++) attrNames[i] = infos[i].getName();
            Map<String, Double> attrs = new TreeMap<>();
            for (Attribute a : c.getAttributes(n, attrNames).asList()) {
                if (a.getValue() instanceof Number num) {
                    double d = num.doubleValue();
                    attrs.put(a.getName(), Double.isFinite(d) ? d : null);
                }
            }
            out.add(new MBeanReading(id, n.getCanonicalName(), new TreeMap<>(n.getKeyPropertyList()), attrs));
        }
        return out;
    }

    @Override
    public void close() {
        admin.close(java.time.Duration.ofSeconds(10));
        for (JMXConnector c : connectors.values()) {
            try {
                c.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
