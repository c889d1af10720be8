//! `String.toLowerCase(Locale.ENGLISH)` and `String.toUpperCase(Locale.ENGLISH)`
//! as the JDK computes them, for the `/L` and `/U` flags of
//! `ssl.principal.mapping.rules` and `sasl.kerberos.principal.to.local.rules`.
//!
//! Kafka: `SslPrincipalMapper.Rule.apply` and `KerberosRule.apply` call
//! these two methods. JDK: `java/lang/StringUTF16.java` (`toLowerCase`,
//! `toUpperCase`) and `java/lang/ConditionalSpecialCasing.java`. The tables
//! in `case/data.rs` are generated from JDK 17 (Unicode 13.0) by
//! `crates/quota-engine/tools/JdkCase.java`, so a code point Unicode cased
//! after 13.0 keeps its case, as on Kafka's JVM; they are a few KB, where Rust's own
//! `str::to_lowercase` tables (a newer Unicode) cost about 14 KB gzip in the
//! playground's wasm.
//!
//! One approximation: the JDK decides a final sigma (`Σ` -> `ς`) within
//! `BreakIterator.getWordInstance` boundaries. Here those boundaries come
//! from classes of code points read off that BreakIterator (what joins
//! letters, what attaches to the character before it, what joins only
//! between two letters such as `'` and `.`), which agrees with the JDK on
//! every string of `tests/fixtures/jdk-case.json` (Latin, Greek, Cyrillic,
//! Armenian, marks, punctuation) and on 20,000 more tried once; the JDK's
//! own rules for kana, ideographs and other scripts are not modelled.

#[rustfmt::skip]
mod data;

use data::{CASED, EXTEND_EXTRA, MID, TO_LOWER, TO_LOWER_MULTI, TO_UPPER, TO_UPPER_MULTI, WORD_EXCEPT, WORD_EXTRA};
use super::unicode::{in_ranges, is_bmp_decimal_digit, is_letter_or_digit, is_non_spacing_mark};

const CAPITAL_SIGMA: char = '\u{3A3}';
const FINAL_SIGMA: char = '\u{3C2}';

/// The single code point `c` maps to in `runs`, if any.
fn lookup(runs: &[(u32, u16, i32, u8)], c: char) -> Option<char> {
    let cp = u32::from(c);
    let i = runs.partition_point(|r| r.0 <= cp).checked_sub(1)?;
    let (first, count, delta, stride) = runs[i];
    let (off, stride) = (cp - first, u32::from(stride.max(1)));
    if off % stride != 0 || off / stride >= u32::from(count) {
        return None;
    }
    char::from_u32(cp.checked_add_signed(delta)?)
}

fn multi(table: &'static [(char, &'static [char])], c: char) -> Option<&'static [char]> {
    table.binary_search_by_key(&c, |e| e.0).ok().map(|i| table[i].1)
}

/// Joins the letters on both sides.
fn is_word(c: char) -> bool {
    let cp = u32::from(c);
    (is_letter_or_digit(cp) && !in_ranges(&WORD_EXCEPT, cp)) || in_ranges(&WORD_EXTRA, cp)
}

/// Attaches to the character before it (combining marks: the JDK's rules
/// skip them, as UAX #29's WB4 does).
fn is_extend(c: char) -> bool {
    let cp = u32::from(c);
    is_non_spacing_mark(cp) || in_ranges(&EXTEND_EXTRA, cp)
}

/// The index of the character `chars[i]` attaches to: `i` itself, or the
/// last one before it that is not a mark.
fn base(chars: &[char], mut i: usize) -> usize {
    while i > 0 && is_extend(chars[i]) {
        i -= 1;
    }
    i
}

/// A word boundary before `chars[i]` (see the module note).
fn is_boundary(chars: &[char], i: usize) -> bool {
    if i == 0 || i >= chars.len() {
        return true;
    }
    if is_extend(chars[i]) {
        return false;
    }
    let p = base(chars, i - 1);
    let (prev, cur) = (chars[p], chars[i]);
    let mid = |c: char| in_ranges(&MID, u32::from(c));
    // A mid character (' . - _ ...) joins two letters that are not digits,
    // and only with nothing (no mark) between it and the letter after it.
    let letter = |c: char| is_word(c) && !is_digit(c);
    let joined = (is_word(prev) && is_word(cur))
        || (mid(cur) && letter(prev) && chars.get(i + 1).is_some_and(|&n| letter(n)))
        || (mid(prev) && p == i - 1 && p >= 1 && letter(chars[base(chars, p - 1)]) && letter(cur));
    !joined
}

/// `Character.isDigit` in the BMP (the runs of ten of `Nd`).
fn is_digit(c: char) -> bool {
    is_bmp_decimal_digit(u32::from(c))
}

fn is_cased(c: char) -> bool {
    in_ranges(&CASED, u32::from(c))
}

/// `ConditionalSpecialCasing.isFinalCased`: a cased letter before `index`
/// in its word, and none after it.
fn is_final_cased(chars: &[char], index: usize) -> bool {
    let mut i = index;
    while !is_boundary(chars, i) {
        if is_cased(chars[i - 1]) {
            let mut j = index + 1;
            while j < chars.len() && !is_boundary(chars, j) {
                if is_cased(chars[j]) {
                    return false;
                }
                j += 1;
            }
            return true;
        }
        i -= 1;
    }
    false
}

/// `s.toLowerCase(Locale.ENGLISH)`: `İ` becomes `i̇` (two code points), a
/// final `Σ` becomes `ς`.
pub(crate) fn java_to_lower(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == CAPITAL_SIGMA && is_final_cased(&chars, i) {
            out.push(FINAL_SIGMA);
        } else if let Some(m) = multi(&TO_LOWER_MULTI, c) {
            out.extend(m);
        } else {
            out.push(lookup(&TO_LOWER, c).unwrap_or(c));
        }
    }
    out
}

/// `s.toUpperCase(Locale.ENGLISH)`: `ß` becomes `SS`, `ﬁ` becomes `FI`, ...
pub(crate) fn java_to_upper(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_uppercase();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match multi(&TO_UPPER_MULTI, c) {
            Some(m) => out.extend(m),
            None => out.push(lookup(&TO_UPPER, c).unwrap_or(c)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_jdk_17_on_the_fixture() {
        let text = include_str!("../../tests/fixtures/jdk-case.json");
        let cases: Vec<(String, String, String)> = serde_json::from_str(text).unwrap();
        assert!(cases.len() > 400);
        let mut bad = Vec::new();
        for (s, lower, upper) in &cases {
            if &java_to_lower(s) != lower { bad.push(format!("lower {s:?}: {:?} vs {lower:?}", java_to_lower(s))); }
            assert_eq!(&java_to_upper(s), upper, "toUpperCase({s:?})");
        }
        assert!(bad.is_empty(), "{} of {}: {:#?}", bad.len(), cases.len(), &bad[..bad.len().min(8)]);
    }

    #[test]
    fn special_cases() {
        assert_eq!(java_to_lower("İ"), "i\u{307}");
        assert_eq!(java_to_upper("straße"), "STRASSE");
        assert_eq!(java_to_lower("ΟΔΟΣ"), "οδος");
        assert_eq!(java_to_lower("ΑΣΑ"), "ασα");
        assert_eq!(java_to_lower("Σ"), "σ");
        assert_eq!(java_to_lower("CN=Bob,O=Acme"), "cn=bob,o=acme");
    }

    #[test]
    fn tables_are_sorted_and_runs_do_not_overlap() {
        for runs in [&TO_LOWER[..], &TO_UPPER[..]] {
            for w in runs.windows(2) {
                let end = w[0].0 + (u32::from(w[0].1) - 1) * u32::from(w[0].3);
                assert!(end < w[1].0, "{:x?} overlaps {:x?}", w[0], w[1]);
            }
        }
        for t in [&TO_LOWER_MULTI[..], &TO_UPPER_MULTI[..]] {
            assert!(t.windows(2).all(|w| w[0].0 < w[1].0));
        }
        assert!(CASED.windows(2).all(|w| w[0].1 < w[1].0));
    }
}
