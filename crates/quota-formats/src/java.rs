//! Admin API Java code: the quotas of a store as a program that sets them
//! with `alterClientQuotas` and reads them back with a `ClientQuotaFilter`,
//! in the form the lab article compiled against kafka-clients 4.3.1.
//!
//! The API (KIP-546, Kafka 2.6+; `clients/src/main/java/org/apache/kafka/common/quota/`):
//! an entity is a `ClientQuotaEntity` built from a `Map<String, String>`
//! of `ClientQuotaEntity.USER` / `CLIENT_ID` / `IP` to a name, where a
//! `null` name is the default entity (so the map is a `HashMap`: `Map.of`
//! refuses nulls); `alterClientQuotas(Collection<ClientQuotaAlteration>)`
//! takes entity + `List<ClientQuotaAlteration.Op>` pairs, an `Op` with a
//! `null` value removes the key; `describeClientQuotas(ClientQuotaFilter)`
//! returns a result whose `entities()` future gives
//! `Map<ClientQuotaEntity, Map<String, Double>>`.
//!
//! [`export`] writes the program; [`parse`] reads back the statements such
//! a program (or the lab's snippet) uses: `m.put(ClientQuotaEntity.USER,
//! "alice")`, `new ClientQuotaEntity(m)`, `List.of(new
//! ClientQuotaAlteration.Op("producer_byte_rate", 2_000_000.0), ...)`,
//! `ops.add(...)` and `new ClientQuotaAlteration(entity, ops)`. It does not
//! run Java: a value computed at run time is refused by name.

use std::collections::BTreeMap;

use quota_engine::store::validate::{config_keys_for_entity_type, validate_entity, validate_quota_key_value, EntityMap};
use quota_engine::{
    java_double_to_string, Alteration, ApiError, EntityName, EntityType, Op, QuotaEntity, QuotaKey, QuotaStore, RawEntity,
};

use quota_engine::jdk::double::parse_double;
use crate::error::{position_of, Error, ErrorKind, Position};
use crate::interchange::{by_entity, DescribedQuota, Export, QuotaImport};

/// A Java string literal for `s`.
/// `v` as a Java source literal of type `double`: `2000000.0`, or
/// `Double.NaN`, `Double.POSITIVE_INFINITY`, `Double.NEGATIVE_INFINITY` (the
/// printed `NaN` and `Infinity` of `Double.toString` are not literals).
fn java_double_literal(v: f64) -> String {
    if v.is_nan() {
        "Double.NaN".to_owned()
    } else if v == f64::INFINITY {
        "Double.POSITIVE_INFINITY".to_owned()
    } else if v == f64::NEG_INFINITY {
        "Double.NEGATIVE_INFINITY".to_owned()
    } else {
        java_double_to_string(v)
    }
}

fn java_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn type_constant(t: EntityType) -> &'static str {
    match t {
        EntityType::User => "ClientQuotaEntity.USER",
        EntityType::ClientId => "ClientQuotaEntity.CLIENT_ID",
        EntityType::Ip => "ClientQuotaEntity.IP",
    }
}

/// A Java program (class `ApplyQuotas`, bootstrap servers as the first
/// argument, default `localhost:9092`) that sets every quota of `store` in
/// one `alterClientQuotas` call and then describes each entity with a
/// `ClientQuotaFilter.containsOnly` filter (`ofEntity`, or
/// `ofDefaultEntity` for a default part), printing what the broker holds.
///
/// Every quota is expressible, so [`Export::unexpressed`] is empty.
pub fn export(store: &QuotaStore) -> Export {
    let mut alter = String::new();
    let mut describe = String::new();
    for (i, (entity, values)) in by_entity(store).into_iter().enumerate() {
        let n = i + 1;
        alter.push_str(&format!(
            "\n            // {}\n",
            entity.path().replace(['\n', '\r'], " ")
        ));
        alter.push_str(&format!(
            "            Map<String, String> entity{n} = new HashMap<>();\n"
        ));
        let mut components = Vec::new();
        for (t, name) in entity.parts() {
            match name {
                EntityName::Named(s) => {
                    alter.push_str(&format!(
                        "            entity{n}.put({}, {});\n",
                        type_constant(t),
                        java_string(s)
                    ));
                    components.push(format!(
                        "ClientQuotaFilterComponent.ofEntity({}, {})",
                        type_constant(t),
                        java_string(s)
                    ));
                }
                EntityName::Default => {
                    alter.push_str(&format!(
                        "            entity{n}.put({}, null); // null = the default {}\n",
                        type_constant(t),
                        t.as_str()
                    ));
                    components.push(format!(
                        "ClientQuotaFilterComponent.ofDefaultEntity({})",
                        type_constant(t)
                    ));
                }
            }
        }
        let ops: Vec<String> = values
            .iter()
            .map(|(k, v)| {
                format!(
                    "                new ClientQuotaAlteration.Op(\"{}\", {})",
                    k.as_str(),
                    java_double_literal(*v)
                )
            })
            .collect();
        alter.push_str(&format!(
            "            alterations.add(new ClientQuotaAlteration(new ClientQuotaEntity(entity{n}), List.of(\n{})));\n",
            ops.join(",\n")
        ));
        describe.push_str(&format!(
            "            filters.add(ClientQuotaFilter.containsOnly(List.of(\n                {})));\n",
            components.join(",\n                ")
        ));
    }
    let text = format!(
        r#"// Admin API code written by kafka-quota for kafka-clients 2.6 or later (KIP-546; the form the lab compiled against 4.3.1).
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;

public class ApplyQuotas {{
    public static void main(String[] args) throws Exception {{
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args.length > 0 ? args[0] : "localhost:9092");
        try (Admin admin = Admin.create(props)) {{
            List<ClientQuotaAlteration> alterations = new ArrayList<>();
{alter}
            admin.alterClientQuotas(alterations).all().get();

            List<ClientQuotaFilter> filters = new ArrayList<>();
{describe}
            for (ClientQuotaFilter filter : filters) {{
                Map<ClientQuotaEntity, Map<String, Double>> described =
                    admin.describeClientQuotas(filter).entities().get();
                System.out.println(described);
            }}
        }}
    }}
}}
"#
    );
    Export {
        text,
        unexpressed: Vec::new(),
        notes: Vec::new(),
    }
}

/// One statement of Java source: its text with comments removed, and
/// where it starts.
struct Statement {
    text: String,
    start: usize,
}

/// Splits Java source into `;`-terminated statements (also at `{` and
/// `}`), dropping comments and keeping string and char literals whole.
fn statements(src: &str) -> Vec<Statement> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut start = None;
    let b = src.as_bytes();
    let mut i = 0;
    let mut flush = |cur: &mut String, start: &mut Option<usize>| {
        if !cur.trim().is_empty() {
            out.push(Statement {
                text: cur.trim().to_owned(),
                start: start.unwrap_or(0),
            });
        }
        cur.clear();
        *start = None;
    };
    while i < b.len() {
        let c = b[i];
        // Comments become one space per byte, so offsets stay exact.
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                cur.push(' ');
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let end = src[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            for &x in &b[i..end] {
                cur.push(if x == b'\n' { '\n' } else { ' ' });
            }
            i = end;
            continue;
        }
        if c == b'"' || c == b'\'' {
            let q = c;
            let s = i;
            i += 1;
            while i < b.len() && b[i] != q && b[i] != b'\n' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(b.len());
            start.get_or_insert(s);
            cur.push_str(&src[s..i.min(src.len())]);
            continue;
        }
        if c == b';' || c == b'{' || c == b'}' {
            flush(&mut cur, &mut start);
            i += 1;
            continue;
        }
        if !c.is_ascii_whitespace() {
            start.get_or_insert(i);
        }
        let ch_len = src[i..].chars().next().map_or(1, char::len_utf8);
        cur.push_str(&src[i..i + ch_len]);
        i += ch_len;
    }
    flush(&mut cur, &mut start);
    out
}

/// Where a left-to-right scan stands relative to Java string and char
/// literals, so that brackets and commas inside them are not counted.
#[derive(Default)]
struct Literal {
    /// The quote of the literal being read (`"` or `'`), if any.
    quote: Option<char>,
    /// The previous character was a backslash inside the literal.
    escaped: bool,
}

impl Literal {
    /// Feeds the next character; true when it belongs to a literal
    /// (its quotes included).
    fn holds(&mut self, c: char) -> bool {
        match self.quote {
            Some(q) => {
                if self.escaped {
                    self.escaped = false;
                } else if c == '\\' {
                    self.escaped = true;
                } else if c == q {
                    self.quote = None;
                }
                true
            }
            None if c == '"' || c == '\'' => {
                self.quote = Some(c);
                true
            }
            None => false,
        }
    }
}

/// The text between the parenthesis after `open` (which ends with `(`)
/// and its match, and the offset after the match.
fn call_args<'a>(s: &'a str, open: &str) -> Option<(&'a str, usize, usize)> {
    let at = s.find(open)?;
    let from = at + open.len();
    let mut depth = 1;
    let mut literal = Literal::default();
    for (i, c) in s[from..].char_indices() {
        if literal.holds(c) {
            continue;
        }
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some((&s[from..from + i], at, from + i + 1));
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits call arguments at top-level commas.
fn split_args(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut literal = Literal::default();
    let mut last = 0;
    for (i, c) in s.char_indices() {
        if literal.holds(c) {
            continue;
        }
        match c {
            '(' | '<' | '[' => depth += 1,
            ')' | '>' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[last..i].trim());
                last = i + 1;
            }
            _ => {}
        }
    }
    if !s[last..].trim().is_empty() {
        out.push(s[last..].trim());
    }
    out
}

/// Decodes a Java string literal (with its quotes); `None` if `s` is not one.
fn string_literal(s: &str) -> Option<String> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            's' => out.push(' '),
            '0' => out.push('\0'),
            'u' => {
                let hex: String = chars.by_ref().take(4).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            c => out.push(c),
        }
    }
    Some(out)
}

/// One entity as the program builds it: (type, name) pairs in `put`
/// order, as strings (a type Kafka does not know is kept for Kafka's
/// validation to name); `None` = the default entity (a `null` name).
type Pairs = Vec<(String, Option<String>)>;

/// One `ClientQuotaAlteration.Op`: the key as written, the value (`None`
/// for `null`, a removal) and the byte offset of the `Op(` call.
type OpAt = (String, Option<f64>, usize);

/// What a Java expression stands for, as far as [`parse`] follows it.
#[derive(Clone)]
enum Value {
    Map(Pairs),
    Entity(Pairs),
    Ops(Vec<OpAt>),
}

/// The wire name of an entity type expression: a `ClientQuotaEntity`
/// constant (`USER` = `"user"`, `CLIENT_ID` = `"client-id"`, `IP` =
/// `"ip"`), or any string literal as written (an unknown one is Kafka's to
/// refuse); `None` for anything else.
fn entity_type(s: &str) -> Option<String> {
    match s.trim() {
        "ClientQuotaEntity.USER" => Some(EntityType::User.as_str().to_owned()),
        "ClientQuotaEntity.CLIENT_ID" => Some(EntityType::ClientId.as_str().to_owned()),
        "ClientQuotaEntity.IP" => Some(EntityType::Ip.as_str().to_owned()),
        other => string_literal(other),
    }
}

/// Kafka's verdict on one alteration, as `ClientQuotaControlManager`
/// gives it (the engine's [`QuotaStore::plan`] on an empty store: the
/// duplicate-key check of `alterClientQuotas`, then `validateEntity`,
/// `configKeysForEntityType` and `validateQuotaKeyValue` for each op in
/// `HashMap` order), with the byte offset it points at: the failing op for
/// an op's error, else the alteration.
///
/// On success, the entity and the ops that set a value, with their offsets.
///
/// Kafka: `metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java`.
#[allow(clippy::type_complexity)]
fn kafka_verdict(pairs: &Pairs, ops: &[OpAt], at: usize) -> Result<(QuotaEntity, Vec<(QuotaKey, Option<f64>, usize)>), (ApiError, usize)> {
    let alteration = Alteration {
        entity: RawEntity(pairs.clone()),
        ops: ops
            .iter()
            .map(|(k, v, _)| Op {
                key: k.clone(),
                value: *v,
            })
            .collect(),
    };
    let plan = QuotaStore::new().plan(std::slice::from_ref(&alteration));
    if let Some(e) = plan.results.into_iter().find_map(|r| r.error) {
        // An op's own error points at that op; the entity's at the alteration.
        let wire = EntityMap::from_wire(&alteration.entity);
        let keys = validate_entity(&wire).and_then(|v| config_keys_for_entity_type(&v));
        let op_at = keys.ok().and_then(|keys| {
            ops.iter().find_map(|(k, v, pos)| {
                v.and_then(|v| validate_quota_key_value(keys, k, v).err())
                    .filter(|op_error| *op_error == e)
                    .map(|_| *pos)
            })
        });
        return Err((e, op_at.unwrap_or(at)));
    }
    let entity = validate_entity(&EntityMap::from_wire(&alteration.entity))
        .ok()
        .and_then(|v| v.to_quota_entity())
        .ok_or_else(|| {
            // Unreachable: Kafka accepted the entity, so it has one of the four shapes.
            (ApiError::invalid_request("Invalid empty client quota entity"), at)
        })?;
    let mut out = Vec::new();
    for (k, v, pos) in ops {
        // A removal of a key Kafka does not know is accepted (and does nothing).
        if let Some(key) = QuotaKey::from_name(k) {
            out.push((key, *v, *pos));
        } else if v.is_some() {
            return Err((ApiError::invalid_request(format!("Invalid configuration key {k}")), *pos));
        }
    }
    Ok((entity, out))
}

struct Reader<'t> {
    text: &'t str,
    vars: BTreeMap<String, Value>,
}

impl Reader<'_> {
    fn unresolved(&self, at: usize, expr: &str, context: &str) -> Error {
        Error::new(
            position_of(self.text, at),
            ErrorKind::Unresolved {
                kind: "Java expression",
                names: vec![format!("`{expr}`")],
                context: context.to_owned(),
                hint: "write the literal value (kafka-quota reads Java, it does not run it)",
            },
        )
    }

    fn name(&self, at: usize, expr: &str) -> Result<Option<String>, Error> {
        if expr == "null" {
            return Ok(None);
        }
        string_literal(expr)
            .map(Some)
            .ok_or_else(|| self.unresolved(at, expr, "an entity name"))
    }

    /// `new ClientQuotaAlteration.Op("key", value)` calls in `s`. The key
    /// is kept as written: Kafka names a key it does not know
    /// ([`kafka_verdict`]).
    fn ops(&self, s: &str, at: usize) -> Result<Vec<OpAt>, Error> {
        let mut out = Vec::new();
        let mut rest = s;
        let mut offset = 0;
        while let Some((args, start, end)) = call_args(rest, "ClientQuotaAlteration.Op(") {
            let pos = at + offset + start;
            let parts = split_args(args);
            let [key, value] = parts.as_slice() else {
                return Err(Error::syntax(
                    position_of(self.text, pos),
                    "two arguments to ClientQuotaAlteration.Op: the key and the value",
                    format!("`{args}`"),
                ));
            };
            let key_name =
                string_literal(key).ok_or_else(|| self.unresolved(pos, key, "a quota key"))?;
            let v = if *value == "null" {
                None
            } else {
                let literal = value.trim_start_matches("(double)").trim().replace('_', "");
                let literal = literal.trim_end_matches(['L', 'l']);
                // The Double constants the writer uses for values Kafka accepts.
                let constant = match value.trim_start_matches("(double)").trim() {
                    "Double.NaN" => Some(f64::NAN),
                    "Double.POSITIVE_INFINITY" => Some(f64::INFINITY),
                    "Double.NEGATIVE_INFINITY" => Some(f64::NEG_INFINITY),
                    _ => None,
                };
                Some(
                    constant
                        .or_else(|| parse_double(literal).filter(|x| x.is_finite()))
                        .ok_or_else(|| {
                            self.unresolved(pos, value, &format!("the value of {key_name}"))
                        })?,
                )
            };
            out.push((key_name, v, pos));
            offset += end;
            rest = &rest[end..];
        }
        Ok(out)
    }

    /// The entity an expression denotes: a variable, `new
    /// ClientQuotaEntity(map)`, `new ClientQuotaEntity(Map.of(...))` or
    /// `new ClientQuotaEntity(Collections.singletonMap(...))`.
    ///
    /// `Map.of` fails in Java before Kafka sees the entity, as the JDK's
    /// `ImmutableCollections` do: a `null` name throws
    /// `NullPointerException` (the default entity needs a `HashMap` or
    /// `singletonMap`), a repeated type `IllegalArgumentException:
    /// duplicate key: <type>`.
    fn entity(&self, expr: &str, at: usize) -> Result<Pairs, Error> {
        let expr = expr.trim();
        if let Some(Value::Entity(e)) = self.vars.get(expr) {
            return Ok(e.clone());
        }
        if let Some((inner, _, _)) = call_args(expr, "new ClientQuotaEntity(") {
            let inner = inner.trim();
            if let Some(Value::Map(m)) = self.vars.get(inner) {
                return Ok(m.clone());
            }
            for open in ["Map.of(", "Collections.singletonMap("] {
                if let Some((args, _, _)) = call_args(inner, open) {
                    let parts = split_args(args);
                    let mut m: Pairs = Vec::new();
                    for pair in parts.chunks(2) {
                        let [t, n] = pair else {
                            return Err(self.unresolved(at, inner, "the entity map"));
                        };
                        let t = entity_type(t)
                            .ok_or_else(|| self.unresolved(at, t, "an entity type"))?;
                        let n = self.name(at, n)?;
                        if open == "Map.of(" {
                            if n.is_none() {
                                return Err(self.java_throws(
                                    at,
                                    "java.lang.NullPointerException",
                                    &format!("Map.of refuses the null name of {t}"),
                                    "for the default entity put null into a HashMap (m.put(ClientQuotaEntity.USER, null)) or use Collections.singletonMap",
                                ));
                            }
                            if m.iter().any(|(seen, _)| *seen == t) {
                                return Err(self.java_throws(
                                    at,
                                    &format!("java.lang.IllegalArgumentException: duplicate key: {t}"),
                                    &format!("Map.of refuses {t} twice"),
                                    "give each entity type once",
                                ));
                            }
                        }
                        m.push((t, n));
                    }
                    return Ok(m);
                }
            }
            return Err(self.unresolved(at, inner, "the ClientQuotaEntity"));
        }
        Err(self.unresolved(at, expr, "the ClientQuotaEntity"))
    }

    /// Java itself fails at `at` with `exception` (as `toString()` prints
    /// it) before any request is sent.
    fn java_throws(&self, at: usize, exception: &str, what: &str, fix: &str) -> Error {
        Error::new(
            position_of(self.text, at),
            ErrorKind::Invalid {
                message: format!("{what}: Java throws {exception} before the Admin client sends anything; {fix}."),
            },
        )
    }

    fn op_list(&self, expr: &str, at: usize) -> Result<Vec<OpAt>, Error> {
        let expr = expr.trim();
        if let Some(Value::Ops(o)) = self.vars.get(expr) {
            return Ok(o.clone());
        }
        if expr.contains("ClientQuotaAlteration.Op(") {
            return self.ops(expr, at);
        }
        Err(self.unresolved(at, expr, "the list of ClientQuotaAlteration.Op"))
    }
}

/// The byte offset of `inner` (a subslice) within `outer`.
fn offset_in(outer: &str, inner: &str) -> usize {
    (inner.as_ptr() as usize).saturating_sub(outer.as_ptr() as usize)
}

/// The variable a statement declares or assigns (`Type name = ...`).
fn assigned(stmt: &str) -> Option<(&str, &str)> {
    let (lhs, rhs) = stmt.split_once('=')?;
    if rhs.starts_with('=') || lhs.ends_with(['!', '<', '>']) {
        return None;
    }
    let name = lhs.split_whitespace().last()?;
    name.chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        .then_some((name, rhs.trim()))
}

/// Reads the quotas a Java program sets through `alterClientQuotas`.
///
/// Follows variables holding entity maps (`m.put(ClientQuotaEntity.USER,
/// "alice")`, a `null` name = default), entities and op lists, and every
/// `new ClientQuotaAlteration(entity, ops)`. Ops with a `null` value
/// (removals) are noted, not imported.
///
/// Each alteration is checked as Kafka's controller checks it, and one
/// it refuses is refused with Kafka's error code and words
/// ([`ErrorKind::Rejected`], [`Error::api_error`]), e.g. `Line 3, column
/// 33: Kafka would reject this quota (INVALID_REQUEST: Invalid empty client
/// quota entity)`: an empty entity, an unknown entity type (`Unhandled
/// client quota entity type: group`), an ip with a user or client-id
/// (`Invalid quota entity combination, IP entity shouldnot be combined with
/// User or ClientId`), an empty name, an ip that is no address, an unknown
/// key (`Invalid configuration key ...`, at its `Op`), a value Kafka
/// refuses (at its `Op`), a key given twice (`Ignoring duplicate entity
/// ...`). The words are the engine's ([`quota_engine::store::validate`],
/// [`QuotaStore::plan`]), taken from
/// `metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java`.
///
/// # Errors
///
/// A name, key or value that is not a literal ([`ErrorKind::Unresolved`]),
/// an alteration Kafka refuses ([`ErrorKind::Rejected`]), a `Map.of` Java
/// itself would throw on (a `null` name, a type twice:
/// [`ErrorKind::Invalid`]), a malformed call ([`ErrorKind::Syntax`]), or a
/// text without any `ClientQuotaAlteration`; each with line and column.
///
/// # Example
///
/// ```
/// let lab = r#"Map<String, String> who = new HashMap<>();
/// who.put(ClientQuotaEntity.USER, "tenantUserA");
/// ClientQuotaEntity user = new ClientQuotaEntity(who);
/// List<ClientQuotaAlteration.Op> ops = List.of(
///     new ClientQuotaAlteration.Op("producer_byte_rate", 2_000_000.0));
/// admin.alterClientQuotas(List.of(new ClientQuotaAlteration(user, ops))).all().get();"#;
/// let import = quota_formats::java::parse(lab)?;
/// assert_eq!(import.quotas[0].entity.path(), "users/tenantUserA");
/// assert_eq!(import.quotas[0].position.line, 5);
/// # Ok::<(), quota_formats::Error>(())
/// ```
pub fn parse(text: &str) -> Result<QuotaImport, Error> {
    let mut r = Reader {
        text,
        vars: BTreeMap::new(),
    };
    let mut out = QuotaImport::default();
    let mut alterations = 0u32;
    for st in statements(text) {
        let s = st.text.as_str();
        // m.put(TYPE, NAME)
        if let Some((args, start, _)) = call_args(s, ".put(") {
            let var = s[..start].trim();
            if let Some(Value::Map(_)) = r.vars.get(var) {
                let parts = split_args(args);
                if let [t, n] = parts.as_slice() {
                    let t = entity_type(t)
                        .ok_or_else(|| r.unresolved(st.start, t, "an entity type"))?;
                    let n = r.name(st.start, n)?;
                    if let Some(Value::Map(m)) = r.vars.get_mut(var) {
                        m.push((t, n));
                    }
                }
                continue;
            }
        }
        // ops.add(new ClientQuotaAlteration.Op(...))
        if let Some((args, start, _)) = call_args(s, ".add(") {
            let var = s[..start].trim();
            if let Some(Value::Ops(_)) = r.vars.get(var) {
                let more = r.ops(args, st.start + offset_in(s, args))?;
                if let Some(Value::Ops(o)) = r.vars.get_mut(var) {
                    o.extend(more);
                }
                continue;
            }
        }
        if s.contains("new ClientQuotaAlteration(") {
            let mut rest = s;
            let mut offset = 0;
            while let Some((args, start, end)) = call_args(rest, "new ClientQuotaAlteration(") {
                let at = st.start + offset + start;
                let parts = split_args(args);
                let [entity, ops] = parts.as_slice() else {
                    return Err(Error::syntax(
                        position_of(text, at),
                        "two arguments to ClientQuotaAlteration: the entity and the ops",
                        format!("`{args}`"),
                    ));
                };
                let parts = r.entity(entity, at)?;
                let ops = r.op_list(ops, st.start + offset_in(s, ops))?;
                // Kafka's words for a refused alteration, at the op or the alteration.
                let (entity, ops) = kafka_verdict(&parts, &ops, at)
                    .map_err(|(e, pos)| Error::rejected(position_of(text, pos), e))?;
                for (key, value, pos) in ops {
                    match value {
                        Some(v) => out.quotas.push(DescribedQuota {
                            entity: entity.clone(),
                            values: vec![(key, v)],
                            position: position_of(text, pos),
                        }),
                        None => out.notes.push((
                            position_of(text, pos),
                            format!(
                                "Skipped the removal of {} from {} (an Op with a null value).",
                                key.as_str(),
                                entity.path()
                            ),
                        )),
                    }
                }
                alterations += 1;
                offset += end;
                rest = &rest[end..];
            }
            continue;
        }
        if let Some((var, rhs)) = assigned(s) {
            if rhs.starts_with("new HashMap") || rhs.starts_with("new java.util.HashMap") {
                r.vars.insert(var.to_owned(), Value::Map(Vec::new()));
            } else if rhs.contains("new ClientQuotaEntity(") {
                let e = r.entity(rhs, st.start)?;
                r.vars.insert(var.to_owned(), Value::Entity(e));
            } else if rhs.contains("ClientQuotaAlteration.Op(") {
                let rhs_at = st.start + offset_in(s, rhs);
                let o = r.ops(rhs, rhs_at)?;
                r.vars.insert(var.to_owned(), Value::Ops(o));
            } else if rhs.starts_with("new ArrayList") && s.contains("ClientQuotaAlteration.Op") {
                r.vars.insert(var.to_owned(), Value::Ops(Vec::new()));
            }
        }
    }
    if alterations == 0 {
        return Err(Error::syntax(
            Position::new(1, 1),
            "Java code that builds `new ClientQuotaAlteration(entity, ops)` for alterClientQuotas",
            "no ClientQuotaAlteration",
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn nan_and_infinity_are_written_as_double_constants_and_read_back() {
        assert_eq!(java_double_literal(f64::NAN), "Double.NaN");
        assert_eq!(java_double_literal(f64::INFINITY), "Double.POSITIVE_INFINITY");
        assert_eq!(java_double_literal(2e6), "2000000.0");
        let mut store = quota_engine::store::QuotaStore::new();
        crate::configs_sh::run_script(
            "kafka-configs.sh --bootstrap-server b:9092 --alter --entity-type users --entity-name a --add-config producer_byte_rate=NaN,request_percentage=Infinity",
            crate::configs_sh::Mode::Strict,
            &mut store,
        );
        let code = export(&store).text;
        assert!(code.contains(r#"new ClientQuotaAlteration.Op("producer_byte_rate", Double.NaN)"#), "{code}");
        assert!(code.contains(r#"new ClientQuotaAlteration.Op("request_percentage", Double.POSITIVE_INFINITY)"#), "{code}");
        assert!(!code.contains(", NaN)") && !code.contains(", Infinity)"), "{code}");
        // The reader takes the constants back.
        let back = parse(&code).unwrap();
        assert!(format!("{back:?}").contains("NaN"), "{back:?}");
    }

    use super::*;

    #[test]
    fn export_reads_back_with_defaults_and_escapes() {
        let mut s = QuotaStore::new();
        s.set(
            &QuotaEntity::user("tenant \"a\"\\ \u{1}"),
            QuotaKey::ProducerByteRate,
            2e6,
        )
        .unwrap();
        let pair = QuotaEntity::UserClientId {
            user: EntityName::Default,
            client_id: EntityName::Named("app".into()),
        };
        s.set(&pair, QuotaKey::RequestPercentage, 0.25).unwrap();
        let out = export(&s);
        assert!(
            out.text
                .contains("entity2.put(ClientQuotaEntity.USER, null); // null = the default user"),
            "{}",
            out.text
        );
        assert!(out
            .text
            .contains("admin.alterClientQuotas(alterations).all().get();"));
        assert!(out
            .text
            .contains("ClientQuotaFilterComponent.ofDefaultEntity(ClientQuotaEntity.USER)"));
        let back = parse(&out.text).unwrap();
        let mut b = QuotaStore::new();
        back.apply(&mut b).unwrap();
        assert_eq!(b, s);
    }

    /// One alteration of `entity_map` (a Java expression for the map) with
    /// `ops` (the `Op` calls), on line 3 of a program.
    fn alteration(setup: &str, entity_map: &str, ops: &str) -> String {
        format!(
            "Map<String, String> m = new HashMap<>();\n{setup}\nadmin.alterClientQuotas(List.of(new ClientQuotaAlteration(new ClientQuotaEntity({entity_map}), List.of({ops})))).all().get();\n"
        )
    }

    /// Line 3, at the column where `needle` starts on it.
    fn column_of_line_3(text: &str, needle: &str) -> Position {
        let line = text.lines().nth(2).expect("three lines");
        let col = line.find(needle).expect("needle on line 3");
        Position::new(3, u32::try_from(col + 1).expect("short line"))
    }

    /// The refusal of `text`: Kafka's error (code name and message) and
    /// where it points.
    fn refusal(text: &str) -> (String, Position, String) {
        let e = parse(text).expect_err("Kafka refuses this alteration");
        let kafka = e.api_error().expect("Kafka's error is kept").to_string();
        (kafka, e.position, e.to_string())
    }

    // Kafka 4.3.1 ClientQuotaControlManager.java:313 (validateEntity).
    #[test]
    fn empty_entity_is_kafkas_invalid_empty_client_quota_entity() {
        let (kafka, at, shown) = refusal(&alteration("", "m", "new ClientQuotaAlteration.Op(\"producer_byte_rate\", 1024.0)"));
        assert_eq!(kafka, "INVALID_REQUEST: Invalid empty client quota entity");
        assert_eq!(at, Position::new(3, 33));
        assert_eq!(
            shown,
            "Line 3, column 33: Kafka would reject this quota (INVALID_REQUEST: Invalid empty client quota entity); expected a value and entity Kafka accepts."
        );
    }

    // Kafka 4.3.1 ClientQuotaControlManager.java:329 (validateEntity).
    #[test]
    fn unknown_entity_type_is_kafkas_unhandled_client_quota_entity_type() {
        let (kafka, at, _) = refusal(&alteration(
            "m.put(\"group\", \"analytics\");",
            "m",
            "new ClientQuotaAlteration.Op(\"producer_byte_rate\", 1024.0)",
        ));
        assert_eq!(kafka, "INVALID_REQUEST: Unhandled client quota entity type: group");
        assert_eq!(at.line, 3);
        // The wire names are case-sensitive: "USER" is not ClientQuotaEntity.USER.
        let (kafka, _, _) = refusal(&alteration(
            "",
            "Collections.singletonMap(\"USER\", \"alice\")",
            "new ClientQuotaAlteration.Op(\"producer_byte_rate\", 1024.0)",
        ));
        assert_eq!(kafka, "INVALID_REQUEST: Unhandled client quota entity type: USER");
    }

    // Kafka 4.3.1 ClientQuotaControlManager.java:230-231 (configKeysForEntityType).
    #[test]
    fn ip_with_user_or_client_id_is_kafkas_invalid_quota_entity_combination() {
        for other in ["ClientQuotaEntity.USER", "ClientQuotaEntity.CLIENT_ID"] {
            let (kafka, at, _) = refusal(&alteration(
                "",
                &format!("Map.of({other}, \"a\", ClientQuotaEntity.IP, \"10.0.0.1\")"),
                "new ClientQuotaAlteration.Op(\"connection_creation_rate\", 10.0)",
            ));
            // Kafka's text, the missing space of "shouldnot" included.
            assert_eq!(
                kafka,
                "INVALID_REQUEST: Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId"
            );
            assert_eq!(at, Position::new(3, 33));
        }
    }

    // Kafka 4.3.1 ClientQuotaControlManager.java:257 (validateQuotaKeyValue).
    #[test]
    fn unknown_key_is_kafkas_invalid_configuration_key_at_the_op() {
        let text = alteration(
            "m.put(ClientQuotaEntity.USER, \"alice\");",
            "m",
            "new ClientQuotaAlteration.Op(\"producer_byte_rate\", 1024.0), new ClientQuotaAlteration.Op(\"producer_byte_rte\", 1024.0)",
        );
        let (kafka, at, _) = refusal(&text);
        assert_eq!(kafka, "INVALID_REQUEST: Invalid configuration key producer_byte_rte");
        // At the second Op, not the alteration.
        assert_eq!(at, column_of_line_3(&text, "ClientQuotaAlteration.Op(\"producer_byte_rte\""));
        // A key the entity cannot have is the same error (QuotaConfig.ipConfigs()).
        let (kafka, _, _) = refusal(&alteration(
            "m.put(ClientQuotaEntity.IP, \"10.0.0.1\");",
            "m",
            "new ClientQuotaAlteration.Op(\"producer_byte_rate\", 1024.0)",
        ));
        assert_eq!(kafka, "INVALID_REQUEST: Invalid configuration key producer_byte_rate");
        // Removing a key Kafka does not know is no error (ClientQuotaControlManager.java:187-195).
        let text = alteration(
            "m.put(ClientQuotaEntity.USER, \"alice\");",
            "m",
            "new ClientQuotaAlteration.Op(\"producer_byte_rte\", null), new ClientQuotaAlteration.Op(\"producer_byte_rate\", 1024.0)",
        );
        assert_eq!(parse(&text).expect("accepted").quotas.len(), 1);
    }

    // Kafka 4.3.1 ClientQuotaControlManager.java:333 (validateEntity), :236
    // (configKeysForEntityType), :260 (validateQuotaKeyValue).
    #[test]
    fn empty_name_bad_ip_and_zero_value_are_kafkas_words() {
        let (kafka, _, _) = refusal(&alteration(
            "m.put(ClientQuotaEntity.CLIENT_ID, \"\");",
            "m",
            "new ClientQuotaAlteration.Op(\"producer_byte_rate\", 1024.0)",
        ));
        assert_eq!(kafka, "INVALID_REQUEST: Empty client-id not supported");
        let (kafka, _, _) = refusal(&alteration(
            "m.put(ClientQuotaEntity.IP, \"broker.local\");",
            "m",
            "new ClientQuotaAlteration.Op(\"connection_creation_rate\", 10.0)",
        ));
        assert_eq!(kafka, "INVALID_REQUEST: broker.local is not a valid IP or resolvable host.");
        let text = alteration(
            "m.put(ClientQuotaEntity.USER, \"alice\");",
            "m",
            "new ClientQuotaAlteration.Op(\"producer_byte_rate\", 0.0)",
        );
        let (kafka, at, _) = refusal(&text);
        assert_eq!(kafka, "INVALID_REQUEST: Quota producer_byte_rate must be greater than 0");
        assert_eq!(at, column_of_line_3(&text, "ClientQuotaAlteration.Op("));
    }

    // Kafka 4.3.1 ClientQuotaControlManager.java:107-118 (alterClientQuotas):
    // a repeated key marks the entity, which is then answered "Ignoring duplicate entity".
    #[test]
    fn repeated_key_is_kafkas_ignoring_duplicate_entity() {
        let (kafka, _, _) = refusal(&alteration(
            "m.put(ClientQuotaEntity.USER, \"alice\");",
            "m",
            "new ClientQuotaAlteration.Op(\"producer_byte_rate\", 1024.0), new ClientQuotaAlteration.Op(\"producer_byte_rate\", 2048.0)",
        ));
        assert_eq!(
            kafka,
            "INVALID_REQUEST: Ignoring duplicate entity ClientQuotaEntity(entries={user=alice})"
        );
    }

    // JDK 17 ImmutableCollections (Map.of): observed with OpenJDK 17.0.15,
    // `Map.of("user", null)` throws java.lang.NullPointerException and
    // `Map.of("user", "a", "user", "b")` IllegalArgumentException: duplicate key: user.
    #[test]
    fn map_of_refuses_null_names_and_repeated_types_as_java_does() {
        let e = parse(&alteration(
            "",
            "Map.of(ClientQuotaEntity.USER, null)",
            "new ClientQuotaAlteration.Op(\"producer_byte_rate\", 1024.0)",
        ))
        .unwrap_err();
        assert!(e.to_string().contains("Java throws java.lang.NullPointerException"), "{e}");
        assert_eq!(e.position.line, 3);
        let e = parse(&alteration(
            "",
            "Map.of(ClientQuotaEntity.USER, \"a\", ClientQuotaEntity.USER, \"b\")",
            "new ClientQuotaAlteration.Op(\"producer_byte_rate\", 1024.0)",
        ))
        .unwrap_err();
        assert!(
            e.to_string().contains("java.lang.IllegalArgumentException: duplicate key: user"),
            "{e}"
        );
        // singletonMap and HashMap take null: the default entity.
        let ok = parse(&alteration(
            "",
            "Collections.singletonMap(ClientQuotaEntity.USER, null)",
            "new ClientQuotaAlteration.Op(\"producer_byte_rate\", 1024.0)",
        ))
        .unwrap();
        assert_eq!(ok.quotas[0].entity.path(), "users/<default>");
    }

    #[test]
    fn refuses_computed_values_by_name() {
        let text =
            "Map<String,String> m = new HashMap<>();\nm.put(ClientQuotaEntity.USER, userName);\n";
        let e = parse(text).unwrap_err();
        assert_eq!(e.position, Position::new(2, 1));
        assert!(
            e.to_string()
                .contains("the Java expression `userName` stands in an entity name"),
            "{e}"
        );
        let text = "admin.alterClientQuotas(List.of(new ClientQuotaAlteration(e, List.of(new ClientQuotaAlteration.Op(\"producer_byte_rate\", rate)))));";
        let e = parse(text).unwrap_err();
        assert!(
            e.to_string()
                .contains("`e` stands in the ClientQuotaEntity"),
            "{e}"
        );
    }
}
