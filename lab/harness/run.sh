#!/usr/bin/env bash
# Builds the real-Kafka harness (lab/harness) and runs lab/runs.json's
# scenarios against a running cluster: the one scripts/kafka-cluster.sh env
# describes (KAFKA_CLUSTER_DIR / KAFKA_CLUSTER_PORT_BASE as the caller has
# them). It never starts or stops a cluster; the caller does:
#
#   export KAFKA_CLUSTER_DIR=/tmp/my-cluster KAFKA_CLUSTER_PORT_BASE=39090
#   scripts/kafka-cluster.sh start
#   lab/harness/run.sh                       # every run -> target/real-kafka/real.json
#   lab/harness/run.sh --only burst-6mb --repeats-override 3 --out /tmp/burst.json
#   scripts/kafka-cluster.sh stop
#
# ARGS go to the harness (Main's usage: --runs --env --out --only
# --repeats-override --timeout-s --cooldown-ms --max-points --no-warmup);
# --runs, --env and --out default to lab/runs.json, the env of the cluster
# above, and target/real-kafka/real.json (relative to the repository root).
# Exit status: the harness's (0 all ok, 3 a run failed, 1 harness failure,
# 2 usage); 1 when the build or the cluster's env fails.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
jar="$here/target/real-kafka-harness.jar"

# --- build, only when a source is newer than the jar; offline first ---
stale=1
if [[ -f "$jar" ]] && [[ -z "$(find "$here/pom.xml" "$here/src" -newer "$jar" -print -quit)" ]]; then
  stale=0
fi
if ((stale)); then
  echo "harness: building $jar" >&2
  if ! mvn -o -q -B -f "$here/pom.xml" package >/tmp/harness-build.$$.log 2>&1; then
    echo "harness: offline build failed; building online (Maven Central)" >&2
    if ! mvn -q -B -f "$here/pom.xml" package >>/tmp/harness-build.$$.log 2>&1; then
      tail -n 40 /tmp/harness-build.$$.log >&2
      rm -f /tmp/harness-build.$$.log
      echo "harness: the build failed" >&2
      exit 1
    fi
  fi
  rm -f /tmp/harness-build.$$.log
fi

# --- defaults for --runs, --env, --out ---
have() { local a; for a in "${@:2}"; do [[ "$a" == "$1" ]] && return 0; done; return 1; }
args=("$@")
cd "$repo"
env_tmp=""
cleanup() { [[ -n "$env_tmp" ]] && rm -f "$env_tmp"; return 0; }
trap cleanup EXIT
if ! have --env "${args[@]+"${args[@]}"}"; then
  env_tmp="$(mktemp /tmp/harness-env.XXXXXX)"
  if ! scripts/kafka-cluster.sh env >"$env_tmp"; then
    echo "harness: scripts/kafka-cluster.sh env failed: is the cluster started (KAFKA_CLUSTER_DIR=${KAFKA_CLUSTER_DIR:-default})?" >&2
    exit 1
  fi
  args+=(--env "$env_tmp")
fi
have --runs "${args[@]}" || args+=(--runs lab/runs.json)
have --out "${args[@]}" || args+=(--out target/real-kafka/real.json)

set +e
java -XX:+UseG1GC -Xmx1g -jar "$jar" "${args[@]}"
rc=$?
set -e
exit "$rc"
