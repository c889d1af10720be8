package quota.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Reading and writing the vector files.
 *
 * <p>Doubles are written with {@link Double#toString(double)} (the schema's number format), integers
 * without a fraction, strings escaped to ASCII ({@code \u00fc}, lowercase hex). The layout is the one of
 * the handed-over files: two-space indentation, except that the arrays named in {@link #LINE_ARRAYS}
 * put one compact element on each line and those in {@link #INLINE_ARRAYS} are written compact on one
 * line. Writing the same values therefore gives the same bytes.
 */
final class Json {
    static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Arrays written one compact element per line (a case's operation list). */
    private static final Set<String> LINE_ARRAYS = Set.of("events", "steps", "mappings");
    /** Arrays written compact on one line (validation.json's request / response lists). */
    private static final Set<String> INLINE_ARRAYS = Set.of("setup", "alterations", "checks", "results", "records");

    private Json() {
    }

    static JsonNode read(Path file) throws IOException {
        return MAPPER.readTree(file.toFile());
    }

    static ObjectNode obj() {
        return F.objectNode();
    }

    static ArrayNode arr() {
        return F.arrayNode();
    }

    /** A double as the schema writes it: a number, or "NaN" / "Infinity" / "-Infinity". */
    static JsonNode dbl(double v) {
        if (Double.isNaN(v)) return TextNode.valueOf("NaN");
        if (Double.isInfinite(v)) return TextNode.valueOf(v > 0 ? "Infinity" : "-Infinity");
        return F.numberNode(v);
    }

    /** Reads a double written by {@link #dbl}. */
    static double dblOf(JsonNode n) {
        if (n == null || n.isNull()) throw new IllegalArgumentException("missing double");
        if (n.isTextual()) {
            switch (n.asText()) {
                case "NaN": return Double.NaN;
                case "Infinity": return Double.POSITIVE_INFINITY;
                case "-Infinity": return Double.NEGATIVE_INFINITY;
                default: throw new IllegalArgumentException("not a double: " + n);
            }
        }
        if (!n.isNumber()) throw new IllegalArgumentException("not a double: " + n);
        return n.doubleValue();
    }

    static long longOf(JsonNode n) {
        if (n == null || !n.isIntegralNumber()) throw new IllegalArgumentException("not an integer: " + n);
        return n.longValue();
    }

    static String strOrNull(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }

    static void write(Path file, JsonNode doc) throws IOException {
        StringBuilder sb = new StringBuilder();
        pretty(sb, doc, 0, null);
        sb.append('\n');
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, sb.toString().getBytes(StandardCharsets.US_ASCII));
    }

    private static void indent(StringBuilder sb, int n) {
        for (int i = 0; i < n; i++) sb.append(' ');
    }

    private static void pretty(StringBuilder sb, JsonNode n, int ind, String key) {
        if (n.isObject()) {
            if (n.isEmpty()) {
                sb.append("{}");
                return;
            }
            sb.append("{\n");
            Iterator<Map.Entry<String, JsonNode>> it = n.properties().iterator();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                indent(sb, ind + 2);
                string(sb, e.getKey());
                sb.append(": ");
                pretty(sb, e.getValue(), ind + 2, e.getKey());
                if (it.hasNext()) sb.append(',');
                sb.append('\n');
            }
            indent(sb, ind);
            sb.append('}');
        } else if (n.isArray()) {
            if (n.isEmpty() || (key != null && INLINE_ARRAYS.contains(key))) {
                compact(sb, n);
                return;
            }
            boolean lines = key != null && LINE_ARRAYS.contains(key);
            sb.append("[\n");
            for (int i = 0; i < n.size(); i++) {
                indent(sb, ind + 2);
                if (lines) compact(sb, n.get(i));
                else pretty(sb, n.get(i), ind + 2, null);
                if (i + 1 < n.size()) sb.append(',');
                sb.append('\n');
            }
            indent(sb, ind);
            sb.append(']');
        } else {
            scalar(sb, n);
        }
    }

    static String compact(JsonNode n) {
        StringBuilder sb = new StringBuilder();
        compact(sb, n);
        return sb.toString();
    }

    private static void compact(StringBuilder sb, JsonNode n) {
        if (n.isObject()) {
            sb.append('{');
            Iterator<Map.Entry<String, JsonNode>> it = n.properties().iterator();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                string(sb, e.getKey());
                sb.append(':');
                compact(sb, e.getValue());
                if (it.hasNext()) sb.append(',');
            }
            sb.append('}');
        } else if (n.isArray()) {
            sb.append('[');
            for (int i = 0; i < n.size(); i++) {
                if (i > 0) sb.append(',');
                compact(sb, n.get(i));
            }
            sb.append(']');
        } else {
            scalar(sb, n);
        }
    }

    private static void scalar(StringBuilder sb, JsonNode n) {
        if (n.isNull()) {
            sb.append("null");
        } else if (n.isBoolean()) {
            sb.append(n.booleanValue());
        } else if (n.isTextual()) {
            string(sb, n.textValue());
        } else if (n.isIntegralNumber()) {
            sb.append(n.bigIntegerValue());
        } else if (n.isFloatingPointNumber()) {
            double d = n.doubleValue();
            if (!Double.isFinite(d)) throw new IllegalArgumentException("non-finite double must be written as a string");
            sb.append(Double.toString(d));
        } else {
            throw new IllegalArgumentException("unsupported JSON node " + n.getNodeType());
        }
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                case '\b': sb.append("\\b"); break;
                case '\f': sb.append("\\f"); break;
                default:
                    if (c < 0x20 || c > 0x7e) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
            }
        }
        sb.append('"');
    }
}
