//! How the page writes values: units, entity paths, byte and time amounts,
//! metric values, counts.

use quota_engine::advice::ExactPath;
use quota_engine::{QuotaEntity, QuotaKey, QuotaType, UnitLabel};

/// The unit of a key's value, for labels.
pub fn unit_of(key: QuotaKey) -> &'static str {
    key.unit(UnitLabel::Short)
}

/// An entity's path as the page shows it: the engine's exact path
/// ([`quota_engine::advice::ExactPath::exact_path`]): the default entity as
/// `<default>`, a name literally spelled `<default>` quoted
/// (`users/"<default>"`), an empty name `""` (`users/tenant-a/clients/""`)
/// so it is not mistaken for a missing part, and names with surrounding
/// spaces, `/` or `"` quoted.
pub fn entity_path(e: &QuotaEntity) -> String {
    e.exact_path()
}

/// The engine's reason for one rung with the entity written as the page
/// writes it ([`entity_path`]): the engine's sentence starts with the
/// entity's `Display` (`users/tenant-a/clients/` for an empty client-id),
/// which is replaced by the exact path.
pub fn rung_reason(entity: &QuotaEntity, reason: &str) -> String {
    let shown = entity.to_string();
    match reason.strip_prefix(&shown) {
        Some(rest) => format!("{}{rest}", entity_path(entity)),
        None => reason.to_owned(),
    }
}

/// A sentence when the entity names a user or client-id literally called
/// `<default>` (not the default entity), as the quota list and the ladder
/// show beside it.
pub fn literal_default_note(e: &QuotaEntity) -> Option<String> {
    e.literal_default_note()
}

/// `name` cut after every `:`, `,` and `=` (the pieces join back to
/// `name`): where a long metric or MBean name may wrap.
pub fn break_points(name: &str) -> Vec<&str> {
    name.split_inclusive([':', ',', '=']).collect()
}

/// `n` and the noun, singular or plural: `1 client`, `2 clients`.
pub fn count_of(n: u64, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// A quota's value as every surface writes it: the engine's
/// [`quota_engine::resolve::human::readable_limit`] (`2 MB/s per broker
/// (2000000.0 bytes/s)`, `NaN bytes/s per broker (NaN: metered, never
/// delays: ...)`), the form of the CLI's answer line and the ladder's
/// reasons. Re-exported so the page has no formatter of its own.
pub use quota_engine::resolve::human::readable_limit;

/// Bytes per second in decimal units, as the lab article writes them.
pub fn fmt_rate(bytes_per_s: f64) -> String {
    format!("{}/s", fmt_bytes(bytes_per_s))
}

/// Bytes in decimal units (`30 MB`, `1.5 kB`).
pub fn fmt_bytes(b: f64) -> String {
    // -0.0 and -0.3 (a sum of nothing, a difference of equals) print as 0, not -0.
    let b = if b.abs() < 0.5 { 0.0 } else { b };
    let a = b.abs();
    let (v, u) = if a >= 1e12 {
        (b / 1e12, "TB")
    } else if a >= 1e9 {
        (b / 1e9, "GB")
    } else if a >= 1e6 {
        (b / 1e6, "MB")
    } else if a >= 1e3 {
        (b / 1e3, "kB")
    } else {
        return format!("{b:.0} B");
    };
    // Java's form from 10^15 TB on: no byte-rate quota gets there (a LONG,
    // at most Long.MAX_VALUE, 9.2 EB/s), but a sum or a product can.
    format!("{} {u}", quota_engine::resolve::human::trim_number(v, 2))
}

/// Milliseconds as `850 ms` or `12.1 s`.
pub fn fmt_ms(ms: f64) -> String {
    if !ms.is_finite() {
        return "NaN".to_owned();
    }
    let ms = if ms.abs() < 0.5 { 0.0 } else { ms };
    if ms.abs() < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}

/// A metric value as a Java client would print it (`NaN` included).
pub fn fmt_metric(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_owned()
    } else {
        quota_engine::java_double_to_string(v)
    }
}

/// A short label for a quota type: `Produce (producer_byte_rate)`.
pub fn quota_type_label(qt: QuotaType) -> String {
    format!("{} ({})", qt.metric_type(), qt.key())
}

#[cfg(test)]
mod tests {
    use super::*;
    use quota_engine::EntityName;

    #[test]
    fn a_literal_default_name_is_quoted_and_reasons_follow() {
        let literal = QuotaEntity::User(EntityName::Named("<default>".into()));
        assert_eq!(entity_path(&literal), "users/\"<default>\"");
        assert_eq!(entity_path(&QuotaEntity::User(EntityName::Default)), "users/<default>");
        assert!(literal_default_note(&literal).unwrap().contains("not the default entity"));
        assert_eq!(literal_default_note(&QuotaEntity::User(EntityName::Default)), None);
        let empty = QuotaEntity::UserClientId { user: EntityName::Named("tenant-a".into()), client_id: EntityName::Named(String::new()) };
        assert_eq!(
            // The engine writes the empty name as `""` itself.
            rung_reason(&empty, &format!("{empty} cannot apply: the connection's client-id is empty.")),
            "users/tenant-a/clients/\"\" cannot apply: the connection's client-id is empty."
        );
        assert_eq!(rung_reason(&empty, "Skipped: only user quotas exist."), "Skipped: only user quotas exist.");
    }

    #[test]
    fn empty_names_show_as_quotes_and_counts_are_pluralised() {
        let e = QuotaEntity::UserClientId {
            user: EntityName::Named("tenant-a".into()),
            client_id: EntityName::Named(String::new()),
        };
        assert_eq!(entity_path(&e), "users/tenant-a/clients/\"\"");
        assert_eq!(entity_path(&QuotaEntity::client_id("app")), "clients/app");
        assert_eq!(
            entity_path(&QuotaEntity::UserClientId { user: EntityName::Default, client_id: EntityName::Default }),
            "users/<default>/clients/<default>"
        );
        assert_eq!(count_of(1, "client", "clients"), "1 client");
        assert_eq!(
            break_points("kafka.server:type=Fetch,user=tenant-a:byte-rate"),
            ["kafka.server:", "type=", "Fetch,", "user=", "tenant-a:", "byte-rate"]
        );
        assert_eq!(count_of(0, "client", "clients"), "0 clients");
        // An absurd quota Kafka accepts reads in Java's form, not 292 digits.
        // The largest byte-rate quota Kafka takes (Long.MAX_VALUE), and a sum past 10^15 TB.
        assert_eq!(fmt_rate(9.223372036854776e18), "9223372.04 TB/s");
        assert_eq!(fmt_rate(2.5e30), "2.5E18 TB/s");
        assert_eq!(fmt_rate(2.5e6), "2.5 MB/s");
        assert_eq!(count_of(2, "broker", "brokers"), "2 brokers");
    }
}
