//! Helpers every CLI test module uses.

use std::path::PathBuf;

use assert_cmd::Command;

/// The built `kafka-quota` binary, ready for arguments.
pub(crate) fn kafka_quota() -> Command {
    Command::cargo_bin("kafka-quota").unwrap()
}

/// A path relative to this crate's folder (`crates/quota-cli`).
pub(crate) fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}
