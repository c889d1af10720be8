#!/usr/bin/env bash
# The benchmarks behind BENCHMARKS.md (not part of `make test`):
#   1. sensor record + check beside Kafka's JVM figures (criterion + the JVM's method)
#   2. the lab's simulation runs, natively (criterion) and in wasm (Node)
#   3. the playground: bytes shipped, first render, recompute after an edit (headless Chromium)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
. scripts/env.sh

echo "==> cargo bench -p quota-engine --bench sensor"
cargo bench -p quota-engine --bench sensor
echo "==> cargo bench -p quota-engine --bench sim"
cargo bench -p quota-engine --bench sim
echo "==> scripts/test-wasm.sh --timing"
scripts/test-wasm.sh --timing
echo "==> playground release build + node tests/e2e/bench-playground.mjs"
trunk build --release --offline
node tests/e2e/bench-playground.mjs
