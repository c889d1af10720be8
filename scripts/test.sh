#!/usr/bin/env bash
# Every test in the project: clippy, Rust (unit, property, conformance, integration,
# doc tests) natively, the playground's release build, and the browser tests
# in headless Chromium, and the real-Kafka stage (scripts/lab.sh: a 3-broker
# Kafka 4.3.1 cluster, the lab with real clients beside the simulator). Run
# through `make test`, which installs tools first.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

step() { printf '\n==> %s\n' "$*"; }

step "Clippy (workspace, every target, warnings are errors; lints in Cargo.toml)"
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo clippy -p quota-playground --target wasm32-unknown-unknown --locked -- -D warnings
# The prerender binary (Yew's server renderer, native only; Trunk's hook runs it).
cargo clippy -p quota-playground --features prerender --bin quota-prerender --locked -- -D warnings

step "Rust tests (workspace, native)"
cargo test --workspace --locked
cargo test -p quota-playground --features prerender --bin quota-prerender --locked

step "Engine in wasm32 (Node): the same Timeline as natively"
scripts/test-wasm.sh

step "Playground release build (Trunk, offline)"
trunk build --release --offline 2>&1 | grep -vE '^\s*$' | tail -n 5

step "Browser tests (Playwright + Debian Chromium against dist/)"
node --test --test-concurrency=1 tests/e2e/

step "Real Kafka 4.3.1 (scripts/lab.sh): vectors from the jars, a 3-broker cluster, the lab's runs, real | simulated | article"
scripts/lab.sh
