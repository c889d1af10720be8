#!/usr/bin/env bash
# Writes tests/fixtures/links/<commit>.tsv: the playground links that the
# code of <commit> makes for its default scenario (plain and redacted), its
# lessons and its examples/*.json, one "name<TAB>link" per line. The links
# are made by that commit's own code (a temporary worktree; the generator is
# a test file copied into it), so the corpus holds what users of that
# release really shared. crates/quota-formats/tests/formats/link_corpus.rs
# checks that every one still opens the same scenario.
#
# Usage: scripts/link-corpus.sh <commit>...   (a few minutes per commit)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
. scripts/env.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target/link-corpus}"
for commit in "$@"; do
  short=$(git rev-parse --short=7 "$commit")
  wt=$(mktemp -d)/wt
  git worktree add -q --detach "$wt" "$short"
  # The temporary worktree goes away even when the build fails.
  trap 'git worktree remove --force "$wt" 2>/dev/null || true' EXIT
  mkdir -p "$wt/crates/quota-playground/tests"
  cat >"$wt/crates/quota-playground/tests/link_corpus_gen.rs" <<'RS'
#[test]
fn write_corpus() {
    use quota_formats::permalink::{encode, redact};
    use quota_playground::presets::{default_scenario, LESSONS};
    let mut out = String::new();
    out += &format!("default\t{}\n", encode(&default_scenario()));
    out += &format!("default-redacted\t{}\n", encode(&redact(&default_scenario())));
    for l in LESSONS.iter() {
        out += &format!("lesson-{}\t{}\n", l.id, encode(&l.scenario()));
    }
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "json")) {
        let text = std::fs::read_to_string(f).unwrap();
        let s = quota_formats::scenario::from_json(&text).unwrap().scenario;
        out += &format!("examples/{}\t{}\n", f.file_name().unwrap().to_string_lossy(), encode(&s));
    }
    std::fs::write(std::env::var("CORPUS_OUT").unwrap(), out).unwrap();
}
RS
  (cd "$wt" && CORPUS_OUT="$root/tests/fixtures/links/$short.tsv" cargo test -q -p quota-playground --test link_corpus_gen >/dev/null)
  git worktree remove --force "$wt"
  trap - EXIT
  echo "tests/fixtures/links/$short.tsv: $(wc -l <"$root/tests/fixtures/links/$short.tsv") links made by $short ($(git log -1 --format=%cs "$short"))"
done
