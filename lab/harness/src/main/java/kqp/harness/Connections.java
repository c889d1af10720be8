package kqp.harness;

import org.apache.kafka.common.security.ssl.SslPrincipalMapper;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

import javax.security.auth.x500.X500Principal;

/**
 * A scenario connection to the cluster's client properties: PLAINTEXT to the
 * PLAINTEXT listener ({@code plaintext.properties}); SASL_PLAINTEXT with PLAIN
 * or SCRAM-SHA-512 to {@code sasl-plain-USER.properties} /
 * {@code sasl-scram-USER.properties}; SSL with an identity DN to the
 * {@code ssl-NAME.properties} whose keystore certificate has that subject.
 * Anything else is refused by name.
 */
final class Connections {
    record Resolved(Properties props, String principal, String source) {}

    private final Env env;
    private final SslPrincipalMapper mapper;
    private final String rules;

    /** {@code sslMappingRules}: the brokers' ssl.principal.mapping.rules (null = DEFAULT). */
    Connections(Env env, String sslMappingRules) {
        this.env = env;
        this.rules = sslMappingRules == null || sslMappingRules.isBlank() ? "DEFAULT" : sslMappingRules;
        this.mapper = SslPrincipalMapper.fromRules(rules);
    }

    Resolved resolve(ScenarioPlan.Connection c, String path) throws Exception {
        switch (c.listener()) {
            case "PLAINTEXT": {
                Properties p = env.clientProperties("PLAINTEXT_CONFIG", "plaintext.properties", "PLAINTEXT_BOOTSTRAP");
                return new Resolved(p, "ANONYMOUS", "PLAINTEXT_BOOTSTRAP");
            }
            case "SASL_PLAINTEXT": {
                String user = c.identity();
                if (user == null || user.isEmpty()) {
                    throw new ScenarioPlan.Refused(path + ".identity", "a SASL connection needs its user");
                }
                String file;
                String bootstrap;
                switch (c.mechanism()) {
                    case "PLAIN" -> {
                        file = "sasl-plain-" + user + ".properties";
                        bootstrap = "SASL_PLAIN_BOOTSTRAP";
                    }
                    case "SCRAM-SHA-512" -> {
                        file = "sasl-scram-" + user + ".properties";
                        bootstrap = "SASL_SCRAM_BOOTSTRAP";
                    }
                    default -> throw new ScenarioPlan.Refused(path + ".mechanism", "\"" + c.mechanism()
                        + "\": the cluster offers PLAIN and SCRAM-SHA-512 only");
                }
                Path f = env.clientConfigDir().resolve(file);
                if (!Files.isRegularFile(f)) {
                    throw new ScenarioPlan.Refused(path + ".identity", "no client config " + f + " for user " + user
                        + " (" + c.mechanism() + ")");
                }
                Properties p = Env.load(f);
                if (!p.containsKey("bootstrap.servers")) p.setProperty("bootstrap.servers", env.require(bootstrap));
                return new Resolved(p, user, f.getFileName().toString());
            }
            case "SSL": {
                if (c.sslClientAuth() != null && !"required".equals(c.sslClientAuth())) {
                    throw new ScenarioPlan.Refused(path + ".ssl.client.auth", "\"" + c.sslClientAuth()
                        + "\": the cluster's SSL listener is fixed; only client certificates (required) are mapped");
                }
                if (c.identity() == null) {
                    throw new ScenarioPlan.Refused(path + ".identity", "an SSL connection without a certificate is"
                        + " not mapped (the cluster's SSL listener requires client certificates)");
                }
                X500Principal want;
                try {
                    want = new X500Principal(c.identity());
                } catch (IllegalArgumentException e) {
                    throw new ScenarioPlan.Refused(path + ".identity", "not a DN: " + c.identity());
                }
                List<String> seen = new ArrayList<>();
                List<Path> files = new ArrayList<>();
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(env.clientConfigDir(), "ssl-*.properties")) {
                    ds.forEach(files::add);
                }
                Collections.sort(files);
                for (Path f : files) {
                    Properties p = Env.load(f);
                    X509Certificate cert = keystoreCert(p);
                    if (cert == null) continue;
                    X500Principal subject = cert.getSubjectX500Principal();
                    seen.add(subject.getName());
                    if (subject.equals(want)) {
                        if (!p.containsKey("bootstrap.servers")) {
                            p.setProperty("bootstrap.servers", env.require("SSL_BOOTSTRAP"));
                        }
                        // The principal as the brokers derive it: the RFC 2253 DN through their mapping rules.
                        String principal;
                        try {
                            principal = mapper.getName(subject.getName());
                        } catch (java.io.IOException e) {
                            throw new ScenarioPlan.Refused(path + ".identity", "the brokers' ssl.principal.mapping"
                                + ".rules (" + rules + ") match no rule for " + subject.getName()
                                + ": the broker closes the connection");
                        }
                        return new Resolved(p, principal, f.getFileName().toString());
                    }
                }
                throw new ScenarioPlan.Refused(path + ".identity", "no ssl-*.properties in "
                    + env.clientConfigDir() + " has a certificate for " + c.identity() + " (found " + seen + ")");
            }
            default:
                throw new ScenarioPlan.Refused(path + ".listener", "\"" + c.listener()
                    + "\": the cluster has PLAINTEXT, SASL_PLAINTEXT and SSL listeners");
        }
    }

    /** The first certificate of the keystore the properties name (JKS, PKCS12 or Kafka's PEM), or null. */
    private static X509Certificate keystoreCert(Properties p) {
        String loc = p.getProperty("ssl.keystore.location");
        String type = p.getProperty("ssl.keystore.type", "JKS");
        if ("PEM".equalsIgnoreCase(type)) {
            try {
                String pem = p.getProperty("ssl.keystore.certificate.chain");
                if (pem == null && loc != null) pem = Files.readString(Path.of(loc));
                if (pem == null) return null;
                int b = pem.indexOf("-----BEGIN CERTIFICATE-----");
                int e = pem.indexOf("-----END CERTIFICATE-----", b);
                if (b < 0 || e < 0) return null;
                String block = pem.substring(b, e + "-----END CERTIFICATE-----".length());
                return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new java.io.ByteArrayInputStream(block.getBytes(StandardCharsets.US_ASCII)));
            } catch (Exception ex) {
                return null;
            }
        }
        if (loc == null) return null;
        String pass = p.getProperty("ssl.keystore.password", "");
        try (InputStream in = Files.newInputStream(Path.of(loc))) {
            KeyStore ks = KeyStore.getInstance(type);
            ks.load(in, pass.toCharArray());
            for (String alias : Collections.list(ks.aliases())) {
                if (!ks.isKeyEntry(alias)) continue;
                Certificate cert = ks.getCertificate(alias);
                if (cert instanceof X509Certificate x) return x;
            }
        } catch (Exception e) {
            return null;
        }
        return null;
    }
}
