//! The page view's HTML tokenizer: the WHATWG tokenizer's states, reduced to what a reader of the page's
//! own bytes needs: where each run of text is, and each tag's span, name, self-closing flag, and a start
//! tag's first `id` and `class` (references decoded). Text is never copied or decoded here (the readers
//! decode it from the page's bytes); comments, doctypes and bogus comments are skipped to their end; a
//! text run is found a word at a time (`memchr`), and so are attribute values and comment bodies.
//!
//! It reads exactly as html5gum reads (the tokenizer the view was built on): the same states, the same
//! spans, the same text runs (one run from the end of a markup construct to the start of the next, so
//! `a</>b` is one run: `</>` is no token), CR and CR LF read as LF in tags, U+0000 as U+FFFD in names and
//! values. A property test compares every event with html5gum's on generated markup.

use std::ops::Range;

use super::entity;

/// A tag as the tokenizer hands it over.
#[derive(Debug)]
pub(crate) struct Tag<'a> {
    /// From its `<` to its `>` included.
    pub(crate) span: Range<usize>,
    /// Lowercased, U+0000 as U+FFFD.
    pub(crate) name: &'a [u8],
    pub(crate) self_closing: bool,
    /// The first `id` and `class` attribute of a start tag, references decoded; `None` when absent.
    pub(crate) id: Option<&'a [u8]>,
    pub(crate) class: Option<&'a [u8]>,
}

/// How an element's content is read when it is text, not markup (the standard's tokenizer states).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Raw {
    /// `<title>`, `<textarea>`: text with references, up to the element's end tag.
    RcData,
    /// `<style>`, `<xmp>`, `<iframe>`, …: text up to the element's end tag.
    Text,
    /// `<script>`: text up to its end tag, outside `<!-- <script> … </script> -->` escapes.
    ScriptData,
}

/// What reads the tokens.
pub(crate) trait Handler {
    /// Text at `span` of the input (raw text too: a script's or a title's).
    fn text(&mut self, span: Range<usize>);
    /// A start tag; returns how its content is read when that is text, not markup (the caller decides:
    /// a title never closed is read as markup).
    fn start_tag(&mut self, tag: &Tag) -> Option<Raw>;
    fn end_tag(&mut self, tag: &Tag);
    /// A comment never closed, `<!--` to the next `>`, that the page view passes over
    /// ([`super::tokenize_page`]).
    fn passed(&mut self, _span: Range<usize>) {}
    /// Whether the handler has read all it needs: the tokenizer stops.
    fn done(&self) -> bool {
        false
    }
}

/// Tokenizes `input`, handing every text run and tag to `handler` in order.
pub(crate) fn tokenize<H: Handler>(input: &[u8], handler: &mut H) {
    let mut t = Tokenizer {
        b: input,
        handler,
        text: None,
        mark: 0,
        name: Vec::new(),
        last_start_tag: Vec::new(),
        attribute: Attributes::default(),
    };
    t.run();
}

/// The first byte at or after `i` that is not a space; `None` at the end of the input.
fn skip_spaces(b: &[u8], mut i: usize) -> Option<usize> {
    while is_space(*b.get(i)?) {
        i += 1;
    }
    Some(i)
}

fn is_space(c: u8) -> bool {
    // CR is read as LF
    matches!(c, b'\t' | b'\n' | b'\x0c' | b' ' | b'\r')
}

const REPLACEMENT: &[u8] = "\u{fffd}".as_bytes();

/// The first `id` and `class` values of a tag, in buffers kept from tag to tag.
#[derive(Default)]
struct Attributes {
    id: Vec<u8>,
    class: Vec<u8>,
    has_id: bool,
    has_class: bool,
}

/// Which attribute's value is kept.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kept {
    None,
    Id,
    Class,
}

/// A tag read to its end: where it ends (after its `>`) and whether it closes itself.
struct TagEnd {
    end: usize,
    self_closing: bool,
}

struct Tokenizer<'a, 'h, H> {
    b: &'a [u8],
    handler: &'h mut H,
    /// Text read and not yet handed over: its span.
    text: Option<Range<usize>>,
    /// Where a text run starts: where reading text last resumed while no text was pending (a raw-text
    /// element's run starts where the text before its start tag resumed, as html5gum's does).
    mark: usize,
    /// The tag being read's name, and the last start tag's (an end tag in raw text must match it).
    name: Vec<u8>,
    last_start_tag: Vec<u8>,
    attribute: Attributes,
}

impl<H: Handler> Tokenizer<'_, '_, H> {
    /// Text `from..to` read (never empty).
    fn text(&mut self, to: usize) {
        match &mut self.text {
            Some(t) => t.end = to,
            None => self.text = Some(self.mark..to),
        }
    }

    fn flush(&mut self) {
        if let Some(t) = self.text.take() {
            self.handler.text(t);
        }
    }

    /// Reading text resumes at `at` (the data state is entered).
    fn resume(&mut self, at: usize) {
        if self.text.is_none() {
            self.mark = at;
        }
    }

    /// The data state from 0 to the end.
    fn run(&mut self) {
        let len = self.b.len();
        let mut pos = 0;
        while pos < len && !self.handler.done() {
            let Some(lt) = memchr::memchr(b'<', &self.b[pos..]).map(|k| pos + k) else {
                self.text(len);
                break;
            };
            if lt > pos {
                self.text(lt);
            }
            pos = match self.markup(lt) {
                Some(next) => next,
                None => len,
            };
        }
        self.flush();
    }

    /// The markup starting with the `<` at `lt`; returns where reading goes on (`None`: the end).
    fn markup(&mut self, lt: usize) -> Option<usize> {
        let b = self.b;
        match b.get(lt + 1) {
            None => {
                self.text(lt + 1);
                None
            }
            Some(b'!') => {
                self.flush();
                let end = if b[lt + 2..].starts_with(b"--") {
                    comment_end(b, lt + 4)
                } else if b.len() >= lt + 9 && b[lt + 2..lt + 9].eq_ignore_ascii_case(b"DOCTYPE") {
                    after_gt(b, lt + 9)
                } else {
                    after_gt(b, lt + 2)
                };
                self.resume(end);
                Some(end)
            }
            Some(b'/') => match b.get(lt + 2) {
                None => {
                    self.text(lt + 2);
                    None
                }
                Some(c) if c.is_ascii_alphabetic() => {
                    let TagEnd { end, .. } = self.tag(lt + 2, false)?;
                    self.flush();
                    self.last_start_tag.clear();
                    let tag = Tag { span: lt..end, name: &self.name, self_closing: false, id: None, class: None };
                    self.handler.end_tag(&tag);
                    self.resume(end);
                    Some(end)
                }
                Some(b'>') => {
                    // no token: text goes on across it
                    self.resume(lt + 3);
                    Some(lt + 3)
                }
                Some(_) => {
                    self.flush();
                    let end = after_gt(b, lt + 2);
                    self.resume(end);
                    Some(end)
                }
            },
            Some(c) if c.is_ascii_alphabetic() => {
                let TagEnd { end, self_closing } = self.tag(lt + 1, true)?;
                self.flush();
                std::mem::swap(&mut self.last_start_tag, &mut self.name);
                let a = &self.attribute;
                let tag = Tag {
                    span: lt..end,
                    name: &self.last_start_tag,
                    self_closing,
                    id: a.has_id.then_some(&a.id[..]),
                    class: a.has_class.then_some(&a.class[..]),
                };
                match self.handler.start_tag(&tag) {
                    Some(raw) => Some(self.raw(end, raw)),
                    None => {
                        self.resume(end);
                        Some(end)
                    }
                }
            }
            Some(b'?') => {
                self.flush();
                let end = after_gt(b, lt + 1);
                self.resume(end);
                Some(end)
            }
            Some(_) => {
                self.text(lt + 1);
                self.resume(lt + 1);
                Some(lt + 1)
            }
        }
    }

    /// A tag whose name starts at `at`, read to its `>` (its name in `self.name`, a start tag's `id` and
    /// `class` kept); `None` when the input ends inside it (the tag is dropped).
    fn tag(&mut self, at: usize, start: bool) -> Option<TagEnd> {
        let b = self.b;
        self.name.clear();
        let mut i = at;
        // tag name state
        loop {
            let c = *b.get(i)?;
            match c {
                _ if is_space(c) => {
                    i += 1;
                    break;
                }
                b'/' | b'>' => break,
                0 => self.name.extend_from_slice(REPLACEMENT),
                _ => self.name.push(c.to_ascii_lowercase()),
            }
            i += 1;
        }
        let a = &mut self.attribute;
        a.has_id = false;
        a.has_class = false;
        let mut self_closing = false;
        // before attribute name state
        loop {
            let c = *b.get(i)?;
            match c {
                _ if is_space(c) => i += 1,
                b'>' => return Some(TagEnd { end: i + 1, self_closing }),
                b'/' => {
                    // self-closing start tag state
                    i += 1;
                    if *b.get(i)? == b'>' {
                        self_closing = true;
                        return Some(TagEnd { end: i + 1, self_closing });
                    }
                }
                _ => {
                    // attribute name state (a `=` first is part of the name)
                    let name_start = i;
                    i += 1;
                    while let Some(&c) = b.get(i) {
                        if is_space(c) || matches!(c, b'/' | b'>' | b'=') {
                            break;
                        }
                        i += 1;
                    }
                    let name = &b[name_start..i];
                    let kept = match name.len() {
                        2 if !a.has_id && name.eq_ignore_ascii_case(b"id") && start => Kept::Id,
                        5 if !a.has_class && name.eq_ignore_ascii_case(b"class") && start => Kept::Class,
                        _ => Kept::None,
                    };
                    match kept {
                        Kept::Id => {
                            a.has_id = true;
                            a.id.clear();
                        }
                        Kept::Class => {
                            a.has_class = true;
                            a.class.clear();
                        }
                        Kept::None => {}
                    }
                    // after attribute name state
                    i = skip_spaces(b, i)?;
                    if b[i] != b'=' {
                        // `/`, `>` or the next attribute's name, read by the before attribute name state
                        continue;
                    }
                    i += 1;
                    // before attribute value state
                    i = skip_spaces(b, i)?;
                    let value = match b[i] {
                        b'>' => return Some(TagEnd { end: i + 1, self_closing }),
                        q @ (b'"' | b'\'') => {
                            let close = i + 1 + memchr::memchr(q, &b[i + 1..])?;
                            let value = i + 1..close;
                            // after attribute value (quoted) state: anything but space, `/` and `>` is
                            // read by the before attribute name state as it is
                            i = close + 1;
                            value
                        }
                        _ => {
                            let from = i;
                            while let Some(&c) = b.get(i) {
                                if is_space(c) || c == b'>' {
                                    break;
                                }
                                i += 1;
                            }
                            b.get(i)?;
                            from..i
                        }
                    };
                    match kept {
                        Kept::Id => entity::decode_value(&b[value], &mut a.id),
                        Kept::Class => entity::decode_value(&b[value], &mut a.class),
                        Kept::None => {}
                    }
                }
            }
        }
    }

    /// The content of a raw-text element whose start tag ends at `from`, read as `raw`, and its end tag;
    /// returns where reading goes on.
    fn raw(&mut self, from: usize, raw: Raw) -> usize {
        if raw == Raw::RcData {
            // the RCDATA state starts reading text (the raw text and script data states do not)
            self.resume(from);
        }
        let b = self.b;
        let name = &self.last_start_tag;
        let end = match raw {
            Raw::ScriptData => script_end(b, from, name),
            _ => {
                let mut pos = from;
                loop {
                    let Some(lt) = memchr::memchr(b'<', &b[pos..]).map(|k| pos + k) else {
                        // the input ends in the less-than sign state
                        break RawEnd::Eof { short: b.len() > from && b[b.len() - 1] == b'<' };
                    };
                    if end_tag_at(b, lt, name) {
                        break RawEnd::Tag(lt);
                    }
                    pos = lt + 1;
                }
            }
        };
        let lt = match end {
            RawEnd::Tag(lt) => lt,
            RawEnd::Eof { short } => {
                if b.len() > from {
                    // html5gum ends such text a byte short
                    self.text(b.len() - usize::from(short));
                }
                return b.len();
            }
        };
        if lt > from {
            self.text(lt);
        }
        let Some(TagEnd { end, .. }) = self.tag(lt + 2, false) else { return b.len() };
        self.flush();
        self.last_start_tag.clear();
        let tag = Tag { span: lt..end, name: &self.name, self_closing: false, id: None, class: None };
        self.handler.end_tag(&tag);
        self.resume(end);
        end
    }
}

/// Where a raw-text element's content ends.
enum RawEnd {
    /// At its end tag's `<`.
    Tag(usize),
    /// At the end of the input; `short` when the input ends with a `<` that may still start its end tag
    /// (html5gum then ends the text before it: the view read it so).
    Eof { short: bool },
}

/// Whether the `<` at `lt` starts the end tag of the raw-text element `name` (an appropriate end tag: `</`,
/// the name's letters in any case, then a space, `/` or `>`).
fn end_tag_at(b: &[u8], lt: usize, name: &[u8]) -> bool {
    let at = lt + 2;
    let after = at + name.len();
    !name.is_empty()
        && b.get(lt + 1) == Some(&b'/')
        && b.len() > after
        && name.iter().all(u8::is_ascii_alphabetic)
        && b[at..after].eq_ignore_ascii_case(name)
        && (is_space(b[after]) || b[after] == b'/' || b[after] == b'>')
}

/// Past the ASCII letters starting at `at`.
fn letters_end(b: &[u8], at: usize) -> usize {
    at + b[at.min(b.len())..].iter().take_while(|c| c.is_ascii_alphabetic()).count()
}

/// Where a script's content ends, read as the script data states read it: `<!--` escapes it, and inside
/// an escape `<script>` escapes it again, so that an end tag there is text until `</script>`; `-->` ends
/// both.
fn script_end(b: &[u8], from: usize, name: &[u8]) -> RawEnd {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum S {
        Data,
        Escaped,
        EscapedDash,
        EscapedDashDash,
        Double,
        DoubleDash,
        DoubleDashDash,
    }
    let eof = RawEnd::Eof { short: false };
    let mut s = S::Data;
    let mut i = from;
    loop {
        // skip what no state looks at
        let skip = match s {
            S::Data => memchr::memchr(b'<', &b[i..]),
            S::Escaped | S::Double => memchr::memchr2(b'-', b'<', &b[i..]),
            _ => Some(0),
        };
        let Some(skip) = skip else { return eof };
        i += skip;
        let Some(&c) = b.get(i) else { return eof };
        s = match (s, c) {
            (S::Data | S::Escaped | S::EscapedDash | S::EscapedDashDash, b'<') => {
                // the less-than sign states, of script data and of its escape
                let escaped = s != S::Data;
                match b.get(i + 1) {
                    None => return RawEnd::Eof { short: true },
                    Some(b'/') => {
                        if end_tag_at(b, i, name) {
                            return RawEnd::Tag(i);
                        }
                        // end tag open, end tag name: letters are text, the rest is read again
                        i = letters_end(b, i + 2);
                        s = if escaped { S::Escaped } else { S::Data };
                        continue;
                    }
                    Some(b'!') if !escaped => {
                        // escape start, escape start dash
                        match (b.get(i + 2), b.get(i + 3)) {
                            (Some(b'-'), Some(b'-')) => {
                                i += 4;
                                s = S::EscapedDashDash;
                            }
                            (Some(b'-'), _) => i += 3,
                            _ => i += 2,
                        }
                        continue;
                    }
                    Some(c) if escaped && c.is_ascii_alphabetic() => {
                        // double escape start: `<script` and a space, `/` or `>` (which it takes)
                        let end = letters_end(b, i + 1);
                        let Some(&d) = b.get(end) else { return eof };
                        if is_space(d) || d == b'/' || d == b'>' {
                            s = if b[i + 1..end].eq_ignore_ascii_case(b"script") { S::Double } else { S::Escaped };
                            i = end + 1;
                        } else {
                            i = end;
                            s = S::Escaped;
                        }
                        continue;
                    }
                    _ => {
                        i += 1;
                        s = if escaped { S::Escaped } else { S::Data };
                        continue;
                    }
                }
            }
            (S::Escaped, b'-') => S::EscapedDash,
            (S::EscapedDash | S::EscapedDashDash, b'-') => S::EscapedDashDash,
            (S::EscapedDashDash, b'>') => S::Data,
            (S::Escaped | S::EscapedDash | S::EscapedDashDash, _) => S::Escaped,
            (S::Double | S::DoubleDash | S::DoubleDashDash, b'<') => {
                // double escaped less-than sign: `</script` and a space, `/` or `>` ends the double escape
                if b.get(i + 1) == Some(&b'/') {
                    let end = letters_end(b, i + 2);
                    let Some(&d) = b.get(end) else { return eof };
                    if (is_space(d) || d == b'/' || d == b'>') && b[i + 2..end].eq_ignore_ascii_case(b"script") {
                        i = end + 1;
                        s = S::Escaped;
                    } else {
                        i = end;
                        s = S::Double;
                    }
                } else {
                    i += 1;
                    s = S::Double;
                }
                continue;
            }
            (S::Double, b'-') => S::DoubleDash,
            (S::DoubleDash | S::DoubleDashDash, b'-') => S::DoubleDashDash,
            (S::DoubleDashDash, b'>') => S::Data,
            (S::Double | S::DoubleDash | S::DoubleDashDash, _) => S::Double,
            (S::Data, _) => S::Data,
        };
        i += 1;
    }
}

/// Where reading goes on after the first `>` at or after `from` (the end when there is none): a
/// doctype's or a bogus comment's end.
fn after_gt(b: &[u8], from: usize) -> usize {
    memchr::memchr(b'>', &b[from.min(b.len())..]).map_or(b.len(), |k| from + k + 1)
}

/// Where a comment whose body starts at `from` (after `<!--`) ends: after its `-->` or `--!>` (`<!-->`
/// and `<!--->` are empty comments), or the end. The comment states reduced to what ends a comment: the
/// less-than sign states (`<!--` inside a comment) lead where its dashes alone would.
fn comment_end(b: &[u8], from: usize) -> usize {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum S {
        Start,
        StartDash,
        Body,
        EndDash,
        End,
        EndBang,
    }
    let mut s = S::Start;
    let mut i = from;
    loop {
        if s == S::Body {
            // nothing but a dash matters in the body
            let Some(k) = memchr::memchr(b'-', &b[i.min(b.len())..]) else { return b.len() };
            i += k + 1;
            s = S::EndDash;
            continue;
        }
        let Some(&c) = b.get(i) else { return b.len() };
        s = match (s, c) {
            (S::Start | S::StartDash | S::End | S::EndBang, b'>') => return i + 1,
            (S::Start, b'-') => S::StartDash,
            (S::StartDash | S::EndDash | S::End, b'-') => S::End,
            (S::EndBang, b'-') => S::EndDash,
            (S::End, b'!') => S::EndBang,
            _ => S::Body,
        };
        i += 1;
    }
}

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
