//! Entities shown exactly: a name literally spelled `<default>` is not the
//! default entity.
//!
//! Kafka's Admin API takes any string as an entity name, `<default>`
//! included (`ClientQuotaControlManager.validateEntity` only refuses empty
//! names), while the default entity is a `null` name. Kafka's old ZooKeeper
//! paths write both as `<default>`; [`QuotaEntity::path`] (and so the
//! engine's `Display`) quotes the literal, `users/"<default>"`, and nothing
//! else. Advice output and every surface's answer line
//! ([`crate::resolve::answer::TypeAnswer`]) go further with [`display_exact`] /
//! [`ExactPath::exact_path`], which also quote empty names, names with
//! leading or trailing spaces, and names holding `/` or `"`.

use crate::entity::{EntityName, QuotaEntity};

/// True when a literal name must be quoted to be read right: `<default>`
/// itself, an empty name, a name with leading or trailing whitespace, a
/// name holding `/` (which would read as another path level) or a `"`.
fn needs_quotes(name: &str) -> bool {
    name == "<default>"
        || name.is_empty()
        || name.trim() != name
        || name.contains('/')
        || name.contains('"')
}

/// One entity level shown exactly: the default entity as `<default>`, a
/// literal name as itself, or quoted with Rust/Java-style escapes when it
/// could be misread (`"<default>"`, `" alice"`).
///
/// # Example
/// ```
/// use quota_engine::advice::display_exact;
/// use quota_engine::EntityName;
/// assert_eq!(display_exact(&EntityName::Default), "<default>");
/// assert_eq!(display_exact(&EntityName::Named("<default>".into())), "\"<default>\"");
/// assert_eq!(display_exact(&EntityName::Named("alice".into())), "alice");
/// ```
pub fn display_exact(name: &EntityName) -> String {
    match name {
        EntityName::Default => "<default>".to_owned(),
        EntityName::Named(n) if needs_quotes(n) => format!("{n:?}"),
        EntityName::Named(n) => n.clone(),
    }
}

/// Exact paths for entities (see [`display_exact`]).
pub trait ExactPath {
    /// The path with each level shown by [`display_exact`], e.g.
    /// `users/"<default>"/clients/<default>` for a user literally named
    /// `<default>` with the default client-id.
    fn exact_path(&self) -> String;

    /// A sentence when the entity holds a literal `<default>` name, telling
    /// it apart from the default entity; `None` otherwise.
    fn literal_default_note(&self) -> Option<String>;
}

impl ExactPath for QuotaEntity {
    fn exact_path(&self) -> String {
        match self {
            QuotaEntity::User(u) => format!("users/{}", display_exact(u)),
            QuotaEntity::ClientId(c) => format!("clients/{}", display_exact(c)),
            QuotaEntity::UserClientId { user, client_id } => {
                format!(
                    "users/{}/clients/{}",
                    display_exact(user),
                    display_exact(client_id)
                )
            }
            QuotaEntity::Ip(i) => format!("ips/{}", display_exact(i)),
        }
    }

    fn literal_default_note(&self) -> Option<String> {
        let literal: Vec<&str> = self
            .parts()
            .into_iter()
            .filter(|(_, n)| matches!(n, EntityName::Named(s) if s == "<default>"))
            .map(|(t, _)| match t {
                crate::entity::EntityType::User => "a user",
                crate::entity::EntityType::ClientId => "a client-id",
                crate::entity::EntityType::Ip => "an ip",
            })
            .collect();
        if literal.is_empty() {
            return None;
        }
        Some(format!(
            "{} names {} literally called \"<default>\" (possible through the Admin API), which is not the default entity: it applies only to a connection whose name is exactly <default>.",
            self.exact_path(),
            literal.join(" and ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_default_prints_apart_from_the_default_entity() {
        let literal = QuotaEntity::User(EntityName::Named("<default>".into()));
        let default = QuotaEntity::User(EntityName::Default);
        // QuotaEntity::path/Display quote the literal too.
        assert_eq!(literal.to_string(), "users/\"<default>\"");
        assert_eq!(default.to_string(), "users/<default>");
        assert_eq!(default.exact_path(), "users/<default>");
        assert_eq!(literal.exact_path(), "users/\"<default>\"");
        assert_ne!(literal.exact_path(), default.exact_path());
        assert!(default.literal_default_note().is_none());
        let note = literal.literal_default_note().unwrap();
        assert!(note.contains("not the default entity"), "{note}");
        let mixed = QuotaEntity::UserClientId {
            user: EntityName::Default,
            client_id: EntityName::Named("<default>".into()),
        };
        assert_eq!(mixed.exact_path(), "users/<default>/clients/\"<default>\"");
        assert!(mixed
            .literal_default_note()
            .unwrap()
            .contains("a client-id"));
    }

    #[test]
    fn names_that_would_mislead_are_quoted() {
        let n = |s: &str| display_exact(&EntityName::Named(s.into()));
        assert_eq!(n(" alice"), "\" alice\"");
        assert_eq!(n("a/b"), "\"a/b\"");
        assert_eq!(n("CN=x,OU=y"), "CN=x,OU=y");
    }
}
