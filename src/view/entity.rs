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
