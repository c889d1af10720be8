//! View models: everything the panels show, derived from the scenario (and
//! the cursor) by asking the engine. Pure functions, tested natively; the
//! components only lay these values out.
//!
//! No Kafka rule lives here: validation is the engine's `QuotaStore::plan`,
//! principals come from its `PrincipalBuilder`, resolution and budgets from
//! its `QuotaManagers`, the IP connection rate from its `Broker`, and the
//! simulation from `sim::simulate`.

use quota_engine::broker::{Broker, BrokerSettings};
use quota_engine::principal::{
    Connection, PrincipalBuilder, PrincipalConfig, PrincipalOutcome,
};
use quota_engine::resolve::{BudgetGroups, Connection as BudgetMember, QuotaManagers, Resolution};
use quota_engine::sim::{
    ClientTrack, ConnectionSpec, ConsumerConfig, ConsumerWorkload, ListenerKind, Preload, ProducerConfig,
    ProducerWorkload, RatePoint, Scenario, SensorTrack, Series, Timeline, TopicSpec, Workload,
};
use quota_engine::{Alteration, EntityName, Op, QuotaEntity, QuotaKey, QuotaStore, QuotaType, RawEntity};

/// The most brokers a scenario may have in the playground.
pub const MAX_BROKERS: u32 = 9;

// ---------------------------------------------------------------- quotas

/// The unit of a key's value, for labels.
pub fn unit_of(key: QuotaKey) -> &'static str {
    match key {
        QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate => "bytes/s",
        QuotaKey::RequestPercentage => "% of one thread",
        QuotaKey::ControllerMutationRate => "mutations/s",
        QuotaKey::ConnectionCreationRate => "connections/s",
    }
}

/// The scenario's quotas in a store, each applied with Kafka's validation;
/// the ones Kafka refuses are left out (see [`quota_rows`]).
pub fn store_of(scenario: &Scenario) -> QuotaStore {
    let mut store = QuotaStore::new();
    for q in &scenario.quotas {
        let _ = store.set(&q.entity, q.key, q.value);
    }
    store
}

/// One configured quota as the quotas panel lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct QuotaRow {
    /// The entity.
    pub entity: QuotaEntity,
    /// The key.
    pub key: QuotaKey,
    /// The value.
    pub value: f64,
    /// Kafka's message when this entry is refused (only possible for a
    /// scenario from a link or a file).
    pub error: Option<String>,
}

/// The scenario's quotas in order, each with Kafka's verdict.
pub fn quota_rows(scenario: &Scenario) -> Vec<QuotaRow> {
    let mut store = QuotaStore::new();
    scenario
        .quotas
        .iter()
        .map(|q| QuotaRow {
            entity: q.entity.clone(),
            key: q.key,
            value: q.value,
            error: store.set(&q.entity, q.key, q.value).err().map(|e| e.message),
        })
        .collect()
}

/// What Kafka answers to setting `key` = `value` on `entity` given the
/// scenario's other quotas: `Ok` or Kafka's message.
pub fn check_quota(scenario: &Scenario, entity: &QuotaEntity, key: QuotaKey, value: f64) -> Result<(), String> {
    check_raw(scenario, &RawEntity::from_entity(entity), key.as_str(), value).map(|_| ())
}

/// Kafka's answer for an entity as typed (names may be empty), a key name
/// and a value; on success the typed entity.
pub fn check_raw(scenario: &Scenario, raw: &RawEntity, key: &str, value: f64) -> Result<QuotaEntity, String> {
    let store = store_of(scenario);
    let plan = store.plan(&[Alteration { entity: raw.clone(), ops: vec![Op::set(key, value)] }]);
    if let Some(e) = plan.results.into_iter().find_map(|r| r.error) {
        return Err(e.message);
    }
    let parts: Vec<_> = raw
        .0
        .iter()
        .filter_map(|(t, n)| {
            quota_engine::EntityType::from_wire(t).map(|t| (t, EntityName::from_option(n.as_deref())))
        })
        .collect();
    QuotaEntity::from_parts(&parts).ok_or_else(|| "This entity has no valid shape.".to_owned())
}

/// Sets (or replaces) one quota, keeping one entry per (entity, key).
pub fn set_quota(s: &mut Scenario, entity: QuotaEntity, key: QuotaKey, value: f64) {
    match s.quotas.iter_mut().find(|q| q.entity == entity && q.key == key) {
        Some(q) => q.value = value,
        None => s.quotas.push(quota_engine::sim::QuotaSetting { entity, key, value }),
    }
}

/// An entity's path as the page shows it: [`QuotaEntity::path`] with an
/// empty name written `""` (`users/tenant-a/clients/""` for an empty
/// client-id), so it is not mistaken for a missing part.
pub fn entity_path(e: &QuotaEntity) -> String {
    let seg = |n: &EntityName| match n {
        EntityName::Named(s) if s.is_empty() => "\"\"".to_owned(),
        other => other.path_segment().to_owned(),
    };
    match e {
        QuotaEntity::User(u) => format!("users/{}", seg(u)),
        QuotaEntity::ClientId(c) => format!("clients/{}", seg(c)),
        QuotaEntity::UserClientId { user, client_id } => format!("users/{}/clients/{}", seg(user), seg(client_id)),
        QuotaEntity::Ip(i) => format!("ips/{}", seg(i)),
    }
}

/// `name` cut after every `:`, `,` and `=` (the pieces join back to
/// `name`): where a long metric or MBean name may wrap.
pub fn break_points(name: &str) -> Vec<&str> {
    name.split_inclusive([':', ',', '=']).collect()
}

/// `n` and the noun, singular or plural: `1 client`, `2 clients`.
pub fn count_of(n: u64, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// Parses a number typed by the user (`2000000`, `2e6`, `2_000_000`, `2,000,000`).
///
/// # Errors
/// A sentence when the text is not a number.
pub fn parse_number(text: &str) -> Result<f64, String> {
    let t: String = text.trim().chars().filter(|c| !matches!(c, '_' | ',' | ' ')).collect();
    if t.is_empty() {
        return Err("Enter a number.".to_owned());
    }
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("'{}' is not a number.", text.trim())),
    }
}

/// Parses a quota value typed in the Quotas panel, which mirrors
/// `kafka-configs.sh --alter --add-config`: what Java's `Double.parseDouble`
/// reads (`2e6`, `NaN`, the broker then judges it), plus digit-group
/// separators for convenience (`2,000,000`, `2_000_000`).
///
/// # Errors
/// The tool's own message (`Cannot parse quota configuration value for
/// producer_byte_rate: abc`), from `quota_formats::configs_sh`.
pub fn parse_quota_value(key: QuotaKey, text: &str) -> Result<f64, String> {
    if text.trim().is_empty() {
        return Err("Enter a number.".to_owned());
    }
    parse_number(text).or_else(|_| quota_formats::configs_sh::parse_quota_value(key.as_str(), text.trim()))
}

/// Parses a whole number within `[min, max]` for a setting named `name`.
///
/// # Errors
/// A sentence naming the setting when the text is not such a number.
pub fn parse_whole(text: &str, name: &str, min: u64, max: u64) -> Result<u64, String> {
    let v = parse_number(text)?;
    if v.fract() != 0.0 || v < min as f64 || v > max as f64 {
        return Err(format!("{name} must be a whole number from {min} to {max}."));
    }
    Ok(v as u64)
}

/// A value as Kafka prints it (`2000000.0`), and a friendlier reading for
/// byte rates (`2 MB/s`).
pub fn fmt_value(key: QuotaKey, v: f64) -> String {
    let java = quota_engine::java_double_to_string(v);
    match key {
        QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate => format!("{java} ({})", fmt_rate(v)),
        QuotaKey::RequestPercentage => format!("{java} %"),
        _ => format!("{java}/s"),
    }
}

/// Bytes per second in decimal units, as the lab article writes them.
pub fn fmt_rate(bytes_per_s: f64) -> String {
    format!("{}/s", fmt_bytes(bytes_per_s))
}

/// Bytes in decimal units (`30 MB`, `1.5 kB`).
pub fn fmt_bytes(b: f64) -> String {
    // -0.0 and -0.3 (a sum of nothing, a difference of equals) print as 0, not -0.
    let b = if b.abs() < 0.5 { 0.0 } else { b };
    let a = b.abs();
    let (v, u) = if a >= 1e9 {
        (b / 1e9, "GB")
    } else if a >= 1e6 {
        (b / 1e6, "MB")
    } else if a >= 1e3 {
        (b / 1e3, "kB")
    } else {
        return format!("{b:.0} B");
    };
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s} {u}")
}

/// Milliseconds as `850 ms` or `12.1 s`.
pub fn fmt_ms(ms: f64) -> String {
    if !ms.is_finite() {
        return "NaN".to_owned();
    }
    let ms = if ms.abs() < 0.5 { 0.0 } else { ms };
    if ms.abs() < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}

/// A metric value as a Java client would print it (`NaN` included).
pub fn fmt_metric(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_owned()
    } else {
        quota_engine::java_double_to_string(v)
    }
}

// ---------------------------------------------------------------- connections

/// The principal configuration of the brokers.
pub fn principal_config(settings: &BrokerSettings) -> PrincipalConfig {
    settings.principal_config()
}

/// A scenario connection as the engine's principal builder takes it
/// (the engine's own mapping, the same the simulation uses).
///
/// # Errors
/// A sentence for an unknown mechanism or `ssl.client.auth` value.
pub fn engine_connection(spec: &ConnectionSpec, config: &PrincipalConfig) -> Result<Connection, String> {
    quota_engine::sim::engine_connection(spec, config).map_err(|e| e.to_string())
}

/// The principal the engine derives for one connection, or why it cannot
/// (Kafka would close the connection, or the broker would not start).
pub fn principal_outcome(
    spec: &ConnectionSpec,
    config: &PrincipalConfig,
    builder: &Result<PrincipalBuilder, String>,
) -> Result<PrincipalOutcome, String> {
    let builder = builder.as_ref().map_err(|e| format!("The broker's principal rules are invalid: {e}"))?;
    let conn = engine_connection(spec, config)?;
    builder.build(&conn).map_err(|e| {
        let mut m = e.message().to_owned();
        if let Some(c) = e.cause() {
            m.push_str(" Cause: ");
            m.push_str(c.message());
        }
        m
    })
}

/// `spec` moved to `listener`. The identity is kept only when it can mean
/// the same thing there: between SASL_PLAINTEXT and SASL_SSL (a SASL name),
/// onto PLAINTEXT (ignored there, back when the user returns), onto SSL only
/// if it looks like a DN (has `=`), onto a SASL listener only if it does
/// not. So a SASL user name is never carried over as a certificate DN.
/// `ssl.client.auth` belongs to the SSL listener and is dropped when leaving it.
pub fn change_listener(spec: &ConnectionSpec, listener: ListenerKind) -> ConnectionSpec {
    let mut next = spec.clone();
    next.listener = listener;
    let is_sasl = |l: ListenerKind| matches!(l, ListenerKind::SaslPlaintext | ListenerKind::SaslSsl);
    let looks_like_dn = spec.identity.as_deref().is_some_and(|i| i.contains('='));
    let keep = spec.listener == listener
        || listener == ListenerKind::Plaintext
        || (is_sasl(spec.listener) && is_sasl(listener))
        || (listener == ListenerKind::Ssl && looks_like_dn)
        || (is_sasl(listener) && !looks_like_dn);
    if !keep {
        next.identity = None;
    }
    if listener != ListenerKind::Ssl {
        next.ssl_client_auth = None;
    }
    next
}

/// Why `ip` cannot be a connection's source address, if it cannot: the
/// broker sees the client's socket address, always an IPv4 or IPv6 literal
/// (the forms Java's `InetAddress.getByName` reads without a lookup, as
/// `quota_engine::store::validate::is_valid_ip_entity` checks them).
pub fn source_ip_error(ip: &str) -> Option<String> {
    let ip = ip.trim();
    if ip.is_empty() {
        return Some("Enter the client's IP address: the broker always knows the socket's source address.".to_owned());
    }
    (!quota_engine::store::validate::is_valid_ip_entity(Some(ip))).then(|| {
        format!("'{ip}' is not an IP address. The broker sees the client's socket address: an IPv4 or IPv6 literal such as 10.0.0.7 or 2001:db8::7.")
    })
}

/// Which kind of identity a listener takes: a certificate DN (SSL), a SASL
/// name, or none (PLAINTEXT).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdentityKind {
    /// No identity: PLAINTEXT.
    None,
    /// A certificate subject DN: SSL.
    Dn,
    /// A SASL user name, Kerberos principal or token subject.
    Sasl,
}

/// The kind of identity `listener` takes.
pub fn identity_kind(listener: ListenerKind) -> IdentityKind {
    match listener {
        ListenerKind::Plaintext => IdentityKind::None,
        ListenerKind::Ssl => IdentityKind::Dn,
        ListenerKind::SaslPlaintext | ListenerKind::SaslSsl => IdentityKind::Sasl,
    }
}

/// [`change_listener`] for the page, which remembers per connection the
/// identity each kind of listener last had: `remembered` gives it back when
/// the change leaves the connection without one (SASL_PLAINTEXT with
/// `tenant-a` -> SSL -> SASL_PLAINTEXT comes back as `tenant-a`, not empty).
/// Returns the new spec and the identity to remember for the old kind.
pub fn change_listener_remembering(
    spec: &ConnectionSpec,
    listener: ListenerKind,
    remembered: Option<&str>,
) -> (ConnectionSpec, Option<String>) {
    let mut next = change_listener(spec, listener);
    if next.identity.is_none() {
        next.identity = remembered.map(str::to_owned);
    }
    (next, spec.identity.clone())
}

/// A warning when an SSL connection's certificate subject does not look like
/// a distinguished name (no `=`), as a SASL user name pasted there would.
pub fn dn_warning(spec: &ConnectionSpec) -> Option<String> {
    let dn = spec.identity.as_deref()?.trim();
    (spec.listener == ListenerKind::Ssl && !dn.is_empty() && !dn.contains('=')).then(|| {
        format!("'{dn}' is not a distinguished name; a certificate subject looks like CN=app,OU=eng.")
    })
}

/// The `ssl.client.auth` an SSL connection runs with, and whether the
/// scenario sets it or it follows from the identity (a DN and no value
/// means `required`, as `quota_engine::sim::engine_connection` reads it).
pub fn effective_ssl_client_auth(spec: &ConnectionSpec) -> (String, bool) {
    match &spec.ssl_client_auth {
        Some(v) => (v.clone(), true),
        None if spec.identity.is_some() => ("required".to_owned(), false),
        None => ("none".to_owned(), false),
    }
}

/// A fresh connection name not used in the scenario (`app-2`, `app-3`, …).
pub fn fresh_connection_name(s: &Scenario, base: &str) -> String {
    let stem = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-');
    let stem = if stem.is_empty() { "client" } else { stem };
    (2..)
        .map(|n| format!("{stem}-{n}"))
        .find(|n| !s.connections.iter().any(|c| &c.name == n))
        .unwrap_or_else(|| "client-x".to_owned())
}

/// The connection a workload runs on.
pub fn workload_connection(w: &Workload) -> &str {
    match w {
        Workload::Producer(p) => &p.connection,
        Workload::Consumer(c) => &c.connection,
    }
}

/// Replaces connection `index`, renaming its workloads with it.
pub fn set_connection(s: &mut Scenario, index: u32, spec: ConnectionSpec) {
    let Some(slot) = s.connections.get_mut(index as usize) else { return };
    let old = std::mem::replace(slot, spec);
    let new_name = s.connections[index as usize].name.clone();
    if old.name != new_name {
        for w in &mut s.workloads {
            let c = match w {
                Workload::Producer(p) => &mut p.connection,
                Workload::Consumer(c) => &mut c.connection,
            };
            if *c == old.name {
                c.clone_from(&new_name);
            }
        }
    }
}

/// Adds a copy of connection `base` (or a PLAINTEXT one) under a new name.
pub fn add_connection(s: &mut Scenario, base: u32) {
    let mut spec = s.connections.get(base as usize).cloned().unwrap_or_else(|| ConnectionSpec {
        name: "client".into(),
        listener: ListenerKind::Plaintext,
        mechanism: None,
        ssl_client_auth: None,
        identity: None,
        client_id: "app".into(),
        ip: "127.0.0.1".into(),
        client_throttling: Default::default(),
    });
    spec.name = fresh_connection_name(s, &spec.name);
    s.connections.push(spec);
}

/// Removes connection `index` and its workloads.
pub fn remove_connection(s: &mut Scenario, index: u32) {
    if (index as usize) < s.connections.len() {
        let removed = s.connections.remove(index as usize);
        s.workloads.retain(|w| workload_connection(w) != removed.name);
    }
}

/// Adds a producer or a consumer on connection `conn` with the lab's
/// settings (30,000 records of 1,000 bytes; a consumer reads a preloaded topic).
pub fn add_workload(s: &mut Scenario, conn: u32, producer: bool) {
    let Some(c) = s.connections.get(conn as usize) else { return };
    let connection = c.name.clone();
    if s.topics.is_empty() {
        s.topics.push(TopicSpec { name: "lab".into(), partitions: 1, preload: None });
    }
    let topic = s.topics[0].name.clone();
    if producer {
        s.workloads.push(Workload::Producer(ProducerWorkload {
            connection,
            topic,
            records: 30_000,
            record_size: 1000,
            bytes: None,
            request_size: None,
            throughput: -1.0,
            start_ms: 0,
            config: ProducerConfig { acks: quota_engine::sim::Acks::Leader, linger_ms: 5, batch_size: 65_536, ..ProducerConfig::default() },
        }));
    } else {
        if s.topics[0].preload.is_none() {
            s.topics[0].preload = Some(Preload { records: 30_000, record_size: 1000, batch_size: 65_536 });
        }
        s.workloads.push(Workload::Consumer(ConsumerWorkload {
            connection,
            topic,
            records: 30_000,
            bytes: None,
            fetch_size: None,
            start_ms: 0,
            config: ConsumerConfig::default(),
        }));
    }
}

// ---------------------------------------------------------------- resolution

/// Everything derived from the scenario without simulating: principals,
/// the quota managers, budgets.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The quotas Kafka accepts.
    pub store: QuotaStore,
    /// The four quota managers built from them.
    pub managers: QuotaManagers,
    /// The principal rules' parse error, if any.
    pub rules_error: Option<String>,
    /// Per connection: its principal or why there is none.
    pub principals: Vec<Result<PrincipalOutcome, String>>,
    /// Per quota type (in [`QuotaType::ALL`] order): the budgets of the
    /// connections that have a principal.
    pub budgets: Vec<BudgetGroups>,
}

impl Analysis {
    /// Analyses `scenario`.
    pub fn new(scenario: &Scenario) -> Self {
        let store = store_of(scenario);
        let managers = QuotaManagers::from_store(&store);
        let config = principal_config(&scenario.brokers.settings);
        let builder = config.build().map_err(|e| e.message().to_owned());
        let principals: Vec<_> =
            scenario.connections.iter().map(|c| principal_outcome(c, &config, &builder)).collect();
        let members: Vec<BudgetMember> = principals
            .iter()
            .filter_map(|p| p.as_ref().ok())
            .map(|p| BudgetMember::new(&p.principal.name, &p.client_id))
            .collect();
        let budgets = managers.budget_groups_all(&members).to_vec();
        Analysis { store, managers, rules_error: builder.err(), principals, budgets }
    }

    /// The four resolutions of connection `i` (`None` without a principal).
    pub fn resolve(&self, i: usize) -> Option<[Resolution; 4]> {
        let p = self.principals.get(i)?.as_ref().ok()?;
        Some(self.managers.resolve_all(&p.principal.name, &p.client_id))
    }

    /// The names of the scenario's connections that share connection `i`'s
    /// budget of quota type `qt` (itself excluded).
    pub fn sharers(&self, scenario: &Scenario, i: usize, qt: QuotaType) -> Vec<String> {
        let Some(Ok(me)) = self.principals.get(i) else { return Vec::new() };
        let me = BudgetMember::new(&me.principal.name, &me.client_id);
        let slot = QuotaType::ALL.iter().position(|t| *t == qt).unwrap_or(0);
        let Some(group) = self.budgets.get(slot).and_then(|b| b.group_of(&me)) else { return Vec::new() };
        scenario
            .connections
            .iter()
            .zip(&self.principals)
            .enumerate()
            .filter(|(j, (_, p))| {
                *j != i
                    && p.as_ref()
                        .is_ok_and(|p| group.members.contains(&BudgetMember::new(&p.principal.name, &p.client_id)))
            })
            .map(|(_, (c, _))| c.name.clone())
            .collect()
    }

    /// The `connection_creation_rate` that applies to `ip`: the entity and
    /// its value, `None` = unlimited.
    pub fn ip_rate(&self, scenario: &Scenario, ip: &str) -> Option<(QuotaEntity, f64)> {
        let ip_quotas: Vec<(QuotaEntity, f64)> = self
            .store
            .entries()
            .filter(|(e, _)| e.is_ip())
            .filter_map(|(e, kv)| kv.get(&QuotaKey::ConnectionCreationRate).map(|v| (e.clone(), *v)))
            .collect();
        let broker = Broker::new(0, scenario.brokers.settings.clone(), &self.managers, &ip_quotas).ok()?;
        let v = broker.connection_rate_for_ip(ip)?;
        let named = QuotaEntity::Ip(EntityName::Named(ip.to_owned()));
        let entity = if ip_quotas.iter().any(|(e, _)| *e == named) { named } else { QuotaEntity::Ip(EntityName::Default) };
        Some((entity, v))
    }
}

/// A short label for a quota type: `Produce (producer_byte_rate)`.
pub fn quota_type_label(qt: QuotaType) -> String {
    format!("{} ({})", qt.metric_type(), qt.key())
}

// ---------------------------------------------------------------- simulation

/// The simulation of a scenario, or the engine's reason it cannot run.
pub fn simulate(scenario: &Scenario) -> Result<Timeline, String> {
    if scenario.workloads.is_empty() {
        return Err("Add a producer or a consumer to simulate this scenario.".to_owned());
    }
    quota_engine::sim::simulate(scenario).map_err(|e| e.to_string())
}

/// Times (ms) the transport's "step" stops at: throttle decisions, mute and
/// blocking boundaries, client finishes and perf-test lines, sorted, unique.
pub fn event_times(t: &Timeline) -> Vec<f64> {
    let mut v: Vec<f64> = vec![0.0, t.end_ms];
    for s in &t.sensors {
        v.extend(s.throttles.iter().map(|e| e.at_ms as f64));
    }
    for c in &t.clients {
        v.push(c.start_ms);
        v.extend(c.finish_ms);
        for sp in c.mutes.iter().chain(&c.blocked) {
            v.push(sp.from_ms);
            v.push(sp.to_ms);
        }
        if let Some(p) = &c.perf {
            v.extend(p.windows.iter().map(|w| w.at_ms as f64));
        }
    }
    v.retain(|x| x.is_finite() && *x >= 0.0 && *x <= t.end_ms);
    v.sort_unstable_by(f64::total_cmp);
    v.dedup_by(|a, b| (*a - *b).abs() < 0.5);
    v
}

/// The first event time after `cursor` (or the end).
pub fn next_event(times: &[f64], cursor: f64) -> f64 {
    times.iter().copied().find(|t| *t > cursor + 0.5).unwrap_or_else(|| times.last().copied().unwrap_or(0.0))
}

/// The last event time before `cursor` (or 0).
pub fn prev_event(times: &[f64], cursor: f64) -> f64 {
    times.iter().rev().copied().find(|t| *t < cursor - 0.5).unwrap_or(0.0)
}

/// The last point of a series at or before `at`.
pub fn last_before<T: Copy>(s: &Series<T>, at: f64, time: impl Fn(&T) -> f64) -> Option<T> {
    let i = s.points.partition_point(|p| time(p) <= at);
    i.checked_sub(1).map(|i| s.points[i])
}

/// The measured rate of a budget at `at` (the last record before it).
pub fn rate_at(track: &SensorTrack, at: f64) -> Option<RatePoint> {
    last_before(&track.rate, at, |p| p.at_ms as f64)
}

/// The client and the budget the charts show: the chosen ones, else the
/// first client that was throttled and the budget it was throttled on (a
/// budget with a quota before an unlimited one). Indices into the Timeline.
pub fn focus(t: &Timeline, client: Option<u32>, sensor: Option<u32>) -> (usize, usize) {
    let n = t.clients.len().max(1);
    let member = |s: &SensorTrack, c: usize| s.members.contains(&(c as u32));
    let c = match client {
        Some(c) => (c as usize).min(n - 1),
        None => (0..t.clients.len())
            .find(|c| t.sensors.iter().any(|s| member(s, *c) && !s.throttles.is_empty()))
            .unwrap_or(0),
    };
    let limited = |s: &SensorTrack| s.bound < quota_engine::resolve::UNLIMITED_BOUND;
    let s = match sensor {
        Some(s) => (s as usize).min(t.sensors.len().saturating_sub(1)),
        None => t
            .sensors
            .iter()
            .position(|s| member(s, c) && !s.throttles.is_empty())
            .or_else(|| t.sensors.iter().position(|s| member(s, c) && limited(s)))
            .or_else(|| t.sensors.iter().position(|s| member(s, c)))
            .or_else(|| t.sensors.iter().position(limited))
            .unwrap_or(0),
    };
    (c, s)
}

/// One bar of the quota-window chart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleBar {
    /// Sample start (ms).
    pub start_ms: f64,
    /// What the sample holds at the cursor (bytes, or percent).
    pub sum: f64,
    /// True for the sample still being filled at the cursor.
    pub current: bool,
}

/// The samples a budget's rate is computed over at `at`: the last
/// `quota.window.num` samples started by then. The current sample's sum at
/// the cursor is read back from the measured rate (rate x window = total).
pub fn samples_at(track: &SensorTrack, at: f64) -> Vec<SampleBar> {
    let size = track.sample_window_ms as f64;
    let span = size * f64::from(track.samples_kept);
    let mut bars: Vec<SampleBar> = track
        .samples
        .iter()
        .filter(|s| (s.start_ms as f64) <= at && (s.start_ms as f64) > at - span)
        .map(|s| SampleBar {
            start_ms: s.start_ms as f64,
            sum: s.sum,
            current: (s.start_ms as f64) + size > at,
        })
        .collect();
    let completed: f64 = bars.iter().filter(|b| !b.current).map(|b| b.sum).sum();
    if let Some(cur) = bars.iter_mut().find(|b| b.current) {
        let total = rate_at(track, at).map(|r| r.rate * r.window_ms as f64 / 1000.0).unwrap_or(0.0);
        cur.sum = (total - completed).clamp(0.0, cur.sum);
    }
    bars
}

/// A client's state at the cursor.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientAt {
    /// Records done by then.
    pub records: u64,
    /// `finish - start` when finished by then.
    pub duration_ms: Option<f64>,
    /// Muted by a broker at the cursor.
    pub muted: bool,
    /// `send()` blocked at the cursor.
    pub blocked: bool,
    /// Buffer use at the cursor (producers).
    pub buffer_bytes: u64,
    /// The largest throttle seen in a response by then (ms).
    pub throttle_max_ms: i64,
    /// Responses with a non-zero throttle by then.
    pub throttled_responses: u32,
}

/// Where client `c` stands at `at`.
pub fn client_at(c: &ClientTrack, at: f64) -> ClientAt {
    let inside = |spans: &[quota_engine::sim::Span]| spans.iter().any(|s| s.from_ms <= at && at < s.to_ms);
    let seen = c.throttles.points.iter().take_while(|p| p.at_ms <= at);
    let (mut max, mut n) = (0i64, 0u32);
    for p in seen {
        if p.throttle_ms > 0 {
            max = max.max(p.throttle_ms);
            n += 1;
        }
    }
    ClientAt {
        records: last_before(&c.progress, at, |p| p.at_ms).map_or(0, |p| p.records),
        duration_ms: match (c.finish_ms, c.duration_ms) {
            (Some(f), Some(d)) if f <= at + 1e-9 => Some(d),
            _ => None,
        },
        muted: inside(&c.mutes),
        blocked: inside(&c.blocked),
        buffer_bytes: last_before(&c.buffer, at, |p| p.at_ms).map_or(0, |p| p.used_bytes),
        throttle_max_ms: max,
        throttled_responses: n,
    }
}

/// Maps data coordinates to an SVG box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    /// Data x range (min, max).
    pub x: (f64, f64),
    /// Data y range (min, max).
    pub y: (f64, f64),
    /// Pixel width.
    pub w: f64,
    /// Pixel height.
    pub h: f64,
}

impl Scale {
    /// The pixel x of data x (clamped to the box).
    pub fn px(&self, x: f64) -> f64 {
        let span = (self.x.1 - self.x.0).max(1e-9);
        ((x - self.x.0) / span * self.w).clamp(0.0, self.w)
    }
    /// The pixel y of data y (0 at the top; clamped to the box).
    pub fn py(&self, y: f64) -> f64 {
        let span = (self.y.1 - self.y.0).max(1e-9);
        (self.h - (y - self.y.0) / span * self.h).clamp(0.0, self.h)
    }
    /// An SVG path through the points (`M x y L x y …`), one decimal.
    pub fn path(&self, pts: impl IntoIterator<Item = (f64, f64)>) -> String {
        let mut out = String::new();
        for (i, (x, y)) in pts.into_iter().enumerate() {
            out.push_str(if i == 0 { "M" } else { " L" });
            out.push_str(&format!("{:.1} {:.1}", self.px(x), self.py(y)));
        }
        out
    }
}

/// A "nice" upper bound for an axis holding `max` (1, 2, 2.5 or 5 x 10^n).
pub fn nice_max(max: f64) -> f64 {
    if !max.is_finite() || max <= 0.0 {
        return 1.0;
    }
    let mut p = 1.0;
    while p * 10.0 <= max {
        p *= 10.0;
    }
    while p > max {
        p /= 10.0;
    }
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if m * p >= max {
            return m * p;
        }
    }
    10.0 * p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;
    use quota_engine::resolve::{Rung, RungOutcome};

    fn lab() -> Scenario {
        presets::default_scenario()
    }

    #[test]
    fn kafka_messages_come_back_verbatim() {
        let s = lab();
        let e = check_quota(&s, &QuotaEntity::user("x"), QuotaKey::ConnectionCreationRate, 5.0).unwrap_err();
        assert!(e.contains("connection_creation_rate"), "{e}");
        let e = check_quota(&s, &QuotaEntity::user("x"), QuotaKey::ProducerByteRate, 1.5).unwrap_err();
        assert!(e.contains("fractional"), "{e}");
        let e = check_raw(&s, &RawEntity(vec![("user".into(), Some(String::new()))]), "producer_byte_rate", 1.0).unwrap_err();
        assert!(e.contains("Empty user"), "{e}");
        let ok = check_raw(
            &s,
            &RawEntity(vec![("user".into(), None), ("client-id".into(), Some("app".into()))]),
            "request_percentage",
            50.0,
        )
        .unwrap();
        assert_eq!(ok, QuotaEntity::UserClientId { user: EntityName::Default, client_id: EntityName::Named("app".into()) });
        let e = check_raw(&s, &RawEntity(vec![("ip".into(), Some("not an ip".into()))]), "connection_creation_rate", 5.0)
            .unwrap_err();
        assert!(e.contains("not an ip"), "{e}");
    }

    #[test]
    fn numbers_are_read_leniently_and_refused_clearly() {
        assert_eq!(parse_number("2,000,000"), Ok(2_000_000.0));
        assert_eq!(parse_number(" 2e6 "), Ok(2_000_000.0));
        assert!(parse_number("two").unwrap_err().contains("'two'"));
        assert!(parse_number("").is_err());
        assert!(parse_number("inf").is_err());
    }

    #[test]
    fn kerberos_default_realm_lets_default_shorten_the_principal() {
        let spec = ConnectionSpec {
            name: "k".into(),
            listener: ListenerKind::SaslSsl,
            mechanism: Some("GSSAPI".into()),
            ssl_client_auth: None,
            identity: Some("alice@EXAMPLE.COM".into()),
            client_id: "c".into(),
            ip: "10.0.0.1".into(),
            client_throttling: Default::default(),
        };
        let mut settings = BrokerSettings::default();
        settings.sasl_kerberos_principal_to_local_rules = Some("DEFAULT".into());
        let outcome = |s: &BrokerSettings| {
            let config = principal_config(s);
            principal_outcome(&spec, &config, &config.build().map_err(|e| e.to_string()))
        };
        // No default realm: DEFAULT matches no realm and Kafka closes the connection.
        assert!(outcome(&settings).is_err());
        settings.kerberos_default_realm = Some("EXAMPLE.COM".into());
        assert_eq!(outcome(&settings).unwrap().principal.name, "alice");
        settings.kerberos_default_realm = Some("OTHER.ORG".into());
        assert!(outcome(&settings).is_err());
    }

    #[test]
    fn listener_change_does_not_carry_a_user_name_as_a_dn() {
        let sasl = ConnectionSpec {
            name: "a".into(),
            listener: ListenerKind::SaslSsl,
            mechanism: Some("PLAIN".into()),
            ssl_client_auth: None,
            identity: Some("tenant-a".into()),
            client_id: "c".into(),
            ip: "10.0.0.1".into(),
            client_throttling: Default::default(),
        };
        let ssl = change_listener(&sasl, ListenerKind::Ssl);
        assert_eq!(ssl.identity, None);
        assert_eq!(effective_ssl_client_auth(&ssl), ("none".to_owned(), false));
        assert_eq!(dn_warning(&ssl), None);
        // SASL_SSL -> SASL_PLAINTEXT keeps the user name.
        assert_eq!(change_listener(&sasl, ListenerKind::SaslPlaintext).identity.as_deref(), Some("tenant-a"));
        // A user name typed as a DN is flagged; a DN is not; a DN implies required.
        let mut typed = ssl.clone();
        typed.identity = Some("tenant-a".into());
        assert_eq!(
            dn_warning(&typed).as_deref(),
            Some("'tenant-a' is not a distinguished name; a certificate subject looks like CN=app,OU=eng.")
        );
        assert_eq!(effective_ssl_client_auth(&typed), ("required".to_owned(), false));
        typed.identity = Some("CN=app,OU=eng".into());
        assert_eq!(dn_warning(&typed), None);
        // Through PLAINTEXT (identity ignored there) the name still does not become a DN.
        let plain = change_listener(&sasl, ListenerKind::Plaintext);
        assert_eq!(plain.identity.as_deref(), Some("tenant-a"));
        assert_eq!(change_listener(&plain, ListenerKind::Ssl).identity, None);
        assert_eq!(change_listener(&plain, ListenerKind::SaslSsl).identity.as_deref(), Some("tenant-a"));
        // Leaving SSL drops ssl.client.auth and the DN.
        typed.ssl_client_auth = Some("requested".into());
        let back = change_listener(&typed, ListenerKind::SaslPlaintext);
        assert_eq!((back.identity, back.ssl_client_auth), (None, None));
        // The page remembers each kind's identity: SASL -> SSL -> SASL gives
        // the user name back, and the DN typed on SSL comes back on SSL.
        let (on_ssl, left) = change_listener_remembering(&sasl, ListenerKind::Ssl, None);
        assert_eq!((on_ssl.identity.as_deref(), left.as_deref()), (None, Some("tenant-a")));
        let (again, _) = change_listener_remembering(&on_ssl, ListenerKind::SaslPlaintext, left.as_deref());
        assert_eq!(again.identity.as_deref(), Some("tenant-a"));
        let (dn_back, _) = change_listener_remembering(&again, ListenerKind::Ssl, Some("CN=app,OU=eng"));
        assert_eq!(dn_back.identity.as_deref(), Some("CN=app,OU=eng"));
        assert_eq!(identity_kind(ListenerKind::SaslSsl), IdentityKind::Sasl);
    }

    #[test]
    fn a_source_ip_must_be_a_literal_address() {
        assert_eq!(source_ip_error("10.0.0.1"), None);
        assert_eq!(source_ip_error(" 2001:db8::7 "), None);
        for bad in ["999.1.1.1", "abc", "broker.example.com"] {
            let e = source_ip_error(bad).unwrap();
            assert!(e.starts_with(&format!("'{bad}' is not an IP address.")), "{e}");
        }
        assert!(source_ip_error("  ").unwrap().starts_with("Enter the client's IP address"));
    }

    #[test]
    fn empty_names_show_as_quotes_and_counts_are_pluralised() {
        let e = QuotaEntity::UserClientId {
            user: EntityName::Named("tenant-a".into()),
            client_id: EntityName::Named(String::new()),
        };
        assert_eq!(entity_path(&e), "users/tenant-a/clients/\"\"");
        assert_eq!(entity_path(&QuotaEntity::client_id("app")), "clients/app");
        assert_eq!(
            entity_path(&QuotaEntity::UserClientId { user: EntityName::Default, client_id: EntityName::Default }),
            "users/<default>/clients/<default>"
        );
        assert_eq!(count_of(1, "client", "clients"), "1 client");
        assert_eq!(
            break_points("kafka.server:type=Fetch,user=tenant-a:byte-rate"),
            ["kafka.server:", "type=", "Fetch,", "user=", "tenant-a:", "byte-rate"]
        );
        assert_eq!(count_of(0, "client", "clients"), "0 clients");
        assert_eq!(count_of(2, "broker", "brokers"), "2 brokers");
    }

    #[test]
    fn quota_values_fail_with_kafka_configs_message() {
        assert_eq!(
            parse_quota_value(QuotaKey::ProducerByteRate, "abc"),
            Err("Cannot parse quota configuration value for producer_byte_rate: abc".to_owned())
        );
        assert_eq!(
            parse_quota_value(QuotaKey::ConsumerByteRate, " 10MB "),
            Err("Cannot parse quota configuration value for consumer_byte_rate: 10MB".to_owned())
        );
        assert_eq!(parse_quota_value(QuotaKey::ProducerByteRate, "2,000,000"), Ok(2_000_000.0));
        assert_eq!(parse_quota_value(QuotaKey::RequestPercentage, "2e1"), Ok(20.0));
        // Java reads NaN; the broker's own check then answers for it.
        assert!(parse_quota_value(QuotaKey::ProducerByteRate, "NaN").unwrap().is_nan());
        assert_eq!(parse_whole("11", "quota.window.num", 1, 100), Ok(11));
        assert!(parse_whole("1.5", "quota.window.num", 1, 100).unwrap_err().contains("quota.window.num"));
    }

    #[test]
    fn plaintext_turns_a_user_quota_off() {
        let mut s = lab();
        let a = Analysis::new(&s);
        let [produce, ..] = a.resolve(0).unwrap();
        assert_eq!(produce.rung(), Some(Rung::User));
        s.connections[0].listener = ListenerKind::Plaintext;
        let a = Analysis::new(&s);
        let p = a.principals[0].as_ref().unwrap();
        assert_eq!(p.principal.name, "ANONYMOUS");
        assert!(!p.warnings.is_empty());
        let [produce, ..] = a.resolve(0).unwrap();
        assert_eq!(produce.rung(), None);
        assert!(produce.trace.iter().any(|r| r.rung == Rung::User && r.outcome == RungOutcome::NotConfigured));
    }

    #[test]
    fn budgets_name_the_other_connections() {
        let mut s = lab();
        add_connection(&mut s, 0); // same user, same client id: same budget
        add_connection(&mut s, 0);
        s.connections[2].identity = Some("someone-else".into());
        let a = Analysis::new(&s);
        assert_eq!(a.sharers(&s, 0, QuotaType::Produce), vec![s.connections[1].name.clone()]);
        assert!(a.sharers(&s, 2, QuotaType::Produce).is_empty());
    }

    #[test]
    fn ip_rate_prefers_the_named_ip() {
        let mut s = lab();
        set_quota(&mut s, QuotaEntity::Ip(EntityName::Default), QuotaKey::ConnectionCreationRate, 10.0);
        set_quota(&mut s, QuotaEntity::Ip(EntityName::Named("10.0.0.1".into())), QuotaKey::ConnectionCreationRate, 2.0);
        let a = Analysis::new(&s);
        assert_eq!(a.ip_rate(&s, "10.0.0.1").map(|x| x.1), Some(2.0));
        assert_eq!(a.ip_rate(&s, "10.0.0.2"), Some((QuotaEntity::Ip(EntityName::Default), 10.0)));
    }

    #[test]
    fn bad_rules_are_reported_not_panicked() {
        let mut s = lab();
        s.brokers.settings.ssl_principal_mapping_rules = Some("RULE:^CN=(.*$/$1/".into());
        s.connections[0].listener = ListenerKind::Ssl;
        s.connections[0].identity = Some("CN=x".into());
        let a = Analysis::new(&s);
        assert!(a.rules_error.is_some());
        assert!(a.principals[0].is_err());
        assert!(a.resolve(0).is_none());
    }

    #[test]
    fn cursor_views_follow_the_timeline() {
        let t = simulate(&lab()).unwrap();
        let times = event_times(&t);
        assert!(times.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(next_event(&times, 0.0), times[1]);
        assert_eq!(prev_event(&times, times[2]), times[1]);
        let c = &t.clients[0];
        let start = client_at(c, 0.0);
        let end = client_at(c, t.end_ms);
        assert_eq!(start.duration_ms, None);
        assert_eq!(end.records, 30_000);
        assert!(end.duration_ms.unwrap() > 10_000.0, "{:?}", end.duration_ms);
        let track = t.sensors.iter().find(|s| s.quota_type == QuotaType::Produce).unwrap();
        let mid = t.end_ms / 2.0;
        let bars = samples_at(track, mid);
        assert!(bars.len() as u32 <= track.samples_kept);
        assert_eq!(bars.iter().filter(|b| b.current).count(), 1);
        // The bars add up to what the rate was computed from.
        let r = rate_at(track, mid).unwrap();
        let total: f64 = bars.iter().map(|b| b.sum).sum();
        assert!((total - r.rate * r.window_ms as f64 / 1000.0).abs() < 1.0 + total * 1e-9);
    }

    #[test]
    fn the_charts_focus_on_the_throttled_client_and_its_budget() {
        let t = simulate(&presets::lesson(4).unwrap().scenario()).unwrap();
        let (c, s) = focus(&t, None, None);
        assert_eq!(t.clients[c].name, "sasl-tenant-a");
        assert_eq!(t.sensors[s].tags.user, "tenant-a");
        assert!(!t.sensors[s].throttles.is_empty());
        // A chosen client shows its own budget; a chosen budget stays.
        let (c, s) = focus(&t, Some(0), None);
        assert_eq!(t.clients[c].name, "plaintext");
        assert!(t.sensors[s].members.contains(&0));
        assert_eq!(focus(&t, Some(99), Some(99)).0, t.clients.len() - 1);
    }

    #[test]
    fn scales_and_formats() {
        let s = Scale { x: (0.0, 10.0), y: (0.0, 100.0), w: 200.0, h: 100.0 };
        assert_eq!(s.path([(0.0, 0.0), (10.0, 100.0)]), "M0.0 100.0 L200.0 0.0");
        assert_eq!(s.px(20.0), 200.0);
        assert_eq!(nice_max(3.2e6), 5e6);
        assert_eq!(nice_max(2e6), 2e6);
        assert_eq!(fmt_rate(2_000_000.0), "2 MB/s");
        assert_eq!(fmt_bytes(1_500.0), "1.5 kB");
        assert_eq!(fmt_bytes(-0.0), "0 B");
        assert_eq!(fmt_ms(-0.3), "0 ms");
        assert_eq!(fmt_ms(12_100.0), "12.10 s");
        assert_eq!(fmt_metric(f64::NAN), "NaN");
        assert_eq!(fmt_value(QuotaKey::ProducerByteRate, 2e6), "2000000.0 (2 MB/s)");
    }
}
