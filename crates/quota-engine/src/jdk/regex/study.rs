//! `TreeInfo.study`: the minimum and maximum length of a piece of the node
//! graph and whether it is deterministic, which decides between `GroupCurly`
//! and `Loop` and the bounds of a look-behind.
//!
//! JDK 17: `Pattern.TreeInfo` and the `study` methods of its nodes.

use super::nodes::{Id, Kind, Qtype, ACCEPT};
use super::parser::{Parser, MAX_REPS};

/// `Pattern.TreeInfo`.
#[derive(Clone, Copy)]
pub(super) struct TreeInfo {
    pub(super) min_length: i32,
    pub(super) max_length: i32,
    pub(super) max_valid: bool,
    pub(super) deterministic: bool,
}

impl TreeInfo {
    pub(super) fn new() -> Self {
        TreeInfo {
            min_length: 0,
            max_length: 0,
            max_valid: true,
            deterministic: true,
        }
    }
}

impl Parser<'_> {
    /// `Node.study(TreeInfo)` for the node `id` and what follows it; returns
    /// whether the piece is deterministic. Lengths use Java's `int` arithmetic.
    pub(super) fn study(&self, id: Id, info: &mut TreeInfo) -> bool {
        let node = &self.nodes[id as usize];
        let next = node.next;
        match &node.kind {
            Kind::Accept | Kind::LookBehindEnd => {
                if id == ACCEPT {
                    info.deterministic
                } else {
                    self.study(next, info)
                }
            }
            Kind::LastAccept => self.study(next, info),
            Kind::Char(_) => {
                info.min_length = info.min_length.wrapping_add(1);
                info.max_length = info.max_length.wrapping_add(1);
                self.study(next, info)
            }
            Kind::Slice(sets) => {
                info.min_length = info.min_length.wrapping_add(sets.len() as i32);
                info.max_length = info.max_length.wrapping_add(sets.len() as i32);
                self.study(next, info)
            }
            Kind::LineEnding => {
                info.min_length = info.min_length.wrapping_add(1);
                info.max_length = info.max_length.wrapping_add(2);
                self.study(next, info)
            }
            Kind::Dollar(_) => {
                self.study(next, info);
                info.deterministic
            }
            Kind::BackRef { .. } => {
                info.max_valid = false;
                self.study(next, info)
            }
            Kind::BranchConn => info.deterministic,
            Kind::Branch { alts, conn } => {
                let mut min_l = info.min_length;
                let mut max_l = info.max_length;
                let mut max_v = info.max_valid;
                let mut min_l2 = i32::MAX;
                let mut max_l2 = -1i32;
                for alt in alts {
                    *info = TreeInfo::new();
                    if let Some(a) = alt {
                        self.study(*a, info);
                    }
                    min_l2 = min_l2.min(info.min_length);
                    max_l2 = max_l2.max(info.max_length);
                    max_v &= info.max_valid;
                }
                min_l = min_l.wrapping_add(min_l2);
                max_l = max_l.wrapping_add(max_l2);
                *info = TreeInfo::new();
                self.study(self.nodes[*conn as usize].next, info);
                info.min_length = info.min_length.wrapping_add(min_l);
                info.max_length = info.max_length.wrapping_add(max_l);
                info.max_valid &= max_v;
                info.deterministic = false;
                false
            }
            Kind::Ques { atom, q } => {
                if *q == Qtype::Independent {
                    self.study(*atom, info);
                } else {
                    let min_l = info.min_length;
                    self.study(*atom, info);
                    info.min_length = min_l;
                    info.deterministic = false;
                }
                self.study(next, info)
            }
            Kind::Curly {
                char_greedy: true,
                min,
                ..
            } => {
                info.min_length = info.min_length.wrapping_add(*min as i32);
                if info.max_valid {
                    info.max_length = info.max_length.wrapping_add(MAX_REPS as i32);
                }
                info.deterministic = false;
                self.study(next, info)
            }
            Kind::Curly { atom, min, max, .. } | Kind::GroupCurly { atom, min, max, .. } => {
                let min_l = info.min_length;
                let max_l = info.max_length;
                let max_v = info.max_valid;
                let detm = info.deterministic;
                *info = TreeInfo::new();
                self.study(*atom, info);
                let mut temp = info
                    .min_length
                    .wrapping_mul(*min as i32)
                    .wrapping_add(min_l);
                if temp < min_l {
                    temp = 0xFFF_FFFF;
                }
                info.min_length = temp;
                if max_v & info.max_valid {
                    let temp = info
                        .max_length
                        .wrapping_mul(*max as i32)
                        .wrapping_add(max_l);
                    info.max_length = temp;
                    if temp < max_l {
                        info.max_valid = false;
                    }
                } else {
                    info.max_valid = false;
                }
                if info.deterministic && min == max {
                    info.deterministic = detm;
                } else {
                    info.deterministic = false;
                }
                self.study(next, info)
            }
            Kind::Prolog { .. } | Kind::Loop { .. } => {
                info.max_valid = false;
                info.deterministic = false;
                false
            }
            Kind::Begin
            | Kind::End
            | Kind::Caret
            | Kind::Bound(_)
            | Kind::LastMatch
            | Kind::GroupHead { .. }
            | Kind::GroupTail { .. }
            | Kind::Look { .. }
            | Kind::Behind { .. } => self.study(next, info),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{err, ok};
    use crate::principal::ErrorClass;

    #[test]
    fn look_behind_lengths_follow_jdk_17_study() {
        // JDK 17 accepts `a*` in a look-behind (its maximum saturates) ...
        assert_eq!(
            ok("(?<=a*)b").replace("aab", "<$0>", true).unwrap(),
            "aa<b>"
        );
        // ... but not a loop over a group, or a back-reference.
        assert_eq!(
            err("(?<=(a|b){2})x").message(),
            "Look-behind group does not have an obvious maximum length near index 11\n(?<=(a|b){2})x\n           ^"
        );
        assert_eq!(err("(?<=\\1)x").class(), ErrorClass::PatternSyntax);
        assert_eq!(
            err("\\b{x}").message(),
            "Illegal repetition near index 3\n\\b{x}\n   ^"
        );
    }
}
