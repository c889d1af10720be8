#!/usr/bin/env bash
# Peak memory against simulated work (issue 30; BENCHMARKS.md, "Memory
# against simulated work"): `kafka-quota simulate` under /usr/bin/time on a
# day of one unthrottled producer cut at growing horizons, then the other
# large scenarios of tests/fixtures/big, and `kafka-quota link` on the day.
#
#   scripts/bench-memory.sh [HORIZON_MS...]
#
# Default horizons: 1 min, 10 min, 1 h, 6 h, 24 h (the last takes about five
# minutes on the 2-core development machine). Prints one line per run: the
# scenario, the simulated span, events, wall time (s) and peak RSS (MB).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
cargo build --release --locked -p quota-cli --quiet
BIN=target/release/kafka-quota
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
HORIZONS=("$@")
[ "${#HORIZONS[@]}" -gt 0 ] || HORIZONS=(60000 600000 3600000 21600000 86400000)

run() { # label, command...
    local label="$1"; shift
    /usr/bin/time -f '%e %M' -o "$TMP/time" "$@" >"$TMP/out" 2>"$TMP/err" || true
    local events
    events=$(sed -n 's/^scenario .*(seed [0-9]*): \([0-9]*\) events.*/\1/p' "$TMP/out" | head -1)
    read -r wall kb <"$TMP/time"
    printf '%-44s events=%-11s wall=%7.2f s  peak=%6.1f MB\n' "$label" "${events:--}" "$wall" "$(echo "$kb / 1024" | bc -l)"
}

for h in "${HORIZONS[@]}"; do
    python3 - "$h" >"$TMP/day-$h.json" <<'PY'
import json, sys
d = json.load(open("tests/fixtures/big/day-producer.json"))
d["scenario"]["horizon_ms"] = int(sys.argv[1])
print(json.dumps(d))
PY
    run "day-producer, horizon $((h / 1000)) s" "$BIN" simulate --quiet "$TMP/day-$h.json"
done
for f in partitions-100k events-1000 consumer-100gb; do
    run "$f" "$BIN" simulate --quiet "tests/fixtures/big/$f.json"
done
run "link day-producer (no simulation)" "$BIN" link tests/fixtures/big/day-producer.json
