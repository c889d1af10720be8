//! The event queue: events ordered by (time, insertion sequence), so events
//! at the same instant run first-in first-out.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A point in simulated time, in nanoseconds since the scenario's start.
pub type Nanos = u64;

struct Entry<E> {
    at_ns: Nanos,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.at_ns == other.at_ns && self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // BinaryHeap is a max-heap: reverse so the earliest (time, seq) pops first.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .at_ns
            .cmp(&self.at_ns)
            .then_with(|| other.seq.cmp(&self.seq))
    }
}

/// A priority queue of events keyed by `(time in ns, sequence)`.
///
/// Equal times pop in insertion order; the sequence is a `u64` counter, so
/// the order never depends on the platform or on hashing.
///
/// # Example
///
/// ```
/// use quota_engine::sim::EventQueue;
///
/// let mut q = EventQueue::new();
/// q.push(20, "b");
/// q.push(10, "a");
/// q.push(20, "c");
/// assert_eq!(q.pop(), Some((10, "a")));
/// assert_eq!(q.pop(), Some((20, "b")));
/// assert_eq!(q.pop(), Some((20, "c")));
/// assert_eq!(q.pop(), None);
/// ```
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            next_seq: 0,
        }
    }

    /// Schedules `event` at `at_ns`.
    pub fn push(&mut self, at_ns: Nanos, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry { at_ns, seq, event });
    }

    /// Removes and returns the earliest event with its time.
    pub fn pop(&mut self) -> Option<(Nanos, E)> {
        self.heap.pop().map(|e| (e.at_ns, e.event))
    }

    /// The time of the earliest event, if any.
    pub fn peek_time(&self) -> Option<Nanos> {
        self.heap.peek().map(|e| e.at_ns)
    }

    /// Number of pending events.
    pub fn len(&self) -> u64 {
        u64::try_from(self.heap.len()).unwrap_or(u64::MAX)
    }

    /// True when no event is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Total number of events ever pushed.
    pub fn pushed(&self) -> u64 {
        self.next_seq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_then_fifo() {
        let mut q = EventQueue::new();
        for (t, v) in [(5, 1), (1, 2), (5, 3), (0, 4), (1, 5)] {
            q.push(t, v);
        }
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![(0, 4), (1, 2), (1, 5), (5, 1), (5, 3)]);
        assert_eq!(q.pushed(), 5);
        assert!(q.is_empty());
    }

    #[test]
    fn peek_reports_the_next_time() {
        let mut q = EventQueue::new();
        assert_eq!(q.peek_time(), None);
        q.push(9, ());
        q.push(3, ());
        assert_eq!(q.peek_time(), Some(3));
        assert_eq!(q.len(), 2);
    }
}
