package quota.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.QuotaViolationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.MockTime;
import org.apache.kafka.network.Session;
import org.apache.kafka.server.config.ClientQuotaManagerConfig;
import org.apache.kafka.server.quota.ClientQuotaManager;
import org.apache.kafka.server.quota.QuotaType;
import org.apache.kafka.server.quota.QuotaUtils;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * rate.json: one Sensor carrying one Rate (WindowedSum) metric with an upper-bound Quota, as
 * ClientQuotaManager.registerQuotaMetrics builds it; throttle times from QuotaUtils.
 *
 * <p>Every case whose window is a whole number of seconds is also replayed through a real
 * ClientQuotaManager (recordAndGetThrottleTimeMs, unrecordQuotaSensor, a read of its byte-rate metric,
 * updateQuota) and the generation fails unless throttle times, measured rates, window sizes and the
 * sample lists are identical.
 */
final class RateFamily implements Family {
    private int crossChecked;

    @Override
    public String name() {
        return "rate";
    }

    @Override
    public List<String> artifacts() {
        return List.of("kafka-clients", "kafka-server-common", "kafka-server", "kafka-clients:test");
    }

    @Override
    public List<String> kafkaClasses() {
        return List.of(
            "org.apache.kafka.common.metrics.Sensor",
            "org.apache.kafka.common.metrics.Metrics",
            "org.apache.kafka.common.metrics.MetricConfig",
            "org.apache.kafka.common.metrics.Quota",
            "org.apache.kafka.common.metrics.QuotaViolationException",
            "org.apache.kafka.common.metrics.KafkaMetric",
            "org.apache.kafka.common.metrics.stats.Rate",
            "org.apache.kafka.common.metrics.stats.SampledStat",
            "org.apache.kafka.common.metrics.stats.WindowedSum",
            "org.apache.kafka.server.quota.QuotaUtils",
            "org.apache.kafka.server.quota.ClientQuotaManager (cross-check)",
            "org.apache.kafka.server.config.ClientQuotaManagerConfig (cross-check)",
            "org.apache.kafka.network.Session (cross-check)");
    }

    @Override
    public void provenanceNotes(ObjectNode p) {
        p.put("cross_check", "every case with a whole-second window (" + crossChecked + " cases) was replayed a second time "
            + "through org.apache.kafka.server.quota.ClientQuotaManager 4.3.1 (updateQuota, recordAndGetThrottleTimeMs, "
            + "unrecordQuotaSensor, reads of its byte-rate metric) and gave identical throttle times, measured rates, "
            + "window sizes and sample lists");
        p.put("state", "sample lists are read by reflection from Rate.stat / SampledStat.current / SampledStat.samples");
    }

    static MetricConfig config(int samples, long windowMs, double bound) {
        return new MetricConfig().samples(samples).timeWindow(windowMs, TimeUnit.MILLISECONDS).quota(new Quota(bound, true));
    }

    @Override
    public ObjectNode replay(JsonNode in) {
        JsonNode cfg = Family.need(in, "config");
        int samples = (int) Json.longOf(cfg.get("samples"));
        long windowMs = Json.longOf(cfg.get("window_ms"));
        double bound = Json.dblOf(cfg.get("quota_bound"));
        long maxThrottleMs = Json.longOf(cfg.get("max_throttle_ms"));
        boolean debug = Family.need(in, "debug_state").asBoolean();

        MockTime time = new MockTime(0, 0, 0);
        Metrics metrics = Internals.metrics(time);
        Sensor sensor = metrics.sensor("Produce-vectors:rate");
        MetricName name = metrics.metricName("byte-rate", QuotaType.PRODUCE.toString(), "Tracking byte-rate per user/client-id",
            Map.of("user", "vectors", "client-id", "rate"));
        Rate rate = new Rate();
        sensor.add(name, rate, config(samples, windowMs, bound));
        KafkaMetric metric = metrics.metric(name);

        ArrayNode events = Json.arr();
        int violations = 0;
        for (JsonNode ev : Family.need(in, "events")) {
            String op = Family.need(ev, "op").asText();
            ObjectNode out = Json.obj();
            out.put("op", op);
            switch (op) {
                case "record": {
                    long t = Json.longOf(ev.get("t"));
                    double v = Json.dblOf(ev.get("v"));
                    boolean check = Family.need(ev, "check").asBoolean();
                    out.set("t", ev.get("t"));
                    out.set("v", ev.get("v"));
                    out.put("check", check);
                    if (!check) {
                        sensor.record(v, t, false);
                        break;
                    }
                    QuotaViolationException violation = null;
                    try {
                        sensor.record(v, t, true);
                    } catch (QuotaViolationException e) {
                        violation = e;
                    }
                    out.put("violated", violation != null);
                    if (violation != null) {
                        violations++;
                        out.set("observed", Json.dbl(violation.value()));
                        out.set("bound", Json.dbl(violation.bound()));
                        out.put("throttle_ms", QuotaUtils.throttleTime(violation, t));
                        out.put("bounded_throttle_ms", QuotaUtils.boundedThrottleTime(violation, maxThrottleMs, t));
                    } else {
                        out.putNull("observed");
                        out.putNull("bound");
                        out.put("throttle_ms", 0);
                        out.put("bounded_throttle_ms", 0);
                    }
                    out.set("measure", Json.dbl(rate.measure(metric.config(), t)));
                    out.put("window_size_ms", rate.windowSize(metric.config(), t));
                    break;
                }
                case "measure": {
                    long t = Json.longOf(ev.get("t"));
                    out.set("t", ev.get("t"));
                    out.set("measure", Json.dbl(rate.measure(metric.config(), t)));
                    out.put("window_size_ms", rate.windowSize(metric.config(), t));
                    break;
                }
                case "set_quota": {
                    double b = Json.dblOf(ev.get("bound"));
                    out.set("bound", ev.get("bound"));
                    metric.config(config(samples, windowMs, b));
                    break;
                }
                default:
                    throw new IllegalArgumentException("unknown rate op " + op);
            }
            if (debug) out.set("state", Internals.rateState(rate));
            // The cross-check compares the sample list after every operation, debug case or not.
            out.set("__state", Internals.rateState(rate));
            events.add(out);
        }
        metrics.close();

        if (windowMs % 1000 == 0) {
            crossCheck(in, events, samples, windowMs, bound);
            crossChecked++;
        }
        for (JsonNode e : events) ((ObjectNode) e).remove("__state");

        ObjectNode c = Json.obj();
        c.set("id", in.get("id"));
        c.set("description", in.get("description"));
        c.set("config", cfg);
        c.put("debug_state", debug);
        c.set("events", events);
        ObjectNode summary = c.putObject("summary");
        summary.put("events", events.size());
        summary.put("violations", violations);
        return c;
    }

    /** The same operations through ClientQuotaManager, which must give the same outputs. */
    private static void crossCheck(JsonNode in, ArrayNode direct, int samples, long windowMs, double bound) {
        String id = in.get("id").asText();
        MockTime time = new MockTime(0, 0, 0);
        Metrics metrics = Internals.metrics(time);
        ClientQuotaManager mgr = new ClientQuotaManager(
            new ClientQuotaManagerConfig(samples, (int) (windowMs / 1000)), metrics, QuotaType.PRODUCE, time, "vectors-");
        try {
            Optional<org.apache.kafka.server.quota.ClientQuotaEntity.ConfigEntity> user =
                Optional.of(new ClientQuotaManager.UserEntity("vectors"));
            mgr.updateQuota(user, Optional.empty(), Optional.of(new Quota(bound, true)));
            Session session = new Session(new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "vectors"), InetAddress.getLoopbackAddress());
            String clientId = "rate";
            Map<String, String> tags = mgr.getOrCreateQuotaSensors(session, clientId).metricTags();
            MetricName name = metrics.metricName("byte-rate", QuotaType.PRODUCE.toString(), "", tags);
            int i = 0;
            for (JsonNode ev : in.get("events")) {
                JsonNode want = direct.get(i);
                String where = id + " event " + i;
                switch (ev.get("op").asText()) {
                    case "record": {
                        long t = Json.longOf(ev.get("t"));
                        double v = Json.dblOf(ev.get("v"));
                        if (ev.get("check").asBoolean()) {
                            int throttle = mgr.recordAndGetThrottleTimeMs(session, clientId, v, t);
                            same(where, "throttle_ms", want.get("throttle_ms").asLong(), throttle);
                            readAndCompare(metrics, name, t, want, where);
                        } else {
                            // unrecordQuotaSensor records (value * -1) without a quota check
                            mgr.unrecordQuotaSensor(session, clientId, -v, t);
                        }
                        break;
                    }
                    case "measure":
                        readAndCompare(metrics, name, Json.longOf(ev.get("t")), want, where);
                        break;
                    case "set_quota":
                        mgr.updateQuota(user, Optional.empty(), Optional.of(new Quota(Json.dblOf(ev.get("bound")), true)));
                        break;
                    default:
                        throw new IllegalArgumentException(ev.toString());
                }
                Rate rate = (Rate) metrics.metric(name).measurable();
                same(where, "state", Json.compact(want.get("__state")), Json.compact(Internals.rateState(rate)));
                i++;
            }
        } finally {
            mgr.shutdown();
            metrics.close();
        }
    }

    private static void readAndCompare(Metrics metrics, MetricName name, long t, JsonNode want, String where) {
        KafkaMetric m = metrics.metric(name);
        Rate rate = (Rate) m.measurable();
        same(where, "measure", Json.compact(want.get("measure")), Json.compact(Json.dbl(rate.measure(m.config(), t))));
        same(where, "window_size_ms", want.get("window_size_ms").asLong(), rate.windowSize(m.config(), t));
    }

    static void same(String where, String field, Object direct, Object manager) {
        if (!String.valueOf(direct).equals(String.valueOf(manager))) {
            throw new IllegalStateException("cross-check failed at " + where + " field " + field
                + ": direct " + direct + ", through the quota manager " + manager);
        }
    }
}
