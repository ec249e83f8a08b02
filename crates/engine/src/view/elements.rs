//! What the HTML reader knows of elements: which break a line, which are void, which hold raw text,
//! which hide what they hold. Names are compared as numbers ([`key`]).

/// Whether a start tag's attributes hide the element: `hidden`, or a style with `display: none`.
pub(super) fn hides(attributes: &[u8]) -> bool {
    // most tags name neither attribute: refused without reading their attributes one by one
    names_hidden_or_style(attributes) && hides_parsed(attributes)
}

/// Whether `hidden` or `style`, in any case, occurs in `attributes` at all: an attribute of either name
/// is such an occurrence.
fn names_hidden_or_style(attributes: &[u8]) -> bool {
    memchr::memchr2_iter(b'h', b'H', attributes)
        .any(|i| attributes.get(i..i + 6).is_some_and(|w| w.eq_ignore_ascii_case(b"hidden")))
        || memchr::memchr2_iter(b'y', b'Y', attributes)
            .any(|i| i >= 2 && attributes.get(i - 2..i + 3).is_some_and(|w| w.eq_ignore_ascii_case(b"style")))
}

/// [`hides`], reading every attribute.
fn hides_parsed(attributes: &[u8]) -> bool {
    let mut rest = attributes;
    while let Some(start) = rest.iter().position(|c| !c.is_ascii_whitespace() && *c != b'/') {
        rest = &rest[start..];
        let name_len =
            rest.iter().position(|&c| c.is_ascii_whitespace() || c == b'=' || c == b'/').unwrap_or(rest.len());
        let name = &rest[..name_len];
        rest = &rest[name_len..];
        let trimmed = rest.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(rest.len());
        let value: &[u8] = if rest.get(trimmed) == Some(&b'=') {
            let v = &rest[trimmed + 1..];
            let v = &v[v.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(v.len())..];
            let (value, used) = match v.first() {
                Some(&q @ (b'"' | b'\'')) => {
                    let close = v[1..].iter().position(|&c| c == q).map_or(v.len(), |p| p + 1);
                    (&v[1..close], (close + 1).min(v.len()))
                }
                _ => {
                    let end = v.iter().position(|c| c.is_ascii_whitespace()).unwrap_or(v.len());
                    (&v[..end], end)
                }
            };
            rest = &v[used..];
            value
        } else {
            b""
        };
        if name.eq_ignore_ascii_case(b"hidden") && !value.eq_ignore_ascii_case(b"until-found") {
            return true;
        }
        if name.eq_ignore_ascii_case(b"style") && style_hides(value) {
            return true;
        }
    }
    false
}

/// `display: none` in a style attribute, any case and spacing: a declaration that starts `display:none`
/// once whitespace is left out and letters lowercased. Not `visibility: hidden`: pages hide their header
/// so until a script has run, and readers then see it. Read as it streams, nothing copied: a page's
/// many styled tags each cost one pass over their style.
fn style_hides(style: &[u8]) -> bool {
    const DISPLAY_NONE: &[u8] = b"display:none";
    // how much of DISPLAY_NONE the current declaration has matched so far; None once it cannot
    let mut matched = Some(0);
    for &c in style.iter().filter(|c| !c.is_ascii_whitespace()) {
        if c == b';' {
            matched = Some(0);
            continue;
        }
        matched = matched.filter(|&m| DISPLAY_NONE[m] == c.to_ascii_lowercase()).map(|m| m + 1);
        if matched == Some(DISPLAY_NONE.len()) {
            return true;
        }
    }
    false
}

/// A tag name as a number: its first 16 bytes, lowercased. Longer names are no name this reader knows,
/// so sharing a key among them changes nothing.
pub(crate) const fn key(name: &[u8]) -> u128 {
    let mut k = [0u8; 16];
    let mut i = 0;
    while i < 16 && i < name.len() {
        k[i] = name[i].to_ascii_lowercase();
        i += 1;
    }
    u128::from_le_bytes(k)
}

/// The lowercased name a key stands for.
pub(super) fn name_of(key: &u128) -> ([u8; 16], usize) {
    let k = key.to_le_bytes();
    let len = k.iter().position(|&c| c == 0).unwrap_or(16);
    (k, len)
}

/// The key of the name [`name_of`] reads from `key`: its bytes up to the first zero, the rest cleared.
/// The sets below are looked up by it, as a number, not by comparing names.
pub(super) fn named(key: u128) -> u128 {
    const ONES: u128 = u128::from_le_bytes([0x01; 16]);
    const HIGHS: u128 = u128::from_le_bytes([0x80; 16]);
    // the lowest byte flagged is the first zero byte (a borrow only flags bytes above a zero)
    let zeros = key.wrapping_sub(ONES) & !key & HIGHS;
    if zeros == 0 { key } else { key & ((1u128 << (zeros.trailing_zeros() / 8 * 8)) - 1) }
}

/// What the reader knows of an element, as bits: it is a block ([`is_block`]), breaks the line
/// ([`breaks_line`]), is void ([`is_void`]), holds raw text shown or dropped ([`raw_text`]).
const BLOCK: u8 = 1;
const LINE: u8 = 2;
const VOID: u8 = 4;
const SHOWN: u8 = 8;
const DROPPED: u8 = 16;

/// Every element the reader knows something of, with what.
const KNOWN: [(&[u8], u8); 76] = [
    (b"address", BLOCK | LINE),
    (b"article", BLOCK | LINE),
    (b"aside", BLOCK | LINE),
    (b"blockquote", BLOCK | LINE),
    (b"body", BLOCK | LINE),
    (b"br", BLOCK | LINE | VOID),
    (b"caption", BLOCK | LINE),
    (b"center", BLOCK | LINE),
    (b"dd", BLOCK | LINE),
    (b"details", BLOCK | LINE),
    (b"dialog", BLOCK | LINE),
    (b"dir", BLOCK | LINE),
    (b"div", BLOCK | LINE),
    (b"dl", BLOCK | LINE),
    (b"dt", BLOCK | LINE),
    (b"fieldset", BLOCK | LINE),
    (b"figcaption", BLOCK | LINE),
    (b"figure", BLOCK | LINE),
    (b"footer", BLOCK | LINE),
    (b"form", BLOCK | LINE),
    (b"frameset", BLOCK | LINE),
    (b"h1", BLOCK | LINE),
    (b"h2", BLOCK | LINE),
    (b"h3", BLOCK | LINE),
    (b"h4", BLOCK | LINE),
    (b"h5", BLOCK | LINE),
    (b"h6", BLOCK | LINE),
    (b"head", BLOCK | LINE),
    (b"header", BLOCK | LINE),
    (b"hgroup", BLOCK | LINE),
    (b"hr", BLOCK | LINE | VOID),
    (b"html", BLOCK | LINE),
    (b"iframe", BLOCK | LINE | DROPPED),
    (b"legend", BLOCK | LINE),
    (b"li", BLOCK | LINE),
    (b"main", BLOCK | LINE),
    (b"menu", BLOCK | LINE),
    (b"nav", BLOCK | LINE),
    (b"noscript", BLOCK | LINE),
    (b"ol", BLOCK | LINE),
    (b"option", BLOCK | LINE),
    (b"p", BLOCK | LINE),
    (b"pre", BLOCK | LINE),
    (b"section", BLOCK | LINE),
    (b"summary", BLOCK | LINE),
    (b"table", BLOCK | LINE),
    (b"tbody", BLOCK | LINE),
    (b"td", BLOCK | LINE),
    (b"tfoot", BLOCK | LINE),
    (b"th", BLOCK | LINE),
    (b"thead", BLOCK | LINE),
    (b"title", BLOCK | LINE | SHOWN),
    (b"tr", BLOCK | LINE),
    (b"ul", BLOCK | LINE),
    (b"img", LINE | VOID),
    (b"input", LINE | VOID),
    (b"button", LINE),
    (b"label", LINE),
    (b"select", LINE),
    (b"textarea", LINE | SHOWN),
    (b"area", VOID),
    (b"base", VOID),
    (b"col", VOID),
    (b"embed", VOID),
    (b"keygen", VOID),
    (b"link", VOID),
    (b"meta", VOID),
    (b"param", VOID),
    (b"source", VOID),
    (b"track", VOID),
    (b"wbr", VOID),
    (b"script", DROPPED),
    (b"style", DROPPED),
    (b"xmp", DROPPED),
    (b"noembed", DROPPED),
    (b"noframes", DROPPED),
];

/// Slots of [`TABLE`]: a power of two, over three times the names, so a lookup reads one slot or two.
const SLOTS: usize = 256;

/// [`KNOWN`] as an open-addressing hash table: keys (0 for an empty slot), and each one's bits.
static TABLE: ([u128; SLOTS], [u8; SLOTS]) = {
    let (mut keys, mut bits) = ([0u128; SLOTS], [0u8; SLOTS]);
    let mut n = 0;
    while n < KNOWN.len() {
        let k = key(KNOWN[n].0);
        let mut i = slot(k);
        while keys[i] != 0 {
            i = (i + 1) % SLOTS;
        }
        keys[i] = k;
        bits[i] = KNOWN[n].1;
        n += 1;
    }
    (keys, bits)
};

const fn slot(key: u128) -> usize {
    let folded = (key as u64) ^ ((key >> 64) as u64);
    (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize % SLOTS
}

/// What the reader knows of element `name` (see [`BLOCK`]): one hash and a slot or two read.
fn bits(name: u128) -> u8 {
    let k = named(name);
    if k == 0 {
        return 0;
    }
    let mut i = slot(k);
    loop {
        match TABLE.0[i] {
            0 => return 0,
            e if e == k => return TABLE.1[i],
            _ => i = (i + 1) % SLOTS,
        }
    }
}

/// Elements that start a line of their own: the blocks, and the pictures and form controls that the
/// corpora's stripper also puts on a line of their own (with them 95% of the pages agree exactly with
/// it, 63% without).
pub(super) fn breaks_line(name: u128) -> bool {
    bits(name) & LINE != 0
}

/// Block elements (a `<p>` does not hold one: it closes).
pub(super) fn is_block(name: u128) -> bool {
    bits(name) & BLOCK != 0
}

/// Elements that hold no content and have no end tag.
pub(crate) fn is_void(name: u128) -> bool {
    bits(name) & VOID != 0
}

/// Elements whose content is a fallback for browsers without them: every browser has them, so none
/// draws it ("Your browser does not support the video tag.").
pub(super) fn holds_fallback(name: u128) -> bool {
    const VIDEO: u128 = key(b"video");
    const AUDIO: u128 = key(b"audio");
    const CANVAS: u128 = key(b"canvas");
    matches!(named(name), VIDEO | AUDIO | CANVAS)
}

/// Elements of an `<svg>` that are never drawn: its `<title>` (a tooltip) and `<desc>`.
pub(super) fn undrawn_in_svg(name: u128) -> bool {
    const TITLE: u128 = key(b"title");
    const DESC: u128 = key(b"desc");
    matches!(named(name), TITLE | DESC)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RawText {
    Shown,
    Dropped,
}

/// Elements whose content is text, not markup, up to their end tag.
pub(super) fn raw_text(name: u128) -> Option<RawText> {
    let b = bits(name);
    if b & SHOWN != 0 {
        Some(RawText::Shown)
    } else if b & DROPPED != 0 {
        Some(RawText::Dropped)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sets as names: the oracle the keyed lookups are checked against.
    fn old_is_block(name: &[u8]) -> bool {
        matches!(
            name,
            b"address"
                | b"article"
                | b"aside"
                | b"blockquote"
                | b"body"
                | b"br"
                | b"caption"
                | b"center"
                | b"dd"
                | b"details"
                | b"dialog"
                | b"dir"
                | b"div"
                | b"dl"
                | b"dt"
                | b"fieldset"
                | b"figcaption"
                | b"figure"
                | b"footer"
                | b"form"
                | b"frameset"
                | b"h1"
                | b"h2"
                | b"h3"
                | b"h4"
                | b"h5"
                | b"h6"
                | b"head"
                | b"header"
                | b"hgroup"
                | b"hr"
                | b"html"
                | b"iframe"
                | b"legend"
                | b"li"
                | b"main"
                | b"menu"
                | b"nav"
                | b"noscript"
                | b"ol"
                | b"option"
                | b"p"
                | b"pre"
                | b"section"
                | b"summary"
                | b"table"
                | b"tbody"
                | b"td"
                | b"tfoot"
                | b"th"
                | b"thead"
                | b"title"
                | b"tr"
                | b"ul"
        )
    }

    fn old_breaks_line(name: &[u8]) -> bool {
        old_is_block(name) || matches!(name, b"img" | b"input" | b"button" | b"label" | b"select" | b"textarea")
    }

    fn old_is_void(name: &[u8]) -> bool {
        matches!(
            name,
            b"area"
                | b"base"
                | b"br"
                | b"col"
                | b"embed"
                | b"hr"
                | b"img"
                | b"input"
                | b"keygen"
                | b"link"
                | b"meta"
                | b"param"
                | b"source"
                | b"track"
                | b"wbr"
        )
    }

    fn old_raw_text(name: &[u8]) -> Option<RawText> {
        match name {
            b"title" | b"textarea" => Some(RawText::Shown),
            b"script" | b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => Some(RawText::Dropped),
            _ => None,
        }
    }

    /// Every known name, changed every way a tag's bytes can differ: case, a byte more or less, a NUL
    /// inside (the name read then stops there), past 16 bytes, bytes above ASCII.
    fn names() -> Vec<Vec<u8>> {
        let known: Vec<&[u8]> = vec![
            b"address",
            b"article",
            b"aside",
            b"blockquote",
            b"body",
            b"br",
            b"caption",
            b"center",
            b"dd",
            b"details",
            b"dialog",
            b"dir",
            b"div",
            b"dl",
            b"dt",
            b"fieldset",
            b"figcaption",
            b"figure",
            b"footer",
            b"form",
            b"frameset",
            b"h1",
            b"h2",
            b"h3",
            b"h4",
            b"h5",
            b"h6",
            b"head",
            b"header",
            b"hgroup",
            b"hr",
            b"html",
            b"iframe",
            b"legend",
            b"li",
            b"main",
            b"menu",
            b"nav",
            b"noscript",
            b"ol",
            b"option",
            b"p",
            b"pre",
            b"section",
            b"summary",
            b"table",
            b"tbody",
            b"td",
            b"tfoot",
            b"th",
            b"thead",
            b"title",
            b"tr",
            b"ul",
            b"img",
            b"input",
            b"button",
            b"label",
            b"select",
            b"textarea",
            b"area",
            b"base",
            b"col",
            b"embed",
            b"keygen",
            b"link",
            b"meta",
            b"param",
            b"source",
            b"track",
            b"wbr",
            b"script",
            b"style",
            b"xmp",
            b"noembed",
            b"noframes",
            b"span",
            b"a",
            b"",
            b"x",
            b"blockquotexyzabcd",
            b"blockquotexyzabcde",
        ];
        let mut out = Vec::new();
        for n in known {
            out.push(n.to_vec());
            out.push(n.to_ascii_uppercase());
            if !n.is_empty() {
                out.push(n[..n.len() - 1].to_vec());
                out.push(n[1..].to_vec());
            }
            for extra in [b'1', b'x', 0, 0x80, 0xff] {
                let mut m = n.to_vec();
                m.push(extra);
                out.push(m);
            }
            for at in 0..=n.len() {
                let mut m = n.to_vec();
                m.insert(at, 0);
                m.extend_from_slice(b"ab");
                out.push(m);
            }
            let mut long = n.to_vec();
            long.resize(20, b'z');
            out.push(long);
        }
        out
    }

    #[test]
    fn keyed_lookups_agree_with_the_names_they_stand_for() {
        for n in names() {
            let k = key(&n);
            let (read, len) = name_of(&k);
            let read = &read[..len];
            assert_eq!(is_block(k), old_is_block(read), "{n:?}");
            assert_eq!(breaks_line(k), old_breaks_line(read), "{n:?}");
            assert_eq!(is_void(k), old_is_void(read), "{n:?}");
            assert_eq!(raw_text(k), old_raw_text(read), "{n:?}");
            assert_eq!(named(k), key(read), "{n:?}");
        }
    }

    #[test]
    fn the_quick_refusal_changes_no_answer() {
        let cases: &[&[u8]] = &[
            b"",
            b" class=\"x\"",
            b" hidden",
            b" HIDDEN",
            b" hIdDeN=\"\"",
            b" hidden=until-found",
            b" data-hidden=1",
            b" style=\"display:none\"",
            b" STYLE='Display : NONE'",
            b" sTyLe=\"color:red; display: none\"",
            b" style=\"color:red\"",
            b" class=\"hidden\" title=style",
            b" x=\"style=display:none\"",
            b"/hidden/",
            b" a=1 hidden b=2",
            b" style",
            b"style=display:none",
            b"hidden",
            b" h",
            b" y",
        ];
        for c in cases {
            assert_eq!(hides(c), hides_parsed(c), "{:?}", String::from_utf8_lossy(c));
        }
        assert!(hides(b" HIDDEN") && hides(b" sTyLe=\"display: none\""));
        assert!(!hides(b" class=\"x\" href=\"/h\""));
    }

    /// What `style_hides` answers, written the obvious way: whitespace out, lowercased, split into
    /// declarations.
    fn style_hides_copied(style: &[u8]) -> bool {
        let squeezed: Vec<u8> = style.iter().filter(|c| !c.is_ascii_whitespace()).map(u8::to_ascii_lowercase).collect();
        squeezed.split(|&c| c == b';').any(|d| d.starts_with(b"display:none"))
    }

    #[test]
    fn a_style_read_as_it_streams_hides_as_its_copy_would() {
        let parts: &[&[u8]] =
            &[b"display", b":", b"none", b";", b" ", b"DISPLAY", b"No", b"ne", b"color:red", b"x", b"\t"];
        // every sequence of up to four parts, and cuts of the whole declaration
        let mut styles: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..4 {
            let longer: Vec<Vec<u8>> =
                styles.iter().flat_map(|s| parts.iter().map(move |p| [s.as_slice(), p].concat())).collect();
            styles.extend(longer);
            styles.dedup();
        }
        for cut in 0..=b"a:b; display : none ;".len() {
            styles.push(b"a:b; display : none ;"[..cut].to_vec());
        }
        let mut hidden = 0;
        for s in &styles {
            assert_eq!(style_hides(s), style_hides_copied(s), "{:?}", String::from_utf8_lossy(s));
            hidden += usize::from(style_hides(s));
        }
        assert!(hidden > 0 && hidden < styles.len());
    }
}
