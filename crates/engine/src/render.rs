//! Cleaned HTML, as markup: what cleaning takes out of a page's HTML so that what is left still parses as
//! the page did. [`remove_text_keep_tags`] takes the text of removed spans and keeps their tags;
//! [`element_cuts`] and [`text_cuts`] say which bytes to take for `chaff clean`'s HTML outputs. Rendering
//! what is left as a reader sees it (html2text) is the binary's, not the engine's.

use std::collections::HashMap;

use crate::cleaning::normalize;
use crate::view::{Closes, Handler, Raw, Tag, is_void, key, raw_kind, tokenize_page};

/// `html` without the text of `removed` spans: the markup inside them (tags, comments, script and
/// style elements whole) stays.
pub fn remove_text_keep_tags(html: &str, removed: &[(usize, usize)]) -> String {
    let markup = markup_ranges(html);
    let mut out = String::with_capacity(html.len());
    let mut pos = 0;
    let mut m = 0;
    for (start, end) in normalize(removed) {
        let (start, end) = (start.min(html.len()), end.min(html.len()));
        out.push_str(&html[pos..start]);
        while m < markup.len() && markup[m].1 <= start {
            m += 1;
        }
        let mut k = m;
        while k < markup.len() && markup[k].0 < end {
            let (a, b) = (markup[k].0.max(start), markup[k].1.min(end));
            out.push_str(&html[a..b]);
            out.push(' ');
            k += 1;
        }
        pos = end;
    }
    out.push_str(&html[pos..]);
    out
}

/// `html` less `taken` (sorted, disjoint byte ranges): every other byte, in order.
pub fn without(html: &str, taken: &[(usize, usize)]) -> String {
    let mut out = String::with_capacity(html.len());
    let mut pos = 0;
    for &(a, b) in taken {
        out.push_str(&html[pos..a]);
        pos = b;
    }
    out.push_str(&html[pos..]);
    out
}

/// The bytes `--keep-tags` takes: the text of `removed` (source ranges), every piece of markup inside
/// them kept.
pub fn text_cuts(html: &str, removed: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let removed = clip(html, removed);
    if removed.is_empty() {
        return removed;
    }
    minus(&removed, &markup_ranges(html))
}

/// The bytes the default HTML output takes for `removed` (source ranges of removed text), snapped to
/// elements so that the rest parses as the page did less that text. Inside each range the text goes and
/// so does every element opened and closed inside it; a tag whose partner lies outside the range stays
/// (a `</title>` after a removed title's text, the `<body>` between a removed title and menu), so every
/// element the output keeps opens and closes where it did. What sets how the page is read stays too:
/// `<meta>` (its encoding), `<link>`, `<base>`, `<style>`. The page is read as the view reads it, and what
/// decides that reading stays: a comment never closed (to its `>`), the tag that ends a title never closed,
/// the last `</title>` where such a comment broke a title off. One pass of the tokenizer over the page, and
/// a stack of the elements open inside the current range, each pushed and popped once.
pub fn element_cuts(html: &str, removed: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let ranges = clip(html, removed);
    if ranges.is_empty() {
        return ranges;
    }
    let mut cut = ElementCut { ranges: &ranges, r: 0, ..ElementCut::default() };
    // an element or a comment never closed is read as the view reads it: its text ends at the next tag,
    // the comment at the next `>`
    let closes = Closes::of(html.as_bytes());
    let mut tags = Tags { cut: &mut cut, closes: &closes, ends_raw: false, raw_open: None, broken: Vec::new() };
    tokenize_page(html.as_bytes(), closes.open_comments(), &mut tags);
    cut.finish_range();
    minus(&ranges, &cut.keep)
}

/// The page's tags read into an [`ElementCut`]; raw text is switched into by hand, as the page view does
/// (`<noscript>` is markup to it).
struct Tags<'c, 'a> {
    cut: &'c mut ElementCut<'a>,
    closes: &'c Closes,
    /// The next tag ends the text of an element never closed: it stays, or the text after it would
    /// become that element's (a title's) in the output.
    ends_raw: bool,
    /// The raw-text element whose text is being read, up to its end tag.
    raw_open: Option<u128>,
    /// Names of raw-text elements whose text a comment never closed broke off before their end tag.
    broken: Vec<u128>,
}

impl Handler for Tags<'_, '_> {
    fn text(&mut self, _: std::ops::Range<usize>) {}

    fn start_tag(&mut self, tag: &Tag) -> Option<Raw> {
        let raw = raw_kind(tag.name);
        let keep = std::mem::take(&mut self.ends_raw);
        self.cut.tag(tag.span.clone(), tag.name, Some(tag.self_closing), keep);
        let closed = self.closes.raw_text_after(tag.name, tag.span.end.saturating_sub(1));
        self.ends_raw = raw.is_some() && !closed;
        self.raw_open = (raw.is_some() && closed).then(|| key(tag.name));
        raw.filter(|_| closed)
    }

    fn end_tag(&mut self, tag: &Tag) {
        self.ends_raw = false;
        let name = key(tag.name);
        if self.raw_open == Some(name) {
            self.raw_open = None;
        }
        // the last end tag of a title (a script…) is what makes one whose text a comment never closed
        // broke off read as closed: it stays
        let keep = self.broken.contains(&name) && self.closes.is_last_end(tag.name, tag.span.start);
        self.cut.tag(tag.span.clone(), tag.name, None, keep);
    }

    fn passed(&mut self, span: std::ops::Range<usize>) {
        // a handful of names at most: each once
        if let Some(name) = self.raw_open.take().filter(|name| !self.broken.contains(name)) {
            self.broken.push(name);
        }
        // markup to the view, as a tag is: without it what follows would be read otherwise
        self.cut.tag(span, b"!--", Some(true), true);
    }

    fn done(&self) -> bool {
        self.cut.r >= self.cut.ranges.len()
    }
}

/// The state of [`element_cuts`]: the range being read and the tags kept inside it.
#[derive(Default)]
struct ElementCut<'a> {
    ranges: &'a [(usize, usize)],
    /// The range being read.
    r: usize,
    /// Kept for good: tags that must stay whatever the range holds, and the tags of ranges done.
    keep: Vec<(usize, usize)>,
    /// Kept in the current range for good (`<meta>`, `<style>`…, tags across its ends).
    fixed: Vec<(usize, usize)>,
    /// Tags of the current range kept so far: start tags not yet closed, end tags of elements opened
    /// before the range. An end tag closing a start tag here drops it and all after it.
    open_tags: Vec<(usize, usize)>,
    /// Elements open inside the current range: name, index of their start tag in `open_tags`, and whether
    /// that tag must stay (it ends a title never closed): then its end tag, and any end tag closing
    /// through it, stays too.
    stack: Vec<(u128, usize, bool)>,
    /// How many of each name are on `stack`: an end tag of an element not open here is found in O(1).
    open_count: HashMap<u128, u32>,
    /// Where a `<style>` inside the range starts.
    style: Option<usize>,
}

impl ElementCut<'_> {
    /// Reads one tag (`start`: a start tag and whether it closes itself; `keep`: it stays, a start tag
    /// with the tags of the element it opens); false once the ranges are done.
    fn tag(&mut self, span: std::ops::Range<usize>, name: &[u8], start: Option<bool>, keep: bool) -> bool {
        while self.r < self.ranges.len() && self.ranges[self.r].1 <= span.start {
            self.finish_range();
            self.r += 1;
        }
        let Some(&(s, e)) = self.ranges.get(self.r) else { return false };
        if span.end <= s {
            return true;
        }
        let piece = (span.start, span.end);
        if span.start < s || span.end > e {
            // a tag across the range's end is no text: it stays
            self.fixed.push(piece);
            return true;
        }
        let key = key(name);
        match start {
            Some(_) if matches!(name, b"meta" | b"link" | b"base") => self.fixed.push(piece),
            Some(_) if name == b"style" => self.style = Some(span.start),
            Some(self_closing) if self_closing || is_void(key) => {
                if keep {
                    self.open_tags.push(piece);
                }
            }
            Some(_) => {
                self.stack.push((key, self.open_tags.len(), keep));
                *self.open_count.entry(key).or_default() += 1;
                self.open_tags.push(piece);
            }
            None if name == b"style" && self.style.is_some() => {
                let from = self.style.take().expect("checked");
                self.fixed.push((from, span.end));
            }
            None if self.open_count.get(&key).is_some_and(|&n| n > 0) => {
                // the element opened and closed here goes whole, with what it holds, unless it holds a
                // tag that must stay: then its tags stay
                let mut kept = false;
                while let Some((k, at, stays)) = self.stack.pop() {
                    *self.open_count.get_mut(&k).expect("counted when pushed") -= 1;
                    kept |= stays;
                    if k == key {
                        if kept {
                            self.open_tags.push(piece);
                        } else {
                            self.open_tags.truncate(at);
                            if keep {
                                self.fixed.push(piece);
                            }
                        }
                        break;
                    }
                }
            }
            None if keep => self.fixed.push(piece),
            None => self.open_tags.push(piece),
        }
        true
    }

    /// Keeps what the current range must keep, in order.
    fn finish_range(&mut self) {
        if let (Some(from), Some(&(_, e))) = (self.style.take(), self.ranges.get(self.r)) {
            self.fixed.push((from, e));
        }
        let (fixed, open) = (std::mem::take(&mut self.fixed), std::mem::take(&mut self.open_tags));
        let (mut i, mut j) = (0, 0);
        while i < fixed.len() || j < open.len() {
            if j == open.len() || (i < fixed.len() && fixed[i].0 <= open[j].0) {
                self.keep.push(fixed[i]);
                i += 1;
            } else {
                self.keep.push(open[j]);
                j += 1;
            }
        }
        self.stack.clear();
        self.open_count.clear();
    }
}

/// `ranges` sorted, merged and inside `html`.
fn clip(html: &str, ranges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let clipped: Vec<(usize, usize)> = ranges.iter().map(|&(a, b)| (a.min(html.len()), b.min(html.len()))).collect();
    normalize(&clipped)
}

/// `ranges` less `holes` (both sorted; holes disjoint), in one sweep.
fn minus(ranges: &[(usize, usize)], holes: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(ranges.len());
    let mut h = 0;
    for &(mut a, b) in ranges {
        while h < holes.len() && holes[h].1 <= a {
            h += 1;
        }
        let mut k = h;
        while k < holes.len() && holes[k].0 < b {
            if holes[k].0 > a {
                out.push((a, holes[k].0));
            }
            a = a.max(holes[k].1);
            k += 1;
        }
        if a < b {
            out.push((a, b));
        }
    }
    out
}

/// Byte ranges of `html` that are markup, not text, as the page view reads the page: tags, comments (one
/// never closed up to its `>`), the code of scripts and styles; everything but the text runs it shows.
pub fn markup_ranges(html: &str) -> Vec<(usize, usize)> {
    let closes = Closes::of(html.as_bytes());
    let mut runs = TextRuns { closes: &closes, runs: Vec::new(), code: false };
    tokenize_page(html.as_bytes(), closes.open_comments(), &mut runs);
    let mut out = Vec::with_capacity(runs.runs.len() + 1);
    let mut pos = 0;
    for (a, b) in runs.runs {
        if a > pos {
            out.push((pos, a));
        }
        pos = pos.max(b);
    }
    if pos < html.len() {
        out.push((pos, html.len()));
    }
    out
}

/// The text runs of a page that the view shows, in order: a script's or a style's code is none.
struct TextRuns<'c> {
    closes: &'c Closes,
    runs: Vec<(usize, usize)>,
    /// Inside an element whose text is code.
    code: bool,
}

impl Handler for TextRuns<'_> {
    fn text(&mut self, span: std::ops::Range<usize>) {
        if !self.code && span.start < span.end {
            self.runs.push((span.start, span.end));
        }
    }

    fn start_tag(&mut self, tag: &Tag) -> Option<Raw> {
        let raw = raw_kind(tag.name).filter(|_| self.closes.raw_text_after(tag.name, tag.span.end.saturating_sub(1)));
        // a title's and a text area's text is shown; the rest is code
        self.code = raw.is_some_and(|r| r != Raw::RcData);
        raw
    }

    fn end_tag(&mut self, _: &Tag) {
        self.code = false;
    }
}
