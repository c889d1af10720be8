package quota.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.errors.ThrottlingQuotaExceededException;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.TokenBucket;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.MockTime;
import org.apache.kafka.network.Session;
import org.apache.kafka.server.config.ClientQuotaManagerConfig;
import org.apache.kafka.server.quota.ClientQuotaManager;
import org.apache.kafka.server.quota.ControllerMutationQuota;
import org.apache.kafka.server.quota.ControllerMutationQuotaManager;
import org.apache.kafka.server.quota.PermissiveControllerMutationQuota;
import org.apache.kafka.server.quota.QuotaType;
import org.apache.kafka.server.quota.StrictControllerMutationQuota;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * token_bucket.json: the controller-mutation quota. One sensor with the two metrics
 * ControllerMutationQuotaManager.registerQuotaMetrics adds (a Rate "mutation-rate" and a TokenBucket
 * "tokens" carrying the quota); each request is a new StrictControllerMutationQuota or
 * PermissiveControllerMutationQuota over that sensor, as the broker creates one per request, recording
 * at Kafka's MockTime.
 *
 * <p>Cases with a whole-second window are replayed a second time through a real
 * ControllerMutationQuotaManager (updateQuota, newStrictQuotaFor / newPermissiveQuotaFor, its tokens
 * metric) and must give identical outputs.
 */
final class TokenBucketFamily implements Family {
    private int crossChecked;

    @Override
    public String name() {
        return "token_bucket";
    }

    @Override
    public List<String> artifacts() {
        return List.of("kafka-clients", "kafka-server", "kafka-clients:test");
    }

    @Override
    public List<String> kafkaClasses() {
        return List.of(
            "org.apache.kafka.common.metrics.Sensor",
            "org.apache.kafka.common.metrics.Metrics",
            "org.apache.kafka.common.metrics.MetricConfig",
            "org.apache.kafka.common.metrics.Quota",
            "org.apache.kafka.common.metrics.QuotaViolationException",
            "org.apache.kafka.common.metrics.stats.TokenBucket",
            "org.apache.kafka.common.metrics.stats.Rate",
            "org.apache.kafka.common.errors.ThrottlingQuotaExceededException",
            "org.apache.kafka.server.quota.StrictControllerMutationQuota",
            "org.apache.kafka.server.quota.PermissiveControllerMutationQuota",
            "org.apache.kafka.server.quota.AbstractControllerMutationQuota",
            "org.apache.kafka.server.quota.ControllerMutationQuotaManager (throttleTimeMs; cross-check: updateQuota, newStrictQuotaFor, newPermissiveQuotaFor)",
            "org.apache.kafka.common.utils.MockTime (kafka-clients test artifact: the clock the quota objects read)");
    }

    @Override
    public void provenanceNotes(ObjectNode p) {
        p.put("cross_check", "every case with a whole-second window (" + crossChecked + " cases) was replayed a second time "
            + "through org.apache.kafka.server.quota.ControllerMutationQuotaManager 4.3.1 (updateQuota, newStrictQuotaFor / "
            + "newPermissiveQuotaFor per request, reads of its tokens metric) and gave identical outputs");
        p.put("burst", "config.burst / set_quota.burst are TokenBucket's private burst(MetricConfig), called by reflection");
    }

    @Override
    public ObjectNode replay(JsonNode in) {
        String mode = Family.need(in, "mode").asText();
        boolean strict;
        if (mode.equals("strict")) strict = true;
        else if (mode.equals("permissive")) strict = false;
        else throw new IllegalArgumentException("unknown mode " + mode);
        JsonNode cfg = Family.need(in, "config");
        int samples = (int) Json.longOf(cfg.get("samples"));
        long windowMs = Json.longOf(cfg.get("window_ms"));
        double bound = Json.dblOf(cfg.get("quota_bound"));

        MockTime time = new MockTime(0, 0, 0);
        Metrics metrics = Internals.metrics(time);
        Map<String, String> tags = Map.of("user", "vectors", "client-id", "token-bucket");
        String group = QuotaType.CONTROLLER_MUTATION.toString();
        Sensor sensor = metrics.sensor(group + "-vectors:token-bucket");
        sensor.add(metrics.metricName("mutation-rate", group, "Tracking mutation-rate per user/client-id", tags), new Rate());
        MetricName tokensName = metrics.metricName("tokens", group, "Tracking remaining tokens in the token bucket per user/client-id", tags);
        TokenBucket bucket = new TokenBucket();
        sensor.add(tokensName, bucket, RateFamily.config(samples, windowMs, bound));
        KafkaMetric tokens = metrics.metric(tokensName);

        ObjectNode config = Json.obj();
        config.set("samples", cfg.get("samples"));
        config.set("window_ms", cfg.get("window_ms"));
        config.set("quota_bound", cfg.get("quota_bound"));
        config.set("burst", Json.dbl(Internals.tokenBucketBurst(bucket, tokens.config())));

        ArrayNode events = Json.arr();
        int rejected = 0;
        int throttled = 0;
        for (JsonNode ev : Family.need(in, "events")) {
            String op = Family.need(ev, "op").asText();
            ObjectNode out = Json.obj();
            out.put("op", op);
            switch (op) {
                case "record": {
                    long t = Json.longOf(ev.get("t"));
                    double v = Json.dblOf(ev.get("v"));
                    out.set("t", ev.get("t"));
                    out.set("v", ev.get("v"));
                    Internals.moveTo(time, t);
                    ControllerMutationQuota q = strict
                        ? new StrictControllerMutationQuota(time, sensor)
                        : new PermissiveControllerMutationQuota(time, sensor);
                    boolean accepted = record(q, v);
                    int throttleMs = q.throttleTime();
                    out.put("accepted", accepted);
                    out.set("tokens", Json.dbl(tokens.measurable().measure(tokens.config(), t)));
                    out.put("throttle_ms", throttleMs);
                    if (!accepted) rejected++;
                    if (throttleMs > 0) throttled++;
                    break;
                }
                case "measure": {
                    long t = Json.longOf(ev.get("t"));
                    out.set("t", ev.get("t"));
                    out.set("tokens", Json.dbl(tokens.measurable().measure(tokens.config(), t)));
                    break;
                }
                case "set_quota": {
                    double b = Json.dblOf(ev.get("bound"));
                    out.set("bound", ev.get("bound"));
                    tokens.config(RateFamily.config(samples, windowMs, b));
                    out.set("burst", Json.dbl(Internals.tokenBucketBurst(bucket, tokens.config())));
                    break;
                }
                default:
                    throw new IllegalArgumentException("unknown token_bucket op " + op);
            }
            events.add(out);
        }
        metrics.close();

        if (windowMs % 1000 == 0) {
            crossCheck(in, events, strict, samples, windowMs, bound);
            crossChecked++;
        }

        ObjectNode c = Json.obj();
        c.set("id", in.get("id"));
        c.set("description", in.get("description"));
        c.put("mode", mode);
        c.set("config", config);
        c.set("events", events);
        ObjectNode summary = c.putObject("summary");
        summary.put("events", events.size());
        summary.put("rejected", rejected);
        summary.put("throttled", throttled);
        return c;
    }

    /** One request: true if accepted (a strict quota throws ThrottlingQuotaExceededException when not). */
    private static boolean record(ControllerMutationQuota q, double v) {
        try {
            q.record(v);
            return true;
        } catch (ThrottlingQuotaExceededException e) {
            return false;
        }
    }

    private static void crossCheck(JsonNode in, ArrayNode direct, boolean strict, int samples, long windowMs, double bound) {
        String id = in.get("id").asText();
        MockTime time = new MockTime(0, 0, 0);
        Metrics metrics = Internals.metrics(time);
        ControllerMutationQuotaManager mgr = new ControllerMutationQuotaManager(
            new ClientQuotaManagerConfig(samples, (int) (windowMs / 1000)), metrics, time, "vectors-", Optional.empty());
        try {
            Optional<org.apache.kafka.server.quota.ClientQuotaEntity.ConfigEntity> user =
                Optional.of(new ClientQuotaManager.UserEntity("vectors"));
            mgr.updateQuota(user, Optional.empty(), Optional.of(new Quota(bound, true)));
            Session session = new Session(new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "vectors"), InetAddress.getLoopbackAddress());
            String clientId = "token-bucket";
            Map<String, String> tags = mgr.getOrCreateQuotaSensors(session, clientId).metricTags();
            MetricName name = metrics.metricName("tokens", QuotaType.CONTROLLER_MUTATION.toString(), "", tags);
            int i = 0;
            for (JsonNode ev : in.get("events")) {
                JsonNode want = direct.get(i);
                String where = id + " event " + i;
                switch (ev.get("op").asText()) {
                    case "record": {
                        long t = Json.longOf(ev.get("t"));
                        Internals.moveTo(time, t);
                        ControllerMutationQuota q = strict
                            ? mgr.newStrictQuotaFor(session, clientId)
                            : mgr.newPermissiveQuotaFor(session, clientId);
                        boolean accepted = record(q, Json.dblOf(ev.get("v")));
                        RateFamily.same(where, "accepted", want.get("accepted").asBoolean(), accepted);
                        RateFamily.same(where, "throttle_ms", want.get("throttle_ms").asInt(), q.throttleTime());
                        KafkaMetric m = metrics.metric(name);
                        RateFamily.same(where, "tokens", Json.compact(want.get("tokens")),
                            Json.compact(Json.dbl(m.measurable().measure(m.config(), t))));
                        break;
                    }
                    case "measure": {
                        long t = Json.longOf(ev.get("t"));
                        KafkaMetric m = metrics.metric(name);
                        RateFamily.same(where, "tokens", Json.compact(want.get("tokens")),
                            Json.compact(Json.dbl(m.measurable().measure(m.config(), t))));
                        break;
                    }
                    case "set_quota":
                        mgr.updateQuota(user, Optional.empty(), Optional.of(new Quota(Json.dblOf(ev.get("bound")), true)));
                        KafkaMetric m = metrics.metric(name);
                        RateFamily.same(where, "burst", Json.compact(want.get("burst")),
                            Json.compact(Json.dbl(Internals.tokenBucketBurst((TokenBucket) m.measurable(), m.config()))));
                        break;
                    default:
                        throw new IllegalArgumentException(ev.toString());
                }
                i++;
            }
        } finally {
            mgr.shutdown();
            metrics.close();
        }
    }
}
