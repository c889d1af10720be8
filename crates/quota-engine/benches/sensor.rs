//! Nanoseconds per quota-sensor call at steady state: the operations of the
//! JVM reference figures in `kafka-vectors/jvm_bench.txt` (11 x 1000 ms
//! windows, 10 calls per simulated millisecond, time passed explicitly).
//!
//! Two reports:
//! 1. The JVM's own method, for a side-by-side table: per operation
//!    3,000,000 warm-up calls, then 5 repetitions of 10,000,000 calls timed
//!    around the loop; min / median / max ns per call, in wall-clock time and
//!    in this thread's CPU time (the shared machine is often oversubscribed,
//!    which inflates wall-clock figures).
//! 2. criterion, in wall-clock and thread-CPU time.
//!
//! Before timing, every operation runs 100,000 steady-state calls under a
//! counting allocator, which must see no allocation.
//!
//! Run: `cargo bench -p quota-engine --bench sensor`.

// The counting allocator below is the one `unsafe` in the workspace, and the
// bench times real wall-clock and CPU time, which the engine itself never reads.
#![allow(unsafe_code, clippy::disallowed_methods)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use cpu_time::ThreadTime;
use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput};
use quota_engine::metrics::{
    MutationMode, MutationSensor, QuotaWindow, RateSensor, TokenBucket, WindowedRate,
};

/// Counts allocations so the bench can prove the hot path does not allocate.
struct CountingAlloc;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: delegates every call to the system allocator unchanged.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

const T0: i64 = 1_700_000_000_000;
const CALLS_PER_MS: i64 = 10;
const WARM_UP_CALLS: u64 = 3_000_000;
const CHECKED_CALLS: u64 = 100_000;
const REPS: usize = 5;
const CALLS_PER_REP: u64 = 10_000_000;

/// A simulated clock advancing 1 ms every `CALLS_PER_MS` calls.
struct Clock {
    calls: i64,
}

impl Clock {
    fn tick(&mut self) -> i64 {
        self.calls += 1;
        T0 + self.calls / CALLS_PER_MS
    }
}

/// One benchmarked operation: fresh state, and a call at a given time.
trait Op {
    fn name(&self) -> &'static str;
    fn call(&mut self, at_ms: i64) -> f64;
}

struct FnOp<S, F> {
    name: &'static str,
    state: S,
    f: F,
}

impl<S, F: FnMut(&mut S, i64) -> f64> Op for FnOp<S, F> {
    fn name(&self) -> &'static str {
        self.name
    }
    #[inline(always)]
    fn call(&mut self, at_ms: i64) -> f64 {
        (self.f)(&mut self.state, at_ms)
    }
}

fn op<S, F: FnMut(&mut S, i64) -> f64>(name: &'static str, state: S, f: F) -> FnOp<S, F> {
    FnOp { name, state, f }
}

/// Runs `$body` with `$op` bound to each operation, freshly built.
macro_rules! for_each_op {
    ($op:ident => $body:expr) => {{
        let w = QuotaWindow::KAFKA_DEFAULT;
        {
            // 10 B per call = 10 000 B/s, far below the bound.
            let mut $op = op(
                "Sensor.record(v,t,true) Rate quota, never violated",
                RateSensor::bandwidth(w, 1e12).expect("valid bound"),
                |s, t| s.record(t, black_box(10.0)).observed(),
            );
            $body;
        }
        {
            // 10 000 B/s against 1 B/s: every call violates and computes a throttle time.
            let mut $op = op(
                "Sensor.record(v,t,true) Rate quota, always violated + throttleTime",
                RateSensor::bandwidth(w, 1.0).expect("valid bound"),
                |s, t| s.record(t, black_box(10.0)).throttle_ms() as f64,
            );
            $body;
        }
        {
            // 10 000 mutations/s recorded against a 1e9/s refill: never below zero.
            let mut $op = op(
                "Sensor.record(v,t,true) TokenBucket quota (permissive), no violation",
                MutationSensor::try_new(w, 1e9).expect("valid rate"),
                |s, t| {
                    s.record(MutationMode::Permissive, t, black_box(1.0))
                        .tokens()
                },
            );
            $body;
        }
        {
            let mut $op = op(
                "checkQuotas(t)+record(v,t,false) TokenBucket (strict), no violation",
                MutationSensor::try_new(w, 1e9).expect("valid rate"),
                |s, t| s.record(MutationMode::Strict, t, black_box(1.0)).tokens(),
            );
            $body;
        }
        {
            let mut $op = op(
                "TokenBucket.record(config,v,t) bare stat",
                TokenBucket::try_new(w, 1e9).expect("valid rate"),
                |b, t| {
                    b.record(t, black_box(1.0));
                    b.tokens()
                },
            );
            $body;
        }
        {
            let mut $op = op(
                "Rate.record + Rate.measure bare stat",
                WindowedRate::new(w),
                |r, t| {
                    r.record(t, black_box(10.0));
                    r.measure(t)
                },
            );
            $body;
        }
    }};
}

/// Warms up, then checks that steady-state calls do not allocate.
fn warm_and_check_no_alloc(o: &mut impl Op, clock: &mut Clock) -> f64 {
    let mut sink = 0.0;
    for _ in 0..WARM_UP_CALLS {
        sink += o.call(clock.tick());
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..CHECKED_CALLS {
        sink += o.call(clock.tick());
    }
    let allocated = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(
        allocated,
        0,
        "{}: {allocated} allocations in {CHECKED_CALLS} steady-state calls",
        o.name()
    );
    sink
}

fn min_median_max(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[0], v[v.len() / 2], v[v.len() - 1])
}

/// The JVM's method: `System.nanoTime` around 10,000,000 calls, 5 times.
fn jvm_style(o: &mut impl Op) -> f64 {
    let mut clock = Clock { calls: 0 };
    let mut sink = warm_and_check_no_alloc(o, &mut clock);
    let mut wall = Vec::with_capacity(REPS);
    let mut cpu = Vec::with_capacity(REPS);
    for _ in 0..REPS {
        let (w0, c0) = (Instant::now(), ThreadTime::now());
        for _ in 0..CALLS_PER_REP {
            sink += o.call(clock.tick());
        }
        cpu.push(c0.elapsed().as_nanos() as f64 / CALLS_PER_REP as f64);
        wall.push(w0.elapsed().as_nanos() as f64 / CALLS_PER_REP as f64);
    }
    let (wmin, wmed, wmax) = min_median_max(wall);
    let (cmin, cmed, cmax) = min_median_max(cpu);
    println!(
        "{:<70} wall min {wmin:>7.1} median {wmed:>7.1} max {wmax:>7.1} | cpu min {cmin:>7.1} median {cmed:>7.1} max {cmax:>7.1} ns/op",
        o.name()
    );
    sink
}

/// This thread's CPU time, for criterion: time the thread was descheduled
/// on a busy machine does not count.
struct ThreadCpuTime;

struct NanosFormatter;

impl ValueFormatter for NanosFormatter {
    fn scale_values(&self, _typical: f64, _values: &mut [f64]) -> &'static str {
        "ns (cpu)"
    }
    fn scale_throughputs(
        &self,
        _typical: f64,
        _throughput: &Throughput,
        _values: &mut [f64],
    ) -> &'static str {
        "ns (cpu)"
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

impl Measurement for ThreadCpuTime {
    type Intermediate = ThreadTime;
    type Value = Duration;
    fn start(&self) -> ThreadTime {
        ThreadTime::now()
    }
    fn end(&self, i: ThreadTime) -> Duration {
        i.elapsed()
    }
    fn add(&self, v1: &Duration, v2: &Duration) -> Duration {
        *v1 + *v2
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &NanosFormatter
    }
}

fn with_criterion<M: Measurement + 'static>(c: &mut Criterion<M>, group: &str, o: &mut impl Op) -> f64 {
    let mut clock = Clock { calls: 0 };
    let sink = warm_and_check_no_alloc(o, &mut clock);
    let name = o.name();
    c.bench_function(&format!("{group}/{name}"), |b| {
        b.iter(|| black_box(o.call(clock.tick())))
    });
    sink
}

fn main() {
    let mut sink = 0.0;
    println!("Rust quota-engine, JVM method (5 reps x 10,000,000 calls after 3,000,000 warm-up; 11 x 1 s windows; 10 calls per simulated ms)");
    for_each_op!(o => sink += jvm_style(&mut o));

    let mut wall: Criterion<WallTime> = Criterion::default().configure_from_args();
    for_each_op!(o => sink += with_criterion(&mut wall, "wall", &mut o));
    let mut cpu: Criterion<ThreadCpuTime> = Criterion::default()
        .with_measurement(ThreadCpuTime)
        .configure_from_args();
    for_each_op!(o => sink += with_criterion(&mut cpu, "cpu", &mut o));
    cpu.final_summary();
    println!("sink={}", black_box(sink));
}
