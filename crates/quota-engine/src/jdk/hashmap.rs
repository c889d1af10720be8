//! Java's `HashMap` iteration order, reproduced so that error choice and
//! printed entities come out in the order Kafka (and `kafka-configs.sh`)
//! produces them.
//!
//! Kafka builds `HashMap<String, String>` entities and `HashMap<String, Double>`
//! op maps; which invalid key is reported first, the order of entity pairs in
//! responses and records, and `ClientQuotaEntity.toString()` all follow the
//! iteration order of those maps. That order is a function of
//! `String.hashCode`, the `h ^ (h >>> 16)` spread, the table size (a power of
//! two that starts at `tableSizeFor(initialCapacity)` or 16 and doubles when
//! the size passes `0.75 * capacity`) and insertion order inside a bucket.
//!
//! Two views of the same rules: `JavaHashMap` is a map that keeps Java's
//! buckets as it goes (the store's entity and op maps), and
//! [`hashmap_order`] / [`hash_set_order`] sort a finished list of items into
//! the order a Java `HashMap` / `HashSet` of that size would iterate them
//! (what the formats crate prints). Both size their tables with the same
//! `resize` arithmetic.
//!
//! Kafka/JDK: `java.util.HashMap` (`putVal`, `resize`, `treeifyBin`,
//! `tableSizeFor`), `java.lang.String.hashCode` (OpenJDK 17).
//!
//! Limit: a bucket that reaches 8 entries in a table of 64 or more slots is
//! turned into a red-black tree by Java, which reorders it; this model keeps
//! list order there. That needs 11+ keys whose spread hashes agree in their
//! low 6 bits in one map, far outside what quota requests contain.

/// Java's `String.hashCode()`: `s[0]*31^(n-1) + ... + s[n-1]` over UTF-16
/// code units, wrapping in 32 bits.
pub fn string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, unit| {
        h.wrapping_mul(31).wrapping_add(i32::from(unit))
    })
}

/// `Objects.hashCode` of a possibly-null string (`null` hashes to 0).
pub fn nullable_string_hash(s: Option<&str>) -> i32 {
    s.map_or(0, string_hash)
}

/// `HashMap.hash(key)`: the hash code with its high half folded into the low half.
pub fn spread(h: i32) -> u32 {
    let h = h as u32;
    h ^ (h >> 16)
}

/// `HashMap.tableSizeFor(cap)`: the smallest power of two `>= cap`, at least
/// 1 and at most `2^30`.
pub fn table_size_for(cap: u32) -> u32 {
    if cap <= 1 {
        1
    } else {
        cap.checked_next_power_of_two()
            .unwrap_or(MAXIMUM_CAPACITY)
            .min(MAXIMUM_CAPACITY)
    }
}

const DEFAULT_INITIAL_CAPACITY: u32 = 16;
const TREEIFY_THRESHOLD: u32 = 8;
const MIN_TREEIFY_CAPACITY: u32 = 64;
const MAXIMUM_CAPACITY: u32 = 1 << 30;

/// A table's size and its `threshold` field (before the first allocation
/// `capacity` is 0 and `threshold` holds the initial capacity, as in Java).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TableSize {
    capacity: u32,
    threshold: u32,
}

impl TableSize {
    /// The size after `HashMap.resize()`: the first allocation takes the
    /// initial capacity (or 16 slots, threshold 12); later ones double the
    /// table; from 16 slots up the threshold doubles too, below it is
    /// recomputed as `(int)(capacity * 0.75f)`. `None` at the maximum
    /// capacity, where Java only raises the threshold.
    fn resized(self) -> Option<TableSize> {
        let TableSize {
            capacity: old_cap,
            threshold: old_thr,
        } = self;
        let mut new_thr = 0u32;
        let new_cap;
        if old_cap > 0 {
            if old_cap >= MAXIMUM_CAPACITY {
                return None;
            }
            new_cap = old_cap << 1;
            if new_cap < MAXIMUM_CAPACITY && old_cap >= DEFAULT_INITIAL_CAPACITY {
                new_thr = old_thr << 1;
            }
        } else if old_thr > 0 {
            new_cap = old_thr;
        } else {
            new_cap = DEFAULT_INITIAL_CAPACITY;
            new_thr = 12;
        }
        if new_thr == 0 {
            let ft = new_cap as f32 * 0.75f32;
            new_thr = if new_cap < MAXIMUM_CAPACITY && ft < MAXIMUM_CAPACITY as f32 {
                ft as u32
            } else {
                u32::MAX
            };
        }
        Some(TableSize {
            capacity: new_cap,
            threshold: new_thr,
        })
    }
}

/// How a Java `HashMap` was created, which decides its final table size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapInit {
    /// `new HashMap<>()`, `Collectors.toMap`, `Collectors.toSet`, `new HashSet<>()`.
    Default,
    /// `new HashMap<>(initialCapacity)`.
    WithCapacity(u32),
    /// `new HashSet<>(collection)` of a collection with this many elements
    /// (`new HashMap<>(Math.max((int) (size / .75f) + 1, 16))`).
    CopyOfCollection(u32),
}

impl MapInit {
    /// The map's size before its first `put`: no table yet, `threshold` =
    /// `tableSizeFor(initialCapacity)`, or 0 for `new HashMap<>()`.
    fn unallocated(self) -> TableSize {
        let threshold = match self {
            MapInit::Default => 0,
            MapInit::WithCapacity(c) => table_size_for(c),
            MapInit::CopyOfCollection(n) => table_size_for(((n as f32 / 0.75) as u32 + 1).max(16)),
        };
        TableSize {
            capacity: 0,
            threshold,
        }
    }
}

/// The table size (slots) of a Java `HashMap` created by `init` after
/// `entries` insertions of distinct keys (`HashMap.resize`: load factor
/// 0.75). At least the first allocation's size, also for no entries.
///
/// Limit: the resizes Java makes instead of treeifying a bucket of 8
/// colliding keys are not counted here (see `JavaHashMap` for those).
pub fn hashmap_table_size(init: MapInit, entries: u32) -> u32 {
    let unallocated = init.unallocated();
    let mut size = unallocated.resized().unwrap_or(unallocated);
    while entries > size.threshold {
        match size.resized() {
            Some(next) => size = next,
            None => break,
        }
    }
    size.capacity
}

/// The bucket of a key in a table of `table_size` slots (`HashMap.hash`:
/// `h ^ (h >>> 16)`, masked).
pub fn bucket(hash: i32, table_size: u32) -> u32 {
    spread(hash) & (table_size - 1)
}

/// Orders `items` as a Java `HashMap`/`HashSet` holding them would iterate:
/// by bucket in a table of `table_size` slots; items in the same bucket keep
/// their order in `items` (Java keeps insertion order within a bucket).
pub fn hashmap_order<T>(mut items: Vec<T>, table_size: u32, hash: impl Fn(&T) -> i32) -> Vec<T> {
    items.sort_by_key(|item| bucket(hash(item), table_size));
    items
}

/// Orders distinct strings as a Java `HashSet<String>` built by `init` and
/// filled in the order of `items` would iterate them.
///
/// # Example
///
/// ```
/// use quota_engine::jdk::hashmap::{hash_set_order, MapInit};
///
/// let keys = vec!["producer_byte_rate".to_owned(), "consumer_byte_rate".to_owned()];
/// let ordered = hash_set_order(keys, MapInit::WithCapacity(2));
/// assert_eq!(ordered, ["consumer_byte_rate", "producer_byte_rate"]);
/// ```
pub fn hash_set_order(items: Vec<String>, init: MapInit) -> Vec<String> {
    let size = hashmap_table_size(init, items.len() as u32);
    hashmap_order(items, size, |s| string_hash(s))
}

#[derive(Debug, Clone)]
struct Node<V> {
    hash: u32,
    key: String,
    value: V,
}

/// A map with `java.util.HashMap<String, V>`'s iteration order.
#[derive(Debug, Clone)]
pub(crate) struct JavaHashMap<V> {
    /// Buckets, empty until the first `put` (Java allocates lazily).
    table: Vec<Vec<Node<V>>>,
    /// Java's `threshold` field (the initial capacity before allocation).
    threshold: u32,
    size: u32,
}

impl<V> JavaHashMap<V> {
    /// `new HashMap<>(initialCapacity)`.
    pub(crate) fn with_capacity(initial_capacity: u32) -> Self {
        JavaHashMap {
            table: Vec::new(),
            threshold: table_size_for(initial_capacity),
            size: 0,
        }
    }

    fn capacity(&self) -> u32 {
        self.table.len() as u32
    }

    fn resize(&mut self) {
        let size = TableSize {
            capacity: self.capacity(),
            threshold: self.threshold,
        };
        let Some(TableSize {
            capacity: new_cap,
            threshold: new_thr,
        }) = size.resized()
        else {
            self.threshold = u32::MAX;
            return;
        };
        self.threshold = new_thr;
        let old = std::mem::take(&mut self.table);
        let mut table: Vec<Vec<Node<V>>> = (0..new_cap).map(|_| Vec::new()).collect();
        // Java splits each old bucket into a "lo" and a "hi" list keeping
        // relative order; re-inserting in old iteration order does the same.
        for node in old.into_iter().flatten() {
            let idx = (node.hash & (new_cap - 1)) as usize;
            table[idx].push(node);
        }
        self.table = table;
    }

    /// `put(key, value)`: replaces the value of an existing key in place
    /// (the key keeps its position), otherwise appends to its bucket.
    pub(crate) fn put(&mut self, key: String, value: V) -> Option<V> {
        if self.table.is_empty() {
            self.resize();
        }
        let hash = spread(string_hash(&key));
        let idx = (hash & (self.capacity() - 1)) as usize;
        if let Some(node) = self.table[idx]
            .iter_mut()
            .find(|n| n.hash == hash && n.key == key)
        {
            return Some(std::mem::replace(&mut node.value, value));
        }
        let chain_before = self.table[idx].len() as u32;
        self.table[idx].push(Node { hash, key, value });
        if chain_before >= TREEIFY_THRESHOLD && self.capacity() < MIN_TREEIFY_CAPACITY {
            // treeifyBin on a small table resizes instead of building a tree.
            self.resize();
        }
        self.size += 1;
        if self.size > self.threshold {
            self.resize();
        }
        None
    }

    /// `containsKey(key)`.
    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// `get(key)` (`None` when absent).
    pub(crate) fn get(&self, key: &str) -> Option<&V> {
        if self.table.is_empty() {
            return None;
        }
        let hash = spread(string_hash(key));
        let idx = (hash & (self.capacity() - 1)) as usize;
        self.table[idx]
            .iter()
            .find(|n| n.hash == hash && n.key == key)
            .map(|n| &n.value)
    }

    /// `size()`.
    pub(crate) fn len(&self) -> u32 {
        self.size
    }

    /// Entries in Java's iteration order (bucket by bucket, list order).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.table
            .iter()
            .flatten()
            .map(|n| (n.key.as_str(), &n.value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(cap: u32, keys: &[&str]) -> Vec<String> {
        let mut m = JavaHashMap::with_capacity(cap);
        for k in keys {
            m.put((*k).to_owned(), ());
        }
        m.iter().map(|(k, _)| k.to_owned()).collect()
    }

    #[test]
    fn string_hash_matches_java() {
        // Values printed by OpenJDK 17 `"...".hashCode()`.
        assert_eq!(string_hash(""), 0);
        assert_eq!(string_hash("user"), 3599307);
        assert_eq!(string_hash("client-id"), -1904137635);
        assert_eq!(string_hash("producer_byte_rate"), -832502454);
        // UTF-16 code units, surrogate pair included.
        assert_eq!(string_hash("\u{e9}\u{20ac}\u{1d11e}"), 16751501);
    }

    #[test]
    fn table_size_for_matches_java() {
        assert_eq!(table_size_for(0), 1);
        assert_eq!(table_size_for(1), 1);
        assert_eq!(table_size_for(2), 2);
        assert_eq!(table_size_for(3), 4);
        assert_eq!(table_size_for(17), 32);
    }

    #[test]
    fn iteration_orders_match_java() {
        // Each expectation was printed by OpenJDK 17.0.15 iterating
        // `new HashMap<>(cap)` after putting the keys in the given order.
        assert_eq!(order(2, &["ip", "user"]), ["user", "ip"]);
        assert_eq!(order(2, &["user", "client-id"]), ["client-id", "user"]);
        assert_eq!(
            order(3, &["producer_byte_rate", "consumer_byte_rate", "foo"]),
            ["consumer_byte_rate", "producer_byte_rate", "foo"]
        );
        assert_eq!(
            order(
                4,
                &[
                    "producer_byte_rate",
                    "consumer_byte_rate",
                    "request_percentage",
                    "controller_mutation_rate"
                ]
            ),
            [
                "producer_byte_rate",
                "consumer_byte_rate",
                "controller_mutation_rate",
                "request_percentage"
            ]
        );
    }

    #[test]
    fn colliding_keys_resize_instead_of_treeifying_below_64_slots() {
        // "Aa" and "BB" have equal hash codes, so all 16 keys share one
        // hash; Java keeps insertion order up to 10 such keys (the 9th and
        // 10th force resizes to 32 and 64 slots instead of a tree).
        let keys: Vec<String> = (0..10u32)
            .map(|i| {
                (0..4)
                    .map(|b| if i >> b & 1 == 1 { "BB" } else { "Aa" })
                    .collect()
            })
            .collect();
        let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
        assert_eq!(order(10, &refs), refs);
        let mut m = JavaHashMap::with_capacity(1);
        for k in &keys {
            m.put(k.clone(), ());
        }
        assert_eq!(m.capacity(), 64);
    }

    #[test]
    fn replacing_keeps_position_and_size() {
        let mut m = JavaHashMap::with_capacity(2);
        assert_eq!(m.put("user".to_owned(), 1), None);
        assert_eq!(m.put("client-id".to_owned(), 2), None);
        assert_eq!(m.put("user".to_owned(), 3), Some(1));
        assert_eq!(m.len(), 2);
        assert_eq!(m.get("user"), Some(&3));
        assert!(!m.contains_key("ip"));
    }

    #[test]
    fn string_hash_matches_java_int_values() {
        // Values computed with Java's String.hashCode.
        assert_eq!(string_hash(""), 0);
        assert_eq!(string_hash("user"), 3_599_307);
        assert_eq!(string_hash("producer_byte_rate") as u32, 0xce61054a);
    }

    #[test]
    fn table_sizes_follow_hashmap_resize() {
        assert_eq!(hashmap_table_size(MapInit::WithCapacity(0), 0), 1);
        assert_eq!(hashmap_table_size(MapInit::WithCapacity(1), 1), 2);
        assert_eq!(hashmap_table_size(MapInit::WithCapacity(2), 2), 4);
        assert_eq!(hashmap_table_size(MapInit::WithCapacity(3), 3), 4);
        assert_eq!(hashmap_table_size(MapInit::WithCapacity(4), 4), 8);
        assert_eq!(hashmap_table_size(MapInit::Default, 12), 16);
        assert_eq!(hashmap_table_size(MapInit::Default, 13), 32);
        assert_eq!(hashmap_table_size(MapInit::CopyOfCollection(3), 5), 16);
    }

    #[test]
    fn lab_key_order_is_consumer_then_producer() {
        // The lab prints consumer_byte_rate before producer_byte_rate.
        let keys = vec![
            "producer_byte_rate".to_owned(),
            "consumer_byte_rate".to_owned(),
        ];
        let ordered = hash_set_order(keys, MapInit::WithCapacity(2));
        assert_eq!(ordered, ["consumer_byte_rate", "producer_byte_rate"]);
    }

    #[test]
    fn sorted_order_agrees_with_the_map() {
        let keys = [
            "producer_byte_rate",
            "consumer_byte_rate",
            "request_percentage",
            "controller_mutation_rate",
            "user",
            "client-id",
            "ip",
            "alice",
            "bob",
            "app-1",
            "app-2",
            "app-3",
            "CN=x,OU=y",
            "\u{e9}t\u{e9}",
        ];
        for n in 0..=keys.len() {
            let items: Vec<String> = keys[..n].iter().map(|k| (*k).to_owned()).collect();
            for cap in [0u32, 1, 2, 3, 4, 16] {
                assert_eq!(
                    hash_set_order(items.clone(), MapInit::WithCapacity(cap)),
                    order(cap, &keys[..n]),
                    "{n} keys, capacity {cap}"
                );
            }
        }
    }
}
