//! Reading an HTML page into the lines a reader sees, with where each byte of those lines comes from.
//!
//! The page is tokenized by html5gum, a WHATWG-conforming tokenizer that gives every token its byte span;
//! this reader knows blocks: `<title>` and every block element or `<br>` break the line; script, style,
//! comments and what the page hides (`hidden`, `display: none`, `<template>`) are dropped; character
//! references are decoded from each text token's own bytes, so every character of the view maps to the
//! bytes it came from; whitespace runs become one space; empty lines go. It switches the tokenizer to raw
//! text where an element's content is text (`<script>`, `<style>`, `<title>`, `<textarea>`), and keeps a
//! stack of open elements only to know where a hidden element ends. The tokenizer reads each byte once.

use std::collections::HashMap;
use std::ops::Range;

use html5gum::{DefaultEmitter, Emitter, ForwardingEmitter, State, Token, Tokenizer};

use super::elements::{RawText, breaks_line, hides, is_block, is_void, key, name_of, raw_text};
use super::entity;
use super::map::SourceMap;
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
        raw: None,
        reading,
        out: Lines::default(),
        open: Vec::new(),
        open_count: HashMap::new(),
        hidden: 0,
        work: 0,
    };
    r.run();
    // the tokenizer reads every byte once
    let work = r.work + html.len() as u64;
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
    /// Inside an element whose content is text (see [`raw_text`]): shown or dropped.
    raw: Option<RawText>,
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
        let mut emitter = DefaultEmitter::<usize>::new_with_span();
        // the reader switches states itself: `<noscript>` is markup to a reader with scripts off
        emitter.naively_switch_states(false);
        let mut tokens = Tokenizer::new_with_emitter(self.html, Quiet(emitter));
        while let Some(Ok(token)) = tokens.next() {
            match token {
                Token::StartTag(tag) => {
                    let (lt, gt) = (tag.span.start, tag.span.end.saturating_sub(1));
                    if let Some(kind) = self.start_tag(lt, gt) {
                        self.raw = Some(kind);
                        // the emitter remembers the start tag: its end tag closes the raw text
                        tokens.set_state(match &tag.name[..] {
                            b"title" | b"textarea" => State::RcData,
                            b"script" => State::ScriptData,
                            _ => State::RawText,
                        });
                    }
                }
                Token::EndTag(tag) => {
                    self.raw = None;
                    self.end_tag(tag.span.start, tag.span.end.saturating_sub(1));
                }
                Token::String(text) => {
                    if self.raw != Some(RawText::Dropped) {
                        self.text(text.span.start..text.span.end);
                    }
                }
                Token::Comment(_) | Token::Doctype(_) | Token::Error(_) => {}
            }
        }
    }

    /// A start tag spanning `lt..=gt`; returns the kind of its content when that is text, not markup.
    fn start_tag(&mut self, lt: usize, gt: usize) -> Option<RawText> {
        let tag = &self.bytes[(lt + 1).min(gt)..gt];
        let name_len = tag.iter().position(|&c| c.is_ascii_whitespace() || c == b'/').unwrap_or(tag.len());
        self.work += (gt - lt) as u64;
        let name = key(&tag[..name_len]);
        let after = gt + 1;
        if breaks_line(name) {
            self.out.line_break(lt..after);
        }
        if let Some(kind) = raw_text(name) {
            return Some(kind);
        }
        if is_void(name) {
            return None;
        }
        self.close_implied(name);
        // a page hidden whole (`<body style="display:none">`) is one a script shows once it has loaded
        let whole_page = name == key(b"html") || name == key(b"body");
        let hides = self.reading.drop_hidden && !whole_page && (name == key(b"template") || hides(&tag[name_len..]))
            || !self.reading.noscript && name == key(b"noscript");
        self.open.push(Open { name, hides });
        *self.open_count.entry(name).or_default() += 1;
        self.hidden += u32::from(hides);
        None
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
        let tag = &self.bytes[(lt + 2).min(gt)..gt];
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

/// The default emitter, reporting no parse errors: a reader has no use for them, and checking every
/// character for them took a fifth of the tokenizer's time.
struct Quiet(DefaultEmitter<usize>);

impl ForwardingEmitter for Quiet {
    type Token = <DefaultEmitter<usize> as Emitter>::Token;

    fn inner(&mut self) -> &mut impl Emitter<Token = Self::Token> {
        &mut self.0
    }

    fn should_emit_errors(&mut self) -> bool {
        false
    }
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'\x0b')
}
