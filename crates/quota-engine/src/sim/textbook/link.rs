//! The textbook link: whole milliseconds, no framing bytes.

/// Milliseconds a transfer of `bytes` takes on a link of
/// `bandwidth_bytes_per_s`: `ceil(1000 * bytes / L)`, in integers (0 for 0
/// bytes). `bandwidth_bytes_per_s` is at least 1 (checked by the caller).
pub(crate) fn transfer_ms(bytes: u64, bandwidth_bytes_per_s: u64) -> i64 {
    let l = u128::from(bandwidth_bytes_per_s.max(1));
    let num = 1000 * u128::from(bytes);
    let ms = num.div_ceil(l);
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// Kafka's `(int)` of the `long` throttle time: `ClientQuotaManager
/// .recordAndGetThrottleTimeMs` returns `(int) throttleTime(e, timeMs)`, a
/// narrowing cast that keeps the low 32 bits (above `Integer.MAX_VALUE`,
/// about 24.8 days, it wraps, possibly to a negative value that
/// `KafkaApis` then treats as "not throttled").
///
/// Kafka: server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java
/// (core/src/main/scala/kafka/server/ClientQuotaManager.scala: `.toInt` before 4.0).
pub(crate) fn kafka_int(throttle_ms: i64) -> i32 {
    throttle_ms as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfers_round_up_to_whole_ms() {
        assert_eq!(transfer_ms(0, 1000), 0);
        assert_eq!(transfer_ms(1, 1_000_000), 1);
        assert_eq!(transfer_ms(1000, 1_000_000), 1);
        assert_eq!(transfer_ms(1001, 1_000_000), 2);
        assert_eq!(transfer_ms(3, 2000), 2);
    }

    #[test]
    fn throttle_narrowing_wraps_like_java() {
        assert_eq!(kafka_int(999), 999);
        assert_eq!(kafka_int(i64::from(i32::MAX) + 1), i32::MIN);
        assert_eq!(kafka_int(4_294_967_296 + 5), 5);
    }
}
