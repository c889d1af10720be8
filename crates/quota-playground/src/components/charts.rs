//! Hand-drawn SVG charts over the Timeline, each with a text equivalent
//! (an `aria-label` summary and a table under "Data").

use quota_engine::sim::seeds::ClientSpread;
use quota_engine::sim::{AdminTrack, ClientKind, ClientTrack, ConnectsTrack, SensorTrack, Timeline};
use quota_engine::QuotaType;
use yew::prelude::*;

use crate::model::{self, Scale};

const H: f64 = 180.0;
const PAD_L: f64 = 76.0;
const PAD_B: f64 = 24.0;
const PAD_T: f64 = 8.0;
const PAD_R: f64 = 8.0;

use quota_engine::resolve::human::fixed;

/// The value unit of a budget: bytes for byte rates, percent for request
/// time, mutations otherwise (Java's form from 10^15 on, [`fixed`]).
fn fmt_amount(qt: QuotaType, v: f64) -> String {
    match qt {
        QuotaType::Produce | QuotaType::Fetch => model::fmt_bytes(v),
        QuotaType::Request => format!("{} %·s", fixed(v, 2)),
        QuotaType::ControllerMutation => fixed(v, 1),
    }
}

/// A rate in the budget's unit.
pub(crate) fn fmt_rate_of(qt: QuotaType, v: f64) -> String {
    match qt {
        QuotaType::Produce | QuotaType::Fetch => model::fmt_rate(v),
        QuotaType::Request => format!("{} %", fixed(v, 2)),
        QuotaType::ControllerMutation => format!("{}/s", fixed(v, 2)),
    }
}

/// The charts' logical width: narrower on small screens, so their text is
/// not scaled down to nothing (the SVG scales to the container's width).
/// A pixel coordinate with one decimal, for an SVG attribute
/// ([`model::tenths`]: no float formatter, the costliest part of drawing a
/// run with hundreds of throttles).
fn px1(v: f64) -> String {
    model::tenths(v)
}

fn chart_w() -> f64 {
    if crate::platform::viewport_width() < 600.0 {
        400.0
    } else {
        640.0
    }
}

fn frame(label: String, testid: &'static str, body: Html, y_ticks: &[(f64, String)], x_ticks: &[(f64, String)]) -> Html {
    let w_total = chart_w();
    html! {
        <svg class="chart" viewBox={format!("0 0 {} {}", w_total, H)} role="img" aria-label={label} data-testid={testid}
             preserveAspectRatio="xMidYMid meet">
            <g class="axis">
                { for y_ticks.iter().map(|(y, t)| html! {
                    <>
                        <line x1={PAD_L.to_string()} x2={(w_total - PAD_R).to_string()} y1={y.to_string()} y2={y.to_string()} class="grid" />
                        <text x={(PAD_L - 6.0).to_string()} y={(y + 4.0).to_string()} text-anchor="end">{ t.clone() }</text>
                    </>
                }) }
                { for x_ticks.iter().enumerate().map(|(i, (x, t))| {
                    let anchor = if i == 0 { "start" } else if i + 1 == x_ticks.len() { "end" } else { "middle" };
                    html! { <text x={x.to_string()} y={(H - 6.0).to_string()} text-anchor={anchor}>{ t.clone() }</text> }
                }) }
            </g>
            <g transform={format!("translate({PAD_L} {PAD_T})")}>{ body }</g>
        </svg>
    }
}

fn inner() -> (f64, f64) {
    (chart_w() - PAD_L - PAD_R, H - PAD_T - PAD_B)
}

fn time_ticks(end_ms: f64) -> Vec<(f64, String)> {
    let (w, _) = inner();
    [0.0, 0.5, 1.0].iter().map(|f| (PAD_L + f * w, model::fmt_ms(f * end_ms))).collect()
}

fn value_ticks(max: f64, fmt: impl Fn(f64) -> String) -> Vec<(f64, String)> {
    value_ticks_over(inner().1, max, fmt)
}

/// [`value_ticks`] on a plot `h` px high.
fn value_ticks_over(h: f64, max: f64, fmt: impl Fn(f64) -> String) -> Vec<(f64, String)> {
    let mut ticks: Vec<(f64, String)> = [0.0, 0.5, 1.0].iter().map(|f| (PAD_T + h - f * h, fmt(f * max))).collect();
    // An empty chart's axis (up to 1 B) would read "1 B, 0 B, 0 B": a
    // middle tick that reads like its neighbour is left out.
    if ticks[1].1 == ticks[0].1 || ticks[1].1 == ticks[2].1 {
        ticks.remove(1);
    }
    ticks
}

/// The samples of the quota window at the cursor, as bars, and what Kafka
/// compares: their sum (the last bar, Σ) against the bound × the window
/// length the rate is divided by at that moment (`Rate.windowSize`: the
/// elapsed samples, up to `quota.window.num` × `quota.window.size.seconds`;
/// Kafka: `Rate.measure`, clients/src/main/java/org/apache/kafka/common/metrics/stats/Rate.java).
pub(crate) fn window_bars(track: &SensorTrack, cursor: f64) -> Html {
    let bars = track.samples_at(cursor);
    // The bound in force at the cursor (a set_quota event may have changed it).
    let bound = track.bound_at(cursor);
    let unlimited = bound >= quota_engine::resolve::UNLIMITED_BOUND;
    // A NaN quota (Kafka accepts it) has no line to draw.
    let line = !unlimited && bound.is_finite();
    let rate = track.measured_at(cursor);
    let window_ms = rate.map_or(track.sample_window_ms * i64::from(track.samples_kept.max(1)), |(_, w)| w);
    let allowed = bound * window_ms as f64 / 1000.0;
    let total: f64 = bars.iter().map(|b| b.sum).sum();
    let max_bar = bars.iter().map(|b| b.sum).fold(total, f64::max);
    let top = model::nice_max(if unlimited { max_bar } else { max_bar.max(allowed * 1.1) });
    let (w, h) = inner();
    // One slot per sample of Kafka's ring (quota.window.num + 1), then the Σ bar.
    let slots = track.samples_kept.max(1) as f64 + 2.0;
    let sc = Scale { x: (0.0, slots), y: (0.0, top), w, h };
    let bw = w / slots;
    let label = format!(
        "Quota window at {}: {} holding {}; Kafka divides by a window of {} and compares {} with {}; measured rate {}.",
        model::fmt_ms(cursor),
        model::count_of(bars.len() as u64, "sample", "samples"),
        fmt_amount(track.quota_type, total),
        model::fmt_ms(window_ms as f64),
        fmt_amount(track.quota_type, total),
        if unlimited { "no bound (unlimited)".to_owned() } else { format!("quota × window = {}", fmt_amount(track.quota_type, allowed)) },
        rate.map_or("0".to_owned(), |(r, _)| fmt_rate_of(track.quota_type, r)),
    );
    let offset = slots - 1.0 - bars.len() as f64;
    let sum_x = (slots - 1.0) * bw;
    let sum_y = sc.py(total);
    let body = html! {
        <>
            { for bars.iter().enumerate().map(|(i, b)| {
                let x = (offset + i as f64) * bw;
                let y = sc.py(b.sum);
                html! {
                    <rect class={classes!("bar", b.current.then_some("current"))} x={px1(x + 2.0)} y={px1(y)}
                        width={px1((bw - 4.0).max(1.0))} height={px1(h - y)} />
                }
            }) }
            <rect class="bar total" x={px1(sum_x + 2.0)} y={px1(sum_y)}
                width={px1((bw - 4.0).max(1.0))} height={px1(h - sum_y)} />
            <text class="bar-label" x={px1(sum_x + bw / 2.0)} y={px1(h - 4.0)} text-anchor="middle">{ "Σ" }</text>
            if line {
                <line class="quota" x1="0" x2={w.to_string()} y1={px1(sc.py(allowed))} y2={px1(sc.py(allowed))} />
            }
        </>
    };
    html! {
        <figure class="fig">
            <figcaption>{ "Quota window: the samples Kafka sums, against quota × the window it divides by" }</figcaption>
            { frame(label, "chart-window", body, &value_ticks(top, |v| fmt_amount(track.quota_type, v)), &[]) }
            if bars.is_empty() { <p class="msg hint">{ "No sample in the window at this time: nothing was recorded in the last window, so the rate reads 0." }</p> }
            <p class="legend">{ key("bar", "sum per sample") }{ key("current", "sample being filled") }{ key("total", "Σ all samples") }
                if line { { key("quota", format!("quota × {} (the window Kafka divides by now)", model::fmt_ms(window_ms as f64))) } }</p>
            <details class="data"><summary>{ "Data" }</summary>
                <table>
                    <thead><tr><th scope="col">{ "Sample start" }</th><th scope="col">{ "Sum" }</th><th scope="col">{ "State" }</th></tr></thead>
                    <tbody>{ for bars.iter().map(|b| html! {
                        <tr><td>{ model::fmt_ms(b.start_ms) }</td><td>{ fmt_amount(track.quota_type, b.sum) }</td>
                            <td>{ if b.current { "filling" } else { "complete" } }</td></tr>
                    }) }</tbody>
                </table>
            </details>
        </figure>
    }
}

/// The measured rate of a budget over the whole run against its quota,
/// with the member clients' mute spans and the throttle decisions; `curve`
/// is `track.rate_curve(end)`, computed once per run by the caller.
pub(crate) fn rate_chart(t: &Timeline, track: &SensorTrack, curve: &[(f64, f64)], cursor: f64) -> Html {
    let end = t.end_ms.max(1.0);
    let segments = bound_segments(track, end);
    let finite = |b: f64| b < quota_engine::resolve::UNLIMITED_BOUND;
    let unlimited = !segments.iter().any(|(_, _, b)| finite(*b));
    let bound_max = segments.iter().map(|(_, _, b)| *b).filter(|b| finite(*b)).fold(0.0, f64::max);
    let bound_now = track.bound_at(cursor);
    // Kafka's measurement between records too: an idle budget's rate
    // falls to 0, it does not stay at its last record's value (and can rise
    // a little above the last record's as the window stops growing).
    let peak = curve.iter().map(|(_, r)| *r).fold(0.0, f64::max);
    let top = model::nice_max(if unlimited { peak } else { peak.max(bound_max) * 1.1 });
    let (w, h) = inner();
    let sc = Scale { x: (0.0, end), y: (0.0, top), w, h };
    let pts = |past: bool| curve.iter().copied().filter(move |(at, _)| (*at <= cursor) == past);
    // The mutes this broker decided on this budget (a client's own mute
    // list spans every broker it talks to).
    let mutes: Vec<(f64, f64)> = track
        .throttles
        .iter()
        .filter(|e| e.applied && e.mute_to_ms > e.mute_from_ms)
        .map(|e| (e.mute_from_ms, e.mute_to_ms))
        .collect();
    let now = track.measured_at(cursor).map(|(r, _)| r);
    let label = format!(
        "Measured rate of {} over {}: peak {}, quota {}, {} throttles, {} mute spans; at {} the rate is {}.",
        track.sensor_name,
        model::fmt_ms(end),
        fmt_rate_of(track.quota_type, peak),
        if finite(bound_now) || bound_now.is_nan() { fmt_rate_of(track.quota_type, bound_now) } else { "unlimited".to_owned() },
        track.throttles.iter().filter(|e| e.applied).count(),
        mutes.len(),
        model::fmt_ms(cursor),
        now.map_or("0".to_owned(), |r| fmt_rate_of(track.quota_type, r)),
    );
    let body = html! {
        <>
            { for mutes.iter().map(|(from, to)| html! {
                <rect class="mute" x={px1(sc.px(*from))} y="0"
                    width={px1((sc.px(*to) - sc.px(*from)).max(0.5))} height={h.to_string()} />
            }) }
            { for segments.iter().filter(|(_, _, b)| finite(*b)).map(|(from, to, b)| html! {
                <line class="quota" x1={px1(sc.px(*from))} x2={px1(sc.px(*to))}
                    y1={px1(sc.py(*b))} y2={px1(sc.py(*b))} />
            }) }
            { event_markers(t, &sc, h) }
            <path class="line future" d={sc.path(pts(false))} />
            <path class="line" d={sc.path(pts(true))} />
            { for track.throttles.iter().filter(|e| e.applied).take(600).map(|e| html! {
                <line class="throttle" x1={px1(sc.px(e.at_ms))} x2={px1(sc.px(e.at_ms))} y1="0" y2="6" />
            }) }
            <line class="cursor" x1={px1(sc.px(cursor))} x2={px1(sc.px(cursor))} y1="0" y2={h.to_string()} />
        </>
    };
    let step = (track.rate.points.len() / 24).max(1);
    html! {
        <figure class="fig" data-testid="rate-figure" data-cursor-ms={format!("{cursor:.0}")}
            data-rate-now={format!("{:.0}", now.unwrap_or(0.0))}
            data-bound-now={finite(bound_now).then(|| format!("{bound_now:.0}"))}>
            <figcaption>{ "Measured rate against the quota" }</figcaption>
            { frame(label, "chart-rate", body, &value_ticks(top, |v| fmt_rate_of(track.quota_type, v)), &time_ticks(end)) }
            <p class="legend">{ key("line", "measured rate") }
                if !unlimited { { key("quota", "quota") } }
                { key("mute", "channel muted") }{ key("throttle", "throttle decided") }
                if !t.markers.is_empty() { { key("marker", "event") } }</p>
            if !t.markers.is_empty() {
                <ul class="events">{ for t.markers.iter().map(|m| html! {
                    <li>{ format!("{}: {}", model::fmt_ms(m.at_ms), m.text) }</li>
                }) }</ul>
            }
            <details class="data"><summary>{ "Data" }</summary>
                <table>
                    <thead><tr><th scope="col">{ "Time" }</th><th scope="col">{ "Measured rate" }</th><th scope="col">{ "Window" }</th></tr></thead>
                    <tbody>{ for track.rate.points.iter().step_by(step).map(|p| html! {
                        <tr><td>{ model::fmt_ms(p.at_ms) }</td><td>{ fmt_rate_of(track.quota_type, p.rate) }</td><td>{ model::fmt_ms(p.window_ms as f64) }</td></tr>
                    }) }</tbody>
                </table>
            </details>
        </figure>
    }
}

/// The bound over the run as `(from_ms, to_ms, bound per second)` pieces:
/// the sensor's first bound, then each `set_quota` event's.
fn bound_segments(track: &SensorTrack, end: f64) -> Vec<(f64, f64, f64)> {
    let mut out = Vec::new();
    let (mut from, mut bound) = (0.0, track.bound);
    for c in &track.bound_changes {
        out.push((from, c.at_ms, bound));
        (from, bound) = (c.at_ms, c.bound);
    }
    out.push((from, end, bound));
    out
}

/// The scenario's events (leadership moves, quota changes, client stops)
/// as vertical lines, each with its sentence as a tooltip.
fn event_markers(t: &Timeline, sc: &Scale, h: f64) -> Html {
    html! {
        { for t.markers.iter().map(|m| {
            let x = px1(sc.px(m.at_ms));
            html! {
                <line class="marker" x1={x.clone()} x2={x} y1="0" y2={h.to_string()} data-at-ms={format!("{:.0}", m.at_ms)} data-kind={format!("{:?}", m.kind)}>
                    <title>{ format!("{}: {}", model::fmt_ms(m.at_ms), m.text) }</title>
                </line>
            }
        }) }
    }
}

/// The progress chart's parts that do not move with the cursor: its lines,
/// event and failure marks, label and legend, made once per run and chart
/// width ([`progress_parts`]), so that a playback frame of a run of 100
/// clients draws one cursor line instead of writing 100 paths again (issue
/// 28's profile: the paths' numbers were the largest part of a frame).
pub(crate) struct ProgressParts {
    /// The chart's accessible name: every client's outcome in a sentence.
    label: String,
    /// The paths, event markers and failure marks (a fragment: cloned by
    /// reference on each frame).
    lines: Html,
    /// The legend's items (a fragment).
    legend: Html,
    /// The records axis' top (records), for its ticks.
    top: f64,
    /// The run's end (ms), for the time ticks.
    end: f64,
    /// The scale the lines were drawn with, for the cursor.
    scale: Scale,
}

/// The width charts are drawn for now, as a memo key of
/// [`progress_parts`]: the `to_bits()` of the SVG's width in user units
/// (400 on a viewport under 600 px, else 640).
pub(crate) fn chart_width_key() -> u64 {
    chart_w().to_bits()
}

/// [`ProgressParts`] of run `t`: what [`progress_chart`] draws at any cursor.
pub(crate) fn progress_parts(t: &Timeline) -> ProgressParts {
    let (w, h) = inner();
    let end = t.end_ms.max(1.0);
    // Up to the records a client that lost some meant to send: its line
    // stops visibly short of the top.
    let meant = |c: &quota_engine::sim::ClientTrack| match &c.outcome {
        quota_engine::sim::Outcome::Failed { records, .. } => *records as f64,
        _ => 0.0,
    };
    let top = t.clients.iter().map(|c| c.progress.points.last().map_or(0.0, |p| p.records as f64).max(meant(c))).fold(1.0, f64::max);
    let sc = Scale { x: (0.0, end), y: (0.0, top), w, h };
    let failures = failure_marks(t);
    let label = format!(
        "Records done over time: {}.",
        t.clients
            .iter()
            .map(|c| match (&c.outcome, c.duration_ms) {
                (quota_engine::sim::Outcome::Failed { records, failed_records, .. }, _) => {
                    format!("{} lost {failed_records} of {records} records ({} done)", c.name, c.metrics.records_done)
                }
                (_, Some(d)) => format!("{} finished {} records in {}", c.name, c.metrics.records_done, model::fmt_ms(d)),
                (_, None) => format!("{} did not finish ({} records)", c.name, c.metrics.records_done),
            })
            .collect::<Vec<_>>()
            .join("; ")
    );
    let lines = html! {
        <>
            { for t.clients.iter().enumerate().map(|(i, c)| html! {
                <path class={format!("line series-{}", i % 6)} d={sc.path(c.progress.points.iter().map(|p| (p.at_ms, p.records as f64)))} />
            }) }
            { event_markers(t, &sc, h) }
            { for failures.iter().map(|f| {
                let x = px1(sc.px(f.at_ms));
                html! {
                    <line class="failure" x1={x.clone()} x2={x} y1="0" y2={h.to_string()} data-at-ms={format!("{:.0}", f.at_ms)}>
                        <title>{ f.text.clone() }</title>
                    </line>
                }
            }) }
        </>
    };
    let legend = html! {
        <>
            { for t.clients.iter().enumerate().map(|(i, c)| key(&format!("series-{}", i % 6), c.name.clone())) }
            if !t.markers.is_empty() { { key("marker", "event") } }
            if !failures.is_empty() { { key("failure", "first failed record") } }
        </>
    };
    ProgressParts { label, lines, legend, top, end, scale: sc }
}

/// Records done over time, one line per client: `parts` of the run
/// ([`progress_parts`]) and the cursor (ms).
pub(crate) fn progress_chart(parts: &ProgressParts, cursor: f64) -> Html {
    let (_, h) = inner();
    let x = px1(parts.scale.px(cursor));
    let body = html! {
        <>
            { parts.lines.clone() }
            <line class="cursor" x1={x.clone()} x2={x} y1="0" y2={h.to_string()} />
        </>
    };
    html! {
        <figure class="fig">
            <figcaption>{ "Records acknowledged or consumed" }</figcaption>
            { frame(parts.label.clone(), "chart-progress", body, &value_ticks(parts.top, |v| format!("{v:.0}")), &time_ticks(parts.end)) }
            <p class="legend">{ parts.legend.clone() }</p>
        </figure>
    }
}

/// Where a chart marks a client's first failed records (at most
/// [`FAILURE_MARKS`], the earliest first).
pub(crate) struct FailureMark {
    /// When the first record failed with this exception (ms).
    pub(crate) at_ms: f64,
    /// The tooltip: client, exception, records and setting.
    pub(crate) text: String,
}

/// At most this many failure marks on a chart: 100 failed clients would
/// hide the lines under their marks; the outcome sentence counts them all.
pub(crate) const FAILURE_MARKS: usize = 12;

/// The first failure of each exception of each failed client of `t`, the
/// earliest first; the tooltip is e.g. "app: TimeoutException on 8176
/// records, first at 1.42 s (delivery.timeout.ms=3000)".
pub(crate) fn failure_marks(t: &Timeline) -> Vec<FailureMark> {
    let mut all: Vec<(&str, &quota_engine::sim::NamedException)> =
        t.clients.iter().flat_map(|c| c.outcome.exceptions().iter().map(move |e| (c.name.as_str(), e))).collect();
    all.sort_by(|a, b| a.1.first_at_ms.total_cmp(&b.1.first_at_ms));
    all.into_iter()
        .take(FAILURE_MARKS)
        .map(|(client, e)| FailureMark { at_ms: e.first_at_ms, text: format!("{client}: {}", model::brief(e)) })
        .collect()
}

/// A producer's `buffer.memory` use, with the spans where `send()` blocked.
pub(crate) fn buffer_chart(c: &ClientTrack, buffer_memory: u64, end_ms: f64, cursor: f64) -> Html {
    if c.kind != ClientKind::Producer {
        return html! {};
    }
    let (w, h) = inner();
    let end = end_ms.max(1.0);
    let top = buffer_memory as f64;
    let sc = Scale { x: (0.0, end), y: (0.0, top), w, h };
    // The engine keeps the first SERIES_CAP spans; the total is the metric's.
    let times = if c.blocked.len() as u32 >= quota_engine::sim::SERIES_CAP {
        format!("more than {} times (the first {} drawn)", model::grouped(u64::from(quota_engine::sim::SERIES_CAP)), model::grouped(u64::from(quota_engine::sim::SERIES_CAP)))
    } else {
        format!("{} times", c.blocked.len())
    };
    let label = format!(
        "buffer.memory of {}: peak {} of {}; send() blocked {times} for {} in total.",
        c.name,
        model::fmt_bytes(c.metrics.buffer_used_max as f64),
        model::fmt_bytes(top),
        model::fmt_ms(c.metrics.blocked_ms_total)
    );
    let body = html! {
        <>
            { for c.blocked.iter().take(400).map(|s| html! {
                <rect class="blocked" x={px1(sc.px(s.from_ms))} y="0"
                    width={px1((sc.px(s.to_ms) - sc.px(s.from_ms)).max(0.5))} height={h.to_string()} />
            }) }
            <path class="line buffer" d={sc.path(c.buffer.points.iter().map(|p| (p.at_ms, p.used_bytes as f64)))} />
            <line class="cursor" x1={px1(sc.px(cursor))} x2={px1(sc.px(cursor))} y1="0" y2={h.to_string()} />
        </>
    };
    html! {
        <figure class="fig">
            <figcaption>{ format!("Producer buffer of {} (buffer.memory)", c.name) }</figcaption>
            { frame(label, "chart-buffer", body, &value_ticks(top, model::fmt_bytes), &time_ticks(end)) }
            <p class="legend">{ key("buffer", "bytes in the accumulator") }{ key("blocked", "send() blocked") }</p>
        </figure>
    }
}

/// A token count as the controller's bucket holds it: at most two
/// decimals, no trailing zeros (`220`, `-9.98`, `0.02`).
pub(crate) fn fmt_tokens(v: f64) -> String {
    quota_engine::resolve::human::trim_number(v, 2)
}

/// The controller's mutation bucket of an Admin client over the run
/// ([`AdminTrack::tokens_at`]): `points` are [`admin_token_points`],
/// computed once per run by the caller. Lines at the burst (the bucket's
/// capacity) and at 0 (below it a strict request's topics are refused), a
/// mark per request (all topics accepted, or some refused) and the cursor.
pub(crate) fn tokens_chart(a: &AdminTrack, points: &[(f64, f64)], end_ms: f64, cursor: f64) -> Html {
    let (Some(quota), Some(burst)) = (a.quota, a.burst) else { return html! {} };
    let end = end_ms.max(1.0);
    let (w, h) = inner();
    let low = points.iter().map(|p| p.1).fold(0.0, f64::min);
    let span = (burst - low).max(1e-9);
    let sc = Scale { x: (0.0, end), y: (low - span * 0.06, burst + span * 0.06), w, h };
    let pts = |past: bool| points.iter().copied().filter(move |(at, _)| (*at <= cursor) == past);
    // The y ticks: the burst, half of it and 0, and the lowest the bucket
    // went when it is far enough below 0 to be read apart from it.
    let mut ticks: Vec<(f64, String)> = [burst, burst / 2.0, 0.0].iter().map(|v| (PAD_T + sc.py(*v), fmt_tokens(*v))).collect();
    if sc.py(low) - sc.py(0.0) >= 14.0 {
        ticks.push((PAD_T + sc.py(low), fmt_tokens(low)));
    }
    let now = a.tokens_at(cursor);
    let refused = a.requests.iter().filter(|r| r.refused > 0).count();
    let label = format!(
        "Mutation tokens of {} ({}) over {}: a burst of {} tokens refilled at {} per second; {} requests, {} with topics refused; the lowest {}; at {} the bucket holds {}.",
        a.name,
        a.budget,
        model::fmt_ms(end),
        fmt_tokens(burst),
        fmt_tokens(quota),
        a.requests.len(),
        refused,
        fmt_tokens(low),
        model::fmt_ms(cursor),
        now.map_or_else(|| "nothing".to_owned(), fmt_tokens),
    );
    let zero = px1(sc.py(0.0));
    let body = html! {
        <>
            <rect class="refuse-zone" x="0" y={zero.clone()} width={w.to_string()} height={px1((h - sc.py(0.0)).max(0.0))} />
            <line class="quota" x1="0" x2={w.to_string()} y1={px1(sc.py(burst))} y2={px1(sc.py(burst))} />
            <line class="floor" x1="0" x2={w.to_string()} y1={zero.clone()} y2={zero} />
            <path class="line future" d={sc.path(pts(false))} />
            <path class="line" d={sc.path(pts(true))} />
            // The first requests (a 10,000-topic run may send thousands):
            // each at its decision, at the tokens it left.
            { for a.requests.iter().take(600).map(|r| {
                let y = r.tokens_after.unwrap_or(burst);
                html! {
                    <circle class={classes!("req", if r.refused > 0 { "refused" } else { "ok" })}
                        cx={px1(sc.px(r.handled_ms))} cy={px1(sc.py(y))} r="3.5">
                        <title>{ format!("{}: call {} attempt {}, {} of {} topics accepted, {} refused; tokens {} → {}; throttle {} ms",
                            model::fmt_ms(r.handled_ms), r.call, r.attempt, r.accepted, r.topics, r.refused,
                            r.tokens_before.map_or_else(String::new, fmt_tokens), r.tokens_after.map_or_else(String::new, fmt_tokens), r.throttle_ms) }</title>
                    </circle>
                }
            }) }
            <line class="cursor" x1={px1(sc.px(cursor))} x2={px1(sc.px(cursor))} y1="0" y2={h.to_string()} />
        </>
    };
    html! {
        <figure class="fig" data-testid="admin-tokens-figure" data-cursor-ms={format!("{cursor:.0}")}
            data-tokens-now={now.map(|v| format!("{v:.2}"))}>
            <figcaption>{ format!("Mutation tokens of {} (controller_mutation_rate)", a.name) }</figcaption>
            { frame(label, "chart-admin-tokens", body, &ticks, &time_ticks(end)) }
            <p class="legend">{ key("line", "tokens in the bucket") }
                { key("quota", format!("burst: {} tokens", fmt_tokens(burst))) }
                { key("floor", if a.mode == "strict" { "0: below it topics are refused" } else { "0: below it responses are throttled" }) }
                { key("req ok", "request, all topics accepted") }
                if refused > 0 { { key("req refused", "request with topics refused") } }</p>
        </figure>
    }
}

/// The points of [`tokens_chart`]'s line over `[0, end_ms]`:
/// [`AdminTrack::tokens_at`] sampled `samples` times, with the tokens just
/// before and after each request (the steps drawn sharp) and the moment
/// the bucket is full again after one (the refill's corner); in time order.
/// Empty without a quota.
pub(crate) fn admin_token_points(a: &AdminTrack, end_ms: f64, samples: usize) -> Vec<(f64, f64)> {
    // The engine's series: it follows the run's quota changes.
    a.token_points(end_ms, samples)
}

/// The points of [`connects_chart`]'s line: the connections ready over
/// `[0, end_ms]`, a step up at each client's `ready_ms` (in time order),
/// from 0 at the start to the last step, held to `end_ms`.
pub(crate) fn ready_steps(c: &ConnectsTrack, end_ms: f64) -> Vec<(f64, f64)> {
    let mut ready: Vec<f64> = c.clients.iter().filter_map(|k| k.ready_ms).filter(|ms| ms.is_finite()).collect();
    ready.sort_unstable_by(f64::total_cmp);
    let mut pts = Vec::with_capacity(2 * ready.len() + 2);
    pts.push((0.0, 0.0));
    for (k, ms) in ready.iter().enumerate() {
        pts.push((*ms, k as f64));
        pts.push((*ms, k as f64 + 1.0));
    }
    pts.push((end_ms.max(ready.last().copied().unwrap_or(0.0)), ready.len() as f64));
    pts
}

/// Refused attempts a chart draws at most (a storm of 10,000 may be
/// refused hundreds of thousands of times; the table and the summary
/// count them all).
pub(crate) const REFUSED_MARKS: usize = 600;

/// A connects track over the run: the connections ready (a step line from
/// the clients' `ready_ms`, `steps` from [`ready_steps`]), each refused
/// attempt as a mark where the acceptor took it, on its client's lane, with
/// the span the acceptor held its socket (to `closed_ms`, or the run's end
/// when it was not closed), and the cursor.
pub(crate) fn connects_chart(c: &ConnectsTrack, steps: &[(f64, f64)], end_ms: f64, cursor: f64) -> Html {
    let end = end_ms.max(1.0);
    let (w, h) = inner();
    let top = (c.clients.len().max(c.count as usize)).max(1) as f64;
    let sc = Scale { x: (0.0, end), y: (0.0, top), w, h };
    let pts = |past: bool| steps.iter().copied().filter(move |(at, _)| (*at <= cursor) == past);
    let refused: Vec<&quota_engine::sim::ConnectAttempt> = c.attempts.iter().filter(|a| a.throttle_ms > 0).take(REFUSED_MARKS).collect();
    let ready_now = c.clients.iter().filter(|k| k.ready_ms.is_some_and(|r| r <= cursor)).count();
    let held_now = held_at(c, cursor);
    let label = format!(
        "Connections of {} from {} over {}: {} of {} ready by the end, {} refused attempts{}; at {} {} ready and the acceptor holds {} refused {}.",
        c.name,
        c.ip,
        model::fmt_ms(end),
        c.ready(),
        c.count,
        model::grouped(c.throttled_total()),
        if c.throttled_total() as usize > refused.len() { format!(" (the first {} drawn)", refused.len()) } else { String::new() },
        model::fmt_ms(cursor),
        ready_now,
        held_now,
        if held_now == 1 { "socket" } else { "sockets" },
    );
    let lane = |client: u32| sc.py(f64::from(client) + 0.5);
    let mut ticks: Vec<(f64, String)> = [top, top / 2.0, 0.0].iter().map(|v| (PAD_T + sc.py(*v), format!("{v:.0}"))).collect();
    if top < 2.0 {
        ticks.remove(1);
    }
    let body = html! {
        <>
            <line class="quota" x1="0" x2={w.to_string()} y1={px1(sc.py(top))} y2={px1(sc.py(top))} />
            { for refused.iter().map(|a| {
                let (x, y) = (sc.px(a.accepted_ms), lane(a.client));
                let to = sc.px(a.closed_ms.unwrap_or(end));
                html! {
                    <g class="refusal">
                        <rect class="held" x={px1(x)} y={px1(y - 1.5)} width={px1((to - x).max(1.0))} height="3" />
                        <circle class="req refused" cx={px1(x)} cy={px1(y)} r="3">
                            <title>{ format!("client {} attempt {}: taken by the acceptor at {}, throttle {} ms, {}",
                                a.client, a.attempt, model::fmt_ms(a.accepted_ms), a.throttle_ms,
                                a.closed_ms.map_or_else(|| "not closed by the end".to_owned(), |ms| format!("closed at {}", model::fmt_ms(ms)))) }</title>
                        </circle>
                    </g>
                }
            }) }
            <path class="line future" d={sc.path(pts(false))} />
            <path class="line" d={sc.path(pts(true))} />
            <line class="cursor" x1={px1(sc.px(cursor))} x2={px1(sc.px(cursor))} y1="0" y2={h.to_string()} />
        </>
    };
    html! {
        <figure class="fig" data-testid="connects-figure" data-cursor-ms={format!("{cursor:.0}")}
            data-ready-now={ready_now.to_string()} data-held-now={held_now.to_string()}>
            <figcaption>{ format!("Connections of {} ready, and the refused ones the acceptor held", c.name) }</figcaption>
            { frame(label, "chart-connects", body, &ticks, &time_ticks(end)) }
            <p class="legend">{ key("line", "connections ready") }
                { key("quota", format!("all {}", c.count)) }
                if !refused.is_empty() { { key("req refused", "attempt refused (on its client's line)") }{ key("held", "socket held, until the acceptor closes it") } }</p>
        </figure>
    }
}

/// Refused sockets the acceptor holds at `cursor` (of the attempts kept):
/// taken by then, not closed yet.
pub(crate) fn held_at(c: &ConnectsTrack, cursor: f64) -> usize {
    c.attempts
        .iter()
        .filter(|a| a.throttle_ms > 0 && a.accepted_ms <= cursor && a.closed_ms.is_none_or(|ms| ms > cursor))
        .count()
}

/// One client's durations over the seeds of a spread, a bar per seed (its
/// height the run's duration; a throttled run marked, a run that did not
/// finish drawn to the top and hatched), for the seeds panel.
pub(crate) fn seed_strip(c: &ClientSpread, seeds: &[u64], testid: String) -> Html {
    const SH: f64 = 56.0;
    let n = c.duration_ms.len().max(1);
    let top = c.duration_ms.iter().flatten().copied().fold(0.0, f64::max).max(1.0);
    let w = 400.0;
    let bw = w / n as f64;
    let label = format!(
        "Durations of {} over {}: {}",
        c.name,
        model::count_of(c.duration_ms.len() as u64, "seed", "seeds"),
        c.duration_ms
            .iter()
            .zip(seeds)
            .map(|(d, s)| format!("seed {s} {}", d.map_or_else(|| "did not finish".to_owned(), model::fmt_ms)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    html! {
        <svg class="chart strip" viewBox={format!("0 0 {w} {SH}")} role="img" aria-label={label} data-testid={testid} preserveAspectRatio="none">
            { for c.duration_ms.iter().enumerate().map(|(i, d)| {
                let throttled = c.throttle_max_ms.get(i).is_some_and(|t| *t > 0.0);
                let v = d.unwrap_or(top);
                let bh = (v / top * (SH - 4.0)).max(2.0);
                html! {
                    <rect class={classes!("seed", throttled.then_some("throttled"), d.is_none().then_some("unfinished"))}
                        x={px1(i as f64 * bw + bw * 0.1)} y={px1(SH - bh)} width={px1((bw * 0.8).max(1.0))} height={px1(bh)}>
                        <title>{ format!("seed {}: {}{}", seeds.get(i).copied().unwrap_or(0),
                            d.map_or_else(|| "did not finish".to_owned(), model::fmt_ms),
                            if throttled { format!(", throttled (throttle-time-max {})", model::fmt_ms(c.throttle_max_ms[i])) } else { ", not throttled".to_owned() }) }</title>
                    </rect>
                }
            }) }
        </svg>
    }
}

/// One entry of a chart's legend: the swatch of class `sw <class>` and its
/// label, kept together when the legend wraps.
fn key(class: &str, label: impl Into<String>) -> Html {
    html! { <span class="key-item"><span class={format!("sw {class}")}></span>{ label.into() }</span> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_axis_has_no_middle_tick_reading_like_its_neighbour() {
        let labels = |max: f64| value_ticks_over(100.0, max, model::fmt_bytes).into_iter().map(|(_, l)| l).collect::<Vec<_>>();
        assert_eq!(labels(model::nice_max(0.0)), ["0 B", "1 B"]);
        assert_eq!(labels(25e6), ["0 B", "12.5 MB", "25 MB"]);
    }
}
