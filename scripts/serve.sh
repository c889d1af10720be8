#!/usr/bin/env bash
# Builds the playground (release, offline) with Trunk and serves it on
# http://127.0.0.1:8080 until interrupted.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
echo "Kafka Quota Playground: building, then serving on http://127.0.0.1:8080/ (Ctrl-C stops)"
exec trunk serve --release --offline --address 127.0.0.1 --port 8080
