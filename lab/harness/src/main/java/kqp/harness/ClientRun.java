package kqp.harness;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One workload on its own thread: a KafkaProducer driven like
 * kafka-producer-perf-test.sh (throughput -1: send() as fast as it returns,
 * every acknowledgement awaited through its callback, then flush) or a
 * KafkaConsumer with assign() on every partition from the beginning, polling
 * until it has its records. The client is built before t0 (building opens no
 * connection for the consumer; the producer's sender thread may already
 * fetch cluster metadata from a bootstrap broker); the clock starts just
 * before the first send() / poll().
 */
abstract class ClientRun implements Runnable {
    final ScenarioPlan.Workload w;
    final String name;
    final String configuredClientId;
    final String principal;
    final String configSource;
    volatile long t0Ns;
    volatile long startNs;
    volatile long endNs;
    volatile boolean stopRequested;
    volatile String error;
    String effectiveClientId;
    Map<String, Double> finalMetrics = new TreeMap<>();

    ClientRun(ScenarioPlan.Workload w, String configuredClientId, String principal, String configSource) {
        this.w = w;
        this.name = w.connection();
        this.configuredClientId = configuredClientId;
        this.principal = principal;
        this.configSource = configSource;
    }

    abstract long recordsOk();

    abstract long recordsFailed();

    /** [ns since t0, cumulative bytes], in time order. */
    abstract List<long[]> progress();

    /** Per-record latencies (ms), producers only. */
    double[] latencies() {
        return null;
    }

    abstract Double throttleAvg();

    abstract Double throttleMax();

    abstract Double retryTotal();

    /** Called by the harness when the client must stop now (stop_ms or the run's timeout). */
    abstract void stopNow(String why);

    abstract void close();

    final void awaitStart() {
        long at = t0Ns + w.startMs() * 1_000_000L;
        while (true) {
            long left = at - System.nanoTime();
            if (left <= 0) break;
            if (left > 2_000_000L) LockSupport.parkNanos(left - 1_000_000L);
            else Thread.onSpinWait();
        }
    }

    static Double metric(Map<MetricName, ? extends Metric> metrics, String group, String name) {
        for (var e : metrics.entrySet()) {
            if (e.getKey().group().equals(group) && e.getKey().name().equals(name)) {
                Object v = e.getValue().metricValue();
                if (v instanceof Number n) {
                    double d = n.doubleValue();
                    return Double.isFinite(d) ? d : null;
                }
            }
        }
        return null;
    }

    static String clientIdTag(Map<MetricName, ? extends Metric> metrics, String group) {
        for (MetricName n : metrics.keySet()) {
            if (n.group().equals(group) && n.tags().containsKey("client-id")) return n.tags().get("client-id");
        }
        return null;
    }

    /** Deterministic payloads: a few random byte arrays from the scenario's seed, used in turn. */
    static byte[][] payloads(long seed, int size) {
        Random r = new Random(seed * 31 + size);
        byte[][] out = new byte[8][];
        for (int i = 0; i < out.length; i++) {
            out[i] = new byte[size];
            for (int k = 0; k < size; k++) out[i][k] = (byte) ('A' + r.nextInt(26));
        }
        return out;
    }

    // ---- producer -----------------------------------------------------------------------------------------

    static final class Producer extends ClientRun {
        static final String GROUP = "producer-metrics";
        final KafkaProducer<byte[], byte[]> producer;
        final String topic;
        final byte[][] payloads;
        final long[] sendNs;
        final long[] ackNs;
        final AtomicInteger acked = new AtomicInteger();
        final AtomicLong failed = new AtomicLong();
        volatile int sent;
        volatile String firstFailure;
        private volatile Map<String, Double> metricsSnapshot;

        Producer(ScenarioPlan.Workload w, Properties props, String topic, long seed, String principal, String src) {
            super(w, props.getProperty("client.id"), principal, src);
            if (w.records() > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("too many records");
            this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
            this.topic = topic;
            this.payloads = payloads(seed, w.recordSize());
            this.sendNs = new long[(int) w.records()];
            this.ackNs = new long[(int) w.records()];
            this.effectiveClientId = clientIdTag(producer.metrics(), GROUP);
        }

        @Override
        public void run() {
            try {
                awaitStart();
                startNs = System.nanoTime();
                int n = (int) w.records();
                double perRecordNs = w.throughput() > 0 ? 1e9 / w.throughput() : 0;
                for (int i = 0; i < n && !stopRequested; i++) {
                    if (perRecordNs > 0) {
                        long due = startNs + (long) (i * perRecordNs);
                        long wait = due - System.nanoTime();
                        if (wait > 0) LockSupport.parkNanos(wait);
                    }
                    final int idx = i;
                    long s = System.nanoTime();
                    sendNs[idx] = s;
                    try {
                        producer.send(new ProducerRecord<>(topic, null, null, null, payloads[i % payloads.length]),
                            (md, ex) -> {
                                long now = System.nanoTime();
                                if (ex == null) {
                                    ackNs[idx] = now;
                                    acked.incrementAndGet();
                                } else {
                                    ackNs[idx] = -now;
                                    failed.incrementAndGet();
                                    if (firstFailure == null) firstFailure = ex.toString();
                                }
                            });
                    } catch (RuntimeException e) {
                        if (!stopRequested && error == null) error = "send() threw " + e;
                        break;
                    }
                    sent = i + 1;
                }
                if (!stopRequested) {
                    producer.flush();
                    metricsSnapshot = readMetrics();
                }
            } catch (Throwable t) {
                if (!stopRequested && error == null) error = t.toString();
            } finally {
                long last = 0;
                for (int i = 0; i < sent; i++) last = Math.max(last, Math.abs(ackNs[i]));
                if (acked.get() + failed.get() >= sent && sent == w.records() && !stopRequested) endNs = last;
            }
        }

        private Map<String, Double> readMetrics() {
            Map<String, Double> m = new TreeMap<>();
            var metrics = producer.metrics();
            for (String k : List.of("produce-throttle-time-avg", "produce-throttle-time-max", "record-error-total",
                "record-retry-total", "record-send-total", "request-total", "request-latency-avg",
                "request-latency-max", "outgoing-byte-total", "batch-size-avg", "records-per-request-avg",
                "bufferpool-wait-time-ns-total", "connection-creation-total")) {
                m.put(k, metric(metrics, GROUP, k));
            }
            return m;
        }

        @Override
        void stopNow(String why) {
            if (metricsSnapshot == null) metricsSnapshot = readMetrics();
            stopRequested = true;
            producer.close(Duration.ZERO);
        }

        Map<String, Double> metricsAtEnd() {
            if (metricsSnapshot == null) metricsSnapshot = readMetrics();
            return metricsSnapshot;
        }

        @Override
        long recordsOk() {
            return acked.get();
        }

        @Override
        long recordsFailed() {
            Double total = metricsAtEnd().get("record-error-total");
            long own = failed.get();
            return total == null ? own : Math.max(own, total.longValue());
        }

        @Override
        Double retryTotal() {
            return metricsAtEnd().get("record-retry-total");
        }

        @Override
        Double throttleAvg() {
            return metricsAtEnd().get("produce-throttle-time-avg");
        }

        @Override
        Double throttleMax() {
            return metricsAtEnd().get("produce-throttle-time-max");
        }

        @Override
        List<long[]> progress() {
            int n = sent;
            long[] acks = new long[n];
            int k = 0;
            for (int i = 0; i < n; i++) if (ackNs[i] > 0) acks[k++] = ackNs[i];
            acks = Arrays.copyOf(acks, k);
            Arrays.sort(acks);
            List<long[]> out = new ArrayList<>(k);
            for (int i = 0; i < k; i++) out.add(new long[]{acks[i] - t0Ns, (long) (i + 1) * w.recordSize()});
            return out;
        }

        @Override
        double[] latencies() {
            int n = sent;
            double[] l = new double[n];
            int k = 0;
            for (int i = 0; i < n; i++) if (ackNs[i] > 0) l[k++] = (ackNs[i] - sendNs[i]) / 1e6;
            l = Arrays.copyOf(l, k);
            Arrays.sort(l);
            return l;
        }

        String firstFailure() {
            return firstFailure;
        }

        @Override
        void close() {
            metricsAtEnd();
            producer.close(Duration.ofSeconds(5));
        }
    }

    // ---- consumer -----------------------------------------------------------------------------------------

    static final class Consumer extends ClientRun {
        static final String GROUP = "consumer-fetch-manager-metrics";
        final KafkaConsumer<byte[], byte[]> consumer;
        final List<long[]> points = new ArrayList<>();
        volatile long count;
        volatile long bytes;
        private volatile Map<String, Double> metricsSnapshot;

        Consumer(ScenarioPlan.Workload w, Properties props, String topic, int partitions, String principal,
                 String src) {
            super(w, props.getProperty("client.id"), principal, src);
            this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            List<TopicPartition> tps = new ArrayList<>();
            for (int p = 0; p < partitions; p++) tps.add(new TopicPartition(topic, p));
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            this.effectiveClientId = clientIdTag(consumer.metrics(), GROUP);
        }

        @Override
        public void run() {
            try {
                awaitStart();
                startNs = System.nanoTime();
                long c = 0;
                long b = 0;
                while (c < w.records() && !stopRequested) {
                    ConsumerRecords<byte[], byte[]> recs;
                    try {
                        recs = consumer.poll(Duration.ofMillis(100));
                    } catch (WakeupException e) {
                        break;
                    }
                    long now = System.nanoTime();
                    if (recs.isEmpty()) continue;
                    for (ConsumerRecord<byte[], byte[]> r : recs) {
                        b += Math.max(0, r.serializedValueSize()) + Math.max(0, r.serializedKeySize());
                    }
                    c += recs.count();
                    synchronized (points) {
                        points.add(new long[]{now - t0Ns, b});
                    }
                    count = c;
                    bytes = b;
                    if (c >= w.records()) endNs = now;
                }
                metricsSnapshot = readMetrics();
            } catch (Throwable t) {
                if (!stopRequested && error == null) error = t.toString();
            }
        }

        private Map<String, Double> readMetrics() {
            Map<String, Double> m = new TreeMap<>();
            var metrics = consumer.metrics();
            for (String k : List.of("fetch-throttle-time-avg", "fetch-throttle-time-max", "records-consumed-total",
                "bytes-consumed-total", "fetch-total", "fetch-latency-avg", "fetch-latency-max", "fetch-size-avg",
                "fetch-size-max")) {
                m.put(k, metric(metrics, GROUP, k));
            }
            return m;
        }

        @Override
        void stopNow(String why) {
            stopRequested = true;
            consumer.wakeup();
        }

        Map<String, Double> metricsAtEnd() {
            return metricsSnapshot == null ? Map.of() : metricsSnapshot;
        }

        @Override
        long recordsOk() {
            return count;
        }

        @Override
        long recordsFailed() {
            return 0;
        }

        @Override
        Double retryTotal() {
            return null;
        }

        @Override
        Double throttleAvg() {
            return metricsAtEnd().get("fetch-throttle-time-avg");
        }

        @Override
        Double throttleMax() {
            return metricsAtEnd().get("fetch-throttle-time-max");
        }

        @Override
        List<long[]> progress() {
            synchronized (points) {
                return new ArrayList<>(points);
            }
        }

        @Override
        void close() {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }
}
