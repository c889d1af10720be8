//! The option parser `kafka-configs.sh` uses (jopt-simple, abbreviations
//! off), reproduced for the options the tool declares.
//!
//! Kafka: `ConfigCommand.ConfigCommandOptions`
//! (`tools/src/main/java/org/apache/kafka/tools/ConfigCommand.java` in 4.1+,
//! `core/src/main/scala/kafka/admin/ConfigCommand.scala` before) and
//! `CommandDefaultOptions` (`server-common/.../server/util/CommandDefaultOptions.java`).
//! jopt-simple rules kept here: `--name value` and `--name=value`; an
//! option that takes an argument takes the next word whatever it is; `--`
//! ends the options; words that are not options are accepted and ignored;
//! a single-dash word is a long option when its name is known, otherwise a
//! cluster of one-letter options (none exist, so the first letter is
//! reported); `--delete-config` splits its value on `,` like
//! `withValuesSeparatedBy(',')` (a `StringTokenizer`: empty pieces vanish).

use crate::error::{Error, Position};

use super::script::Word;
use super::Mode;

/// The options of `kafka-configs.sh` 4.x, plus the removed ones that
/// [`Mode::Import`] still reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Opt {
    Help,
    Version,
    BootstrapServer,
    BootstrapController,
    CommandConfig,
    Alter,
    Describe,
    All,
    EntityType,
    EntityName,
    EntityDefault,
    AddConfig,
    AddConfigFile,
    DeleteConfig,
    Topic,
    Client,
    ClientDefaults,
    User,
    UserDefaults,
    Broker,
    BrokerDefaults,
    BrokerLogger,
    IpDefaults,
    Ip,
    Group,
    ClientMetrics,
    /// Removed in Kafka 4.0; read in import mode only.
    Zookeeper,
    /// Removed in Kafka 4.0; read in import mode only.
    Force,
    /// Removed in Kafka 4.0; read in import mode only.
    ZkTlsConfigFile,
}

impl Opt {
    const ALL_4X: [Opt; 26] = [
        Opt::Help,
        Opt::Version,
        Opt::BootstrapServer,
        Opt::BootstrapController,
        Opt::CommandConfig,
        Opt::Alter,
        Opt::Describe,
        Opt::All,
        Opt::EntityType,
        Opt::EntityName,
        Opt::EntityDefault,
        Opt::AddConfig,
        Opt::AddConfigFile,
        Opt::DeleteConfig,
        Opt::Topic,
        Opt::Client,
        Opt::ClientDefaults,
        Opt::User,
        Opt::UserDefaults,
        Opt::Broker,
        Opt::BrokerDefaults,
        Opt::BrokerLogger,
        Opt::IpDefaults,
        Opt::Ip,
        Opt::Group,
        Opt::ClientMetrics,
    ];
    const REMOVED: [Opt; 3] = [Opt::Zookeeper, Opt::Force, Opt::ZkTlsConfigFile];

    /// The option's name without dashes.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Opt::Help => "help",
            Opt::Version => "version",
            Opt::BootstrapServer => "bootstrap-server",
            Opt::BootstrapController => "bootstrap-controller",
            Opt::CommandConfig => "command-config",
            Opt::Alter => "alter",
            Opt::Describe => "describe",
            Opt::All => "all",
            Opt::EntityType => "entity-type",
            Opt::EntityName => "entity-name",
            Opt::EntityDefault => "entity-default",
            Opt::AddConfig => "add-config",
            Opt::AddConfigFile => "add-config-file",
            Opt::DeleteConfig => "delete-config",
            Opt::Topic => "topic",
            Opt::Client => "client",
            Opt::ClientDefaults => "client-defaults",
            Opt::User => "user",
            Opt::UserDefaults => "user-defaults",
            Opt::Broker => "broker",
            Opt::BrokerDefaults => "broker-defaults",
            Opt::BrokerLogger => "broker-logger",
            Opt::IpDefaults => "ip-defaults",
            Opt::Ip => "ip",
            Opt::Group => "group",
            Opt::ClientMetrics => "client-metrics",
            Opt::Zookeeper => "zookeeper",
            Opt::Force => "force",
            Opt::ZkTlsConfigFile => "zk-tls-config-file",
        }
    }

    /// True when the option takes a (required) argument.
    pub(crate) const fn takes_argument(self) -> bool {
        !matches!(
            self,
            Opt::Help
                | Opt::Version
                | Opt::Alter
                | Opt::Describe
                | Opt::All
                | Opt::EntityDefault
                | Opt::ClientDefaults
                | Opt::UserDefaults
                | Opt::BrokerDefaults
                | Opt::IpDefaults
                | Opt::Force
        )
    }

    fn lookup(name: &str, mode: Mode) -> Option<Opt> {
        let removed: &[Opt] = if mode == Mode::Import {
            &Opt::REMOVED
        } else {
            &[]
        };
        Opt::ALL_4X
            .iter()
            .chain(removed)
            .copied()
            .find(|o| o.name() == name)
    }
}

/// One occurrence of an option on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Occurrence {
    pub opt: Opt,
    /// The argument (for `--delete-config`, one piece of the split value).
    pub value: Option<String>,
    /// The argument as written (quotes kept), for variable detection.
    pub raw_value: Option<String>,
    /// Where each character of `raw_value` is in the input (empty when the
    /// option has no argument).
    pub raw_positions: Vec<Position>,
    /// Where the option word starts.
    pub position: Position,
    /// Where its argument starts (the option's position when it has none).
    pub value_position: Position,
}

/// The parsed command line: every option occurrence in order (like
/// jopt-simple's `OptionSet.specs()`), and the words that are not options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Options {
    pub occurrences: Vec<Occurrence>,
    pub non_options: Vec<Word>,
}

impl Options {
    /// `OptionSet.has`.
    pub(crate) fn has(&self, opt: Opt) -> bool {
        self.occurrences.iter().any(|o| o.opt == opt)
    }

    /// The first occurrence, if any.
    pub(crate) fn first(&self, opt: Opt) -> Option<&Occurrence> {
        self.occurrences.iter().find(|o| o.opt == opt)
    }

    /// `OptionSet.valuesOf`: every argument of `opt`, in order.
    pub(crate) fn values_of(&self, opt: Opt) -> Vec<&Occurrence> {
        self.occurrences.iter().filter(|o| o.opt == opt).collect()
    }

    /// `OptionSet.valueOf`: the single argument of `opt`.
    ///
    /// # Errors
    ///
    /// jopt-simple's `MultipleArgumentsForOptionException` when the option
    /// has several arguments.
    pub(crate) fn value_of(&self, opt: Opt) -> Result<Option<&Occurrence>, Error> {
        let all = self.values_of(opt);
        if all.len() > 1 {
            return Err(Error::tool(
                all[1].position,
                format!(
                    "Found multiple arguments for option {}, but you asked for only one",
                    opt.name()
                ),
                format!("--{} once", opt.name()),
            ));
        }
        Ok(all.first().copied())
    }
}

/// Parses the argument words as jopt-simple does for `kafka-configs.sh`.
///
/// # Errors
///
/// The tool's own messages: `zookeeper is not a recognized option`,
/// `Option entity-name requires an argument`.
pub(crate) fn parse(args: &[Word], mode: Mode) -> Result<Options, Error> {
    let mut out = Options::default();
    let mut i = 0;
    while i < args.len() {
        let word = &args[i];
        let v = word.value.as_str();
        i += 1;
        if v == "--" {
            out.non_options.extend(args[i..].iter().cloned());
            break;
        }
        let (name, inline, single_dash) = if let Some(rest) = v.strip_prefix("--") {
            match rest.split_once('=') {
                Some((n, val)) => (n, Some(val), false),
                None => (rest, None, false),
            }
        } else if v.len() > 1 && v.starts_with('-') {
            let rest = &v[1..];
            match rest.split_once('=') {
                Some((n, val)) => (n, Some(val), true),
                None => (rest, None, true),
            }
        } else {
            out.non_options.push(word.clone());
            continue;
        };
        let opt = match Opt::lookup(name, mode) {
            Some(o) => o,
            None => {
                let reported = if single_dash {
                    name.chars().next().map(String::from).unwrap_or_default()
                } else {
                    name.to_owned()
                };
                let expected = if reported == "zookeeper" {
                    "--bootstrap-server, since Kafka 4.0 removed --zookeeper (import mode still reads it)".to_owned()
                } else {
                    "one of the options kafka-configs.sh declares".to_owned()
                };
                return Err(Error::tool(
                    word.position,
                    format!("{reported} is not a recognized option"),
                    expected,
                ));
            }
        };
        if !opt.takes_argument() {
            out.occurrences.push(Occurrence {
                opt,
                value: None,
                raw_value: None,
                raw_positions: Vec::new(),
                position: word.position,
                value_position: word.position,
            });
            continue;
        }
        let (value, raw_value, raw_positions, value_position) = match inline {
            Some(val) => (
                val.to_owned(),
                word.raw.clone(),
                word.raw_positions.clone(),
                word.position,
            ),
            None => match args.get(i) {
                Some(next) => {
                    i += 1;
                    (
                        next.value.clone(),
                        next.raw.clone(),
                        next.raw_positions.clone(),
                        next.position,
                    )
                }
                None => {
                    return Err(Error::tool(
                        word.position,
                        format!("Option {} requires an argument", opt.name()),
                        format!("a value after --{}", opt.name()),
                    ))
                }
            },
        };
        if opt == Opt::DeleteConfig {
            let pieces: Vec<&str> = value.split(',').filter(|p| !p.is_empty()).collect();
            if pieces.is_empty() {
                // StringTokenizer found no token: jopt-simple keeps the whole value.
                out.occurrences.push(Occurrence {
                    opt,
                    value: Some(value.clone()),
                    raw_value: Some(raw_value),
                    raw_positions,
                    position: word.position,
                    value_position,
                });
            } else {
                for piece in pieces {
                    out.occurrences.push(Occurrence {
                        opt,
                        value: Some(piece.to_owned()),
                        raw_value: Some(raw_value.clone()),
                        raw_positions: raw_positions.clone(),
                        position: word.position,
                        value_position,
                    });
                }
            }
        } else {
            out.occurrences.push(Occurrence {
                opt,
                value: Some(value),
                raw_value: Some(raw_value),
                raw_positions,
                position: word.position,
                value_position,
            });
        }
    }
    Ok(out)
}

/// The shell's quote removal of a word as written (`'...'`, `"..."`, `\x`;
/// in double quotes `\` escapes only `$`, `` ` ``, `"` and `\`): each
/// character the program receives, with its char index in `raw` and whether
/// it stood inside single quotes, where the shell expands nothing. The
/// values themselves come from `shell-words` ([`super::script::split_words`]);
/// this adds where each character was written.
pub(crate) fn unquoted_chars(raw: &str) -> Vec<(char, usize, bool)> {
    let chars: Vec<char> = raw.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let (mut single, mut double) = (false, false);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '\\' if !single && i + 1 < chars.len() && (!double || matches!(chars[i + 1], '$' | '`' | '"' | '\\')) => {
                i += 1;
                out.push((chars[i], i, false));
            }
            _ => out.push((c, i, single)),
        }
        i += 1;
    }
    out
}

/// Where each character of `value` stands in the input, for an argument
/// written as `raw` (`raw_positions` has one position per character of it):
/// the quote removal of `raw` ([`unquoted_chars`]) must end with `value`
/// (an inline `--opt=value` word ends with it). `None` when it does not (a
/// quoting this reader does not follow, such as `$'...'`), so callers fall
/// back to the word's start.
pub(crate) fn value_char_positions(raw: &str, raw_positions: &[Position], value: &str) -> Option<Vec<Position>> {
    let out = unquoted_chars(raw);
    let n = value.chars().count();
    let tail = out.get(out.len().checked_sub(n)?..)?;
    tail.iter()
        .map(|(c, _, _)| *c)
        .eq(value.chars())
        .then(|| tail.iter().map(|(_, i, _)| raw_positions.get(*i).copied()).collect::<Option<Vec<_>>>())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<Word> {
        args.iter()
            .enumerate()
            .map(|(i, a)| Word {
                value: (*a).to_owned(),
                raw: (*a).to_owned(),
                position: Position::new(1, u32::try_from(i + 1).unwrap()),
                raw_positions: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn parses_like_jopt_simple() {
        let o = parse(
            &words(&[
                "--entity-type=users",
                "--entity-name",
                "--alter",
                "stray",
                "-describe",
                "--delete-config",
                "a,,b",
            ]),
            Mode::Strict,
        )
        .unwrap();
        assert_eq!(
            o.first(Opt::EntityType).unwrap().value.as_deref(),
            Some("users")
        );
        // An option with an argument takes the next word, even `--alter`.
        assert_eq!(
            o.first(Opt::EntityName).unwrap().value.as_deref(),
            Some("--alter")
        );
        assert!(!o.has(Opt::Alter));
        assert!(o.has(Opt::Describe));
        assert_eq!(o.non_options.len(), 1);
        let deletes: Vec<_> = o
            .values_of(Opt::DeleteConfig)
            .iter()
            .map(|x| x.value.clone().unwrap())
            .collect();
        assert_eq!(deletes, ["a", "b"]);
    }

    #[test]
    fn reports_the_tools_messages() {
        let e = parse(&words(&["--zookeeper", "localhost:2181"]), Mode::Strict).unwrap_err();
        assert_eq!(
            e.tool_stderr(),
            Some("zookeeper is not a recognized option")
        );
        assert!(parse(&words(&["--zookeeper", "localhost:2181"]), Mode::Import).is_ok());
        let e = parse(&words(&["-zookeeper"]), Mode::Strict).unwrap_err();
        assert_eq!(e.tool_stderr(), Some("z is not a recognized option"));
        let e = parse(&words(&["--alter", "--entity-name"]), Mode::Strict).unwrap_err();
        assert_eq!(
            e.tool_stderr(),
            Some("Option entity-name requires an argument")
        );
        let o = parse(&words(&["--user", "a", "--user", "b"]), Mode::Strict).unwrap();
        let e = o.value_of(Opt::User).unwrap_err();
        assert_eq!(
            e.tool_stderr(),
            Some("Found multiple arguments for option user, but you asked for only one")
        );
    }
}
