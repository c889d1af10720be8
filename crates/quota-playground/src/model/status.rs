//! A client's state at the cursor, as the clients table words and styles
//! it: a client whose records failed (the Timeline's `Outcome::Failed`)
//! never reads "done".

use quota_engine::sim::{ClientTrack, NamedException, Outcome, Timeline};

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
    let detail = failed
        .iter()
        .flat_map(|(c, st)| st.detail.lines().map(move |l| format!("{}: {l}", c.name)))
        .collect::<Vec<_>>()
        .join("\n");
    ClientStatus {
        text: format!("How the run ends, at {}: {}.", fmt_ms(t.end_ms), if parts.is_empty() { "no clients".to_owned() } else { parts.join("; ") }),
        class: if !failed.is_empty() {
            "failed"
        } else if ends.iter().any(|(c, st)| how(c, st) >= 2) {
            "partial"
        } else {
            "done"
        },
        detail,
    }
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
        let t = simulate(&producer(1000, 500)).unwrap();
        let o = run_outcome(&t);
        assert_eq!(o.class, "failed");
        let c = &t.clients[0];
        assert_eq!(
            o.text,
            format!("How the run ends, at {}: {} {}.", fmt_ms(t.end_ms), c.name, client_status(c, t.end_ms, t.end_ms).text)
        );
        assert!(o.text.contains("TimeoutException"), "{}", o.text);
        let ok = simulate(&producer(120_000, 30_000)).unwrap();
        let o = run_outcome(&ok);
        assert_eq!((o.class, o.text), ("done", format!("How the run ends, at {}: 1 client done.", fmt_ms(ok.end_ms))));
        // Nothing lost, but the horizon came first: not "done".
        let mut short = producer(120_000, 30_000);
        short.horizon_ms = 2_000;
        let cut = simulate(&short).unwrap();
        let o = run_outcome(&cut);
        assert_eq!(o.class, "partial", "{}", o.text);
        assert!(o.text.ends_with("1 client cut short by the horizon."), "{}", o.text);
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
        let t = simulate(&s).unwrap();
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
        let t = simulate(&producer(1000, 500)).unwrap();
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
        let t = simulate(&producer(120_000, 30_000)).unwrap();
        let c = &t.clients[0];
        let s = client_status(c, t.end_ms, t.end_ms);
        assert_eq!((s.text.as_str(), s.class), ("done", "done"));
        assert_eq!(client_status(c, -1.0, t.end_ms).class, "not");
    }

    #[test]
    fn a_client_the_horizon_stopped_says_so() {
        let mut s = producer(120_000, 30_000);
        s.horizon_ms = 2_000;
        let t = simulate(&s).unwrap();
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
        let t = simulate(&s).unwrap();
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
