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

use super::elements::{RawText, breaks_line, hides, is_block, is_void, key, name_of, raw_text};
use super::entity;
use super::map::SourceMap;
use super::search::{Needle, Search};
use super::writer::Lines;

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
