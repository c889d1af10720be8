package quota.vectors;

import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.MetricsReporter;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.SampledStat;
import org.apache.kafka.common.metrics.stats.TokenBucket;
import org.apache.kafka.common.utils.MockTime;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Every place the generator reaches past a Kafka class's public API is here, and each only reads
 * state or calls the real (non-public) method; nothing is re-implemented.
 */
final class Internals {
    private Internals() {
    }

    /** A metrics registry without reporters and without the sensor-expiration thread. */
    static Metrics metrics(MockTime time) {
        return new Metrics(new MetricConfig(), List.<MetricsReporter>of(), time, false);
    }

    /** Kafka's MockTime, moved to {@code t} (backwards too: MockTime.sleep adds a signed delta). */
    static void moveTo(MockTime time, long t) {
        time.sleep(t - time.milliseconds());
        if (time.milliseconds() != t) throw new IllegalStateException("MockTime did not move to " + t);
    }

    private static Field field(Class<?> c, String name) {
        try {
            Field f = c.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(c.getName() + " has no field " + name + " (not Kafka 4.3.1?)", e);
        }
    }

    private static final Field RATE_STAT = field(Rate.class, "stat");
    private static final Field STAT_CURRENT = field(SampledStat.class, "current");
    private static final Field STAT_SAMPLES = field(SampledStat.class, "samples");
    private static final Method TOKEN_BUCKET_BURST;

    static {
        try {
            TOKEN_BUCKET_BURST = TokenBucket.class.getDeclaredMethod("burst", MetricConfig.class);
            TOKEN_BUCKET_BURST.setAccessible(true);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("TokenBucket has no burst(MetricConfig) (not Kafka 4.3.1?)", e);
        }
    }

    /**
     * The sample list of a Rate's SampledStat (WindowedSum) after an operation:
     * {@code [current_index, [[startTimeMs, lastEventMs, value, eventCount], ...]]}, in list order.
     */
    static com.fasterxml.jackson.databind.node.ArrayNode rateState(Rate rate) {
        try {
            SampledStat stat = (SampledStat) RATE_STAT.get(rate);
            int current = STAT_CURRENT.getInt(stat);
            List<?> samples = (List<?>) STAT_SAMPLES.get(stat);
            var list = Json.arr();
            for (Object s : samples) {
                Class<?> c = s.getClass();
                var row = Json.arr();
                row.add(field(c, "startTimeMs").getLong(s));
                row.add(field(c, "lastEventMs").getLong(s));
                row.add(Json.dbl(field(c, "value").getDouble(s)));
                row.add(field(c, "eventCount").getLong(s));
                list.add(row);
            }
            var out = Json.arr();
            out.add(current);
            out.add(list);
            return out;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** TokenBucket's own (private) burst computation for a config. */
    static double tokenBucketBurst(TokenBucket bucket, MetricConfig config) {
        try {
            return (double) TOKEN_BUCKET_BURST.invoke(bucket, config);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
