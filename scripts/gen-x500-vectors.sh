#!/usr/bin/env bash
# Regenerates crates/quota-engine/tests/fixtures/x500-vectors.json: what the
# JDK's javax.security.auth.x500.X500Principal makes of typed DNs, and what
# openssl prints for certificates it makes next to the subject Java reads
# from them. Needs JDK 17 (Kafka 4.3.1's baseline) and openssl on PATH.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
java_bin="${JAVA:-java}"
version="$("$java_bin" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
if [ "$version" != "17" ]; then
  echo "gen-x500-vectors: needs JDK 17 (found java.specification.version=$version); set JAVA=/path/to/jdk17/bin/java" >&2
  exit 1
fi
command -v openssl >/dev/null || { echo "gen-x500-vectors: needs openssl on PATH" >&2; exit 1; }
out="$root/crates/quota-engine/tests/fixtures/x500-vectors.json"
"$java_bin" "$root/crates/quota-engine/tests/x500/GenX500.java" > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out ($(grep -c '"kind"' "$out") cases)"
