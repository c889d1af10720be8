//! The scenario: everything a simulation run depends on, as one serde value.
//!
//! This module sits below both [`crate::cluster`] (which analyses a
//! scenario) and [`crate::sim`] (which runs it, and re-exports these types
//! as `sim::Scenario` and so on); it imports neither. Fields are typed as
//! the broker reads them, so a bad value is refused when the scenario is
//! read, with a message naming it: the listener ([`ListenerKind`]), the SASL
//! mechanism ([`SaslMechanism`]), `ssl.client.auth` ([`SslClientAuth`]) and
//! the source address ([`SourceIp`]).
//!
//! Quotas are `{entity, key, value}` entries applied to a
//! [`QuotaStore`](crate::store::QuotaStore); broker settings and client
//! configs use Kafka's own property names and defaults; connections say who a
//! client is (listener, identity, `client.id`, IP), and the principal follows
//! from them as Kafka's default principal builder derives it. The
//! [`Environment`] (link, broker and client costs) defaults to the lab
//! calibration documented on [`Environment::LAB`].
//!
//! A problem with a scenario is placed by a typed [`ProblemPath`] into this
//! JSON (`topics[0].partitions`).

mod path;
pub use path::{PathStep, ProblemPath};

use serde::{Deserialize, Serialize};

use crate::broker::BrokerSettings;
use crate::entity::{QuotaEntity, QuotaKey};
use crate::principal::{SaslMechanism, SslClientAuth};
use crate::store::validate::IpAddress;

/// A complete simulation input. Unknown fields are rejected.
///
/// # Example
///
/// ```
/// use quota_engine::sim::Scenario;
///
/// let s: Scenario = serde_json::from_str(r#"{
///   "topics": [{"name": "t", "partitions": 1}],
///   "quotas": [{"entity": {"client-id": "app"}, "key": "producer_byte_rate", "value": 2000000}],
///   "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "app"}],
///   "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 1000, "record.size": 1000}}]
/// }"#)?;
/// assert_eq!(s.workloads.len(), 1);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// A short title.
    #[serde(default)]
    pub name: String,
    /// What the scenario shows.
    #[serde(default)]
    pub description: String,
    /// Seed of the world's one RNG.
    #[serde(default)]
    pub seed: u64,
    /// Link, broker and client costs; defaults to [`Environment::LAB`].
    #[serde(default)]
    pub environment: Environment,
    /// The brokers of the cluster.
    #[serde(default)]
    pub brokers: BrokersSpec,
    /// Topics; partition `p`'s leader is `leaders[p]`, else broker
    /// `p % brokers.count`.
    #[serde(default)]
    pub topics: Vec<TopicSpec>,
    /// Client quotas (and `ip` connection-rate quotas), applied in order.
    #[serde(default)]
    pub quotas: Vec<QuotaSetting>,
    /// The client connections (one per client).
    #[serde(default)]
    pub connections: Vec<ConnectionSpec>,
    /// Producers and consumers, each on one named connection.
    #[serde(default)]
    pub workloads: Vec<Workload>,
    /// The simulation stops at this time (ms) even if clients are not done.
    #[serde(default = "default_horizon_ms")]
    pub horizon_ms: u64,
    /// What happens to the cluster during the run (leadership moves, quota
    /// alterations), each at its `at_ms`; none when absent (not written out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<ScenarioEvent>,
    /// Which network the run uses: the modelled one (default, not written
    /// out) or the [`NetworkModel::Textbook`] one of `docs/textbook-network.md`.
    #[serde(default, skip_serializing_if = "NetworkModel::is_modelled")]
    pub network: NetworkModel,
    /// The textbook network's link and handling time; used only when
    /// `network` is `textbook` (absent = [`TextbookNetwork::default`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub textbook: Option<TextbookNetwork>,
}

/// A scenario that passed [`Scenario::validate`], borrowed:
/// `Valid<&Scenario>`. `validate` is the only way to make one, and every
/// run takes one ([`crate::sim::simulate`] and its variants,
/// [`crate::sim::textbook::run`], [`crate::sim::simulate_seeds`]), so a run
/// never starts from a scenario whose problems were not looked at; a
/// surface that shows the problems (the page at its fields, the CLI as its
/// message) calls `validate` itself and runs only on `Ok`.
///
/// [`crate::cluster::Cluster::new`] still takes any `&Scenario`: it
/// analyses what can be analysed of an invalid scenario (a refused quota
/// keeps its own error, the other quotas still resolve), which is what the
/// page shows beside a problem.
///
/// It dereferences to the [`Scenario`] and is `Copy`.
///
/// # Example
///
/// ```
/// use quota_engine::sim::{simulate, Scenario};
///
/// let s: Scenario = serde_json::from_str(r#"{
///   "topics": [{"name": "t", "partitions": 1}],
///   "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "app"}],
///   "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 10, "record.size": 100}}]
/// }"#)?;
/// let valid = s.validate().map_err(quota_engine::Error::from)?;
/// assert_eq!(valid.workloads.len(), 1);
/// let t = simulate(valid)?;
/// assert_eq!(t.clients[0].metrics.records_done, 10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Valid<T>(T);

impl<T> Valid<T> {
    /// Marks `value` as checked; only after [`Scenario::validate`] passed
    /// for it (or for a scenario it differs from in no checked field, such
    /// as its `seed`).
    pub(crate) fn checked(value: T) -> Self {
        Self(value)
    }
}

impl<'a> Valid<&'a Scenario> {
    /// The scenario, for as long as it is borrowed.
    pub fn get(self) -> &'a Scenario {
        self.0
    }
}

impl<T: std::ops::Deref> std::ops::Deref for Valid<T> {
    type Target = T::Target;
    fn deref(&self) -> &T::Target {
        &self.0
    }
}

/// Which network a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NetworkModel {
    /// The modelled network and clients ([`Environment`], Java producer and
    /// consumer): the default.
    #[default]
    Modelled,
    /// A textbook network where every figure follows from the quota
    /// manager alone: whole milliseconds, no framing bytes, fixed handling
    /// time ([`TextbookNetwork`], `docs/textbook-network.md`).
    Textbook,
}

impl NetworkModel {
    /// True for the default [`NetworkModel::Modelled`] (then not serialised).
    pub fn is_modelled(&self) -> bool {
        *self == NetworkModel::Modelled
    }
}

/// The textbook network's three numbers: the link `L`, the one-way latency
/// `D` and the broker's handling time `H`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextbookNetwork {
    /// `L`: bytes per second in each direction of each connection's own
    /// full-duplex link; a transfer of `b` bytes takes `ceil(1000 * b / L)`
    /// ms. At least 1. Default 1000000 (1000 bytes per ms).
    #[serde(default = "default_textbook_bandwidth")]
    pub bandwidth_bytes_per_s: u64,
    /// `D`: one-way latency in ms, added to every transfer. Default 0.
    #[serde(default)]
    pub latency_ms: u64,
    /// `H`: the broker's handling time per request in ms. Default 0.
    #[serde(default)]
    pub handling_ms: u64,
}

fn default_textbook_bandwidth() -> u64 {
    1_000_000
}

impl Default for TextbookNetwork {
    fn default() -> Self {
        TextbookNetwork {
            bandwidth_bytes_per_s: default_textbook_bandwidth(),
            latency_ms: 0,
            handling_ms: 0,
        }
    }
}

fn default_horizon_ms() -> u64 {
    600_000
}

/// The cluster's brokers: how many, and their (identical) settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrokersSpec {
    /// Number of brokers (ids 0..count); at least 1.
    #[serde(default = "one")]
    pub count: u32,
    /// Broker properties with Kafka's names and defaults.
    #[serde(default)]
    pub settings: BrokerSettings,
}

fn one() -> u32 {
    1
}

impl Default for BrokersSpec {
    fn default() -> Self {
        BrokersSpec {
            count: 1,
            settings: BrokerSettings::default(),
        }
    }
}

/// One topic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSpec {
    /// Topic name.
    pub name: String,
    /// Number of partitions (at least 1).
    #[serde(default = "one")]
    pub partitions: u32,
    /// Records already in the log at the start (for consumers).
    #[serde(default)]
    pub preload: Option<Preload>,
    /// The leader (broker id) of each partition, one per partition; absent =
    /// round robin (partition `p` on broker `p % brokers.count`), as Kafka's
    /// replica placement spreads leaders (not written out when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaders: Option<Vec<u32>>,
}

impl TopicSpec {
    /// The leader of partition `p` (the scenario was validated: `leaders`
    /// has one entry per partition, each below `broker_count`).
    pub fn leader(&self, p: u32, broker_count: u32) -> u32 {
        match self.leaders.as_ref().and_then(|l| l.get(p as usize)) {
            Some(b) => *b,
            None => Self::round_robin_leader(p, broker_count),
        }
    }

    /// The leader of partition `p` when the topic lists none: round robin,
    /// broker `p % broker_count` (a count of 0 reads as 1), as Kafka's
    /// replica placement spreads leaders.
    pub fn round_robin_leader(p: u32, broker_count: u32) -> u32 {
        p % broker_count.max(1)
    }
}

/// Something that happens to the cluster at `at_ms` during the run,
/// written `{"at_ms": 5000, "kind": "move_leader", ...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ScenarioEvent {
    /// Leadership of one partition moves to another broker (a preferred
    /// leader election or reassignment). Simplified: from `at_ms` on, every
    /// new produce and fetch for the partition goes to the new leader, as if
    /// each client refreshed its metadata at once; requests already in flight
    /// to the old leader complete there. Kafka's clients learn of the move
    /// from a `NOT_LEADER_OR_FOLLOWER` error or a metadata refresh and retry
    /// (clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java
    /// `canRetry`/`metadata.requestUpdate`); that round trip is not modelled.
    MoveLeader {
        /// When (ms from the start).
        at_ms: u64,
        /// The topic.
        topic: String,
        /// The partition index.
        partition: u32,
        /// The new leader's broker id.
        to_broker: u32,
    },
    /// A client-quota alteration (`kafka-configs.sh --alter --add-config` or
    /// `--delete-config`), applied at once on every broker: existing sensors
    /// keep their samples and take the new bound, as
    /// `ClientQuotaManager.updateQuotaMetricConfigs` does
    /// (core/src/main/scala/kafka/server/ClientQuotaManager.scala); `null`
    /// removes the key, and sensors fall back to the next matching quota.
    SetQuota {
        /// When (ms from the start).
        at_ms: u64,
        /// The entity, as in `quotas`.
        entity: QuotaEntity,
        /// The quota key.
        key: QuotaKey,
        /// The new value, or `null` to remove the key. `NaN` is written as
        /// the string `"NaN"` ([`crate::json_f64`]).
        #[serde(with = "optional_f64")]
        value: Option<f64>,
    },
}

impl ScenarioEvent {
    /// When the event happens (ms from the start).
    pub fn at_ms(&self) -> u64 {
        match self {
            ScenarioEvent::MoveLeader { at_ms, .. } | ScenarioEvent::SetQuota { at_ms, .. } => *at_ms,
        }
    }

    /// The event's kind as written in JSON (`move_leader`, `set_quota`).
    pub fn kind(&self) -> &'static str {
        match self {
            ScenarioEvent::MoveLeader { .. } => "move_leader",
            ScenarioEvent::SetQuota { .. } => "set_quota",
        }
    }
}

/// `Option<f64>` through [`crate::json_f64`]: `null` is `None`.
mod optional_f64 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => crate::json_f64::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    #[derive(Deserialize)]
    struct Wrapped(#[serde(with = "crate::json_f64")] f64);

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        Ok(Option::<Wrapped>::deserialize(d)?.map(|w| w.0))
    }
}

/// Records written to a topic before the run, spread evenly over partitions,
/// in batches as a producer with this `batch.size` would have written them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preload {
    /// Number of records.
    pub records: u64,
    /// Value size of each record in bytes.
    #[serde(rename = "record.size")]
    pub record_size: u32,
    /// The producer `batch.size` the data was written with (bytes).
    #[serde(rename = "batch.size", default = "default_batch_size")]
    pub batch_size: u32,
}

/// One quota setting: `entity`, `key`, `value` (as `kafka-configs.sh --add-config`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuotaSetting {
    /// The entity, e.g. `{"client-id": "app"}`, `{"user": null}` (default user).
    pub entity: QuotaEntity,
    /// The quota key.
    pub key: QuotaKey,
    /// The value (bytes/s, percent, mutations/s, connections/s). `NaN`,
    /// which Kafka accepts, is written as the string `"NaN"`
    /// ([`crate::json_f64`]).
    #[serde(with = "crate::json_f64")]
    pub value: f64,
}

/// The security protocol of the listener a client connects to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ListenerKind {
    /// `PLAINTEXT`: the principal is always `User:ANONYMOUS`.
    #[serde(rename = "PLAINTEXT")]
    Plaintext,
    /// `SSL`: the certificate DN through `ssl.principal.mapping.rules`, or ANONYMOUS without one.
    #[serde(rename = "SSL")]
    Ssl,
    /// `SASL_PLAINTEXT`: the authenticated SASL name.
    #[serde(rename = "SASL_PLAINTEXT")]
    SaslPlaintext,
    /// `SASL_SSL`: the authenticated SASL name.
    #[serde(rename = "SASL_SSL")]
    SaslSsl,
}

/// Who a client is on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectionSpec {
    /// A name workloads refer to.
    pub name: String,
    /// The listener's security protocol.
    pub listener: ListenerKind,
    /// SASL mechanism, written as Kafka spells it (`PLAIN`, `SCRAM-SHA-256`,
    /// `SCRAM-SHA-512`, `GSSAPI`, `OAUTHBEARER`; any other name is refused
    /// when the scenario is read); SASL listeners only. Absent = `PLAIN`
    /// ([`ConnectionSpec::sasl_mechanism`]).
    #[serde(default)]
    pub mechanism: Option<SaslMechanism>,
    /// The SSL listener's `ssl.client.auth` (`none`, `requested`,
    /// `required`; any other value is refused when the scenario is read);
    /// absent = `required` when an identity (DN) is given, else `none`
    /// ([`crate::cluster::ssl_client_auth`]).
    #[serde(rename = "ssl.client.auth", default)]
    pub ssl_client_auth: Option<SslClientAuth>,
    /// The SASL user name (PLAIN, SCRAM), Kerberos principal (GSSAPI) or
    /// token `sub` claim (OAUTHBEARER), or the certificate DN (SSL listener;
    /// none = no client certificate). Ignored on PLAINTEXT.
    #[serde(default)]
    pub identity: Option<String>,
    /// The client's `client.id` (may be empty).
    #[serde(rename = "client.id", default)]
    pub client_id: String,
    /// The client's source address (for `ip` connection-rate quotas): an
    /// IPv4 or IPv6 literal as `InetAddress.getByName` reads it; anything
    /// else is refused when the scenario is read ([`SourceIp`]). Default
    /// `127.0.0.1`.
    #[serde(default)]
    pub ip: SourceIp,
    /// How throttling plays out on this connection: the client honours
    /// `throttle_time_ms` (KIP-219, Java clients >= 2.0), the broker is older
    /// than 2.0 and delays the response for it (legacy, any client), or the
    /// client ignores it ([`ClientThrottling::IgnoresThrottle`], librdkafka,
    /// and Java clients < 2.0 against a broker >= 2.0).
    #[serde(default)]
    pub client_throttling: ClientThrottling,
}

impl ConnectionSpec {
    /// The SASL mechanism the client authenticates with: `mechanism`, else
    /// `PLAIN` (the scenario's default; Kafka's own client default,
    /// `sasl.mechanism=GSSAPI`, is not assumed).
    pub fn sasl_mechanism(&self) -> SaslMechanism {
        self.mechanism.unwrap_or(SaslMechanism::Plain)
    }
}

/// A connection's source address: the text as written (kept, so a scenario
/// reads back as it was written) and the address it names.
///
/// Only literals Kafka's broker could see on a socket are accepted: the
/// forms [`IpAddress::parse`] reads as `InetAddress.getByName` does without
/// the network (IPv4, IPv6 with `::`, a numeric zone, `[...]`). Host names
/// and named zones are refused. Two spellings of one address
/// (`::1`, `0:0:0:0:0:0:0:1`) are one address for the broker's per-IP
/// quotas ([`SourceIp::address`]).
///
/// Kafka: `ConnectionQuotas.connectionRatePerIp` keys by `InetAddress`
/// (core/src/main/scala/kafka/network/SocketServer.scala).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceIp {
    text: String,
    address: IpAddress,
}

impl SourceIp {
    /// `text` as a source address (surrounding blanks trimmed).
    ///
    /// # Errors
    ///
    /// A message naming `text` when it is not an IP literal (one sentence
    /// the page, the CLI's `--ip` and a scenario file all show).
    pub fn parse(text: &str) -> Result<SourceIp, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("Enter the client's IP address: the broker always knows the socket's source address.".to_owned());
        }
        match IpAddress::parse(text) {
            Some(address) => Ok(SourceIp { text: text.to_owned(), address }),
            None => Err(format!(
                "'{text}' is not an IP address. The broker sees the client's socket address: an IPv4 or IPv6 literal such as 10.0.0.7 or 2001:db8::7."
            )),
        }
    }

    /// The text as written, e.g. `"10.0.0.7"`.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The address, as the broker compares it.
    pub fn address(&self) -> IpAddress {
        self.address
    }
}

impl Default for SourceIp {
    /// `127.0.0.1`.
    fn default() -> Self {
        SourceIp { text: "127.0.0.1".to_owned(), address: IpAddress::V4([127, 0, 0, 1]) }
    }
}

impl std::fmt::Display for SourceIp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::str::FromStr for SourceIp {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        SourceIp::parse(s)
    }
}

impl Serialize for SourceIp {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for SourceIp {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        // Worded as serde's own errors (`found, expected ...`), which the
        // scenario file's reader turns into "expected ..., but found ...".
        SourceIp::parse(&text).map_err(|_| {
            serde::de::Error::custom(format!(
                "'{}', which is not an IP address, expected an IPv4 or IPv6 literal such as 10.0.0.7 or 2001:db8::7 (the broker sees the client's socket address)",
                text.trim()
            ))
        })
    }
}

/// How throttling plays out on a connection: which kind of client, against
/// which kind of broker.
///
/// A broker since Kafka 2.0 (KIP-219) answers at once with
/// `throttle_time_ms` and mutes the channel for the throttle time, whatever
/// the request's version (Kafka: `RequestHandlerHelper.sendResponseMaybeThrottle`
/// and `throttle`, core/src/main/scala/kafka/server/RequestHandlerHelper.scala;
/// `ClientQuotaManager.throttle`, core/src/main/scala/kafka/server/ClientQuotaManager.scala);
/// a muted channel is not read (Kafka: `SocketServer.Processor`,
/// `Selector.mute`), so requests pile up in the socket buffers and then at
/// the client. Whether the client also holds back is the client's choice:
/// `AbstractResponse.shouldClientThrottle` is called only on the client, in
/// `NetworkClient.maybeThrottle` (clients/src/main/java/org/apache/kafka/clients/NetworkClient.java,
/// clients/src/main/java/org/apache/kafka/common/requests/AbstractResponse.java).
/// A broker before 2.0 delayed the response by the throttle time instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClientThrottling {
    /// KIP-219 (Java clients >= 2.0): the response comes at once with
    /// `throttle_time_ms`; the broker mutes the channel and the client
    /// holds back for that time.
    ///
    /// Kafka: `NetworkClient.maybeThrottle`,
    /// clients/src/main/java/org/apache/kafka/clients/NetworkClient.java.
    #[default]
    Kip219,
    /// A broker before Kafka 2.0 (any client): the broker delays the
    /// response by the throttle time instead of answering at once and
    /// muting. (A Java client before 2.0 against a broker >= 2.0 gets its
    /// response at once and the mute, and does not back off itself: model
    /// it as [`ClientThrottling::IgnoresThrottle`].)
    Legacy,
    /// A client that sends new request versions, so the broker answers at
    /// once and mutes the channel as for KIP-219, but that does not back off
    /// on `throttle_time_ms` itself: only the mute and its own in-flight
    /// limit hold it back. librdkafka and the clients built on it
    /// (confluent-kafka-python, -go, -dotnet, kcat) behave so: librdkafka's
    /// `rd_kafka_op_throttle_time` (src/rdkafka_op.c) only adds the throttle
    /// time to the broker's statistics average and raises `throttle_cb`; it
    /// does not hold requests back. KIP-219's client-side back-off is not
    /// implemented (confluentinc/librdkafka issue #5592 "Support
    /// client-side throttling (KIP-219)", open; issue #2153; pull request
    /// #4623, unmerged).
    IgnoresThrottle,
}

impl ClientThrottling {
    /// The client stops sending for `throttle_time_ms` itself (KIP-219).
    pub fn backs_off(self) -> bool {
        self == ClientThrottling::Kip219
    }

    /// The broker sends the response at once and mutes the channel (a
    /// broker >= 2.0, KIP-219) rather than delaying the response (a broker
    /// before 2.0).
    pub fn broker_sends_at_once(self) -> bool {
        self != ClientThrottling::Legacy
    }
}

/// One client's work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Workload {
    /// A Java producer sending records.
    Producer(ProducerWorkload),
    /// A Java consumer reading records.
    Consumer(ConsumerWorkload),
    /// A Java `Admin` client creating topics, adding partitions or deleting
    /// topics under `controller_mutation_rate` ([`crate::sim::admin`]).
    Admin(AdminWorkload),
    /// Clients opening connections to a broker under
    /// `connection_creation_rate` and `max.connection.creation.rate`
    /// ([`crate::sim::connects`]).
    Connects(ConnectsWorkload),
}

impl Workload {
    /// The connection (client) the workload uses.
    pub fn connection(&self) -> &str {
        match self {
            Workload::Producer(p) => &p.connection,
            Workload::Consumer(c) => &c.connection,
            Workload::Admin(a) => &a.connection,
            Workload::Connects(c) => &c.connection,
        }
    }

    /// `producer`, `consumer`, `admin` or `connects`: the workload's key in the JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Workload::Producer(_) => "producer",
            Workload::Consumer(_) => "consumer",
            Workload::Admin(_) => "admin",
            Workload::Connects(_) => "connects",
        }
    }
}

/// How a [`ConnectsWorkload`]'s connections are opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConnectPattern {
    /// `count` clients each open one connection, the k-th at
    /// `start_ms + k * interval_ms` (all at once by default): a pool, or
    /// an application's instances starting.
    #[default]
    Pool,
    /// `count` clients lose their connection at `start_ms` (a broker
    /// restart, a network blip) and reconnect after their
    /// `reconnect.backoff.ms`, each with its own jitter.
    Storm,
    /// A connection is opened, sends one request and is closed, and the
    /// next is opened `interval_ms` after: `count` times, each by a new
    /// client (an application that creates and closes a producer for every
    /// send; a new client starts with no reconnect backoff, where one
    /// Java client reconnecting would wait `reconnect.backoff.ms` first,
    /// `ClusterConnectionStates.disconnected`).
    Reopen,
}

/// Clients opening connections to one broker from the connection's `ip`.
/// Each connection is accepted, or refused by the per-IP
/// `connection_creation_rate` (held for the throttle time, then closed,
/// and the Java client reconnects after `reconnect.backoff.ms`, doubling
/// up to `reconnect.backoff.max.ms`, ±20 % jitter) or delayed by the
/// broker-wide `max.connection.creation.rate` (the acceptor waits).
/// Unknown fields are refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectsWorkload {
    /// The connection (its `ip`, listener and identity) every client uses.
    pub connection: String,
    /// How the connections are opened (default `pool`).
    #[serde(default)]
    pub pattern: ConnectPattern,
    /// Connections (`pool`, `storm`) or open-send-close cycles (`reopen`),
    /// 1 to 10,000.
    pub count: u32,
    /// `pool`: between two clients' first connection; `reopen`: from a
    /// close to the next open (ms; default 0).
    #[serde(default)]
    pub interval_ms: u64,
    /// The broker connected to (default 0).
    #[serde(default)]
    pub broker: u32,
    /// When the first connection is opened, or the storm's connections drop (ms).
    #[serde(default)]
    pub start_ms: u64,
    /// Client configs, Kafka names and defaults.
    #[serde(default)]
    pub config: ConnectConfig,
}

/// The client configs a [`ConnectsWorkload`] reads. Unknown names are refused.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectConfig {
    /// `reconnect.backoff.ms` (50): the first wait after a connection fails.
    #[serde(rename = "reconnect.backoff.ms", default = "default_reconnect_backoff_ms")]
    pub reconnect_backoff_ms: u64,
    /// `reconnect.backoff.max.ms` (1000): the cap of the doubling wait.
    #[serde(rename = "reconnect.backoff.max.ms", default = "default_reconnect_backoff_max_ms")]
    pub reconnect_backoff_max_ms: u64,
}

fn default_reconnect_backoff_ms() -> u64 {
    50
}

fn default_reconnect_backoff_max_ms() -> u64 {
    1000
}

impl Default for ConnectConfig {
    fn default() -> Self {
        ConnectConfig {
            reconnect_backoff_ms: default_reconnect_backoff_ms(),
            reconnect_backoff_max_ms: default_reconnect_backoff_max_ms(),
        }
    }
}

/// Which Admin API an [`AdminWorkload`] calls, and so which request and
/// how many partition mutations each topic costs.
///
/// Kafka: `ControllerApis.handleCreateTopics` / `handleCreatePartitions` /
/// `handleDeleteTopics` (core/src/main/scala/kafka/server/ControllerApis.scala)
/// and `ReplicationControlManager`, which charges each topic its partitions
/// (`context.applyPartitionChangeQuota`: the new partitions of a created
/// topic, the added ones of CreatePartitions, all of a deleted topic's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdminOperation {
    /// `Admin.createTopics`: CreateTopics, strict since v6 (the Java 4.3.1
    /// client sends v7).
    #[default]
    CreateTopics,
    /// `Admin.createPartitions`: CreatePartitions, strict since v3 (the Java
    /// client sends v3); `partitions` is the count added to each topic.
    CreatePartitions,
    /// `Admin.deleteTopics`: DeleteTopics, strict since v5 (the Java client
    /// sends v6); `partitions` is each deleted topic's count.
    DeleteTopics,
}

impl AdminOperation {
    /// The Admin method's name, e.g. `createTopics`.
    pub fn method(self) -> &'static str {
        match self {
            AdminOperation::CreateTopics => "createTopics",
            AdminOperation::CreatePartitions => "createPartitions",
            AdminOperation::DeleteTopics => "deleteTopics",
        }
    }

    /// The request's name, e.g. `CreateTopics`.
    pub fn request_name(self) -> &'static str {
        match self {
            AdminOperation::CreateTopics => "CreateTopics",
            AdminOperation::CreatePartitions => "CreatePartitions",
            AdminOperation::DeleteTopics => "DeleteTopics",
        }
    }

    /// The versions Kafka 4.3.1 accepts (`validVersions` of the request's
    /// JSON schema, clients/src/main/resources/common/message/): 2-7, 0-3, 1-6.
    pub fn valid_versions(self) -> (i16, i16) {
        match self {
            AdminOperation::CreateTopics => (2, 7),
            AdminOperation::CreatePartitions => (0, 3),
            AdminOperation::DeleteTopics => (1, 6),
        }
    }

    /// The first version whose response the client honours by throttling
    /// its connection (`AbstractResponse.shouldClientThrottle`, KIP-219):
    /// CreateTopics 3, CreatePartitions 1, DeleteTopics 2.
    pub fn client_throttles_since(self) -> i16 {
        match self {
            AdminOperation::CreateTopics => 3,
            AdminOperation::CreatePartitions => 1,
            AdminOperation::DeleteTopics => 2,
        }
    }
}

/// An Admin-client application: `topics` topics of `partitions` each,
/// created (or extended, or deleted) in calls of `topics_per_call` topics,
/// the application's k-th call made at `start_ms + k * call_interval_ms`
/// without waiting for the earlier ones (as a Terraform run or a script
/// looping over `kafka-topics.sh --create` would, at a rate; all at once by
/// default).
///
/// The topics are named `<topic_prefix>-<i>`. Unknown fields are refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdminWorkload {
    /// The connection (client) the Admin client uses.
    pub connection: String,
    /// The Admin API called (default `create_topics`).
    #[serde(default)]
    pub operation: AdminOperation,
    /// How many topics (at least 1).
    pub topics: u32,
    /// Partitions per topic: created, added (`create_partitions`) or deleted
    /// (at least 1; default 1).
    #[serde(default = "one_u32")]
    pub partitions: u32,
    /// The replication factor of created topics (default 1). The quota
    /// counts partitions, not replicas (`applyPartitionChangeQuota`), so the
    /// simulator only carries it for the lab's real runs.
    #[serde(default = "one_u32", skip_serializing_if = "is_one_u32")]
    pub replication_factor: u32,
    /// Topic names are `<topic_prefix>-<i>` (default `admin`).
    #[serde(default = "default_topic_prefix")]
    pub topic_prefix: String,
    /// Topics per Admin call; absent = all of them in one call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics_per_call: Option<u32>,
    /// Time between the application's calls (ms; default 0: all at once).
    #[serde(default)]
    pub call_interval_ms: u64,
    /// When the application makes its first call (ms).
    #[serde(default)]
    pub start_ms: u64,
    /// `CreateTopicsOptions.retryOnQuotaViolation` (and the same option of
    /// the other two): the Admin client retries the topics refused with
    /// `THROTTLING_QUOTA_EXCEEDED` once its connection is no longer
    /// throttled, until the call's deadline (default true).
    #[serde(default = "yes")]
    pub retry_on_quota_violation: bool,
    /// The request version the client sends; absent = the Java 4.3.1
    /// client's newest (strict). An older version makes the quota
    /// permissive ([`crate::broker::MutationRequest::mode`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_version: Option<i16>,
    /// Admin client configuration, Kafka names and defaults.
    #[serde(default)]
    pub config: AdminConfig,
}

impl AdminWorkload {
    /// The request version sent: `api_version`, else the newest.
    pub fn version(&self) -> i16 {
        self.api_version.unwrap_or(self.operation.valid_versions().1)
    }

    /// Topics per call (at least 1).
    pub fn per_call(&self) -> u32 {
        self.topics_per_call.unwrap_or(self.topics).max(1)
    }
}

fn one_u32() -> u32 {
    1
}

fn is_one_u32(v: &u32) -> bool {
    *v == 1
}

fn yes() -> bool {
    true
}

fn default_topic_prefix() -> String {
    "admin".to_owned()
}

/// The Admin client configs the simulator reads. Unknown names are refused.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdminConfig {
    /// `default.api.timeout.ms` (60000): each Admin call's deadline,
    /// `KafkaAdminClient.calcDeadlineMs`; a call still retrying refused
    /// topics then fails them with `ThrottlingQuotaExceededException`.
    #[serde(rename = "default.api.timeout.ms", default = "default_api_timeout_ms")]
    pub default_api_timeout_ms: u64,
    /// `request.timeout.ms` (30000). Kafka refuses a `default.api.timeout.ms`
    /// below it, and raises the default one to it
    /// (`KafkaAdminClient.configureDefaultApiTimeoutMs`); a request is never
    /// in flight that long here.
    #[serde(rename = "request.timeout.ms", default = "default_admin_request_timeout_ms")]
    pub request_timeout_ms: u64,
}

fn default_api_timeout_ms() -> u64 {
    60_000
}

fn default_admin_request_timeout_ms() -> u64 {
    30_000
}

impl AdminConfig {
    /// The deadline each call gets (ms): `default.api.timeout.ms`, or
    /// `request.timeout.ms` when that is larger and the API timeout was
    /// left at its default (Kafka logs "Overriding the default value for
    /// default.api.timeout.ms"). A set value below `request.timeout.ms` is
    /// refused by the scenario's validation, as Kafka refuses it.
    pub fn api_timeout_ms(&self) -> u64 {
        if self.default_api_timeout_ms == default_api_timeout_ms() {
            self.default_api_timeout_ms.max(self.request_timeout_ms)
        } else {
            self.default_api_timeout_ms
        }
    }
}

impl Default for AdminConfig {
    fn default() -> Self {
        AdminConfig {
            default_api_timeout_ms: default_api_timeout_ms(),
            request_timeout_ms: default_admin_request_timeout_ms(),
        }
    }
}

/// A producer application: `records` records of `record.size` bytes, sent as
/// fast as `send()` allows or at `throughput` records/s, then waiting for
/// every acknowledgement (like `kafka-producer-perf-test.sh`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProducerWorkload {
    /// The connection (client) this producer uses.
    pub connection: String,
    /// Target topic.
    pub topic: String,
    /// Number of records to send (0 when absent; a textbook producer uses
    /// `bytes` and `request.size` instead).
    #[serde(default)]
    pub records: u64,
    /// Value size in bytes (no key; 0 when absent).
    #[serde(rename = "record.size", default)]
    pub record_size: u32,
    /// Textbook network only: `N`, the total payload bytes to produce.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// Textbook network only: `R`, the request size; request `k` carries
    /// `min(R, unsent)` bytes.
    #[serde(rename = "request.size", default, skip_serializing_if = "Option::is_none")]
    pub request_size: Option<u32>,
    /// Records per second; -1 = unlimited (perf-test's `--throughput -1`).
    #[serde(default = "minus_one")]
    pub throughput: f64,
    /// When the application starts (ms).
    #[serde(default)]
    pub start_ms: u64,
    /// When the application stops (ms): it sends nothing more and closes
    /// the producer at once, `KafkaProducer.close(Duration.ZERO)`: records
    /// buffered or in flight fail with `KafkaException: Producer is closed
    /// forcefully.` (`RecordAccumulator.abortIncompleteBatches`; counted in
    /// `record-error-total`, the run's outcome is failed); records not yet
    /// passed to `send()` are reported as left
    /// ([`crate::sim::ClientStop`]), not as errors. Absent = runs to the end
    /// (not written out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_ms: Option<u64>,
    /// Producer configuration, Kafka names and defaults.
    #[serde(default)]
    pub config: ProducerConfig,
}

fn minus_one() -> f64 {
    -1.0
}

/// `acks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Acks {
    /// `acks=0`: no response; the request quota is not enforced.
    #[serde(rename = "0")]
    None,
    /// `acks=1`: the leader's append.
    #[serde(rename = "1")]
    Leader,
    /// `acks=all` (`-1`, the default since Kafka 3.0). With one replica per
    /// partition modelled, this behaves as `1`.
    #[serde(rename = "all", alias = "-1")]
    All,
}

/// The Java producer's settings that shape throttling, with Kafka 4.x defaults.
///
/// Kafka: clients/src/main/java/org/apache/kafka/clients/producer/ProducerConfig.java.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProducerConfig {
    /// `acks` (default `all`).
    #[serde(default = "default_acks")]
    pub acks: Acks,
    /// `batch.size` bytes (default 16384).
    #[serde(rename = "batch.size", default = "default_batch_size")]
    pub batch_size: u32,
    /// `linger.ms` (default 5 since Kafka 4.0).
    #[serde(rename = "linger.ms", default = "default_linger_ms")]
    pub linger_ms: u64,
    /// `max.in.flight.requests.per.connection` (default 5).
    #[serde(
        rename = "max.in.flight.requests.per.connection",
        default = "default_in_flight"
    )]
    pub max_in_flight: u32,
    /// `buffer.memory` bytes (default 33554432).
    #[serde(rename = "buffer.memory", default = "default_buffer_memory")]
    pub buffer_memory: u64,
    /// `max.block.ms` (default 60000).
    #[serde(rename = "max.block.ms", default = "default_max_block_ms")]
    pub max_block_ms: u64,
    /// `delivery.timeout.ms` (default 120000).
    #[serde(
        rename = "delivery.timeout.ms",
        default = "default_delivery_timeout_ms"
    )]
    pub delivery_timeout_ms: u64,
    /// `request.timeout.ms` (default 30000).
    #[serde(rename = "request.timeout.ms", default = "default_request_timeout_ms")]
    pub request_timeout_ms: u64,
    /// `max.request.size` bytes (default 1048576).
    #[serde(rename = "max.request.size", default = "default_max_request_size")]
    pub max_request_size: u32,
    /// `send.buffer.bytes`: the socket's send buffer (`SO_SNDBUF`), bytes
    /// (default 131072). With the broker's `socket.receive.buffer.bytes` it
    /// bounds the bytes written but not yet read by the broker; at least 1
    /// here (Kafka's -1, the OS default, is not modelled).
    ///
    /// Kafka: `CommonClientConfigs.SEND_BUFFER_CONFIG`, `ProducerConfig`.
    #[serde(
        rename = "send.buffer.bytes",
        default = "default_send_buffer_bytes",
        skip_serializing_if = "is_default_send_buffer"
    )]
    pub send_buffer_bytes: i32,
}

fn default_acks() -> Acks {
    Acks::All
}
fn default_batch_size() -> u32 {
    16_384
}
fn default_linger_ms() -> u64 {
    5
}
fn default_in_flight() -> u32 {
    5
}
fn default_buffer_memory() -> u64 {
    33_554_432
}
fn default_max_block_ms() -> u64 {
    60_000
}
fn default_delivery_timeout_ms() -> u64 {
    DEFAULT_DELIVERY_TIMEOUT_MS
}
fn default_request_timeout_ms() -> u64 {
    30_000
}
fn default_max_request_size() -> u32 {
    1_048_576
}

/// `delivery.timeout.ms`'s default, 120000 ms (`ProducerConfig`).
pub const DEFAULT_DELIVERY_TIMEOUT_MS: u64 = 120_000;

impl ProducerConfig {
    /// `linger.ms + request.timeout.ms` as Kafka computes it: `linger.ms`
    /// capped to `Integer.MAX_VALUE` (`KafkaProducer.lingerMs`), the sum as
    /// a long capped to `Integer.MAX_VALUE`. The least `delivery.timeout.ms`
    /// a producer takes, ms.
    pub fn linger_plus_request_timeout_ms(&self) -> u64 {
        let max = i32::MAX as u64;
        self.linger_ms.min(max).saturating_add(self.request_timeout_ms).min(max)
    }

    /// The delivery timeout the producer uses, ms: `delivery.timeout.ms`,
    /// or, when that is the default 120000 and below
    /// [`Self::linger_plus_request_timeout_ms`], that sum, as Kafka raises an
    /// unset `delivery.timeout.ms` (a scenario cannot tell an unset value
    /// from 120000 written out, and takes 120000 as unset). Any other value
    /// below the sum is refused by `Scenario::validate`, as Kafka refuses a
    /// set one.
    ///
    /// Kafka: `KafkaProducer.configureDeliveryTimeout`,
    /// clients/src/main/java/org/apache/kafka/clients/producer/KafkaProducer.java.
    pub fn effective_delivery_timeout_ms(&self) -> u64 {
        if self.delivery_timeout_ms == DEFAULT_DELIVERY_TIMEOUT_MS {
            self.delivery_timeout_ms.max(self.linger_plus_request_timeout_ms())
        } else {
            self.delivery_timeout_ms
        }
    }
}

impl Default for ProducerConfig {
    fn default() -> Self {
        ProducerConfig {
            acks: default_acks(),
            batch_size: default_batch_size(),
            linger_ms: default_linger_ms(),
            max_in_flight: default_in_flight(),
            buffer_memory: default_buffer_memory(),
            max_block_ms: default_max_block_ms(),
            delivery_timeout_ms: default_delivery_timeout_ms(),
            request_timeout_ms: default_request_timeout_ms(),
            max_request_size: default_max_request_size(),
            send_buffer_bytes: DEFAULT_SEND_BUFFER_BYTES,
        }
    }
}

/// A consumer application reading `records` records of a topic from offset 0
/// with `assign()` (every partition), then stopping.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerWorkload {
    /// The connection (client) this consumer uses.
    pub connection: String,
    /// The topic to read.
    pub topic: String,
    /// Stop after this many records (0 when absent; a textbook consumer uses
    /// `bytes` and `fetch.size` instead).
    #[serde(default)]
    pub records: u64,
    /// Textbook network only: `N`, the payload bytes on the topic to read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// Textbook network only: `R`, the fetch size the consumer asks for
    /// (its `fetch.max.bytes`); the broker sends `min(R, fetch cap, remaining)`.
    #[serde(rename = "fetch.size", default, skip_serializing_if = "Option::is_none")]
    pub fetch_size: Option<u32>,
    /// When the application starts (ms).
    #[serde(default)]
    pub start_ms: u64,
    /// When the application stops (ms): it fetches nothing more and closes
    /// the consumer; records not consumed by then are reported as left
    /// ([`crate::sim::ClientStop`]). Absent = runs to the end (not written out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_ms: Option<u64>,
    /// Consumer configuration, Kafka names and defaults.
    #[serde(default)]
    pub config: ConsumerConfig,
}

/// The Java consumer's fetch settings, with Kafka defaults.
///
/// Kafka: clients/src/main/java/org/apache/kafka/clients/consumer/ConsumerConfig.java.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerConfig {
    /// `fetch.max.bytes` (default 52428800).
    #[serde(rename = "fetch.max.bytes", default = "default_fetch_max_bytes")]
    pub fetch_max_bytes: u32,
    /// `max.partition.fetch.bytes` (default 1048576).
    #[serde(
        rename = "max.partition.fetch.bytes",
        default = "default_max_partition_fetch_bytes"
    )]
    pub max_partition_fetch_bytes: u32,
    /// `fetch.max.wait.ms` (default 500).
    #[serde(rename = "fetch.max.wait.ms", default = "default_fetch_max_wait_ms")]
    pub fetch_max_wait_ms: u64,
    /// `fetch.min.bytes` (default 1).
    #[serde(rename = "fetch.min.bytes", default = "one")]
    pub fetch_min_bytes: u32,
    /// `request.timeout.ms` (default 30000).
    #[serde(rename = "request.timeout.ms", default = "default_request_timeout_ms")]
    pub request_timeout_ms: u64,
    /// `send.buffer.bytes`: the socket's send buffer (`SO_SNDBUF`), bytes
    /// (default 131072); at least 1 here (-1, the OS default, is not modelled).
    ///
    /// Kafka: `CommonClientConfigs.SEND_BUFFER_CONFIG`, `ConsumerConfig`.
    #[serde(
        rename = "send.buffer.bytes",
        default = "default_send_buffer_bytes",
        skip_serializing_if = "is_default_send_buffer"
    )]
    pub send_buffer_bytes: i32,
}

/// `send.buffer.bytes` default, bytes.
///
/// Kafka: `ProducerConfig` / `ConsumerConfig` define it as `128 * 1024`.
pub(crate) const DEFAULT_SEND_BUFFER_BYTES: i32 = 131_072;

fn default_send_buffer_bytes() -> i32 {
    DEFAULT_SEND_BUFFER_BYTES
}

fn is_default_send_buffer(v: &i32) -> bool {
    *v == DEFAULT_SEND_BUFFER_BYTES
}

fn default_fetch_max_bytes() -> u32 {
    52_428_800
}
fn default_max_partition_fetch_bytes() -> u32 {
    1_048_576
}
fn default_fetch_max_wait_ms() -> u64 {
    500
}

impl Default for ConsumerConfig {
    fn default() -> Self {
        ConsumerConfig {
            fetch_max_bytes: default_fetch_max_bytes(),
            max_partition_fetch_bytes: default_max_partition_fetch_bytes(),
            fetch_max_wait_ms: default_fetch_max_wait_ms(),
            fetch_min_bytes: 1,
            request_timeout_ms: default_request_timeout_ms(),
            send_buffer_bytes: DEFAULT_SEND_BUFFER_BYTES,
        }
    }
}

/// What the world costs: the network link, the broker's thread time per
/// request and the clients' CPU time per record.
///
/// Not Kafka settings: these describe the machine. The defaults are
/// [`Environment::LAB`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Environment {
    /// Each client connection's link to a broker.
    pub link: LinkSpec,
    /// Broker thread time per request.
    pub broker: BrokerCosts,
    /// Client CPU time per record.
    pub client: ClientCosts,
}

/// A full-duplex link: each direction serialises bytes at `bandwidth` and
/// delivers them `latency` later.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// Bytes per second in each direction.
    pub bandwidth_bytes_per_s: f64,
    /// One-way latency in µs.
    pub latency_us: u64,
}

/// Thread time a request of one kind takes: a fixed part plus a part per KiB
/// of request (produce) or response (fetch) data.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestCost {
    /// Request-handler (I/O) thread time per request, µs.
    pub io_us: f64,
    /// Request-handler thread time per KiB, µs.
    pub io_us_per_kib: f64,
    /// Network thread time per request, µs (read + write).
    pub network_us: f64,
    /// Network thread time per KiB, µs.
    pub network_us_per_kib: f64,
}

impl RequestCost {
    /// Handler thread time for `bytes` of payload, µs.
    pub fn io_time_us(&self, bytes: u64) -> f64 {
        self.io_us + self.io_us_per_kib * (bytes as f64 / 1024.0)
    }

    /// Network thread time for `bytes` of payload, µs.
    pub fn network_time_us(&self, bytes: u64) -> f64 {
        self.network_us + self.network_us_per_kib * (bytes as f64 / 1024.0)
    }
}

/// The broker's per-request costs and their jitter.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrokerCosts {
    /// Produce requests (per KiB of request).
    pub produce: RequestCost,
    /// Fetch requests (per KiB of response).
    pub fetch: RequestCost,
    /// Every thread time is multiplied by a factor drawn uniformly from
    /// `[1 - jitter, 1 + jitter)` (0 = exact).
    pub jitter: f64,
    /// The controller's time from a controller-mutation request's arrival
    /// to its response when it created, extended or deleted at least one
    /// topic, µs: the KRaft leader waits `controller.quorum.append.linger.ms`
    /// (25 ms, raft/src/main/java/org/apache/kafka/raft/QuorumConfig.java)
    /// to batch the records, then commits them; a request whose topics were
    /// all refused answers at once. Default 25,000.
    #[serde(default = "default_controller_commit_us")]
    pub controller_commit_us: f64,
    /// One pass of the acceptor's loop, µs: it takes one new connection a
    /// pass (`Acceptor.acceptNewConnections`), then closes the throttled
    /// sockets that are due. Default 1,000: on the lab's machine the real
    /// 4.3.1 acceptor took a burst of 30 connections in 15-55 ms and the
    /// first 20 were answered about 1 ms apart (docs/real-kafka.md,
    /// connection-pool-ip-quota).
    #[serde(default = "default_accept_us")]
    pub accept_us: f64,
}

fn default_controller_commit_us() -> f64 {
    25_000.0
}

fn default_accept_us() -> f64 {
    1_000.0
}

/// Client-side CPU time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClientCosts {
    /// Time one `send()` call takes (serialise, partition, append), µs.
    pub producer_send_us_per_record: f64,
    /// Time the consumer spends per record it returns from `poll()`, µs.
    pub consumer_us_per_record: f64,
}

impl Environment {
    /// The environment calibrated on the lab article's two unthrottled runs
    /// (30,000 records of 1,000 B: producer 357 ms, consumer 243 ms) and used
    /// unchanged for every other run of the lab.
    ///
    /// Assumed, not fitted: one-way latency 100 µs (a Docker bridge on a
    /// laptop); fixed handler costs of 150 µs per produce and 100 µs per fetch
    /// request, 0.25 µs/KiB for fetches (zero-copy reads); network threads 20 µs
    /// plus 0.5 µs/KiB; 10 % jitter on broker thread time; consumer CPU 1 µs per
    /// record; `send()` 9 µs per record. The `send()` cost is the one
    /// structural choice the two runs cannot make: whether the 357 ms are the
    /// application's `send()` loop or the broker's pipeline. The lab's own
    /// unthrottled perf-test answers it: records waited up to ~86 ms (p99), so
    /// `send()` outran the pipeline by about that much over the run, which a
    /// 9 µs `send()` against a ~11.9 µs/record pipeline reproduces.
    ///
    /// Fitted: link bandwidth 155 MB/s from the consumer run (link-bound: ~30
    /// fetches of 1 MiB, each a round trip plus the transfer) -> 242 ms;
    /// produce handler time 9.6 µs/KiB from the producer run (the broker
    /// handles one request per connection at a time, ~0.77 ms per 64 KiB
    /// batch) -> 355 ms.
    pub const LAB: Environment = Environment {
        link: LinkSpec {
            bandwidth_bytes_per_s: 155_000_000.0,
            latency_us: 100,
        },
        broker: BrokerCosts {
            produce: RequestCost {
                io_us: 150.0,
                io_us_per_kib: 9.6,
                network_us: 20.0,
                network_us_per_kib: 0.5,
            },
            fetch: RequestCost {
                io_us: 100.0,
                io_us_per_kib: 0.25,
                network_us: 20.0,
                network_us_per_kib: 0.5,
            },
            jitter: 0.1,
            controller_commit_us: 25_000.0,
            accept_us: 1_000.0,
        },
        client: ClientCosts {
            producer_send_us_per_record: 9.0,
            consumer_us_per_record: 1.0,
        },
    };
}

impl Default for Environment {
    fn default() -> Self {
        Environment::LAB
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn connection(fields: &str) -> Result<ConnectionSpec, String> {
        serde_json::from_str(&format!(r#"{{"name": "c", "listener": "SASL_SSL"{fields}}}"#)).map_err(|e| e.to_string())
    }

    #[test]
    fn typed_connection_fields_read_kafkas_spellings_and_write_them_back() {
        let c = connection(r#", "mechanism": "SCRAM-SHA-512", "ssl.client.auth": "requested", "ip": "0:0:0:0:0:0:0:1""#).unwrap();
        assert_eq!(c.mechanism, Some(SaslMechanism::ScramSha512));
        assert_eq!(c.ssl_client_auth, Some(SslClientAuth::Requested));
        // The text is kept as written; the address is the broker's key.
        assert_eq!(c.ip.as_str(), "0:0:0:0:0:0:0:1");
        assert_eq!(c.ip.address(), "::1".parse::<SourceIp>().unwrap().address());
        let back = serde_json::to_value(&c).unwrap();
        assert_eq!(back["mechanism"], "SCRAM-SHA-512");
        assert_eq!(back["ssl.client.auth"], "requested");
        assert_eq!(back["ip"], "0:0:0:0:0:0:0:1");
        // Absent fields: PLAIN, Kafka's ssl.client.auth rule, 127.0.0.1.
        let d = connection("").unwrap();
        assert_eq!((d.sasl_mechanism(), d.ssl_client_auth, d.ip.as_str()), (SaslMechanism::Plain, None, "127.0.0.1"));
    }

    #[test]
    fn a_bad_mechanism_client_auth_or_ip_is_refused_when_read_naming_the_value() {
        let e = connection(r#", "mechanism": "scram-sha-256""#).unwrap_err();
        assert!(e.starts_with("unknown SASL mechanism 'scram-sha-256', expected one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, GSSAPI, OAUTHBEARER"), "{e}");
        let e = connection(r#", "ssl.client.auth": "want""#).unwrap_err();
        assert!(e.starts_with("unknown ssl.client.auth value 'want', expected none, requested or required"), "{e}");
        let e = connection(r#", "ip": "kafka-1""#).unwrap_err();
        assert!(e.starts_with("'kafka-1', which is not an IP address, expected an IPv4 or IPv6 literal"), "{e}");
        assert!(connection(r#", "ip": "  ""#).unwrap_err().starts_with("'', which is not an IP address"));
        // The page's field and the CLI's --ip say it as a sentence.
        assert!(SourceIp::parse("kafka-1").unwrap_err().starts_with("'kafka-1' is not an IP address. The broker sees"));
        assert!(SourceIp::parse(" ").unwrap_err().starts_with("Enter the client's IP address"));
        // A named IPv6 zone depends on the broker's interfaces: refused.
        assert!(connection(r#", "ip": "fe80::1%eth0""#).is_err());
        assert!(connection(r#", "ip": "fe80::1%2""#).is_ok());
    }
}
