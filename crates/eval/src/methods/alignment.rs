//! `alignment`: Geraci and Maggini's multi-sequence alignment ("A multi-sequence alignment algorithm for
//! web template detection").
//!
//! - **Tokens.** An HTML page is a sequence of tokens, each tag or text between two tags, normalized:
//!   whitespace collapsed, lower case, a tag's attributes sorted. The content of a script or style is one
//!   token. With `--input txt` there are no tags: the tokens are the page's non-blank lines, normalized
//!   the same way (a line of the naive text is what a block element held).
//! - **Template.** `t` sample pages (an even spread of the training pages; 16, the paper's choice, or the
//!   largest power of two the training pages allow) start as sequences whose tokens score one page each.
//!   At each step `r` of a binary tree, pairs are aligned (`nw.rs`); a matched token's score is the
//!   sum of the two, a token matched with nothing or with a different token keeps its own (both are kept);
//!   tokens scoring below `2^(r-2)` pages of `t` are pruned. The root's tokens scoring below `t/2` pages
//!   are pruned too: the template is what more than half of the sample shares, in order.
//! - **Cleaning.** A page is aligned with the template; its text tokens (or lines) that match a template
//!   token are template text and go. Text the template does not hold, even inside template markup (a
//!   headline list whose headlines change), stays: the seed's template is the tags and text the pages
//!   share, and whatever changes from page to page is content to it.
//!
//! The alignment runs on at most `max_cells` cells at once (anchors, then a band: see `nw.rs`),
//! so memory stays bounded on pages of tens of thousands of tags.

use std::collections::HashMap;

use serde::Serialize;

use crate::error::Result;

use super::html_tokens::{Kind, html_tokens};
use super::nw::{Op, align};
use super::{Input, Method, Model, Source};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AlignmentParams {
    /// t: sample pages aligned (a power of two; fewer when the training pages are fewer).
    pub pages: usize,
    /// Most dynamic-program cells of one alignment at once (a byte each).
    pub max_cells: usize,
}

impl Default for AlignmentParams {
    fn default() -> Self {
        AlignmentParams { pages: 16, max_cells: 4 << 20 }
    }
}

pub struct Alignment {
    pub params: AlignmentParams,
}

/// A page's tokens: ids, byte spans, and whether each carries text.
struct Tokens {
    ids: Vec<u32>,
    spans: Vec<(usize, usize)>,
    text: Vec<bool>,
}

/// Normalized token → id, shared by a source's pages and its template.
#[derive(Default)]
struct Vocabulary {
    ids: HashMap<String, u32>,
}

/// The id of tokens the template never saw: they match nothing of it.
const UNKNOWN: u32 = u32::MAX;

impl Vocabulary {
    /// A sample page's tokens, new ones added to the vocabulary.
    fn learn(&mut self, page: &str, input: Input) -> Vec<u32> {
        tokens(page, input, |key| {
            let next = self.ids.len() as u32;
            *self.ids.entry(key).or_insert(next)
        })
        .ids
    }

    /// A page's tokens, those the vocabulary lacks as [`UNKNOWN`].
    fn read(&self, page: &str, input: Input) -> Tokens {
        tokens(page, input, |key| self.ids.get(&key).copied().unwrap_or(UNKNOWN))
    }
}

/// The tokens of `page`, each normalized key made an id by `id`.
fn tokens(page: &str, input: Input, mut id: impl FnMut(String) -> u32) -> Tokens {
    let mut t = Tokens { ids: Vec::new(), spans: Vec::new(), text: Vec::new() };
    let mut push = |key: String, span: (usize, usize), text: bool| {
        t.ids.push(id(key));
        t.spans.push(span);
        t.text.push(text);
    };
    match input {
        Input::Txt => {
            let mut start = 0;
            for line in page.split_inclusive('\n') {
                let key = collapse_lower(line);
                if !key.is_empty() {
                    push(key, (start, start + line.len()), true);
                }
                start += line.len();
            }
        }
        Input::Html => {
            for tok in html_tokens(page) {
                let raw = &page[tok.start..tok.end];
                let key = match tok.kind {
                    Kind::Tag => normalize_tag(raw),
                    Kind::Text => format!("\u{1}{}", collapse_lower(raw)),
                    Kind::Raw => format!("\u{2}{}", collapse_lower(raw)),
                };
                push(key, (tok.start, tok.end), tok.kind == Kind::Text);
            }
        }
    }
    t
}

fn collapse_lower(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// A tag in lower case with its attributes sorted: `<A id=x Class="y">` → `<a class="y" id=x>`.
pub fn normalize_tag(tag: &str) -> String {
    let lower = tag.to_lowercase();
    let inner = lower.trim_start_matches('<').trim_end_matches('>').trim_end_matches('/').trim();
    let name_end = inner.find(|c: char| c.is_whitespace()).unwrap_or(inner.len());
    let (name, rest) = inner.split_at(name_end);
    let mut attrs: Vec<&str> = Vec::new();
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        let mut quote: Option<u8> = None;
        while i < bytes.len() {
            match (quote, bytes[i]) {
                (None, b'"' | b'\'') => quote = Some(bytes[i]),
                (Some(q), c) if c == q => quote = None,
                (None, c) if c.is_ascii_whitespace() => {
                    // `name = value`: the blanks around `=` belong to the attribute
                    let mut k = i;
                    while k < bytes.len() && bytes[k].is_ascii_whitespace() {
                        k += 1;
                    }
                    let joins = bytes.get(k) == Some(&b'=') || bytes[..i].last() == Some(&b'=');
                    if !joins {
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        if start < i {
            attrs.push(&rest[start..i]);
        }
    }
    attrs.sort_unstable();
    let mut out = String::with_capacity(tag.len());
    out.push('<');
    out.push_str(name);
    for a in attrs {
        out.push(' ');
        match a.split_once('=') {
            Some((name, value)) => {
                out.push_str(name.trim());
                out.push('=');
                out.push_str(value.trim());
            }
            None => out.push_str(a),
        }
    }
    out.push('>');
    out
}

/// A template hypothesis: tokens with the number of sample pages that agree on each.
type Profile = Vec<(u32, u32)>;

/// Merges two profiles along their alignment: matched tokens add their evidence, the others keep theirs.
fn merge(a: &Profile, b: &Profile, max_cells: usize) -> Profile {
    let ia: Vec<u32> = a.iter().map(|t| t.0).collect();
    let ib: Vec<u32> = b.iter().map(|t| t.0).collect();
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    for op in align(&ia, &ib, max_cells) {
        match op {
            Op::Match(i, j) => out.push((a[i].0, a[i].1 + b[j].1)),
            Op::Mismatch(i, j) => {
                out.push(a[i]);
                out.push(b[j]);
            }
            Op::OnlyA(i) => out.push(a[i]),
            Op::OnlyB(j) => out.push(b[j]),
        }
    }
    out
}

/// The template of `pages` (token ids), `pages.len()` a power of two: the binary consensus tree.
fn consensus(pages: Vec<Vec<u32>>, max_cells: usize) -> Vec<u32> {
    let t = pages.len() as u32;
    let mut level: Vec<Profile> = pages.into_iter().map(|p| p.into_iter().map(|id| (id, 1)).collect()).collect();
    let mut r = 0;
    while level.len() > 1 {
        r += 1;
        // evidence below 2^(r-2)/t of the sample is pruned: no pruning at steps 1 and 2
        let floor = if r >= 2 { 1u32 << (r - 2) } else { 0 };
        level = level
            .chunks(2)
            .map(|pair| {
                let mut m = if pair.len() == 2 { merge(&pair[0], &pair[1], max_cells) } else { pair[0].clone() };
                m.retain(|&(_, c)| c >= floor);
                m
            })
            .collect();
    }
    let root = level.pop().unwrap_or_default();
    // the root keeps what half of the sample or more agrees on
    root.into_iter().filter(|&(_, c)| 2 * c >= t).map(|(id, _)| id).collect()
}

/// Sample size: `pages`, or the largest power of two at most the training pages.
fn sample_size(wanted: usize, available: usize) -> usize {
    let cap = wanted.min(available).max(1);
    1 << (usize::BITS - 1 - cap.leading_zeros())
}

impl Method for Alignment {
    fn name(&self) -> String {
        format!("alignment (t = {})", self.params.pages)
    }

    fn train(&self, source: &Source<'_>) -> Result<Box<dyn Model>> {
        let model = AlignmentModel::learn(&source.docs, source.input, self.params);
        Ok(Box::new(model))
    }
}

/// A source's template: the consensus token ids, and the vocabulary to read new pages with.
pub struct AlignmentModel {
    vocabulary: Vocabulary,
    template: Vec<u32>,
    input: Input,
    max_cells: usize,
}

impl AlignmentModel {
    pub fn learn(docs: &[(&str, &str)], input: Input, params: AlignmentParams) -> AlignmentModel {
        let t = sample_size(params.pages, docs.len());
        let mut vocabulary = Vocabulary::default();
        let pages: Vec<Vec<u32>> = (0..t).map(|k| vocabulary.learn(docs[k * docs.len() / t].1, input)).collect();
        let template = consensus(pages, params.max_cells);
        AlignmentModel { vocabulary, template, input, max_cells: params.max_cells }
    }

    /// The template's tokens, as normalized strings (text tokens start with U+0001 in HTML).
    pub fn template(&self) -> Vec<String> {
        let mut names = vec![String::new(); self.vocabulary.ids.len()];
        for (k, &id) in &self.vocabulary.ids {
            names[id as usize] = k.clone();
        }
        self.template.iter().map(|&id| names[id as usize].clone()).collect()
    }
}

impl Model for AlignmentModel {
    fn removed(&self, text: &str) -> Vec<(usize, usize)> {
        let page = self.vocabulary.read(text, self.input);
        align(&page.ids, &self.template, self.max_cells)
            .into_iter()
            .filter_map(|op| match op {
                Op::Match(i, _) if page.text[i] => Some(page.spans[i]),
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_normalized_by_sorting_attributes() {
        assert_eq!(normalize_tag(r#"<DIV id="a b"  Class = x>"#), r#"<div class=x id="a b">"#);
        assert_eq!(normalize_tag("</P>"), "</p>");
        assert_eq!(normalize_tag("<br/>"), "<br>");
    }

    #[test]
    fn sample_sizes_are_powers_of_two() {
        assert_eq!(sample_size(16, 30), 16);
        assert_eq!(sample_size(16, 9), 8);
        assert_eq!(sample_size(16, 2), 2);
    }

    #[test]
    fn the_consensus_keeps_what_half_the_pages_share() {
        // 4 pages: "a" and "z" on all, "m" on two, each page's own token once
        let pages = vec![vec![0, 10, 5, 1], vec![0, 11, 5, 1], vec![0, 12, 1], vec![0, 13, 1]];
        assert_eq!(consensus(pages, 1 << 20), vec![0, 5, 1]);
    }
}
