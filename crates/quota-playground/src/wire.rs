//! A compact binary form of the engine's [`Timeline`] and its tracks, for
//! moving a run between two copies of the playground in one page (the
//! simulation worker and the page); a transport codec, so it lives here and
//! not in the engine: little-endian numbers, `u32` lengths,
//! fields in declaration order, no names and no version. Not a file format
//! (the JSON of `--json` is that); the writer and the reader are the same
//! build.
//!
//! Every field is carried, so a Timeline read back equals the one written
//! except the private push counter of each [`Series`] (no point is pushed
//! after a run). Reading a damaged or truncated buffer gives `None`, never a
//! panic: a [`Reader`] that runs out of bytes or meets a bad tag marks
//! itself damaged and reads zeros from then on (no branch per field, which
//! keeps the page's module small), and [`from_bytes`] then refuses the value.

use quota_engine::resolve::MetricTags;
use quota_engine::sim::*;
use quota_engine::QuotaType;

/// A value that can be written to and read from the wire form.
pub trait Wire: Sized {
    /// Appends the value to `out`.
    fn put(&self, out: &mut Vec<u8>);
    /// Reads a value; on truncated or damaged bytes, marks `r` damaged
    /// and returns some value ([`from_bytes`] checks).
    fn get(r: &mut Reader<'_>) -> Self;
}

/// A cursor over the bytes being read.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    damaged: bool,
}

impl<'a> Reader<'a> {
    /// Reads `bytes` from their start.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, damaged: false }
    }

    /// Whether every byte was read and none was damaged.
    pub fn is_done(&self) -> bool {
        self.bytes.is_empty() && !self.damaged
    }

    /// Marks the bytes as damaged (a bad tag, bad UTF-8).
    pub fn damage(&mut self) {
        self.damaged = true;
        self.bytes = &[];
    }

    /// Reads one byte (a tag).
    pub fn get_byte(&mut self) -> u8 {
        let [b] = self.take::<1>();
        b
    }

    fn take<const N: usize>(&mut self) -> [u8; N] {
        match self.bytes.split_first_chunk::<N>() {
            Some((head, rest)) => {
                self.bytes = rest;
                *head
            }
            None => {
                self.damage();
                [0; N]
            }
        }
    }
}

/// Writes `value` alone.
pub fn to_bytes<T: Wire>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.put(&mut out);
    out
}

/// Reads a value that fills all of `bytes`.
pub fn from_bytes<T: Wire>(bytes: &[u8]) -> Option<T> {
    let mut r = Reader::new(bytes);
    let v = T::get(&mut r);
    r.is_done().then_some(v)
}

macro_rules! wire_number {
    ($($t:ty),*) => {$(
        impl Wire for $t {
            fn put(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(r: &mut Reader<'_>) -> Self {
                <$t>::from_le_bytes(r.take())
            }
        }
    )*};
}
wire_number!(i32, u32, u64, i64, f64);

impl Wire for bool {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
    fn get(r: &mut Reader<'_>) -> Self {
        match r.get_byte() {
            0 => false,
            1 => true,
            _ => {
                r.damage();
                false
            }
        }
    }
}

fn put_len(n: usize, out: &mut Vec<u8>) {
    // Lengths past u32::MAX cannot occur in a run (series are capped).
    (n as u32).put(out);
}

impl Wire for String {
    fn put(&self, out: &mut Vec<u8>) {
        put_len(self.len(), out);
        out.extend_from_slice(self.as_bytes());
    }
    fn get(r: &mut Reader<'_>) -> Self {
        let n = u32::get(r) as usize;
        let Some(bytes) = r.bytes.get(..n) else {
            r.damage();
            return String::new();
        };
        r.bytes = &r.bytes[n..];
        String::from_utf8(bytes.to_vec()).unwrap_or_else(|_| {
            r.damage();
            String::new()
        })
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, out: &mut Vec<u8>) {
        put_len(self.len(), out);
        for v in self {
            v.put(out);
        }
    }
    fn get(r: &mut Reader<'_>) -> Self {
        let n = u32::get(r) as usize;
        // Every item takes a byte at least: a longer count is damage, and
        // a damaged count cannot make the loop longer than the buffer.
        if n > r.bytes.len() {
            r.damage();
            return Vec::new();
        }
        // The reservation is bounded by the bytes left, not by the count
        // times the item's size in memory (a damaged count of 100,000
        // tracks would reserve over 100 MB): a longer vector grows as its
        // items are read.
        let mut v = Vec::with_capacity(n.min(r.bytes.len() / std::mem::size_of::<T>().max(1)));
        for _ in 0..n {
            v.push(T::get(r));
            // Past the damage, every item would be zeros: stop.
            if r.damaged {
                break;
            }
        }
        v
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
        self.1.put(out);
    }
    fn get(r: &mut Reader<'_>) -> Self {
        let a = A::get(r);
        (a, B::get(r))
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            None => out.push(0),
            Some(v) => {
                out.push(1);
                v.put(out);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Self {
        match r.get_byte() {
            0 => None,
            1 => Some(T::get(r)),
            _ => {
                r.damage();
                None
            }
        }
    }
}

impl<T: Wire> Wire for Series<T> {
    fn put(&self, out: &mut Vec<u8>) {
        self.points.put(out);
        self.stride.put(out);
    }
    fn get(r: &mut Reader<'_>) -> Self {
        let points = Vec::get(r);
        Series::read_back(points, u32::get(r))
    }
}

/// Enums without data: one byte, the variant's place in `$v`.
macro_rules! wire_unit_enum {
    ($($t:ident [$($v:ident),*])*) => {$(
        impl Wire for $t {
            fn put(&self, out: &mut Vec<u8>) {
                out.push(*self as u8);
            }
            fn get(r: &mut Reader<'_>) -> Self {
                let all = [$($t::$v),*];
                match all.get(usize::from(r.get_byte())) {
                    Some(v) => *v,
                    None => {
                        r.damage();
                        all[0]
                    }
                }
            }
        }
    )*};
}
wire_unit_enum! {
    MarkerKind [MoveLeader, SetQuota, ClientStop]
    ClientKind [Producer, Consumer]
    TopicOutcome [Done, QuotaExceeded, TimedOut, Pending]
    QuotaType [Produce, Fetch, Request, ControllerMutation]
}

/// Structs: every field, in declaration order.
macro_rules! wire_struct {
    ($($t:ident { $($f:ident),* $(,)? })*) => {$(
        impl Wire for $t {
            fn put(&self, out: &mut Vec<u8>) {
                $( self.$f.put(out); )*
            }
            fn get(r: &mut Reader<'_>) -> Self {
                $t { $( $f: Wire::get(r), )* }
            }
        }
    )*};
}
wire_struct! {
    Timeline { scenario, seed, end_ms, hit_horizon, cut_short, events, sensors, clients, brokers, markers, totals, admin, connects }
    AdminTrack { name, client_id, principal, method, request, mode, partitions, quota, burst, budget, requests, topics, start_ms, end_ms, quota_changes }
    AdminRequest { call, attempt, sent_ms, handled_ms, answered_ms, topics, accepted, refused, tokens_before, tokens_after, throttle_ms }
    AdminTopic { name, outcome, at_ms, throttle_ms, attempts }
    ConnectsTrack { name, ip, pattern, count, broker, ip_quota, ip_entity, broker_rate, attempts, attempts_total, acceptor_waits, acceptor_wait_ms, attempts_cap_hit, clients, finished, start_ms, end_ms }
    ConnectAttempt { client, attempt, sent_ms, accepted_ms, acceptor_wait_ms, throttle_ms, closed_ms, ready_ms }
    ConnectClient { ready_ms, attempts, throttled }
    EventMarker { at_ms, kind, text }
    BoundChange { at_ms, bound }
    ClientStop { at_ms, records_left }
    ClusterTotals { brokers, clients, budgets }
    ClientTotals { client, name, kind, bytes_by_broker, bytes }
    BudgetTotals { quota_type, tags, mbean, sensors, bytes_by_broker, bytes }
    SampleWindow { start_ms, last_event_ms, sum, events }
    RatePoint { at_ms, rate, window_ms }
    ThrottleEvent { at_ms, client, delay_ms, observed, bound, window_ms, applied, mute_from_ms, mute_to_ms }
    SensorTrack { broker, quota_type, tags, sensor_name, mbean, bound, samples_kept, sample_window_ms, samples, rate, throttles, members, bound_changes }
    Span { from_ms, to_ms }
    BufferPoint { at_ms, used_bytes }
    ProgressPoint { at_ms, records }
    ClientThrottle { at_ms, broker, throttle_ms, throttled_responses, throttle_max_ms }
    ResponseTally { responses, throttled_responses, throttle_max_ms, throttle_sum_ms }
    ClientMetrics { throttle_time_avg, throttle_time_max, record_retry_total, record_error_total, records_done, bytes_done, records_per_s, blocked_ms_total, buffer_used_max, requests }
    LatencySummary { avg_ms, max_ms, p50_ms, p95_ms, p99_ms, p999_ms }
    PerfWindow { at_ms, records, elapsed_ms, bytes, latency_sum_ms, latency_max_ms }
    PerfSummary { windows, records, elapsed_ms, bytes, latency }
    ClientTrack { name, kind, client_id, principal, start_ms, finish_ms, duration_ms, outcome, metrics, latency, perf, throttles, responses, mutes, blocked, buffer, progress, waits, stop }
    RequestWaits { requests, at_client_ms, in_buffers_ms, broker_queue_ms, muted_ms, backoff_ms, unread_bytes_max }
    NamedException { class, count, first_at_ms, setting, setting_ms, message }
    BrokerTrack { id, mbeans }
    MBeanValue { mbean, attribute, value }
    MetricTags { user, client_id }
}

impl Wire for Outcome {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            Outcome::Completed => out.push(0),
            Outcome::Failed { records, failed_records, exceptions } => {
                out.push(1);
                records.put(out);
                failed_records.put(out);
                exceptions.put(out);
            }
            Outcome::Stopped => out.push(2),
        }
    }
    fn get(r: &mut Reader<'_>) -> Self {
        match r.get_byte() {
            0 => Outcome::Completed,
            1 => Outcome::Failed { records: u64::get(r), failed_records: u64::get(r), exceptions: Vec::get(r) },
            2 => Outcome::Stopped,
            _ => {
                r.damage();
                Outcome::Completed
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_strings_and_options_come_back() {
        let v: (f64, Option<String>, Vec<u64>) = (f64::NAN, Some("é".into()), vec![1, u64::MAX]);
        let mut out = Vec::new();
        v.0.put(&mut out);
        v.1.put(&mut out);
        v.2.put(&mut out);
        let mut r = Reader::new(&out);
        assert!(f64::get(&mut r).is_nan());
        assert_eq!(Option::<String>::get(&mut r), v.1);
        assert_eq!(Vec::<u64>::get(&mut r), v.2);
        assert!(r.is_done());
    }

    #[test]
    fn every_variant_comes_back() {
        for k in [MarkerKind::MoveLeader, MarkerKind::SetQuota, MarkerKind::ClientStop] {
            assert_eq!(from_bytes::<MarkerKind>(&to_bytes(&k)), Some(k));
        }
        for k in [ClientKind::Producer, ClientKind::Consumer] {
            assert_eq!(from_bytes::<ClientKind>(&to_bytes(&k)), Some(k));
        }
        for q in [QuotaType::Produce, QuotaType::Fetch, QuotaType::Request, QuotaType::ControllerMutation] {
            assert_eq!(from_bytes::<QuotaType>(&to_bytes(&q)), Some(q));
        }
        for o in [Outcome::Completed, Outcome::Stopped, Outcome::Failed { records: 3, failed_records: 2, exceptions: vec![] }] {
            assert_eq!(from_bytes::<Outcome>(&to_bytes(&o)), Some(o));
        }
    }

    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    /// The system allocator, noting the largest block this thread asked
    /// for (tests run on several threads: each notes its own).
    struct Noting;

    thread_local! {
        static LARGEST: Cell<usize> = const { Cell::new(0) };
    }

    fn note(size: usize) {
        let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
    }

    // SAFETY: every call is passed on to `System` unchanged. (The one
    // `unsafe` of the crate, in its tests: no allocation-counting crate is
    // in the offline registry.)
    #[allow(unsafe_code)]
    unsafe impl GlobalAlloc for Noting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            note(layout.size());
            unsafe { System.alloc(layout) }
        }
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            note(layout.size());
            unsafe { System.alloc_zeroed(layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            note(new_size);
            unsafe { System.realloc(ptr, layout, new_size) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    #[global_allocator]
    static ALLOCATOR: Noting = Noting;

    /// Reads `bytes` as a `T`, returning the largest block allocated meanwhile.
    fn largest_allocation_reading<T: Wire>(bytes: &[u8]) -> (Option<T>, usize) {
        LARGEST.with(|l| l.set(0));
        let v = from_bytes::<T>(bytes);
        (v, LARGEST.with(Cell::get))
    }

    /// A real run's Timeline: the lab's producer (2 MB/s user quota), short.
    fn timeline() -> Timeline {
        let s: quota_engine::sim::Scenario = serde_json::from_str(
            r#"{"seed": 1, "topics": [{"name": "lab", "partitions": 1}],
  "quotas": [{"entity": {"user": "tenant-a"}, "key": "producer_byte_rate", "value": 2000000}],
  "connections": [{"name": "app", "listener": "SASL_PLAINTEXT", "mechanism": "PLAIN", "identity": "tenant-a", "client.id": "app-1"}],
  "workloads": [{"producer": {"connection": "app", "topic": "lab", "records": 3000, "record.size": 1000, "config": {"acks": "1"}}}]}"#,
        )
        .unwrap();
        quota_engine::sim::simulate(s.validate().expect("a valid scenario")).unwrap()
    }

    #[test]
    fn a_count_past_the_items_reserves_no_more_than_the_bytes() {
        // A damaged count of 100,000 client tracks over 100,000 zero bytes:
        // reserving the count would take 100,000 × size_of::<ClientTrack>().
        let n = 100_000u32;
        let mut bytes = n.to_le_bytes().to_vec();
        bytes.resize(4 + n as usize, 0);
        let (v, largest) = largest_allocation_reading::<Vec<ClientTrack>>(&bytes);
        assert_eq!(v, None);
        assert!(std::mem::size_of::<ClientTrack>() * n as usize > 10_000_000);
        // The items that zeros do spell (a track of empty fields) grow the
        // vector as they are read: a few times the buffer, not the count.
        assert!(largest <= 16 * bytes.len(), "{largest} bytes allocated for a {}-byte buffer", bytes.len());
    }

    #[test]
    fn every_prefix_and_every_flipped_byte_of_a_timeline_reads_without_panic() {
        let t = timeline();
        let bytes = to_bytes(&t);
        assert!(bytes.len() > 1_000, "{}", bytes.len());
        let back = from_bytes::<Timeline>(&bytes).unwrap();
        assert_eq!(back.fingerprint(), t.fingerprint());
        // Every shorter prefix is refused.
        for cut in 0..bytes.len() {
            let (v, largest) = largest_allocation_reading::<Timeline>(&bytes[..cut]);
            assert!(v.is_none(), "a prefix of {cut} bytes was read");
            assert!(largest <= 64 * bytes.len(), "a prefix of {cut} bytes allocated {largest} bytes");
        }
        // Each byte with each bit flipped: a value or None, never a panic,
        // and never a block much larger than the buffer.
        let mut damaged = bytes.clone();
        for i in 0..bytes.len() {
            for bit in 0..8 {
                damaged[i] ^= 1 << bit;
                let (_, largest) = largest_allocation_reading::<Timeline>(&damaged);
                assert!(largest <= 64 * bytes.len(), "byte {i} bit {bit}: {largest} bytes allocated");
                damaged[i] = bytes[i];
            }
        }
    }

    #[test]
    fn damaged_bytes_give_none() {
        let bytes = to_bytes(&vec!["abc".to_owned()]);
        for cut in 0..bytes.len() {
            assert_eq!(from_bytes::<Vec<String>>(&bytes[..cut]), None, "cut at {cut}");
        }
        assert_eq!(from_bytes::<Vec<String>>(&[255, 255, 255, 255]), None);
        assert_eq!(from_bytes::<bool>(&[7]), None);
        assert_eq!(from_bytes::<ClientKind>(&[9]), None);
        assert_eq!(from_bytes::<Outcome>(&[3]), None);
        // Trailing bytes are refused by from_bytes.
        assert_eq!(from_bytes::<bool>(&[1, 0]), None);
    }
}
