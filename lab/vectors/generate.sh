#!/usr/bin/env bash
# Builds the vector generator (lab/vectors, Maven) and replays the inputs of the handed-over vectors
# (tests/fixtures/kafka-vectors/*.json) through the real Apache Kafka 4.3.1 classes.
#
#   lab/vectors/generate.sh [OUT_DIR]     write OUT_DIR/<family>.json (default tests/fixtures/kafka-vectors-4.3.1)
#   lab/vectors/generate.sh --check       regenerate into target/real-kafka/vectors/ and exit 1 unless the result
#                                         equals the committed tests/fixtures/kafka-vectors-4.3.1/*.json
#   lab/vectors/generate.sh --compare [NEW_DIR]
#                                         print every difference between the handed-over set and NEW_DIR
#                                         (default tests/fixtures/kafka-vectors-4.3.1), case by case; exit 1 if any
#
# Needs JDK 17+ and Maven 3; the first run downloads the Kafka 4.3.1 artifacts from Maven Central into ~/.m2.
# MVN_FLAGS adds Maven options (e.g. MVN_FLAGS=-o to stay offline once ~/.m2 has everything).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

inputs=tests/fixtures/kafka-vectors
committed=tests/fixtures/kafka-vectors-4.3.1

if ! build_log=$(mvn -q -B -Dstyle.color=never ${MVN_FLAGS:-} -f lab/vectors/pom.xml compile 2>&1); then
  printf '%s\n' "$build_log" >&2
  echo "generate.sh: the Maven build of lab/vectors failed" >&2
  exit 1
fi
classpath="lab/vectors/target/classes:$(cat lab/vectors/target/classpath.txt)"
run() { java -cp "$classpath" quota.vectors.Main "$@"; }

case "${1:-}" in
  --check)
    fresh=target/real-kafka/vectors
    rm -rf "$fresh"
    run generate "$inputs" "$fresh"
    if run check "$committed" "$fresh"; then
      echo "check: $committed is what Kafka 4.3.1 gives for the inputs of $inputs"
    else
      echo "check FAILED: $committed differs from a fresh run of Kafka 4.3.1 (fresh files in $fresh)" >&2
      exit 1
    fi
    ;;
  --compare)
    run compare "$inputs" "${2:-$committed}"
    ;;
  -*)
    sed -n '2,13p' "$0" >&2
    exit 2
    ;;
  *)
    run generate "$inputs" "${1:-$committed}"
    ;;
esac
