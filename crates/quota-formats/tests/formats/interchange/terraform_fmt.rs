//! The Terraform export is `terraform fmt`-clean: the rule `terraform fmt`
//! applies checked in Rust (the `=` of consecutive single-line attributes
//! aligned one space after the longest name, as hclwrite's `formatCells`
//! does), and `terraform fmt -check -` itself where the binary is
//! installed.

use std::io::Write;
use std::process::{Command, Stdio};

use proptest::prelude::*;
use quota_engine::{EntityName, QuotaEntity, QuotaKey, QuotaStore};
use quota_formats::terraform::export;

/// The net change in bracket depth of a line, outside string literals.
fn bracket_change(line: &str) -> i32 {
    let (mut depth, mut quoted, mut escaped) = (0, false, false);
    for c in line.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '{' | '[' | '(' if !quoted => depth += 1,
            '}' | ']' | ')' if !quoted => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// The byte offset of a line's assignment `=` outside strings, if the line
/// is a single-line attribute (its value opens no bracket it does not close).
fn assignment(line: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    if trimmed.starts_with('#') || trimmed.starts_with("//") {
        return None;
    }
    let (mut quoted, mut escaped) = (false, false);
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '=' if !quoted => return (bracket_change(&line[i..]) == 0).then_some(i),
            _ => {}
        }
    }
    None
}

/// Where `text` breaks the alignment rule: in each run of consecutive
/// single-line attributes, every `=` stands in one column, one space
/// after the longest name, with one space after it.
fn misaligned(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut run = Vec::new();
        while let Some(eq) = lines.get(i).and_then(|l| assignment(l)) {
            run.push((i, eq));
            i += 1;
        }
        if run.is_empty() {
            i += 1;
            continue;
        }
        let width = run
            .iter()
            .map(|&(n, eq)| lines[n][..eq].trim_end().chars().count())
            .max()
            .unwrap_or(0);
        for (n, eq) in run {
            let line = lines[n];
            // The name and its padding take exactly width + 1 columns,
            // and one space follows the `=`.
            let value = &line[eq + 1..];
            if line[..eq].chars().count() != width + 1
                || !value.starts_with(' ')
                || value.starts_with("  ")
            {
                out.push(format!("line {}: `{line}` (the run's `=` belongs in column {})", n + 1, width + 2));
            }
        }
    }
    out
}

fn every_key() -> QuotaStore {
    let mut s = QuotaStore::new();
    let user = QuotaEntity::user("alice");
    for (k, v) in [
        (QuotaKey::ProducerByteRate, 1_048_576.0),
        (QuotaKey::ConsumerByteRate, 2_097_152.0),
        (QuotaKey::RequestPercentage, 12.5),
        (QuotaKey::ControllerMutationRate, 0.5),
    ] {
        s.set(&user, k, v).unwrap();
    }
    s.set(&QuotaEntity::User(EntityName::Default), QuotaKey::ProducerByteRate, 1000.0)
        .unwrap();
    s.set(&QuotaEntity::Ip(EntityName::Default), QuotaKey::ConnectionCreationRate, 10.0)
        .unwrap();
    s.set(&QuotaEntity::client_id("app"), QuotaKey::RequestPercentage, 50.0)
        .unwrap();
    s
}

#[test]
fn the_rule_check_finds_what_terraform_fmt_would_change() {
    let bad = "resource \"kafka_quota\" \"q\" {\n  entity_name = \"a\"\n  entity_type = \"user\"\n  config = {\n    \"producer_byte_rate\" = \"1\"\n    \"controller_mutation_rate\" = \"1\"\n  }\n}\n";
    assert_eq!(misaligned(bad).len(), 1, "{:?}", misaligned(bad));
    let good = bad.replace("\"producer_byte_rate\" =", "\"producer_byte_rate\"       =");
    assert_eq!(misaligned(&good), Vec::<String>::new());
    // A comment or a multi-line attribute ends a run.
    assert_eq!(misaligned("a = 1\n# c\nbcd = 2\nx = {\n  y = 1\n}\n"), Vec::<String>::new());
}

#[test]
fn the_export_aligns_every_run_of_attributes() {
    let out = export(&every_key());
    assert_eq!(misaligned(&out.text), Vec::<String>::new(), "{}", out.text);
    assert!(
        out.text.contains("  config = {\n    \"producer_byte_rate\"       = \"1048576\"\n    \"consumer_byte_rate\"       = \"2097152\"\n    \"request_percentage\"       = \"12.5\"\n    \"controller_mutation_rate\" = \"0.5\"\n  }\n"),
        "{}",
        out.text
    );
}

/// `terraform fmt -check -` on `text`: `None` without the binary, else
/// whether it found the text formatted, with its output.
fn terraform_fmt_check(text: &str) -> Option<(bool, String)> {
    let bin = ["/usr/local/bin/terraform", "/usr/bin/terraform"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())?;
    let mut child = Command::new(bin)
        .args(["fmt", "-check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("terraform runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("written");
    let out = child.wait_with_output().expect("terraform ends");
    Some((
        out.status.success(),
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
    ))
}

#[test]
fn terraform_fmt_leaves_the_export_as_it_is() {
    let out = export(&every_key());
    let Some((clean, said)) = terraform_fmt_check(&out.text) else {
        eprintln!("terraform is not installed: only the alignment rule is checked");
        return;
    };
    assert!(clean, "terraform fmt -check - refused:\n{said}\n{}", out.text);
    // And the check is not vacuous: a misaligned file is refused.
    let (clean, _) = terraform_fmt_check(&out.text.replace("\"consumer_byte_rate\"       =", "\"consumer_byte_rate\" =")).unwrap();
    assert!(!clean);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the entities and values, every run is aligned.
    #[test]
    fn any_export_is_aligned(
        quotas in proptest::collection::vec(
            (prop_oneof![
                "[A-Za-z0-9._:=/@ -]{1,14}".prop_map(|n| QuotaEntity::user(&n)),
                "[A-Za-z0-9._-]{1,14}".prop_map(|n| QuotaEntity::client_id(&n)),
                Just(QuotaEntity::User(EntityName::Default)),
            ], prop_oneof![
                Just(QuotaKey::ProducerByteRate),
                Just(QuotaKey::ConsumerByteRate),
                Just(QuotaKey::RequestPercentage),
                Just(QuotaKey::ControllerMutationRate),
            ], 1.0..1e9f64),
            1..8,
        )
    ) {
        let mut s = QuotaStore::new();
        for (e, k, v) in &quotas {
            let _ = s.set(e, *k, *v);
        }
        let out = export(&s);
        prop_assert_eq!(misaligned(&out.text), Vec::<String>::new(), "{}", out.text);
    }
}
