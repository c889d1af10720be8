package quota.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The project's conformance-vector generator.
 *
 * <pre>
 *   generate IN_DIR OUT_DIR [FAMILY...]   replay the inputs of IN_DIR/&lt;family&gt;.json through Kafka 4.3.1,
 *                                         write OUT_DIR/&lt;family&gt;.json (same schema, Kafka 4.3.1's outputs)
 *   compare OLD_DIR NEW_DIR [FAMILY...]   print every difference, case by case (exit 1 if any)
 *   check COMMITTED_DIR FRESH_DIR         exit 1 unless FRESH_DIR reproduces COMMITTED_DIR (a differing JVM
 *                                         name in the provenance alone is reported, not failed)
 * </pre>
 */
public final class Main {
    static final List<String> FAMILIES = List.of("rate", "token_bucket", "precedence", "principal", "validation");

    private Main() {
    }

    private static Family family(String name) {
        switch (name) {
            case "rate": return new RateFamily();
            case "token_bucket": return new TokenBucketFamily();
            case "precedence": return new PrecedenceFamily();
            case "principal": return new PrincipalFamily();
            case "validation": return new ValidationFamily();
            default: throw new IllegalArgumentException("unknown family " + name + " (one of " + FAMILIES + ")");
        }
    }

    public static void main(String[] args) throws Exception {
        Logs.install();
        PrintStream err = Logs.err();
        if (args.length < 3) {
            err.println("usage: generate IN_DIR OUT_DIR [FAMILY...] | compare OLD_DIR NEW_DIR [FAMILY...] | check COMMITTED_DIR FRESH_DIR");
            System.exit(2);
        }
        Path a = Path.of(args[1]);
        Path b = Path.of(args[2]);
        List<String> families = args.length > 3 ? Arrays.asList(args).subList(3, args.length) : FAMILIES;
        int status;
        try {
            switch (args[0]) {
                case "generate":
                    status = generate(a, b, families);
                    break;
                case "compare":
                    status = Compare.compare(a, b, families, false) ? 0 : 1;
                    break;
                case "check":
                    status = Compare.compare(a, b, FAMILIES, true) ? 0 : 1;
                    break;
                default:
                    err.println("unknown mode " + args[0]);
                    status = 2;
            }
        } catch (Exception e) {
            e.printStackTrace(err);
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    private static int generate(Path inDir, Path outDir, List<String> families) throws Exception {
        Provenance.verifyClasspath();
        for (String name : families) {
            long start = System.nanoTime();
            Family f = family(name);
            JsonNode in = Json.read(inDir.resolve(name + ".json"));
            if (!name.equals(in.path("family").asText())) throw new IllegalArgumentException(inDir + "/" + name + ".json is not family " + name);
            if (in.path("format_version").asInt() != 1) throw new IllegalArgumentException("unsupported format_version " + in.get("format_version"));
            ArrayNode cases = Json.arr();
            Map<String, Boolean> ids = new LinkedHashMap<>();
            for (JsonNode c : in.get("cases")) {
                String id = Family.need(c, "id").asText();
                if (ids.put(id, true) != null) throw new IllegalArgumentException("duplicate case id " + id);
                ObjectNode out;
                try {
                    out = f.replay(c);
                    Logs.failOnKafkaWarnings(name + " case " + id);
                } catch (Exception e) {
                    throw new IllegalStateException(name + " case " + id + ": " + e, e);
                }
                cases.add(out);
            }
            ObjectNode doc = Json.obj();
            doc.put("family", name);
            doc.put("format_version", 1);
            doc.set("provenance", Provenance.of(f, inDir.resolve(name + ".json")));
            doc.put("case_count", cases.size());
            doc.set("cases", cases);
            Json.write(outDir.resolve(name + ".json"), doc);
            System.out.printf("%s: %d cases -> %s (%.1f s)%n", name, cases.size(), outDir.resolve(name + ".json"),
                (System.nanoTime() - start) / 1e9);
        }
        return 0;
    }
}
