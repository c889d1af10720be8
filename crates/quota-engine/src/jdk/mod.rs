//! The JDK 17 behaviour Kafka's JVM exhibits, emulated where it decides what
//! Kafka (or its tools) answer: `java.util.regex` for principal mapping
//! rules, `String.toLowerCase` / `toUpperCase`, `java.util.HashMap`
//! iteration order, `Double.parseDouble` / `Double.toString`, and the
//! `Character` tables behind them.
//!
//! Nothing here is Kafka's own logic; that lives in [`crate::principal`],
//! [`crate::store`] and the other modules, which call into this one. Each
//! item cites the JDK class it reproduces.
//!
//! - [`regex`]: `java.util.regex.Pattern` / `Matcher` (parser, node graph,
//!   backtracking matcher, `replaceAll`), with the JDK's
//!   `PatternSyntaxException` messages.
//! - [`hashmap`]: `String.hashCode` and the iteration order of a
//!   `java.util.HashMap` / `HashSet`.
//! - [`double`]: `Double.parseDouble`, `Double.equals` and `Double.toString`.
//! - `case`: `String.toLowerCase(Locale.ENGLISH)` / `toUpperCase`, with
//!   tables generated from JDK 17 by `crates/quota-engine/tools/JdkCase.java`.
//! - `unicode`: the `java.lang.Character` properties the above need
//!   (Unicode 13.0, as in JDK 17).

pub(crate) mod case;
pub mod double;
pub mod hashmap;
pub mod regex;
pub(crate) mod unicode;
