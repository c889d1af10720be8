//! Integration tests of quota-engine, one test binary (besides the
//! `conformance` harness, which prints its own per-vector report):
//! - [`lab`]: the lab article's measured runs, reproduced (native only: it
//!   reads the fixtures from disk).
//! - [`cluster`]: several brokers, a leadership move and a quota change in time.
//! - [`outcome`]: named outcomes (`TimeoutException`) of runs that lose records.
//! - [`x500`]: certificate DNs read as JDK 17's `X500Principal` reads them
//!   (native only: it reads the vector file from disk).
//! - [`validated`]: every scenario file that validates runs (`simulate`
//!   takes a `Valid<&Scenario>`).
//! - [`same_on_every_target`]: the same Timeline natively and in wasm32;
//!   `scripts/test-wasm.sh` runs this binary in Node.
//!
//! Run: `cargo test -p quota-engine --test engine`.

#[cfg(not(target_arch = "wasm32"))]
mod admin;
mod connects;
mod seeds;
mod lab;
mod paced;
#[cfg(not(target_arch = "wasm32"))]
mod outcome;
#[cfg(not(target_arch = "wasm32"))]
mod cluster;
#[cfg(not(target_arch = "wasm32"))]
mod x500;
#[cfg(not(target_arch = "wasm32"))]
mod validated;
mod same_on_every_target;
