//! Nanoseconds per quota-sensor call at steady state, the same operations as
//! the JVM reference figures in `kafka-vectors/jvm_bench.txt`: 11 x 1000 ms
//! windows, 10 calls per simulated millisecond, time passed explicitly.
//!
//! Before timing, each operation runs 3,000,000 warm-up calls and then
//! 100,000 more under a counting allocator, which must see no allocation.
//!
//! Run: `cargo bench -p quota-engine --bench sensor`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};

use criterion::{criterion_group, criterion_main, Criterion};
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

/// Warms `op` up, then asserts it does not allocate, then times it.
fn bench_op<S>(
    c: &mut Criterion,
    name: &str,
    mut state: S,
    mut op: impl FnMut(&mut S, i64) -> f64,
) {
    let mut clock = Clock { calls: 0 };
    let mut sink = 0.0;
    for _ in 0..WARM_UP_CALLS {
        sink += op(&mut state, clock.tick());
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..CHECKED_CALLS {
        sink += op(&mut state, clock.tick());
    }
    let allocated = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(
        allocated, 0,
        "{name}: {allocated} allocations in {CHECKED_CALLS} steady-state calls"
    );
    black_box(sink);
    c.bench_function(name, |b| b.iter(|| black_box(op(&mut state, clock.tick()))));
}

fn sensors(c: &mut Criterion) {
    let w = QuotaWindow::KAFKA_DEFAULT;

    // 10 B per call = 10 000 B/s, far below the bound.
    let never = RateSensor::bandwidth(w, 1e12).expect("valid bound");
    bench_op(
        c,
        "Sensor.record(v,t,true) Rate quota, never violated",
        never,
        |s, t| s.record(t, black_box(10.0)).observed(),
    );

    // 10 000 B/s against 1 B/s: every call violates and computes a throttle time.
    let always = RateSensor::bandwidth(w, 1.0).expect("valid bound");
    bench_op(
        c,
        "Sensor.record(v,t,true) Rate quota, always violated + throttleTime",
        always,
        |s, t| s.record(t, black_box(10.0)).throttle_ms() as f64,
    );

    // 10 000 mutations/s refill, 10 per ms recorded... at 1 each: never below zero.
    let permissive = MutationSensor::try_new(w, 1e9).expect("valid rate");
    bench_op(
        c,
        "Sensor.record(v,t,true) TokenBucket quota (permissive), no violation",
        permissive,
        |s, t| {
            s.record(MutationMode::Permissive, t, black_box(1.0))
                .tokens()
        },
    );

    let strict = MutationSensor::try_new(w, 1e9).expect("valid rate");
    bench_op(
        c,
        "checkQuotas(t)+record(v,t,false) TokenBucket (strict), no violation",
        strict,
        |s, t| s.record(MutationMode::Strict, t, black_box(1.0)).tokens(),
    );

    let bucket = TokenBucket::try_new(w, 1e9).expect("valid rate");
    bench_op(
        c,
        "TokenBucket.record(config,v,t) bare stat",
        bucket,
        |b, t| {
            b.record(t, black_box(1.0));
            b.tokens()
        },
    );

    let rate = WindowedRate::new(w);
    bench_op(c, "Rate.record + Rate.measure bare stat", rate, |r, t| {
        r.record(t, black_box(10.0));
        r.measure(t)
    });
}

criterion_group!(benches, sensors);
criterion_main!(benches);
