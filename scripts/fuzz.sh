#!/usr/bin/env bash
# Runs every cargo-fuzz target of quota-formats for a given time.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [PARALLEL] [TARGET...]
#
# Defaults: 600 s per target, 2 at a time, every target. Needs the nightly
# toolchain (`rustup toolchain install nightly`); installs cargo-fuzz if it
# is missing. Each corpus is seeded from tests/fixtures (real inputs, lab
# article) so the fuzzer starts from real shapes; the inputs in
# fuzz/regressions/<target>/ (past crashes) are replayed first. Logs go to fuzz/logs/,
# corpora to fuzz/corpus/<target>/, crashes to fuzz/artifacts/<target>/.
# Each input may take 10 s (-timeout) and 2 GB (-rss_limit_mb).
# Prints one line per target: executions, corpus size, and "ok" or the
# crash file. Exits non-zero if any target crashed.
set -euo pipefail

cd "$(dirname "$0")/.."
SECONDS_PER_TARGET="${1:-600}"
PARALLEL="${2:-2}"
shift $(( $# > 2 ? 2 : $# ))
TARGETS=(configs_sh describe strimzi terraform java rpk scenario_json permalink scenario_text scenario_run)
if [ "$#" -gt 0 ]; then TARGETS=("$@"); fi

command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --quiet
mkdir -p fuzz/logs

seed() { # target, files...
    local dir="fuzz/corpus/$1"; shift
    mkdir -p "$dir"
    local f
    for f in "$@"; do
        [ -f "$f" ] && cp "$f" "$dir/seed-$(basename "$f")" || true
    done
}
F=tests/fixtures
seed configs_sh "$F"/real-inputs/configs-commands.txt "$F"/seed/kafka-client-quotas-lab.txt
seed describe "$F"/real-inputs/describe-outputs.txt
seed strimzi "$F"/real-inputs/strimzi/*.yaml
seed terraform "$F"/real-inputs/terraform.txt
seed java "$F"/seed/kafka-client-quotas-lab.txt
seed rpk "$F"/real-inputs/rpk.txt
seed scenario_json "$F"/lab/*.json
seed scenario_text "$F"/lab/*.json docs/scenario-text.md examples/*.json
seed scenario_run "$F"/lab/*.json lab/scenarios/*.json examples/*.json "$F"/big/*.json

(cd fuzz && cargo +nightly fuzz build)

# Inputs that once crashed a target must pass before any new fuzzing.
for t in "${TARGETS[@]}"; do
    if [ -d "fuzz/regressions/$t" ]; then
        (cd fuzz && cargo +nightly fuzz run "$t" "regressions/$t"/* -- -runs=1 >/dev/null 2>&1) \
            || { echo "$t: a regression input crashes again (fuzz/regressions/$t)"; exit 1; }
    fi
done

run_one() {
    local t="$1" log="fuzz/logs/$1.log"
    (cd fuzz && cargo +nightly fuzz run "$t" -- \
        -max_total_time="$SECONDS_PER_TARGET" -print_final_stats=1 -rss_limit_mb=2048 -timeout=10 -max_len=8192) \
        >"$log" 2>&1 || true
    local execs corpus status
    execs=$(grep -ao 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')
    corpus=$(find "fuzz/corpus/$t" -type f | wc -l)
    if grep -aEq 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|panicked at|Fuzz target exited' "$log"; then
        status="CRASH $(grep -ao 'artifacts/[^ ]*' "$log" | tail -1) ($(grep -aEom1 'ERROR: [A-Za-z]+: [a-z-]+|panicked at [^ ]*' "$log"))"
    else
        status=ok
    fi
    printf '%-14s %8ss  execs=%-12s corpus=%-6s %s\n' "$t" "$SECONDS_PER_TARGET" "${execs:-?}" "$corpus" "$status"
}

export -f run_one
export SECONDS_PER_TARGET
printf '%s\n' "${TARGETS[@]}" | xargs -P "$PARALLEL" -I{} bash -c 'run_one {}' | tee fuzz/logs/summary.txt
! grep -q CRASH fuzz/logs/summary.txt
