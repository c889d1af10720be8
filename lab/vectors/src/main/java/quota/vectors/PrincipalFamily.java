package quota.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.common.config.internals.BrokerSecurityConfigs;
import org.apache.kafka.common.security.kerberos.KerberosName;
import org.apache.kafka.common.security.kerberos.KerberosShortNamer;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;
import org.apache.kafka.common.utils.Sanitizer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * principal.json: SslPrincipalMapper (ssl.principal.mapping.rules), KerberosName + KerberosShortNamer
 * (sasl.kerberos.principal.to.local.rules) and Sanitizer.
 *
 * <p>A kerberos case's {@code config_string} is parsed by the broker's own definition of
 * sasl.kerberos.principal.to.local.rules (BrokerSecurityConfigs.CONFIG_DEF: type LIST, validator
 * ValidList.anyNonDuplicateValues(true, false)); the parsed list is the case's {@code rules}.
 */
final class PrincipalFamily implements Family {
    @Override
    public String name() {
        return "principal";
    }

    @Override
    public List<String> artifacts() {
        return List.of("kafka-clients");
    }

    @Override
    public List<String> kafkaClasses() {
        return List.of(
            "org.apache.kafka.common.security.ssl.SslPrincipalMapper",
            "org.apache.kafka.common.security.kerberos.KerberosName",
            "org.apache.kafka.common.security.kerberos.KerberosShortNamer",
            "org.apache.kafka.common.security.kerberos.KerberosRule",
            "org.apache.kafka.common.config.ConfigDef + org.apache.kafka.common.config.internals.BrokerSecurityConfigs.CONFIG_DEF "
                + "(parsing of config_string as sasl.kerberos.principal.to.local.rules)",
            "org.apache.kafka.common.utils.Sanitizer");
    }

    @Override
    public void provenanceNotes(ObjectNode p) {
        p.put("note", "rules use java.util.regex semantics; error messages of PatternSyntaxException and URLDecoder are JDK text");
    }

    @Override
    public ObjectNode replay(JsonNode in) {
        String kind = Family.need(in, "kind").asText();
        switch (kind) {
            case "ssl_principal_mapper": return ssl(in);
            case "kerberos_short_namer": return kerberos(in);
            case "sanitizer": return sanitizer(in);
            default: throw new IllegalArgumentException("unknown principal kind " + kind);
        }
    }

    private static ObjectNode head(JsonNode in) {
        ObjectNode c = Json.obj();
        c.set("id", in.get("id"));
        c.set("kind", in.get("kind"));
        if (in.has("description")) c.set("description", in.get("description"));
        return c;
    }

    private static void error(ObjectNode out, Throwable e) {
        out.put("ok", false);
        out.put("error_class", e.getClass().getName());
        out.put("message", e.getMessage());
    }

    private static ObjectNode ssl(JsonNode in) {
        ObjectNode c = head(in);
        String rules = Json.strOrNull(Family.need(in, "rules"));
        c.set("rules", in.get("rules"));
        ObjectNode parse = c.putObject("parse");
        SslPrincipalMapper mapper = null;
        try {
            mapper = SslPrincipalMapper.fromRules(rules);
            parse.put("ok", true);
            parse.put("to_string", mapper.toString());
        } catch (Exception e) {
            error(parse, e);
        }
        ArrayNode mappings = c.putArray("mappings");
        for (JsonNode m : Family.need(in, "mappings")) {
            if (mapper == null) throw new IllegalArgumentException(in.get("id") + ": mappings for rules that do not parse");
            ObjectNode out = mappings.addObject();
            String dn = Family.need(m, "dn").asText();
            out.put("dn", dn);
            try {
                String name = mapper.getName(dn);
                out.put("ok", true);
                out.put("name", name);
            } catch (Exception e) {
                error(out, e);
            }
        }
        return c;
    }

    @SuppressWarnings("unchecked")
    private static List<String> brokerListParse(String configString) {
        String key = BrokerSecurityConfigs.SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES_CONFIG;
        Map<String, Object> parsed = BrokerSecurityConfigs.CONFIG_DEF.parse(Map.of(key, configString));
        return (List<String>) parsed.get(key);
    }

    private static ObjectNode kerberos(JsonNode in) {
        ObjectNode c = head(in);
        String realm = Family.need(in, "default_realm").asText();
        c.put("default_realm", realm);
        List<String> rules;
        if (in.has("config_string")) {
            String configString = in.get("config_string").asText();
            c.put("config_string", configString);
            rules = brokerListParse(configString);
            ArrayNode r = c.putArray("rules");
            rules.forEach(r::add);
        } else {
            JsonNode r = Family.need(in, "rules");
            c.set("rules", r);
            if (r.isNull()) {
                rules = null;
            } else {
                rules = new ArrayList<>();
                for (JsonNode x : r) rules.add(x.asText());
            }
        }
        ObjectNode parse = c.putObject("parse");
        KerberosShortNamer namer = null;
        try {
            namer = KerberosShortNamer.fromUnparsedRules(realm, rules);
            parse.put("ok", true);
            parse.put("to_string", namer.toString());
        } catch (Exception e) {
            error(parse, e);
        }
        ArrayNode mappings = c.putArray("mappings");
        for (JsonNode m : Family.need(in, "mappings")) {
            if (namer == null) throw new IllegalArgumentException(in.get("id") + ": mappings for rules that do not parse");
            ObjectNode out = mappings.addObject();
            String principal = Family.need(m, "principal").asText();
            out.put("principal", principal);
            KerberosName name;
            try {
                name = KerberosName.parse(principal);
            } catch (Exception e) {
                error(out, e);
                out.put("stage", "KerberosName.parse");
                continue;
            }
            ObjectNode parsed = out.putObject("parsed");
            parsed.put("service", name.serviceName());
            parsed.put("host", name.hostName());
            parsed.put("realm", name.realm());
            try {
                String shortName = namer.shortName(name);
                out.put("ok", true);
                out.put("short_name", shortName);
            } catch (Exception e) {
                error(out, e);
                out.put("stage", "shortName");
            }
        }
        return c;
    }

    private static ObjectNode sanitizer(JsonNode in) {
        ObjectNode c = head(in);
        String input = Family.need(in, "input").asText();
        c.put("input", input);
        String sanitized = Sanitizer.sanitize(input);
        c.put("sanitized", sanitized);
        c.put("desanitized_roundtrip", Sanitizer.desanitize(sanitized));
        c.put("jmx_sanitized", Sanitizer.jmxSanitize(input));
        ObjectNode d = c.putObject("desanitize_input");
        try {
            String r = Sanitizer.desanitize(input);
            d.put("ok", true);
            d.put("result", r);
        } catch (Exception e) {
            error(d, e);
        }
        return c;
    }
}
