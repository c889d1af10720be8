//! Typed ids for the things that cross the world's parts (clients,
//! connections, requests, brokers, ...) and [`Table`], a `Vec` indexed by one
//! of them.
//!
//! Ids are `u32` so nothing reproducible depends on the platform's `usize`;
//! [`ix`] is the one place a `u32` becomes a `usize` index.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A `u32` position as a `usize` index: lossless on every target we build
/// (32- and 64-bit).
pub(super) const fn ix(i: u32) -> usize {
    i as usize
}

/// A `usize` length or position as a `u32`, saturating (never reached: the
/// tables are far smaller than 2^32 rows).
pub(super) fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// An id that is a row number in a [`Table`].
pub(super) trait Id: Copy {
    /// The id of row `i`.
    fn from_row(i: u32) -> Self;
    /// The row number.
    fn row(self) -> u32;
}

macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
        pub(crate) struct $name(pub(crate) u32);

        impl Id for $name {
            fn from_row(i: u32) -> Self {
                $name(i)
            }
            fn row(self) -> u32 {
                self.0
            }
        }
    )*};
}

ids! {
    /// A client (one workload), in scenario order.
    ClientId;
    /// One client's connection to one broker.
    ConnectionId;
    /// A broker, `0..brokers.count` (Kafka's `broker.id`).
    BrokerId;
    /// A producer, among the producers.
    ProducerId;
    /// A consumer, among the consumers.
    ConsumerId;
    /// A partition of the cluster (all topics, in scenario order).
    PartitionId;
    /// A sensor's track in the Timeline.
    TrackId;
}

/// A request, in the order clients sent them (`u64`: a long run sends
/// more than 2^32).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct RequestId(pub(crate) u64);

/// A producer batch, among that producer's batches (`u64`, as
/// [`RequestId`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct BatchId(pub(crate) u64);

/// An id of a [`Live`] map: a `u64` handed out in order.
pub(super) trait LiveId: Copy + Ord {
    /// The id numbered `n`.
    fn from_u64(n: u64) -> Self;
}

impl LiveId for RequestId {
    fn from_u64(n: u64) -> Self {
        RequestId(n)
    }
}

impl LiveId for BatchId {
    fn from_u64(n: u64) -> Self {
        BatchId(n)
    }
}

/// The things of a run that come and go (requests, batches): ids handed out
/// in order by [`Live::insert`], each row kept until [`Live::remove`], so
/// memory follows what is alive, not what the run has done (issue 30: one
/// producer for a day sends about 10^8 requests).
///
/// Indexing a removed id panics, as a `Vec` does past its end; the event
/// handlers that may meet a removed id (a request's timeout after its
/// response) ask [`Live::get`] first.
pub(super) struct Live<I, T> {
    rows: BTreeMap<I, T>,
    next: u64,
}

impl<I: LiveId, T> Live<I, T> {
    /// Nothing alive, the first id 0.
    pub(super) fn new() -> Self {
        Live {
            rows: BTreeMap::new(),
            next: 0,
        }
    }

    /// Keeps `row` and returns its id (the next in order).
    pub(super) fn insert(&mut self, row: T) -> I {
        let id = I::from_u64(self.next);
        self.next += 1;
        self.rows.insert(id, row);
        id
    }

    /// The row of `id` while it is kept.
    pub(super) fn get(&self, id: I) -> Option<&T> {
        self.rows.get(&id)
    }

    /// Forgets `id` (nothing if it was forgotten already).
    pub(super) fn remove(&mut self, id: I) {
        self.rows.remove(&id);
    }

    /// The rows kept, in id order, with their ids.
    pub(super) fn iter(&self) -> impl Iterator<Item = (I, &T)> {
        self.rows.iter().map(|(i, t)| (*i, t))
    }

    /// How many ids were handed out.
    pub(super) fn issued(&self) -> u64 {
        self.next
    }

    /// How many rows are kept now.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.rows.len()
    }
}

impl<I: LiveId, T> Index<I> for Live<I, T> {
    type Output = T;
    fn index(&self, id: I) -> &T {
        &self.rows[&id]
    }
}

impl<I: LiveId, T> IndexMut<I> for Live<I, T> {
    fn index_mut(&mut self, id: I) -> &mut T {
        match self.rows.get_mut(&id) {
            Some(t) => t,
            None => panic!("a removed id was used"),
        }
    }
}

/// Rows indexed by a typed id; ids are handed out by [`Table::push`].
pub(super) struct Table<I, T> {
    rows: Vec<T>,
    id: PhantomData<fn() -> I>,
}

impl<I: Id, T> Table<I, T> {
    /// No rows.
    pub(super) fn new() -> Self {
        Table {
            rows: Vec::new(),
            id: PhantomData,
        }
    }

    /// The id the next [`Table::push`] returns.
    pub(super) fn next_id(&self) -> I {
        I::from_row(len_u32(self.rows.len()))
    }

    /// Appends `row` and returns its id.
    pub(super) fn push(&mut self, row: T) -> I {
        let id = self.next_id();
        self.rows.push(row);
        id
    }

    /// The rows in id order.
    pub(super) fn iter(&self) -> std::slice::Iter<'_, T> {
        self.rows.iter()
    }

    /// The rows in id order, mutably.
    pub(super) fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.rows.iter_mut()
    }

    /// The rows, taken out (the table is left empty).
    pub(super) fn take(&mut self) -> Vec<T> {
        std::mem::take(&mut self.rows)
    }

    /// The rows as a `Vec`.
    pub(super) fn into_vec(self) -> Vec<T> {
        self.rows
    }
}

impl<I: Id, T> Index<I> for Table<I, T> {
    type Output = T;
    fn index(&self, id: I) -> &T {
        &self.rows[ix(id.row())]
    }
}

impl<I: Id, T> IndexMut<I> for Table<I, T> {
    fn index_mut(&mut self, id: I) -> &mut T {
        &mut self.rows[ix(id.row())]
    }
}
