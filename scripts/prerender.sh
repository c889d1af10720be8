#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): in a release build, renders the
# default page's first screen natively (crates/quota-playground/src/bin/
# prerender.rs, Yew's server renderer) into the staged index.html, which the
# page shows while its module loads (`make serve`, a release `trunk serve`,
# runs it on every rebuild too). A debug build is left as it is: its page
# shows the loading line only.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${TRUNK_PROFILE:-}" != "release" ]]; then
  exit 0
fi
index="${TRUNK_STAGING_DIR:?TRUNK_STAGING_DIR is set by Trunk}/index.html"
cargo run --quiet --locked -p quota-playground --features prerender --bin quota-prerender -- "$index"
