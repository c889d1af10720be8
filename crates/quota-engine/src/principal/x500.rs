//! The certificate subject as Java reads it: the distinguished name Kafka's
//! principal builder hands to `ssl.principal.mapping.rules`.
//!
//! Kafka: `DefaultKafkaPrincipalBuilder.build`
//! (`clients/src/main/java/org/apache/kafka/common/security/authenticator/DefaultKafkaPrincipalBuilder.java`)
//! calls `sslPrincipalMapper.getName(((X500Principal) peerPrincipal).getName())`,
//! and `X500Principal.getName()` is `getName(X500Principal.RFC2253)`: RFC
//! 2253, no spaces around separators, the keywords RFC 2253 knows (`CN`, `C`,
//! `L`, `ST`, `O`, `OU`, `STREET`, `DC`, `UID`) upper-case, every other
//! attribute as its dotted OID and `#` + the hex of its DER value
//! (`1.2.840.113549.1.9.1=#16...` for an emailAddress).
//!
//! What a user types is read as JDK 17's `new X500Principal(String)` reads
//! it (`javax/security/auth/x500/X500Principal.java`; the parser is
//! `sun/security/x509/X500Name.java` `parseDN`, `RDN.java`, `AVA.java` with
//! `AVAKeyword`, values built by `sun/security/util/DerValue.java`, OIDs by
//! `ObjectIdentifier.java`): RFC 1779 and RFC 2253 forms, `,` and `;`
//! separators, `+` multi-valued RDNs, quoted values, `\` escapes and `\XX`
//! UTF-8 hex pairs, `#hex` DER values, the keywords of `AVAKeyword` in any
//! case, `OID.1.2.3=` and `1.2.3=`. A name Java refuses is refused with
//! Java's messages: `IllegalArgumentException: improperly specified input
//! name: <name>` caused by the parser's `IOException` (`Invalid keyword
//! "FOO"`, `empty AVA in RDN ""`, ...).
//!
//! openssl's printed subjects are read too ([`read_certificate_subject`]):
//! `subject=C = US, O = Org, CN = app` (openssl 1.1+ and 3: `-nameopt
//! oneline`), `subject= /C=US/O=Org/CN=app` (openssl 1.0, `-nameopt compat`)
//! and `subject=CN=app,O=Org,C=US` (`-nameopt RFC2253`). The first two list
//! the RDNs in the certificate's order, the reverse of Java's, so they are
//! reversed; values take the ASN.1 string types openssl's default
//! `string_mask = utf8only` gives them (which only shows in the `#hex` of
//! attributes RFC 2253 has no keyword for).
//!
//! Checked against the real JDK: `tests/fixtures/x500-vectors.json`, made
//! by `tests/x500/GenX500.java` (`scripts/gen-x500-vectors.sh`).

use std::fmt::Write as _;

use super::error::{ErrorClass, PrincipalError};
use crate::jdk::case::java_to_upper;

/// ASN.1 universal tags of the string types (`DerValue.tag_*`).
const TAG_UTF8: u8 = 0x0c;
const TAG_PRINTABLE: u8 = 0x13;
const TAG_T61: u8 = 0x14;
const TAG_IA5: u8 = 0x16;
const TAG_GENERAL: u8 = 0x1b;
const TAG_BMP: u8 = 0x1e;

/// `AVAKeyword`'s table (JDK 17 `sun/security/x509/AVA.java`): keyword, OID,
/// whether `getName(RFC2253)` prints the keyword (else the OID).
const KEYWORDS: [(&str, &str, bool); 21] = [
    ("CN", "2.5.4.3", true),
    ("C", "2.5.4.6", true),
    ("L", "2.5.4.7", true),
    ("S", "2.5.4.8", false),
    ("ST", "2.5.4.8", true),
    ("O", "2.5.4.10", true),
    ("OU", "2.5.4.11", true),
    ("T", "2.5.4.12", false),
    ("IP", "1.3.6.1.4.1.42.2.11.2.1", false),
    ("STREET", "2.5.4.9", true),
    ("DC", "0.9.2342.19200300.100.1.25", true),
    ("DNQUALIFIER", "2.5.4.46", false),
    ("DNQ", "2.5.4.46", false),
    ("SURNAME", "2.5.4.4", false),
    ("GIVENNAME", "2.5.4.42", false),
    ("INITIALS", "2.5.4.43", false),
    ("GENERATION", "2.5.4.44", false),
    ("EMAIL", "1.2.840.113549.1.9.1", false),
    ("EMAILADDRESS", "1.2.840.113549.1.9.1", false),
    ("UID", "0.9.2342.19200300.100.1.1", true),
    ("SERIALNUMBER", "2.5.4.5", false),
];

const EMAIL_OID: &str = "1.2.840.113549.1.9.1";
const DC_OID: &str = "0.9.2342.19200300.100.1.25";

/// openssl's short names Java's `AVAKeyword` does not know, as an extra
/// keyword map (`X500Principal(String, Map)`), for openssl's printed forms
/// (openssl `crypto/objects/objects.txt`).
const OPENSSL_NAMES: [(&str, &str); 14] = [
    ("GN", "2.5.4.42"),
    ("SN", "2.5.4.4"),
    ("TITLE", "2.5.4.12"),
    ("POSTALCODE", "2.5.4.17"),
    ("BUSINESSCATEGORY", "2.5.4.15"),
    ("DESCRIPTION", "2.5.4.13"),
    ("NAME", "2.5.4.41"),
    ("PSEUDONYM", "2.5.4.65"),
    ("GENERATIONQUALIFIER", "2.5.4.44"),
    ("X500UNIQUEIDENTIFIER", "2.5.4.45"),
    ("ORGANIZATIONIDENTIFIER", "2.5.4.97"),
    ("JURISDICTIONC", "1.3.6.1.4.1.311.60.2.1.3"),
    ("JURISDICTIONST", "1.3.6.1.4.1.311.60.2.1.2"),
    ("JURISDICTIONL", "1.3.6.1.4.1.311.60.2.1.1"),
];

/// An attribute type: the OID as written (`ObjectIdentifier.toString()`
/// keeps the string it was made from) and its arcs for comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Oid {
    text: String,
    /// The arcs as decimal digits without leading zeros (equal arcs = equal
    /// DER encodings, which is how `ObjectIdentifier.equals` compares).
    arcs: Vec<String>,
}

impl Oid {
    fn known(text: &str) -> Oid {
        Oid {
            text: text.to_owned(),
            arcs: text.split('.').map(str::to_owned).collect(),
        }
    }

    fn is(&self, text: &str) -> bool {
        self.arcs.iter().map(String::as_str).eq(text.split('.'))
    }

    /// The keyword `getName(RFC2253)` prints, or the OID itself.
    fn rfc2253_keyword(&self) -> &str {
        KEYWORDS
            .iter()
            .rev()
            .find(|(_, oid, compliant)| *compliant && self.is(oid))
            .map_or(self.text.as_str(), |(k, _, _)| k)
    }
}

/// One attribute value assertion: type and DER value.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Ava {
    oid: Oid,
    tag: u8,
    content: Vec<u8>,
}

/// A distinguished name as `X500Name` holds it, RDNs in the order written
/// (most specific first, as RFC 2253 prints them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct X500Name {
    rdns: Vec<Vec<Ava>>,
}

/// The parser's failure: `java.io.IOException` (or `EOFException`) and its message.
#[derive(Debug)]
enum ParseError {
    Io(String),
    Eof(String),
    /// Something Java reads that this engine does not reproduce.
    Unsupported(String),
}

type Parsed<T> = Result<T, ParseError>;

fn io<T>(m: impl Into<String>) -> Parsed<T> {
    Err(ParseError::Io(m.into()))
}

impl X500Name {
    /// `new X500Principal(name)` (JDK 17): the name read as Java reads a
    /// typed DN.
    ///
    /// # Errors
    /// Java's refusal: [`ErrorClass::IllegalArgument`] with
    /// `improperly specified input name: <name>`, caused by the parser's
    /// [`ErrorClass::Io`] / [`ErrorClass::Eof`] with its message
    /// (`Invalid keyword "FOO"`, `Incorrect AVA format`, ...); or
    /// [`ErrorClass::UnsupportedDn`] for the few inputs this engine does not
    /// read as Java does (named in the message).
    pub fn parse(name: &str) -> Result<X500Name, PrincipalError> {
        Self::parse_with(name, &[])
    }

    fn parse_with(name: &str, extra: &[(&str, &str)]) -> Result<X500Name, PrincipalError> {
        parse_dn(name, extra).map_err(|e| {
            let cause = match e {
                ParseError::Io(m) => PrincipalError::new(ErrorClass::Io, m),
                ParseError::Eof(m) => PrincipalError::new(ErrorClass::Eof, m),
                ParseError::Unsupported(m) => return PrincipalError::new(ErrorClass::UnsupportedDn, m),
            };
            PrincipalError::new(
                ErrorClass::IllegalArgument,
                format!("improperly specified input name: {name}"),
            )
            .caused_by(cause)
        })
    }

    /// `X500Principal.getName()` = `getName(X500Principal.RFC2253)`
    /// (`X500Name.getRFC2253Name`, `RDN.toRFC2253String`,
    /// `AVA.toRFC2253String`): what Kafka runs `ssl.principal.mapping.rules` on.
    pub fn rfc2253(&self) -> String {
        let mut out = String::new();
        for (i, rdn) in self.rdns.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            for (j, ava) in rdn.iter().enumerate() {
                if j > 0 {
                    out.push('+');
                }
                ava_rfc2253(ava, &mut out);
            }
        }
        out
    }

    /// The number of RDNs.
    pub fn len(&self) -> usize {
        self.rdns.len()
    }

    /// Whether the name has no RDN (Java reads `""` as the empty name).
    pub fn is_empty(&self) -> bool {
        self.rdns.is_empty()
    }

    /// Whether some attribute prints as `OID=#hex` (RFC 2253 has no keyword
    /// for it), other than an emailAddress or domainComponent, whose type
    /// (IA5String) is fixed.
    fn has_hex_of_open_type(&self) -> bool {
        self.rdns.iter().flatten().any(|a| {
            a.oid.rfc2253_keyword() == a.oid.text && !a.oid.is(EMAIL_OID) && !a.oid.is(DC_OID)
        })
    }
}

/// `AVA.toRFC2253String` with an empty OID map.
fn ava_rfc2253(ava: &Ava, out: &mut String) {
    let keyword = ava.oid.rfc2253_keyword();
    out.push_str(keyword);
    out.push('=');
    let is_der_string = matches!(ava.tag, TAG_PRINTABLE | TAG_T61 | TAG_IA5 | TAG_GENERAL | TAG_BMP | TAG_UTF8);
    if keyword.starts_with(|c: char| c.is_ascii_digit()) || !is_der_string {
        out.push('#');
        for b in der_bytes(ava.tag, &ava.content) {
            let _ = write!(out, "{b:02x}");
        }
        return;
    }
    let value = String::from_utf8_lossy(&ava.content);
    const ESCAPEES: &str = ",=+<>#;\"\\";
    let mut chars: Vec<char> = Vec::with_capacity(value.len());
    for c in value.chars() {
        if ESCAPEES.contains(c) {
            chars.push('\\');
            chars.push(c);
        } else if c == '\0' {
            chars.extend(['\\', '0', '0']);
        } else {
            chars.push(c);
        }
    }
    let ws = |c: &char| *c == ' ' || *c == '\r';
    let lead = chars.iter().position(|c| !ws(c)).unwrap_or(chars.len());
    let trail = chars.iter().rposition(|c| !ws(c));
    for (i, c) in chars.iter().enumerate() {
        if i < lead || trail.is_none_or(|t| i > t) {
            out.push('\\');
        }
        out.push(*c);
    }
}

/// `DerValue.toByteArray()`: tag, DER length, content.
fn der_bytes(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = content.len();
    if n < 128 {
        out.push(n as u8);
    } else {
        let bytes = (n as u32).to_be_bytes();
        let skip = bytes.iter().take_while(|b| **b == 0).count();
        out.push(0x80 | (4 - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
    out.extend_from_slice(content);
    out
}

/// `DerValue.isPrintableStringChar`.
fn is_printable_string_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || " '()+,-./:=?".contains(c)
}

/// Java's `String.trim()`: strips characters up to U+0020 at both ends.
fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// `X500Name.countQuotes`: the `"` in `[from, to)` not preceded by `\`.
fn count_quotes(s: &[char], from: usize, to: usize) -> usize {
    (from..to)
        .filter(|&i| s[i] == '"' && (i == from || s[i - 1] != '\\'))
        .count()
}

/// `X500Name.escaped`, including its way of counting every backslash
/// between the last separator and this one (case 3).
fn escaped(rdn_end: usize, search_offset: usize, s: &[char]) -> bool {
    // Java's case 1 (`\\,` at the start) and case 2 (`foo\\,`).
    if (rdn_end == 1 && s[0] == '\\') || (rdn_end > 1 && s[rdn_end - 1] == '\\' && s[rdn_end - 2] != '\\') {
        true
    } else if rdn_end > 1 && s[rdn_end - 1] == '\\' && s[rdn_end - 2] == '\\' {
        let count = (search_offset..rdn_end).filter(|&i| s[i] == '\\').count();
        count % 2 != 0
    } else {
        false
    }
}

/// `X500Name.parseDN`: RDNs split at `,` and `;` (not escaped, not inside
/// quotes), each read by [`parse_rdn`].
fn parse_dn(input: &str, extra: &[(&str, &str)]) -> Parsed<X500Name> {
    if input.is_empty() {
        return Ok(X500Name { rdns: Vec::new() });
    }
    let s: Vec<char> = input.chars().collect();
    let next = |from: usize| (from..s.len()).find(|&i| s[i] == ',' || s[i] == ';');
    let mut rdns = Vec::new();
    let mut dn_offset = 0;
    let mut search_offset = 0;
    let mut quote_count = 0;
    while let Some(rdn_end) = next(search_offset) {
        quote_count += count_quotes(&s, search_offset, rdn_end);
        if quote_count != 1 && !escaped(rdn_end, search_offset, &s) {
            rdns.push(parse_rdn(&s[dn_offset..rdn_end], extra)?);
            dn_offset = rdn_end + 1;
            quote_count = 0;
        }
        search_offset = rdn_end + 1;
    }
    rdns.push(parse_rdn(&s[dn_offset..], extra)?);
    Ok(X500Name { rdns })
}

/// `RDN(String, Map)`: AVAs split at `+` (not preceded by `\`, not inside quotes).
fn parse_rdn(name: &[char], extra: &[(&str, &str)]) -> Parsed<Vec<Ava>> {
    let empty = || {
        let n: String = name.iter().collect();
        ParseError::Io(format!("empty AVA in RDN \"{n}\""))
    };
    let mut avas = Vec::new();
    let mut quote_count = 0;
    let mut search_offset = 0;
    let mut ava_offset = 0;
    let next = |from: usize| (from..name.len()).find(|&i| name[i] == '+');
    while let Some(plus) = next(search_offset) {
        quote_count += count_quotes(name, search_offset, plus);
        if plus > 0 && name[plus - 1] != '\\' && quote_count != 1 {
            if ava_offset == plus {
                return Err(empty());
            }
            avas.push(parse_ava(&name[ava_offset..plus], extra)?);
            ava_offset = plus + 1;
            quote_count = 0;
        }
        search_offset = plus + 1;
    }
    if ava_offset == name.len() {
        return Err(empty());
    }
    avas.push(parse_ava(&name[ava_offset..], extra)?);
    Ok(avas)
}

/// A `StringReader` over one AVA's characters.
struct Reader<'a> {
    s: &'a [char],
    pos: usize,
}

impl Reader<'_> {
    fn read(&mut self) -> Option<char> {
        let c = self.s.get(self.pos).copied();
        self.pos += 1;
        c
    }

    /// `AVA.readChar`: the next character, or an IOException with `msg` at the end.
    fn read_char(&mut self, msg: &str) -> Parsed<char> {
        self.read().ok_or_else(|| ParseError::Io(msg.to_owned()))
    }
}

/// `AVA.isTerminator` for the DEFAULT format.
fn is_terminator(c: Option<char>) -> bool {
    matches!(c, None | Some('+' | ',' | ';'))
}

/// `AVA(Reader, DEFAULT, keywordMap)`.
fn parse_ava(s: &[char], extra: &[(&str, &str)]) -> Parsed<Ava> {
    let mut r = Reader { s, pos: 0 };
    let mut keyword = String::new();
    loop {
        let c = r.read_char("Incorrect AVA format")?;
        if c == '=' {
            break;
        }
        keyword.push(c);
    }
    let oid = keyword_oid(&keyword, extra)?;
    let mut c = r.read();
    while matches!(c, Some(' ' | '\n')) {
        c = r.read();
    }
    let Some(first) = c else {
        return Ok(Ava { oid, tag: TAG_PRINTABLE, content: Vec::new() });
    };
    if first == '#' {
        let (tag, content) = parse_hex_string(&mut r)?;
        return Ok(Ava { oid, tag, content });
    }
    let (text, printable) = if first == '"' {
        parse_quoted_string(&mut r)?
    } else {
        parse_string(&mut r, first)?
    };
    Ok(string_value(oid, &text, printable))
}

/// The DER string `AVA` builds: IA5String for an emailAddress or a
/// domainComponent, PrintableString when every character is one, else UTF8String.
fn string_value(oid: Oid, text: &str, printable: bool) -> Ava {
    let (tag, content) = if oid.is(EMAIL_OID) || oid.is(DC_OID) {
        (TAG_IA5, ascii_bytes(text))
    } else if printable && text.chars().all(is_printable_string_char) {
        (TAG_PRINTABLE, ascii_bytes(text))
    } else {
        (TAG_UTF8, text.as_bytes().to_vec())
    };
    Ava { oid, tag, content }
}

/// `String.getBytes(US_ASCII)`: `?` for every character outside ASCII.
fn ascii_bytes(s: &str) -> Vec<u8> {
    s.chars().map(|c| if c.is_ascii() { c as u8 } else { b'?' }).collect()
}

/// `AVAKeyword.getOID(keyword, DEFAULT, keywordMap)`.
fn keyword_oid(keyword: &str, extra: &[(&str, &str)]) -> Parsed<Oid> {
    let upper = java_to_upper(keyword);
    let keyword = java_trim(&upper);
    if let Some((_, oid)) = extra.iter().find(|(k, _)| *k == keyword) {
        return Ok(Oid::known(oid));
    }
    if let Some((_, oid, _)) = KEYWORDS.iter().find(|(k, _, _)| *k == keyword) {
        return Ok(Oid::known(oid));
    }
    let keyword = keyword.strip_prefix("OID.").unwrap_or(keyword);
    if !keyword.starts_with(|c: char| c.is_ascii_digit()) {
        return io(format!("Invalid keyword \"{keyword}\""));
    }
    parse_oid(keyword)
}

/// `new ObjectIdentifier(String)` (JDK 17): arcs split at `.`, each read by
/// `Integer.parseInt` (up to 9 characters) or `new BigInteger`, then
/// checked (first arc 0-2, second at most 39 under 0 and 1, none negative,
/// at least two).
fn parse_oid(text: &str) -> Parsed<Oid> {
    // Java's Integer.parseInt and BigInteger take any Unicode decimal digit
    // (Character.digit), and an OID's encoded length is capped at 4096
    // bytes: neither is reproduced.
    if text.len() > 1000 || text.chars().any(|c| !c.is_ascii() && (c.is_numeric() || u32::from(c) > 0xffff)) {
        return Err(ParseError::Unsupported(format!(
            "The OID '{text}' is longer than 1000 characters or has a non-ASCII digit or a character beyond \
             U+FFFF; the engine does not reproduce how Java reads such an OID."
        )));
    }
    let invalid = |m: String| ParseError::Io(format!("ObjectIdentifier() -- Invalid format: java.lang.NumberFormatException: {m}"));
    let mut arcs = Vec::new();
    let mut first = String::new();
    for (count, comp) in text.split('.').enumerate() {
        let (negative, digits) = if comp.chars().count() > 9 {
            big_integer(comp).map_err(invalid)?
        } else {
            java_parse_int(comp).map_err(invalid)?
        };
        let check = |m: &str| ParseError::Io(format!("ObjectIdentifier() -- {m} "));
        match count {
            0 => {
                if negative || !matches!(digits.as_str(), "0" | "1" | "2") {
                    return Err(check("First oid component is invalid"));
                }
                first = digits.clone();
            }
            1 => {
                let over_39 = digits.len() > 2 || digits.parse::<u32>().is_ok_and(|v| v > 39);
                if negative || (first != "2" && over_39) {
                    return Err(check("Second oid component is invalid"));
                }
            }
            n => {
                if negative {
                    return Err(check(&format!("oid component #{} must be non-negative", n + 1)));
                }
            }
        }
        arcs.push(digits);
    }
    if arcs.len() < 2 {
        return io("ObjectIdentifier() -- Must be at least two oid components ");
    }
    Ok(Oid { text: text.to_owned(), arcs })
}

/// `Integer.parseInt(s)` for an OID arc: (negative, digits without leading
/// zeros), or the `NumberFormatException` message.
fn java_parse_int(s: &str) -> Result<(bool, String), String> {
    let bad = || format!("For input string: \"{s}\"");
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let trimmed = digits.trim_start_matches('0');
    let value = if trimmed.is_empty() { "0" } else { trimmed };
    Ok((negative && value != "0", value.to_owned()))
}

/// `new BigInteger(s)` for an arc of more than 9 characters: (negative,
/// digits without leading zeros), or the `NumberFormatException` message
/// (`Integer.parseInt` of the 9-character group holding a bad character).
fn big_integer(s: &str) -> Result<(bool, String), String> {
    let c: Vec<char> = s.chars().collect();
    let minus = c.iter().rposition(|&x| x == '-');
    let plus = c.iter().rposition(|&x| x == '+');
    let mut cursor = 0;
    let mut negative = false;
    if let Some(i) = minus {
        if i != 0 || plus.is_some() {
            return Err("Illegal embedded sign character".to_owned());
        }
        negative = true;
        cursor = 1;
    } else if let Some(i) = plus {
        if i != 0 {
            return Err("Illegal embedded sign character".to_owned());
        }
        cursor = 1;
    }
    if cursor == c.len() {
        return Err("Zero length BigInteger".to_owned());
    }
    while cursor < c.len() && c[cursor] == '0' {
        cursor += 1;
    }
    if cursor == c.len() {
        return Ok((false, "0".to_owned()));
    }
    let rest = &c[cursor..];
    let mut len = match rest.len() % 9 {
        0 => 9,
        n => n,
    };
    let mut start = 0;
    while start < rest.len() {
        let group: String = rest[start..start + len].iter().collect();
        if !group.bytes().all(|b| b.is_ascii_digit()) {
            return Err(match java_parse_int(&group) {
                Ok(_) => "Illegal digit".to_owned(),
                Err(m) => m,
            });
        }
        start += len;
        len = 9;
    }
    Ok((negative, rest.iter().collect()))
}

/// `AVA.parseHexString` and `new DerValue(byte[])`: the tag and content of
/// the DER value the hex digits encode.
fn parse_hex_string(r: &mut Reader<'_>) -> Parsed<(u8, Vec<u8>)> {
    let mut bytes = Vec::new();
    let mut digits = 0usize;
    let mut b = 0u8;
    loop {
        let c = r.read();
        if is_terminator(c) {
            break;
        }
        let Some(c) = c else { break };
        let Some(v) = c.to_digit(16).filter(|_| c.is_ascii()) else {
            return io(format!("AVA parse, invalid hex digit: {c}"));
        };
        if digits % 2 == 1 {
            b = b.wrapping_mul(16).wrapping_add(v as u8);
            bytes.push(b);
        } else {
            b = v as u8;
        }
        digits += 1;
    }
    if digits == 0 {
        return io("AVA parse, zero hex digits");
    }
    if digits % 2 == 1 {
        return io("AVA parse, odd number of hex digits");
    }
    der_value(&bytes)
}

/// `new DerValue(byte[])` (BER allowed, nothing after the value).
fn der_value(buf: &[u8]) -> Parsed<(u8, Vec<u8>)> {
    let len = buf.len() as i64;
    if len < 2 {
        return io("Too short");
    }
    let tag = buf[0];
    if tag & 0x1f == 0x1f {
        return io("Tag number over 30 at 0 is not supported");
    }
    let len_byte = buf[1];
    let mut pos = 2usize;
    let length: i64;
    if len_byte == 0x80 {
        if tag & 0x20 == 0 {
            return io("Indefinite length encoding not supported with non-constructed data");
        }
        return Err(ParseError::Unsupported(
            "A #hex value in BER indefinite-length form: the engine does not reproduce Java's conversion of it."
                .to_owned(),
        ));
    }
    if len_byte & 0x80 == 0 {
        length = i64::from(len_byte);
    } else {
        let mut n = len_byte & 0x7f;
        if n > 4 {
            return io("Invalid lenByte");
        }
        if len < 2 + i64::from(n) {
            return io("Not enough length bytes");
        }
        let mut l: i32 = i32::from(buf[pos]);
        pos += 1;
        n -= 1;
        while n > 0 {
            l = l.wrapping_shl(8).wrapping_add(i32::from(buf[pos]));
            pos += 1;
            n -= 1;
        }
        if l < 0 {
            return io("Invalid length bytes");
        }
        length = i64::from(l);
    }
    if len - length < pos as i64 {
        return Err(ParseError::Eof("not enough content".to_owned()));
    }
    if len - length > pos as i64 {
        return io("extra data at the end");
    }
    Ok((tag, buf[pos..].to_vec()))
}

/// `AVA.getEmbeddedHexPair`: after a `\`, two hex digits make a byte.
fn embedded_hex_pair(c1: char, r: &mut Reader<'_>) -> Parsed<Option<u8>> {
    let Some(hi) = hex_digit(c1) else { return Ok(None) };
    let c2 = r.read_char("unexpected EOF - escaped hex value must include two valid digits")?;
    match hex_digit(c2) {
        Some(lo) => Ok(Some((hi << 4) | lo)),
        None => io("escaped hex value must include two valid digits"),
    }
}

/// `HexFormat.isHexDigit` / `fromHexDigit`: ASCII hex digits only.
fn hex_digit(c: char) -> Option<u8> {
    if c.is_ascii() {
        c.to_digit(16).map(|v| v as u8)
    } else {
        None
    }
}

/// `new String(bytes, UTF_8)`.
fn utf8(bytes: &mut Vec<u8>) -> String {
    let s = String::from_utf8_lossy(bytes).into_owned();
    bytes.clear();
    s
}

/// `AVA.parseQuotedString`: the text and whether every character was a
/// PrintableString one (and no hex pair was used).
fn parse_quoted_string(r: &mut Reader<'_>) -> Parsed<(String, bool)> {
    const MSG: &str = "Quoted string did not end in quote";
    const SPECIALS_1779: &str = ",=\n+<>#;\\\"";
    let mut temp = String::new();
    let mut hex = Vec::new();
    let mut printable = true;
    let mut c = Some(r.read_char(MSG)?);
    while c != Some('"') {
        let mut ch = c;
        if ch == Some('\\') {
            let e = r.read_char(MSG)?;
            if let Some(b) = embedded_hex_pair(e, r)? {
                printable = false;
                hex.push(b);
                c = r.read();
                continue;
            }
            if !SPECIALS_1779.contains(e) {
                return io(format!("Invalid escaped character in AVA: {e}"));
            }
            ch = Some(e);
        }
        if !hex.is_empty() {
            temp.push_str(&utf8(&mut hex));
        }
        // An end of input after a hex pair: Java appends (char) -1 and then
        // fails reading on.
        let ch = ch.unwrap_or('\u{ffff}');
        printable &= is_printable_string_char(ch);
        temp.push(ch);
        c = Some(r.read_char(MSG)?);
    }
    if !hex.is_empty() {
        temp.push_str(&utf8(&mut hex));
    }
    let mut c = r.read();
    while matches!(c, Some('\n' | ' ')) {
        c = r.read();
    }
    if c.is_some() {
        return io("AVA had characters other than whitespace after terminating quote");
    }
    Ok((java_trim(&temp).to_owned(), printable))
}

/// `AVA.parseString` for the DEFAULT format: the text and whether every
/// character was a PrintableString one (and no hex pair was used).
fn parse_string(r: &mut Reader<'_>, first: char) -> Parsed<(String, bool)> {
    const SPECIALS_DEFAULT: &str = ",=\n+<>#;\\\" ";
    const ESCAPED_DEFAULT: &str = ",+<>;\"";
    let mut temp = String::new();
    let mut hex = Vec::new();
    let mut printable = true;
    let mut spaces = 0usize;
    let mut c = Some(first);
    while let Some(mut ch) = c {
        let mut escape = false;
        if ch == '\\' {
            escape = true;
            ch = r.read_char("Invalid trailing backslash")?;
            if let Some(b) = embedded_hex_pair(ch, r)? {
                printable = false;
                hex.push(b);
                c = r.read();
                if is_terminator(c) {
                    break;
                }
                continue;
            }
            if !SPECIALS_DEFAULT.contains(ch) {
                return io(format!("Invalid escaped character in AVA: '{ch}'"));
            }
        } else if ESCAPED_DEFAULT.contains(ch) {
            return io(format!("Character '{ch}' in AVA appears without escape"));
        }
        if !hex.is_empty() {
            temp.extend(std::iter::repeat_n(' ', spaces));
            spaces = 0;
            temp.push_str(&utf8(&mut hex));
        }
        printable &= is_printable_string_char(ch);
        if ch == ' ' && !escape {
            spaces += 1;
        } else {
            temp.extend(std::iter::repeat_n(' ', spaces));
            spaces = 0;
            temp.push(ch);
        }
        c = r.read();
        if is_terminator(c) {
            break;
        }
    }
    if !hex.is_empty() {
        temp.push_str(&utf8(&mut hex));
    }
    Ok((temp, printable))
}

/// Where a certificate subject came from, as [`read_certificate_subject`] recognised it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubjectForm {
    /// A DN as Java takes it (RFC 2253 or RFC 1779, as typed).
    Typed,
    /// openssl's default print (`subject=C = US, O = Org, CN = app`): RDNs
    /// in the certificate's order.
    OpensslOneline,
    /// openssl 1.0's print, `-nameopt compat` (`subject= /C=US/O=Org/CN=app`):
    /// RDNs in the certificate's order.
    OpensslSlashes,
    /// openssl's `-nameopt RFC2253` print (`subject=CN=app,O=Org,C=US`):
    /// already in Java's order.
    OpensslRfc2253,
}

/// A certificate subject as typed or pasted, and the DN Kafka sees for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateSubject {
    /// The text as given.
    pub typed: String,
    /// How the text was read.
    pub form: SubjectForm,
    /// The prefix left out (`subject=`, `Subject: `), if any.
    pub prefix: Option<String>,
    /// `X500Principal.getName()`: the RFC 2253 DN the mapping rules see.
    pub canonical: String,
    /// What a user should know about this reading (full sentences).
    pub notes: Vec<String>,
}

impl CertificateSubject {
    /// The derivation step that turns the typed text into the DN Kafka
    /// sees, or `None` when the text already is that DN.
    pub fn reading_step(&self) -> Option<String> {
        if self.form == SubjectForm::Typed && self.typed == self.canonical {
            return None;
        }
        let how = match (self.form, &self.prefix) {
            (SubjectForm::Typed, _) => String::new(),
            (SubjectForm::OpensslOneline | SubjectForm::OpensslSlashes, Some(p)) => format!(
                " (openssl's print: '{}' left out, the RDNs reversed from the certificate's order to Java's)",
                p.trim_end()
            ),
            (SubjectForm::OpensslOneline | SubjectForm::OpensslSlashes, None) => {
                " (openssl's print: the RDNs reversed from the certificate's order to Java's)".to_owned()
            }
            (SubjectForm::OpensslRfc2253, Some(p)) => format!(" (openssl's -nameopt RFC2253 print, '{}' left out)", p.trim_end()),
            (SubjectForm::OpensslRfc2253, None) => " (openssl's -nameopt RFC2253 print)".to_owned(),
        };
        Some(format!(
            "Java reads the certificate subject '{}'{how} as '{}' (X500Principal.getName(), RFC 2253)",
            self.typed, self.canonical
        ))
    }
}

/// The prefixes openssl prints before a subject: `openssl x509 -noout
/// -subject` (`subject=`, `subject= ` in 1.0) and `-text` (`Subject: `).
const PREFIXES: [&str; 2] = ["subject=", "Subject:"];

/// Reads a certificate subject as typed (Java's `X500Principal(String)`) or
/// as openssl prints it, and gives the DN Kafka's mapping rules see
/// (`X500Principal.getName()` of the certificate subject).
///
/// - Text without an openssl prefix is read as Java reads it.
/// - `subject=` / `Subject:` is left out; what follows is openssl's default
///   print when it has ` = ` (RDNs reversed to Java's order), openssl 1.0's
///   when it starts with `/` (reversed too), else `-nameopt RFC2253`'s
///   (Java's order). openssl's short names Java lacks (`GN`, `SN`, `title`,
///   ...) are read as their OIDs, and the values take the string types of
///   openssl's default `utf8only` mask (PrintableString for `C`,
///   `serialNumber`, `dnQualifier`; IA5String for `emailAddress`, `DC`;
///   UTF8String otherwise).
///
/// # Errors
/// [`ErrorClass::InvalidDn`] naming the text, caused by Java's
/// `IllegalArgumentException` (`improperly specified input name: ...`) and
/// its cause, when Java cannot read it: no certificate has such a subject.
/// [`ErrorClass::UnsupportedDn`] for what the engine does not reproduce.
pub fn read_certificate_subject(typed: &str) -> Result<CertificateSubject, PrincipalError> {
    let refused = |e: PrincipalError| {
        if e.class() == ErrorClass::UnsupportedDn {
            return e;
        }
        PrincipalError::new(
            ErrorClass::InvalidDn,
            format!("The certificate DN '{typed}' is not a DN Java can read, so no client certificate has it"),
        )
        .caused_by(e)
    };
    let prefix = PREFIXES.iter().find_map(|p| {
        typed.strip_prefix(p).map(|rest| {
            let body = rest.trim_start_matches(' ');
            (typed[..typed.len() - body.len()].to_owned(), body)
        })
    });
    let mut notes = Vec::new();
    let Some((prefix, body)) = prefix else {
        let name = X500Name::parse(typed).map_err(refused)?;
        if typed.contains(" = ") {
            notes.push(format!(
                "'{typed}' has spaces around '=' as openssl prints a subject. openssl lists the RDNs in the \
                 certificate's order, the reverse of Java's; this text is read as typed (Java's order). If it \
                 came from openssl, paste it with its 'subject=' prefix to have it reversed."
            ));
        }
        if name.has_hex_of_open_type() {
            notes.push(hex_note(false));
        }
        return Ok(CertificateSubject {
            typed: typed.to_owned(),
            form: SubjectForm::Typed,
            prefix: None,
            canonical: name.rfc2253(),
            notes,
        });
    };
    let form = if body.starts_with('/') {
        SubjectForm::OpensslSlashes
    } else if body.contains(" = ") {
        SubjectForm::OpensslOneline
    } else {
        SubjectForm::OpensslRfc2253
    };
    let java_text = openssl_to_java(body, form);
    let mut name = X500Name::parse_with(&java_text, &OPENSSL_NAMES).map_err(refused)?;
    // openssl walks the certificate's attributes in order (C first) for
    // its default and slash prints, and backwards for RFC 2253 (CN first,
    // and the AVAs of a multi-valued RDN backwards too); Java prints the
    // RDNs backwards and each RDN's AVAs in the certificate's order.
    if form == SubjectForm::OpensslRfc2253 {
        name.rdns.iter_mut().for_each(|rdn| rdn.reverse());
    } else {
        name.rdns.reverse();
    }
    for ava in name.rdns.iter_mut().flatten() {
        openssl_string_type(ava);
    }
    if name.has_hex_of_open_type() {
        notes.push(hex_note(true));
    }
    Ok(CertificateSubject {
        typed: typed.to_owned(),
        form,
        prefix: Some(prefix),
        canonical: name.rfc2253(),
        notes,
    })
}

fn hex_note(openssl: bool) -> String {
    let types = if openssl {
        "openssl's default string types (UTF8String, tag 0c, for most attributes)"
    } else {
        "the string type Java gives typed text (PrintableString, tag 13, or UTF8String, tag 0c)"
    };
    format!(
        "An attribute RFC 2253 has no keyword for prints as OID=#hex of its DER value; the hex here assumes \
         {types}. A certificate whose CA chose another type gives other hex: check the real certificate \
         (X509Certificate.getSubjectX500Principal().getName() in Java, or openssl asn1parse -in cert.pem, \
         where UTF8STRING is tag 0c and PRINTABLESTRING 13)."
    )
}

/// openssl's default string type for a value read from its print
/// (`crypto/asn1/a_strnid.c` `tbl_standard`, mask `utf8only`).
fn openssl_string_type(ava: &mut Ava) {
    if !matches!(ava.tag, TAG_PRINTABLE | TAG_UTF8 | TAG_IA5) {
        return;
    }
    let text = String::from_utf8_lossy(&ava.content).into_owned();
    let printable_only = ["2.5.4.6", "2.5.4.5", "2.5.4.46", "1.3.6.1.4.1.311.60.2.1.3"];
    if printable_only.iter().any(|o| ava.oid.is(o)) && text.chars().all(is_printable_string_char) {
        ava.tag = TAG_PRINTABLE;
    } else if ava.oid.is(EMAIL_OID) || ava.oid.is(DC_OID) {
        ava.tag = TAG_IA5;
    } else {
        ava.tag = TAG_UTF8;
        ava.content = text.into_bytes();
    }
}

/// openssl's print as Java DN text in the same order (the certificate's,
/// or RFC 2253's for `-nameopt RFC2253`): the attributes split as openssl
/// writes them, each value decoded from openssl's escapes (`\\xHH` in the
/// slash form; `\\XX`, `\\c` and `"..."` otherwise) and escaped again for
/// Java, so that Java reads exactly the characters openssl printed.
fn openssl_to_java(body: &str, form: SubjectForm) -> String {
    let rdns = if form == SubjectForm::OpensslSlashes {
        split_slashes(body)
    } else {
        split_escaped(body)
    };
    rdns.iter()
        .map(|rdn| {
            rdn.iter()
                .map(|(n, v)| {
                    let value = if form != SubjectForm::OpensslSlashes && v.starts_with('#') {
                        v.clone()
                    } else {
                        java_escape(&decode_openssl_value(v, form == SubjectForm::OpensslSlashes))
                    };
                    format!("{n}={value}")
                })
                .collect::<Vec<_>>()
                .join("+")
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// openssl 1.0's `/C=US/O=Org/CN=app`: an RDN starts at a `/` followed by
/// `name=`, another AVA of the same RDN at a `+` followed by `name=`.
fn split_slashes(body: &str) -> Vec<Vec<(String, String)>> {
    let chars: Vec<char> = body.chars().collect();
    let starts_attr = |i: usize| {
        let rest = &chars[i..];
        let n = rest.iter().take_while(|c| c.is_ascii_alphanumeric() || **c == '.').count();
        n > 0 && rest.get(n) == Some(&'=')
    };
    let mut rdns: Vec<Vec<(String, String)>> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if (c == '/' || (c == '+' && !rdns.is_empty())) && i + 1 < chars.len() && starts_attr(i + 1) {
            if c == '/' {
                rdns.push(Vec::new());
            }
            let eq = (i + 1..chars.len()).find(|&j| chars[j] == '=').unwrap_or(chars.len());
            let name: String = chars[i + 1..eq].iter().collect();
            if let Some(rdn) = rdns.last_mut() {
                rdn.push((name, String::new()));
            }
            i = eq + 1;
            continue;
        }
        match rdns.last_mut().and_then(|r| r.last_mut()) {
            Some((_, value)) => value.push(c),
            None => {
                // Text before the first attribute: kept whole, for Java to refuse.
                rdns.push(vec![(chars[i..].iter().collect(), String::new())]);
                break;
            }
        }
        i += 1;
    }
    rdns
}

/// openssl's default (`C = US, O = "Org, Inc.", OU = a + UID = 7`) and
/// RFC 2253 (`CN=app,O=Org\\, Inc.`) prints: RDNs split at `,`, AVAs at
/// `+`, name and value at the first `=`, outside quotes and escapes; spaces
/// around them dropped.
fn split_escaped(body: &str) -> Vec<Vec<(String, String)>> {
    let mut rdns = vec![vec![String::new()]];
    let mut quoted = false;
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        let current = rdns.last_mut().and_then(|r| r.last_mut());
        let Some(current) = current else { break };
        match c {
            '\\' => {
                current.push(c);
                if let Some(n) = chars.next() {
                    current.push(n);
                }
            }
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            ',' if !quoted => rdns.push(vec![String::new()]),
            '+' if !quoted => {
                if let Some(r) = rdns.last_mut() {
                    r.push(String::new());
                }
            }
            _ => current.push(c),
        }
    }
    rdns.into_iter()
        .map(|rdn| {
            rdn.into_iter()
                .map(|ava| match ava.split_once('=') {
                    Some((n, v)) => (n.trim_matches(' ').to_owned(), trim_unescaped(v).to_owned()),
                    None => (ava.trim_matches(' ').to_owned(), String::new()),
                })
                .collect()
        })
        .collect()
}

/// `v` without its leading spaces and its trailing spaces that are not escaped.
fn trim_unescaped(v: &str) -> &str {
    let v = v.trim_start_matches(' ');
    let mut end = v.len();
    while end > 0 && v.as_bytes()[end - 1] == b' ' && !(end >= 2 && v.as_bytes()[end - 2] == b'\\') {
        end -= 1;
    }
    &v[..end]
}

/// The characters an openssl-printed value stands for: surrounding quotes
/// dropped, `\\XX` (or `\\xHH` in the slash form) as UTF-8 bytes, `\\c` as `c`.
fn decode_openssl_value(v: &str, slashes: bool) -> String {
    let inner = if !slashes && v.len() >= 2 && v.starts_with('"') && v.ends_with('"') {
        &v[1..v.len() - 1]
    } else {
        v
    };
    let chars: Vec<char> = inner.chars().collect();
    let mut bytes = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            let at = if slashes && chars.get(i + 1) == Some(&'x') { i + 2 } else { i + 1 };
            let hex = (chars.get(at).copied().and_then(hex_digit), chars.get(at + 1).copied().and_then(hex_digit));
            if let (Some(hi), Some(lo)) = hex {
                bytes.push((hi << 4) | lo);
                i = at + 2;
                continue;
            }
            if !slashes {
                if let Some(n) = chars.get(i + 1) {
                    let mut buf = [0u8; 4];
                    bytes.extend_from_slice(n.encode_utf8(&mut buf).as_bytes());
                    i += 2;
                    continue;
                }
            }
        }
        let mut buf = [0u8; 4];
        bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        i += 1;
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A value as Java DN text: `,+;"\\<>=` escaped, and a leading `#`, space
/// or newline and a trailing space.
fn java_escape(v: &str) -> String {
    let chars: Vec<char> = v.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let edge = (i == 0 && (c == ' ' || c == '\n' || c == '#')) || (i + 1 == chars.len() && c == ' ');
        if ",+;\"\\<>=".contains(c) || edge {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> String {
        X500Name::parse(s).unwrap().rfc2253()
    }

    #[test]
    fn spaces_around_separators_and_equals_are_not_part_of_the_dn() {
        assert_eq!(name("CN = app, OU = eng"), "CN=app,OU=eng");
        assert_eq!(name("CN=app; OU=eng"), "CN=app,OU=eng");
    }

    #[test]
    fn attributes_without_an_rfc_2253_keyword_print_as_oid_and_der_hex() {
        assert_eq!(
            name("EMAILADDRESS=app@example.com,CN=app"),
            "1.2.840.113549.1.9.1=#160f617070406578616d706c652e636f6d,CN=app"
        );
        assert_eq!(name("T=boss"), "2.5.4.12=#1304626f7373");
    }

    #[test]
    fn der_length_is_written_in_its_shortest_form() {
        assert_eq!(der_bytes(0x0c, &[b'a'; 200])[..3], [0x0c, 0x81, 200]);
        assert_eq!(der_bytes(0x0c, &[b'a'; 300])[..4], [0x0c, 0x82, 0x01, 0x2c]);
    }

    #[test]
    fn a_refusal_quotes_javas_message_and_cause() {
        let e = X500Name::parse("FOO=bar").unwrap_err();
        assert_eq!(e.class(), ErrorClass::IllegalArgument);
        assert_eq!(e.message(), "improperly specified input name: FOO=bar");
        let cause = e.cause().unwrap();
        assert_eq!(cause.class(), ErrorClass::Io);
        assert_eq!(cause.message(), "Invalid keyword \"FOO\"");
    }

    #[test]
    fn openssl_oneline_print_is_reversed_to_javas_order() {
        let s = read_certificate_subject("subject=CN = app, OU = eng").unwrap();
        assert_eq!(s.form, SubjectForm::OpensslOneline);
        assert_eq!(s.prefix.as_deref(), Some("subject="));
        assert_eq!(s.canonical, "OU=eng,CN=app");
        let step = s.reading_step().unwrap();
        assert!(step.contains("'OU=eng,CN=app'"), "{step}");
    }

    #[test]
    fn openssl_slash_print_escapes_values_for_java() {
        let s = read_certificate_subject("subject= /C=US/O=Example, Inc./CN=app \\xC3\\xA9").unwrap();
        assert_eq!(s.form, SubjectForm::OpensslSlashes);
        assert_eq!(s.canonical, "CN=app é,O=Example\\, Inc.,C=US");
    }

    #[test]
    fn a_typed_rfc_2253_dn_needs_no_reading_step() {
        let s = read_certificate_subject("CN=app,OU=eng").unwrap();
        assert_eq!(s.reading_step(), None);
        assert!(s.notes.is_empty());
        let spaced = read_certificate_subject("CN = app, OU = eng").unwrap();
        assert_eq!(spaced.canonical, "CN=app,OU=eng");
        assert!(spaced.reading_step().is_some());
        assert!(spaced.notes[0].contains("subject="), "{:?}", spaced.notes);
    }
}
