#!/usr/bin/env bash
# The real-Kafka stage: the project's vectors regenerated from the Kafka
# 4.3.1 jars and checked, then the lab's runs on a real 3-broker Kafka 4.3.1
# cluster (scripts/kafka-cluster.sh) with the real Java clients
# (lab/harness), then the same runs through the simulator, side by side
# (crates/real-kafka): target/real-kafka/lab.json and lab.md; then the CLI
# against a live cluster (crates/quota-cli/tests/live, its own cluster) and
# that cluster's snapshot opened in the playground (tests/e2e-live).
#
#   scripts/lab.sh                 everything above (make lab; make test runs it too)
#   scripts/lab.sh --update-doc    also rewrite the table in docs/real-kafka.md
#   scripts/lab.sh --compare-only  only the comparison, from the real*.json of the current clusters
#   LAB_ONLY=run1,run2 scripts/lab.sh   only those runs (harness --only)
#
# The cluster is started here and stopped on every exit (its start and stop
# lines are in the log); it uses KAFKA_CLUSTER_DIR (default
# target/real-kafka/cluster) and KAFKA_CLUSTER_PORT_BASE (default 29090).
# Runs whose scenarios name static broker settings (quota.window.num, ...)
# get a cluster of their own started with them, after the first one, in
# KAFKA_CLUSTER_DIR-key=value+... (so each keeps its logs), and the
# harness's output of it in target/real-kafka/real-key=value+....json
# (real-kafka-compare --cluster-groups lists them).
# Exit status: non-zero when the vectors differ, the cluster fails, a real
# run fails, or a run has a figure outside tolerance that no explanation in
# lab/explanations.json names.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

step() { printf '\n==> %s\n' "$*"; }
update_doc=()
compare_only=0
for a in "$@"; do
  case "$a" in
    --update-doc) update_doc=(--update-doc docs/real-kafka.md) ;;
    --compare-only) compare_only=1 ;;
    *) echo "lab.sh: unknown argument $a (see the head of scripts/lab.sh)" >&2; exit 2 ;;
  esac
done
if [[ -n "${LAB_ONLY:-}" && ${#update_doc[@]} -gt 0 ]]; then
  echo "lab.sh: --update-doc writes the whole table, so it cannot be used with LAB_ONLY" >&2
  exit 2
fi

t_start=$SECONDS
only=()
[[ -n "${LAB_ONLY:-}" ]] && only=(--only "$LAB_ONLY")
compare() { cargo run --quiet --locked -p real-kafka --bin real-kafka-compare -- "$@"; }

# The clusters the runs need: the harness compares the broker settings a
# scenario names (scenario.brokers.settings, quota.window.num for one) with
# the cluster's and alters none (most are static: a running broker cannot
# change them), so each set of them gets a cluster of its own, started
# with KAFKA_CLUSTER_BROKER_SETTINGS, one after the other. A line per
# cluster: the harness's output file (named by the settings), the settings
# (- for none), the runs.
groups_text="$(compare --cluster-groups "${only[@]+"${only[@]}"}")"
mapfile -t groups <<<"$groups_text"
real_files=()
for g in "${groups[@]}"; do
  IFS=$'\t' read -r file _ _ <<<"$g"
  real_files+=(--real "target/real-kafka/$file")
done

if ((compare_only == 0)); then
  step "Vectors: tests/fixtures/kafka-vectors-4.3.1 regenerated from the Kafka 4.3.1 jars and compared"
  lab/vectors/generate.sh --check
  lab/vectors/generate.sh --compare

  base_dir="${KAFKA_CLUSTER_DIR:-target/real-kafka/cluster}"
  base_dir="${base_dir%/}"
  for g in "${groups[@]}"; do
    IFS=$'\t' read -r file settings runs <<<"$g"
    [[ "$settings" == - ]] && settings=""
    # real.json: the default cluster's directory; real-X.json: base-X.
    suffix="${file#real}"
    cluster_dir="$base_dir${suffix%.json}"
    what="A real Kafka 4.3.1 cluster${settings:+ with $settings}"
    step "$what: start ($cluster_dir)"
    stop_cluster() {
      step "$what: stop"
      KAFKA_CLUSTER_DIR="$cluster_dir" scripts/kafka-cluster.sh stop || true
    }
    trap stop_cluster EXIT
    KAFKA_CLUSTER_DIR="$cluster_dir" KAFKA_CLUSTER_BROKER_SETTINGS="$settings" scripts/kafka-cluster.sh start

    step "The lab's runs on it (lab/harness): $runs"
    rm -f "target/real-kafka/$file"
    set +e
    KAFKA_CLUSTER_DIR="$cluster_dir" lab/harness/run.sh --only "$runs" --out "target/real-kafka/$file"
    harness_rc=$?
    set -e
    stop_cluster
    trap - EXIT
    # A failed real run is reported by the comparison (real_error) and fails
    # the stage there; a harness that could not run at all fails it here.
    if ((harness_rc != 0 && harness_rc != 3)); then
      echo "lab.sh: the harness failed (exit $harness_rc)" >&2
      exit "$harness_rc"
    fi
  done
fi

step "Real | simulated | article (crates/real-kafka)"
compare "${real_files[@]}" "${update_doc[@]+"${update_doc[@]}"}" "${only[@]+"${only[@]}"}"

if ((compare_only == 0)); then
  step "The CLI against a live cluster (crates/quota-cli/tests/live: starts and stops its own cluster)"
  snapshot="$PWD/target/real-kafka/snapshot.json"
  rm -f "$snapshot"
  # The test stops its cluster itself; this trap does it if the test is killed.
  stop_live() {
    KAFKA_CLUSTER_DIR=target/real-kafka/live-cluster KAFKA_CLUSTER_PORT_BASE=29390 scripts/kafka-cluster.sh stop >/dev/null 2>&1 || true
  }
  trap stop_live EXIT
  KAFKA_LIVE_TESTS=1 KAFKA_LIVE_SNAPSHOT_OUT="$snapshot" cargo test --quiet --locked -p quota-cli --test live
  stop_live
  trap - EXIT

  step "The cluster's snapshot in the playground (tests/e2e-live, headless Chromium against dist/)"
  if [[ ! -f dist/index.html ]]; then
    trunk build --release --offline 2>&1 | grep -vE '^\s*$' | tail -n 3
  fi
  KAFKA_LIVE_SNAPSHOT="$snapshot" node --test --test-concurrency=1 tests/e2e-live/
fi
echo "lab.sh: the real-Kafka stage took $((SECONDS - t_start)) s; target/real-kafka/lab.json and lab.md"
