//! Round trips: any store written in any format reads back to the same
//! store, less exactly what the exporter listed as unexpressible; our own
//! output is auto-detected as its format; no parser panics on any text.

use proptest::prelude::*;
use quota_engine::{EntityName, QuotaEntity, QuotaKey, QuotaStore};
use quota_formats::detect::{detect, export, import, Format};

const WRITABLE: [Format; 6] = [
    Format::ConfigsSh,
    Format::Describe,
    Format::Java,
    Format::Strimzi,
    Format::Terraform,
    Format::ScenarioJson,
];

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        // Kubernetes-style names (Strimzi can express these), with or without `CN=`.
        "[a-z][a-z0-9-]{0,10}[a-z0-9]",
        "CN=[a-z][a-z0-9.]{0,8}",
        // Principal and client names as operators write them.
        "[A-Za-z0-9._:=/@ -]{1,14}",
        // Unicode, quotes, a brace and percent signs. (`$` and `{` are left out: the
        // kafka-configs.sh importer refuses `$name` and `{{ x }}` even in single quotes,
        // since runbooks paste such placeholders; see configs_sh::Mode::Import.)
        "[a-zé\"'%}\\\\]{1,8}",
    ]
}

fn entity_name() -> impl Strategy<Value = EntityName> {
    prop_oneof![1 => Just(EntityName::Default), 4 => name().prop_map(EntityName::Named)]
}

fn ip_name() -> impl Strategy<Value = EntityName> {
    prop_oneof![
        Just(EntityName::Default),
        (1u8..=254, 0u8..=255, 0u8..=255, 1u8..=254)
            .prop_map(|(a, b, c, d)| EntityName::Named(format!("{a}.{b}.{c}.{d}"))),
    ]
}

fn entity() -> impl Strategy<Value = QuotaEntity> {
    prop_oneof![
        3 => entity_name().prop_map(QuotaEntity::User),
        2 => entity_name().prop_map(QuotaEntity::ClientId),
        2 => (entity_name(), entity_name()).prop_map(|(user, client_id)| QuotaEntity::UserClientId { user, client_id }),
        1 => ip_name().prop_map(QuotaEntity::Ip),
    ]
}

fn value(key: QuotaKey) -> BoxedStrategy<f64> {
    match key {
        QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate => prop_oneof![
            (1u64..4_000_000_000).prop_map(|v| v as f64),
            (1u64..1u64 << 40).prop_map(|v| v as f64)
        ]
        .boxed(),
        QuotaKey::ConnectionCreationRate => (1u32..1_000_000).prop_map(f64::from).boxed(),
        _ => prop_oneof![
            (1u32..1000).prop_map(f64::from),
            (1u32..100_000).prop_map(|v| f64::from(v) / 64.0),
            (1e-3f64..1e9),
        ]
        .boxed(),
    }
}

fn store() -> impl Strategy<Value = QuotaStore> {
    let setting = entity().prop_flat_map(|e| {
        let keys: Vec<QuotaKey> = if e.is_ip() {
            vec![QuotaKey::ConnectionCreationRate]
        } else {
            QuotaKey::CLIENT_KEYS.to_vec()
        };
        (Just(e), prop::sample::select(keys)).prop_flat_map(|(e, k)| (Just(e), Just(k), value(k)))
    });
    prop::collection::vec(setting, 1..8).prop_map(|settings| {
        let mut s = QuotaStore::new();
        for (e, k, v) in settings {
            let _ = s.set(&e, k, v);
        }
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_format_round_trips_less_what_it_lists(s in store()) {
        prop_assume!(!s.is_empty());
        for format in WRITABLE {
            let out = export(&s, format).unwrap();
            let mut expected = s.clone();
            for u in &out.unexpressed {
                for (k, _) in &u.values {
                    expected.remove(&u.entity, *k).unwrap();
                }
            }
            if expected.is_empty() {
                continue;
            }
            let found = detect(&out.text).unwrap();
            prop_assert_eq!(found.format, format, "{}", out.text);
            let back = import(&out.text, format)
                .unwrap_or_else(|e| panic!("{format}: {e}\n{}", out.text));
            prop_assert_eq!(&back.store, &expected, "{}:\n{}", format, out.text);
            if matches!(format, Format::ConfigsSh | Format::Describe | Format::Java | Format::ScenarioJson) {
                prop_assert!(out.unexpressed.is_empty(), "{format} expresses every quota");
            }
        }
    }

    #[test]
    fn no_parser_panics_on_any_text(text in "(?s).{0,300}") {
        for format in Format::ALL {
            let _ = import(&text, format);
        }
        let _ = detect(&text);
    }

    #[test]
    fn no_parser_panics_on_damaged_exports(s in store(), cut in 0usize..2000, junk in "[\\[\\]{}\"'=:,#\n -]{0,3}") {
        for format in WRITABLE {
            let text = export(&s, format).unwrap().text;
            let mut at = cut.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let damaged = format!("{}{junk}{}", &text[..at], &text[at..]);
            let _ = import(&damaged, format);
            let _ = import(&text[..at], format);
        }
    }
}

#[test]
fn every_lab_scenario_round_trips_through_the_scenario_file_and_the_permalink() {
    let dir = super::fixtures().join("lab");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let fixture: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let bare = serde_json::to_string(&fixture["scenario"]).unwrap();
        // A bare scenario reads with a note; the envelope reads without one.
        let read = quota_formats::scenario::from_json(&bare).unwrap();
        assert_eq!(read.notes.len(), 1, "{}", path.display());
        let text = quota_formats::scenario::to_json(&read.scenario);
        assert_eq!(detect(&text).unwrap().format, Format::ScenarioJson);
        let again = quota_formats::scenario::from_json(&text).unwrap();
        assert!(again.notes.is_empty());
        assert_eq!(again.scenario, read.scenario, "{}", path.display());
        let url = quota_formats::scenario::link(&read.scenario, "http://127.0.0.1:8080/");
        assert_eq!(
            quota_formats::scenario::from_link(&url).unwrap(),
            read.scenario
        );
        n += 1;
    }
    assert!(n >= 13, "{n}");
}

/// Found by the `configs_sh` fuzz target: a form feed is whitespace to
/// `split_whitespace` but not to the shell, so the quoted-command unwrapping
/// recursed on the same line until the stack overflowed.
#[test]
fn a_form_feed_inside_a_word_does_not_recurse_forever() {
    let e = import("/\u{c}kafka-configs.sh -", Format::ConfigsSh).unwrap_err();
    assert!(e.to_string().starts_with("Line 1, column 1"), "{e}");
    let text = "kafka/bin/\u{c}kafka-configs.sh --alter \\\n  --entity-type clients --entity-default --add-config producer_byte_rate=1\n";
    let _ = import(text, Format::ConfigsSh);
}
