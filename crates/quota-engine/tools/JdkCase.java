// Generates crates/quota-engine/src/jdk/case/data.rs from the JDK it
// runs on (use JDK 17, Kafka's baseline: Unicode 13.0):
//
//   java crates/quota-engine/tools/JdkCase.java > crates/quota-engine/src/jdk/case/data.rs
//   java crates/quota-engine/tools/JdkCase.java --fixture > crates/quota-engine/tests/fixtures/jdk-case.json
//
// The second form writes strings with the JDK's own lower and upper case
// for the differential test (src/principal/case.rs).
//
// What it records, for String.toLowerCase(Locale.ENGLISH) and
// String.toUpperCase(Locale.ENGLISH) of each code point on its own:
// single code point results as runs (first, count, delta, stride), results
// of several code points (U+0130, SpecialCasing's ß -> SS, ...) as a list,
// and ConditionalSpecialCasing.isCased as ranges (the final-sigma rule).
import java.util.*;

public class JdkCase {
    record Run(int first, int count, int delta, int stride) {}

    static List<Run> runs(Map<Integer, Integer> m) {
        List<Run> out = new ArrayList<>();
        int first = -1, count = 0, delta = 0, stride = 0;
        for (var e : new TreeMap<>(m).entrySet()) {
            int cp = e.getKey(), d = e.getValue() - cp;
            if (count > 0 && d == delta && (count == 1 ? (cp - first == 1 || cp - first == 2) : cp == first + count * stride)) {
                if (count == 1) stride = cp - first;
                count++;
                continue;
            }
            if (count > 0) out.add(new Run(first, count, delta, count == 1 ? 1 : stride));
            first = cp; count = 1; delta = d; stride = 1;
        }
        if (count > 0) out.add(new Run(first, count, delta, count == 1 ? 1 : stride));
        return out;
    }

    static boolean isCased(int ch) {
        int t = Character.getType(ch);
        return t == Character.LOWERCASE_LETTER || t == Character.UPPERCASE_LETTER || t == Character.TITLECASE_LETTER
            || (ch >= 0x02B0 && ch <= 0x02B8) || (ch >= 0x02C0 && ch <= 0x02C1) || (ch >= 0x02E0 && ch <= 0x02E4)
            || ch == 0x0345 || ch == 0x037A || (ch >= 0x1D2C && ch <= 0x1D61) || (ch >= 0x2160 && ch <= 0x217F)
            || (ch >= 0x24B6 && ch <= 0x24E9);
    }

    static String hexes(String s) {
        StringBuilder b = new StringBuilder("&[");
        s.codePoints().forEach(c -> b.append(String.format("'\\u{%X}', ", c)));
        return b.append("]").toString();
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        s.chars().forEach(c -> b.append(c == '"' || c == '\\' ? "\\" + (char) c : c < 0x20 || c > 0x7E ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return b.append('"').toString();
    }

    /** Strings that exercise every table and the final-sigma rule, with the JDK's answers. */
    static void fixture() {
        List<String> cases = new ArrayList<>(List.of(
            "", "ALICE", "alice", "CN=Alice,OU=Ops", "İSTANBUL", "istanbul", "straße", "ﬁle", "ǅemal", "ΟΔΟΣ", "ΟΔΟΣ ΟΔΟΣ",
            "Σ", "ΑΣ.", "ΑΣ1", "ΑΣΑ", "Σ.Α", "A'Σ", "ΑΣ\u0301", "1Σ", "ΑΣ-Β", "ʰΣ", "ⅠΣ", "ᾳ", "ΐ", "ŉ", "Ǆ", "ǅ", "ǆ",
            "Ⓐ", "𐐀", "𐐨", "𞤀", "ꭰ", "Ꭰ", "ß", "ẞ", "K", "Å", "Ω", "ı", "ſ", "ﬀ", "և", "ǰ", "\u0345", "ͅΣ"));
        Random r = new Random(20261130);
        // Scripts a principal name with a Σ plausibly mixes (Latin, Greek,
        // Cyrillic, Armenian, their marks, punctuation): case.rs does not
        // model the JDK's word rules around ideographs and other scripts.
        int[] pool = java.util.stream.IntStream.concat(java.util.stream.IntStream.rangeClosed(0x20, 0x58F),
                java.util.stream.IntStream.rangeClosed(0x1E00, 0x2027))
            .filter(c -> Character.isLetter(c) || Character.getType(c) == Character.NON_SPACING_MARK
                || Character.getType(c) == Character.ENCLOSING_MARK || " .'-_\"@=,/:1\u2019\u2010".indexOf(c) >= 0)
            .toArray();
        for (int n = 0; n < 2000; n++) {
            StringBuilder b = new StringBuilder();
            int len = 1 + r.nextInt(8);
            for (int k = 0; k < len; k++) b.appendCodePoint(r.nextInt(3) == 0 ? (r.nextBoolean() ? 0x3A3 : " .'-_1ab".charAt(r.nextInt(8))) : pool[r.nextInt(pool.length)]);
            cases.add(b.toString());
        }
        StringBuilder o = new StringBuilder("[\n");
        for (int i = 0; i < cases.size(); i++) {
            String s = cases.get(i);
            o.append("  [").append(json(s)).append(", ").append(json(s.toLowerCase(Locale.ENGLISH))).append(", ")
             .append(json(s.toUpperCase(Locale.ENGLISH))).append("]").append(i + 1 < cases.size() ? ",\n" : "\n");
        }
        System.out.print(o.append("]\n"));
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("--fixture")) {
            fixture();
            return;
        }
        Map<Integer, Integer> lower = new HashMap<>(), upper = new HashMap<>();
        Map<Integer, String> lowerMulti = new TreeMap<>(), upperMulti = new TreeMap<>();
        List<int[]> cased = new ArrayList<>();
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (isCased(cp)) {
                if (!cased.isEmpty() && cased.get(cased.size() - 1)[1] == cp - 1) cased.get(cased.size() - 1)[1] = cp;
                else cased.add(new int[] {cp, cp});
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) continue;
            String s = new String(Character.toChars(cp));
            String l = s.toLowerCase(Locale.ENGLISH), u = s.toUpperCase(Locale.ENGLISH);
            if (!l.equals(s)) {
                if (l.codePointCount(0, l.length()) == 1) lower.put(cp, l.codePointAt(0)); else lowerMulti.put(cp, l);
            }
            if (!u.equals(s)) {
                if (u.codePointCount(0, u.length()) == 1) upper.put(cp, u.codePointAt(0)); else upperMulti.put(cp, u);
            }
        }
        StringBuilder o = new StringBuilder();
        o.append("//! Case mapping of `String.toLowerCase(Locale.ENGLISH)` and\n")
         .append("//! `String.toUpperCase(Locale.ENGLISH)` as JDK ").append(System.getProperty("java.specification.version"))
         .append(" does it (Unicode ").append(unicodeVersion()).append("),\n")
         .append("//! generated by `java crates/quota-engine/tools/JdkCase.java`; do not edit.\n")
         .append("//!\n//! JDK: `java/lang/StringUTF16.java` (`toLowerCase`, `toUpperCase`),\n")
         .append("//! `java/lang/ConditionalSpecialCasing.java` (`isCased`, `Final_Cased`).\n\n");
        emitRuns(o, "TO_LOWER", "lower case", runs(lower));
        emitRuns(o, "TO_UPPER", "upper case", runs(upper));
        emitMulti(o, "TO_LOWER_MULTI", "lower case", lowerMulti);
        emitMulti(o, "TO_UPPER_MULTI", "upper case", upperMulti);
        // Word boundaries of BreakIterator.getWordInstance(Locale.ENGLISH), as
        // classes of code points: what joins a letter on both sides besides
        // isLetterOrDigit (WORD_EXTRA), letters and digits that do not
        // (WORD_EXCEPT: kana, ideographs), what attaches to the character
        // before it besides Mn (EXTEND_EXTRA), and what joins only between two
        // letters (MID: ' . - _ ...).
        java.text.BreakIterator w = java.text.BreakIterator.getWordInstance(Locale.ENGLISH);
        List<int[]> extra = new ArrayList<>(), except = new ArrayList<>(), left = new ArrayList<>(), mid = new ArrayList<>();
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (cp >= 0xD800 && cp <= 0xDFFF) continue;
            String x = new String(Character.toChars(cp));
            w.setText("a" + x); boolean joinsLeft = !w.isBoundary(1);
            w.setText(x + "a"); boolean joinsRight = !w.isBoundary(x.length());
            w.setText("a" + x + "b"); boolean between = !w.isBoundary(1) && !w.isBoundary(1 + x.length());
            boolean mn = Character.getType(cp) == Character.NON_SPACING_MARK;
            boolean word = joinsLeft && joinsRight;
            if (word && !Character.isLetterOrDigit(cp) && !mn) add(extra, cp);
            if (!word && Character.isLetterOrDigit(cp)) add(except, cp);
            if (joinsLeft && !joinsRight && !mn) add(left, cp);
            if (mn && !(joinsLeft && !joinsRight)) throw new IllegalStateException("Mn that is not an extender: " + cp);
            if (joinsRight && !joinsLeft) throw new IllegalStateException("joins right only: " + cp);
            if (between && !joinsLeft && !joinsRight) add(mid, cp);
        }
        emitRanges(o, "WORD_EXTRA", "Joins the letters on both sides, though neither a letter, a digit nor `Mn`", extra);
        emitRanges(o, "WORD_EXCEPT", "A letter or digit that does not join the letters around it", except);
        emitRanges(o, "EXTEND_EXTRA", "Attaches to the character before it, as `Mn` does", left);
        emitRanges(o, "MID", "Joins two letters when between them, nothing else", mid);
        o.append("/// `ConditionalSpecialCasing.isCased`: sorted inclusive ranges.\n");
        o.append("pub(super) const CASED: [(u32, u32); ").append(cased.size()).append("] = [\n");
        for (int[] r : cased) o.append(String.format("    (0x%X, 0x%X),\n", r[0], r[1]));
        o.append("];\n");
        System.out.print(o);
    }

    static void add(List<int[]> ranges, int cp) {
        if (!ranges.isEmpty() && ranges.get(ranges.size() - 1)[1] == cp - 1) ranges.get(ranges.size() - 1)[1] = cp;
        else ranges.add(new int[] {cp, cp});
    }

    static void emitRanges(StringBuilder o, String name, String what, List<int[]> rs) {
        o.append("/// Word boundaries: ").append(what).append(" (sorted inclusive ranges).\n");
        o.append("pub(super) const ").append(name).append(": [(u32, u32); ").append(rs.size()).append("] = [\n");
        for (int[] r : rs) o.append(String.format("    (0x%X, 0x%X),\n", r[0], r[1]));
        o.append("];\n\n");
    }

    static String unicodeVersion() {
        // Character.UnicodeBlock additions pin the version: JDK 17 is Unicode 13.0.
        return switch (System.getProperty("java.specification.version")) {
            case "17" -> "13.0";
            case "21" -> "15.0";
            default -> "see the JDK's release notes";
        };
    }

    static void emitRuns(StringBuilder o, String name, String what, List<Run> rs) {
        o.append("/// Code points whose ").append(what).append(" is one other code point, as runs\n")
         .append("/// `(first, count, delta, stride)`: `first + k * stride` maps to itself plus\n")
         .append("/// `delta` for `k < count`. Sorted by `first`; the runs' spans do not overlap.\n");
        o.append("pub(super) const ").append(name).append(": [(u32, u16, i32, u8); ").append(rs.size()).append("] = [\n");
        for (Run r : rs) o.append(String.format("    (0x%X, %d, %d, %d),\n", r.first(), r.count(), r.delta(), r.stride()));
        o.append("];\n\n");
    }

    static void emitMulti(StringBuilder o, String name, String what, Map<Integer, String> m) {
        o.append("/// Code points whose ").append(what).append(" is several code points (sorted).\n");
        o.append("pub(super) const ").append(name).append(": [(char, &[char]); ").append(m.size()).append("] = [\n");
        for (var e : m.entrySet()) o.append(String.format("    ('\\u{%X}', %s),\n", e.getKey(), hexes(e.getValue())));
        o.append("];\n\n");
    }
}
