//! `kafka-configs.sh` command lines for client quotas: parse them as the
//! Kafka 4.x tool does, apply them to a [`QuotaStore`] and print what the
//! tool prints, or fail as it fails.
//!
//! Two modes:
//!
//! - [`Mode::Strict`] is the 4.x tool: `--zookeeper` is `zookeeper is not a
//!   recognized option`, `--bootstrap-server` (or `--bootstrap-controller`)
//!   is required, and every check and message is the tool's.
//! - [`Mode::Import`] reads what real runbooks contain and keeps going:
//!   `--zookeeper` forms (with a note that 4.0 removed the flag), commands
//!   pasted across lines without backslashes, prompts, wrappers such as
//!   `docker exec ... bash -c "..."` and `kubectl exec ... --`, ignored
//!   connection options. It still refuses what it cannot know: unexpanded
//!   shell variables (reported by name), `--add-config-file`, SCRAM
//!   credentials, non-quota entity types.
//!
//! In both modes words are split by the `shell-words` crate, `\`-newline
//! joins lines, `#` comment lines and blank lines are skipped.
//!
//! Kafka: `ConfigCommand` (`tools/src/main/java/org/apache/kafka/tools/ConfigCommand.java`
//! in 4.1+, `core/src/main/scala/kafka/admin/ConfigCommand.scala` before).
//!
//! # Example
//!
//! ```
//! use quota_engine::QuotaStore;
//! use quota_formats::configs_sh::{parse_command, Mode};
//!
//! let mut store = QuotaStore::new();
//! let cmd = parse_command(
//!     "kafka-configs.sh --bootstrap-server localhost:9092 --alter \
//!      --add-config producer_byte_rate=1024 --entity-type users --entity-name alice",
//!     Mode::Strict,
//! )?;
//! assert_eq!(cmd.apply(&mut store)?, ["Completed updating config for user alice."]);
//! # Ok::<(), quota_formats::Error>(())
//! ```

pub(crate) mod args;
pub(crate) mod command;
pub(crate) mod script;

use quota_engine::{
    Alteration, ApiError, EntityName, EntityType, ErrorCode, FilterComponent, FilterMatch, Op,
    QuotaFilter, QuotaStore, RawEntity,
};

pub use command::{
    Action, AlterQuota, ConfigValue, ConfigsCommand, DescribeComponent, DescribeQuota, NameMatch,
};

use quota_engine::jdk::double::parse_double;
use quota_engine::jdk::hashmap::{hashmap_order, hashmap_table_size, string_hash, MapInit};

use crate::describe::describe_lines;
use crate::error::{Error, Position};

/// How faithfully to read commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// Exactly the Kafka 4.x tool.
    #[default]
    Strict,
    /// Real runbooks: removed flags, pasted lines and wrappers are read, with notes.
    Import,
}

/// Parses one command (it may span lines joined by `\`-newline, and in
/// import mode lines pasted without backslashes).
///
/// # Errors
///
/// The first problem, with line and column: not a `kafka-configs` command,
/// an open quote, the tool's own failures (exact message in
/// [`Error::tool_stderr`]), unexpanded variables, unsupported inputs.
/// Text with several commands is an error: use [`parse_script`].
pub fn parse_command(text: &str, mode: Mode) -> Result<ConfigsCommand, Error> {
    let lines = script::logical_lines(text, mode);
    let Some(line) = lines.first() else {
        return Err(Error::syntax(
            Position::new(1, 1),
            "a kafka-configs.sh command",
            "no command (only blank or comment lines)",
        ));
    };
    if let Some(extra) = lines.get(1) {
        return Err(Error::syntax(
            extra.start(),
            "one command (use parse_script for several)",
            "a second command",
        ));
    }
    let inv = script::find_invocation(line, mode)?;
    command::build(&inv, mode)
}

/// One command of a script and what parsing it gave.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptCommand {
    /// Where the command starts.
    pub position: Position,
    /// The command's text as one line (continuations joined).
    pub text: String,
    /// The parsed command, or why it could not be parsed.
    pub command: Result<ConfigsCommand, Error>,
}

/// Splits a script or runbook into commands and parses each.
///
/// In [`Mode::Strict`] every non-blank, non-comment line must be a
/// `kafka-configs` command. In [`Mode::Import`] lines that do not mention
/// `kafka-configs` together with an option (prose, pasted output, code
/// fences) are skipped.
pub fn parse_script(text: &str, mode: Mode) -> Vec<ScriptCommand> {
    script::logical_lines(text, mode)
        .into_iter()
        .filter(|line| {
            mode == Mode::Strict
                || (line.text.contains("kafka-configs")
                    && line
                        .text
                        .split_whitespace()
                        .any(|w| w.trim_start_matches(['\'', '"']).starts_with('-')))
        })
        .map(|line| ScriptCommand {
            position: line.start(),
            text: line.text.clone(),
            command: script::find_invocation(&line, mode)
                .and_then(|inv| command::build(&inv, mode)),
        })
        .collect()
}

/// The result of running one command of a script.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandOutcome {
    /// Where the command starts.
    pub position: Position,
    /// The command's text as one line.
    pub text: String,
    /// Import notes of the command (empty when it did not parse).
    pub notes: Vec<String>,
    /// The command's `--bootstrap-server` (none when it did not parse).
    pub bootstrap_server: Option<String>,
    /// The lines the tool prints on stdout, or the error.
    pub result: Result<Vec<String>, Error>,
}

/// Parses `text` and applies every command in order to `store`; a failing
/// command leaves the store as it was and the next ones still run.
pub fn run_script(text: &str, mode: Mode, store: &mut QuotaStore) -> Vec<CommandOutcome> {
    parse_script(text, mode)
        .into_iter()
        .map(|sc| {
            let (notes, bootstrap_server, result) = match sc.command {
                Ok(cmd) => (cmd.notes.clone(), cmd.bootstrap_server.clone(), cmd.apply(store)),
                Err(e) => (Vec::new(), None, Err(e)),
            };
            CommandOutcome {
                position: sc.position,
                text: sc.text,
                notes,
                bootstrap_server,
                result,
            }
        })
        .collect()
}

/// The Java exception class the admin client raises for an error code.
fn exception_class(code: ErrorCode) -> String {
    match code {
        ErrorCode::InvalidRequest => "InvalidRequestException".to_owned(),
        ErrorCode::UnsupportedVersion => "UnsupportedVersionException".to_owned(),
        ErrorCode::PolicyViolation => "PolicyViolationException".to_owned(),
        other => {
            let camel: String = other
                .name()
                .split('_')
                .map(|w| {
                    let lower = w.to_ascii_lowercase();
                    let mut cs = lower.chars();
                    cs.next()
                        .map(|f| f.to_ascii_uppercase().to_string() + cs.as_str())
                        .unwrap_or_default()
                })
                .collect();
            format!("{camel}Exception")
        }
    }
}

/// The tool's output when the cluster answers with an error: `main` catches
/// the `ExecutionException` as a `Throwable` and prints this line, then the
/// stack trace (whose first line is given; frames are left out).
fn server_failure(cmd: &ConfigsCommand, error: &ApiError) -> Error {
    Error::tool(
        cmd.position,
        format!(
            "Error while executing config command with args '{}'\njava.util.concurrent.ExecutionException: org.apache.kafka.common.errors.{}: {}",
            cmd.args.join(" "),
            exception_class(error.code),
            error.message
        ),
        format!("a request the cluster accepts, but it answered {}", error.code.name()),
    )
}

/// Parses one `--add-config` quota value as `kafka-configs.sh` does
/// (`Double.parseDouble`: `2000000`, `2e6`, ` 0.5 `, `NaN`, `0x1p3`).
///
/// Kafka: `ConfigCommand.alterQuotaConfigs`,
/// core/src/main/scala/kafka/admin/ConfigCommand.scala.
///
/// # Errors
///
/// The tool's message, `Cannot parse quota configuration value for
/// producer_byte_rate: abc`, naming `key` and `value` as given.
pub fn parse_quota_value(key: &str, value: &str) -> Result<f64, String> {
    parse_double(value)
        .ok_or_else(|| format!("Cannot parse quota configuration value for {key}: {value}"))
}

/// A quota value as written in an `--add-config`: see [`alter_commands`].
fn typed_value(v: f64) -> String {
    // Whole and exact as an i64 (|v| < 2^53): `{}` of the i64, never `-0`.
    if v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
        format!("{}", v as i64)
    } else {
        quota_engine::java_double_to_string(v)
    }
}

/// One `kafka-configs.sh --alter` command per entity of `store`, in the
/// store's order; a whole value below 2^53 as an operator types it
/// (`41943040`), any other with Java's `Double.toString` (`12.5`, `NaN`,
/// `1.0E20`). The tool reads both with `toDouble`, so the quota is the same.
///
/// The printer beside [`parse_script`]: read in [`Mode::Import`], the
/// commands give back the same store. The commands name
/// `--bootstrap-server` [`DEFAULT_BOOTSTRAP_SERVER`]; [`alter_commands_to`]
/// names another.
pub fn alter_commands(store: &QuotaStore) -> String {
    alter_commands_to(store, DEFAULT_BOOTSTRAP_SERVER)
}

/// The `--bootstrap-server` of [`alter_commands`]: a broker on this machine.
pub const DEFAULT_BOOTSTRAP_SERVER: &str = "localhost:9092";

/// A `--bootstrap-server` value as a shell word: quoted where the shell
/// would change it, except that an unexpanded variable a runbook used
/// (`$BOOTSTRAP`, `${KAFKA}:9092`) stays a variable, in double quotes.
fn bootstrap_word(value: &str) -> String {
    let variable = value.contains('$')
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "$_{}:.,-[]".contains(c));
    if variable {
        format!("\"{value}\"")
    } else {
        shell_words::quote(value).into_owned()
    }
}

/// [`alter_commands`] with `--bootstrap-server bootstrap_server` (quoted
/// for the shell where it needs it), e.g. the one of the runbook the
/// store was read from.
pub fn alter_commands_to(store: &QuotaStore, bootstrap_server: &str) -> String {
    let mut out = String::new();
    for (entity, values) in store.entries() {
        if values.is_empty() {
            continue;
        }
        let mut words = vec![
            "kafka-configs.sh".to_owned(),
            "--bootstrap-server".to_owned(),
            bootstrap_word(bootstrap_server),
            "--alter".to_owned(),
        ];
        for (t, name) in entity.parts() {
            words.push("--entity-type".to_owned());
            words.push(command::entity_type_word(t).to_owned());
            match name {
                EntityName::Named(n) => {
                    words.push("--entity-name".to_owned());
                    words.push(shell_words::quote(n).into_owned());
                }
                EntityName::Default => words.push("--entity-default".to_owned()),
            }
        }
        words.push("--add-config".to_owned());
        let configs: Vec<String> = values
            .iter()
            .map(|(k, v)| format!("{}={}", k.as_str(), typed_value(*v)))
            .collect();
        words.push(configs.join(","));
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

/// The wire type of an entity type.
fn wire(t: EntityType) -> &'static str {
    t.as_str()
}

impl ConfigsCommand {
    /// Applies the command to `store` as the 4.x tool does against a
    /// cluster, returning the lines it prints on stdout.
    ///
    /// `--alter`: reads the entity's current quotas, refuses deleting keys
    /// that are not set (`Invalid config(s): k`), parses values with
    /// `Double.parseDouble` (`Cannot parse quota configuration value for k:
    /// v`), sends one `AlterClientQuotas` alteration (server errors come
    /// back as the tool prints them), then prints `Completed updating config
    /// for user alice.` or `Completed updating default config for users in
    /// the cluster.`. `--describe`: a strict filter, lines as
    /// [`describe_lines`].
    ///
    /// Kafka: `ConfigCommand.alterQuotaConfigs`, `describeQuotaConfigs`.
    ///
    /// # Errors
    ///
    /// The tool's failures as [`crate::ErrorKind::Tool`] with its exact
    /// message; the store is unchanged then.
    pub fn apply(&self, store: &mut QuotaStore) -> Result<Vec<String>, Error> {
        match &self.action {
            Action::Alter(alter) => self.apply_alter(alter, store),
            Action::Describe(describe) => {
                let filter = QuotaFilter::contains_only(
                    describe
                        .components
                        .iter()
                        .map(|c| FilterComponent {
                            entity_type: wire(c.entity_type).to_owned(),
                            matcher: match &c.name {
                                NameMatch::Named(n) => FilterMatch::Exact(n.clone()),
                                NameMatch::Default => FilterMatch::Default,
                                NameMatch::Any => FilterMatch::Any,
                            },
                        })
                        .collect(),
                );
                let found = store
                    .describe(&filter)
                    .map_err(|e| server_failure(self, &e))?;
                Ok(describe_lines(found.iter().map(|(e, v)| (e, v))))
            }
        }
    }

    fn apply_alter(
        &self,
        alter: &AlterQuota,
        store: &mut QuotaStore,
    ) -> Result<Vec<String>, Error> {
        let current = store.get(&alter.entity);
        let missing: Vec<&str> = alter
            .delete
            .iter()
            .filter(|k| !current.is_some_and(|c| c.keys().any(|q| q.as_str() == k.as_str())))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            return Err(Error::tool(
                alter.delete_position.unwrap_or(self.position),
                format!("Invalid config(s): {}", missing.join(",")),
                "--delete-config of keys the entity has",
            ));
        }
        // configsToBeAddedMap is a HashMap (Collectors.toMap): values are parsed in its order.
        let n = u32::try_from(alter.add.len()).unwrap_or(u32::MAX);
        let in_map_order = hashmap_order(
            alter.add.iter().collect::<Vec<_>>(),
            hashmap_table_size(MapInit::Default, n),
            |c| string_hash(&c.key),
        );
        let mut ops: Vec<Op> = Vec::new();
        for c in in_map_order {
            match parse_quota_value(&c.key, &c.value) {
                Ok(v) => ops.push(Op::set(&c.key, v)),
                Err(message) => {
                    return Err(Error::tool(
                        c.position,
                        message,
                        format!("a number for {}", c.key),
                    ))
                }
            }
        }
        ops.extend(alter.delete.iter().map(|k| Op::remove(k)));
        // The entity map is a HashMap<String, String>: pairs go on the wire in its order.
        let pairs: Vec<(String, Option<String>)> = alter
            .entity
            .parts()
            .into_iter()
            .map(|(t, n)| (wire(t).to_owned(), n.as_option().map(str::to_owned)))
            .collect();
        let pairs = hashmap_order(pairs, hashmap_table_size(MapInit::Default, 2), |(t, _)| {
            string_hash(t)
        });
        let results = store.alter(&[Alteration {
            entity: RawEntity(pairs),
            ops,
        }]);
        if let Some(error) = results.into_iter().find_map(|r| r.error) {
            return Err(server_failure(self, &error));
        }
        let (head_type, head_name) = &alter.head;
        let plural = match head_type {
            EntityType::User => "users",
            EntityType::ClientId => "clients",
            EntityType::Ip => "ips",
        };
        Ok(vec![match head_name {
            EntityName::Named(n) => format!(
                "Completed updating config for {} {}.",
                &plural[..plural.len() - 1],
                n
            ),
            EntityName::Default => {
                format!("Completed updating default config for {plural} in the cluster.")
            }
        }])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use quota_engine::{QuotaEntity, QuotaKey};

    const BS: &str = "kafka-configs.sh --bootstrap-server localhost:9092";

    fn run(store: &mut QuotaStore, args: &str) -> Result<Vec<String>, Error> {
        parse_command(&format!("{BS} {args}"), Mode::Strict)?.apply(store)
    }

    fn stderr(store: &mut QuotaStore, args: &str) -> String {
        run(store, args)
            .unwrap_err()
            .tool_stderr()
            .unwrap_or("<not a tool error>")
            .to_owned()
    }

    #[test]
    fn alters_and_describes_like_the_tool() {
        let mut s = QuotaStore::new();
        assert_eq!(
            run(
                &mut s,
                "--alter --user alice --client app --add-config producer_byte_rate=1024"
            )
            .unwrap(),
            ["Completed updating config for client app."]
        );
        assert_eq!(
            run(
                &mut s,
                "--alter --client-defaults --add-config consumer_byte_rate=10"
            )
            .unwrap(),
            ["Completed updating default config for clients in the cluster."]
        );
        assert_eq!(
            run(&mut s, "--describe --entity-type users --entity-type clients").unwrap(),
            ["Quota configs for user-principal 'alice', client-id 'app' are producer_byte_rate=1024.0"]
        );
        assert_eq!(
            run(&mut s, "--describe --entity-type clients --entity-default").unwrap(),
            ["Quota configs for the default client-id are consumer_byte_rate=10.0"]
        );
        let pair = QuotaEntity::UserClientId {
            user: EntityName::Named("alice".into()),
            client_id: EntityName::Named("app".into()),
        };
        assert_eq!(s.get(&pair).unwrap()[&QuotaKey::ProducerByteRate], 1024.0);
        assert_eq!(
            run(&mut s, "--alter --entity-type users --entity-name alice --entity-type clients --entity-name app --delete-config producer_byte_rate")
                .unwrap(),
            ["Completed updating config for user alice."]
        );
        assert!(s.get(&pair).is_none());
    }

    #[test]
    fn fails_as_the_tool_fails() {
        let mut s = QuotaStore::new();
        assert_eq!(
            stderr(
                &mut s,
                "--zookeeper localhost:2181 --describe --entity-type users"
            ),
            "zookeeper is not a recognized option"
        );
        assert_eq!(
            parse_command(
                "kafka-configs.sh --alter --entity-type users --entity-name a --add-config a=1",
                Mode::Strict
            )
            .unwrap_err()
            .tool_stderr(),
            Some("Either --bootstrap-server or --bootstrap-controller must be specified.")
        );
        assert_eq!(
            stderr(&mut s, "--alter --entity-type users --add-config consumer_byte_rate=2048"),
            "An entity-name or default entity must be specified with --alter of users, clients, brokers or ips"
        );
        assert_eq!(
            stderr(&mut s, "--alter --entity-type users --entity-type clients --entity-name a --add-config consumer_byte_rate=2048"),
            "An entity name must be specified for every entity type"
        );
        assert_eq!(
            stderr(&mut s, "--alter --entity-type clients --entity-name c --add-config consumer_byte_rate=1,foo=2,bar=3"),
            "Only quota configs can be added for 'clients' using --bootstrap-server. Unexpected config names: bar,foo"
        );
        assert_eq!(
            stderr(
                &mut s,
                "--alter --entity-type users --entity-name u --add-config producer_byte_rate=10MB"
            ),
            "Cannot parse quota configuration value for producer_byte_rate: 10MB"
        );
        assert_eq!(
            stderr(&mut s, "--alter --entity-type users --entity-name u --delete-config producer_byte_rate,request_percentage"),
            "Invalid config(s): producer_byte_rate,request_percentage"
        );
        assert_eq!(
            stderr(&mut s, "--describe --add-config a=1 --entity-type users"),
            "Option \"[describe]\" can't be used with option \"[add-config]\""
        );
        assert_eq!(
            stderr(&mut s, "--alter --describe --entity-type users"),
            "Command must include exactly one action: --describe, --alter"
        );
        assert_eq!(
            stderr(&mut s, "--alter --entity-type users --entity-type ips --entity-name a --entity-name b --add-config a=1"),
            "Only 'users' and 'clients' entity types may be specified together"
        );
        assert_eq!(
            stderr(&mut s, "--alter --entity-type ips --entity-name 93.284.53.13 --add-config connection_creation_rate=1"),
            "The entity name for ips must be a valid IP or resolvable host, but it is: 93.284.53.13"
        );
        assert_eq!(
            stderr(&mut s, "--alter --ip 10.0.0.1 --add-config producer_byte_rate=1,x=2"),
            "Only connection quota configs can be added for 'ips' using --bootstrap-server. Unexpected config names: x, producer_byte_rate"
        );
        assert_eq!(
            stderr(&mut s, "--alter --entity-type users --entity-name u --add-config producer_byte_rate=-5"),
            "Error while executing config command with args '--bootstrap-server localhost:9092 --alter --entity-type users --entity-name u --add-config producer_byte_rate=-5'\njava.util.concurrent.ExecutionException: org.apache.kafka.common.errors.InvalidRequestException: Quota producer_byte_rate must be greater than 0"
        );
        assert!(s.is_empty());
    }

    #[test]
    fn a_runbook_gives_one_result_per_command() {
        let runbook = "## Quotas\n\nRun kafka-configs.sh to set them:\n\n```bash\n\
            $ kafka-configs --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1024 --user-defaults\n\
            Completed updating default config for users in the cluster.\n\
            $ kafka-configs --bootstrap-server b:9092 --alter --add-config producer_byte_rate=0 --user alice\n\
            kubectl -n kafka exec broker-0 -- /opt/kafka/bin/kafka-configs.sh --bootstrap-server b:9092 \\\n\
              --describe --entity-type users\n```\n";
        let mut store = QuotaStore::new();
        let outcomes = run_script(runbook, Mode::Import, &mut store);
        assert_eq!(outcomes.len(), 3);
        assert_eq!(outcomes[0].position, Position::new(6, 3));
        assert_eq!(
            outcomes[0].result.as_deref().unwrap(),
            ["Completed updating default config for users in the cluster."]
        );
        let e = outcomes[1].result.as_ref().unwrap_err();
        assert!(e
            .tool_stderr()
            .unwrap()
            .ends_with("InvalidRequestException: Quota producer_byte_rate must be greater than 0"));
        assert_eq!(
            outcomes[2].result.as_deref().unwrap(),
            ["Quota configs for the default user-principal are producer_byte_rate=1024.0"]
        );
        assert!(outcomes[2].notes[0]
            .starts_with("Dropped the wrapper `kubectl -n kafka exec broker-0 --`"));
    }

    /// Where the error for an unexpanded variable is placed, and its message.
    fn variable_error(text: &str, mode: Mode) -> Position {
        let e = parse_command(text, mode).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::UnexpandedVariables { .. }),
            "{text}: {e}"
        );
        e.position
    }

    #[test]
    fn a_value_kafka_cannot_parse_is_placed_at_the_value_inside_its_quotes() {
        // Column of `abc` in each form: quoted, double-quoted with an escape,
        // inline `--add-config=`, and the last of a repeated key.
        for args in [
            "--alter --entity-type users --entity-name u --add-config 'producer_byte_rate=abc'",
            "--alter --entity-type users --entity-name u --add-config \"consumer_byte_rate=1,producer_byte_rate=abc\"",
            "--alter --entity-type users --entity-name u --add-config=producer_byte_rate=abc",
            "--alter --entity-type users --entity-name u --add-config 'producer_byte_rate=9,producer_byte_rate=abc'",
        ] {
            let text = format!("{BS} {args}");
            let e = parse_command(&text, Mode::Strict).unwrap().apply(&mut QuotaStore::new()).unwrap_err();
            assert_eq!(e.tool_stderr(), Some("Cannot parse quota configuration value for producer_byte_rate: abc"), "{args}");
            let column = u32::try_from(text.rfind("abc").unwrap() + 1).unwrap();
            assert_eq!(e.position, Position::new(1, column), "{args}");
        }
        // `$'...'` quoting is not followed: the word's start.
        let text = format!("{BS} --alter --entity-type users --entity-name u --add-config $'producer_byte_rate=abc'");
        if let Ok(c) = parse_command(&text, Mode::Strict) {
            let e = c.apply(&mut QuotaStore::new()).unwrap_err();
            assert!(e.position.column as usize <= text.find("producer").unwrap(), "{:?}", e.position);
        }
    }

    #[test]
    fn a_dollar_in_a_single_quoted_entity_name_is_part_of_the_name() {
        let run = |args: &str| {
            let mut store = QuotaStore::new();
            let out = run_script(&format!("{BS} {args}"), Mode::Strict, &mut store);
            (out.into_iter().next().unwrap(), store)
        };
        let (o, store) = run("--alter --entity-type users --entity-name 'a$b' --add-config producer_byte_rate=1000");
        assert!(o.result.is_ok(), "{:?}", o.result);
        assert!(o.notes.iter().any(|n| n == "$b in single quotes in the entity name: the shell does not expand it, so the name holds it as written."), "{:?}", o.notes);
        assert!(format!("{store:?}").contains("a$b"), "{store:?}");
        // Unquoted or double-quoted, the shell would expand it: refused.
        for args in [
            "--alter --entity-type users --entity-name \"a$b\" --add-config producer_byte_rate=1000",
            "--alter --entity-type users --entity-name a$b --add-config producer_byte_rate=1000",
            // A value in single quotes is never a number Kafka reads: still named.
            "--alter --entity-type users --entity-name a --add-config 'producer_byte_rate=$RATE'",
        ] {
            let (o, _) = run(args);
            assert!(matches!(o.result.unwrap_err().kind, ErrorKind::UnexpandedVariables { .. }), "{args}");
        }
    }

    #[test]
    fn an_unexpanded_variable_is_placed_at_its_dollar() {
        // The reviewer's runbook: eight lines before, `producer_byte_rate`
        // at column 73 and `$RATE` at column 92 of line 9.
        let head = "#!/bin/sh\n# quotas\n\nset -e\n\n# tenant a\n\n# rate\n";
        let cmd = format!("{BS} --alter --add-config producer_byte_rate=$RATE --entity-type users --entity-name alice");
        assert_eq!(cmd.find("producer_byte_rate"), Some(72));
        let script = parse_script(&format!("{head}{cmd}\n"), Mode::Import);
        let commands: Vec<_> = script
            .iter()
            .filter(|c| c.text.contains("kafka-configs"))
            .collect();
        assert_eq!(commands.len(), 1);
        let e = commands[0].command.as_ref().unwrap_err();
        assert_eq!(e.position, Position::new(9, 92));
        assert!(e.to_string().contains("$RATE"), "{e}");
        for (args, column) in [
            // `${RATE}`, bare and inside quotes (the `$`, not the quote).
            ("--add-config producer_byte_rate=${RATE} --user alice", 92),
            ("--add-config 'producer_byte_rate=$RATE' --user alice", 93),
            ("--add-config \"producer_byte_rate=${RATE}\" --user alice", 93),
            // A later pair in the same value.
            ("--add-config producer_byte_rate=1,consumer_byte_rate=$C --user alice", 113),
            // The inline `--option=value` form.
            ("--add-config=producer_byte_rate=$RATE --user alice", 92),
            // Entity names: quoted, inside a word, inline.
            ("--user \"$USER\" --add-config producer_byte_rate=1", 68),
            ("--client consumer_app_$ID --add-config producer_byte_rate=1", 82),
            ("--entity-type users --entity-name=${TENANT}_user --add-config producer_byte_rate=1", 94),
            // Two words with variables: the first one in the command.
            ("--entity-type users --entity-name \"$USER\" --add-config producer_byte_rate=${RATE}", 95),
            // A variable where an option may stand.
            ("--alter --user alice $CONFIG", 81),
        ] {
            let text = format!("{BS} --alter {args}");
            let expected = u32::try_from(
                text.char_indices()
                    .position(|(i, _)| {
                        text[i..].starts_with('$') || text[i..].starts_with("{{")
                    })
                    .unwrap()
                    + 1,
            )
            .unwrap();
            assert_eq!(expected, column, "{args}: the table's column");
            let at = variable_error(&text, Mode::Strict);
            assert_eq!(at, Position::new(1, column), "{args}");
        }
        // Across a `\`-continuation the variable keeps its own line and column.
        let text =
            format!("{BS} --alter --user alice \\\n    --add-config producer_byte_rate=$RATE\n");
        assert_eq!(variable_error(&text, Mode::Strict), Position::new(2, 37));
        // Inside a wrapper's quoted command.
        let text = "docker exec broker bash -c \"kafka-configs --bootstrap-server b:9092 --alter --user alice --add-config producer_byte_rate=$RATE\"";
        let dollar = text.find('$').unwrap() + 1;
        assert_eq!(
            variable_error(text, Mode::Import),
            Position::new(1, u32::try_from(dollar).unwrap())
        );
    }

    #[test]
    fn import_mode_reads_zookeeper_and_pasted_lines() {
        let text = "kafka-configs \n  --zookeeper zk:2181/chroot\n   --alter \n    --add-config 'producer_byte_rate=1024000, consumer_byte_rate=1024000' \n   --entity-type users \n   --entity-name userXXX\n";
        let cmd = parse_command(text, Mode::Import).unwrap();
        assert!(cmd
            .notes
            .iter()
            .any(|n| n.contains("Kafka 4.0 removed --zookeeper")));
        let mut s = QuotaStore::new();
        assert_eq!(
            cmd.apply(&mut s).unwrap(),
            ["Completed updating config for user userXXX."]
        );
        assert!(parse_command(text, Mode::Strict).is_err());
    }
}
