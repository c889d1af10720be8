//! A client's state at the cursor, as the clients table words and styles
//! it: a client whose records failed (the Timeline's `Outcome::Failed`)
//! never reads "done".

use quota_engine::sim::{ClientTrack, NamedException, Outcome, Timeline, TopicOutcome};


use super::format::fmt_ms;

/// What the clients table shows in a client's State cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientStatus {
    /// The words shown, e.g. `done`, `send() blocked`, or `failed: 8176 of
    /// 30000 records lost: TimeoutException on 8176 records, first at
    /// 1.20 s (delivery.timeout.ms=1000)`.
    pub text: String,
    /// The cell's CSS class (after `state`): `done`, `not`, `send()`,
    /// `muted`, `running`, `stopped`, `failing` (a warning: records are
    /// failing, the client still runs) or `failed` (an error).
    pub class: &'static str,
    /// Kafka's exception lines (`class: message (first at ...; setting=N)`)
    /// of the failures seen by the cursor, for the cell's tooltip; empty
    /// when none.
    pub detail: String,
}

/// One exception, briefly: `TimeoutException on 8176 records, first at
/// 1.20 s (delivery.timeout.ms=1000)` (the setting's value in ms, or in
/// bytes for a size setting).
pub fn brief(e: &NamedException) -> String {
    format!(
        "{} on {} record{}, first at {} ({}={})",
        e.short_class(),
        e.count,
        if e.count == 1 { "" } else { "s" },
        fmt_ms(e.first_at_ms),
        e.setting,
        e.setting_ms
    )
}

/// The state of client `c` at `cursor` (ms) in a run that ended at
/// `end_ms`.
pub fn client_status(c: &ClientTrack, cursor: f64, end_ms: f64) -> ClientStatus {
    let at = c.at(cursor);
    let ended = at.duration_ms.is_some() || cursor >= end_ms;
    let seen: Vec<&NamedException> = c
        .outcome
        .exceptions()
        .iter()
        .filter(|e| e.first_at_ms <= cursor)
        .collect();
    let detail = seen.iter().map(|e| e.line()).collect::<Vec<_>>().join("\n");
    let status = |text: String, class| ClientStatus {
        text,
        class,
        detail: detail.clone(),
    };
    if let (
        Outcome::Failed {
            records,
            failed_records,
            exceptions,
        },
        true,
    ) = (&c.outcome, ended)
    {
        let what: Vec<String> = exceptions.iter().map(brief).collect();
        return status(
            format!(
                "failed: {failed_records} of {records} records lost: {}",
                what.join("; ")
            ),
            "failed",
        );
    }
    if !seen.is_empty() {
        // Running, but records have started failing: name the exception
        // from its first failure on (the count is known for the whole run).
        let what: Vec<String> = seen
            .iter()
            .map(|e| {
                format!(
                    "{} since {} ({}={})",
                    e.short_class(),
                    fmt_ms(e.first_at_ms),
                    e.setting,
                    e.setting_ms
                )
            })
            .collect();
        return status(format!("records failing: {}", what.join("; ")), "failing");
    }
    if at.duration_ms.is_some() {
        status("done".to_owned(), "done")
    } else if cursor < c.start_ms {
        status("not started".to_owned(), "not")
    } else if let Some(stop) = c.stop.filter(|stop| cursor >= stop.at_ms) {
        status(
            format!("stopped at {} (stop_ms), {} records not done", fmt_ms(stop.at_ms), stop.records_left),
            "stopped",
        )
    } else if cursor >= end_ms && c.outcome == Outcome::Stopped {
        status("stopped by the horizon".to_owned(), "stopped")
    } else if at.blocked {
        status("send() blocked".to_owned(), "send()")
    } else if at.muted {
        status("muted (throttled)".to_owned(), "muted")
    } else {
        status("running".to_owned(), "running")
    }
}

/// How a run ends, in one sentence, whatever the cursor: the clients that
/// lost records first (each with its exception, as [`client_status`] words
/// it at the end; the first three by name, then how many more), then how
/// many of the others are done, stopped at their `stop_ms`, cut short by
/// the horizon (a client that had not started by then included), or still
/// running. `class` is `failed` when a client lost records, else `partial`
/// when a client was cut short by the horizon or is still running (none
/// lost a record, but not all were sent or read), else `done`;
/// `detail` has every failed client's exception lines, each after its name.
/// The Admin clients follow (the first three by name, with the engine's
/// summary, [`quota_engine::sim::AdminTrack::summary`]); one whose topics
/// failed makes the class `failed`, one still pending `partial`; then the
/// connects workloads likewise.
pub fn run_outcome(t: &Timeline) -> ClientStatus {
    /// Clients that lost records named one by one before "N more".
    const NAMED: usize = 3;
    let ends: Vec<(&ClientTrack, ClientStatus)> =
        t.clients.iter().map(|c| (c, client_status(c, t.end_ms, t.end_ms))).collect();
    let failed: Vec<&(&ClientTrack, ClientStatus)> = ends.iter().filter(|(_, st)| st.class == "failed").collect();
    let mut parts: Vec<String> = failed.iter().take(NAMED).map(|(c, st)| format!("{} {}", c.name, st.text)).collect();
    if failed.len() > NAMED {
        let n = failed.len() - NAMED;
        parts.push(format!("{n} more {} failed", if n == 1 { "client" } else { "clients" }));
    }
    // The others, counted by how they ended, in a fixed order.
    let how = |c: &ClientTrack, st: &ClientStatus| match st.class {
        "done" => 0,
        "stopped" if c.stop.is_some() => 1,
        "stopped" | "not" => 2,
        _ => 3,
    };
    let words = ["done", "stopped at their stop_ms", "cut short by the horizon", "still running"];
    for (k, word) in words.iter().enumerate() {
        let n = ends.iter().filter(|(c, st)| st.class != "failed" && how(c, st) == k).count() as u64;
        if n > 0 {
            let who = if failed.is_empty() { super::count_of(n, "client", "clients") } else { super::count_of(n, "other client", "other clients") };
            parts.push(format!("{who} {word}"));
        }
    }
    let admin_failed = t.admin.iter().any(|a| a.topics.iter().any(|x| matches!(x.outcome, TopicOutcome::QuotaExceeded | TopicOutcome::TimedOut)));
    let admin_pending = t.admin.iter().any(|a| a.topics.iter().any(|x| x.outcome == TopicOutcome::Pending));
    for a in t.admin.iter().take(NAMED) {
        parts.push(format!("Admin client {}: {}", a.name, a.summary().trim_end_matches('.')));
    }
    if t.admin.len() > NAMED {
        let n = (t.admin.len() - NAMED) as u64;
        parts.push(super::count_of(n, "more Admin client", "more Admin clients"));
    }
    // The connects workloads, the same way ([`quota_engine::sim::ConnectsTrack::summary`]):
    // one whose connections were not all ready makes the class `partial`.
    let connects_pending = t.connects.iter().any(|c| !c.finished);
    for c in t.connects.iter().take(NAMED) {
        parts.push(format!("connections from {}: {}", c.name, c.summary().trim_end_matches('.')));
    }
    if t.connects.len() > NAMED {
        let n = (t.connects.len() - NAMED) as u64;
        parts.push(super::count_of(n, "more connects workload", "more connects workloads"));
    }
    let detail = failed
        .iter()
        .flat_map(|(c, st)| st.detail.lines().map(move |l| format!("{}: {l}", c.name)))
        .collect::<Vec<_>>()
        .join("\n");
    ClientStatus {
        text: format!("How the run ends, at {}: {}.", fmt_ms(t.end_ms), if parts.is_empty() { "no clients".to_owned() } else { parts.join("; ") }),
        class: if !failed.is_empty() || admin_failed {
            "failed"
        } else if ends.iter().any(|(c, st)| how(c, st) >= 2) || admin_pending || connects_pending {
            "partial"
        } else {
            "done"
        },
        detail,
    }
}

/// Said under the throttles table when no throttle is decided by the
/// cursor but the run throttles this budget later (`None` when it never
/// does), so that a throttled run does not read as unthrottled at 0 ms
/// (issue 29).
pub fn throttles_ahead(track: &quota_engine::sim::SensorTrack) -> Option<String> {
    let ahead: Vec<_> = track.throttles.iter().filter(|e| e.applied && e.delay_ms > 0).collect();
    let first = ahead.first()?;
    Some(format!(
        "Ahead in this run: {}{} throttles of this budget, the first at {} ({} ms); play or scrub to see them.",
        super::grouped(ahead.len() as u64),
        if u32::try_from(track.throttles.len()).map_or(true, |n| n >= quota_engine::sim::SERIES_CAP) { "+" } else { "" },
        fmt_ms(first.at_ms),
        first.delay_ms
    ))
}

/// How a client reaches the brokers, for [`largest_throttle`]: whether
/// the producer sends `acks=0` (no response) and whether the broker is
/// older than 2.0 (it holds the response back for the throttle time).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ResponsePath {
    /// A producer with `acks=0`.
    pub acks_zero: bool,
    /// `client_throttling: legacy`.
    pub legacy: bool,
}

/// The clients table's "Largest throttle so far" cell for client `ci` at
/// `cursor`: from the brokers' throttle events decided by then (the data
/// the throttles table lists, at the same instant), and, where the client
/// has not received them all in responses, how many it has and why.
///
/// A throttle is decided when the broker handles the request; the client
/// learns it from the response, which under KIP-219 leaves at once, under
/// a broker before 2.0 only after the throttle time (a 12291 ms throttle
/// decided at 10.22 s reaches the client at 22.51 s), and never for an
/// `acks=0` producer, which gets no response: the broker throttles it by
/// muting its channel.
pub fn largest_throttle(t: &Timeline, ci: usize, cursor: f64, path: ResponsePath) -> String {
    let cap = quota_engine::sim::SERIES_CAP as usize;
    let mut max = 0i64;
    let mut n = 0usize;
    let mut capped = false;
    for s in &t.sensors {
        let mut mine = false;
        for e in s.throttles.iter().filter(|e| e.client as usize == ci && e.at_ms <= cursor) {
            mine = true;
            if e.applied && e.delay_ms > 0 {
                max = max.max(e.delay_ms);
                n += 1;
            }
        }
        capped |= mine && s.throttles.len() >= cap && s.throttles.last().is_some_and(|l| cursor > l.at_ms);
    }
    let Some(c) = t.clients.get(ci) else { return "none".to_owned() };
    let at = c.at(cursor);
    let (rmax, r) = (at.throttle_max_ms, at.throttled_responses as usize);
    if n == 0 && r == 0 {
        // At 0 ms a throttled run must not read as unthrottled (issue 29).
        let first = t
            .sensors
            .iter()
            .flat_map(|s| s.throttles.iter())
            .filter(|e| e.client as usize == ci && e.applied && e.delay_ms > 0)
            .min_by(|a, b| a.at_ms.total_cmp(&b.at_ms));
        return first.map_or_else(
            || "none".to_owned(),
            |e| format!("none yet: the first, {} ms, comes at {}", e.delay_ms, fmt_ms(e.at_ms)),
        );
    }
    let count = |n: usize| format!("{}{}", super::grouped(n as u64), if capped { "+" } else { "" });
    if path.acks_zero {
        return format!(
            "{max} ms ({} throttles by the brokers; none in a response: no response carries a throttle time to an acks=0 producer, so the broker throttled it by muting its channel)",
            count(n)
        );
    }
    // Past the recorded throttles (the first SERIES_CAP per budget), the
    // responses are the fuller count.
    if (n == r && max == rmax) || (capped && r >= n) {
        return format!("{} ms ({} throttled responses)", rmax.max(max), count(r.max(n)));
    }
    let received = if r == 0 {
        "none has reached it in a response yet".to_owned()
    } else {
        format!("{} reached it in responses so far, the largest {rmax} ms", super::grouped(r as u64))
    };
    let why = if path.legacy {
        "a broker before 2.0 holds the response back for the throttle time"
    } else {
        "the responses carrying the others are on their way"
    };
    format!("{max} ms ({} throttles by the brokers; {received}: {why})", count(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quota_engine::sim::{simulate, Scenario, Workload};

    /// The 30 MB producer under producer_byte_rate=2000000 (the CLI's
    /// example), with `delivery.timeout.ms` as given.
    fn producer(delivery_timeout_ms: u64, request_timeout_ms: u64) -> Scenario {
        let v: serde_json::Value =
            serde_json::from_str(include_str!("../../../../examples/producer-2mb-quota.json"))
                .unwrap();
        let mut s: Scenario = serde_json::from_value(v["scenario"].clone()).unwrap();
        let Workload::Producer(p) = &mut s.workloads[0] else {
            panic!("a producer")
        };
        p.config.delivery_timeout_ms = delivery_timeout_ms;
        p.config.request_timeout_ms = request_timeout_ms;
        s
    }

    #[test]
    fn the_run_outcome_names_lost_records_whatever_the_cursor() {
        let t = simulate(producer(1000, 500).validate().expect("a valid scenario")).unwrap();
        let o = run_outcome(&t);
        assert_eq!(o.class, "failed");
        let c = &t.clients[0];
        assert_eq!(
            o.text,
            format!("How the run ends, at {}: {} {}.", fmt_ms(t.end_ms), c.name, client_status(c, t.end_ms, t.end_ms).text)
        );
        assert!(o.text.contains("TimeoutException"), "{}", o.text);
        let ok = simulate(producer(120_000, 30_000).validate().expect("a valid scenario")).unwrap();
        let o = run_outcome(&ok);
        assert_eq!((o.class, o.text), ("done", format!("How the run ends, at {}: 1 client done.", fmt_ms(ok.end_ms))));
        // Nothing lost, but the horizon came first: not "done".
        let mut short = producer(120_000, 30_000);
        short.horizon_ms = 2_000;
        let cut = simulate(short.validate().expect("a valid scenario")).unwrap();
        let o = run_outcome(&cut);
        assert_eq!(o.class, "partial", "{}", o.text);
        assert!(o.text.ends_with("1 client cut short by the horizon."), "{}", o.text);
    }

    /// A run of Admin clients only ends with the engine's summary of each,
    /// failed when topics failed.
    #[test]
    fn the_run_outcome_of_admin_clients_is_the_engine_s_summary() {
        let s = crate::presets::lesson(8).unwrap().scenario();
        let t = crate::model::simulate(&s).unwrap();
        let o = run_outcome(&t);
        assert_eq!(o.text, "How the run ends, at 8.53 s: Admin client admin: All 40 topics created in 8,526 ms after 17 retries on THROTTLING_QUOTA_EXCEEDED.");
        assert_eq!(o.class, "done");
        let mut v = serde_json::to_value(&s).unwrap();
        v["workloads"][0]["admin"]["config"] = serde_json::json!({"default.api.timeout.ms": 5000, "request.timeout.ms": 5000});
        let t = crate::model::simulate(&serde_json::from_value(v).unwrap()).unwrap();
        let o = run_outcome(&t);
        assert!(o.text.contains("Admin client admin: 32 of 40 topics created; 8 failed with ThrottlingQuotaExceededException"), "{}", o.text);
        assert_eq!(o.class, "failed");
    }

    /// A run of connections only ends with the engine's summary of each,
    /// partial when the horizon stopped it before all were ready.
    #[test]
    fn the_run_outcome_of_connections_is_the_engine_s_summary() {
        let mut s = crate::presets::lesson(9).unwrap().scenario();
        let t = crate::model::simulate(&s).unwrap();
        let o = run_outcome(&t);
        assert_eq!(o.text, format!("How the run ends, at 12.86 s: connections from apps: {}", t.connects[0].summary()));
        assert_eq!(o.class, "done");
        s.horizon_ms = 5_000;
        let t = crate::model::simulate(&s).unwrap();
        let o = run_outcome(&t);
        assert!(o.text.contains("connections from apps: 21 of 30 connections were ready when the run stopped at 5,000 ms"), "{}", o.text);
        assert_eq!(o.class, "partial");
    }

    #[test]
    fn the_run_outcome_counts_failed_clients_past_three_and_the_others_by_how_they_ended() {
        let mut s = producer(1000, 500);
        let Workload::Producer(first) = s.workloads[0].clone() else { panic!() };
        let conn = s.connections[0].clone();
        // Five more producers that lose records (c5 closed at its stop_ms
        // with records buffered: KafkaException), one that starts after the
        // run's end.
        for i in 1..7u32 {
            let mut c = conn.clone();
            // The same client.id: one budget, throttled harder.
            c.name = format!("c{i}");
            s.connections.push(c);
            let mut p = first.clone();
            p.connection = format!("c{i}");
            if i == 5 {
                p.config.delivery_timeout_ms = 120_000;
                p.stop_ms = Some(300);
            }
            if i == 6 {
                p.config.delivery_timeout_ms = 120_000;
                p.start_ms = 10_000_000;
            }
            s.workloads.push(Workload::Producer(p));
        }
        s.horizon_ms = 60_000;
        let t = simulate(s.validate().expect("a valid scenario")).unwrap();
        let o = run_outcome(&t);
        assert_eq!(o.class, "failed");
        let failed = t.clients.iter().filter(|c| c.outcome.is_failed()).count();
        assert_eq!(failed, 6, "{}", o.text);
        assert!(o.text.contains("; 3 more clients failed; "), "{}", o.text);
        assert!(o.text.ends_with("; 1 other client cut short by the horizon."), "{}", o.text);
        // The tooltip names the client of each exception line.
        assert!(!o.detail.is_empty());
        assert!(o.detail.lines().all(|l| t.clients.iter().any(|c| l.starts_with(&format!("{}: ", c.name)))), "{}", o.detail);
    }

    #[test]
    fn a_client_whose_batches_expired_is_failed_not_done() {
        let t = simulate(producer(1000, 500).validate().expect("a valid scenario")).unwrap();
        let c = &t.clients[0];
        let errors = c.metrics.record_error_total;
        assert!(errors > 0);
        let first = c.outcome.exceptions()[0].first_at_ms;
        // At the end: failed, in the error style, with the count, the
        // exception, the first time and the setting.
        let end = client_status(c, t.end_ms, t.end_ms);
        assert_eq!(end.class, "failed");
        assert_eq!(
            end.text,
            format!(
                "failed: {errors} of 30000 records lost: TimeoutException on {errors} records, first at {} (delivery.timeout.ms=1000)",
                fmt_ms(first)
            )
        );
        assert!(!end.text.contains("done"));
        assert!(
            end.detail.starts_with(
                "org.apache.kafka.common.errors.TimeoutException: Expiring 64 record(s) for lab-0:1000 ms has passed since batch creation (first at "
            ),
            "{}",
            end.detail
        );
        // After the first expiry but before the end: a warning.
        let mid = client_status(c, first, t.end_ms);
        assert_eq!(mid.class, "failing");
        assert_eq!(
            mid.text,
            format!(
                "records failing: TimeoutException since {} (delivery.timeout.ms=1000)",
                fmt_ms(first)
            )
        );
        // Before it: nothing failed yet.
        let before = client_status(c, first - 1.0, t.end_ms);
        assert!(
            !matches!(before.class, "failed" | "failing" | "done"),
            "{before:?}"
        );
        assert!(before.detail.is_empty());
    }

    #[test]
    fn a_client_without_failures_is_done() {
        let t = simulate(producer(120_000, 30_000).validate().expect("a valid scenario")).unwrap();
        let c = &t.clients[0];
        let s = client_status(c, t.end_ms, t.end_ms);
        assert_eq!((s.text.as_str(), s.class), ("done", "done"));
        assert_eq!(client_status(c, -1.0, t.end_ms).class, "not");
    }

    #[test]
    fn a_client_the_horizon_stopped_says_so() {
        let mut s = producer(120_000, 30_000);
        s.horizon_ms = 2_000;
        let t = simulate(s.validate().expect("a valid scenario")).unwrap();
        let st = client_status(&t.clients[0], t.end_ms, t.end_ms);
        assert_eq!(
            (st.text.as_str(), st.class),
            ("stopped by the horizon", "stopped")
        );
    }

    #[test]
    fn a_client_stopped_by_its_stop_ms_says_when_and_what_it_left() {
        let mut s = producer(120_000, 30_000);
        let Workload::Producer(p) = &mut s.workloads[0] else {
            panic!("a producer")
        };
        p.stop_ms = Some(3_000);
        let t = simulate(s.validate().expect("a valid scenario")).unwrap();
        let c = &t.clients[0];
        let stop = c.stop.expect("the producer stopped at its stop_ms");
        // stop_ms closes the producer with close(Duration.ZERO): what was
        // buffered or in flight fails, so the client reads failed.
        let st = client_status(c, t.end_ms, t.end_ms);
        assert_eq!(st.class, "failed");
        let lost = c.outcome.failed_records();
        assert!(lost > 0);
        assert_eq!(
            st.text,
            format!(
                "failed: {lost} of 30000 records lost: KafkaException on {lost} records, first at {} (stop_ms=3000)",
                fmt_ms(3_000.0)
            )
        );
        assert!(st.detail.contains("Producer is closed forcefully."), "{}", st.detail);
        assert_eq!(stop.records_left, 30_000 - c.metrics.records_done - lost);
        assert_eq!(stop.at_ms, 3_000.0);
        assert_ne!(client_status(c, 2_000.0, t.end_ms).class, "stopped");
    }
}

#[cfg(test)]
mod largest_throttle_tests {
    use super::*;
    use quota_engine::sim::{simulate, Scenario};

    fn run(throttling: &str, acks: &str) -> Timeline {
        let json = format!(
            r#"{{"topics": [{{"name": "t", "partitions": 1}}],
              "quotas": [{{"entity": {{"client-id": "a"}}, "key": "producer_byte_rate", "value": 20000}}],
              "connections": [{{"name": "a", "listener": "PLAINTEXT", "client.id": "a", "client_throttling": "{throttling}"}}],
              "workloads": [{{"producer": {{"connection": "a", "topic": "t", "records": 8000, "record.size": 1000, "config": {{"acks": "{acks}"}}}}}}]}}"#
        );
        let s: Scenario = serde_json::from_str(&json).unwrap();
        simulate(s.validate().expect("a valid scenario")).unwrap()
    }

    /// The largest throttle the throttles table lists by the cursor.
    fn table_max(t: &Timeline, cursor: f64) -> i64 {
        t.sensors[0].throttles.iter().filter(|e| e.at_ms <= cursor && e.applied).map(|e| e.delay_ms).max().unwrap_or(0)
    }

    /// Issue 29: "Largest throttle so far" and the throttles table read the
    /// same throttles at the same instant, also when a broker before 2.0
    /// holds the response back (the cause of 12240 ms beside 12291 ms).
    #[test]
    fn the_largest_throttle_is_the_tables_at_every_instant() {
        let t = run("legacy", "1");
        let legacy = ResponsePath { acks_zero: false, legacy: true };
        let mut differed = false;
        for cursor in (0..=40).map(|i| f64::from(i) * 500.0) {
            let text = largest_throttle(&t, 0, cursor, legacy);
            let max = table_max(&t, cursor);
            if max == 0 {
                assert!(text.starts_with("none yet: the first, "), "{cursor}: {text}");
            } else {
                assert!(text.starts_with(&format!("{max} ms (")), "{cursor}: {text} vs {max}");
            }
            if text.contains("holds the response back") {
                differed = true;
                assert!(t.clients[0].at(cursor).throttle_max_ms < max || text.contains("reached it"), "{text}");
            }
        }
        assert!(differed, "a legacy run has a throttle decided but not yet received");
        // At 0 ms the throttles ahead are said (issue 29, the run's first sight).
        let first = t.sensors[0].throttles.iter().find(|e| e.applied).unwrap();
        assert_eq!(
            throttles_ahead(&t.sensors[0]).unwrap(),
            format!("Ahead in this run: {} throttles of this budget, the first at {} ({} ms); play or scrub to see them.",
                t.sensors[0].throttles.iter().filter(|e| e.applied).count(), fmt_ms(first.at_ms), first.delay_ms)
        );
        // KIP-219: the response leaves at once; both agree with no note.
        let t = run("kip219", "1");
        let end = t.end_ms;
        let text = largest_throttle(&t, 0, end, ResponsePath::default());
        assert!(text.starts_with(&format!("{} ms (", table_max(&t, end))) && text.ends_with("throttled responses)"), "{text}");
    }

    /// Issue 29: an acks=0 producer is throttled by muting, and no response
    /// tells it: the cell says so instead of "none".
    #[test]
    fn an_acks_zero_producer_reads_why_no_response_carries_its_throttles() {
        let t = run("kip219", "0");
        assert_eq!(t.clients[0].responses.throttled_responses, 0);
        assert!(!t.sensors[0].throttles.is_empty());
        let text = largest_throttle(&t, 0, t.end_ms, ResponsePath { acks_zero: true, legacy: false });
        assert!(text.starts_with(&format!("{} ms (", table_max(&t, t.end_ms))), "{text}");
        assert!(text.contains("no response carries a throttle time to an acks=0 producer, so the broker throttled it by muting its channel"), "{text}");
    }
}
