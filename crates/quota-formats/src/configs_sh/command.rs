//! A validated `kafka-configs.sh` client-quota command, built from the
//! parsed options with the tool's own checks, in the tool's order.
//!
//! Kafka: `ConfigCommand.ConfigCommandOptions.checkArgs`, `processCommand`,
//! `parseConfigsToBeAdded`, `parseConfigsToBeDeleted` and the users /
//! clients / ips branches of `alterConfig`
//! (`tools/src/main/java/org/apache/kafka/tools/ConfigCommand.java`, Kafka
//! 4.1+; the same rules as `core/src/main/scala/kafka/admin/ConfigCommand.scala`
//! in 4.0 with its ZooKeeper paths removed).

use quota_engine::jdk::hashmap::{hash_set_order, MapInit};
use quota_engine::store::validate::{classify_ip_host, IpHost};
use quota_engine::{EntityName, EntityType, QuotaEntity, QuotaKey};

use crate::error::{Error, ErrorKind, Position};

use super::args::{self, Occurrence, Opt, Options};
use super::script::{truncate, Invocation};
use super::Mode;

/// The usage line `kafka-configs.sh` prints with its help (no arguments or `--help`).
pub(crate) const USAGE_MESSAGE: &str =
    "This tool helps to manipulate and describe entity config for a topic, client, user, broker, ip, client-metrics or group";

/// The entity types `kafka-configs.sh` 4.x accepts, in its message order
/// (`BROKER_SUPPORTED_CONFIG_TYPES`: broker-loggers, then `ConfigType.values()`).
const SUPPORTED_TYPES: [&str; 8] = [
    "broker-loggers",
    "topics",
    "clients",
    "users",
    "brokers",
    "ips",
    "client-metrics",
    "groups",
];

/// The SCRAM mechanism names (`ScramMechanism.isScram`).
const SCRAM_MECHANISMS: [&str; 2] = ["SCRAM-SHA-256", "SCRAM-SHA-512"];

/// A `kafka-configs.sh` command that sets, deletes or describes client
/// quotas, after every check the tool makes before contacting the cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigsCommand {
    /// Where the command starts in the input (its program word).
    pub position: Position,
    /// The argument vector the tool receives (after shell quote removal).
    pub args: Vec<String>,
    /// What the command does.
    pub action: Action,
    /// The `--bootstrap-server` argument, as given (none with
    /// `--bootstrap-controller`, or a `--zookeeper` command).
    pub bootstrap_server: Option<String>,
    /// What import mode changed or ignored to read the command (removed
    /// flags, wrappers, ignored options), one sentence each; empty for a
    /// command a 4.x tool takes as written.
    pub notes: Vec<String>,
}

/// What a command does.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// `--alter`: add or delete quota keys of one entity.
    Alter(AlterQuota),
    /// `--describe`: print the quotas of the entities a filter matches.
    Describe(DescribeQuota),
}

/// The `--alter` of one entity.
#[derive(Debug, Clone, PartialEq)]
pub struct AlterQuota {
    /// The entity altered.
    pub entity: QuotaEntity,
    /// The first entity type and name on the command line; the tool's
    /// completion message names these (`Completed updating config for
    /// client C.` for `--user U --client C`).
    pub head: (EntityType, EntityName),
    /// `--add-config` pairs as the tool keeps them (key and value trimmed,
    /// `[` `]` removed from values; a repeated key keeps its last value),
    /// in command-line order of first appearance.
    pub add: Vec<ConfigValue>,
    /// `--delete-config` keys, trimmed, in order.
    pub delete: Vec<String>,
    /// Where `--delete-config` stands (for errors about deleted keys).
    pub delete_position: Option<Position>,
}

/// One `key=value` of `--add-config`, where it stands, and its raw value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigValue {
    /// The config key, e.g. `producer_byte_rate`.
    pub key: String,
    /// The value text as the tool keeps it (not yet parsed as a double).
    pub value: String,
    /// Where the `--add-config` value starts.
    pub position: Position,
}

/// The `--describe` of client quotas: a strict filter (`containsOnly`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribeQuota {
    /// One component per entity type on the command line.
    pub components: Vec<DescribeComponent>,
}

/// One component of a describe filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribeComponent {
    /// The entity type.
    pub entity_type: EntityType,
    /// Which names of that type match.
    pub name: NameMatch,
}

/// Which names a describe component matches
/// (`ClientQuotaFilterComponent.ofEntity` / `ofDefaultEntity` / `ofEntityType`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameMatch {
    /// Exactly this name (`--entity-name N`).
    Named(String),
    /// The default entity (`--entity-default`).
    Default,
    /// Any entity of the type that has quotas (no name given).
    Any,
}

/// Parses a command-line type word (`users`) into an entity type.
fn entity_type_of(word: &str) -> Option<EntityType> {
    match word {
        "users" => Some(EntityType::User),
        "clients" => Some(EntityType::ClientId),
        "ips" => Some(EntityType::Ip),
        _ => None,
    }
}

/// The command-line type word of an entity type (`users`), as
/// [`entity_type_of`] reads it.
pub(crate) fn entity_type_word(t: EntityType) -> &'static str {
    match t {
        EntityType::User => "users",
        EntityType::ClientId => "clients",
        EntityType::Ip => "ips",
    }
}

/// Whether char `at` of `raw` (a word as written) is inside single quotes,
/// where the shell expands nothing ([`super::args::unquoted_chars`]).
fn in_single_quotes(raw: &str, at: usize) -> bool {
    super::args::unquoted_chars(raw).iter().any(|(_, i, single)| *i == at && *single)
}

/// Finds unexpanded shell variables and template placeholders in a word as
/// written: `$NAME`, `${...}`, `$(...)`, `` `...` ``, `$1`, `{{ ... }}`.
pub(crate) fn find_variables(raw: &str) -> Vec<String> {
    find_variables_at(raw).into_iter().map(|(_, v)| v).collect()
}

/// [`find_variables`] with the char index in `raw` where each one starts
/// (its `$`, backquote or first `{`).
pub(crate) fn find_variables_at(raw: &str) -> Vec<(usize, String)> {
    let chars: Vec<char> = raw.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '$' && i + 1 < chars.len() {
            let n = chars[i + 1];
            let end = if n == '{' || n == '(' {
                let close = if n == '{' { '}' } else { ')' };
                chars[i + 2..]
                    .iter()
                    .position(|&x| x == close)
                    .map_or(chars.len(), |p| i + 2 + p + 1)
            } else if n.is_ascii_alphabetic() || n == '_' {
                let mut j = i + 1;
                while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                j
            } else if n.is_ascii_digit() || matches!(n, '@' | '*' | '#' | '?' | '!') {
                i + 2
            } else {
                i += 1;
                continue;
            };
            found.push((i, chars[i..end].iter().collect()));
            i = end;
        } else if c == '`' {
            let end = chars[i + 1..]
                .iter()
                .position(|&x| x == '`')
                .map_or(chars.len(), |p| i + 1 + p + 1);
            found.push((i, chars[i..end].iter().collect()));
            i = end;
        } else if c == '{' && chars.get(i + 1) == Some(&'{') {
            let mut j = i + 2;
            while j + 1 < chars.len() && !(chars[j] == '}' && chars[j + 1] == '}') {
                j += 1;
            }
            let end = (j + 2).min(chars.len());
            found.push((i, chars[i..end].iter().collect()));
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

/// Reports unexpanded variables that stand where a value matters; notes
/// the ones in connection options (they do not change any quota). The error
/// is placed at the first such variable itself (its `$`), not at the start
/// of the word that holds it.
fn check_variables(opts: &Options, notes: &mut Vec<String>) -> Result<(), Error> {
    let mut names: Vec<String> = Vec::new();
    let mut contexts: Vec<&'static str> = Vec::new();
    let mut first: Option<Position> = None;
    let mut harmless: Vec<String> = Vec::new();
    // `$` inside single quotes in an entity name: the shell passes it as
    // written, so it is part of the name (`--entity-name 'a$b'` is `a$b`).
    let mut literal: Vec<String> = Vec::new();
    let mut seen = |occ_raw: &str,
                    raw_positions: &[Position],
                    context: &'static str,
                    word_start: Position,
                    names: &mut Vec<String>,
                    contexts: &mut Vec<&'static str>| {
        let mut vars = find_variables_at(occ_raw);
        if context == "the entity name" {
            vars.retain(|(at, v)| {
                let quoted = v.starts_with('$') && in_single_quotes(occ_raw, *at);
                if quoted && !literal.contains(v) {
                    literal.push(v.clone());
                }
                !quoted
            });
        }
        let Some((at, _)) = vars.first() else {
            return;
        };
        first.get_or_insert(raw_positions.get(*at).copied().unwrap_or(word_start));
        for (_, v) in vars {
            if !names.contains(&v) {
                names.push(v);
            }
        }
        if !contexts.contains(&context) {
            contexts.push(context);
        }
    };
    for occ in &opts.occurrences {
        let raw = occ.raw_value.as_deref().unwrap_or("");
        let context = match occ.opt {
            Opt::EntityName | Opt::User | Opt::Client | Opt::Ip => "the entity name",
            Opt::EntityType => "the entity type",
            Opt::AddConfig => "the --add-config value",
            Opt::DeleteConfig => "the --delete-config value",
            Opt::AddConfigFile => "the --add-config-file path",
            _ => {
                for v in find_variables(raw) {
                    if !harmless.contains(&v) {
                        harmless.push(v);
                    }
                }
                continue;
            }
        };
        seen(
            raw,
            &occ.raw_positions,
            context,
            occ.value_position,
            &mut names,
            &mut contexts,
        );
    }
    for word in &opts.non_options {
        seen(
            &word.raw,
            &word.raw_positions,
            "an argument position, where it may hold options such as --add-config",
            word.position,
            &mut names,
            &mut contexts,
        );
    }
    if !literal.is_empty() {
        notes.push(format!(
            "{} in single quotes in the entity name: the shell does not expand {}, so the name holds {} as written.",
            literal.join(", "),
            if literal.len() == 1 { "it" } else { "them" },
            if literal.len() == 1 { "it" } else { "them" }
        ));
    }
    if !harmless.is_empty() {
        notes.push(format!(
            "The connection options contain the unexpanded shell {} {}; they do not change any quota.",
            if harmless.len() == 1 { "variable" } else { "variables" },
            harmless.join(", ")
        ));
    }
    match first {
        Some(position) => Err(Error::new(
            position,
            ErrorKind::UnexpandedVariables {
                names,
                context: contexts.join(" and "),
            },
        )),
        None => Ok(()),
    }
}

/// `ConfigCommand.validateIpEntity` (`InetAddress.getByName`), without
/// DNS: literals as the engine's `classify_ip_host` reads them (the JDK's
/// rules, short IPv4 forms included) are valid; a name that only a DNS lookup
/// could settle is accepted with a note, except names that can never
/// resolve (invalid characters, numeric-looking, `.invalid`).
fn ip_is_acceptable(name: &str) -> Result<Option<String>, ()> {
    match classify_ip_host(name) {
        IpHost::V4(_) | IpHost::V6 { .. } => return Ok(None),
        IpHost::Rejected => return Err(()),
        IpHost::V6NamedZone { .. } | IpHost::NeedsLookup => {}
    }
    let looks_numeric = name.chars().all(|c| c.is_ascii_digit() || c == '.');
    let host_chars = !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        });
    let lower = name.to_ascii_lowercase();
    if looks_numeric || !host_chars || lower.ends_with(".invalid") || lower == "invalid" {
        return Err(());
    }
    Ok(Some(format!(
        "kafka-configs.sh resolves the ip entity name `{name}` through DNS; that lookup is not made here."
    )))
}

/// Splits an `--add-config` value as `parseConfigsToBeAdded` does: on
/// commas outside `[...]`, then on `\s*=\s*` outside `[...]`; keys and
/// values trimmed, `[` and `]` removed from values.
///
/// # Errors
///
/// The tool's message when an item is not exactly `key=value`, or a key
/// has a character outside `[$a-zA-Z0-9._-]`.
pub(crate) fn parse_add_config(
    value: &str,
    position: Position,
) -> Result<Vec<(String, String)>, Error> {
    // A separator at `i` counts when the text after it reaches `[` or the
    // end before any `]` (the lookahead `(?=[^\]]*(?:\[|$))`).
    fn outside_brackets(chars: &[char], from: usize) -> bool {
        for &c in &chars[from..] {
            if c == ']' {
                return false;
            }
            if c == '[' {
                return true;
            }
        }
        true
    }
    let chars: Vec<char> = value.chars().collect();
    let mut items: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == ',' && outside_brackets(&chars, i + 1) {
            items.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    items.push(current);
    // String.split with limit 0 drops trailing empty strings when the
    // separator matched at least once.
    if items.len() > 1 {
        while items.last().is_some_and(String::is_empty) {
            items.pop();
        }
    }
    let invalid = || {
        Error::tool(
            position,
            "Invalid entity config: all configs to be added must be in the format \"key=val\" or  \"key=[val1,val2]\" to group values which contain commas.",
            "key=value pairs separated by commas",
        )
    };
    let java_ws = |c: char| matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r');
    let mut pairs: Vec<(String, String)> = Vec::new();
    for item in &items {
        let ic: Vec<char> = item.chars().collect();
        // Split on `\s*=\s*` where the `=` is outside brackets (limit -1).
        let mut parts: Vec<String> = Vec::new();
        let mut start = 0;
        let mut i = 0;
        while i < ic.len() {
            if ic[i] == '=' {
                let mut after = i + 1;
                while after < ic.len() && java_ws(ic[after]) {
                    after += 1;
                }
                // The lookahead is tested after the trailing whitespace; the
                // regex engine backtracks over it, so any split point works.
                if (i + 1..=after).any(|p| outside_brackets(&ic, p)) {
                    let mut before = i;
                    while before > start && java_ws(ic[before - 1]) {
                        before -= 1;
                    }
                    parts.push(ic[start..before].iter().collect());
                    start = after;
                    i = after;
                    continue;
                }
            }
            i += 1;
        }
        parts.push(ic[start..].iter().collect());
        if parts.len() != 2 {
            return Err(invalid());
        }
        let key = parts[0].trim_matches(|c: char| c <= ' ').to_owned();
        let val: String = parts[1].chars().filter(|&c| c != '[' && c != ']').collect();
        let val = val.trim_matches(|c: char| c <= ' ').to_owned();
        match pairs.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = val,
            None => pairs.push((key, val)),
        }
    }
    for (key, _) in &pairs {
        if !key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '$' | '.' | '_' | '-'))
        {
            return Err(Error::tool(
                position,
                format!("Invalid character found for config key: {key}"),
                "config keys made of letters, digits, `.`, `_`, `-` and `$`",
            ));
        }
    }
    Ok(pairs)
}

/// True for the four keys `QuotaConfig.isClientOrUserQuotaConfig` accepts.
fn is_client_quota_key(key: &str) -> bool {
    QuotaKey::CLIENT_KEYS.iter().any(|k| k.as_str() == key)
}

/// The shorthand entity flags and the type each stands for, in the tool's
/// order (`ConfigCommand.ConfigCommandOptions.entityFlags`).
const ENTITY_FLAGS: [(Opt, &str); 8] = [
    (Opt::Topic, "topics"),
    (Opt::Client, "clients"),
    (Opt::User, "users"),
    (Opt::Broker, "brokers"),
    (Opt::BrokerLogger, "broker-loggers"),
    (Opt::Ip, "ips"),
    (Opt::ClientMetrics, "client-metrics"),
    (Opt::Group, "groups"),
];

/// The `--*-defaults` flags and the type each stands for
/// (`ConfigCommandOptions.entityDefaultsFlags`).
const DEFAULT_FLAGS: [(Opt, &str); 4] = [
    (Opt::ClientDefaults, "clients"),
    (Opt::UserDefaults, "users"),
    (Opt::BrokerDefaults, "brokers"),
    (Opt::IpDefaults, "ips"),
];

/// An entity type word or entity name as written, with where it stands
/// (an empty name is a default entity).
type Written = (String, Position);

/// Builds a command from one invocation, in the tool's order of checks.
///
/// # Errors
///
/// The tool's own failures as [`ErrorKind::Tool`] (exact message), unexpanded
/// variables, and what this crate does not model as
/// [`ErrorKind::Unsupported`].
pub(crate) fn build(inv: &Invocation, mode: Mode) -> Result<ConfigsCommand, Error> {
    let start = inv.program.position;
    let arg_strings: Vec<String> = inv.args.iter().map(|w| w.value.clone()).collect();
    let opts = args::parse(&inv.args, mode)?;
    let mut notes = inv.notes.clone();
    check_variables(&opts, &mut notes)?;
    check_action(inv, &opts, start)?;
    let types = entity_types(&opts, start)?;
    check_bootstrap(&opts, mode, start, &mut notes)?;
    check_entity_types(&opts, &types, start)?;
    let names = entity_names(&opts)?;
    check_one_bootstrap(&opts, start)?;
    check_client_quota_entities(&opts, &types, &names, &mut notes)?;
    check_alter_options(&opts, &types, &names, start)?;
    note_ignored_arguments(&opts, &mut notes);
    check_names_per_type(&opts, &types, &names, start)?;
    let typed: Vec<(EntityType, Position)> = types
        .iter()
        .filter_map(|(t, p)| entity_type_of(t).map(|e| (e, *p)))
        .collect();
    let action = if opts.has(Opt::Alter) {
        let changes = config_changes(&opts, start)?;
        check_config_keys(&opts, &typed, &names, &changes, &arg_strings)?;
        Action::Alter(alteration(&typed, &names, changes, start)?)
    } else {
        let describe = describe_filter(&typed, &names);
        if mode == Mode::Import {
            notes.push("A --describe command reads quotas and changes none.".to_owned());
        }
        Action::Describe(describe)
    };
    let bootstrap_server = opts
        .first(Opt::BootstrapServer)
        .and_then(|o| o.value.clone());
    Ok(ConfigsCommand {
        position: start,
        args: arg_strings,
        action,
        bootstrap_server,
        notes,
    })
}

/// Where the first `o` stands, or `start` when it is absent.
fn first_at(opts: &Options, o: Opt, start: Position) -> Position {
    opts.first(o).map_or(start, |x| x.position)
}

/// `checkArgs`, first part: help, `--version`, exactly one action, and no
/// configs to add or delete with `--describe`.
fn check_action(inv: &Invocation, opts: &Options, start: Position) -> Result<(), Error> {
    let at = |o: Opt| first_at(opts, o, start);
    if inv.args.is_empty() || opts.has(Opt::Help) {
        return Err(Error::tool(
            at(Opt::Help),
            USAGE_MESSAGE,
            "--alter or --describe and an entity (the tool prints its usage)",
        ));
    }
    if opts.has(Opt::Version) {
        return Err(Error::unsupported(
            at(Opt::Version),
            "--version",
            "it prints the tool's version and touches no quota",
        ));
    }
    let actions = usize::from(opts.has(Opt::Alter)) + usize::from(opts.has(Opt::Describe));
    if actions != 1 {
        return Err(Error::tool(
            if actions == 0 {
                start
            } else {
                at(Opt::Describe).max(at(Opt::Alter))
            },
            "Command must include exactly one action: --describe, --alter",
            "exactly one of --alter and --describe",
        ));
    }
    if opts.has(Opt::Describe) {
        for o in [Opt::AddConfig, Opt::DeleteConfig] {
            if opts.has(o) {
                return Err(Error::tool(
                    at(o),
                    format!(
                        "Option \"[describe]\" can't be used with option \"[{}]\"",
                        o.name()
                    ),
                    "--alter with --add-config or --delete-config",
                ));
            }
        }
    }
    Ok(())
}

/// The entity types in the tool's order: `--entity-type` values, then the
/// entity flags, then the defaults flags.
///
/// # Errors
///
/// The tool's message when a type is given twice.
fn entity_types(opts: &Options, start: Position) -> Result<Vec<Written>, Error> {
    let mut types: Vec<Written> = opts
        .values_of(Opt::EntityType)
        .iter()
        .map(|o| (o.value.clone().unwrap_or_default(), o.value_position))
        .collect();
    for (flag, t) in ENTITY_FLAGS.iter().chain(DEFAULT_FLAGS.iter()) {
        if let Some(o) = opts.first(*flag) {
            types.push(((*t).to_owned(), o.position));
        }
    }
    let mut seen = Vec::new();
    let mut dups: Vec<&str> = Vec::new();
    for (t, _) in &types {
        if seen.contains(&t.as_str()) {
            if !dups.contains(&t.as_str()) {
                dups.push(t);
            }
        } else {
            seen.push(t);
        }
    }
    if !dups.is_empty() {
        return Err(Error::tool(
            first_at(opts, Opt::EntityType, start),
            format!("Duplicate entity type(s) specified: {}", dups.join(",")),
            "each entity type once",
        ));
    }
    Ok(types)
}

/// A bootstrap option is required (strict mode); import mode notes its
/// absence or a `--zookeeper` instead, and notes the removed flags it ignores.
fn check_bootstrap(
    opts: &Options,
    mode: Mode,
    start: Position,
    notes: &mut Vec<String>,
) -> Result<(), Error> {
    if !opts.has(Opt::BootstrapServer) && !opts.has(Opt::BootstrapController) {
        match mode {
            Mode::Strict => {
                return Err(Error::tool(
                    start,
                    "Either --bootstrap-server or --bootstrap-controller must be specified.",
                    "--bootstrap-server HOST:PORT",
                ))
            }
            Mode::Import => {
                if opts.has(Opt::Zookeeper) {
                    notes.push(
                        "Imported a --zookeeper command: Kafka 4.0 removed --zookeeper, so kafka-configs.sh 4.x fails on it with \"zookeeper is not a recognized option\"; use --bootstrap-server."
                            .to_owned(),
                    );
                } else {
                    notes.push(
                        "The command has no --bootstrap-server; kafka-configs.sh 4.x requires one (\"Either --bootstrap-server or --bootstrap-controller must be specified.\")."
                            .to_owned(),
                    );
                }
            }
        }
    } else if opts.has(Opt::Zookeeper) {
        notes.push(
            "Ignored --zookeeper next to a bootstrap option: Kafka 4.0 removed --zookeeper."
                .to_owned(),
        );
    }
    for o in [Opt::Force, Opt::ZkTlsConfigFile] {
        if opts.has(o) {
            notes.push(format!(
                "Ignored --{}: Kafka 4.x removed it and it changes no quota.",
                o.name()
            ));
        }
    }
    Ok(())
}

/// Every type is one the tool knows, there is at least one, only users
/// and clients combine, and the generic `--entity-*` options are not mixed
/// with the shorthand flags.
fn check_entity_types(opts: &Options, types: &[Written], start: Position) -> Result<(), Error> {
    for (t, pos) in types {
        if !SUPPORTED_TYPES.contains(&t.as_str()) {
            return Err(Error::tool(
                *pos,
                format!(
                    "Invalid entity type {t}, the entity type must be one of {} with a --bootstrap-server or --bootstrap-controller argument",
                    SUPPORTED_TYPES.join(", ")
                ),
                "users, clients or ips",
            ));
        }
    }
    if types.is_empty() {
        return Err(Error::tool(
            start,
            "At least one entity type must be specified",
            "--entity-type users|clients|ips, or --user/--client/--ip",
        ));
    }
    if types.len() > 1 {
        let mut set: Vec<&str> = types.iter().map(|(t, _)| t.as_str()).collect();
        set.sort_unstable();
        set.dedup();
        if set != ["clients", "users"] {
            return Err(Error::tool(
                types[1].1,
                "Only 'users' and 'clients' entity types may be specified together",
                "users and clients, or a single entity type",
            ));
        }
    }
    let uses_generic =
        opts.has(Opt::EntityName) || opts.has(Opt::EntityType) || opts.has(Opt::EntityDefault);
    if let Some((flag, _)) = ENTITY_FLAGS
        .iter()
        .chain(DEFAULT_FLAGS.iter())
        .find(|(f, _)| opts.has(*f))
    {
        if uses_generic {
            return Err(Error::tool(
                first_at(opts, *flag, start),
                "--entity-{type,name,default} should not be used in conjunction with specific entity flags",
                "either --entity-type/--entity-name/--entity-default or the shorthand flags, not both",
            ));
        }
    }
    Ok(())
}

/// The entity names in the tool's order: each `--entity-name` /
/// `--entity-default`, then the flags' values, then `""` per defaults flag.
///
/// # Errors
///
/// jopt-simple's message when an entity flag is given twice.
fn entity_names(opts: &Options) -> Result<Vec<Written>, Error> {
    let mut names: Vec<Written> = opts
        .occurrences
        .iter()
        .filter(|o| matches!(o.opt, Opt::EntityName | Opt::EntityDefault))
        .map(|o| (o.value.clone().unwrap_or_default(), o.value_position))
        .collect();
    for (flag, _) in &ENTITY_FLAGS {
        if opts.has(*flag) {
            let occ = opts
                .value_of(*flag)?
                .map(|o: &Occurrence| (o.value.clone().unwrap_or_default(), o.value_position));
            names.extend(occ);
        }
    }
    for (flag, _) in &DEFAULT_FLAGS {
        if let Some(o) = opts.first(*flag) {
            names.push((String::new(), o.position));
        }
    }
    Ok(names)
}

/// Not both `--bootstrap-server` and `--bootstrap-controller`.
fn check_one_bootstrap(opts: &Options, start: Position) -> Result<(), Error> {
    if opts.has(Opt::BootstrapServer) && opts.has(Opt::BootstrapController) {
        return Err(Error::tool(
            first_at(opts, Opt::BootstrapController, start),
            "Only one of --bootstrap-server or --bootstrap-controller can be specified",
            "one connection option",
        ));
    }
    Ok(())
}

/// Every type is a client-quota type this crate models (users, clients,
/// ips), and a named ip entity is an address or a host that may resolve
/// (`validateIpEntity`); a name left to DNS is noted.
fn check_client_quota_entities(
    opts: &Options,
    types: &[Written],
    names: &[Written],
    notes: &mut Vec<String>,
) -> Result<(), Error> {
    if let Some((t, pos)) = types.iter().find(|(t, _)| entity_type_of(t).is_none()) {
        return Err(Error::unsupported(
            *pos,
            format!("The entity type `{t}`"),
            "kafka-quota models client quotas only (users, clients and ips), not topic, broker, group or client-metrics configs",
        ));
    }
    let has_name = names.iter().any(|(n, _)| !n.is_empty());
    if has_name && types.iter().any(|(t, _)| t == "ips") {
        for o in [Opt::EntityName, Opt::Ip] {
            if let Some(occ) = opts.value_of(o)? {
                let name = occ.value.clone().unwrap_or_default();
                match ip_is_acceptable(&name) {
                    Ok(Some(note)) => notes.push(note),
                    Ok(None) => {}
                    Err(()) => {
                        return Err(Error::tool(
                            occ.value_position,
                            format!("The entity name for {} must be a valid IP or resolvable host, but it is: {name}", types[0].0),
                            "an IPv4 or IPv6 address or a resolvable host name",
                        ))
                    }
                }
            }
        }
    }
    Ok(())
}

/// `--alter` needs an entity name or default, at most one of
/// `--add-config` and `--add-config-file`, and something to add or delete.
fn check_alter_options(
    opts: &Options,
    types: &[Written],
    names: &[Written],
    start: Position,
) -> Result<(), Error> {
    if !opts.has(Opt::Alter) {
        return Ok(());
    }
    let has_name = names.iter().any(|(n, _)| !n.is_empty());
    let has_default = names.iter().any(|(n, _)| n.is_empty());
    if !has_name && !has_default {
        return Err(Error::tool(
            types[0].1,
            "An entity-name or default entity must be specified with --alter of users, clients, brokers or ips",
            "--entity-name NAME or --entity-default after --entity-type",
        ));
    }
    let add = opts.has(Opt::AddConfig);
    let add_file = opts.has(Opt::AddConfigFile);
    if add && add_file {
        return Err(Error::tool(
            first_at(opts, Opt::AddConfigFile, start),
            "Only one of --add-config or --add-config-file must be specified",
            "one of them",
        ));
    }
    if !add && !add_file && !opts.has(Opt::DeleteConfig) {
        return Err(Error::tool(
            first_at(opts, Opt::Alter, start),
            "At least one of --add-config, --add-config-file, or --delete-config must be specified with --alter",
            "--add-config k=v or --delete-config k",
        ));
    }
    Ok(())
}

/// Notes `--command-config` and the words that are not options: the tool
/// ignores both and so does the import.
fn note_ignored_arguments(opts: &Options, notes: &mut Vec<String>) {
    if opts.has(Opt::CommandConfig) {
        notes.push(
            "Ignored --command-config: the properties file only configures the connection."
                .to_owned(),
        );
    }
    for w in &opts.non_options {
        notes.push(format!(
            "Ignored the argument `{}`: kafka-configs.sh ignores words that are not options.",
            truncate(&w.raw, 40)
        ));
    }
}

/// `--alter` names every entity type; `--describe` has no more names than
/// types.
fn check_names_per_type(
    opts: &Options,
    types: &[Written],
    names: &[Written],
    start: Position,
) -> Result<(), Error> {
    if opts.has(Opt::Alter) {
        if types.len() != names.len() {
            return Err(Error::tool(
                types.last().map_or(start, |t| t.1),
                "An entity name must be specified for every entity type",
                "--entity-name or --entity-default after each --entity-type",
            ));
        }
    } else if names.len() > types.len() {
        return Err(Error::tool(
            names[types.len()].1,
            "More entity names specified than entity types",
            "one --entity-type per --entity-name",
        ));
    }
    Ok(())
}

/// The `--describe` filter: one component per type, matching the name
/// given at the same place, the default, or any name.
fn describe_filter(typed: &[(EntityType, Position)], names: &[Written]) -> DescribeQuota {
    let components = typed
        .iter()
        .enumerate()
        .map(|(i, (t, _))| DescribeComponent {
            entity_type: *t,
            name: match names.get(i) {
                None => NameMatch::Any,
                Some((n, _)) if n.is_empty() => NameMatch::Default,
                Some((n, _)) => NameMatch::Named(n.clone()),
            },
        })
        .collect();
    DescribeQuota { components }
}

/// The character index in `text` (an `--add-config` argument) of the last
/// `key=value` pair's value, as `parse_add_config` read it; `None` when it
/// cannot be found as written (brackets, spaces around `=`).
fn value_position_in(text: &str, key: &str, value: &str) -> Option<usize> {
    let pair = format!("{key}={value}");
    let at = text.rfind(&pair)?;
    Some(text[..at].chars().count() + key.chars().count() + 1)
}

/// What an `--alter` adds and deletes, with where each stands.
struct ConfigChanges {
    /// `--add-config` pairs ([`parse_add_config`]).
    add: Vec<ConfigValue>,
    /// `--delete-config` keys, trimmed.
    delete: Vec<String>,
    /// Where the first `--delete-config` value stands.
    delete_position: Option<Position>,
    /// Where the `--add-config` value stands, or the command's start.
    add_at: Position,
    /// Where the first `--delete-config` value stands, or the command's start.
    delete_at: Position,
}

/// `parseConfigsToBeAdded` and `parseConfigsToBeDeleted`.
///
/// # Errors
///
/// [`ErrorKind::Unsupported`] for `--add-config-file`; the tool's messages
/// for a repeated `--add-config` or a malformed one ([`parse_add_config`]).
fn config_changes(opts: &Options, start: Position) -> Result<ConfigChanges, Error> {
    if let Some(occ) = opts.first(Opt::AddConfigFile) {
        return Err(Error::unsupported(
            occ.position,
            format!("--add-config-file {}", occ.value.as_deref().unwrap_or("")),
            "it names a properties file that is not part of the input; put its key=value lines in --add-config instead",
        ));
    }
    let mut add: Vec<ConfigValue> = Vec::new();
    if let Some(occ) = opts.value_of(Opt::AddConfig)? {
        let text = occ.value.as_deref().unwrap_or("");
        // Where each character of the argument stands, to place a pair's
        // problem at its value (inside the quotes), not at the word's start.
        let chars = occ
            .raw_value
            .as_deref()
            .and_then(|raw| super::args::value_char_positions(raw, &occ.raw_positions, text));
        for (key, value) in parse_add_config(text, occ.value_position)? {
            let position = chars
                .as_deref()
                .and_then(|at| value_position_in(text, &key, &value).and_then(|i| at.get(i)).copied())
                .unwrap_or(occ.value_position);
            add.push(ConfigValue { key, value, position });
        }
    }
    let delete_occ = opts.values_of(Opt::DeleteConfig);
    let delete_position = delete_occ.first().map(|o| o.value_position);
    let delete: Vec<String> = delete_occ
        .iter()
        .map(|o| o.value.as_deref().unwrap_or("").trim().to_owned())
        .collect();
    Ok(ConfigChanges {
        add,
        delete,
        delete_position,
        add_at: opts
            .first(Opt::AddConfig)
            .map_or(start, |o| o.value_position),
        delete_at: delete_position.unwrap_or(start),
    })
}

/// The keys each entity type may have (the users / clients / ips branches
/// of `alterConfig`): quota keys for clients and user+client pairs, quota
/// keys or SCRAM credentials (never both) for users, and only
/// `connection_creation_rate` for ips.
fn check_config_keys(
    opts: &Options,
    typed: &[(EntityType, Position)],
    names: &[Written],
    changes: &ConfigChanges,
    arg_strings: &[String],
) -> Result<(), Error> {
    match typed[0].0 {
        head_type @ (EntityType::User | EntityType::ClientId) => {
            check_user_client_keys(opts, head_type, typed.len(), names, changes, arg_strings)
        }
        EntityType::Ip => check_ip_keys(changes),
    }
}

/// [`check_config_keys`] for `users`, `clients` and the pair.
fn check_user_client_keys(
    opts: &Options,
    head_type: EntityType,
    type_count: usize,
    names: &[Written],
    changes: &ConfigChanges,
    arg_strings: &[String],
) -> Result<(), Error> {
    let add_keys: Vec<String> = changes.add.iter().map(|c| c.key.clone()).collect();
    let (unknown_add, scram_add) = unknown_and_scram(&add_keys);
    let (unknown_del, scram_del) = unknown_and_scram(&changes.delete);
    let quota_change = add_keys.iter().any(|k| is_client_quota_key(k))
        || changes.delete.iter().any(|k| is_client_quota_key(k));
    let sides = [
        ("added", &unknown_add, &scram_add, changes.add_at),
        ("deleted", &unknown_del, &scram_del, changes.delete_at),
    ];
    if head_type == EntityType::ClientId || type_count == 2 {
        for (verb, unknown, scram, at) in sides {
            if !unknown.is_empty() || !scram.is_empty() {
                let set = hash_set_order(
                    dedup(unknown.iter().chain(scram).cloned()),
                    MapInit::CopyOfCollection(0),
                );
                return Err(Error::tool(
                    at,
                    format!("Only quota configs can be {verb} for 'clients' using --bootstrap-server. Unexpected config names: {}", set.join(",")),
                    "quota keys only (producer_byte_rate, consumer_byte_rate, request_percentage, controller_mutation_rate)",
                ));
            }
        }
    } else {
        for (verb, unknown, _, at) in sides {
            if !unknown.is_empty() {
                let set = hash_set_order(dedup(unknown.iter().cloned()), MapInit::Default);
                return Err(Error::tool(
                    at,
                    format!(
                        "Only quota and SCRAM credential configs can be {verb} for 'users' using --bootstrap-server. Unexpected config names: {}",
                        set.join(",")
                    ),
                    "quota keys (producer_byte_rate, consumer_byte_rate, request_percentage, controller_mutation_rate) or SCRAM credentials",
                ));
            }
        }
        if !scram_add.is_empty() || !scram_del.is_empty() {
            if names.iter().any(|(n, _)| n.is_empty()) {
                return Err(Error::tool(
                    changes.add_at,
                    "The use of --entity-default or --user-defaults is not allowed with User SCRAM Credentials using --bootstrap-server.",
                    "a named user for SCRAM credentials",
                ));
            }
            if quota_change {
                return Err(Error::tool(
                    changes.add_at,
                    "Cannot alter both quota and SCRAM credential configs simultaneously for 'users' using --bootstrap-server.",
                    "quota keys and SCRAM credentials in separate commands",
                ));
            }
            let which = dedup(scram_add.into_iter().chain(scram_del)).join(", ");
            return Err(Error::unsupported(
                if opts.has(Opt::AddConfig) {
                    changes.add_at
                } else {
                    changes.delete_at
                },
                format!("Altering the SCRAM credential {which}"),
                "a SCRAM credential is a user's password, not a client quota, and kafka-quota models quotas only",
            ));
        }
    }
    if !quota_change && names.len() != 1 {
        // ConfigCommand's "should never happen" IllegalStateException.
        return Err(Error::tool(
            changes.add_at,
            format!(
                "Error while executing config command with args '{}'\njava.lang.IllegalStateException: Altering user SCRAM credentials should never occur for more zero or multiple users: [{}]",
                arg_strings.join(" "),
                names.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
            ),
            "at least one quota key in --add-config or --delete-config",
        ));
    }
    Ok(())
}

/// The keys that are neither client-quota keys nor SCRAM mechanisms, and
/// the SCRAM mechanisms, each in order.
fn unknown_and_scram(keys: &[String]) -> (Vec<String>, Vec<String>) {
    let is_scram = |k: &str| SCRAM_MECHANISMS.contains(&k);
    let unknown = keys
        .iter()
        .filter(|k| !is_scram(k) && !is_client_quota_key(k))
        .cloned()
        .collect();
    let scram = keys.iter().filter(|k| is_scram(k)).cloned().collect();
    (unknown, scram)
}

/// [`check_config_keys`] for `ips`: `connection_creation_rate` only.
fn check_ip_keys(changes: &ConfigChanges) -> Result<(), Error> {
    let all: Vec<String> = dedup(
        changes
            .add
            .iter()
            .map(|c| c.key.clone())
            .chain(changes.delete.iter().cloned()),
    );
    let unknown: Vec<String> = all
        .into_iter()
        .filter(|k| k != QuotaKey::ConnectionCreationRate.as_str())
        .collect();
    if !unknown.is_empty() {
        let set = hash_set_order(unknown, MapInit::Default);
        return Err(Error::tool(
            if changes.add.iter().any(|c| set.contains(&c.key)) {
                changes.add_at
            } else {
                changes.delete_at
            },
            format!("Only connection quota configs can be added for 'ips' using --bootstrap-server. Unexpected config names: {}", set.join(", ")),
            "connection_creation_rate, the only key of ip entities",
        ));
    }
    Ok(())
}

/// The `--alter` of the entity the types and names make.
fn alteration(
    typed: &[(EntityType, Position)],
    names: &[Written],
    changes: ConfigChanges,
    start: Position,
) -> Result<AlterQuota, Error> {
    let parts: Vec<(EntityType, EntityName)> = typed
        .iter()
        .zip(names)
        .map(|((t, _), (n, _))| {
            (
                *t,
                if n.is_empty() {
                    EntityName::Default
                } else {
                    EntityName::Named(n.clone())
                },
            )
        })
        .collect();
    let entity = QuotaEntity::from_parts(&parts).ok_or_else(|| {
        // Unreachable after the checks above (types are distinct and only users+clients combine).
        Error::syntax(
            start,
            "users, clients, users and clients, or ips",
            "another combination of entity types",
        )
    })?;
    Ok(AlterQuota {
        entity,
        head: parts[0].clone(),
        add: changes.add,
        delete: changes.delete,
        delete_position: changes.delete_position,
    })
}

/// Removes repeats, keeping first occurrences in order.
fn dedup(items: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_checks_name_the_side_that_is_wrong() {
        let fail = |args: &str| {
            let text = format!("kafka-configs.sh --bootstrap-server b:9092 --alter {args}");
            let e = crate::configs_sh::parse_command(&text, Mode::Strict).unwrap_err();
            let column = u32::try_from(text.find(" foo").map_or(0, |i| i + 2)).unwrap();
            (e.tool_stderr().map(str::to_owned), e.position.column == column)
        };
        assert_eq!(
            fail("--entity-type clients --entity-name c --add-config consumer_byte_rate=1 --delete-config foo"),
            (Some("Only quota configs can be deleted for 'clients' using --bootstrap-server. Unexpected config names: foo".to_owned()), true)
        );
        assert_eq!(
            fail("--entity-type users --entity-name u --add-config consumer_byte_rate=1 --delete-config foo"),
            (Some("Only quota and SCRAM credential configs can be deleted for 'users' using --bootstrap-server. Unexpected config names: foo".to_owned()), true)
        );
        assert_eq!(
            fail("--entity-type users --entity-name u --add-config consumer_byte_rate=1,SCRAM-SHA-256=[password=x]").0.as_deref(),
            Some("Cannot alter both quota and SCRAM credential configs simultaneously for 'users' using --bootstrap-server.")
        );
    }

    #[test]
    fn add_config_splits_like_the_tool() {
        let p = Position::new(1, 1);
        assert_eq!(
            parse_add_config(
                "producer_byte_rate=1024000, consumer_byte_rate = 1024000",
                p
            )
            .unwrap(),
            [
                ("producer_byte_rate".to_owned(), "1024000".to_owned()),
                ("consumer_byte_rate".to_owned(), "1024000".to_owned())
            ]
        );
        assert_eq!(
            parse_add_config("SCRAM-SHA-256=[iterations=4096,password=pw],a=[1]", p).unwrap(),
            [
                (
                    "SCRAM-SHA-256".to_owned(),
                    "iterations=4096,password=pw".to_owned()
                ),
                ("a".to_owned(), "1".to_owned())
            ]
        );
        assert_eq!(
            parse_add_config("a=1,", p).unwrap(),
            [("a".to_owned(), "1".to_owned())]
        );
        assert_eq!(
            parse_add_config("a=1,a=2", p).unwrap(),
            [("a".to_owned(), "2".to_owned())]
        );
        assert_eq!(
            parse_add_config("c=", p).unwrap(),
            [("c".to_owned(), String::new())]
        );
        for bad in ["a", "a=b=c", "a,=b", "", ",a=1"] {
            let e = parse_add_config(bad, p).unwrap_err();
            assert!(
                e.tool_stderr()
                    .unwrap()
                    .starts_with("Invalid entity config"),
                "{bad}"
            );
        }
        let e = parse_add_config("a;c=b", p).unwrap_err();
        assert_eq!(
            e.tool_stderr(),
            Some("Invalid character found for config key: a;c")
        );
    }

    #[test]
    fn finds_shell_variables_and_placeholders() {
        assert_eq!(find_variables("\"$user\""), ["$user"]);
        assert_eq!(
            find_variables("producer_byte_rate=${RATE},x=$(cat f)"),
            ["${RATE}", "$(cat f)"]
        );
        assert_eq!(find_variables("consumer_app_$ID"), ["$ID"]);
        assert_eq!(find_variables("{{ .Values.user }}"), ["{{ .Values.user }}"]);
        assert!(find_variables("a=1$").is_empty());
        assert!(find_variables("plain-name").is_empty());
    }

    #[test]
    fn ip_names_follow_inet_address_without_dns() {
        assert_eq!(ip_is_acceptable("127.0.0.1"), Ok(None));
        assert_eq!(ip_is_acceptable("::1"), Ok(None));
        assert!(ip_is_acceptable("broker-1.example.io").unwrap().is_some());
        assert!(ip_is_acceptable("93.284.53.13").is_err());
        assert!(ip_is_acceptable("A,B").is_err());
        assert!(ip_is_acceptable("RFC2606.invalid").is_err());
    }
}
