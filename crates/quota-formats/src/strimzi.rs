//! Strimzi `KafkaUser` resources: `spec.quotas` read into Kafka quota
//! entities and written back from a store.
//!
//! A `KafkaUser` named `my-user` sets quotas on one Kafka user entity, whose
//! name depends on `spec.authentication.type` (Strimzi's
//! `KafkaUserModel.getUserName`, `user-operator/src/main/java/io/strimzi/operator/user/model/KafkaUserModel.java`):
//! `tls` and `tls-external` users are `CN=my-user` (the subject of the
//! certificate the operator issues), `scram-sha-512` users and users
//! without `authentication` are `my-user`. The four quota fields map to
//! Kafka keys as `QuotaUtils.toClientQuotaAlterationOps` does:
//! `producerByteRate` → `producer_byte_rate`, `consumerByteRate` →
//! `consumer_byte_rate`, `requestPercentage` → `request_percentage` (these
//! three are integers in the CRD), `controllerMutationRate` →
//! `controller_mutation_rate` (a number).
//!
//! Reading is deliberate about what real files contain:
//! - multi-document streams and `kind: List` (`kubectl get -o yaml`): every
//!   `KafkaUser` is read, other kinds are skipped with a note;
//! - `apiVersion` `kafka.strimzi.io/v1alpha1`, `v1beta1`, `v1beta2` and `v1`
//!   (same `quotas` shape); anything else is refused;
//! - `quotas: {}` and a missing `quotas` import nothing, with a note;
//! - Helm/Go template placeholders (`{{ .Values.x }}`) are refused by name
//!   (render the chart first), AsciiDoc attributes (`apiVersion:
//!   {KafkaUserApiVersion}`) are accepted with a note where they do not
//!   decide a quota, AsciiDoc callouts (`# <1>` comments, or a bare `<1>`
//!   after a value) are ignored with a note;
//! - a bare `quotas:` fragment (no `KafkaUser` around it) is refused: it
//!   names no user.
//!
//! Writing lists what Strimzi cannot express instead of dropping it:
//! client-id and (user, client-id) entities, default entities, ip
//! entities, user names that are not Kubernetes resource names, and values
//! the CRD's integer fields cannot hold.
//!
//! YAML is read with the `saphyr` crate, which keeps every node's line and
//! column.

#[cfg(feature = "yaml")]
use saphyr::{LoadableYamlNode, MarkedYaml, Marker, Scalar, YamlData};

use quota_engine::{EntityName, QuotaEntity, QuotaKey, QuotaStore};

use crate::interchange::{by_entity, Export, ExportOptions, Unexpressed};
// Reading needs the YAML parser (feature `yaml`); writing is plain text.
#[cfg(feature = "yaml")]
use crate::{
    error::{position_of, Error, ErrorKind, Position},
    interchange::{DescribedQuota, QuotaImport},
};

/// The `apiVersion`s Strimzi serves `KafkaUser` under.
pub const API_VERSIONS: [&str; 4] = [
    "kafka.strimzi.io/v1alpha1",
    "kafka.strimzi.io/v1beta1",
    "kafka.strimzi.io/v1beta2",
    "kafka.strimzi.io/v1",
];

/// The `spec.quotas` fields, their Kafka keys, and whether the CRD types
/// them as integers.
const FIELDS: [(&str, QuotaKey, bool); 4] = [
    ("producerByteRate", QuotaKey::ProducerByteRate, true),
    ("consumerByteRate", QuotaKey::ConsumerByteRate, true),
    ("requestPercentage", QuotaKey::RequestPercentage, true),
    (
        "controllerMutationRate",
        QuotaKey::ControllerMutationRate,
        false,
    ),
];

/// A saphyr marker as a [`Position`] counted like every other format of
/// this crate (lines end at `\n` only; YAML also breaks lines at a lone
/// `\r`, so saphyr's own line number can differ). The marker's character
/// index is the reliable part.
#[cfg(feature = "yaml")]
fn pos(t: &str, m: &Marker) -> Position {
    let byte = t.char_indices().nth(m.index()).map_or(t.len(), |(b, _)| b);
    position_of(t, byte)
}

#[cfg(feature = "yaml")]
fn at(t: &str, node: &MarkedYaml<'_>) -> Position {
    pos(t, &node.span.start)
}

/// How a node reads in a message: `` `abc` ``, `a mapping`, `nothing`.
#[cfg(feature = "yaml")]
fn describe_node(node: &MarkedYaml<'_>) -> String {
    match &node.data {
        YamlData::Value(Scalar::Null) => "nothing (null)".to_owned(),
        YamlData::Value(Scalar::String(s)) => format!("the string `{s}`"),
        YamlData::Value(Scalar::Integer(i)) => format!("the integer `{i}`"),
        YamlData::Value(Scalar::FloatingPoint(f)) => format!("the number `{f}`"),
        YamlData::Value(Scalar::Boolean(b)) => format!("the boolean `{b}`"),
        YamlData::Mapping(_) => "a mapping".to_owned(),
        YamlData::Sequence(_) => "a list".to_owned(),
        YamlData::Tagged(tag, _) => format!("a value tagged `{tag}`"),
        YamlData::Alias(_) => "an alias".to_owned(),
        _ => "a value YAML cannot resolve".to_owned(),
    }
}

/// The entries of a mapping node (empty for anything else).
#[cfg(feature = "yaml")]
fn entries<'a, 'i>(node: &'a MarkedYaml<'i>) -> Vec<(&'a MarkedYaml<'i>, &'a MarkedYaml<'i>)> {
    match &node.data {
        YamlData::Mapping(m) => m.iter().collect(),
        _ => Vec::new(),
    }
}

/// The key node and value node of `key` in a mapping node.
#[cfg(feature = "yaml")]
fn get<'a, 'i>(
    node: &'a MarkedYaml<'i>,
    key: &str,
) -> Option<(&'a MarkedYaml<'i>, &'a MarkedYaml<'i>)> {
    entries(node)
        .into_iter()
        .find(|(k, _)| k.data.as_str() == Some(key))
}

/// An AsciiDoc attribute reference such as `{KafkaUserApiVersion}`, which
/// YAML reads as a one-key flow mapping with a null value.
#[cfg(feature = "yaml")]
fn asciidoc_attribute(node: &MarkedYaml<'_>) -> Option<String> {
    let e = entries(node);
    match e.as_slice() {
        [(k, v)] if v.data.is_null() => {
            let name = k.data.as_str()?;
            (!name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .then(|| format!("{{{name}}}"))
        }
        _ => None,
    }
}

/// Helm / Go template placeholders (`{{ ... }}`) outside comments, with
/// the position of the first and the key of its line.
#[cfg(feature = "yaml")]
fn template_placeholders(text: &str) -> Option<(Position, Vec<String>, String)> {
    let mut names: Vec<String> = Vec::new();
    let mut first: Option<(Position, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let code = match line.find(" #") {
            Some(c) if !line[..c].contains("{{") => &line[..c],
            _ => line,
        };
        if code.trim_start().starts_with('#') {
            continue;
        }
        let mut rest = code;
        let mut offset = 0;
        while let Some(open) = rest.find("{{") {
            let Some(close) = rest[open..].find("}}") else {
                break;
            };
            let found = rest[open..open + close + 2].to_owned();
            if first.is_none() {
                let col = code[..offset + open].chars().count() + 1;
                let key = code.trim_start().split(':').next().unwrap_or("").trim();
                first = Some((
                    Position::new(
                        u32::try_from(i + 1).unwrap_or(u32::MAX),
                        u32::try_from(col).unwrap_or(u32::MAX),
                    ),
                    key.trim_start_matches("- ").to_owned(),
                ));
            }
            if !names.contains(&found) {
                names.push(found);
            }
            offset += open + close + 2;
            rest = &rest[open + close + 2..];
        }
    }
    first.map(|(p, key)| (p, names, key))
}

/// A number written with an AsciiDoc callout after it (`1048576 <1>`).
#[cfg(feature = "yaml")]
fn strip_callout(s: &str) -> Option<(&str, &str)> {
    let t = s.trim_end();
    let open = t.rfind('<')?;
    let callout = &t[open..];
    let inner = callout.strip_prefix('<')?.strip_suffix('>')?;
    (!inner.is_empty() && inner.chars().all(|c| c.is_ascii_digit()))
        .then(|| (t[..open].trim_end(), callout))
}

/// Reads the value of one `spec.quotas` field.
#[cfg(feature = "yaml")]
fn quota_value(
    t: &str,
    field: &str,
    integer: bool,
    node: &MarkedYaml<'_>,
    notes: &mut Vec<(Position, String)>,
) -> Result<f64, Error> {
    let kind = if integer { "an integer" } else { "a number" };
    let want = format!("{kind} of at least 0 for {field} (Strimzi's CRD)");
    let value = match &node.data {
        YamlData::Value(Scalar::Integer(i)) => *i as f64,
        YamlData::Value(Scalar::FloatingPoint(f)) if !integer => f.into_inner(),
        YamlData::Value(Scalar::FloatingPoint(f)) => {
            return Err(Error::syntax(
                at(t, node),
                want,
                format!("the fractional number `{f}`, which the CRD's integer field refuses"),
            ))
        }
        YamlData::Value(Scalar::String(s)) => {
            if let Some((number, callout)) = strip_callout(s) {
                let parsed = if integer {
                    number.parse::<i64>().ok().map(|i| i as f64)
                } else {
                    number.parse::<f64>().ok().filter(|f| f.is_finite())
                };
                if let Some(v) = parsed {
                    notes.push((
                        at(t, node),
                        format!(
                            "Ignored the AsciiDoc callout `{callout}` after {field}: it is documentation markup, not part of the value."
                        ),
                    ));
                    v
                } else {
                    return Err(Error::syntax(at(t, node), want, describe_node(node)));
                }
            } else if s.trim().parse::<f64>().is_ok() {
                return Err(Error::syntax(
                    at(t, node),
                    want,
                    format!("the quoted string `{s}`; the CRD types {field} as {kind}, so write it without quotes"),
                ));
            } else {
                return Err(Error::syntax(at(t, node), want, describe_node(node)));
            }
        }
        _ => return Err(Error::syntax(at(t, node), want, describe_node(node))),
    };
    if value < 0.0 {
        return Err(Error::syntax(
            at(t, node),
            format!("{kind} of at least 0 for {field} (Strimzi's CRD sets `minimum: 0`)"),
            format!("`{value}`"),
        ));
    }
    Ok(value)
}

/// [`namespace`], by a name that the local `namespace` node does not hide.
#[cfg(feature = "yaml")]
fn namespace_name(s: &str) -> Result<String, String> {
    namespace(s)
}

/// Keeps the KafkaUser's `strimzi.io/cluster` label and namespace in
/// `out.keep` for an export (the first KafkaUser's; a later one that
/// differs gets a note saying which is kept).
#[cfg(feature = "yaml")]
fn keep_placement(t: &str, name: &str, metadata: &MarkedYaml<'_>, out: &mut QuotaImport) {
    let cluster = get(metadata, "labels")
        .and_then(|(_, l)| get(l, "strimzi.io/cluster"))
        .map(|(_, v)| v);
    let namespace = get(metadata, "namespace").map(|(_, v)| v);
    type Check = fn(&str) -> Result<String, String>;
    for (node, kept, what, check) in [
        (cluster, &mut out.keep.strimzi_cluster, "strimzi.io/cluster label", cluster_label as Check),
        (namespace, &mut out.keep.strimzi_namespace, "namespace", namespace_name as Check),
    ] {
        let Some(node) = node else { continue };
        let Some(value) = node.data.as_str().filter(|v| !v.is_empty()) else {
            continue;
        };
        if let Err(why) = check(value) {
            // Kubernetes refuses it, so an export does not write it back.
            out.notes.push((at(t, node), format!("KafkaUser {name}: {why}; an export does not keep it.")));
            continue;
        }
        match kept {
            None => *kept = Some(value.to_owned()),
            Some(first) if first != value => out.notes.push((
                at(t, node),
                format!("KafkaUser {name} has the {what} `{value}`, an earlier KafkaUser `{first}`: an export writes every KafkaUser with `{first}`."),
            )),
            Some(_) => {}
        }
    }
}

/// Reads one `KafkaUser` document.
#[cfg(feature = "yaml")]
fn read_user(t: &str, doc: &MarkedYaml<'_>, out: &mut QuotaImport) -> Result<(), Error> {
    match get(doc, "apiVersion") {
        Some((_, v)) => {
            if let Some(s) = v.data.as_str() {
                if !API_VERSIONS.contains(&s) {
                    return Err(Error::unsupported(
                        at(t, v),
                        format!("apiVersion `{s}`"),
                        format!(
                            "Strimzi serves KafkaUser only as {}",
                            API_VERSIONS.join(", ")
                        ),
                    ));
                }
            } else if let Some(attr) = asciidoc_attribute(v) {
                out.notes.push((
                    at(t, v),
                    format!("apiVersion is the AsciiDoc attribute {attr}; every Strimzi apiVersion has the same spec.quotas, so the quotas are read as they are."),
                ));
            } else {
                return Err(Error::syntax(
                    at(t, v),
                    format!("an apiVersion such as `{}`", API_VERSIONS[3]),
                    describe_node(v),
                ));
            }
        }
        None => out.notes.push((
            at(t, doc),
            "The KafkaUser has no apiVersion; its spec.quotas are read as kafka.strimzi.io/v1."
                .to_owned(),
        )),
    }
    let Some((_, metadata)) = get(doc, "metadata") else {
        return Err(Error::syntax(
            at(t, doc),
            "`metadata:` with the KafkaUser's `name` (the Kafka user the quotas apply to)",
            "a KafkaUser without metadata",
        ));
    };
    let Some((name_key, name_node)) = get(metadata, "name") else {
        return Err(Error::syntax(
            at(t, metadata),
            "`name:` under metadata (the Kafka user the quotas apply to)",
            "metadata without a name",
        ));
    };
    let name = match &name_node.data {
        YamlData::Value(Scalar::String(s)) if !s.is_empty() => s.to_string(),
        _ => {
            if let Some(attr) = asciidoc_attribute(name_node) {
                return Err(Error::new(
                    at(t, name_node),
                    ErrorKind::Unresolved {
                        kind: "AsciiDoc attribute",
                        names: vec![attr],
                        context: "metadata.name".to_owned(),
                        hint: "replace it with the KafkaUser's name",
                    },
                ));
            }
            return Err(Error::syntax(
                at(t, name_node),
                "a KafkaUser name (a string)",
                describe_node(name_node),
            ));
        }
    };
    let _ = name_key;
    keep_placement(t, &name, metadata, out);
    let spec = get(doc, "spec").map(|(_, s)| s);
    let auth = spec.and_then(|s| get(s, "authentication")).map(|(_, a)| a);
    let auth_type = match auth {
        None => None,
        Some(a) => match get(a, "type") {
            Some((_, ty)) => match ty.data.as_str() {
                Some(s) => Some((s.to_owned(), at(t, ty))),
                None => {
                    return Err(Error::syntax(
                        at(t, ty),
                        "an authentication type: tls, tls-external or scram-sha-512",
                        describe_node(ty),
                    ))
                }
            },
            None => {
                return Err(Error::syntax(
                    at(t, a),
                    "`type:` under authentication (tls, tls-external or scram-sha-512)",
                    "authentication without a type",
                ))
            }
        },
    };
    let user = match auth_type.as_ref().map(|(s, p)| (s.as_str(), *p)) {
        Some(("tls" | "tls-external", _)) => format!("CN={name}"),
        Some(("scram-sha-512", _)) => name.clone(),
        None => {
            out.notes.push((
                at(t, name_node),
                format!("KafkaUser {name} has no spec.authentication: Strimzi applies its quotas to the user named `{name}` (no `CN=` prefix)."),
            ));
            name.clone()
        }
        Some((other, p)) => {
            return Err(Error::unsupported(
                p,
                format!("authentication type `{other}`"),
                "Strimzi's KafkaUser authentication types are tls, tls-external and scram-sha-512, and the type decides the Kafka user name (`CN=<name>` or `<name>`)",
            ))
        }
    };
    let entity = QuotaEntity::User(EntityName::Named(user.clone()));
    let Some((quotas_key, quotas)) = spec.and_then(|s| get(s, "quotas")) else {
        out.notes.push((
            at(t, name_node),
            format!("KafkaUser {name} has no spec.quotas: nothing to import for it."),
        ));
        return Ok(());
    };
    if quotas.data.is_null() || entries(quotas).is_empty() {
        if !quotas.data.is_null() && !matches!(quotas.data, YamlData::Mapping(_)) {
            return Err(Error::syntax(
                at(t, quotas),
                "a mapping of producerByteRate, consumerByteRate, requestPercentage, controllerMutationRate",
                describe_node(quotas),
            ));
        }
        out.notes.push((
            at(t, quotas_key),
            format!("KafkaUser {name} has empty quotas: nothing to import (Strimzi removes any quotas the user `{user}` had)."),
        ));
        return Ok(());
    }
    for (k, v) in entries(quotas) {
        let Some(field) = k.data.as_str() else {
            return Err(Error::syntax(
                at(t, k),
                "a quota field name",
                describe_node(k),
            ));
        };
        let Some((field, key, integer)) = FIELDS.iter().find(|(f, _, _)| *f == field).copied()
        else {
            let hint = QuotaKey::from_name(field)
                .map(|q| {
                    let camel = FIELDS
                        .iter()
                        .find(|(_, k, _)| *k == q)
                        .map_or("no Strimzi field", |(f, _, _)| f);
                    format!(" (Kafka's key `{field}` is spelled `{camel}` in a KafkaUser)")
                })
                .unwrap_or_default();
            return Err(Error::syntax(
                at(t, k),
                "one of producerByteRate, consumerByteRate, requestPercentage, controllerMutationRate",
                format!("`{field}`{hint}"),
            ));
        };
        let value = quota_value(t, field, integer, v, &mut out.notes)?;
        out.quotas.push(DescribedQuota {
            entity: entity.clone(),
            values: vec![(key, value)],
            position: at(t, v),
        });
    }
    Ok(())
}

/// Reads the quotas of every `KafkaUser` in a YAML stream.
///
/// # Errors
///
/// With line and column: YAML syntax errors (including duplicated keys),
/// template placeholders ([`ErrorKind::Unresolved`]), an unknown
/// apiVersion or authentication type ([`ErrorKind::Unsupported`]), a
/// missing `metadata.name`, an unknown quota field or a value the CRD
/// refuses ([`ErrorKind::Syntax`]), a `quotas:` fragment without its
/// `KafkaUser`, a stream with no `KafkaUser`.
///
/// # Example
///
/// ```
/// let text = "apiVersion: kafka.strimzi.io/v1\nkind: KafkaUser\nmetadata:\n  name: my-user\n\
///             spec:\n  authentication:\n    type: tls\n  quotas:\n    producerByteRate: 1048576\n";
/// let import = quota_formats::strimzi::parse(text)?;
/// assert_eq!(import.quotas[0].entity.path(), "users/CN=my-user");
/// assert_eq!(import.quotas[0].position.line, 9);
/// # Ok::<(), quota_formats::Error>(())
/// ```
#[cfg(feature = "yaml")]
pub fn parse(text: &str) -> Result<QuotaImport, Error> {
    let t = text;
    if let Some((p, names, key)) = template_placeholders(text) {
        return Err(Error::new(
            p,
            ErrorKind::Unresolved {
                kind: "Helm/Go template placeholder",
                names,
                context: if key.is_empty() {
                    "the resource".to_owned()
                } else {
                    format!("`{key}:` and elsewhere in the resource")
                },
                hint: "render the template (helm template) and import its output",
            },
        ));
    }
    let docs = MarkedYaml::load_from_str(text).map_err(|e| {
        Error::syntax(
            pos(t, e.marker()),
            "well-formed YAML",
            format!("a YAML error ({})", e.info()),
        )
    })?;
    let mut out = QuotaImport::default();
    let mut users = 0u32;
    let mut kinds: Vec<String> = Vec::new();
    // `kubectl get kafkausers -o yaml` wraps resources in a `kind: List`.
    let mut resources: Vec<&MarkedYaml<'_>> = Vec::new();
    for doc in &docs {
        match (get(doc, "kind"), get(doc, "items")) {
            (Some((_, k)), Some((_, items))) if k.data.as_str() == Some("List") => {
                if let YamlData::Sequence(seq) = &items.data {
                    resources.extend(seq.iter());
                }
            }
            _ => resources.push(doc),
        }
    }
    for doc in resources {
        if doc.data.is_null() {
            continue;
        }
        if !matches!(doc.data, YamlData::Mapping(_)) {
            return Err(Error::syntax(
                at(t, doc),
                "a Kubernetes resource (a mapping with apiVersion, kind, metadata, spec)",
                describe_node(doc),
            ));
        }
        match get(doc, "kind") {
            Some((_, k)) if k.data.as_str() == Some("KafkaUser") => {
                users += 1;
                read_user(t, doc, &mut out)?;
            }
            Some((_, k)) => {
                let kind = k
                    .data
                    .as_str()
                    .map_or_else(|| describe_node(k), str::to_owned);
                out.notes.push((
                    at(t, k),
                    format!(
                        "Skipped a {kind} document: only KafkaUser resources carry client quotas."
                    ),
                ));
                kinds.push(kind);
            }
            None => {
                let quotas = get(doc, "quotas")
                    .or_else(|| get(doc, "spec").and_then(|(_, s)| get(s, "quotas")));
                if let Some((k, _)) = quotas {
                    return Err(Error::unsupported(
                        at(t, k),
                        "a `quotas:` fragment without its KafkaUser",
                        "it names no user: the quotas apply to the user of the KafkaUser it belongs in (`CN=<name>` with tls authentication, `<name>` with scram-sha-512 or no authentication), so import the whole KafkaUser",
                    ));
                }
                return Err(Error::syntax(
                    at(t, doc),
                    "a Strimzi KafkaUser (`kind: KafkaUser`)",
                    "a YAML document without `kind`",
                ));
            }
        }
    }
    if users == 0 {
        return Err(Error::syntax(
            Position::new(1, 1),
            "at least one Strimzi KafkaUser (`kind: KafkaUser`)",
            if kinds.is_empty() {
                "an empty YAML stream".to_owned()
            } else {
                format!("only {}", kinds.join(", "))
            },
        ));
    }
    Ok(out)
}

/// A Kubernetes resource name (RFC 1123 subdomain): lowercase letters,
/// digits, `-` and `.`, starting and ending with a letter or digit, at most
/// 253 characters.
fn is_resource_name(s: &str) -> bool {
    let ok_end = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    !s.is_empty()
        && s.len() <= 253
        && s.chars().next().is_some_and(ok_end)
        && s.chars().last().is_some_and(ok_end)
        && s.chars().all(|c| ok_end(c) || c == '-' || c == '.')
}

/// A name as a YAML scalar that reads back as the same string.
fn yaml_string(s: &str) -> String {
    let plain = s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !matches!(
            s,
            "null" | "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if plain {
        s.to_owned()
    } else {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// The Strimzi value of a quota, or why the CRD cannot hold it.
fn strimzi_value(key: QuotaKey, value: f64) -> Result<String, String> {
    let integer = FIELDS.iter().any(|(_, k, i)| *k == key && *i);
    if integer {
        if value.fract() != 0.0 {
            return Err(format!(
                "the CRD types this field as an integer and {} has a fraction",
                quota_engine::java_double_to_string(value)
            ));
        }
        if value > f64::from(i32::MAX) {
            return Err(format!(
                "Strimzi holds this field in a Java Integer, whose maximum is {}",
                i32::MAX
            ));
        }
        Ok(format!("{}", value as i64))
    } else if value.fract() == 0.0 && value.abs() < 1e15 {
        Ok(format!("{}", value as i64))
    } else {
        Ok(format!("{value}"))
    }
}

/// The apiVersion an export writes unless asked for another: Strimzi 0.49
/// and later serve it, and Strimzi 1.0 removed every other
/// (`packaging/install/cluster-operator/044-Crd-kafkauser.yaml`, whose
/// `versions` list only `v1` since 1.0.0).
pub const DEFAULT_API_VERSION: &str = "kafka.strimzi.io/v1";

/// The `strimzi.io/cluster` label an export writes unless the import or
/// the caller named the cluster: the name Strimzi's examples use.
pub const DEFAULT_CLUSTER: &str = "my-cluster";

/// The apiVersion named by `s` (`v1` or `kafka.strimzi.io/v1`; any
/// version Strimzi serves KafkaUser under, [`API_VERSIONS`]).
///
/// # Errors
///
/// A sentence naming `s` and the versions Strimzi serves.
pub fn api_version(s: &str) -> Result<&'static str, String> {
    API_VERSIONS
        .iter()
        .copied()
        .find(|v| *v == s || v.strip_prefix("kafka.strimzi.io/") == Some(s))
        .ok_or_else(|| {
            format!(
                "`{s}` is not an apiVersion Strimzi serves KafkaUser under: {} (Strimzi 1.0 and later serve only kafka.strimzi.io/v1)",
                API_VERSIONS.join(", ")
            )
        })
}

/// `s` as the `strimzi.io/cluster` label: a Kubernetes label value (at
/// most 63 letters, digits, `-`, `_` and `.`, starting and ending with a
/// letter or digit), the name of the Kafka resource.
///
/// # Errors
///
/// A sentence naming `s` and the rule.
pub fn cluster_label(s: &str) -> Result<String, String> {
    let ends = |c: char| c.is_ascii_alphanumeric();
    let ok = !s.is_empty()
        && s.len() <= 63
        && s.chars().next().is_some_and(ends)
        && s.chars().last().is_some_and(ends)
        && s.chars().all(|c| ends(c) || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(s.to_owned())
    } else {
        Err(format!("`{s}` cannot be the strimzi.io/cluster label: a label value has at most 63 letters, digits, '-', '_' and '.', and starts and ends with a letter or digit"))
    }
}

/// `s` as a Kubernetes namespace (an RFC 1123 label: at most 63 lowercase
/// letters, digits and `-`, starting and ending with a letter or digit).
///
/// # Errors
///
/// A sentence naming `s` and the rule.
pub fn namespace(s: &str) -> Result<String, String> {
    let ends = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    let ok = !s.is_empty()
        && s.len() <= 63
        && s.chars().next().is_some_and(ends)
        && s.chars().last().is_some_and(ends)
        && s.chars().all(|c| ends(c) || c == '-');
    if ok {
        Ok(s.to_owned())
    } else {
        Err(format!("`{s}` is not a Kubernetes namespace: a namespace has at most 63 lowercase letters, digits and '-', and starts and ends with a letter or digit"))
    }
}

/// Strimzi's Kafka resource refuses `ssl.` options in `spec.kafka.config`
/// (`KafkaClusterSpec.FORBIDDEN_PREFIXES`; `ssl.principal.mapping.rules`
/// is not among its exceptions).
const NO_MAPPING_RULES: &str = "Strimzi's Kafka resource refuses ssl.* options in spec.kafka.config, so ssl.principal.mapping.rules cannot map that principal to another name";

/// [`export_with`] with the default options: `kafka.strimzi.io/v1`,
/// `strimzi.io/cluster: my-cluster`, no namespace.
pub fn export(store: &QuotaStore) -> Export {
    export_with(store, &ExportOptions::default())
}

/// Writes every user quota of `store` as a `KafkaUser` (one YAML document
/// each), with `options`' apiVersion (default [`DEFAULT_API_VERSION`]),
/// `strimzi.io/cluster` label (default [`DEFAULT_CLUSTER`], and the header
/// says to set it) and `metadata.namespace` (none by default). The values
/// are taken as they are: check them with [`api_version`],
/// [`cluster_label`] and [`namespace`].
///
/// A user `CN=<name>` (with a Kubernetes resource name after `CN=`) becomes
/// a `tls` user (`authentication: type: tls`, the only way Strimzi names a
/// user `CN=<name>`), with a note in [`Export::notes`]: Strimzi sets its
/// quotas on the principal `CN=<name>`, and its Kafka resource cannot set
/// the `ssl.principal.mapping.rules` that would map it to another name. Any other user whose name is a Kubernetes resource
/// name becomes a KafkaUser of that name without `spec.authentication`,
/// which is optional: Strimzi then applies the quotas to the user named by
/// `metadata.name` and creates no credentials, so nothing is assumed about
/// how the user logs in (writing `scram-sha-512` would make the operator
/// create SCRAM credentials and a Secret); a comment where the block would
/// be says to copy an existing KafkaUser's `spec.authentication` before
/// applying over it, since without it the operator removes the
/// credentials it manages; the header says the same of
/// `spec.authorization` (the ACLs) for every KafkaUser written. Everything
/// else is listed in [`Export::unexpressed`] and as comments at the top.
pub fn export_with(store: &QuotaStore, options: &ExportOptions) -> Export {
    let api = options
        .strimzi_api_version
        .as_deref()
        .unwrap_or(DEFAULT_API_VERSION);
    let cluster = options.strimzi_cluster.as_deref().unwrap_or(DEFAULT_CLUSTER);
    let namespace = options
        .strimzi_namespace
        .as_deref()
        .map_or(String::new(), |n| format!("  namespace: {}\n", yaml_string(n)));
    let mut unexpressed = Vec::new();
    let mut docs = Vec::new();
    let mut tls_users: Vec<String> = Vec::new();
    const NO_AUTHENTICATION: &str = "  # No spec.authentication: the quotas do not say how this user logs in. Before applying over an existing KafkaUser,\n  # copy its spec.authentication here: without it the User Operator removes the credentials it manages.\n";
    for (entity, values) in by_entity(store) {
        let why = match &entity {
            QuotaEntity::User(EntityName::Default) => Some("a KafkaUser always names one user, so the default user quota (users/<default>) has no KafkaUser form"),
            QuotaEntity::ClientId(_) => Some("a KafkaUser's quotas are per user, so client-id quotas have no KafkaUser form"),
            QuotaEntity::UserClientId { .. } => Some("a KafkaUser's quotas are per user, so (user, client-id) quotas have no KafkaUser form"),
            QuotaEntity::Ip(_) => Some("a KafkaUser has no ip connection-rate quotas"),
            QuotaEntity::User(EntityName::Named(_)) => None,
        };
        if let Some(why) = why {
            unexpressed.push(Unexpressed {
                entity,
                values,
                reason: why.to_owned(),
            });
            continue;
        }
        let QuotaEntity::User(EntityName::Named(user)) = &entity else {
            continue;
        };
        let (name, auth) = match user.strip_prefix("CN=") {
            Some(n) if is_resource_name(n) => (n.to_owned(), Some("tls")),
            _ if is_resource_name(user) => (user.clone(), None),
            _ => {
                // A certificate subject other than `CN=<resource name>`:
                // only mapping rules could give a tls user that principal.
                let dn = if user.contains('=') {
                    format!("; a tls user's principal is `CN=<name>`, and {NO_MAPPING_RULES}")
                } else {
                    String::new()
                };
                unexpressed.push(Unexpressed {
                    entity: entity.clone(),
                    values,
                    reason: format!("Strimzi names the Kafka user after the KafkaUser resource (`<name>` or `CN=<name>`), and `{user}` is not a Kubernetes resource name (lowercase letters, digits, '-' and '.'){dn}"),
                });
                continue;
            }
        };
        let mut lines = Vec::new();
        let mut left = Vec::new();
        for (key, value) in &values {
            let field = FIELDS.iter().find(|(_, k, _)| k == key).map(|(f, _, _)| *f);
            match (field, strimzi_value(*key, *value)) {
                (Some(f), Ok(v)) => lines.push(format!("    {f}: {v}")),
                (Some(_), Err(why)) => left.push(((*key, *value), why)),
                (None, _) => left.push((
                    (*key, *value),
                    format!("a KafkaUser has no field for {}", key.as_str()),
                )),
            }
        }
        // The User Operator sets every quota field of the user, a field
        // the KafkaUser leaves out to none (Strimzi's
        // `QuotaUtils.toClientQuotaAlterationOps`): applying this one
        // removes the values it cannot hold. Said where it happens.
        let removed: Vec<String> = left
            .iter()
            .map(|((key, value), _)| format!("{}={}", key.as_str(), quota_engine::java_double_to_string(*value)))
            .collect();
        let removes = if removed.is_empty() {
            String::new()
        } else {
            format!(
                "  # Applying this KafkaUser removes {} from users/{user}: the User Operator sets every quota field a KafkaUser leaves out to none.\n",
                removed.join(", ")
            )
        };
        for ((key, value), why) in left {
            unexpressed.push(Unexpressed {
                entity: entity.clone(),
                values: vec![(key, value)],
                reason: why,
            });
        }
        if lines.is_empty() {
            continue;
        }
        if auth.is_some() {
            tls_users.push(name.clone());
        }
        // The quotas alone say nothing of how the user logs in; a KafkaUser
        // applied without spec.authentication has no credentials the User
        // Operator manages, so say so where the block would be.
        let auth = auth.map_or(NO_AUTHENTICATION.to_owned(), |a| {
            format!("  authentication:\n    type: {a}\n")
        });
        docs.push(format!(
            "apiVersion: {api}\nkind: KafkaUser\nmetadata:\n  name: {}\n{namespace}  labels:\n    strimzi.io/cluster: {}\nspec:\n{auth}{removes}  quotas:\n{}\n",
            yaml_string(&name),
            yaml_string(cluster),
            lines.join("\n")
        ));
    }
    let mut notes = Vec::new();
    if !tls_users.is_empty() {
        let (them, principals) = if let [one] = tls_users.as_slice() {
            (format!("KafkaUser {one} has"), format!("the principal `CN={one}`"))
        } else {
            (
                format!("KafkaUsers {} have", tls_users.join(", ")),
                "the principal `CN=<name>`".to_owned(),
            )
        };
        notes.push(format!(
            "{them} authentication type tls: Strimzi sets the quotas on {principals} (the subject of the certificate the User Operator issues; with tls-external, of a certificate issued elsewhere with that subject), and {NO_MAPPING_RULES}."
        ));
    }
    if api != DEFAULT_API_VERSION {
        notes.push(format!(
            "apiVersion {api} is served by Strimzi before 1.0 only; Strimzi 1.0 and later serve KafkaUser only as {DEFAULT_API_VERSION}."
        ));
    }
    let mut text = String::from("# Strimzi KafkaUser resources written by kafka-quota");
    if options.strimzi_cluster.is_none() {
        text.push_str("; set strimzi.io/cluster to your Kafka cluster's name");
    }
    text.push_str(".\n# They hold quotas only: no spec.authorization. Before applying one over an existing KafkaUser, copy its spec.authorization\n# into it, or the User Operator removes the user's ACLs.\n");
    for n in &notes {
        text.push_str(&format!("# Note: {n}\n"));
    }
    for u in &unexpressed {
        text.push_str(&format!("# Not expressible in a KafkaUser: {u}\n"));
    }
    for d in docs {
        text.push_str("---\n");
        text.push_str(&d);
    }
    Export {
        text,
        unexpressed,
        notes,
    }
}

#[cfg(all(test, feature = "yaml"))]
mod tests {
    use super::*;

    fn store_of(text: &str) -> Result<QuotaStore, Error> {
        let import = parse(text)?;
        let mut s = QuotaStore::new();
        import.apply(&mut s)?;
        Ok(s)
    }

    const USER: &str = "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaUser\nmetadata:\n  name: my-user\nspec:\n  authentication:\n    type: scram-sha-512\n  quotas:\n    producerByteRate: 1048576\n    controllerMutationRate: 0.5\n";

    #[test]
    fn reads_user_quotas_by_authentication_type() {
        let s = store_of(USER).unwrap();
        let v = s.get(&QuotaEntity::user("my-user")).unwrap();
        assert_eq!(v[&QuotaKey::ProducerByteRate], 1048576.0);
        assert_eq!(v[&QuotaKey::ControllerMutationRate], 0.5);
        let tls = USER.replace("scram-sha-512", "tls-external");
        assert!(store_of(&tls)
            .unwrap()
            .get(&QuotaEntity::user("CN=my-user"))
            .is_some());
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = parse(&USER.replace("producerByteRate", "producer_byte_rate")).unwrap_err();
        assert_eq!(e.position, Position::new(9, 5));
        assert_eq!(e.to_string(), "Line 9, column 5: expected one of producerByteRate, consumerByteRate, requestPercentage, controllerMutationRate, but found `producer_byte_rate` (Kafka's key `producer_byte_rate` is spelled `producerByteRate` in a KafkaUser).");
        let e = parse(&USER.replace("1048576", "\"1048576\"")).unwrap_err();
        assert_eq!(e.position, Position::new(9, 23));
        assert!(e.to_string().contains("write it without quotes"), "{e}");
        let e = parse(&USER.replace("1048576", "1.5")).unwrap_err();
        assert!(e.to_string().contains("fractional"), "{e}");
        let e = parse(&USER.replace("v1beta2", "v2")).unwrap_err();
        assert_eq!(e.position, Position::new(1, 13));
        // A lone `\r` breaks a YAML line, not one of ours: positions count `\n`.
        let e = parse("a: 1\r\rb: 2\nc: [\n").unwrap_err();
        assert_eq!(e.position.line, 3, "{e}");
        let e = parse("a: [1,\n").unwrap_err();
        assert!(e.to_string().contains("expected well-formed YAML"), "{e}");
        let e = parse(&USER.replace("my-user", "{{ .Values.name }}")).unwrap_err();
        assert_eq!(e.position, Position::new(4, 9));
        assert!(e.to_string().starts_with("Line 4, column 9: the Helm/Go template placeholder {{ .Values.name }} stands in `name:`"), "{e}");
        let e = parse("  quotas:\n    producerByteRate: 1\n").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Unsupported { .. }));
        assert_eq!(e.position, Position::new(1, 3));
    }

    #[test]
    fn reads_kubectl_lists() {
        let list = format!(
            "apiVersion: v1\nkind: List\nitems:\n- {}\n",
            USER.replace("my-user", "u1")
                .trim_end()
                .replace('\n', "\n  ")
        );
        let s = store_of(&list).unwrap();
        assert_eq!(
            s.get(&QuotaEntity::user("u1")).unwrap()[&QuotaKey::ProducerByteRate],
            1048576.0
        );
    }

    #[test]
    fn callouts_and_attributes_are_noted() {
        let text = USER
            .replace("v1beta2", "v1")
            .replace(
                "apiVersion: kafka.strimzi.io/v1",
                "apiVersion: {KafkaUserApiVersion}",
            )
            .replace("1048576", "1048576 <1>");
        let import = parse(&text).unwrap();
        assert_eq!(
            import.quotas[0].values,
            [(QuotaKey::ProducerByteRate, 1048576.0)]
        );
        assert_eq!(import.notes.len(), 2, "{:?}", import.notes);
    }

    #[test]
    fn export_writes_v1_unless_asked_and_keeps_the_cluster_and_namespace() {
        let mut s = QuotaStore::new();
        s.set(
            &QuotaEntity::user("app"),
            QuotaKey::ProducerByteRate,
            1024.0,
        )
        .unwrap();
        // Strimzi 1.0 and later serve KafkaUser only as v1.
        let out = export(&s);
        assert!(
            out.text.contains("---\napiVersion: kafka.strimzi.io/v1\nkind: KafkaUser\nmetadata:\n  name: app\n  labels:\n    strimzi.io/cluster: my-cluster\n"),
            "{}",
            out.text
        );
        assert!(out.text.starts_with("# Strimzi KafkaUser resources written by kafka-quota; set strimzi.io/cluster to your Kafka cluster's name.\n"), "{}", out.text);
        assert_eq!(parse(&out.text).unwrap().quotas.len(), 1);
        // Asked for: the apiVersion, the cluster label and the namespace.
        let options = ExportOptions {
            strimzi_api_version: Some(api_version("v1beta2").unwrap().to_owned()),
            strimzi_cluster: Some("prod".to_owned()),
            strimzi_namespace: Some("kafka".to_owned()),
            ..ExportOptions::default()
        };
        let out = export_with(&s, &options);
        assert!(
            out.text.contains("---\napiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaUser\nmetadata:\n  name: app\n  namespace: kafka\n  labels:\n    strimzi.io/cluster: prod\n"),
            "{}",
            out.text
        );
        assert!(!out.text.contains("set strimzi.io/cluster"), "{}", out.text);
        assert_eq!(
            out.notes,
            ["apiVersion kafka.strimzi.io/v1beta2 is served by Strimzi before 1.0 only; Strimzi 1.0 and later serve KafkaUser only as kafka.strimzi.io/v1."]
        );
        // A Strimzi -> Strimzi round trip keeps them.
        let back = crate::detect::import(&out.text, crate::detect::Format::Strimzi).unwrap();
        assert_eq!(back.keep.strimzi_cluster.as_deref(), Some("prod"));
        assert_eq!(back.keep.strimzi_namespace.as_deref(), Some("kafka"));
        assert_eq!(back.keep.strimzi_api_version, None, "v1 unless asked");
        let again = export_with(&back.store, &back.keep);
        assert!(again.text.contains("apiVersion: kafka.strimzi.io/v1\nkind: KafkaUser\nmetadata:\n  name: app\n  namespace: kafka\n  labels:\n    strimzi.io/cluster: prod\n"), "{}", again.text);
        // Two KafkaUsers of different clusters: the first is kept, with a note.
        let two = format!("{}---\n{}", USER.replace("  name: my-user\n", "  name: a\n  labels:\n    strimzi.io/cluster: one\n"), USER.replace("  name: my-user\n", "  name: b\n  labels:\n    strimzi.io/cluster: two\n"));
        let import = parse(&two).unwrap();
        assert_eq!(import.keep.strimzi_cluster.as_deref(), Some("one"));
        assert!(import.notes.iter().any(|(p, n)| p.line == 19 && n == "KafkaUser b has the strimzi.io/cluster label `two`, an earlier KafkaUser `one`: an export writes every KafkaUser with `one`."), "{:?}", import.notes);
        // A value Kubernetes refuses is not kept.
        let bad = USER.replace("  name: my-user\n", "  name: a\n  namespace: Prod\n");
        let import = parse(&bad).unwrap();
        assert_eq!(import.keep.strimzi_namespace, None);
        assert!(import.notes.iter().any(|(p, n)| p.line == 5 && n.starts_with("KafkaUser a: `Prod` is not a Kubernetes namespace") && n.ends_with("; an export does not keep it.")), "{:?}", import.notes);
        // What the options accept, and why not.
        assert_eq!(api_version("kafka.strimzi.io/v1"), Ok("kafka.strimzi.io/v1"));
        assert_eq!(api_version("v2").unwrap_err(), "`v2` is not an apiVersion Strimzi serves KafkaUser under: kafka.strimzi.io/v1alpha1, kafka.strimzi.io/v1beta1, kafka.strimzi.io/v1beta2, kafka.strimzi.io/v1 (Strimzi 1.0 and later serve only kafka.strimzi.io/v1)");
        assert!(cluster_label("My_Cluster.1").is_ok());
        assert!(cluster_label("-x").unwrap_err().starts_with("`-x` cannot be the strimzi.io/cluster label"));
        assert!(namespace("Kafka").unwrap_err().starts_with("`Kafka` is not a Kubernetes namespace"));
    }

    #[test]
    fn export_says_where_strimzi_puts_a_tls_users_quotas() {
        let mut s = QuotaStore::new();
        s.set(&QuotaEntity::user("CN=bob"), QuotaKey::ProducerByteRate, 1024.0).unwrap();
        let out = export(&s);
        let note = "KafkaUser bob has authentication type tls: Strimzi sets the quotas on the principal `CN=bob` (the subject of the certificate the User Operator issues; with tls-external, of a certificate issued elsewhere with that subject), and Strimzi's Kafka resource refuses ssl.* options in spec.kafka.config, so ssl.principal.mapping.rules cannot map that principal to another name.";
        assert_eq!(out.notes, [note]);
        assert!(out.text.contains(&format!("# Note: {note}\n")), "{}", out.text);
        // A certificate subject Strimzi cannot give a tls user.
        s.set(&QuotaEntity::user("CN=app,OU=eng"), QuotaKey::ProducerByteRate, 1024.0).unwrap();
        let out = export(&s);
        assert_eq!(out.unexpressed.len(), 1);
        assert!(out.unexpressed[0].reason.ends_with("; a tls user's principal is `CN=<name>`, and Strimzi's Kafka resource refuses ssl.* options in spec.kafka.config, so ssl.principal.mapping.rules cannot map that principal to another name"), "{}", out.unexpressed[0].reason);
        // No tls user, no note.
        let mut plain = QuotaStore::new();
        plain.set(&QuotaEntity::user("alice"), QuotaKey::ProducerByteRate, 1024.0).unwrap();
        assert!(export(&plain).notes.is_empty());
    }

    #[test]
    fn export_invents_no_authentication_for_plain_users() {
        let mut s = QuotaStore::new();
        s.set(
            &QuotaEntity::user("alice"),
            QuotaKey::ProducerByteRate,
            1024.0,
        )
        .unwrap();
        s.set(
            &QuotaEntity::user("CN=bob"),
            QuotaKey::ConsumerByteRate,
            2048.0,
        )
        .unwrap();
        let out = export(&s);
        assert!(out.unexpressed.is_empty(), "{:?}", out.unexpressed);
        assert!(!out.text.contains("scram"), "{}", out.text);
        // alice: a KafkaUser named alice with no authentication block, and
        // the comment saying to copy an existing user's.
        let alice = "---\napiVersion: kafka.strimzi.io/v1\nkind: KafkaUser\nmetadata:\n  name: alice\n  labels:\n    strimzi.io/cluster: my-cluster\nspec:\n  # No spec.authentication: the quotas do not say how this user logs in. Before applying over an existing KafkaUser,\n  # copy its spec.authentication here: without it the User Operator removes the credentials it manages.\n  quotas:\n    producerByteRate: 1024\n";
        assert!(out.text.contains(alice), "{}", out.text);
        assert_eq!(out.text.matches("# No spec.authentication").count(), 1, "only alice: {}", out.text);
        // The ACLs, for every KafkaUser, in the header.
        assert!(out.text.starts_with("# Strimzi KafkaUser resources written by kafka-quota; set strimzi.io/cluster to your Kafka cluster's name.\n# They hold quotas only: no spec.authorization."), "{}", out.text);
        // CN=bob: a tls user named bob.
        assert!(
            out.text.contains("  name: bob\n  labels:\n    strimzi.io/cluster: my-cluster\nspec:\n  authentication:\n    type: tls\n  quotas:\n    consumerByteRate: 2048\n"),
            "{}",
            out.text
        );
        // Both read back as the same users; the user without authentication with a note.
        let import = parse(&out.text).unwrap();
        let mut back = QuotaStore::new();
        import.apply(&mut back).unwrap();
        assert_eq!(back, s);
        assert!(
            import
                .notes
                .iter()
                .any(|(_, n)| n.contains("KafkaUser alice has no spec.authentication")),
            "{:?}",
            import.notes
        );
    }

    #[test]
    fn export_lists_what_strimzi_cannot_express() {
        let mut s = QuotaStore::new();
        s.set(
            &QuotaEntity::user("CN=app"),
            QuotaKey::ConsumerByteRate,
            2048.0,
        )
        .unwrap();
        s.set(
            &QuotaEntity::user("Bob_1"),
            QuotaKey::ConsumerByteRate,
            2048.0,
        )
        .unwrap();
        s.set(
            &QuotaEntity::client_id("c"),
            QuotaKey::ConsumerByteRate,
            2048.0,
        )
        .unwrap();
        s.set(
            &QuotaEntity::User(EntityName::Default),
            QuotaKey::ProducerByteRate,
            1.0,
        )
        .unwrap();
        s.set(&QuotaEntity::user("big"), QuotaKey::ProducerByteRate, 3e9)
            .unwrap();
        let out = export(&s);
        assert_eq!(out.unexpressed.len(), 4, "{:#?}", out.unexpressed);
        assert!(
            out.text
                .contains("# Not expressible in a KafkaUser: users/<default>"),
            "{}",
            out.text
        );
        let back = store_of(&out.text).unwrap();
        assert_eq!(back.entries().count(), 1);
        assert_eq!(
            back.get(&QuotaEntity::user("CN=app")),
            s.get(&QuotaEntity::user("CN=app"))
        );
    }

    #[test]
    fn a_kafkauser_missing_a_value_says_applying_it_removes_that_value() {
        let mut s = QuotaStore::new();
        s.set(&QuotaEntity::user("alice"), QuotaKey::ProducerByteRate, 1000.0).unwrap();
        s.set(&QuotaEntity::user("alice"), QuotaKey::RequestPercentage, 25.5).unwrap();
        let out = export(&s);
        assert_eq!(out.unexpressed.len(), 1);
        assert!(
            out.text.contains("  # Applying this KafkaUser removes request_percentage=25.5 from users/alice: the User Operator sets every quota field a KafkaUser leaves out to none.\n  quotas:\n    producerByteRate: 1000\n"),
            "{}",
            out.text
        );
    }
}
