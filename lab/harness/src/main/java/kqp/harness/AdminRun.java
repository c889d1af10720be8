package kqp.harness;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.ThrottlingQuotaExceededException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An admin workload on its own thread: the real Java {@link Admin} client creating
 * {@code topics} topics of {@code partitions} partitions in calls of {@code topics_per_call},
 * the application's k-th createTopics call at t0 + start_ms + k x call_interval_ms, none waiting
 * for an earlier call's results. With retry_on_quota_violation (CreateTopicsOptions, default true)
 * the client itself retries the topics a ThrottlingQuotaExceededException refused, after the
 * throttle time, until its default.api.timeout.ms deadline; then those topics' futures fail with
 * that exception. The clock starts just before the first createTopics call; each topic's outcome is
 * the moment its future completes (a callback on the Admin client's thread).
 */
final class AdminRun extends ClientRun {
    static final String GROUP = "admin-client-metrics";

    /** One topic's outcome: "created", "throttled" (ThrottlingQuotaExceededException) or "failed". */
    record TopicOutcome(String topic, int call, String outcome, long atNs, String error, Integer throttleTimeMs) {}

    final Admin admin;
    final ScenarioPlan.AdminSpec spec;
    /** The topics' common prefix on the cluster: the scenario's topic_prefix and a per-repeat suffix. */
    final String realPrefix;
    final List<String> topicNames = new ArrayList<>();
    final long[] callNs;
    private final List<TopicOutcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch pending;
    private volatile int callsMade;
    private volatile Map<String, Double> metricsSnapshot;

    AdminRun(ScenarioPlan.Workload w, Properties props, String realPrefix, String principal, String src) {
        super(w, props.getProperty("client.id"), principal, src);
        this.spec = w.admin();
        this.realPrefix = realPrefix;
        for (int i = 0; i < spec.topics(); i++) topicNames.add(realPrefix + "-" + i);
        this.callNs = new long[spec.calls()];
        this.pending = new CountDownLatch(spec.topics());
        // Building the client starts its thread, which fetches the cluster's metadata from a bootstrap
        // broker before t0, as a KafkaProducer's sender thread may.
        this.admin = Admin.create(props);
        String tag = clientIdTag(admin.metrics(), GROUP);
        this.effectiveClientId = tag != null ? tag : configuredClientId;
    }

    @Override
    public void run() {
        try {
            CreateTopicsOptions options = new CreateTopicsOptions().retryOnQuotaViolation(spec.retryOnQuotaViolation());
            int calls = spec.calls();
            for (int k = 0; k < calls && !stopRequested; k++) {
                long due = t0Ns + (w.startMs() + k * spec.callIntervalMs()) * 1_000_000L;
                while (true) {
                    long left = due - System.nanoTime();
                    if (left <= 0 || stopRequested) break;
                    if (left > 2_000_000L) LockSupport.parkNanos(left - 1_000_000L);
                    else Thread.onSpinWait();
                }
                if (stopRequested) break;
                int from = k * spec.topicsPerCall();
                int to = Math.min(spec.topics(), from + spec.topicsPerCall());
                List<NewTopic> batch = new ArrayList<>(to - from);
                for (int i = from; i < to; i++) {
                    batch.add(new NewTopic(topicNames.get(i), Optional.of(spec.partitions()),
                        Optional.of(spec.replicationFactor())));
                }
                long now = System.nanoTime();
                if (k == 0) startNs = now;
                callNs[k] = now;
                CreateTopicsResult result = admin.createTopics(batch, options);
                callsMade = k + 1;
                final int call = k;
                for (Map.Entry<String, KafkaFuture<Void>> e : result.values().entrySet()) {
                    String topic = e.getKey();
                    e.getValue().whenComplete((v, ex) -> {
                        long at = System.nanoTime();
                        outcomes.add(outcome(topic, call, at, ex));
                        pending.countDown();
                    });
                }
            }
            // Every future completes by itself: success, the broker's error, or the call's deadline.
            while (!stopRequested && !pending.await(20, TimeUnit.MILLISECONDS)) {
                // waiting for the last topic future
            }
            if (!stopRequested) {
                long last = 0;
                synchronized (outcomes) {
                    for (TopicOutcome o : outcomes) last = Math.max(last, o.atNs());
                }
                endNs = last;
                metricsSnapshot = readMetrics();
            }
        } catch (Throwable t) {
            if (!stopRequested && error == null) error = t.toString();
        }
    }

    private static TopicOutcome outcome(String topic, int call, long at, Throwable ex) {
        if (ex == null) return new TopicOutcome(topic, call, "created", at, null, null);
        Throwable c = ex;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        String text = c.getClass().getName() + ": " + c.getMessage();
        if (c instanceof ThrottlingQuotaExceededException q) {
            return new TopicOutcome(topic, call, "throttled", at, text, q.throttleTimeMs());
        }
        return new TopicOutcome(topic, call, "failed", at, text, null);
    }

    private Map<String, Double> readMetrics() {
        Map<String, Double> m = new TreeMap<>();
        var metrics = admin.metrics();
        for (String k : List.of("request-total", "response-total", "connection-creation-total",
            "outgoing-byte-total", "incoming-byte-total")) {
            m.put(k, metric(metrics, GROUP, k));
        }
        return m;
    }

    Map<String, Double> metricsAtEnd() {
        if (metricsSnapshot == null) metricsSnapshot = readMetrics();
        return metricsSnapshot;
    }

    /** The outcomes so far, in completion order. */
    List<TopicOutcome> outcomes() {
        synchronized (outcomes) {
            List<TopicOutcome> l = new ArrayList<>(outcomes);
            l.sort((a, b) -> Long.compare(a.atNs(), b.atNs()));
            return l;
        }
    }

    int callsMade() {
        return callsMade;
    }

    long count(String outcome) {
        return outcomes().stream().filter(o -> o.outcome().equals(outcome)).count();
    }

    /** Up to {@code max} distinct "ExceptionClass: message" of the topics that failed for another reason. */
    List<String> otherErrors(int max) {
        List<String> out = new ArrayList<>();
        for (TopicOutcome o : outcomes()) {
            if (o.outcome().equals("failed") && !out.contains(o.error()) && out.size() < max) out.add(o.error());
        }
        return out;
    }

    /** The largest ThrottlingQuotaExceededException.throttleTimeMs() of a throttled topic, 0 when none. */
    int throttleTimeMax() {
        int max = 0;
        for (TopicOutcome o : outcomes()) if (o.throttleTimeMs() != null) max = Math.max(max, o.throttleTimeMs());
        return max;
    }

    @Override
    long recordsOk() {
        return 0;
    }

    @Override
    long recordsFailed() {
        return 0;
    }

    @Override
    List<long[]> progress() {
        return List.of();
    }

    @Override
    Double throttleAvg() {
        return null;
    }

    @Override
    Double throttleMax() {
        return (double) throttleTimeMax();
    }

    @Override
    Double retryTotal() {
        return null;
    }

    @Override
    void stopNow(String why) {
        if (metricsSnapshot == null) metricsSnapshot = readMetrics();
        stopRequested = true;
    }

    @Override
    void close() {
        metricsAtEnd();
        admin.close(Duration.ofSeconds(5));
    }
}
