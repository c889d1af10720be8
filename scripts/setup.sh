#!/usr/bin/env bash
# Installs whatever is missing for the playground, and nothing else.
#
#   scripts/setup.sh build   Rust wasm target, Trunk, wasm-bindgen CLI, npm packages (wasm-opt)
#   scripts/setup.sh test    the above, plus Debian's Chromium and ChromeDriver, plus
#                            what `lab` installs
#   scripts/setup.sh lab     the same as test (the stage opens a snapshot in Chromium):
#                            JDK 17 and Maven (Debian's, when missing) and the Kafka
#                            4.3.1 jars and Maven plugins the real-Kafka stage needs
#                            (into ~/.m2, from Maven Central)
#
# Idempotent and quiet when everything is present; each install says what it
# installs and why. Versions are pinned here, in Trunk.toml and in Cargo.lock.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
mode=${1:-build}

say() { printf 'setup: %s\n' "$*" >&2; }

export PATH="$HOME/.cargo/bin:$PATH"

# --- Rust toolchain (pinned by rust-toolchain.toml) and the wasm target ---
if ! command -v rustup >/dev/null 2>&1; then
  say "rustup is missing: install Rust from https://rustup.rs first (this machine kind ships it)."
  exit 1
fi
toolchain=$(sed -n 's/^channel *= *"\(.*\)"/\1/p' rust-toolchain.toml)
if ! rustup toolchain list | grep -q "^$toolchain"; then
  say "installing Rust $toolchain (rust-toolchain.toml)"
  rustup toolchain install "$toolchain" --profile minimal --component rustfmt,clippy >&2
fi
if ! rustup target list --installed --toolchain "$toolchain" | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown --toolchain "$toolchain" >&2
fi

# --- Trunk (0.21.14: newer releases need a newer rustc; --locked is required) ---
if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (about 10 minutes on 2 cores, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked >&2
fi

# --- wasm-bindgen CLI: must equal the wasm-bindgen crate in Cargo.lock ---
wbg=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
if [ -z "$wbg" ]; then
  say "Cargo.lock names no wasm-bindgen version"
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wbg" ]; then
  say "installing wasm-bindgen-cli $wbg (about 2 minutes, once)"
  # No --locked: its own lockfile names a crate version the registry lacks.
  cargo install wasm-bindgen-cli --version "$wbg" --force >&2
fi

# --- npm packages: wasm-opt (binaryen) and playwright-core ---
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages (binaryen for wasm-opt, playwright-core)"
  npm ci --no-audit --no-fund --loglevel=error >&2
fi

# --- Chromium for the browser tests (Debian's; never a downloaded browser) ---
if [ "$mode" = test ] || [ "$mode" = lab ]; then
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    say "installing Debian's chromium and chromium-driver for the browser tests"
    if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
    # Another apt-get (an unattended upgrade, a second checkout's setup)
    # may hold dpkg's lock: wait for it up to 10 minutes instead of failing.
    $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium chromium-driver >&2
  fi
fi

# --- Java 17 and Maven, and the Kafka 4.3.1 jars (the real-Kafka stage) ---
if [ "$mode" = test ] || [ "$mode" = lab ]; then
  java_major=$({ java -version 2>&1 || true; } | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
  if ! command -v mvn >/dev/null 2>&1 || [ -z "$java_major" ] || [ "$java_major" -lt 17 ]; then
    say "installing Debian's openjdk-17-jdk-headless and maven for the real-Kafka stage"
    if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
    $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq openjdk-17-jdk-headless maven >&2
  fi
  # Each Maven project resolves offline once ~/.m2 has its artifacts; the
  # first time, from Maven Central (about 150 MB, a few minutes).
  for pom in lab/cluster/pom.xml lab/vectors/pom.xml lab/harness/pom.xml; do
    if ! mvn -o -q -B -f "$pom" dependency:go-offline >/dev/null 2>&1; then
      say "fetching the Maven artifacts of $pom (Kafka 4.3.1 and plugins, from Maven Central)"
      mvn -q -B -f "$pom" dependency:go-offline >&2
    fi
  done
fi
