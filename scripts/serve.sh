#!/usr/bin/env bash
# Builds the playground (release, offline) with Trunk and serves it on
# http://127.0.0.1:8080 until interrupted (another port: PORT=8081 make serve).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
port="${PORT:-8080}"
echo "Kafka Quota Playground: building, then serving on http://127.0.0.1:$port/ (Ctrl-C stops; PORT=... make serve for another port)"
exec trunk serve --release --offline --address 127.0.0.1 --port "$port"
