//! Reading an HTML page into the lines a reader sees, in one pass over its bytes, with where each byte
//! of those lines comes from.
//!
//! The reader is a tag stripper that knows blocks: `<title>` and every block element or `<br>` break
//! the line; script, style, comments and what the page hides (`hidden`, `display: none`, `<template>`)
//! are dropped; character references are decoded; whitespace runs become one space; empty lines go.
//! It tokenizes as HTML does where that changes the text (raw text in `<script>`, quotes in attributes,
//! `<title>` and `<textarea>` read as text), and keeps a stack of open elements only to know where a
//! hidden element ends. Every search is linear over the page: a search never covers the same bytes twice.

use std::collections::HashMap;
use std::ops::Range;

use super::entity;
use super::map::{MapBuilder, SourceMap};
use super::search::{Needle, Search};

/// Choices about what of a page a reader sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Show what `<noscript>` holds (a reader with scripts off sees it; one with scripts on does not).
    pub noscript: bool,
    /// Drop elements the page hides: `hidden`, `display: none` in a style attribute, `<template>`.
    pub drop_hidden: bool,
}

impl Default for Reading {
    fn default() -> Reading {
        Reading { noscript: true, drop_hidden: true }
    }
}

/// The text of `html` as a reader sees it, the map back to `html`, and the bytes examined (the cost).
pub(crate) fn read(html: &str, reading: Reading) -> (String, SourceMap, u64) {
    let mut r = Reader {
        html,
        bytes: html.as_bytes(),
        search: Search::new(html.as_bytes()),
        reading,
        out: Lines::default(),
        open: Vec::new(),
        open_count: HashMap::new(),
        hidden: 0,
        work: 0,
    };
    r.run();
    let work = r.work + r.search.work;
    let Lines { text, map, .. } = r.out;
    let len = text.len();
    (text, map.finish(len, html.len()), work)
}

/// An open element: its name (see [`key`]) and whether it hides what it holds.
#[derive(Clone, Copy, Debug)]
struct Open {
    name: u128,
    hides: bool,
}

struct Reader<'a> {
    html: &'a str,
    bytes: &'a [u8],
    search: Search<'a>,
    reading: Reading,
    out: Lines,
    /// Open elements, innermost last.
    open: Vec<Open>,
    /// How many of each name are open: an end tag whose element is not open is ignored in O(1), and
    /// one that is pops through it; each element is pushed and popped once, so the stack costs O(tags).
    open_count: HashMap<u128, u32>,
    /// Open elements that hide what they hold.
    hidden: u32,
    /// Bytes looked at outside searches.
    work: u64,
}

impl Reader<'_> {
    fn run(&mut self) {
        let mut at = 0;
        while at < self.bytes.len() {
            let Some(lt) = self.search.find(Needle::Lt, at) else {
                self.text(at..self.bytes.len());
                break;
            };
            self.text(at..lt);
            at = self.markup(lt);
        }
    }

    /// Reads the markup at `lt` (a `<`); returns where text resumes.
    fn markup(&mut self, lt: usize) -> usize {
        let b = |i: usize| self.bytes.get(i).copied().unwrap_or(0);
        match b(lt + 1) {
            c if c.is_ascii_alphabetic() => match self.tag_end(lt + 1) {
                Some(gt) => self.start_tag(lt, gt),
                None => self.literal_lt(lt),
            },
            b'/' if b(lt + 2).is_ascii_alphabetic() => match self.search.find(Needle::Gt, lt + 2) {
                Some(gt) => {
                    self.end_tag(lt, gt);
                    gt + 1
                }
                None => self.literal_lt(lt),
            },
            b'/' if b(lt + 2) == b'>' => lt + 3,
            b'!' if self.bytes[lt..].starts_with(b"<!--") => {
                // `<!-->` and `<!--->` are empty comments; one never closed runs to the end, as in a browser
                let close = if self.bytes[lt + 4..].starts_with(b">") {
                    Some(lt + 2)
                } else if self.bytes[lt + 4..].starts_with(b"->") {
                    Some(lt + 3)
                } else {
                    self.search.find(Needle::CommentEnd, lt + 4)
                };
                close.map_or(self.bytes.len(), |c| c + 3)
            }
            // doctype, CDATA, processing instructions, `</ x>`: bogus comments up to the next `>`
            b'!' | b'?' | b'/' => self.search.find(Needle::Gt, lt + 2).map_or(self.bytes.len(), |gt| gt + 1),
            _ => self.literal_lt(lt),
        }
    }

    /// A `<` that starts no markup is text.
    fn literal_lt(&mut self, lt: usize) -> usize {
        if self.hidden == 0 {
            self.out.content("<", lt..lt + 1, true);
        }
        lt + 1
    }

    /// The `>` closing the tag whose name starts at `from`: the first one outside quoted attribute
    /// values. A quote with no `>` after its closing quote is read as a character, so a stray quote does
    /// not swallow the page. Every byte looked at belongs to the tag, and the searches are linear.
    fn tag_end(&mut self, from: usize) -> Option<usize> {
        // invariant: there is a `>` at or after `i`
        self.search.find(Needle::Gt, from)?;
        let mut i = from;
        let mut after_equals = false;
        loop {
            self.work += 1;
            match self.bytes[i] {
                b'>' => return Some(i),
                b'=' => after_equals = true,
                q @ (b'"' | b'\'') if after_equals => {
                    let needle = if q == b'"' { Needle::DoubleQuote } else { Needle::SingleQuote };
                    if let Some(close) = self.search.find(needle, i + 1)
                        && self.search.find(Needle::Gt, close + 1).is_some()
                    {
                        i = close;
                    }
                    after_equals = false;
                }
                c if c.is_ascii_whitespace() => {}
                _ => after_equals = false,
            }
            i += 1;
        }
    }

    fn start_tag(&mut self, lt: usize, gt: usize) -> usize {
        let tag = &self.bytes[lt + 1..gt];
        let name_len = tag.iter().position(|&c| c.is_ascii_whitespace() || c == b'/').unwrap_or(tag.len());
        self.work += (gt - lt) as u64;
        let name = key(&tag[..name_len]);
        let after = gt + 1;
        if breaks_line(name) {
            self.out.line_break(lt..after);
        }
        if let Some(kind) = raw_text(name) {
            return self.raw_text(name, kind, after);
        }
        if is_void(name) {
            return after;
        }
        self.close_implied(name);
        // a page hidden whole (`<body style="display:none">`) is one a script shows once it has loaded
        let whole_page = name == key(b"html") || name == key(b"body");
        let hides = self.reading.drop_hidden && !whole_page && (name == key(b"template") || hides(&tag[name_len..]))
            || !self.reading.noscript && name == key(b"noscript");
        self.open.push(Open { name, hides });
        *self.open_count.entry(name).or_default() += 1;
        self.hidden += u32::from(hides);
        after
    }

    /// A start tag closes an open element it cannot sit in (a `<p>` in a `<p>`, an `<li>` in an `<li>`),
    /// as a browser does; only the innermost element is looked at.
    fn close_implied(&mut self, name: u128) {
        let Some(top) = self.open.last() else { return };
        let ((n, n_len), (t, t_len)) = (name_of(&name), name_of(&top.name));
        let implied = match (&n[..n_len], &t[..t_len]) {
            (b"li", b"li") | (b"dt" | b"dd", b"dt" | b"dd") | (b"td" | b"th" | b"tr", b"td" | b"th") => true,
            (b"option", b"option") => true,
            (_, b"p") => is_block(name),
            _ => false,
        };
        if implied {
            self.pop();
        }
    }

    fn end_tag(&mut self, lt: usize, gt: usize) {
        let tag = &self.bytes[lt + 2..gt];
        let name_len = tag.iter().position(|&c| c.is_ascii_whitespace() || c == b'/').unwrap_or(tag.len());
        self.work += (gt - lt) as u64;
        let name = key(&tag[..name_len]);
        if self.open_count.get(&name).is_some_and(|&n| n > 0) {
            while let Some(top) = self.pop()
                && top.name != name
            {}
        }
        if breaks_line(name) {
            self.out.line_break(lt..gt + 1);
        }
    }

    fn pop(&mut self) -> Option<Open> {
        let top = self.open.pop()?;
        *self.open_count.get_mut(&top.name).expect("counted when pushed") -= 1;
        self.hidden -= u32::from(top.hides);
        Some(top)
    }

    /// The content of a raw-text element starting at `from`, up to its end tag (or the end of the page):
    /// shown as text for `<title>` and `<textarea>`, dropped for scripts, styles and frames' fallback.
    fn raw_text(&mut self, name: u128, kind: RawText, from: usize) -> usize {
        let mut at = from;
        let end = loop {
            let Some(open) = self.search.find(Needle::EndTagOpen, at) else { break self.bytes.len() };
            let rest = &self.bytes[open + 2..];
            let n = rest.iter().take(16).position(|c| !c.is_ascii_alphanumeric()).unwrap_or(rest.len().min(16));
            self.work += n as u64 + 2;
            let closes = matches!(rest.get(n), None | Some(b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0c'));
            if closes && key(&rest[..n]) == name {
                break open;
            }
            at = open + 2;
        };
        if kind == RawText::Shown {
            self.text(from..end);
        }
        end
    }

    /// Text between markup: decoded, whitespace collapsed, unless hidden.
    fn text(&mut self, range: Range<usize>) {
        if self.hidden > 0 || range.is_empty() {
            return;
        }
        let (bytes, html) = (self.bytes, self.html);
        self.work += range.len() as u64;
        let mut i = range.start;
        // start of the word being copied
        let mut word = i;
        while i < range.end {
            let c = bytes[i];
            if c < 0x80 && c != b'&' && !is_space(c) {
                i += 1;
                continue;
            }
            if c >= 0x80 {
                let ch = html[i..].chars().next().expect("a char boundary");
                if !ch.is_whitespace() {
                    i += ch.len_utf8();
                    continue;
                }
                self.out.content(&html[word..i], word..i, true);
                self.out.space(i..i + ch.len_utf8(), false);
                i += ch.len_utf8();
                word = i;
                continue;
            }
            if is_space(c) {
                self.out.content(&html[word..i], word..i, true);
                self.out.space(i..i + 1, c == b' ');
                i += 1;
                word = i;
                continue;
            }
            // `&`
            let Some((len, a, b)) = entity::decode(&bytes[i..range.end]) else {
                i += 1;
                continue;
            };
            self.out.content(&html[word..i], word..i, true);
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
        self.out.content(&html[word..range.end], word..range.end, true);
    }
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'\x0b')
}

/// Whether a start tag's attributes hide the element: `hidden`, or a style with `display: none`.
fn hides(attributes: &[u8]) -> bool {
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
fn key(name: &[u8]) -> u128 {
    let mut k = [0u8; 16];
    for (d, s) in k.iter_mut().zip(name) {
        *d = s.to_ascii_lowercase();
    }
    u128::from_le_bytes(k)
}

/// The lowercased name a key stands for.
fn name_of(key: &u128) -> ([u8; 16], usize) {
    let k = key.to_le_bytes();
    let len = k.iter().position(|&c| c == 0).unwrap_or(16);
    (k, len)
}

/// Elements that start a line of their own: the blocks, and the pictures and form controls that the
/// corpora's stripper also puts on a line of their own (with them 95% of the pages agree exactly with
/// it, 63% without).
fn breaks_line(name: u128) -> bool {
    let (k, len) = name_of(&name);
    is_block(name) || matches!(&k[..len], b"img" | b"input" | b"button" | b"label" | b"select" | b"textarea")
}

/// Block elements (a `<p>` does not hold one: it closes).
fn is_block(name: u128) -> bool {
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
fn is_void(name: u128) -> bool {
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
enum RawText {
    Shown,
    Dropped,
}

/// Elements whose content is text, not markup, up to their end tag.
fn raw_text(name: u128) -> Option<RawText> {
    let (k, len) = name_of(&name);
    match &k[..len] {
        b"title" | b"textarea" => Some(RawText::Shown),
        b"script" | b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => Some(RawText::Dropped),
        _ => None,
    }
}

/// The view's text as it is written: words, one space between them, one line break between blocks,
/// nothing at the start or end of a line, no empty line.
#[derive(Default)]
struct Lines {
    text: String,
    map: MapBuilder,
    /// The current line has text.
    line_has_text: bool,
    /// Whitespace seen after the last word of the line: a space if more text follows on the line.
    space: Option<(Range<usize>, bool)>,
    /// A block boundary seen after the line's text: a line break if more text follows.
    line_break: Option<Range<usize>>,
}

impl Lines {
    fn content(&mut self, s: &str, source: Range<usize>, verbatim: bool) {
        if s.is_empty() {
            return;
        }
        if let Some(brk) = self.line_break.take() {
            self.map.whole(self.text.len(), brk);
            self.text.push('\n');
            self.space = None;
        } else if let Some((space, plain)) = self.space.take() {
            if plain {
                // a lone space: as verbatim as the words around it, so they stay one run
                self.map.verbatim(self.text.len(), space.start, 1);
            } else {
                self.map.whole(self.text.len(), space);
            }
            self.text.push(' ');
        }
        if verbatim {
            self.map.verbatim(self.text.len(), source.start, s.len());
        } else {
            self.map.whole(self.text.len(), source);
        }
        self.text.push_str(s);
        self.line_has_text = true;
    }

    /// Whitespace at `source`; `plain` when it is one `' '`.
    fn space(&mut self, source: Range<usize>, plain: bool) {
        if !self.line_has_text {
            return;
        }
        self.space = Some(match self.space.take() {
            Some((s, _)) => (s.start..source.end, false),
            None => (source, plain),
        });
    }

    /// A block boundary at `source`. The line break stands for all the markup and space from the first
    /// boundary after the line's text to the last one before the next line's.
    fn line_break(&mut self, source: Range<usize>) {
        if self.line_has_text {
            self.line_has_text = false;
            self.line_break = Some(source);
            self.space = None;
        } else if let Some(brk) = &mut self.line_break {
            brk.end = source.end;
        }
    }
}
