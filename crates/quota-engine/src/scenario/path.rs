//! Where in a scenario a problem is: a typed path into the scenario JSON
//! (`topics[0].partitions`, `workloads[1].producer.config.linger.ms`), built
//! by [`crate::sim::ScenarioProblem`]'s checks and compared step by step by
//! the surfaces that place a problem beside its field, never by formatting
//! a string and searching for it.

use std::borrow::Cow;
use std::fmt;

/// One step of a [`ProblemPath`]: a field of a JSON object (its name as the
/// scenario JSON writes it, dots included: `delivery.timeout.ms`) or an
/// index into a list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathStep {
    /// A field, by its JSON name.
    Field(Cow<'static, str>),
    /// An index into a list (0-based).
    Index(usize),
}

/// A path into the scenario JSON, read as JSON's own dotted form by
/// `Display` (`workloads[1].producer.config.delivery.timeout.ms`: fields
/// joined by `.`, indexes in brackets). Producer, consumer, admin and
/// connects settings sit under `config` as one field each, whatever dots
/// their Kafka name holds.
///
/// ```
/// use quota_engine::scenario::ProblemPath;
/// let p = ProblemPath::topic(2).then("leaders").at(0);
/// assert_eq!(p.to_string(), "topics[2].leaders[0]");
/// assert!(p.starts_with(&ProblemPath::topic(2)));
/// assert_eq!(p.item(), Some(("topics", 2)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ProblemPath(Vec<PathStep>);

impl ProblemPath {
    /// A top-level field (`brokers`, `quotas`).
    pub fn field(name: impl Into<Cow<'static, str>>) -> Self {
        Self(vec![PathStep::Field(name.into())])
    }

    /// Item `index` of the top-level list `list` (`topics[2]`).
    pub fn item_of(list: &'static str, index: usize) -> Self {
        Self::field(list).at(index)
    }

    /// `topics[index]`.
    pub fn topic(index: usize) -> Self {
        Self::item_of("topics", index)
    }

    /// `events[index]`.
    pub fn event(index: usize) -> Self {
        Self::item_of("events", index)
    }

    /// `workloads[index]`.
    pub fn workload(index: usize) -> Self {
        Self::item_of("workloads", index)
    }

    /// `connections[index]`.
    pub fn connection(index: usize) -> Self {
        Self::item_of("connections", index)
    }

    /// `quotas[index]`.
    pub fn quota(index: usize) -> Self {
        Self::item_of("quotas", index)
    }

    /// This path followed by the field `name` (`.name`).
    #[must_use]
    pub fn then(mut self, name: impl Into<Cow<'static, str>>) -> Self {
        self.0.push(PathStep::Field(name.into()));
        self
    }

    /// This path followed by the index `index` (`[index]`).
    #[must_use]
    pub fn at(mut self, index: usize) -> Self {
        self.0.push(PathStep::Index(index));
        self
    }

    /// A client setting under this path: `config.<name>` as two steps
    /// (`config`, then the Kafka name) when `setting` starts with
    /// `config.`, otherwise the one field `setting`.
    #[must_use]
    pub fn setting(self, setting: &str) -> Self {
        match setting.strip_prefix("config.") {
            Some(name) => self.then("config").then(name.to_owned()),
            None => self.then(setting.to_owned()),
        }
    }

    /// The steps, first to last.
    pub fn steps(&self) -> &[PathStep] {
        &self.0
    }

    /// Whether `prefix` is this path or a path this one lies inside
    /// (`topics[0]` is a prefix of `topics[0].leaders[2]`, not of
    /// `topics[10]`).
    pub fn starts_with(&self, prefix: &ProblemPath) -> bool {
        self.0.starts_with(&prefix.0)
    }

    /// The top-level list and index this path starts with:
    /// `topics[2].leaders[0]` gives `("topics", 2)`; `None` for a path that
    /// does not start with an item of a list (`brokers.settings`).
    pub fn item(&self) -> Option<(&str, usize)> {
        match self.0.as_slice() {
            [PathStep::Field(list), PathStep::Index(i), ..] => Some((list.as_ref(), *i)),
            _ => None,
        }
    }

    /// This path once item `removed` of the top-level list `list` is
    /// removed: `None` for a path inside the removed item, the index one
    /// lower for a later item of that list, the same path otherwise.
    pub fn renumbered(&self, list: &str, removed: usize) -> Option<ProblemPath> {
        match self.item() {
            Some((l, j)) if l == list && j == removed => None,
            Some((l, j)) if l == list && j > removed => {
                let mut next = self.clone();
                next.0[1] = PathStep::Index(j - 1);
                Some(next)
            }
            _ => Some(self.clone()),
        }
    }
}

impl fmt::Display for ProblemPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, step) in self.0.iter().enumerate() {
            match step {
                PathStep::Field(name) if n == 0 => f.write_str(name)?,
                PathStep::Field(name) => write!(f, ".{name}")?,
                PathStep::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_reads_as_the_scenario_json_writes_it() {
        assert_eq!(ProblemPath::field("brokers").then("settings").to_string(), "brokers.settings");
        assert_eq!(ProblemPath::topic(0).then("leaders").at(3).to_string(), "topics[0].leaders[3]");
        let linger = ProblemPath::workload(1).then("producer").setting("config.delivery.timeout.ms");
        assert_eq!(linger.to_string(), "workloads[1].producer.config.delivery.timeout.ms");
        assert_eq!(linger, ProblemPath::workload(1).then("producer").then("config").then("delivery.timeout.ms"));
        assert_eq!(ProblemPath::default().to_string(), "");
    }

    #[test]
    fn prefixes_are_whole_steps() {
        let p = ProblemPath::topic(10).then("name");
        assert!(p.starts_with(&ProblemPath::topic(10)));
        assert!(p.starts_with(&p));
        assert!(!p.starts_with(&ProblemPath::topic(1)), "topics[1] is not a prefix of topics[10]");
        assert!(!ProblemPath::topic(1).starts_with(&p));
    }

    #[test]
    fn removing_an_item_drops_its_paths_and_renumbers_the_later_ones() {
        let at = |i| ProblemPath::topic(i).then("leaders").at(0);
        assert_eq!(at(2).renumbered("topics", 2), None);
        assert_eq!(at(3).renumbered("topics", 2), Some(at(2)));
        assert_eq!(at(1).renumbered("topics", 2), Some(at(1)));
        assert_eq!(ProblemPath::event(3).renumbered("topics", 0), Some(ProblemPath::event(3)));
        assert_eq!(ProblemPath::field("brokers").renumbered("topics", 0), Some(ProblemPath::field("brokers")));
        assert_eq!(ProblemPath::field("brokers").item(), None);
    }
}
