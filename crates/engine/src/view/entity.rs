//! Character references in text (`&amp;`, `&nbsp`, `&#8217;`, `&#x2019;`), decoded as a browser does in
//! text content: the longest named reference in HTML's table (those of the legacy set also without
//! `;`), numeric ones with or without `;`, Windows-1252 for 0x80–0x9F, U+FFFD for what is not a
//! character. Names come from html5ever's table.

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

/// Longest name in the table, `;` included.
const LONGEST_NAME: usize = 32;

/// The reference starting at `s[0] == '&'`: how many bytes it takes and the characters it stands for
/// (one or two). `None` when it is no reference (the `&` is text).
pub(crate) fn decode(s: &[u8]) -> Option<(usize, char, Option<char>)> {
    debug_assert_eq!(s.first(), Some(&b'&'));
    if s.get(1) == Some(&b'#') {
        return numeric(s).map(|(len, c)| (len, c, None));
    }
    let mut best = None;
    let mut key = [0u8; LONGEST_NAME];
    for k in 1..=LONGEST_NAME.min(s.len() - 1) {
        let b = s[k];
        if !(b.is_ascii_alphanumeric() || b == b';') {
            break;
        }
        key[k - 1] = b;
        let name = std::str::from_utf8(&key[..k]).expect("ASCII");
        // the table holds every prefix of a name: a miss means no longer name matches
        let Some(&(a, b2)) = NAMED_ENTITIES.get(name) else { break };
        if a != 0 {
            best = Some((k + 1, char::from_u32(a)?, char::from_u32(b2).filter(|_| b2 != 0)));
        }
        if b == b';' {
            break;
        }
    }
    best
}

/// The reference starting at `s[0] == '&'` in an attribute value, read as html5gum reads it there (an
/// element's `id` and `class` must read as they did): a named reference without `;` before `=`, a letter
/// or a digit is no reference; a numeric one keeps what is not a character reference's business to map
/// (a noncharacter, a C1 control the Windows-1252 table leaves alone).
pub(crate) fn decode_in_attribute(s: &[u8]) -> Option<(usize, char, Option<char>)> {
    if s.get(1) == Some(&b'#') {
        let (radix, digits_at) = match s.get(2) {
            Some(b'x' | b'X') => (16, 3),
            _ => (10, 2),
        };
        let count = s[digits_at.min(s.len())..].iter().take_while(|b| (**b as char).is_digit(radix)).count();
        if count == 0 {
            return None;
        }
        let n = s[digits_at..digits_at + count]
            .iter()
            .fold(0u32, |n, &d| n.saturating_mul(radix).saturating_add((d as char).to_digit(radix).expect("a digit")));
        let len = digits_at + count + usize::from(s.get(digits_at + count) == Some(&b';'));
        let c = match n {
            0 | 0xd800..=0xdfff | 0x11_0000.. => '\u{fffd}',
            0x80..=0x9f => C1_REPLACEMENTS[(n - 0x80) as usize].unwrap_or(char::from_u32(n).expect("a C1 control")),
            _ => char::from_u32(n).expect("a scalar value"),
        };
        return Some((len, c, None));
    }
    let (len, a, b) = decode(s)?;
    if s[len - 1] != b';' && s.get(len).is_some_and(|&c| c == b'=' || c.is_ascii_alphanumeric()) {
        return None;
    }
    Some((len, a, b))
}

/// An attribute value with its character references decoded as in an attribute, U+0000 as U+FFFD and
/// CR LF and CR as LF, appended to `out`.
pub(crate) fn decode_value(v: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < v.len() {
        let Some(k) = memchr::memchr3(b'&', b'\r', 0, &v[i..]) else {
            out.extend_from_slice(&v[i..]);
            break;
        };
        out.extend_from_slice(&v[i..i + k]);
        i += k;
        match v[i] {
            b'&' => match decode_in_attribute(&v[i..]) {
                Some((len, a, b2)) => {
                    let mut buf = [0u8; 8];
                    let n = a.encode_utf8(&mut buf).len();
                    let n = n + b2.map_or(0, |c| c.encode_utf8(&mut buf[n..]).len());
                    out.extend_from_slice(&buf[..n]);
                    i += len;
                }
                None => {
                    out.push(b'&');
                    i += 1;
                }
            },
            b'\r' => {
                out.push(b'\n');
                i += if v.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
            }
            _ => {
                out.extend_from_slice("\u{fffd}".as_bytes());
                i += 1;
            }
        }
    }
}

/// `&#123;` or `&#x7B;`, `;` optional.
fn numeric(s: &[u8]) -> Option<(usize, char)> {
    let (radix, digits_at) = match s.get(2) {
        Some(b'x' | b'X') => (16, 3),
        _ => (10, 2),
    };
    let digits = s[digits_at..].iter().take_while(|b| b.is_ascii_digit() || (radix == 16 && b.is_ascii_hexdigit()));
    let mut n: u32 = 0;
    let mut count = 0;
    for &d in digits {
        let v = (d as char).to_digit(radix).expect("a digit");
        // saturate: anything past U+10FFFF is not a character
        n = n.saturating_mul(radix).saturating_add(v).min(0x11_0000);
        count += 1;
    }
    if count == 0 {
        return None;
    }
    let mut len = digits_at + count;
    if s.get(len) == Some(&b';') {
        len += 1;
    }
    let c = match n {
        0x80..=0x9f => C1_REPLACEMENTS[(n - 0x80) as usize].unwrap_or('\u{fffd}'),
        _ => char::from_u32(n).filter(|&c| c != '\0').unwrap_or('\u{fffd}'),
    };
    Some((len, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Option<(usize, String)> {
        decode(s.as_bytes()).map(|(n, a, b)| (n, a.to_string() + &b.map(String::from).unwrap_or_default()))
    }

    #[test]
    fn references_decode_as_in_a_browser() {
        assert_eq!(dec("&amp;x"), Some((5, "&".into())));
        assert_eq!(dec("&amp x"), Some((4, "&".into())));
        assert_eq!(dec("&nbsp;"), Some((6, "\u{a0}".into())));
        assert_eq!(dec("&notit;"), Some((4, "¬".into())));
        assert_eq!(dec("&#8217;s"), Some((7, "’".into())));
        assert_eq!(dec("&#x2019"), Some((7, "’".into())));
        assert_eq!(dec("&#150;"), Some((6, "–".into())));
        assert_eq!(dec("&#0;"), Some((4, "\u{fffd}".into())));
        assert_eq!(dec("&#99999999999;"), Some((14, "\u{fffd}".into())));
        assert_eq!(dec("&bogus;"), None);
        assert_eq!(dec("& x"), None);
        assert_eq!(dec("&#;"), None);
        assert_eq!(dec("&NotEqualTilde;"), Some((15, "\u{2242}\u{338}".into())));
    }
}
