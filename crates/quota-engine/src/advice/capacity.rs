//! What a limit means for one broker and for the cluster.
//!
//! Client quotas are enforced by each broker on its own: a byte rate is
//! bytes/s *per broker*, a `request_percentage` is percent of *one* thread of
//! one broker.
//!
//! Kafka: `ClientRequestQuotaManager`
//! (`core/src/main/scala/kafka/server/ClientRequestQuotaManager.scala`,
//! request time recorded as a percentage of one thread per quota window) and
//! the design documentation (`docs/design.html`, "Request Rate Quotas": "a
//! quota of n% represents n% of one thread, so the quota is out of a total
//! capacity of ((num.io.threads + num.network.threads) * 100)%").

use serde::Serialize;

use crate::broker::BrokerSettings;
use crate::jdk::double::java_double_to_string;
use crate::entity::QuotaKey;
use crate::resolve::human::readable_limit;

/// A `request_percentage` related to one broker's thread capacity.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestCapacity {
    /// The quota, percent of one broker thread.
    pub percent: f64,
    /// `num.io.threads` of the broker.
    pub num_io_threads: u32,
    /// `num.network.threads` of the broker.
    pub num_network_threads: u32,
    /// `(num.io.threads + num.network.threads) * 100`, percent.
    pub capacity_percent: f64,
    /// `percent / capacity_percent`: the share of the broker's threads one
    /// budget may use (1.0 = all of them).
    pub share: f64,
    /// True when the quota is above the broker's capacity: it can never
    /// throttle, whatever the client does.
    pub exceeds_capacity: bool,
    /// One sentence relating the quota to the capacity.
    pub summary: String,
    /// A warning sentence when the quota exceeds the capacity.
    pub warning: Option<String>,
}

/// Relates a `request_percentage` of `percent` (percent of one thread) to
/// the thread capacity of a broker with `settings`' `num.io.threads` and
/// `num.network.threads`.
///
/// The capacity follows Kafka's documented formula with the configured
/// values; `num.network.threads` is per listener in Kafka, so a broker with
/// several listeners has more network threads than the formula counts.
///
/// # Example
/// ```
/// use quota_engine::advice::request_capacity;
/// use quota_engine::broker::BrokerSettings;
/// let c = request_capacity(200.0, &BrokerSettings::default());
/// assert_eq!(c.capacity_percent, 1100.0); // (8 + 3) * 100
/// assert!(!c.exceeds_capacity);
/// ```
pub fn request_capacity(percent: f64, settings: &BrokerSettings) -> RequestCapacity {
    let capacity = settings.request_capacity_percent();
    let threads = settings.num_io_threads + settings.num_network_threads;
    let share = if capacity > 0.0 {
        percent / capacity
    } else {
        f64::INFINITY
    };
    let exceeds = percent > capacity;
    let threads_worth = percent / 100.0;
    let summary = format!(
        "request_percentage={} is {} thread(s) worth of time per quota window, {} % of one broker's capacity of {} % ((num.io.threads {} + num.network.threads {}) x 100 %); each broker enforces it on its own.",
        java_double_to_string(percent),
        crate::resolve::human::trim_number(threads_worth, crate::resolve::human::small_decimals(threads_worth, 2)),
        crate::resolve::human::fixed(share * 100.0, crate::resolve::human::small_decimals(share * 100.0, 1)),
        java_double_to_string(capacity),
        settings.num_io_threads,
        settings.num_network_threads,
    );
    let warning = exceeds.then(|| {
        format!(
            "request_percentage={} exceeds the broker's capacity of {} % ({threads} threads x 100 %): no client can use more thread time than the broker has, so this quota can never limit anyone.",
            java_double_to_string(percent),
            java_double_to_string(capacity),
        )
    });
    RequestCapacity {
        percent,
        num_io_threads: settings.num_io_threads,
        num_network_threads: settings.num_network_threads,
        capacity_percent: capacity,
        share,
        exceeds_capacity: exceeds,
        summary,
        warning,
    }
}

/// A number without a trailing `.0`, two decimals at most (Java's form
/// from 10^15 on).
fn trim_number(v: f64) -> String {
    crate::resolve::human::trim_number(v, 2)
}

/// A byte rate per broker and for the cluster.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ByteRateScope {
    /// The quota, bytes/s per broker.
    pub per_broker: f64,
    /// How many brokers lead the client's partitions (produce goes to
    /// leaders; fetch too unless consumers fetch from followers).
    pub leader_brokers: u32,
    /// The most the client can move through the cluster: `per_broker *
    /// leader_brokers`, bytes/s.
    pub cluster: f64,
    /// One sentence.
    pub summary: String,
}

/// A byte rate of `per_broker` bytes/s per broker, for a client whose
/// partitions are led by `leader_brokers` brokers. Each broker meters the
/// client's traffic to it separately, so the cluster-wide ceiling is the
/// rate times the number of brokers it talks to.
///
/// Kafka: `ClientQuotaManager` runs per broker
/// (`server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`);
/// `docs/design.html` "Network Bandwidth Quotas": "This quota is defined on a
/// per-broker basis."
///
/// # Example
/// ```
/// use quota_engine::advice::byte_rate_scope;
/// assert_eq!(byte_rate_scope(10_000_000.0, 3).cluster, 30_000_000.0);
/// ```
pub fn byte_rate_scope(per_broker: f64, leader_brokers: u32) -> ByteRateScope {
    let cluster = per_broker * f64::from(leader_brokers);
    let summary = match leader_brokers {
        0 => format!(
            "{}; with no broker leading the client's partitions it moves nothing.",
            readable_limit(QuotaKey::ProducerByteRate, per_broker)
        ),
        1 => format!(
            "{}; with its partitions led by 1 broker, that is also the client's ceiling for the cluster.",
            readable_limit(QuotaKey::ProducerByteRate, per_broker)
        ),
        n => format!(
            "{}; with its partitions led by {n} brokers, each broker allows it that much, so up to {} ({} bytes/s) across the cluster.",
            readable_limit(QuotaKey::ProducerByteRate, per_broker),
            human_bytes(cluster),
            java_double_to_string(cluster)
        ),
    };
    ByteRateScope {
        per_broker,
        leader_brokers,
        cluster,
        summary,
    }
}

/// A byte rate in decimal units as kafka-configs.sh users write them
/// (`10 MB/s` = 10 000 000 bytes/s).
pub fn human_bytes(bytes_per_s: f64) -> String {
    let units = [(1e9, "GB/s"), (1e6, "MB/s"), (1e3, "kB/s")];
    for (size, unit) in units {
        if bytes_per_s.abs() >= size {
            return format!("{} {unit}", trim_number(bytes_per_s / size));
        }
    }
    format!("{} B/s", trim_number(bytes_per_s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twelve_hundred_percent_on_eleven_threads_warns() {
        let s = BrokerSettings::default();
        assert_eq!((s.num_io_threads, s.num_network_threads), (8, 3));
        let c = request_capacity(1200.0, &s);
        assert_eq!(c.capacity_percent, 1100.0);
        assert!(c.exceeds_capacity);
        let w = c.warning.expect("a warning above capacity");
        assert!(
            w.contains("exceeds the broker's capacity of 1100.0 %"),
            "{w}"
        );
        assert!(w.contains("11 threads"), "{w}");
    }

    #[test]
    fn two_hundred_percent_is_a_share_of_eleven_threads() {
        let c = request_capacity(200.0, &BrokerSettings::default());
        assert!(!c.exceeds_capacity);
        assert!(c.warning.is_none());
        assert!((c.share - 200.0 / 1100.0).abs() < 1e-12);
        assert!(c.summary.contains("2 thread(s)"), "{}", c.summary);
        assert!(c.summary.contains("18.2 %"), "{}", c.summary);
        // Exactly at capacity is not above it.
        assert!(!request_capacity(1100.0, &BrokerSettings::default()).exceeds_capacity);
    }

    /// A small quota keeps two significant digits: the article's 1 % (and
    /// the lab's 0.3 %) is not "0 thread(s)" or "0.0 %" of the capacity.
    #[test]
    fn a_small_percentage_keeps_two_significant_digits() {
        let c = request_capacity(0.3, &BrokerSettings::default());
        assert!(c.summary.starts_with("request_percentage=0.3 is 0.003 thread(s) worth of time per quota window, 0.027 % of one broker's capacity of 1100.0 %"), "{}", c.summary);
        let c = request_capacity(1.0, &BrokerSettings::default());
        assert!(c.summary.contains("is 0.01 thread(s) worth"), "{}", c.summary);
        assert!(c.summary.contains(", 0.091 % of one broker's"), "{}", c.summary);
        assert!(request_capacity(0.0, &BrokerSettings::default()).summary.contains("is 0 thread(s) worth of time per quota window, 0.0 % of"));
    }

    #[test]
    fn an_absurd_percentage_reads_in_java_form_not_hundreds_of_digits() {
        let c = request_capacity(1e308, &BrokerSettings::default());
        assert!(c.summary.starts_with("request_percentage=1.0E308 is 1.0E306 thread(s) worth of time per quota window, 9.09090909090909E306 % of one broker's capacity"), "{}", c.summary);
        assert!(c.summary.len() < 300, "{}", c.summary);
    }

    #[test]
    fn thread_settings_change_the_capacity() {
        let s = BrokerSettings {
            num_io_threads: 16,
            num_network_threads: 4,
            ..BrokerSettings::default()
        };
        let c = request_capacity(1200.0, &s);
        assert_eq!(c.capacity_percent, 2000.0);
        assert!(!c.exceeds_capacity);
    }

    #[test]
    fn byte_rates_scale_with_leaders() {
        let r = byte_rate_scope(10_000_000.0, 3);
        assert_eq!(r.cluster, 30_000_000.0);
        assert!(r.summary.contains("30 MB/s"), "{}", r.summary);
        assert_eq!(byte_rate_scope(10_000_000.0, 1).cluster, 10_000_000.0);
        assert_eq!(byte_rate_scope(10_000_000.0, 0).cluster, 0.0);
        assert_eq!(human_bytes(2_500_000.0), "2.5 MB/s");
        assert_eq!(human_bytes(512.0), "512 B/s");
    }
}
