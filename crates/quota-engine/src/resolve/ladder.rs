//! The vocabulary of resolution: entity kinds, the quota-type flags and the
//! eight rungs of the precedence ladder.
//!
//! Kafka: `ClientQuotaManager` and its `DefaultQuotaCallback`
//! (`server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`;
//! older Scala: `core/src/main/scala/kafka/server/ClientQuotaManager.scala`).

use std::fmt;

use serde::Serialize;

use crate::entity::{EntityName, QuotaEntity};

/// The three kinds of client-quota entity a quota manager counts.
///
/// Named and default entities of one shape are the same kind:
/// `users/alice` and `users/<default>` are both [`EntityKind::User`].
///
/// Kafka: the `CLIENT_ID_QUOTA_ENABLED` / `USER_QUOTA_ENABLED` /
/// `USER_CLIENT_ID_QUOTA_ENABLED` constants of `ClientQuotaManager`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EntityKind {
    /// `clients/C` or `clients/<default>` (flag 1).
    ClientId,
    /// `users/U` or `users/<default>` (flag 2).
    User,
    /// `users/U/clients/C` with either part possibly the default (flag 4).
    UserClientId,
}

impl EntityKind {
    /// The three kinds, in flag order (1, 2, 4).
    pub const ALL: [EntityKind; 3] = [
        EntityKind::ClientId,
        EntityKind::User,
        EntityKind::UserClientId,
    ];

    /// The kind's bit in [`QuotaTypeFlags`]: client-id = 1, user = 2,
    /// user + client-id = 4.
    pub const fn flag(self) -> u8 {
        match self {
            EntityKind::ClientId => 1,
            EntityKind::User => 2,
            EntityKind::UserClientId => 4,
        }
    }

    /// The kind of a client entity; `None` for an `ip` entity, which no
    /// client quota manager handles.
    pub fn of(entity: &QuotaEntity) -> Option<Self> {
        match entity {
            QuotaEntity::ClientId(_) => Some(EntityKind::ClientId),
            QuotaEntity::User(_) => Some(EntityKind::User),
            QuotaEntity::UserClientId { .. } => Some(EntityKind::UserClientId),
            QuotaEntity::Ip(_) => None,
        }
    }

    /// A short English name: `client-id`, `user`, `(user, client-id)`.
    pub const fn describe(self) -> &'static str {
        match self {
            EntityKind::ClientId => "client-id",
            EntityKind::User => "user",
            EntityKind::UserClientId => "(user, client-id)",
        }
    }

    pub(crate) const fn index(self) -> usize {
        match self {
            EntityKind::ClientId => 0,
            EntityKind::User => 1,
            EntityKind::UserClientId => 2,
        }
    }
}

impl fmt::Display for EntityKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// Which kinds of entity currently hold a quota of one quota type: Kafka's
/// `quotaTypesEnabled` bit set (client-id = 1, user = 2, user + client-id = 4).
///
/// Zero means no quota of this type exists and the broker records nothing.
/// Exactly one bit enables the single-level shortcut (see
/// [`QuotaTypeFlags::single_level`]).
///
/// Kafka: `ClientQuotaManager.quotaTypesEnabled` / `updateQuotaTypes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
#[serde(transparent)]
pub struct QuotaTypeFlags(u8);

impl QuotaTypeFlags {
    /// No quota of this type anywhere (Kafka `NO_QUOTAS` = 0).
    pub const NONE: QuotaTypeFlags = QuotaTypeFlags(0);
    /// Only the client-id bit (1).
    pub const CLIENT_ID: QuotaTypeFlags = QuotaTypeFlags(1);
    /// Only the user bit (2).
    pub const USER: QuotaTypeFlags = QuotaTypeFlags(2);
    /// Only the (user, client-id) bit (4).
    pub const USER_CLIENT_ID: QuotaTypeFlags = QuotaTypeFlags(4);

    /// The bits as Kafka reports them (0..=7).
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Builds flags from Kafka's bits; `None` for anything above 7 (Kafka's
    /// `CUSTOM_QUOTAS` = 8 belongs to custom callbacks, which are not modelled).
    pub const fn from_bits(bits: u8) -> Option<Self> {
        if bits <= 7 {
            Some(QuotaTypeFlags(bits))
        } else {
            None
        }
    }

    /// The flags with exactly the given kinds set.
    pub fn from_kinds(kinds: &[EntityKind]) -> Self {
        kinds.iter().fold(QuotaTypeFlags::NONE, |f, k| f.with(*k))
    }

    /// True when the kind's bit is set.
    pub const fn contains(self, kind: EntityKind) -> bool {
        self.0 & kind.flag() != 0
    }

    /// These flags with the kind's bit set.
    pub const fn with(self, kind: EntityKind) -> Self {
        QuotaTypeFlags(self.0 | kind.flag())
    }

    /// These flags with the kind's bit cleared.
    pub const fn without(self, kind: EntityKind) -> Self {
        QuotaTypeFlags(self.0 & !kind.flag())
    }

    /// True when no bit is set: no quota of this type exists.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kind whose bit is the only one set, if exactly one is: then Kafka
    /// fixes the metric tags by that kind without walking the ladder.
    ///
    /// Kafka: the `switch (quotaTypesEnabled)` of `DefaultQuotaCallback.quotaMetricTags`.
    pub const fn single_level(self) -> Option<EntityKind> {
        match self.0 {
            1 => Some(EntityKind::ClientId),
            2 => Some(EntityKind::User),
            4 => Some(EntityKind::UserClientId),
            _ => None,
        }
    }

    /// The kinds whose bits are set, in flag order.
    pub fn kinds(self) -> Vec<EntityKind> {
        EntityKind::ALL
            .into_iter()
            .filter(|k| self.contains(*k))
            .collect()
    }
}

impl fmt::Display for QuotaTypeFlags {
    /// `none`, or the kinds joined by ` + ` with the bits: `user + (user, client-id) (6)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none (0)");
        }
        let names: Vec<&str> = self.kinds().into_iter().map(EntityKind::describe).collect();
        write!(f, "{} ({})", names.join(" + "), self.0)
    }
}

/// One rung of the precedence ladder, most specific first.
///
/// Kafka: the order documented on `ClientQuotaManager` and followed by
/// `DefaultQuotaCallback.quotaMetricTags` / `quotaLimit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rung {
    /// 1. `users/U/clients/C`.
    UserClientId,
    /// 2. `users/U/clients/<default>`.
    UserDefaultClientId,
    /// 3. `users/U`.
    User,
    /// 4. `users/<default>/clients/C`.
    DefaultUserClientId,
    /// 5. `users/<default>/clients/<default>`.
    DefaultUserDefaultClientId,
    /// 6. `users/<default>`.
    DefaultUser,
    /// 7. `clients/C`.
    ClientId,
    /// 8. `clients/<default>`.
    DefaultClientId,
}

impl Rung {
    /// The eight rungs, most specific first.
    pub const ALL: [Rung; 8] = [
        Rung::UserClientId,
        Rung::UserDefaultClientId,
        Rung::User,
        Rung::DefaultUserClientId,
        Rung::DefaultUserDefaultClientId,
        Rung::DefaultUser,
        Rung::ClientId,
        Rung::DefaultClientId,
    ];

    /// The rungs Kafka's limit lookup consults when both metric tags are non-empty.
    pub(crate) const USER_CLIENT_HALF: [Rung; 4] = [
        Rung::UserClientId,
        Rung::UserDefaultClientId,
        Rung::DefaultUserClientId,
        Rung::DefaultUserDefaultClientId,
    ];
    /// The rungs consulted when only the user tag is non-empty.
    pub(crate) const USER_HALF: [Rung; 2] = [Rung::User, Rung::DefaultUser];
    /// The rungs consulted when only the client-id tag is non-empty.
    pub(crate) const CLIENT_HALF: [Rung; 2] = [Rung::ClientId, Rung::DefaultClientId];

    /// The rung's position, 1 (most specific) to 8.
    pub const fn number(self) -> u8 {
        match self {
            Rung::UserClientId => 1,
            Rung::UserDefaultClientId => 2,
            Rung::User => 3,
            Rung::DefaultUserClientId => 4,
            Rung::DefaultUserDefaultClientId => 5,
            Rung::DefaultUser => 6,
            Rung::ClientId => 7,
            Rung::DefaultClientId => 8,
        }
    }

    /// The rung at position `n` (1..=8), `None` otherwise.
    pub const fn from_number(n: u8) -> Option<Self> {
        match n {
            1..=8 => Some(Rung::ALL[(n - 1) as usize]),
            _ => None,
        }
    }

    /// The entity kind this rung looks up.
    pub const fn kind(self) -> EntityKind {
        match self {
            Rung::UserClientId
            | Rung::UserDefaultClientId
            | Rung::DefaultUserClientId
            | Rung::DefaultUserDefaultClientId => EntityKind::UserClientId,
            Rung::User | Rung::DefaultUser => EntityKind::User,
            Rung::ClientId | Rung::DefaultClientId => EntityKind::ClientId,
        }
    }

    /// The rung as Kafka's docs write it: `users/U/clients/<default>` etc.
    pub const fn pattern(self) -> &'static str {
        match self {
            Rung::UserClientId => "users/U/clients/C",
            Rung::UserDefaultClientId => "users/U/clients/<default>",
            Rung::User => "users/U",
            Rung::DefaultUserClientId => "users/<default>/clients/C",
            Rung::DefaultUserDefaultClientId => "users/<default>/clients/<default>",
            Rung::DefaultUser => "users/<default>",
            Rung::ClientId => "clients/C",
            Rung::DefaultClientId => "clients/<default>",
        }
    }

    /// True for rungs 1–6, which only apply to a non-empty user tag.
    pub const fn needs_user(self) -> bool {
        !matches!(self, Rung::ClientId | Rung::DefaultClientId)
    }

    /// True for rungs 1, 2, 4, 5, 7, 8, which only apply to a non-empty
    /// client-id tag.
    pub const fn needs_client_id(self) -> bool {
        !matches!(self, Rung::User | Rung::DefaultUser)
    }

    /// The entity this rung looks up for a connection with user `user` and
    /// client id `client_id` (names are used as given: pass the sanitized
    /// user to get Kafka's map key, the raw principal name to show it).
    pub fn entity(self, user: &str, client_id: &str) -> QuotaEntity {
        let named = |s: &str| EntityName::Named(s.to_owned());
        match self {
            Rung::UserClientId => QuotaEntity::UserClientId {
                user: named(user),
                client_id: named(client_id),
            },
            Rung::UserDefaultClientId => QuotaEntity::UserClientId {
                user: named(user),
                client_id: EntityName::Default,
            },
            Rung::User => QuotaEntity::User(named(user)),
            Rung::DefaultUserClientId => QuotaEntity::UserClientId {
                user: EntityName::Default,
                client_id: named(client_id),
            },
            Rung::DefaultUserDefaultClientId => QuotaEntity::UserClientId {
                user: EntityName::Default,
                client_id: EntityName::Default,
            },
            Rung::DefaultUser => QuotaEntity::User(EntityName::Default),
            Rung::ClientId => QuotaEntity::ClientId(named(client_id)),
            Rung::DefaultClientId => QuotaEntity::ClientId(EntityName::Default),
        }
    }

    /// Which tags a match on this rung gives in Kafka's full walk:
    /// `(keep user, keep client-id)`. Rungs 1, 2, 4, 5 keep both; 3 and 6
    /// keep the user only; 7 and 8 keep the client-id only.
    pub(crate) const fn keeps(self) -> (bool, bool) {
        match self.kind() {
            EntityKind::UserClientId => (true, true),
            EntityKind::User => (true, false),
            EntityKind::ClientId => (false, true),
        }
    }
}

impl fmt::Display for Rung {
    /// `rung 3 (users/U)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rung {} ({})", self.number(), self.pattern())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rung_numbers_round_trip_and_follow_the_ladder_order() {
        for (i, r) in Rung::ALL.into_iter().enumerate() {
            assert_eq!(r.number() as usize, i + 1);
            assert_eq!(Rung::from_number(r.number()), Some(r));
        }
        assert_eq!(Rung::from_number(0), None);
        assert_eq!(Rung::from_number(9), None);
    }

    #[test]
    fn rung_entities_match_their_patterns() {
        for r in Rung::ALL {
            let path = r.entity("U", "C").path();
            assert_eq!(path, r.pattern(), "{r:?}");
            assert_eq!(EntityKind::of(&r.entity("U", "C")), Some(r.kind()));
        }
    }

    #[test]
    fn flags_single_level_only_for_exactly_one_bit() {
        for bits in 0..=7u8 {
            let f = QuotaTypeFlags::from_bits(bits).unwrap();
            let expected = match bits {
                1 => Some(EntityKind::ClientId),
                2 => Some(EntityKind::User),
                4 => Some(EntityKind::UserClientId),
                _ => None,
            };
            assert_eq!(f.single_level(), expected, "bits {bits}");
            assert_eq!(QuotaTypeFlags::from_kinds(&f.kinds()), f);
        }
        assert_eq!(QuotaTypeFlags::from_bits(8), None);
        assert_eq!(QuotaTypeFlags::USER.with(EntityKind::ClientId).bits(), 3);
        assert_eq!(
            QuotaTypeFlags::from_bits(7)
                .unwrap()
                .without(EntityKind::User)
                .bits(),
            5
        );
        assert_eq!(
            QuotaTypeFlags::from_bits(6).unwrap().to_string(),
            "user + (user, client-id) (6)"
        );
    }
}
