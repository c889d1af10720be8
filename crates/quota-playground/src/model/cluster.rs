//! The cluster view: every produce and fetch budget with one column per
//! broker (its bound, its measured rate at the cursor, its throttles so
//! far), and what each client moved through each broker, summed over the
//! cluster ([`Timeline::totals`]).
//!
//! Kafka enforces client quotas per broker: each broker's
//! `ClientQuotaManager` keeps its own sensor per budget
//! (core/src/main/scala/kafka/server/ClientQuotaManager.scala), so a
//! budget's cluster-wide rate can reach its bound times the number of
//! brokers that meter it.

use quota_engine::resolve::UNLIMITED_BOUND;
use quota_engine::sim::{ClientKind, SensorTrack, Timeline};
use quota_engine::QuotaType;

use super::{count_of, fmt_bytes, fmt_rate};

/// One broker's sensor of a budget at the cursor.
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetCell {
    /// Index of the sensor in [`Timeline::sensors`].
    pub sensor: u32,
    /// The bound in force at the cursor (bytes/s; [`UNLIMITED_BOUND`] or
    /// above when unlimited).
    pub bound: f64,
    /// The measured rate at the cursor: what Kafka's `Rate.measure` gives
    /// then (bytes/s; `SensorTrack::measured_at`: 0 before the first
    /// sample, and falling to 0 while the budget is idle).
    pub rate: f64,
    /// Throttles this broker decided on this budget by the cursor.
    pub throttles: usize,
    /// Bytes it recorded over the run.
    pub bytes: u64,
}

/// One produce or fetch budget across the brokers.
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetRow {
    /// Produce or fetch.
    pub quota_type: QuotaType,
    /// The MBean every broker shows it under.
    pub mbean: String,
    /// One cell per broker id; `None` where that broker never metered it.
    pub cells: Vec<Option<BudgetCell>>,
    /// The measured rates at the cursor, summed over the brokers (bytes/s).
    pub rate_sum: f64,
    /// The bounds at the cursor summed over the brokers that meter it
    /// (bytes/s); `None` when one of them is unlimited.
    pub bound_sum: Option<f64>,
    /// Bytes recorded over the run on every broker.
    pub bytes: u64,
}

/// One client across the brokers.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientRow {
    /// Index of the client in [`Timeline::clients`] (its track, and its
    /// outcome at the cursor).
    pub client: u32,
    /// The connection name.
    pub name: String,
    /// Producer or consumer.
    pub kind: ClientKind,
    /// Bytes it moved through each broker (produced or fetched).
    pub bytes_by_broker: Vec<u64>,
    /// Bytes over the cluster.
    pub bytes: u64,
    /// Its average rate over the cluster while it ran (bytes/s): bytes over
    /// the time from its start to its finish (or the run's end).
    pub avg_rate: f64,
    /// The per-broker bound of its produce or fetch budget at the cursor
    /// (bytes/s), `None` when unlimited or not metered.
    pub per_broker: Option<f64>,
    /// Brokers that meter it (those it moved bytes through).
    pub brokers: usize,
    /// The sentence: per-broker limit × brokers ≈ the cluster's.
    pub sentence: String,
}

/// What the clients table takes from a run whatever the cursor: each
/// client's row without its bound at the cursor, and the sensors of its
/// produce or fetch budget ([`client_table`]). The page keeps it for the
/// run and reads it at each cursor ([`ClientTable::at`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ClientTable {
    rows: Vec<(ClientRow, Vec<u32>, f64)>,
}

/// The cursor-free part of [`client_rows`]: one pass over the sensors'
/// members (not one per client).
pub fn client_table(t: &Timeline) -> ClientTable {
    let mut sensors_of: std::collections::HashMap<(u32, QuotaType), Vec<u32>> = std::collections::HashMap::new();
    for (i, s) in t.sensors.iter().enumerate() {
        for m in &s.members {
            sensors_of.entry((*m, s.quota_type)).or_default().push(i as u32);
        }
    }
    let rows = t
        .totals
        .clients
        .iter()
        .map(|c| {
            let track = t.clients.get(c.client as usize);
            let qt = if c.kind == ClientKind::Producer { QuotaType::Produce } else { QuotaType::Fetch };
            let start = track.map_or(0.0, |k| k.start_ms);
            let end = track.and_then(|k| k.finish_ms).unwrap_or(t.end_ms);
            let secs = (end - start) / 1000.0;
            let avg_rate = if secs > 0.0 { c.bytes as f64 / secs } else { 0.0 };
            let brokers = c.bytes_by_broker.iter().filter(|b| **b > 0).count();
            let row = ClientRow {
                client: c.client,
                name: c.name.clone(),
                kind: c.kind,
                bytes_by_broker: c.bytes_by_broker.clone(),
                bytes: c.bytes,
                avg_rate,
                per_broker: None,
                brokers,
                sentence: String::new(),
            };
            (row, sensors_of.remove(&(c.client, qt)).unwrap_or_default(), secs)
        })
        .collect();
    ClientTable { rows }
}

impl ClientTable {
    /// The rows at `cursor` (ms): each client's per-broker bound then and
    /// its sentence.
    pub fn at(&self, t: &Timeline, cursor: f64) -> Vec<ClientRow> {
        self.rows.iter().map(|(row, sensors, secs)| client_at(t, row, sensors, *secs, cursor)).collect()
    }
}

fn client_at(t: &Timeline, row: &ClientRow, sensors: &[u32], secs: f64, cursor: f64) -> ClientRow {
    let c = row;
    let kind = if c.kind == ClientKind::Producer { "produce" } else { "fetch" };
    let (avg_rate, brokers) = (c.avg_rate, c.brokers);
    // The budgets of this client's kind on the brokers it used.
    let tracks: Vec<&SensorTrack> = sensors.iter().filter_map(|i| t.sensors.get(*i as usize)).collect();
    let per_broker = tracks
        .iter()
        .map(|s| s.bound_at(cursor))
        .filter(|b| *b < UNLIMITED_BOUND)
        .reduce(f64::max);
    let verb = if c.kind == ClientKind::Producer { "produced" } else { "fetched" };
    let moved = format!(
        "{} {verb} {} in {:.1} s, {} on average over the cluster",
        c.name,
        fmt_bytes(c.bytes as f64),
        secs.max(0.0),
        fmt_rate(avg_rate)
    );
    let limit = per_broker.map(|l| l * brokers.max(1) as f64);
    // A quota changed during the run (a set_quota event): the run's average
    // is not held against the quota at the cursor.
    let changed = tracks.iter().any(|s| !s.bound_changes.is_empty());
    let moved = match limit {
        _ if changed => format!("{moved} (the quota changed during the run; the rate chart shows each bound in its time)"),
        Some(l) if avg_rate > l * 1.1 => format!(
            "{moved}: above the limit, because the quota windows allow a burst before the first throttle (quota.window.num × quota.window.size.seconds)"
        ),
        _ => moved,
    };
    let sentence = match per_broker {
        Some(limit) if brokers > 1 => format!(
            "{}: {} per broker × {brokers} brokers leading this client's partitions ≈ {} for the cluster. {moved}.",
            c.name,
            fmt_rate(limit),
            fmt_rate(limit * brokers as f64)
        ),
        Some(limit) => format!(
            "{}: {} per broker, and {} meters it, so that is also the cluster's limit. {moved}.",
            c.name,
            fmt_rate(limit),
            if brokers == 1 { "one broker".to_owned() } else { "no broker".to_owned() }
        ),
        None => format!(
            "{}: {}; it went through {}. {moved}.",
            c.name,
            // A NaN quota (which Kafka accepts) meters the client but never
            // delays it.
            if tracks.iter().any(|s| s.bound_at(cursor).is_nan()) {
                format!("a NaN {kind} quota applies, which meters it but never delays it")
            } else {
                format!("no {kind} quota applies")
            },
            count_of(brokers as u64, "broker", "brokers")
        ),
    };
    ClientRow { per_broker, sentence, ..row.clone() }
}

/// The budgets of `t` at `cursor` (ms), one row each, produce and fetch
/// only (the byte rates Kafka meters per broker).
pub fn budget_rows(t: &Timeline, cursor: f64) -> Vec<BudgetRow> {
    let brokers = t.brokers.len().max(t.totals.brokers as usize).max(1);
    t.totals
        .budgets
        .iter()
        .map(|b| {
            let mut cells: Vec<Option<BudgetCell>> = vec![None; brokers];
            for &si in &b.sensors {
                let Some(s) = t.sensors.get(si as usize) else { continue };
                let Some(slot) = cells.get_mut(s.broker as usize) else { continue };
                *slot = Some(BudgetCell {
                    sensor: si,
                    bound: s.bound_at(cursor),
                    rate: s.measured_at(cursor).map_or(0.0, |(r, _)| r),
                    throttles: s.throttles.iter().filter(|e| e.applied && e.at_ms <= cursor).count(),
                    bytes: b.bytes_by_broker.get(s.broker as usize).copied().unwrap_or(0),
                });
            }
            let present = cells.iter().flatten();
            let rate_sum = present.clone().map(|c| c.rate).sum();
            let bound_sum = present
                .clone()
                .try_fold(0.0, |acc, c| (c.bound.is_nan() || c.bound < UNLIMITED_BOUND).then_some(acc + c.bound));
            BudgetRow { quota_type: b.quota_type, mbean: b.mbean.clone(), cells, rate_sum, bound_sum, bytes: b.bytes }
        })
        .collect()
}

/// The clients of `t` at `cursor` (ms), one row each
/// ([`client_table`] read at `cursor`).
pub fn client_rows(t: &Timeline, cursor: f64) -> Vec<ClientRow> {
    client_table(t).at(t, cursor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{simulate, ClusterEdit};

    fn three_by_three() -> quota_engine::sim::Scenario {
        let mut s = crate::presets::default_scenario();
        s.brokers.count = 3;
        ClusterEdit::SetPartitions { index: 0, partitions: 3 }.check(&s).unwrap()
    }

    #[test]
    fn three_brokers_leading_three_partitions_give_three_budgets_and_three_times_the_limit() {
        let s = three_by_three();
        let t = simulate(&s).unwrap();
        let rows = budget_rows(&t, t.end_ms);
        let produce = rows.iter().find(|r| r.quota_type == QuotaType::Produce).unwrap();
        assert_eq!(produce.cells.iter().flatten().count(), 3);
        assert_eq!(produce.bound_sum, Some(6_000_000.0));
        assert_eq!(produce.bytes, produce.cells.iter().flatten().map(|c| c.bytes).sum::<u64>());
        let clients = client_rows(&t, t.end_ms);
        assert_eq!((clients[0].brokers, clients[0].per_broker), (3, Some(2_000_000.0)));
        // 30 MB fit in the three brokers' bursts: the sentence says why the average is above.
        assert!(clients[0].avg_rate > 6e6 * 1.1 && clients[0].sentence.contains("above the limit, because the quota windows allow a burst"), "{}", clients[0].sentence);
        assert!(
            clients[0].sentence.starts_with("app: 2 MB/s per broker × 3 brokers leading this client's partitions ≈ 6 MB/s for the cluster."),
            "{}",
            clients[0].sentence
        );
        // Each broker got a third of the bytes (round robin over partitions).
        let per: Vec<u64> = clients[0].bytes_by_broker.clone();
        let mean = clients[0].bytes as f64 / 3.0;
        assert!(per.iter().all(|b| (*b as f64 - mean).abs() < mean * 0.1), "{per:?}");
        // A quota lowered during the run: the average is not held against
        // the quota at the cursor as if the burst explained it.
        // (The lab's one broker: its 12 s run is still going at 5 s.)
        let mut lowered = crate::presets::default_scenario();
        lowered.events = vec![serde_json::from_str(r#"{"at_ms": 5000, "kind": "set_quota", "entity": {"user": "tenant-a"}, "key": "producer_byte_rate", "value": 500000}"#).unwrap()];
        let t = simulate(&lowered).unwrap();
        let at_end = &client_rows(&t, t.end_ms)[0];
        assert_eq!(at_end.per_broker, Some(500_000.0));
        assert!(!at_end.sentence.contains("above the limit"), "{}", at_end.sentence);
        assert!(at_end.sentence.ends_with("(the quota changed during the run; the rate chart shows each bound in its time)."), "{}", at_end.sentence);
        // A NaN quota is metered, and said to never delay.
        let mut nan = crate::presets::default_scenario();
        nan.quotas[0].value = f64::NAN;
        let t = simulate(&nan).unwrap();
        let row = &client_rows(&t, t.end_ms)[0];
        assert!(row.sentence.starts_with("app: a NaN produce quota applies, which meters it but never delays it; it went through 1 broker."), "{}", row.sentence);
    }

    #[test]
    fn each_row_names_its_own_client_whatever_the_order_of_the_totals() {
        // Two producers, on connections "app" and "b".
        let mut s = crate::presets::default_scenario();
        let mut c = s.connections[0].clone();
        c.name = "b".into();
        s.connections.push(c);
        let mut w = s.workloads[0].clone();
        if let quota_engine::sim::Workload::Producer(p) = &mut w {
            p.connection = "b".into();
        }
        s.workloads.push(w);
        let mut t = simulate(&s).unwrap();
        t.totals.clients.reverse();
        let table = client_table(&t);
        let rows = table.at(&t, t.end_ms);
        assert_eq!(rows.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["b", "app"]);
        for row in &rows {
            assert_eq!(t.clients[row.client as usize].name, row.name);
        }
        assert_eq!(table.at(&t, t.end_ms), client_rows(&t, t.end_ms));
    }

    #[test]
    fn one_partition_on_three_brokers_is_metered_by_one() {
        let mut s = crate::presets::default_scenario();
        s.brokers.count = 3;
        let t = simulate(&s).unwrap();
        let clients = client_rows(&t, t.end_ms);
        assert_eq!(clients[0].brokers, 1);
        assert!(clients[0].sentence.contains("one broker meters it, so that is also the cluster's limit"), "{}", clients[0].sentence);
        let rows = budget_rows(&t, t.end_ms);
        assert_eq!(rows[0].cells.len(), 3);
        assert_eq!(rows[0].cells.iter().flatten().count(), 1);
    }
}
