package quota.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.message.AlterClientQuotasRequestData;
import org.apache.kafka.common.metadata.ClientQuotaRecord;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.requests.AlterClientQuotasRequest;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.server.common.ApiMessageAndVersion;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * validation.json: the controller's ClientQuotaControlManager.
 *
 * <p>Each alteration list is encoded as an AlterClientQuotasRequestData (entity pairs in wire order,
 * ops with key / value / remove) and decoded by AlterClientQuotasRequest.entries(), exactly as the
 * controller receives it. {@code setup} goes through alterClientQuotas and its records are replayed into
 * the manager. The per-stage {@code checks} call the manager's own validateEntity (private),
 * configKeysForEntityType and validateQuotaKeyValue (package-private) by reflection; the results and
 * records are alterClientQuotas's ControllerResult (package-private class, read by reflection).
 */
final class ValidationFamily implements Family {
    private static final String CQCM = "org.apache.kafka.controller.ClientQuotaControlManager";
    private static final Constructor<?> BUILDER;
    private static final Method BUILD;
    private static final Method ALTER;
    private static final Method REPLAY;
    private static final Method VALIDATE_ENTITY;
    private static final Method CONFIG_KEYS;
    private static final Method VALIDATE_KEY_VALUE;
    private static final Method RESULT_RECORDS;
    private static final Method RESULT_RESPONSE;

    static {
        try {
            Class<?> mgr = Class.forName(CQCM);
            Class<?> builder = Class.forName(CQCM + "$Builder");
            Class<?> result = Class.forName("org.apache.kafka.controller.ControllerResult");
            BUILDER = builder.getDeclaredConstructor();
            BUILD = builder.getDeclaredMethod("build");
            ALTER = mgr.getDeclaredMethod("alterClientQuotas", java.util.Collection.class);
            REPLAY = mgr.getDeclaredMethod("replay", ClientQuotaRecord.class);
            VALIDATE_ENTITY = mgr.getDeclaredMethod("validateEntity", ClientQuotaEntity.class, Map.class);
            CONFIG_KEYS = mgr.getDeclaredMethod("configKeysForEntityType", Map.class, Map.class);
            VALIDATE_KEY_VALUE = mgr.getDeclaredMethod("validateQuotaKeyValue", Map.class, String.class, double.class);
            RESULT_RECORDS = result.getDeclaredMethod("records");
            RESULT_RESPONSE = result.getDeclaredMethod("response");
            for (var m : List.of(BUILDER, BUILD, ALTER, REPLAY, VALIDATE_ENTITY, CONFIG_KEYS, VALIDATE_KEY_VALUE,
                                 RESULT_RECORDS, RESULT_RESPONSE)) {
                m.setAccessible(true);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("ClientQuotaControlManager API not as in Kafka 4.3.1", e);
        }
    }

    @Override
    public String name() {
        return "validation";
    }

    @Override
    public List<String> artifacts() {
        return List.of("kafka-clients", "kafka-metadata", "kafka-server-common");
    }

    @Override
    public List<String> kafkaClasses() {
        return List.of(
            "org.apache.kafka.controller.ClientQuotaControlManager (Builder, alterClientQuotas, replay, validateEntity, "
                + "configKeysForEntityType, validateQuotaKeyValue, getErrorForIntegralQuotaValue, isValidIpEntity)",
            "org.apache.kafka.controller.ControllerResult",
            "org.apache.kafka.controller.QuorumController (MAX_RECORDS_PER_USER_OP)",
            "org.apache.kafka.server.mutable.BoundedList",
            "org.apache.kafka.server.config.QuotaConfig",
            "org.apache.kafka.common.config.ConfigDef",
            "org.apache.kafka.common.requests.AlterClientQuotasRequest (entries)",
            "org.apache.kafka.common.message.AlterClientQuotasRequestData",
            "org.apache.kafka.common.requests.ApiError",
            "org.apache.kafka.common.protocol.Errors",
            "org.apache.kafka.common.quota.ClientQuotaEntity",
            "org.apache.kafka.common.quota.ClientQuotaAlteration",
            "org.apache.kafka.common.metadata.ClientQuotaRecord",
            "org.apache.kafka.server.common.ApiMessageAndVersion",
            "org.apache.kafka.timeline.TimelineHashMap",
            "org.apache.kafka.timeline.SnapshotRegistry");
    }

    @Override
    public void provenanceNotes(ObjectNode p) {
        p.put("entity_map", "each alteration list is encoded as AlterClientQuotasRequestData (entity pairs in the listed order) "
            + "and decoded by AlterClientQuotasRequest.entries() (latest version), which puts the pairs into a HashMap: "
            + "a repeated type keeps the last name");
        p.put("reflection", "validateEntity is private and configKeysForEntityType / validateQuotaKeyValue / alterClientQuotas / "
            + "the ClientQuotaControlManager.Builder / ControllerResult are package-private: they are called by reflection, unmodified");
    }

    private static Object invoke(Method m, Object target, Object... args) throws Exception {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw (Exception) e.getCause();
        }
    }

    private static List<ClientQuotaAlteration> entries(JsonNode alterations) {
        List<AlterClientQuotasRequestData.EntryData> entries = new ArrayList<>();
        for (JsonNode a : alterations) {
            List<AlterClientQuotasRequestData.EntityData> entity = new ArrayList<>();
            for (JsonNode pair : Family.need(a, "entity")) {
                entity.add(new AlterClientQuotasRequestData.EntityData()
                    .setEntityType(pair.get(0).asText())
                    .setEntityName(Json.strOrNull(pair.get(1))));
            }
            List<AlterClientQuotasRequestData.OpData> ops = new ArrayList<>();
            for (JsonNode op : Family.need(a, "ops")) {
                boolean remove = Family.need(op, "remove").asBoolean();
                AlterClientQuotasRequestData.OpData d = new AlterClientQuotasRequestData.OpData()
                    .setKey(Family.need(op, "key").asText())
                    .setRemove(remove);
                if (!remove) d.setValue(Json.dblOf(op.get("value")));
                ops.add(d);
            }
            entries.add(new AlterClientQuotasRequestData.EntryData().setEntity(entity).setOps(ops));
        }
        AlterClientQuotasRequestData data = new AlterClientQuotasRequestData().setEntries(entries).setValidateOnly(false);
        return new AlterClientQuotasRequest(data, ApiKeys.ALTER_CLIENT_QUOTAS.latestVersion()).entries();
    }

    private static ObjectNode outcome(ApiError e) {
        ObjectNode o = Json.obj();
        outcomeInto(o, e);
        return o;
    }

    private static void outcomeInto(ObjectNode o, ApiError e) {
        o.put("ok", !e.isFailure());
        o.put("error", e.error().name());
        o.put("error_code", e.error().code());
        o.put("message", e.message());
    }

    private static ArrayNode pairs(Map<String, String> entries) {
        ArrayNode a = Json.arr();
        for (Map.Entry<String, String> e : entries.entrySet()) {
            ArrayNode p = a.addArray();
            p.add(e.getKey());
            p.add(e.getValue());
        }
        return a;
    }

    @Override
    @SuppressWarnings("unchecked")
    public ObjectNode replay(JsonNode in) throws Exception {
        Object mgr = invoke(BUILD, BUILDER.newInstance());

        List<ClientQuotaAlteration> setup = entries(Family.need(in, "setup"));
        Object setupResult = invoke(ALTER, mgr, setup);
        for (Map.Entry<ClientQuotaEntity, ApiError> r : ((Map<ClientQuotaEntity, ApiError>) invoke(RESULT_RESPONSE, setupResult)).entrySet()) {
            if (r.getValue().isFailure()) throw new IllegalStateException(in.get("id") + ": setup failed for " + r.getKey() + ": " + r.getValue());
        }
        for (ApiMessageAndVersion r : (List<ApiMessageAndVersion>) invoke(RESULT_RECORDS, setupResult)) {
            invoke(REPLAY, mgr, (ClientQuotaRecord) r.message());
        }

        List<ClientQuotaAlteration> alterations = entries(Family.need(in, "alterations"));

        // Stage by stage, as alterClientQuotaEntity runs them.
        ArrayNode checks = Json.arr();
        for (ClientQuotaAlteration alteration : alterations) {
            ObjectNode ch = checks.addObject();
            Map<String, String> validated = new HashMap<>(3);
            ApiError entityError = (ApiError) invoke(VALIDATE_ENTITY, mgr, alteration.entity(), validated);
            ch.set("validate_entity", outcome(entityError));
            if (entityError.isFailure()) continue;
            Map<String, ConfigDef.ConfigKey> keys = new HashMap<>(4);
            ApiError keysError = (ApiError) invoke(CONFIG_KEYS, null, validated, keys);
            ObjectNode k = outcome(keysError);
            ch.set("config_keys_for_entity_type", k);
            if (keysError.isFailure()) continue;
            ObjectNode valid = k.putObject("valid_keys");
            for (Map.Entry<String, ConfigDef.ConfigKey> e : new TreeMap<>(keys).entrySet()) {
                valid.put(e.getKey(), e.getValue().type().name());
            }
            ArrayNode perOp = ch.putArray("validate_quota_key_value");
            for (ClientQuotaAlteration.Op op : alteration.ops()) {
                if (op.value() == null) continue;
                ObjectNode o = perOp.addObject();
                o.put("key", op.key());
                o.set("value", Json.dbl(op.value()));
                outcomeInto(o, (ApiError) invoke(VALIDATE_KEY_VALUE, null, keys, op.key(), (double) op.value()));
            }
        }

        Object result = invoke(ALTER, mgr, alterations);
        Map<ClientQuotaEntity, ApiError> response = (Map<ClientQuotaEntity, ApiError>) invoke(RESULT_RESPONSE, result);
        // One entry per distinct entity, in the order the entities first appear in the request.
        Map<ClientQuotaEntity, ApiError> ordered = new LinkedHashMap<>();
        for (ClientQuotaAlteration a : alterations) {
            ApiError e = response.get(a.entity());
            if (e == null) throw new IllegalStateException(in.get("id") + ": no result for " + a.entity());
            ordered.putIfAbsent(a.entity(), e);
        }
        if (ordered.size() != response.size()) throw new IllegalStateException(in.get("id") + ": results for entities not in the request");
        ArrayNode results = Json.arr();
        for (Map.Entry<ClientQuotaEntity, ApiError> e : ordered.entrySet()) {
            ObjectNode r = results.addObject();
            r.set("entity", pairs(e.getKey().entries()));
            r.put("entity_string", e.getKey().toString());
            outcomeInto(r, e.getValue());
        }
        ArrayNode records = Json.arr();
        for (ApiMessageAndVersion mv : (List<ApiMessageAndVersion>) invoke(RESULT_RECORDS, result)) {
            ClientQuotaRecord rec = (ClientQuotaRecord) mv.message();
            ObjectNode r = records.addObject();
            ArrayNode entity = r.putArray("entity");
            for (ClientQuotaRecord.EntityData d : rec.entity()) {
                ArrayNode p = entity.addArray();
                p.add(d.entityType());
                p.add(d.entityName());
            }
            r.put("key", rec.key());
            r.put("remove", rec.remove());
            if (!rec.remove()) r.set("value", Json.dbl(rec.value()));
        }

        ObjectNode c = Json.obj();
        c.set("id", in.get("id"));
        c.set("description", in.get("description"));
        c.set("setup", in.get("setup"));
        c.set("alterations", in.get("alterations"));
        c.set("checks", checks);
        c.set("results", results);
        c.set("records", records);
        return c;
    }
}
