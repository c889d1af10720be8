//! Which `ip` entity names Kafka accepts: `InetAddress.getByName` without
//! the network.
//!
//! Kafka: `ClientQuotaControlManager.isValidIpEntity`
//! (`metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java`)
//! accepts a name when `InetAddress.getByName(name)` does not throw. The JDK
//! (OpenJDK 17.0.15, the JVM that produced the vectors: `InetAddress.getAllByName`,
//! `Inet6Address.parseAddressString`, `sun.net.util.IPAddressUtil`) first
//! tries literal forms and only then asks DNS. This module reproduces the
//! literal path exactly, including its quirks:
//!
//! - IPv4 accepts the short forms `1`, `1.2`, `1.2.3` (last part 32, 24 or
//!   16 bits) and decimal parts with leading zeros (`010.0.0.1` = 10.0.0.1),
//!   at most 15 characters, ASCII digits only.
//! - A string that fails that but parses as a BSD-style literal (hex `0x7f`,
//!   octal `0177`, longer than 15 characters) is rejected as ambiguous.
//! - IPv6 accepts `::` compression, a trailing dotted IPv4 part with exactly
//!   three dots, `[...]` brackets, and a numeric zone `%n` (any `n` up to
//!   `Integer.MAX_VALUE`). IPv4-mapped forms become IPv4 and reject any zone.
//! - Brackets around anything that is not IPv6 (`[127.0.0.1]`) are rejected.
//! - Anything else that starts with a hex digit or `:` and contains a `:` is
//!   rejected; other strings (`localhost`, `1.2.3.256`) would go to DNS.
//!
//! The engine never resolves names: strings that Java would look up, and
//! named zones (`fe80::1%eth0`, which depend on the host's interfaces), are
//! reported as such and treated as invalid.

/// What `InetAddress.getByName` makes of a host string, without the network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IpHost {
    /// An IPv4 literal (also the result of IPv4-mapped IPv6 such as `::ffff:10.0.0.1`).
    V4([u8; 4]),
    /// An IPv6 literal, with its numeric scope id when `%n` was given.
    V6 {
        /// The 16 address bytes.
        addr: [u8; 16],
        /// The numeric zone (`%1` gives `Some(1)`).
        scope_id: Option<u32>,
    },
    /// An IPv6 literal with a named zone (`%eth0`): Java accepts it only if
    /// that network interface exists (and has a matching scope) on the
    /// controller, so the engine treats it as invalid.
    V6NamedZone {
        /// The 16 address bytes.
        addr: [u8; 16],
        /// The interface name after `%`.
        interface: String,
    },
    /// Java rejects the string without a lookup (`UnknownHostException`).
    Rejected,
    /// Java would resolve the string through DNS or the hosts file; the
    /// engine does not, and treats it as invalid.
    NeedsLookup,
}

impl IpHost {
    /// True for the forms Kafka accepts on every host: IPv4 and IPv6
    /// literals (with or without a numeric zone).
    pub fn is_literal(&self) -> bool {
        matches!(self, IpHost::V4(_) | IpHost::V6 { .. })
    }
}

/// An address as Java's `InetAddress` compares it: Kafka keys its
/// connection-rate quotas by `InetAddress` (`ConnectionQuotas.connectionRatePerIp`),
/// so `ips/::1`, `ips/0:0:0:0:0:0:0:1` and `ips/[::1]` are one entity for the
/// broker, and `::ffff:10.0.0.1` is the IPv4 address `10.0.0.1`.
///
/// `Inet6Address.equals` compares the 16 address bytes only (the scope id is
/// ignored), so the scope is not part of this key.
///
/// Kafka: `ClientQuotaMetadataManager.handleIpQuota` (`InetAddress.getByName(ip)`),
/// `ConnectionQuotas.updateIpConnectionRateQuota` (core/src/main/scala/kafka/network/SocketServer.scala);
/// JDK 17: `Inet4Address.equals`, `Inet6Address.equals`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IpAddress {
    /// An `Inet4Address`.
    V4([u8; 4]),
    /// An `Inet6Address` (never IPv4-mapped: Java turns those into `Inet4Address`).
    V6([u8; 16]),
}

impl IpAddress {
    /// The address `InetAddress.getByName(host)` gives for a literal `host`;
    /// `None` when Java would refuse it or look it up (the engine never
    /// resolves names), or for a named IPv6 zone (which depends on the host).
    ///
    /// ```
    /// use quota_engine::store::validate::IpAddress;
    /// assert_eq!(IpAddress::parse("::1"), IpAddress::parse("0:0:0:0:0:0:0:1"));
    /// assert_eq!(IpAddress::parse("::ffff:10.0.0.1"), IpAddress::parse("10.0.0.1"));
    /// assert_eq!(IpAddress::parse("2001:DB8:0:0:0:0:0:1"), IpAddress::parse("2001:db8::1"));
    /// assert_eq!(IpAddress::parse("kafka-1"), None);
    /// ```
    pub fn parse(host: &str) -> Option<IpAddress> {
        match classify_ip_host(host) {
            IpHost::V4(a) => Some(IpAddress::V4(a)),
            IpHost::V6 { addr, .. } => Some(IpAddress::V6(addr)),
            IpHost::V6NamedZone { .. } | IpHost::Rejected | IpHost::NeedsLookup => None,
        }
    }
}

impl std::fmt::Display for IpAddress {
    /// Java's `getHostAddress()`: dotted decimal, or eight lower-case hex
    /// groups without leading zeros and without `::` compression
    /// (`0:0:0:0:0:0:0:1`), as Kafka prints the address in its logs and metrics.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IpAddress::V4([a, b, c, d]) => write!(f, "{a}.{b}.{c}.{d}"),
            IpAddress::V6(bytes) => {
                for (i, pair) in bytes.chunks_exact(2).enumerate() {
                    if i > 0 {
                        f.write_str(":")?;
                    }
                    write!(f, "{:x}", (u16::from(pair[0]) << 8) | u16::from(pair[1]))?;
                }
                Ok(())
            }
        }
    }
}

/// Classifies `host` as `InetAddress.getByName` would, without any lookup.
///
/// An empty string is the loopback address in Java (Kafka never gets here
/// with one: `validateEntity` rejects empty names first).
///
/// Kafka/JDK: `InetAddress.getAllByName(String)` (OpenJDK 17.0.15).
pub fn classify_ip_host(host: &str) -> IpHost {
    if host.is_empty() {
        return IpHost::V4([127, 0, 0, 1]);
    }
    if host.contains('\0') {
        return IpHost::Rejected;
    }
    let chars: Vec<char> = host.chars().collect();
    let mut h: &[char] = &chars;
    let mut ipv6_expected = false;
    if h[0] == '[' {
        if h.len() > 2 && h[h.len() - 1] == ']' {
            h = &h[1..h.len() - 1];
            ipv6_expected = true;
        } else {
            return IpHost::Rejected;
        }
    }
    if hex_digit(h[0]).is_some() || h[0] == ':' {
        if !ipv6_expected {
            if let Some(v4) = text_to_numeric_v4(h) {
                return IpHost::V4(v4);
            }
            if is_bsd_parsable_v4(h) {
                // IPAddressUtil.validateNumericFormatV4: ambiguous literal.
                return IpHost::Rejected;
            }
        }
        match parse_v6_address_string(h) {
            V6Parse::Host(found) => return found,
            V6Parse::Rejected => return IpHost::Rejected,
            V6Parse::NotV6 => {
                if h.contains(&':') || ipv6_expected {
                    return IpHost::Rejected;
                }
            }
        }
    } else if ipv6_expected {
        return IpHost::Rejected;
    }
    IpHost::NeedsLookup
}

fn dec_digit(c: char) -> Option<u32> {
    c.to_digit(10).filter(|_| c.is_ascii_digit())
}

fn hex_digit(c: char) -> Option<u32> {
    if c.is_ascii_hexdigit() {
        c.to_digit(16)
    } else {
        None
    }
}

/// `IPAddressUtil.textToNumericFormatV4`: dotted decimal with 1 to 4 parts,
/// the last part filling the remaining bytes, at most 15 characters.
fn text_to_numeric_v4(src: &[char]) -> Option<[u8; 4]> {
    let len = src.len();
    if len == 0 || len > 15 {
        return None;
    }
    let mut res = [0u8; 4];
    let mut tmp: u64 = 0;
    let mut curr_byte = 0usize;
    let mut new_octet = true;
    for &c in src {
        if c == '.' {
            if new_octet || tmp > 0xff || curr_byte == 3 {
                return None;
            }
            res[curr_byte] = tmp as u8;
            curr_byte += 1;
            tmp = 0;
            new_octet = true;
        } else {
            tmp = tmp * 10 + u64::from(dec_digit(c)?);
            new_octet = false;
        }
    }
    if new_octet || tmp >= (1u64 << ((4 - curr_byte) * 8)) {
        return None;
    }
    for (i, slot) in res.iter_mut().enumerate().skip(curr_byte) {
        *slot = (tmp >> ((3 - i) * 8)) as u8;
    }
    Some(res)
}

/// `IPAddressUtil.isBsdParsableV4`: would `inet_aton` (hex `0x`, octal `0`,
/// decimal parts) accept it?
fn is_bsd_parsable_v4(input: &[char]) -> bool {
    let len = input.len();
    if len == 0 || dec_digit(input[0]).is_none() {
        return false;
    }
    let last = input[len - 1];
    if last == '.' || hex_digit(last).is_none() {
        return false;
    }
    let mut pos = 0usize;
    let mut field_number = 0i64;
    let mut field_value: i64 = -1;
    while pos < len {
        field_value = -1;
        for radix in [16i64, 8, 10] {
            field_value = parse_v4_field_bsd(radix, input, &mut pos, field_number);
            if field_value >= 0 {
                field_number += 1;
                break;
            } else if field_value == TERMINAL_PARSE_ERROR {
                return false;
            }
        }
        if field_value < 0 {
            return false;
        }
    }
    field_value >= 0
}

const CANT_PARSE_IN_RADIX: i64 = -1;
const TERMINAL_PARSE_ERROR: i64 = -2;

/// `IPAddressUtil.parseV4FieldBsd`, with Java's `long` arithmetic (it wraps
/// on absurdly long digit runs, and Java's checks then behave as written).
fn parse_v4_field_bsd(radix: i64, buf: &[char], pos: &mut usize, field_number: i64) -> i64 {
    let initial = *pos;
    let remaining = buf.len() - *pos;
    let prefix_ok = match radix {
        16 => {
            if remaining < 2 {
                false
            } else {
                let ok = buf[*pos] == '0' && (buf[*pos + 1] == 'x' || buf[*pos + 1] == 'X');
                *pos += 2;
                ok
            }
        }
        8 => {
            if remaining < 2 {
                false
            } else {
                let ok = buf[*pos] == '0' && buf[*pos + 1] != '.';
                *pos += if ok { 1 } else { 2 };
                ok
            }
        }
        _ => remaining > 0,
    };
    let mut val: i64 = if prefix_ok { 0 } else { CANT_PARSE_IN_RADIX };
    let mut digits = 0u32;
    let mut dot_seen = false;
    while *pos < buf.len() && val != CANT_PARSE_IN_RADIX && !dot_seen {
        let c = buf[*pos];
        *pos += 1;
        if c == '.' {
            dot_seen = true;
            if field_number == 3 || digits == 0 || val > 255 {
                return TERMINAL_PARSE_ERROR;
            }
        } else {
            let dv = if radix == 16 {
                hex_digit(c)
            } else {
                dec_digit(c).filter(|d| i64::from(*d) < radix)
            };
            match dv {
                Some(d) => {
                    digits += 1;
                    val = val.wrapping_mul(radix).wrapping_add(i64::from(d));
                }
                None => return TERMINAL_PARSE_ERROR,
            }
        }
    }
    if val == CANT_PARSE_IN_RADIX {
        *pos = initial;
    } else if !dot_seen {
        let max = (1i64 << ((4 - field_number) * 8)) - 1;
        if val > max {
            return TERMINAL_PARSE_ERROR;
        }
    }
    val
}

enum V6Parse {
    Host(IpHost),
    NotV6,
    Rejected,
}

/// `Inet6Address.parseAddressString(host, false)`: zone handling around
/// `textToNumericFormatV6`.
fn parse_v6_address_string(h: &[char]) -> V6Parse {
    let percent = h.iter().position(|&c| c == '%');
    let mut numeric_zone: Option<u32> = None;
    let mut ifname: Option<String> = None;
    if let Some(p) = percent {
        numeric_zone = check_numeric_zone(&h[p + 1..]);
        if numeric_zone.is_none() {
            ifname = Some(h[p + 1..].iter().collect());
        }
    }
    let Some(addr) = text_to_numeric_v6(h) else {
        return V6Parse::NotV6;
    };
    match addr {
        V6Bytes::Mapped(v4) => {
            if percent.is_some() {
                // "invalid IPv4-mapped address": no zone on an IPv4-mapped literal.
                V6Parse::Rejected
            } else {
                V6Parse::Host(IpHost::V4(v4))
            }
        }
        V6Bytes::Full(addr) => match ifname {
            Some(interface) => V6Parse::Host(IpHost::V6NamedZone { addr, interface }),
            None => V6Parse::Host(IpHost::V6 {
                addr,
                scope_id: numeric_zone,
            }),
        },
    }
}

/// `Inet6Address.checkNumericZone`: ASCII digits only, no `int` overflow.
fn check_numeric_zone(zone: &[char]) -> Option<u32> {
    let mut value: i32 = 0;
    for &c in zone {
        let d = dec_digit(c)? as i32;
        if value > i32::MAX / 10 {
            return None;
        }
        value = value.wrapping_mul(10).wrapping_add(d);
        if value < 0 {
            return None;
        }
    }
    Some(value as u32)
}

enum V6Bytes {
    Full([u8; 16]),
    Mapped([u8; 4]),
}

/// `IPAddressUtil.textToNumericFormatV6` (a port of Solaris `inet_pton`);
/// everything after `%` is ignored here.
fn text_to_numeric_v6(src: &[char]) -> Option<V6Bytes> {
    if src.len() < 2 {
        return None;
    }
    let mut srcb_length = src.len();
    if let Some(pc) = src.iter().position(|&c| c == '%') {
        if pc == src.len() - 1 {
            return None;
        }
        srcb_length = pc;
    }
    let mut dst = [0u8; 16];
    let mut colonp: Option<usize> = None;
    let mut i = 0usize;
    let mut j = 0usize;
    if src[i] == ':' {
        i += 1;
        if src[i] != ':' {
            return None;
        }
    }
    let mut curtok = i;
    let mut saw_xdigit = false;
    let mut val: u32 = 0;
    while i < srcb_length {
        let ch = src[i];
        i += 1;
        if let Some(d) = hex_digit(ch) {
            val = (val << 4) | d;
            if val > 0xffff {
                return None;
            }
            saw_xdigit = true;
            continue;
        }
        if ch == ':' {
            curtok = i;
            if !saw_xdigit {
                if colonp.is_some() {
                    return None;
                }
                colonp = Some(j);
                continue;
            } else if i == srcb_length {
                return None;
            }
            if j + 2 > 16 {
                return None;
            }
            dst[j] = (val >> 8) as u8;
            dst[j + 1] = val as u8;
            j += 2;
            saw_xdigit = false;
            val = 0;
            continue;
        }
        if ch == '.' && j + 4 <= 16 {
            let ia4 = &src[curtok..srcb_length];
            if ia4.iter().filter(|&&c| c == '.').count() != 3 {
                return None;
            }
            let v4 = text_to_numeric_v4(ia4)?;
            dst[j..j + 4].copy_from_slice(&v4);
            j += 4;
            saw_xdigit = false;
            break;
        }
        return None;
    }
    if saw_xdigit {
        if j + 2 > 16 {
            return None;
        }
        dst[j] = (val >> 8) as u8;
        dst[j + 1] = val as u8;
        j += 2;
    }
    if let Some(cp) = colonp {
        let n = j - cp;
        if j == 16 {
            return None;
        }
        for k in 1..=n {
            dst[16 - k] = dst[cp + n - k];
            dst[cp + n - k] = 0;
        }
        j = 16;
    }
    if j != 16 {
        return None;
    }
    if dst[..10].iter().all(|&b| b == 0) && dst[10] == 0xff && dst[11] == 0xff {
        return Some(V6Bytes::Mapped([dst[12], dst[13], dst[14], dst[15]]));
    }
    Some(V6Bytes::Full(dst))
}
