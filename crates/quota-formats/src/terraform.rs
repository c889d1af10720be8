//! Terraform quota resources: the Mongey provider's `kafka_quota` (read
//! and written) and Aiven's `aiven_kafka_quota` (read).
//!
//! `kafka_quota` (`Mongey/terraform-provider-kafka`, `kafka/resource_kafka_quota.go`
//! and `kafka/kafka_quotas.go`) has `entity_type` (`user`, `client-id` or
//! `ip`), an optional `entity_name` and a `config` map of quota keys to
//! values, sent as one `AlterClientQuotas` entry. Since v0.10.0 (pull
//! request #527, merged as 86b0721 on 2025-03-21) an `entity_name` left out
//! or empty is the default entity (`QuotaMatchDefault`), else an exact
//! match on the name; older versions required `entity_name`. So [`export`] writes a default-entity
//! quota (`users/<default>`, `clients/<default>`, `ips/<default>`) as a
//! resource without `entity_name`, with a comment naming that version. A
//! `kafka_quota` holds one entity type, so (user, client-id) quotas go to
//! [`Export::unexpressed`] and a comment instead of HCL the provider
//! refuses. Reading follows the provider: a missing or empty
//! `entity_name` is the default entity, with a note.
//!
//! `aiven_kafka_quota` (`aiven/terraform-provider-aiven`) has `user` and/or
//! `client_id` (the keyword `default` = the default entity, as Aiven's
//! quota API documents it) and top-level `consumer_byte_rate`,
//! `producer_byte_rate`, `request_percentage`; `project` and
//! `service_name` only pick the Aiven service and are noted.
//!
//! Values that only Terraform can compute (variables, module outputs,
//! `tostring(...)`, `"User:CN=${var.x}"` templates, `count`, `for_each`)
//! are refused by name ([`ErrorKind::Unresolved`]): run `terraform plan` or
//! `terraform show` and import the resolved values instead.
//!
//! HCL is read with the `hcl-rs` crate's `hcl::edit` parser, which keeps
//! spans, so every error has a line and column.

#[cfg(feature = "hcl")]
use hcl::edit::{
    expr::{Expression, ObjectKey},
    structure::{Attribute, Block, Body},
    Span,
};

#[cfg(feature = "hcl")]
use quota_engine::QuotaKey;
use quota_engine::{EntityName, EntityType, QuotaEntity, QuotaStore};

use crate::interchange::{by_entity, Export, Unexpressed};
// Reading needs the HCL parser (feature `hcl`); writing is plain text.
#[cfg(feature = "hcl")]
use quota_engine::jdk::double::parse_double;
#[cfg(feature = "hcl")]
use crate::{
    error::{position_of, Error, ErrorKind, Position},
    interchange::{DescribedQuota, QuotaImport},
};

/// The position where a spanned HCL node starts.
#[cfg(feature = "hcl")]
fn at(text: &str, node: &impl Span) -> Position {
    node.span()
        .map_or(Position::new(1, 1), |r| position_of(text, r.start))
}

/// The source text of a spanned node, squeezed to one line.
#[cfg(feature = "hcl")]
fn source(text: &str, node: &impl Span) -> String {
    node.span()
        .and_then(|r| text.get(r))
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "an expression".to_owned())
}

/// A literal string or number attribute value; `Err` names what stands
/// there instead.
#[cfg(feature = "hcl")]
fn literal(text: &str, expr: &Expression, context: &str) -> Result<String, Error> {
    match expr {
        Expression::String(s) => Ok(s.value().clone()),
        Expression::Number(n) => Ok(n.value().to_string()),
        Expression::Parenthesis(p) => literal(text, p.inner(), context),
        Expression::Null(_) | Expression::Bool(_) | Expression::Array(_) | Expression::Object(_) => {
            Err(Error::syntax(
                at(text, expr),
                format!("a string or number for {context}"),
                format!("`{}`", source(text, expr)),
            ))
        }
        _ => Err(Error::new(
            at(text, expr),
            ErrorKind::Unresolved {
                kind: "Terraform expression",
                names: vec![format!("`{}`", source(text, expr))],
                context: context.to_owned(),
                hint: "import the values Terraform resolved (terraform show) instead of the configuration",
            },
        )),
    }
}

/// A quota value as the provider reads it (Go `strconv.ParseFloat`, which
/// accepts what Java's `Double.parseDouble` accepts for plain numbers).
#[cfg(feature = "hcl")]
fn quota_number(text: &str, expr: &Expression, key: &str) -> Result<f64, Error> {
    let raw = literal(text, expr, &format!("the value of {key}"))?;
    parse_double(&raw).filter(|v| v.is_finite()).ok_or_else(|| {
        Error::syntax(
            at(text, expr),
            format!("a number for {key}"),
            format!("`{raw}`"),
        )
    })
}

#[cfg(feature = "hcl")]
fn attribute<'b>(body: &'b Body, name: &str) -> Option<&'b Attribute> {
    body.attributes().find(|a| a.key.as_str() == name)
}

/// Refuses `count` / `for_each`, which make one block stand for several
/// resources (or none).
#[cfg(feature = "hcl")]
fn refuse_meta_arguments(text: &str, block: &Block, resource: &str) -> Result<(), Error> {
    for meta in ["count", "for_each"] {
        if let Some(a) = attribute(&block.body, meta) {
            return Err(Error::unsupported(
                at(text, a),
                format!("`{meta}` on {resource}"),
                "it makes one block stand for as many quotas as Terraform computes, so import the resolved resources (terraform show) instead",
            ));
        }
    }
    Ok(())
}

#[cfg(feature = "hcl")]
fn quota_key(text: &str, node: &impl Span, name: &str) -> Result<QuotaKey, Error> {
    QuotaKey::from_name(name).ok_or_else(|| {
        Error::syntax(
            at(text, node),
            "a quota key: producer_byte_rate, consumer_byte_rate, request_percentage, controller_mutation_rate or connection_creation_rate",
            format!("`{name}`"),
        )
    })
}

/// Reads one `kafka_quota` block.
#[cfg(feature = "hcl")]
fn read_kafka_quota(
    text: &str,
    block: &Block,
    label: &str,
    out: &mut QuotaImport,
) -> Result<(), Error> {
    let resource = format!("kafka_quota.{label}");
    refuse_meta_arguments(text, block, &resource)?;
    let Some(type_attr) = attribute(&block.body, "entity_type") else {
        return Err(Error::syntax(
            at(text, block),
            format!("`entity_type` (user, client-id or ip) in {resource}"),
            "a kafka_quota without entity_type",
        ));
    };
    let type_name = literal(text, &type_attr.value, "entity_type")?;
    let Some(entity_type) = EntityType::from_wire(&type_name) else {
        return Err(Error::syntax(
            at(text, &type_attr.value),
            "entity_type `user`, `client-id` or `ip`",
            format!("`{type_name}`"),
        ));
    };
    let name = match attribute(&block.body, "entity_name") {
        None => {
            out.notes.push((
                at(text, block),
                format!("{resource} has no entity_name: read as the default {type_name} quota, as the provider sets it since v0.10.0 (older versions require entity_name)."),
            ));
            EntityName::Default
        }
        Some(a) => {
            let n = literal(text, &a.value, "entity_name")?;
            if n.is_empty() {
                out.notes.push((
                    at(text, &a.value),
                    format!("{resource} has an empty entity_name: read as the default {type_name} quota, as the provider sets it since v0.10.0 (older versions send the name \"\", which Kafka rejects)."),
                ));
                EntityName::Default
            } else {
                if entity_type == EntityType::User && n.starts_with("User:") {
                    out.notes.push((
                        at(text, &a.value),
                        format!("entity_name `{n}` starts with `User:`: Kafka keys user quotas on the principal name without its type, so this quota applies only to a principal literally named `{n}`, not to `{}`.", &n[5..]),
                    ));
                }
                EntityName::Named(n)
            }
        }
    };
    let entity = match entity_type {
        EntityType::User => QuotaEntity::User(name),
        EntityType::ClientId => QuotaEntity::ClientId(name),
        EntityType::Ip => QuotaEntity::Ip(name),
    };
    // Kafka's checks on the entity itself (an ip name that is not an
    // address, ...) are reported at entity_name, not at a value.
    let probe_key = if entity.is_ip() {
        QuotaKey::ConnectionCreationRate
    } else {
        QuotaKey::ProducerByteRate
    };
    if let Err(e) = QuotaStore::new().set(&entity, probe_key, 1.0) {
        let p =
            attribute(&block.body, "entity_name").map_or(at(text, block), |a| at(text, &a.value));
        return Err(Error::rejected(p, e));
    }
    let Some(config) = attribute(&block.body, "config") else {
        return Err(Error::syntax(
            at(text, block),
            format!("`config = {{ ... }}` with the quota values in {resource}"),
            "a kafka_quota without config",
        ));
    };
    let Expression::Object(object) = &config.value else {
        return literal(text, &config.value, "config").and_then(|_| {
            Err(Error::syntax(
                at(text, &config.value),
                "a map of quota keys to values",
                format!("`{}`", source(text, &config.value)),
            ))
        });
    };
    for (key, value) in object.iter() {
        let (name, key_pos) = match key {
            ObjectKey::Ident(i) => (i.as_str().to_owned(), at(text, i)),
            ObjectKey::Expression(e) => (literal(text, e, "a config key")?, at(text, e)),
        };
        let quota = QuotaKey::from_name(&name).ok_or_else(|| {
            Error::syntax(
                key_pos,
                "a quota key: producer_byte_rate, consumer_byte_rate, request_percentage, controller_mutation_rate or connection_creation_rate",
                format!("`{name}`"),
            )
        })?;
        let v = quota_number(text, value.expr(), &name)?;
        out.quotas.push(DescribedQuota {
            entity: entity.clone(),
            values: vec![(quota, v)],
            position: at(text, value.expr()),
        });
    }
    if object.is_empty() {
        out.notes.push((
            at(text, &config.value),
            format!("{resource} has an empty config: nothing to import."),
        ));
    }
    Ok(())
}

/// Reads one `aiven_kafka_quota` block.
#[cfg(feature = "hcl")]
fn read_aiven_quota(
    text: &str,
    block: &Block,
    label: &str,
    out: &mut QuotaImport,
) -> Result<(), Error> {
    let resource = format!("aiven_kafka_quota.{label}");
    refuse_meta_arguments(text, block, &resource)?;
    let part = |attr: &str| -> Result<Option<EntityName>, Error> {
        match attribute(&block.body, attr) {
            None => Ok(None),
            Some(a) => {
                let n = literal(text, &a.value, attr)?;
                Ok(Some(if n == "default" {
                    EntityName::Default
                } else {
                    EntityName::Named(n)
                }))
            }
        }
    };
    let entity = match (part("user")?, part("client_id")?) {
        (Some(user), Some(client_id)) => QuotaEntity::UserClientId { user, client_id },
        (Some(u), None) => QuotaEntity::User(u),
        (None, Some(c)) => QuotaEntity::ClientId(c),
        (None, None) => {
            return Err(Error::syntax(
                at(text, block),
                format!("`user` and/or `client_id` in {resource}"),
                "neither",
            ))
        }
    };
    if entity.parts().iter().any(|(_, n)| n.is_default()) {
        out.notes.push((
            at(text, block),
            format!(
                "{resource}: `default` is Aiven's keyword for the default entity, so this is {}.",
                entity.path()
            ),
        ));
    }
    let mut any = false;
    for a in block.body.attributes() {
        let name = a.key.as_str();
        match name {
            "user" | "client_id" => {}
            "project" | "service_name" | "timeouts" | "depends_on" | "provider" | "lifecycle" => {}
            "consumer_byte_rate" | "producer_byte_rate" | "request_percentage" => {
                let key = quota_key(text, &a.key, name)?;
                let v = quota_number(text, &a.value, name)?;
                any = true;
                out.quotas.push(DescribedQuota {
                    entity: entity.clone(),
                    values: vec![(key, v)],
                    position: at(text, &a.value),
                });
            }
            other => {
                return Err(Error::syntax(
                    at(text, &a.key),
                    "an aiven_kafka_quota argument: project, service_name, user, client_id, consumer_byte_rate, producer_byte_rate or request_percentage",
                    format!("`{other}`"),
                ))
            }
        }
    }
    out.notes.push((
        at(text, block),
        format!("{resource}: project and service_name only choose the Aiven service and are not imported."),
    ));
    if !any {
        out.notes.push((
            at(text, block),
            format!("{resource} sets no quota value: nothing to import."),
        ));
    }
    Ok(())
}

/// Reads every `kafka_quota` and `aiven_kafka_quota` resource of a
/// Terraform file; other blocks are skipped with a note.
///
/// # Errors
///
/// HCL syntax errors with the line and column `hcl-edit` reports and what
/// it expected; Terraform expressions where a literal must be
/// ([`ErrorKind::Unresolved`]); `count` / `for_each`
/// ([`ErrorKind::Unsupported`]); a missing `entity_type` or `config`, an
/// unknown entity type or quota key, a value that is not a number
/// ([`ErrorKind::Syntax`]); a file without quota resources.
///
/// # Example
///
/// ```
/// let text = r#"
/// resource "kafka_quota" "app" {
///   entity_name = "app"
///   entity_type = "client-id"
///   config = {
///     "consumer_byte_rate" = "5000000"
///   }
/// }
/// "#;
/// let import = quota_formats::terraform::parse(text)?;
/// assert_eq!(import.quotas[0].entity.path(), "clients/app");
/// assert_eq!(import.quotas[0].position.line, 6);
/// # Ok::<(), quota_formats::Error>(())
/// ```
#[cfg(feature = "hcl")]
pub fn parse(text: &str) -> Result<QuotaImport, Error> {
    parse_with(text, false)
}

/// [`parse`], except that a resource that cannot be read (an expression
/// only Terraform can compute, a value that is not a number) is left out
/// with its error in [`QuotaImport::skipped`] and the others are read: the
/// provider sends each resource as an `AlterClientQuotas` request of its
/// own.
///
/// # Errors
///
/// As [`parse`] for the file as a whole (HCL syntax, no quota resource);
/// never for one resource.
#[cfg(feature = "hcl")]
pub fn parse_each(text: &str) -> Result<QuotaImport, Error> {
    parse_with(text, true)
}

#[cfg(feature = "hcl")]
fn parse_with(text: &str, skip: bool) -> Result<QuotaImport, Error> {
    let body = hcl::edit::parser::parse_body(text).map_err(|e| {
        let loc = e.location();
        Error::syntax(
            Position::new(
                u32::try_from(loc.line()).unwrap_or(u32::MAX),
                u32::try_from(loc.column()).unwrap_or(u32::MAX),
            ),
            format!("valid HCL ({})", e.message()),
            match e.line().trim() {
                "" => "the end of the input".to_owned(),
                l => format!("`{l}`"),
            },
        )
    })?;
    let mut out = QuotaImport::default();
    let mut resources = 0u32;
    for block in body.blocks() {
        let kind = block.ident.as_str();
        let labels: Vec<&str> = block.labels.iter().map(|l| l.as_str()).collect();
        // What a resource added, taken back when it fails and is skipped.
        let (quotas, notes) = (out.quotas.len(), out.notes.len());
        let read = match (kind, labels.as_slice()) {
            ("resource", ["kafka_quota", name]) => {
                resources += 1;
                read_kafka_quota(text, block, name, &mut out)
            }
            ("resource", ["aiven_kafka_quota", name]) => {
                resources += 1;
                read_aiven_quota(text, block, name, &mut out)
            }
            _ => {
                out.notes.push((
                    at(text, block),
                    format!(
                        "Skipped the {kind} block{}: only kafka_quota and aiven_kafka_quota resources carry client quotas.",
                        if labels.is_empty() {
                            String::new()
                        } else {
                            format!(" \"{}\"", labels.join("\" \""))
                        }
                    ),
                ));
                Ok(())
            }
        };
        match read {
            Err(e) if skip => {
                out.quotas.truncate(quotas);
                out.notes.truncate(notes);
                out.skipped.push(e);
            }
            Err(e) => return Err(e),
            Ok(()) => {}
        }
    }
    if resources == 0 {
        return Err(Error::syntax(
            Position::new(1, 1),
            "at least one `resource \"kafka_quota\"` or `resource \"aiven_kafka_quota\"` block",
            "none",
        ));
    }
    Ok(out)
}

/// A string as an HCL quoted literal (escapes `"`, `\`, control
/// characters, and template openers `${` / `%{`).
fn hcl_string(s: &str) -> String {
    let mut out = String::from("\"");
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A Terraform resource name for an entity: letters, digits, `_`.
fn resource_name(entity: &QuotaEntity) -> String {
    let raw = entity
        .parts()
        .into_iter()
        .map(|(t, n)| match n {
            EntityName::Named(n) => format!("{}_{}", t.as_str(), n),
            EntityName::Default => format!("default_{}", t.as_str()),
        })
        .collect::<Vec<_>>()
        .join("_");
    let mut name: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert_str(0, "q_");
    }
    name
}

/// Writes every quota of a user, client-id or ip as a `kafka_quota`
/// resource (values as strings), a default entity as one without
/// `entity_name` (provider v0.10.0 and later, said in a comment); (user,
/// client-id) quotas, which a `kafka_quota` cannot hold (see the module
/// doc), go to [`Export::unexpressed`] and a comment.
pub fn export(store: &QuotaStore) -> Export {
    let mut unexpressed = Vec::new();
    let mut blocks = Vec::new();
    let mut used: Vec<String> = Vec::new();
    for (entity, values) in by_entity(store) {
        let (t, n) = match &entity {
            QuotaEntity::User(n) => (EntityType::User, n),
            QuotaEntity::ClientId(n) => (EntityType::ClientId, n),
            QuotaEntity::Ip(n) => (EntityType::Ip, n),
            QuotaEntity::UserClientId { .. } => {
                unexpressed.push(Unexpressed {
                    entity,
                    values,
                    reason: "a kafka_quota resource has one entity_type, so a (user, client-id) quota cannot be written as one; set it with kafka-configs.sh or the Admin API".to_owned(),
                });
                continue;
            }
        };
        let base = resource_name(&entity);
        let mut name = base.clone();
        let mut i = 2;
        while used.contains(&name) {
            name = format!("{base}_{i}");
            i += 1;
        }
        used.push(name.clone());
        let mut b = format!("resource \"kafka_quota\" \"{name}\" {{\n");
        let mut head = Vec::new();
        match n {
            EntityName::Named(n) => head.push(("entity_name".to_owned(), hcl_string(n))),
            EntityName::Default => b.push_str(&format!(
                "  # No entity_name: the default {} quota (terraform-provider-kafka v0.10.0 or later; older versions require entity_name).\n",
                t.as_str()
            )),
        }
        head.push(("entity_type".to_owned(), format!("\"{}\"", t.as_str())));
        b.push_str(&aligned("  ", &head));
        b.push_str("  config = {\n");
        let config: Vec<(String, String)> = values
            .iter()
            .map(|(k, v)| (format!("\"{}\"", k.as_str()), format!("\"{v}\"")))
            .collect();
        b.push_str(&aligned("    ", &config));
        b.push_str("  }\n}\n");
        blocks.push(b);
    }
    let mut text =
        String::from("# kafka_quota resources (Mongey/kafka provider) written by kafka-quota.\n");
    for u in &unexpressed {
        text.push_str(&format!("# Not expressible as a kafka_quota: {u}\n"));
    }
    for b in blocks {
        text.push('\n');
        text.push_str(&b);
    }
    Export {
        text,
        unexpressed,
        notes: Vec::new(),
    }
}

/// Consecutive single-line attributes `key = value` at `indent`, their `=`
/// aligned one space after the longest key, as `terraform fmt` writes them
/// (hclwrite's `formatCells`: a run of lines with an assignment is one
/// chain, and a line without one, such as `config = {` or a comment, ends
/// it).
fn aligned(indent: &str, attrs: &[(String, String)]) -> String {
    let width = attrs.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0);
    attrs
        .iter()
        .map(|(k, v)| {
            let pad = width - k.chars().count();
            format!("{indent}{k}{} = {v}\n", " ".repeat(pad))
        })
        .collect()
}

#[cfg(all(test, feature = "hcl"))]
mod tests {
    use super::*;

    fn store_of(text: &str) -> Result<QuotaStore, Error> {
        let import = parse(text)?;
        let mut s = QuotaStore::new();
        import.apply(&mut s)?;
        Ok(s)
    }

    #[test]
    fn reads_literals_numbers_and_defaults() {
        let text = "resource \"kafka_quota\" \"d\" {\n  entity_type = \"user\"\n  config = {\n    producer_byte_rate = 1048576 # 1 MiB/s\n    \"request_percentage\" = \"12.5\"\n  }\n}\n";
        let s = store_of(text).unwrap();
        let v = s.get(&QuotaEntity::User(EntityName::Default)).unwrap();
        assert_eq!(v[&QuotaKey::ProducerByteRate], 1048576.0);
        assert_eq!(v[&QuotaKey::RequestPercentage], 12.5);
    }

    #[test]
    fn refuses_expressions_by_name_with_position() {
        let text = "resource \"kafka_quota\" \"q\" {\n  entity_name = \"User:CN=${var.cn}\"\n  entity_type = \"user\"\n  config = {}\n}\n";
        let e = parse(text).unwrap_err();
        assert_eq!(e.position, Position::new(2, 17));
        assert_eq!(e.to_string(), "Line 2, column 17: the Terraform expression `\"User:CN=${var.cn}\"` stands in entity_name; expected a literal value, so import the values Terraform resolved (terraform show) instead of the configuration.");
        let e = parse("resource \"kafka_quota\" \"q\" {\n  entity_type = \"users\"\n").unwrap_err();
        assert!(e.to_string().starts_with("Line 2, column 25: expected valid HCL (invalid block body; expected `}`, newline or identifier)"), "{e}");
        let e = parse(
            "resource \"kafka_quota\" \"q\" {\n  entity_type = \"users\"\n  config = {}\n}\n",
        )
        .unwrap_err();
        assert_eq!(e.position, Position::new(2, 17));
    }

    #[test]
    fn aiven_maps_user_and_client_id() {
        let text = "resource \"aiven_kafka_quota\" \"q\" {\n  project = var.p\n  user = \"default\"\n  client_id = \"app\"\n  consumer_byte_rate = 1000\n}\n";
        let s = store_of(text).unwrap();
        let e = QuotaEntity::UserClientId {
            user: EntityName::Default,
            client_id: EntityName::Named("app".into()),
        };
        assert_eq!(s.get(&e).unwrap()[&QuotaKey::ConsumerByteRate], 1000.0);
    }

    #[test]
    fn export_reads_back_and_lists_composites() {
        let mut s = QuotaStore::new();
        s.set(
            &QuotaEntity::user("we\"ird ${x} \\ %{y}"),
            QuotaKey::RequestPercentage,
            1.5,
        )
        .unwrap();
        s.set(
            &QuotaEntity::Ip(EntityName::Default),
            QuotaKey::ConnectionCreationRate,
            10.0,
        )
        .unwrap();
        let pair = QuotaEntity::UserClientId {
            user: EntityName::Named("u".into()),
            client_id: EntityName::Default,
        };
        s.set(&pair, QuotaKey::ConsumerByteRate, 5.0).unwrap();
        s.set(
            &QuotaEntity::Ip(EntityName::Named("10.0.0.1".into())),
            QuotaKey::ConnectionCreationRate,
            3.0,
        )
        .unwrap();
        let out = export(&s);
        assert_eq!(out.unexpressed.len(), 1, "{:#?}", out.unexpressed);
        assert!(out.text.contains("# Not expressible as a kafka_quota: users/u/clients/<default> (consumer_byte_rate=5.0)"), "{}", out.text);
        // The default ip quota: a resource without entity_name (v0.10.0+).
        let resources = out.text.matches("resource \"kafka_quota\"").count();
        assert_eq!(resources, 3, "{}", out.text);
        assert_eq!(out.text.matches("  entity_name = ").count(), 2, "{}", out.text);
        assert!(out.text.contains("resource \"kafka_quota\" \"default_ip\" {\n  # No entity_name: the default ip quota (terraform-provider-kafka v0.10.0 or later"), "{}", out.text);
        let mut back = store_of(&out.text).unwrap();
        back.set(&pair, QuotaKey::ConsumerByteRate, 5.0).unwrap();
        assert_eq!(back, s);
    }
}
