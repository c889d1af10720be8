package quota.vectors;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Case-by-case comparison of two vector sets of the same schema. Prints one line per differing field:
 * {@code <family> <case id> <path>: old <value>, new <value>} (values as compact JSON, numbers in the
 * files' own notation), then a per-family count.
 */
final class Compare {
    private Compare() {
    }

    /**
     * @param check when true ({@code check} mode): identical bytes pass at once; otherwise only a differing
     *              {@code provenance.jvm} is tolerated (reported), anything else fails
     * @return true if the sets are equal (check mode: equal up to the JVM name)
     */
    static boolean compare(Path oldDir, Path newDir, List<String> families, boolean check) throws IOException {
        boolean equal = true;
        for (String family : families) {
            Path o = oldDir.resolve(family + ".json");
            Path n = newDir.resolve(family + ".json");
            if (!Files.exists(o) || !Files.exists(n)) {
                System.out.println(family + ": missing " + (Files.exists(o) ? n : o));
                equal = false;
                continue;
            }
            if (check && Files.mismatch(o, n) == -1) {
                System.out.println(family + ": identical");
                continue;
            }
            JsonNode a = Json.read(o);
            JsonNode b = Json.read(n);
            List<String> diffs = new ArrayList<>();
            for (String top : List.of("family", "format_version", "case_count")) {
                if (!a.path(top).equals(b.path(top))) diffs.add(family + " - " + top + ": old " + a.path(top) + ", new " + b.path(top));
            }
            int provenanceDiffs = 0;
            if (check) {
                List<String> prov = new ArrayList<>();
                diff(prov, family + " - provenance", "", a.path("provenance"), b.path("provenance"));
                for (String d : prov) {
                    if (d.startsWith(family + " - provenance jvm:")) System.out.println("note: " + d + " (a different JVM build; outputs compared below)");
                    else diffs.add(d);
                }
                provenanceDiffs = prov.size();
            }
            Map<String, JsonNode> oldCases = byId(a);
            Map<String, JsonNode> newCases = byId(b);
            Set<String> ids = new LinkedHashSet<>(oldCases.keySet());
            ids.addAll(newCases.keySet());
            int differingCases = 0;
            for (String id : ids) {
                JsonNode x = oldCases.get(id);
                JsonNode y = newCases.get(id);
                int before = diffs.size();
                if (x == null) diffs.add(family + " " + id + ": only in " + newDir);
                else if (y == null) diffs.add(family + " " + id + ": only in " + oldDir);
                else diff(diffs, family + " " + id, "", x, y);
                if (diffs.size() > before) differingCases++;
            }
            diffs.forEach(System.out::println);
            int fieldDiffs = diffs.size();
            System.out.printf("%s: %d cases old, %d new; %d differing cases, %d differences%s%n", family, oldCases.size(), newCases.size(),
                differingCases, fieldDiffs, check ? "" : " (provenance not compared)");
            if (fieldDiffs > 0) equal = false;
            if (check && fieldDiffs == 0 && provenanceDiffs == 0) {
                System.out.println(family + ": same values, different bytes (layout)");
                equal = false;
            }
        }
        return equal;
    }

    private static Map<String, JsonNode> byId(JsonNode doc) {
        Map<String, JsonNode> m = new LinkedHashMap<>();
        for (JsonNode c : doc.path("cases")) m.put(c.path("id").asText(), c);
        return m;
    }

    private static String show(JsonNode n) {
        return n == null ? "<absent>" : Json.compact(n);
    }

    private static void diff(List<String> out, String where, String path, JsonNode a, JsonNode b) {
        if (a.isObject() && b.isObject()) {
            Set<String> keys = new LinkedHashSet<>();
            a.fieldNames().forEachRemaining(keys::add);
            b.fieldNames().forEachRemaining(keys::add);
            for (String k : keys) {
                JsonNode x = a.get(k);
                JsonNode y = b.get(k);
                String p = path.isEmpty() ? k : path + "." + k;
                if (x == null || y == null) out.add(where + " " + p + ": old " + show(x) + ", new " + show(y));
                else diff(out, where, p, x, y);
            }
            List<String> ka = new ArrayList<>();
            a.fieldNames().forEachRemaining(ka::add);
            List<String> kb = new ArrayList<>();
            b.fieldNames().forEachRemaining(kb::add);
            if (ka.size() == kb.size() && new LinkedHashSet<>(ka).equals(new LinkedHashSet<>(kb)) && !ka.equals(kb)) {
                out.add(where + " " + (path.isEmpty() ? "(case)" : path) + ": key order old " + ka + ", new " + kb);
            }
        } else if (a.isArray() && b.isArray()) {
            int n = Math.min(a.size(), b.size());
            for (int i = 0; i < n; i++) diff(out, where, path + "[" + i + "]", a.get(i), b.get(i));
            for (int i = n; i < a.size(); i++) out.add(where + " " + path + "[" + i + "]: old " + show(a.get(i)) + ", new <absent>");
            for (int i = n; i < b.size(); i++) out.add(where + " " + path + "[" + i + "]: old <absent>, new " + show(b.get(i)));
        } else {
            // Scalars are compared in the files' notation: 1.0 and 1 differ, as do 1.0E7 and 10000000.0.
            String x = show(a);
            String y = show(b);
            if (!x.equals(y)) out.add(where + " " + (path.isEmpty() ? "(value)" : path) + ": old " + x + ", new " + y);
        }
    }

}
