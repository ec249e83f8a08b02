//! What the HTML reader knows of elements: which break a line, which are void, which hold raw text,
//! which hide what they hold. Names are compared as numbers ([`key`]).

/// Whether a start tag's attributes hide the element: `hidden`, or a style with `display: none`.
pub(super) fn hides(attributes: &[u8]) -> bool {
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

/// `display: none` in a style attribute, any case and spacing. Not `visibility: hidden`: pages hide
/// their header so until a script has run, and readers then see it.
fn style_hides(style: &[u8]) -> bool {
    let squeezed: Vec<u8> = style.iter().filter(|c| !c.is_ascii_whitespace()).map(u8::to_ascii_lowercase).collect();
    squeezed.split(|&c| c == b';').any(|d| d.starts_with(b"display:none"))
}

/// A tag name as a number: its first 16 bytes, lowercased. Longer names are no name this reader knows,
/// so sharing a key among them changes nothing.
pub(crate) fn key(name: &[u8]) -> u128 {
    let mut k = [0u8; 16];
    for (d, s) in k.iter_mut().zip(name) {
        *d = s.to_ascii_lowercase();
    }
    u128::from_le_bytes(k)
}

/// The lowercased name a key stands for.
pub(super) fn name_of(key: &u128) -> ([u8; 16], usize) {
    let k = key.to_le_bytes();
    let len = k.iter().position(|&c| c == 0).unwrap_or(16);
    (k, len)
}

/// Elements that start a line of their own: the blocks, and the pictures and form controls that the
/// corpora's stripper also puts on a line of their own (with them 95% of the pages agree exactly with
/// it, 63% without).
pub(super) fn breaks_line(name: u128) -> bool {
    let (k, len) = name_of(&name);
    is_block(name) || matches!(&k[..len], b"img" | b"input" | b"button" | b"label" | b"select" | b"textarea")
}

/// Block elements (a `<p>` does not hold one: it closes).
pub(super) fn is_block(name: u128) -> bool {
    let (k, len) = name_of(&name);
    matches!(
        &k[..len],
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

/// Elements that hold no content and have no end tag.
pub(crate) fn is_void(name: u128) -> bool {
    let (k, len) = name_of(&name);
    matches!(
        &k[..len],
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RawText {
    Shown,
    Dropped,
}

/// Elements whose content is text, not markup, up to their end tag.
pub(super) fn raw_text(name: u128) -> Option<RawText> {
    let (k, len) = name_of(&name);
    match &k[..len] {
        b"title" | b"textarea" => Some(RawText::Shown),
        b"script" | b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => Some(RawText::Dropped),
        _ => None,
    }
}
