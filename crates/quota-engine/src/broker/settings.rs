//! Broker properties that shape quotas, with Kafka's names and defaults.

use serde::{Deserialize, Serialize};

use crate::Error;
use crate::metrics::QuotaWindow;

/// Broker settings, serialised with Kafka's property names.
///
/// Kafka: `QuotaConfig` (`quota.window.num`, `quota.window.size.seconds`),
/// server-common/src/main/java/org/apache/kafka/server/config/QuotaConfig.java;
/// `ServerConfigs` / `SocketServerConfigs` (`num.io.threads`,
/// `num.network.threads`); `MetricConfig` defaults (`metrics.num.samples`,
/// `metrics.sample.window.ms`) for the throttle-time sensors.
///
/// # Example
///
/// ```
/// use quota_engine::broker::BrokerSettings;
///
/// let s: BrokerSettings = serde_json::from_str(r#"{"quota.window.num": 5}"#)?;
/// assert_eq!(s.quota_window_num, 5);
/// assert_eq!(s.quota_window_size_seconds, 1);
/// assert_eq!(s.num_io_threads, 8);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrokerSettings {
    /// `quota.window.num`: samples kept by every quota rate (default 11).
    #[serde(rename = "quota.window.num", default = "default_window_num")]
    pub quota_window_num: u32,
    /// `quota.window.size.seconds`: length of one sample (default 1).
    #[serde(
        rename = "quota.window.size.seconds",
        default = "default_window_size_s"
    )]
    pub quota_window_size_seconds: u32,
    /// `num.io.threads`: request handler threads (default 8).
    #[serde(rename = "num.io.threads", default = "default_io_threads")]
    pub num_io_threads: u32,
    /// `num.network.threads`: network processor threads per listener (default 3).
    #[serde(rename = "num.network.threads", default = "default_network_threads")]
    pub num_network_threads: u32,
    /// `fetch.max.bytes` (broker side): the cap on one fetch response (default 57671680).
    #[serde(rename = "fetch.max.bytes", default = "default_broker_fetch_max_bytes")]
    pub fetch_max_bytes: u32,
    /// `metrics.num.samples`: samples of non-quota metrics such as `throttle-time` (default 2).
    #[serde(rename = "metrics.num.samples", default = "default_metrics_samples")]
    pub metrics_num_samples: u32,
    /// `metrics.sample.window.ms` (default 30000).
    #[serde(
        rename = "metrics.sample.window.ms",
        default = "default_metrics_window_ms"
    )]
    pub metrics_sample_window_ms: u32,
    /// `ssl.principal.mapping.rules` (default `DEFAULT`: the whole DN).
    #[serde(
        rename = "ssl.principal.mapping.rules",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub ssl_principal_mapping_rules: Option<String>,
    /// `sasl.kerberos.principal.to.local.rules`, comma-separated (default `DEFAULT`).
    #[serde(
        rename = "sasl.kerberos.principal.to.local.rules",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub sasl_kerberos_principal_to_local_rules: Option<String>,
    /// The Kerberos default realm the broker's JVM reads from `krb5.conf`
    /// (`[libdefaults] default_realm`); not a Kafka property. The `DEFAULT`
    /// rule of `sasl.kerberos.principal.to.local.rules` shortens
    /// `alice@REALM` to `alice` only when `REALM` equals it. `None` = no
    /// default realm (Kafka then uses `""`, so `DEFAULT` matches no realm).
    ///
    /// Kafka: `SaslChannelBuilder.defaultKerberosRealm` and
    /// `KerberosRule.apply`,
    /// clients/src/main/java/org/apache/kafka/common/security/kerberos/KerberosRule.java.
    #[serde(
        rename = "krb5.default_realm",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub kerberos_default_realm: Option<String>,
    /// `socket.receive.buffer.bytes`: the broker socket's receive buffer
    /// (`SO_RCVBUF`), bytes (default 102400). A muted channel is not read,
    /// so at most this many bytes (plus the client's `send.buffer.bytes`)
    /// wait for it; at least 1 here (Kafka's -1, the OS default, is not
    /// modelled).
    ///
    /// Kafka: `SocketServerConfigs.SOCKET_RECEIVE_BUFFER_BYTES_CONFIG`,
    /// server/src/main/java/org/apache/kafka/network/SocketServerConfigs.java.
    #[serde(
        rename = "socket.receive.buffer.bytes",
        default = "default_socket_receive_buffer_bytes",
        skip_serializing_if = "is_default_socket_receive_buffer"
    )]
    pub socket_receive_buffer_bytes: i32,
    /// `max.connection.creation.rate` (connections/s, default
    /// `Int.MaxValue` = unlimited): the broker-wide limit on new
    /// connections; the acceptor waits before it accepts the next one
    /// rather than closing it (`ConnectionQuotas.waitForConnectionSlot`,
    /// core/src/main/scala/kafka/network/SocketServer.scala). Not written
    /// when default. The per-listener `listener.name.<l>.max.connection.creation.rate`
    /// is not modelled.
    ///
    /// Kafka: `SocketServerConfigs.MAX_CONNECTION_CREATION_RATE_CONFIG`
    /// (server/src/main/java/org/apache/kafka/network/SocketServerConfigs.java).
    #[serde(
        rename = "max.connection.creation.rate",
        default = "default_max_connection_creation_rate",
        skip_serializing_if = "is_default_max_connection_creation_rate"
    )]
    pub max_connection_creation_rate: i32,
}

fn default_max_connection_creation_rate() -> i32 {
    i32::MAX
}

fn is_default_max_connection_creation_rate(v: &i32) -> bool {
    *v == i32::MAX
}

/// `socket.receive.buffer.bytes` default, bytes (`100 * 1024`).
///
/// Kafka: `SocketServerConfigs.SOCKET_RECEIVE_BUFFER_BYTES_DEFAULT`.
pub(crate) const DEFAULT_SOCKET_RECEIVE_BUFFER_BYTES: i32 = 102_400;

fn default_socket_receive_buffer_bytes() -> i32 {
    DEFAULT_SOCKET_RECEIVE_BUFFER_BYTES
}

fn is_default_socket_receive_buffer(v: &i32) -> bool {
    *v == DEFAULT_SOCKET_RECEIVE_BUFFER_BYTES
}

fn default_window_num() -> u32 {
    11
}
fn default_window_size_s() -> u32 {
    1
}
fn default_io_threads() -> u32 {
    8
}
fn default_network_threads() -> u32 {
    3
}
fn default_broker_fetch_max_bytes() -> u32 {
    57_671_680
}
fn default_metrics_samples() -> u32 {
    2
}
fn default_metrics_window_ms() -> u32 {
    30_000
}

impl Default for BrokerSettings {
    fn default() -> Self {
        BrokerSettings {
            quota_window_num: default_window_num(),
            quota_window_size_seconds: default_window_size_s(),
            num_io_threads: default_io_threads(),
            num_network_threads: default_network_threads(),
            fetch_max_bytes: default_broker_fetch_max_bytes(),
            metrics_num_samples: default_metrics_samples(),
            metrics_sample_window_ms: default_metrics_window_ms(),
            ssl_principal_mapping_rules: None,
            sasl_kerberos_principal_to_local_rules: None,
            kerberos_default_realm: None,
            socket_receive_buffer_bytes: DEFAULT_SOCKET_RECEIVE_BUFFER_BYTES,
            max_connection_creation_rate: default_max_connection_creation_rate(),
        }
    }
}

impl BrokerSettings {
    /// The quota window: `quota.window.num` samples of
    /// `quota.window.size.seconds` each.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BrokerSetting`](crate::ErrorKind::BrokerSetting) when a value is out of Kafka's range
    /// (`quota.window.num` >= 1, `quota.window.size.seconds` >= 1).
    pub fn quota_window(&self) -> Result<QuotaWindow, Error> {
        if self.quota_window_size_seconds == 0 {
            return Err(Error::invalid_setting("quota.window.size.seconds", "it must be at least 1"));
        }
        QuotaWindow::try_new(
            self.quota_window_num,
            i64::from(self.quota_window_size_seconds) * 1000,
        )
        .map_err(|e| Error::invalid_setting_window("quota.window.num", e))
    }

    /// The window of the broker's ordinary metrics (`metrics.num.samples` x
    /// `metrics.sample.window.ms`), used by the `throttle-time` sensors.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BrokerSetting`](crate::ErrorKind::BrokerSetting) when either value is 0.
    pub fn metrics_window(&self) -> Result<QuotaWindow, Error> {
        if self.metrics_sample_window_ms == 0 {
            return Err(Error::invalid_setting("metrics.sample.window.ms", "it must be at least 1"));
        }
        QuotaWindow::try_new(
            self.metrics_num_samples,
            i64::from(self.metrics_sample_window_ms),
        )
        .map_err(|e| Error::invalid_setting_window("metrics.num.samples", e))
    }

    /// The request quota's total capacity in percent of one thread:
    /// `(num.io.threads + num.network.threads) * 100`.
    ///
    /// Kafka: the design documentation of request quotas.
    pub fn request_capacity_percent(&self) -> f64 {
        (f64::from(self.num_io_threads) + f64::from(self.num_network_threads)) * 100.0
    }

    /// The settings that decide principals, as the principal builder takes
    /// them: both rule lists (the Kerberos one split with
    /// [`crate::principal::parse_config_list`]) and the default realm.
    pub fn principal_config(&self) -> crate::principal::PrincipalConfig {
        crate::principal::PrincipalConfig {
            ssl_principal_mapping_rules: self.ssl_principal_mapping_rules.clone(),
            sasl_kerberos_principal_to_local_rules: self
                .sasl_kerberos_principal_to_local_rules
                .as_deref()
                .map(crate::principal::parse_config_list),
            kerberos_default_realm: self.kerberos_default_realm.clone().unwrap_or_default(),
            ..crate::principal::PrincipalConfig::default()
        }
    }

    /// Checks every setting (window, threads, socket receive buffer).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BrokerSetting`](crate::ErrorKind::BrokerSetting) naming the first bad property.
    pub fn validate(&self) -> Result<(), Error> {
        self.quota_window()?;
        self.metrics_window()?;
        if self.num_io_threads == 0 {
            return Err(Error::invalid_setting("num.io.threads", "it must be at least 1"));
        }
        if self.num_network_threads == 0 {
            return Err(Error::invalid_setting("num.network.threads", "it must be at least 1"));
        }
        if self.socket_receive_buffer_bytes < 1 {
            return Err(Error::invalid_setting(
                "socket.receive.buffer.bytes",
                format!(
                    "it is {} and must be at least 1 (the OS default, -1, is not modelled)",
                    self.socket_receive_buffer_bytes
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kerberos_default_realm_reaches_the_principal_config() {
        let s: BrokerSettings = serde_json::from_str(r#"{"krb5.default_realm": "EXAMPLE.COM"}"#).unwrap();
        assert_eq!(s.kerberos_default_realm.as_deref(), Some("EXAMPLE.COM"));
        assert_eq!(s.principal_config().kerberos_default_realm, "EXAMPLE.COM");
        assert_eq!(BrokerSettings::default().principal_config().kerberos_default_realm, "");
        // Absent stays absent when written back (old scenario files are unchanged).
        assert!(!serde_json::to_string(&BrokerSettings::default()).unwrap().contains("krb5"));
    }

    #[test]
    fn defaults_are_kafkas() {
        let s = BrokerSettings::default();
        assert_eq!(s.quota_window().unwrap(), QuotaWindow::KAFKA_DEFAULT);
        assert_eq!(s.request_capacity_percent(), 1100.0);
        assert!(s.validate().is_ok());
    }

    #[test]
    fn zero_threads_is_rejected_with_the_property_name() {
        let s = BrokerSettings {
            num_io_threads: 0,
            ..BrokerSettings::default()
        };
        let e = s.validate().unwrap_err().to_string();
        assert!(e.contains("num.io.threads"), "{e}");
    }

    #[test]
    fn unknown_properties_are_rejected() {
        let r: Result<BrokerSettings, _> = serde_json::from_str(r#"{"quota.window.nums": 5}"#);
        assert!(r.is_err());
    }
}
