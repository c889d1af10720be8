#!/usr/bin/env bash
# The engine's wasm32 test: the lab's 30 MB throttled producer run must give the
# same Timeline fingerprint in wasm (Node) as natively (both assert one constant
# in crates/quota-engine/tests/engine/same_on_every_target.rs).
#
#   scripts/test-wasm.sh           # the identity test (debug build)
#   scripts/test-wasm.sh --timing  # also time the run in a release wasm build
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
cargo test -p quota-engine --target wasm32-unknown-unknown --test engine

if [[ "${1:-}" == "--timing" ]]; then
  # --nocapture so console_log! output reaches the terminal.
  cargo test -p quota-engine --release --target wasm32-unknown-unknown --test engine -- --include-ignored --nocapture
fi
