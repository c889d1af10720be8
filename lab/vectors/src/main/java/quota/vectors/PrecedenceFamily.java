package quota.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import kafka.server.QuotaFactory;
import kafka.server.metadata.ClientQuotaMetadataManager;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metadata.ClientQuotaRecord;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.MockTime;
import org.apache.kafka.image.ClientQuotasDelta;
import org.apache.kafka.image.ClientQuotasImage;
import org.apache.kafka.network.Session;
import org.apache.kafka.server.config.ClientQuotaManagerConfig;
import org.apache.kafka.server.config.QuotaConfig;
import org.apache.kafka.server.quota.ClientQuotaManager;
import org.apache.kafka.server.quota.ClientSensors;
import org.apache.kafka.server.quota.QuotaType;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * precedence.json: ClientQuotaManager (with its built-in DefaultQuotaCallback) at the default 11 x 1 s
 * config. A set / remove step is a ClientQuotaRecord (producer_byte_rate for PRODUCE, consumer_byte_rate
 * for FETCH) replayed into a ClientQuotasDelta and handed to the broker's ClientQuotaMetadataManager,
 * which maps the metadata entity to the quota manager's entity (sanitizing user names) and calls
 * ClientQuotaManager.updateQuota: the broker's own path from the metadata log to the quota manager.
 */
final class PrecedenceFamily implements Family {
    private static final double UNLIMITED = (double) Long.MAX_VALUE;

    @Override
    public String name() {
        return "precedence";
    }

    @Override
    public List<String> artifacts() {
        return List.of("kafka-clients", "kafka-server", "kafka-server-common", "kafka-metadata", "kafka_2.13", "kafka-clients:test");
    }

    @Override
    public List<String> kafkaClasses() {
        return List.of(
            "org.apache.kafka.server.quota.ClientQuotaManager incl. private DefaultQuotaCallback",
            "org.apache.kafka.server.quota.ClientSensors",
            "org.apache.kafka.server.quota.SensorAccess",
            "org.apache.kafka.server.config.ClientQuotaManagerConfig",
            "org.apache.kafka.network.Session",
            "org.apache.kafka.common.utils.Sanitizer",
            "org.apache.kafka.common.metrics.Metrics",
            "kafka.server.metadata.ClientQuotaMetadataManager (accept, transferToClientQuotaEntity)",
            "kafka.server.QuotaFactory.QuotaManagers",
            "org.apache.kafka.image.ClientQuotasDelta",
            "org.apache.kafka.image.ClientQuotaImage (dataToEntity)",
            "org.apache.kafka.common.metadata.ClientQuotaRecord");
    }

    @Override
    public void provenanceNotes(ObjectNode p) {
        p.put("quota_updates", "set / remove steps are ClientQuotaRecords replayed into a ClientQuotasDelta and passed to "
            + "kafka.server.metadata.ClientQuotaMetadataManager.accept, which calls ClientQuotaManager.updateQuota; "
            + "QuotaManagers holds only the manager under test (the other managers are null: the records only touch it)");
        p.put("null_bounds", "quota_limit / sensor_bound are null where the bound is Long.MAX_VALUE (no quota applies)");
    }

    @Override
    public ObjectNode replay(JsonNode in) throws Exception {
        String type = Family.need(in, "quota_type").asText();
        QuotaType quotaType;
        String key;
        if (type.equals("PRODUCE")) {
            quotaType = QuotaType.PRODUCE;
            key = QuotaConfig.PRODUCER_BYTE_RATE_OVERRIDE_CONFIG;
        } else if (type.equals("FETCH")) {
            quotaType = QuotaType.FETCH;
            key = QuotaConfig.CONSUMER_BYTE_RATE_OVERRIDE_CONFIG;
        } else {
            throw new IllegalArgumentException("quota_type " + type);
        }

        MockTime time = new MockTime(0, 0, 0);
        Metrics metrics = Internals.metrics(time);
        ClientQuotaManager mgr = new ClientQuotaManager(new ClientQuotaManagerConfig(), metrics, quotaType, time, "vectors-");
        QuotaFactory.QuotaManagers managers = new QuotaFactory.QuotaManagers(
            quotaType == QuotaType.FETCH ? mgr : null,
            quotaType == QuotaType.PRODUCE ? mgr : null,
            null, null, null, null, null, Optional.empty());
        ClientQuotaMetadataManager metadata = new ClientQuotaMetadataManager(managers, null);

        ArrayNode steps = Json.arr();
        int queries = 0;
        try {
            for (JsonNode st : Family.need(in, "steps")) {
                String op = Family.need(st, "op").asText();
                ObjectNode out = Json.obj();
                out.put("op", op);
                switch (op) {
                    case "set":
                    case "remove": {
                        JsonNode entity = Family.need(st, "entity");
                        out.set("entity", entity);
                        ClientQuotaRecord record = new ClientQuotaRecord().setEntity(entityData(entity)).setKey(key);
                        if (op.equals("set")) {
                            out.set("value", st.get("value"));
                            record.setValue(Json.dblOf(st.get("value")));
                        } else {
                            record.setRemove(true);
                        }
                        ClientQuotasDelta delta = new ClientQuotasDelta(ClientQuotasImage.EMPTY);
                        delta.replay(record);
                        metadata.accept(delta);
                        Logs.failOnKafkaWarnings("precedence " + in.get("id").asText() + " step " + steps.size());
                        out.put("quota_types_enabled", mgr.quotaTypesEnabled());
                        break;
                    }
                    case "query": {
                        queries++;
                        String user = Family.need(st, "user").asText();
                        String clientId = Family.need(st, "client_id").asText();
                        out.put("user", user);
                        out.put("client_id", clientId);
                        Session session = new Session(new KafkaPrincipal(KafkaPrincipal.USER_TYPE, user), InetAddress.getLoopbackAddress());
                        out.put("sanitized_user", session.sanitizedUser);
                        out.put("quotas_enabled", mgr.quotasEnabled());
                        out.put("quota_types_enabled", mgr.quotaTypesEnabled());
                        Double sensorBound = null;
                        if (mgr.quotasEnabled()) {
                            // As the broker does: sensors are only created (and recorded to) when quotas are enabled.
                            ClientSensors sensors = mgr.getOrCreateQuotaSensors(session, clientId);
                            ObjectNode tags = out.putObject("metric_tags");
                            for (Map.Entry<String, String> e : sensors.metricTags().entrySet()) tags.put(e.getKey(), e.getValue());
                            out.put("sensor_name", sensors.quotaSensor().name());
                            MetricName name = metrics.metricName("byte-rate", quotaType.toString(), "", sensors.metricTags());
                            KafkaMetric metric = metrics.metric(name);
                            if (metric == null) throw new IllegalStateException("no quota metric " + name);
                            sensorBound = metric.config().quota().bound();
                        } else {
                            out.putNull("metric_tags");
                            out.putNull("sensor_name");
                        }
                        out.set("quota_limit", bound(mgr.quota(user, clientId).bound()));
                        out.set("sensor_bound", sensorBound == null ? Json.F.nullNode() : bound(sensorBound));
                        break;
                    }
                    default:
                        throw new IllegalArgumentException("unknown precedence op " + op);
                }
                steps.add(out);
            }
        } finally {
            mgr.shutdown();
            metrics.close();
        }

        ObjectNode c = Json.obj();
        c.set("id", in.get("id"));
        c.set("description", in.get("description"));
        c.put("quota_type", type);
        c.set("steps", steps);
        ObjectNode summary = c.putObject("summary");
        summary.put("steps", steps.size());
        summary.put("queries", queries);
        return c;
    }

    private static JsonNode bound(double b) {
        return b == UNLIMITED ? Json.F.nullNode() : Json.dbl(b);
    }

    /** {"user": name|null, "client-id": name|null} -> ClientQuotaRecord entity data (null = default entity). */
    private static List<ClientQuotaRecord.EntityData> entityData(JsonNode entity) {
        List<ClientQuotaRecord.EntityData> out = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : entity.properties()) {
            if (!e.getKey().equals(ClientQuotaEntity.USER) && !e.getKey().equals(ClientQuotaEntity.CLIENT_ID)) {
                throw new IllegalArgumentException("entity type " + e.getKey());
            }
            out.add(new ClientQuotaRecord.EntityData().setEntityType(e.getKey()).setEntityName(Json.strOrNull(e.getValue())));
        }
        return out;
    }
}
