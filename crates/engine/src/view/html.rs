//! Reading an HTML page into the lines a reader sees, with where each byte of those lines comes from.
//!
//! The page is tokenized by the view's own tokenizer (`view::tokenizer`: the WHATWG tokenizer's states,
//! reading as html5gum does, handing over text runs and tags by byte span without copying them);
//! this reader knows blocks: `<title>` and every block element or `<br>` break the line; script, style,
//! comments, what the page hides (`hidden`, `display: none`, `<template>`) and what no browser draws (the
//! fallback inside `<video>`, `<audio>`, `<canvas>`; an `<svg>` icon's `<title>` and `<desc>`, tooltips
//! for screen readers, which would otherwise be a line "Share on Facebook" per icon) are dropped; character
//! references are decoded from each text token's own bytes, so every character of the view maps to the
//! bytes it came from; whitespace runs become one space (inside a `<pre>`, one line break where they hold
//! one, and a line's indentation is kept: code and verse keep their lines); empty lines go. It switches
//! the tokenizer to raw text where an element's content is text (`<script>`, `<style>`, `<title>`, `<textarea>`), and keeps a
//! stack of open elements only to know where a hidden element ends. The tokenizer reads each byte once.
//!
//! Truncated pages are read as a reader expects, not as the standard says: a `<title>` (or `<script>`,
//! `<style>`, …) never closed ends at the next tag, and a `<!--` never closed ends at the next `>`, as
//! lxml and older browsers read them. The standard makes the rest of such a page title text or a comment,
//! and crawls hold many pages cut off inside a comment or a head. Whether an element or a comment is
//! closed later is known from one scan of the page, made before tokenizing.

use std::ops::Range;

// tag names are the keys: hashed on every tag, so the fast hasher
use foldhash::{HashMap, HashMapExt};

use super::elements::{
    RawText, breaks_line, hides, holds_fallback, is_block, is_void, key, name_of, named, raw_text, undrawn_in_svg,
};
use super::entity;
use super::map::SourceMap;
use super::structure::{PathId, Structure};
use super::tokenizer::{Handler, Raw, Tag, tokenize};
use super::writer::Lines;

/// Choices about what of a page a reader sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Show what `<noscript>` holds (a reader with scripts off sees it; one with scripts on does not).
    /// Off by default: browsers run scripts, and what pages put there is a fallback ("Media requires
    /// JavaScript to play", a tracking pixel's alt text), not their article.
    pub noscript: bool,
    /// Drop elements the page hides (`hidden`, `display: none` in a style attribute, `<template>`) and
    /// what no browser draws (a `<video>`'s, `<audio>`'s or `<canvas>`'s fallback, an `<svg>`'s `<title>`
    /// and `<desc>`).
    pub drop_hidden: bool,
}

impl Default for Reading {
    fn default() -> Reading {
        Reading { noscript: false, drop_hidden: true }
    }
}

/// The text of `html` as a reader sees it, the map back to `html`, and the bytes examined (the cost).
pub(crate) fn read(html: &str, reading: Reading) -> (String, SourceMap, Structure, u64) {
    let mut r = Reader {
        html,
        bytes: html.as_bytes(),
        closes: Closes::of(html.as_bytes()),
        raw: None,
        unclosed: false,
        reading,
        out: Lines::default(),
        open: Vec::new(),
        open_count: HashMap::new(),
        hidden: 0,
        links: 0,
        pre: 0,
        work: 0,
    };
    r.run();
    // the tokenizer reads every byte once
    let work = r.work + 2 * html.len() as u64;
    let Lines { text, map, structure, .. } = r.out;
    let len = text.len();
    (text, map.finish(len, html.len()), structure, work)
}

/// An open element: its name (see [`key`]) and whether it hides what it holds.
#[derive(Clone, Copy, Debug)]
struct Open {
    name: u128,
    hides: bool,
    /// Its element path (see [`Structure`]).
    path: PathId,
}

struct Reader<'a> {
    html: &'a str,
    bytes: &'a [u8],
    /// Where the page's raw-text elements and comments are last closed.
    closes: Closes,
    /// Inside an element whose content is text (see [`raw_text`]): shown or dropped.
    raw: Option<RawText>,
    /// That element is never closed: its text ends at the next tag.
    unclosed: bool,
    reading: Reading,
    out: Lines,
    /// Open elements, innermost last.
    open: Vec<Open>,
    /// How many of each name are open: an end tag whose element is not open is ignored in O(1), and
    /// one that is pops through it; each element is pushed and popped once, so the stack costs O(tags).
    open_count: HashMap<u128, u32>,
    /// Open elements that hide what they hold.
    hidden: u32,
    /// Open `<a>` elements.
    links: u32,
    /// Open `<pre>` elements: their line breaks are the text's (code, a poem), as a browser shows them.
    pre: u32,
    /// Bytes looked at outside searches.
    work: u64,
}

impl Reader<'_> {
    fn run(&mut self) {
        let open = std::mem::take(&mut self.closes.open_comments);
        let html = self.html;
        self.work += tokenize_page(html.as_bytes(), &open, &mut Slice { reader: self }) as u64;
    }

    /// A tag at `lt..=gt` ends the text of a raw-text element that is never closed: the line it shows
    /// ends there, its break standing for the tag.
    fn end_unclosed(&mut self, lt: usize, gt: usize) {
        if std::mem::take(&mut self.unclosed) {
            if self.raw == Some(RawText::Shown) {
                self.out.line_break(lt..gt + 1);
            }
            self.raw = None;
        }
    }

    /// A start tag spanning `lt..=gt`; returns the kind of its content when that is text, not markup.
    fn start_tag(&mut self, lt: usize, gt: usize, id: Option<&[u8]>, class: Option<&[u8]>) -> Option<RawText> {
        let tag = &self.bytes[(lt + 1).min(gt)..gt];
        let name_len = tag.iter().position(|&c| c.is_ascii_whitespace() || c == b'/').unwrap_or(tag.len());
        self.work += (gt - lt) as u64;
        let name = key(&tag[..name_len]);
        let after = gt + 1;
        let undrawn = self.reading.drop_hidden && undrawn_in_svg(name) && self.in_svg();
        if breaks_line(name) && !undrawn {
            self.out.line_break(lt..after);
        }
        if !undrawn && let Some(kind) = raw_text(name) {
            return Some(kind);
        }
        if is_void(name) {
            return None;
        }
        self.close_implied(name);
        // a page hidden whole (`<body style="display:none">`) is one a script shows once it has loaded
        let whole_page = name == key(b"html") || name == key(b"body");
        let hides = self.reading.drop_hidden && !whole_page && (name == key(b"template") || hides(&tag[name_len..]))
            || !self.reading.noscript && name == key(b"noscript")
            || undrawn
            || self.reading.drop_hidden && holds_fallback(name);
        let (lower, len) = name_of(&name);
        let path = self.out.structure.child(self.out.path, &lower[..len], id, class);
        self.open.push(Open { name, hides, path });
        *self.open_count.entry(name).or_default() += 1;
        self.hidden += u32::from(hides);
        self.links += u32::from(name == key(b"a"));
        self.pre += u32::from(name == key(b"pre"));
        self.set_place();
        None
    }

    /// A start tag closes an open element it cannot sit in (a `<p>` in a `<p>`, an `<li>` in an `<li>`),
    /// as a browser does; only the innermost element is looked at.
    fn close_implied(&mut self, name: u128) {
        const LI: u128 = key(b"li");
        const DT: u128 = key(b"dt");
        const DD: u128 = key(b"dd");
        const TD: u128 = key(b"td");
        const TH: u128 = key(b"th");
        const TR: u128 = key(b"tr");
        const OPTION: u128 = key(b"option");
        const P: u128 = key(b"p");
        let Some(top) = self.open.last() else { return };
        let implied = match (named(name), named(top.name)) {
            (LI, LI) | (DT | DD, DT | DD) | (TD | TH | TR, TD | TH) => true,
            (OPTION, OPTION) => true,
            (_, P) => is_block(name),
            _ => false,
        };
        if implied {
            self.pop();
        }
    }

    fn end_tag(&mut self, lt: usize, gt: usize) {
        let tag = &self.bytes[(lt + 2).min(gt)..gt];
        let name_len = tag.iter().position(|&c| c.is_ascii_whitespace() || c == b'/').unwrap_or(tag.len());
        self.work += (gt - lt) as u64;
        let name = key(&tag[..name_len]);
        if self.open_count.get(&name).is_some_and(|&n| n > 0) {
            while let Some(top) = self.pop()
                && top.name != name
            {}
        }
        if breaks_line(name) && !(self.reading.drop_hidden && undrawn_in_svg(name) && self.in_svg()) {
            self.out.line_break(lt..gt + 1);
        }
    }

    /// Whether an `<svg>` is open: its `<title>` is a tooltip, not the page's title.
    fn in_svg(&self) -> bool {
        self.open_count.get(&key(b"svg")).is_some_and(|&n| n > 0)
    }

    fn pop(&mut self) -> Option<Open> {
        let top = self.open.pop()?;
        *self.open_count.get_mut(&top.name).expect("counted when pushed") -= 1;
        self.hidden -= u32::from(top.hides);
        self.links -= u32::from(top.name == key(b"a"));
        self.pre -= u32::from(top.name == key(b"pre"));
        self.set_place();
        Some(top)
    }

    /// Tells the writer where text written now sits: the innermost open element's path, in a link or not.
    fn set_place(&mut self) {
        self.out.path = self.open.last().map_or(0, |o| o.path);
        self.out.in_link = self.links > 0;
    }

    /// Text between markup: decoded, whitespace collapsed, unless hidden.
    fn text(&mut self, range: Range<usize>) {
        if self.hidden > 0 || range.is_empty() {
            return;
        }
        let (bytes, html) = (self.bytes, self.html);
        self.work += range.len() as u64;
        let mut i = range.start;
        // start of the words being copied, and the lone spaces between them copied with them
        let mut word = i;
        let mut spaces = 0;
        while i < range.end {
            let c = bytes[i];
            if !SPECIAL[usize::from(c)] {
                i += 1;
                continue;
            }
            if c == b' ' && i > word && i + 1 < range.end && !SPECIAL[usize::from(bytes[i + 1])] {
                // one space between two words: written as the words around it are, so they go as one
                spaces += 1;
                i += 1;
                continue;
            }
            if c >= 0x80 {
                let ch = html[i..].chars().next().expect("a char boundary");
                if !ch.is_whitespace() {
                    i += ch.len_utf8();
                    continue;
                }
                self.out.content_spaced(&html[word..i], word..i, true, std::mem::take(&mut spaces));
                self.out.space(i..i + ch.len_utf8(), false);
                i += ch.len_utf8();
                word = i;
                continue;
            }
            if is_space(c) {
                self.out.content_spaced(&html[word..i], word..i, true, std::mem::take(&mut spaces));
                // a run of spaces is one space, as its bytes one by one would make it
                let run = bytes[i..range.end].iter().position(|&b| !is_space(b)).unwrap_or(range.end - i);
                // preformatted text breaks where its source does, and keeps its lines' indentation
                let newline =
                    if self.pre > 0 { bytes[i..i + run].iter().rposition(|&b| b == b'\n' || b == b'\r') } else { None };
                match newline {
                    Some(last) => {
                        self.out.line_break(i..i + last + 1);
                        self.out.indent(&html[i + last + 1..i + run], i + last + 1..i + run);
                    }
                    None if self.pre > 0 && self.out.at_line_start() => self.out.indent(&html[i..i + run], i..i + run),
                    _ => self.out.space(i..i + run, run == 1 && c == b' '),
                }
                i += run;
                word = i;
                continue;
            }
            // `&`
            let Some((len, a, b)) = entity::decode(&bytes[i..range.end]) else {
                i += 1;
                continue;
            };
            self.out.content_spaced(&html[word..i], word..i, true, std::mem::take(&mut spaces));
            let source = i..i + len;
            if a.is_whitespace() && b.is_none() {
                self.out.space(source, false);
            } else {
                let mut buf = [0u8; 8];
                let n = a.encode_utf8(&mut buf).len();
                let n = n + b.map_or(0, |b| b.encode_utf8(&mut buf[n..]).len());
                self.out.content(std::str::from_utf8(&buf[..n]).expect("chars"), source, false);
            }
            i += len;
            word = i;
        }
        self.out.content_spaced(&html[word..range.end], word..range.end, true, spaces);
    }
}

/// The bytes that end a run of word bytes in text: whitespace, `&`, and every byte of a character
/// above ASCII (which may be a space).
static SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = c >= 0x80 || c == b'&' as usize || is_space(c as u8);
        c += 1;
    }
    t
};

/// The reader as the tokenizer's handler.
struct Slice<'r, 'a> {
    reader: &'r mut Reader<'a>,
}

impl Handler for Slice<'_, '_> {
    fn start_tag(&mut self, tag: &Tag) -> Option<Raw> {
        let r = &mut *self.reader;
        let (lt, gt) = (tag.span.start, tag.span.end.saturating_sub(1));
        r.end_unclosed(lt, gt);
        let kind = r.start_tag(lt, gt, tag.id, tag.class)?;
        r.raw = Some(kind);
        if r.closes.raw_text_after(tag.name, gt) {
            // the tokenizer remembers the start tag: its end tag closes the raw text
            Some(raw_state(tag.name))
        } else {
            r.unclosed = true;
            None
        }
    }

    fn end_tag(&mut self, tag: &Tag) {
        let r = &mut *self.reader;
        let (lt, gt) = (tag.span.start, tag.span.end.saturating_sub(1));
        r.end_unclosed(lt, gt);
        r.raw = None;
        r.end_tag(lt, gt);
    }

    fn text(&mut self, span: Range<usize>) {
        let r = &mut *self.reader;
        if r.raw != Some(RawText::Dropped) {
            r.text(span);
        }
    }
}

/// How the tokenizer reads the content of a raw-text element ([`raw_text`]) named `name`.
fn raw_state(name: &[u8]) -> Raw {
    match name {
        b"title" | b"textarea" => Raw::RcData,
        b"script" => Raw::ScriptData,
        _ => Raw::Text,
    }
}

/// How the view reads the content of an element named `name` whose end tag follows: as text (`<title>`,
/// `<textarea>`: shown) or as code (`<script>`, `<style>`, `<iframe>`…: dropped), not as markup.
pub(crate) fn raw_kind(name: &[u8]) -> Option<Raw> {
    raw_text(key(name)).map(|_| raw_state(name))
}

/// Tokenizes `page` as the view reads it, handing `handler` spans of the page: a comment never closed
/// (`open`, from [`Closes`]) ends at the next `>`, and reading goes on after it, where the tokenizer
/// alone would read the rest of the page as that comment. Returns the bytes passed over so.
pub(crate) fn tokenize_page<H: Handler>(page: &[u8], open: &[usize], handler: &mut H) -> usize {
    let (mut from, mut passed) = (0, 0);
    let mut open = open.iter().copied().peekable();
    while from < page.len() && !handler.done() {
        while open.next_if(|&c| c < from).is_some() {}
        let to = open.next().unwrap_or(page.len());
        tokenize(&page[from..to], &mut Offset { handler: &mut *handler, base: from });
        if to == page.len() {
            break;
        }
        let after = (to + 4).min(page.len());
        from = page[after..].iter().position(|&b| b == b'>').map_or(page.len(), |p| after + p + 1);
        handler.passed(to..from);
        passed += from - to;
    }
    passed
}

/// A handler of one slice of the page (from `base`): the tokenizer's spans are the slice's.
struct Offset<'h, H> {
    handler: &'h mut H,
    base: usize,
}

impl<H: Handler> Offset<'_, H> {
    fn tag<'t>(&self, tag: &Tag<'t>) -> Tag<'t> {
        Tag { span: self.base + tag.span.start..self.base + tag.span.end, ..*tag }
    }
}

impl<H: Handler> Handler for Offset<'_, H> {
    fn text(&mut self, span: Range<usize>) {
        self.handler.text(self.base + span.start..self.base + span.end);
    }

    fn start_tag(&mut self, tag: &Tag) -> Option<Raw> {
        let tag = self.tag(tag);
        self.handler.start_tag(&tag)
    }

    fn end_tag(&mut self, tag: &Tag) {
        let tag = self.tag(tag);
        self.handler.end_tag(&tag);
    }

    fn done(&self) -> bool {
        self.handler.done()
    }
}

/// Where a page closes its raw-text elements and comments, found in one scan: an element opened after its
/// name's last end tag, or a comment opened after the last `-->`, is never closed.
pub(crate) struct Closes {
    /// The last `</name` of each raw-text element name (see [`raw_text`]), by [`key`].
    raw_text: HashMap<u128, usize>,
    /// Every `<!--` after the last `-->`, in order: the comments never closed.
    open_comments: Vec<usize>,
}

impl Closes {
    pub(crate) fn of(bytes: &[u8]) -> Closes {
        let mut raw_text_ends = HashMap::new();
        // each `</` once (each `<` found a word at a time); a later one of a name replaces an earlier
        for at in memchr::memchr_iter(b'<', bytes).filter(|&at| bytes.get(at + 1) == Some(&b'/')) {
            let name = &bytes[at + 2..];
            let len = name.iter().take(9).position(|c| !c.is_ascii_alphabetic()).unwrap_or(0);
            let k = key(&name[..len]);
            if len > 0 && raw_text(k).is_some() {
                raw_text_ends.insert(k, at);
            }
        }
        // a `-->` closes every comment opened before it: those never closed open after the last one
        let after = memchr::memmem::rfind(bytes, b"-->").map_or(0, |at| at + 3);
        let open_comments = memchr::memmem::find_iter(&bytes[after..], b"<!--").map(|at| after + at).collect();
        Closes { raw_text: raw_text_ends, open_comments }
    }

    /// Where the comments never closed open, in order.
    pub(crate) fn open_comments(&self) -> &[usize] {
        &self.open_comments
    }

    /// Whether the end tag at `lt` is the last of its raw-text element's name: the one that closes, or
    /// not, every start tag of that name before it.
    pub(crate) fn is_last_end(&self, name: &[u8], lt: usize) -> bool {
        self.raw_text.get(&key(name)) == Some(&lt)
    }

    /// Whether the raw-text element `name`, whose start tag ends at `gt`, has an end tag after it.
    pub(crate) fn raw_text_after(&self, name: &[u8], gt: usize) -> bool {
        self.raw_text.get(&key(name)).is_some_and(|&end| end > gt)
    }
}

const fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'\x0b')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `<` and `>` in order, as the oracle: a `>` after `--` closes the comments opened so far.
    fn closes_read_in_order(bytes: &[u8]) -> (Vec<(u128, usize)>, Vec<usize>) {
        let mut ends = HashMap::new();
        let mut open = Vec::new();
        for (at, &b) in bytes.iter().enumerate() {
            let rest = &bytes[at..];
            if b == b'>' {
                if at >= 2 && &bytes[at - 2..at] == b"--" {
                    open.clear();
                }
            } else if rest.starts_with(b"<!--") {
                open.push(at);
            } else if let Some(name) = rest.strip_prefix(b"</") {
                let len = name.iter().take(9).position(|c| !c.is_ascii_alphabetic()).unwrap_or(0);
                if len > 0 && raw_text(key(&name[..len])).is_some() {
                    ends.insert(key(&name[..len]), at);
                }
            }
        }
        let mut ends: Vec<(u128, usize)> = ends.into_iter().collect();
        ends.sort_unstable();
        (ends, open)
    }

    #[test]
    fn closes_found_by_searching_are_those_read_in_order() {
        let pieces: [&[u8]; 14] = [
            b"<",
            b">",
            b"!",
            b"-",
            b"/",
            b"<!--",
            b"-->",
            b"</script",
            b"</SCRIPT>",
            b"</title>",
            b"</tit",
            b"a",
            b" ",
            b"</style",
        ];
        let mut seed = 7u64;
        for _ in 0..3000 {
            let mut page = Vec::new();
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            for _ in 0..(seed >> 59) {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                page.extend_from_slice(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let c = Closes::of(&page);
            let mut ends: Vec<(u128, usize)> = c.raw_text.into_iter().collect();
            ends.sort_unstable();
            assert_eq!((ends, c.open_comments), closes_read_in_order(&page), "{:?}", String::from_utf8_lossy(&page));
        }
    }
}
