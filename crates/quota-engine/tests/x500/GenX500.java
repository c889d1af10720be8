// Generates crates/quota-engine/tests/fixtures/x500-vectors.json from the JDK
// it runs on (use JDK 17, Kafka 4.3.1's baseline). Run it through
// scripts/gen-x500-vectors.sh, which checks the Java and openssl versions.
//
// Two kinds of case:
//
// - "typed": new javax.security.auth.x500.X500Principal(input), then
//   getName() (= getName(X500Principal.RFC2253), what Kafka's
//   DefaultKafkaPrincipalBuilder hands to SslPrincipalMapper) and
//   getName(RFC1779); or, when the constructor throws, the exception's class
//   and message and those of its cause (sun.security.x509.X500Name / RDN /
//   AVA / AVAKeyword / sun.security.util.DerValue / ObjectIdentifier throw
//   the IOException that X500Principal wraps).
// - "openssl": a self-signed certificate made by `openssl req -subj <subj>`;
//   the subject lines openssl prints for it (`openssl x509 -noout -subject`
//   with the default name options, `-nameopt compat` and `-nameopt RFC2253`)
//   and the certificate's real subject as Java reads it
//   (X509Certificate.getSubjectX500Principal().getName()): what the broker
//   runs the mapping rules on.
//
//   java crates/quota-engine/tests/x500/GenX500.java > crates/quota-engine/tests/fixtures/x500-vectors.json
//   java crates/quota-engine/tests/x500/GenX500.java --typed-from inputs.b64 > /tmp/extra.json
//     (a differential run over other inputs: X500_VECTORS_EXTRA=/tmp/extra.json cargo test -p quota-engine --test engine x500)
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.security.cert.*;
import java.util.*;
import javax.security.auth.x500.X500Principal;

public class GenX500 {
    /** The typed inputs: every form X500Principal(String) reads, and refusals. */
    static final String[] TYPED = {
        // RFC 2253, as Kafka's docs write DNs.
        "CN=app,OU=eng,O=Example,C=US",
        "CN=my-user,OU=eng,O=Example\\, Inc.,C=US",
        // Spaces around separators and '=' (RFC 1779; openssl's output after its prefix).
        "CN=app, OU=eng, O=Example, C=US",
        "CN = app, OU = eng",
        "  CN=app ,OU=eng  ",
        "CN=app,  OU=eng",
        "cn=app,ou=eng,o=example,c=us",
        "Cn=App,oU=Eng",
        // ';' separators (RFC 1779).
        "CN=app;OU=eng;O=Example",
        "CN=app; OU=eng; O=Example",
        // Multi-valued RDNs.
        "CN=app+UID=7,OU=eng",
        "OU=eng + UID=7, CN=app",
        "CN=a+CN=b",
        // Quoted values (RFC 1779).
        "CN=\"app, the first\",O=x",
        "O=\"Sue, Grabbit and Runn\",C=GB",
        "CN=\"  padded  \",O=x",
        "CN=\"a+b\"",
        "CN=\"with \\\"quote\\\"\"",
        "CN=\"semi;colon\";O=x",
        "CN=\"a\"  ,O=x",
        // Escapes.
        "CN=a\\,b",
        "CN=a\\+b,O=x",
        "CN=a\\;b",
        "CN=a\\=b",
        "CN=a\\<b\\>c",
        "CN=\\#hash",
        "CN=a\\\\b",
        "CN=a\\\"b",
        "CN=\\ lead",
        "CN=trail\\ ",
        "CN=in\\ side",
        "CN=a\\\\,O=x",
        "CN=a\\\\\\,b,O=x",
        // Hex pairs in a value (UTF-8 bytes).
        "CN=caf\\C3\\A9",
        "CN=\\41\\42C",
        "CN=a \\41",
        "CN=a \\41 b",
        "CN=\\E2\\82",
        // Unicode as typed.
        "CN=café,O=Bücher",
        "CN=日本語,O=x",
        "CN=emoji 😀",
        "CN=tab\there",
        "CN=new\nline",
        // Values needing escapes on output.
        "CN=a#b",
        "CN=a=b",
        "CN=  many   spaces  ",
        "CN=",
        "CN=,O=x",
        // Keywords Java knows.
        "CN=a,L=Paris,ST=IDF,S=IDF,O=o,OU=u,C=FR",
        "STREET=1 Main St,DC=example,DC=com",
        "UID=alice,DC=example,DC=com",
        "T=boss,CN=a",
        "IP=10.0.0.1,CN=a",
        "DNQUALIFIER=q,CN=a",
        "DNQ=q,CN=a",
        "SURNAME=Smith,GIVENNAME=Al,INITIALS=AS,GENERATION=III,CN=a",
        "EMAILADDRESS=app@example.com,CN=app",
        "EMAIL=app@example.com,CN=app",
        "emailAddress=app@example.com,CN=app,O=Example",
        "CN=app,emailAddress=jos\u00e9@example.com",
        "SERIALNUMBER=12345,CN=a",
        "SERIALNUMBER=ab_c,CN=a",
        "DC=jos\u00e9",
        // OIDs.
        "OID.2.5.4.3=app",
        "oid.2.5.4.3=app",
        "2.5.4.3=app",
        "2.5.4.11=eng,CN=a",
        "1.2.3.4=x",
        "OID.1.2.3.4=x",
        "1.2.840.113549.1.9.1=a@b.c",
        "1.2.840.113549.1.9.01=a@b.c",
        "0.9.2342.19200300.100.1.1=alice",
        "2.999.1=x",
        "1.2.3=#0c03616263",
        "2.5.4.3=#0c03616263",
        // Hex values.
        "CN=#0c03616263",
        "CN=#130361 6263",
        "CN=#1303616263",
        "CN=#16036162 63",
        "CN=#160361622b",
        "CN=#1e0400610062",
        "CN=#0403616263",
        "CN=#0C03616263",
        "CN=#0c8103616263",
        "CN=#0c00",
        "CN=#1c0400000061",
        "T=#0c03616263",
        // Empty and odd names.
        "",
        "CN=a,,O=b",
        // Refusals.
        "CN",
        "=app",
        "CN=app,",
        ",CN=app",
        "FOO=bar",
        "CN=a,FOO=bar",
        "OID.x=1",
        "1=x",
        "1.x=y",
        "3.1=x",
        "1.40=x",
        "1.2.-3=x",
        "1..2=x",
        "CN=#",
        "CN=#0c0",
        "CN=#zz",
        "CN=#0c02",
        "CN=#0c0161ff",
        "CN=#1f0100",
        "CN=#0c85000000000000",
        "CN=#0c840000",
        "CN=#0c84ffffffff",
        "CN=a\\",
        "CN=a\\x",
        "CN=a\\4",
        "CN=a\\4g",
        "CN=\"unterminated",
        "CN=\"a\"b",
        "CN=\"a\\x\"",
        "CN=a\"b",
        "CN=a<b",
        "CN=a>b",
        "CN=a+",
        "+CN=a",
        "CN=a++O=b",
        "CN=app,OU=eng,O=Example\\, Inc.,C=US,GN=x",
        "TITLE=boss",
        "SN=Smith",
        "subject=CN = app",
        // Quote counting across separators, as X500Name.parseDN does it.
        "CN=\"a,b\"+OU=\"c;d\",O=x",
        "CN=a\\\\\\,b",
        "CN=x\\,O=y\\\\,C=z",
        "CN=\"a\" + OU=b",
        "OU=a\\+b+CN=c",
        "CN=\u00e9\\E9",
    };

    /** openssl -subj arguments: certificates made by openssl, read by Java. */
    static final String[] OPENSSL = {
        "/CN=app/OU=eng",
        "/C=US/O=Example/OU=eng/CN=app",
        "/C=US/O=Example, Inc./CN=app",
        "/CN=app/emailAddress=app@example.com",
        "/C=US/ST=CA/L=San Francisco/O=Org/OU=eng+UID=7/CN=app",
        "/DC=com/DC=example/CN=alice",
        "/CN=Batch Loader/OU=ServiceUsers/O=Org",
        "/O=Org/CN=app/title=boss/GN=Al/SN=Smith",
        "/CN=a+b/O=x",
        "/CN=semi;colon/O=x",
        "/CN=#hash/O=x",
        "/serialNumber=42/CN=app",
        "/CN=quote\"in/O=x",
        "/O=Org/CN=app \u00e9",
        "/CN=caf\u00e9/O=B\u00fccher",
        "/O=Org/OU=b+OU=a/CN=x",
        "/CN=trailing space /O=x",
        "/DC=com/DC=example/UID=svc-1",
    };

    static String json(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }

    static String typedCase(String input) {
        StringBuilder o = new StringBuilder("    {\"kind\": \"typed\", \"input\": ").append(json(input));
        try {
            X500Principal p = new X500Principal(input);
            o.append(", \"ok\": true, \"rfc2253\": ").append(json(p.getName()))
             .append(", \"rfc1779\": ").append(json(p.getName(X500Principal.RFC1779)));
        } catch (IllegalArgumentException e) {
            Throwable c = e.getCause();
            o.append(", \"ok\": false, \"error_class\": ").append(json(e.getClass().getName()))
             .append(", \"message\": ").append(json(e.getMessage()))
             .append(", \"cause_class\": ").append(json(c == null ? null : c.getClass().getName()))
             .append(", \"cause_message\": ").append(json(c == null ? null : c.getMessage()));
        }
        return o.append("}").toString();
    }

    static String run(Path dir, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IOException(String.join(" ", cmd) + ": " + err);
        return out.endsWith("\n") ? out.substring(0, out.length() - 1) : out;
    }

    static String opensslCase(Path dir, int i, String subj) throws Exception {
        String key = "k" + i + ".pem", cert = "c" + i + ".pem";
        run(dir, "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", key, "-out", cert, "-days", "1", "-utf8", "-subj", subj);
        String oneline = run(dir, "openssl", "x509", "-in", cert, "-noout", "-subject");
        String compat = run(dir, "openssl", "x509", "-in", cert, "-noout", "-subject", "-nameopt", "compat");
        String rfc2253 = run(dir, "openssl", "x509", "-in", cert, "-noout", "-subject", "-nameopt", "RFC2253");
        X509Certificate c;
        try (InputStream in = Files.newInputStream(dir.resolve(cert))) {
            c = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        return "    {\"kind\": \"openssl\", \"subj\": " + json(subj)
            + ", \"openssl_subject\": " + json(oneline)
            + ", \"openssl_compat\": " + json(compat)
            + ", \"openssl_rfc2253\": " + json(rfc2253)
            + ", \"certificate_rfc2253\": " + json(c.getSubjectX500Principal().getName()) + "}";
    }

    public static void main(String[] args) throws Exception {
        List<String> cases = new ArrayList<>();
        if (args.length == 2 && args[0].equals("--typed-from")) {
            // Extra inputs, one base64 (UTF-8) line each, for a differential
            // run (X500_VECTORS_EXTRA in tests/engine/x500.rs); typed cases only.
            for (String line : Files.readAllLines(Path.of(args[1]))) {
                if (!line.isBlank()) cases.add(typedCase(new String(Base64.getDecoder().decode(line.strip()), StandardCharsets.UTF_8)));
            }
            System.out.print("{\n  \"java_version\": " + json(System.getProperty("java.runtime.version"))
                + ",\n  \"cases\": [\n" + String.join(",\n", cases) + "\n  ]\n}\n");
            return;
        }
        for (String s : TYPED) cases.add(typedCase(s));
        Path dir = Files.createTempDirectory("x500");
        try {
            for (int i = 0; i < OPENSSL.length; i++) cases.add(opensslCase(dir, i, OPENSSL[i]));
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) Files.delete(f);
            }
            Files.delete(dir);
        }
        String openssl = run(Path.of("."), "openssl", "version");
        StringBuilder o = new StringBuilder("{\n")
            .append("  \"generator\": \"crates/quota-engine/tests/x500/GenX500.java (scripts/gen-x500-vectors.sh)\",\n")
            .append("  \"java_version\": ").append(json(System.getProperty("java.runtime.version"))).append(",\n")
            .append("  \"java_vendor\": ").append(json(System.getProperty("java.vendor"))).append(",\n")
            .append("  \"openssl_version\": ").append(json(openssl)).append(",\n")
            .append("  \"cases\": [\n")
            .append(String.join(",\n", cases))
            .append("\n  ]\n}\n");
        System.out.print(o);
    }
}
