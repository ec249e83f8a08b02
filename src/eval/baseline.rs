//! The seeds' baselines, scored the same way as chaff.
//!
//! - `df-lines` (seed 001, Gottron): a line is template when it occurs in more than a share of the
//!   training pages (a third in the paper). Lines are compared with whitespace collapsed.
//! - `table-chunks` (seed 002): the text between two table tags (`table`, `tr`, `td`, …) is a chunk; a
//!   chunk is template when it occurs in more than a share of the training pages. It reads the HTML
//!   whatever input is asked: table tags are its whole idea. A page laid out without tables is one chunk.
//!
//! Both also require a fragment to occur in at least two training pages, so that in-sample (where the
//! page itself is among the training pages) a page's own text is never template by itself.

use std::collections::{HashMap, HashSet};

use crate::error::Result;

use super::dataset::Input;
use super::method::{Method, Model, Source};

/// Fewest training pages a fragment must occur in to be template.
const MIN_DF: usize = 2;

/// Fragments of a page: byte span and comparison key.
type Fragment = (usize, usize, String);

/// Fragments occurring in more than `threshold` of the documents (and in at least [`MIN_DF`]).
fn frequent(docs: &[(&str, &str)], threshold: f64, split: fn(&str) -> Vec<Fragment>) -> HashSet<String> {
    let mut df: HashMap<String, usize> = HashMap::new();
    for (_, text) in docs {
        let keys: HashSet<String> = split(text).into_iter().map(|f| f.2).collect();
        for k in keys {
            *df.entry(k).or_default() += 1;
        }
    }
    let n = docs.len() as f64;
    df.into_iter().filter(|&(_, d)| d >= MIN_DF && d as f64 > threshold * n).map(|(k, _)| k).collect()
}

struct FrequentFragments {
    template: HashSet<String>,
    split: fn(&str) -> Vec<Fragment>,
}

impl Model for FrequentFragments {
    fn removed(&self, text: &str) -> Vec<(usize, usize)> {
        (self.split)(text).into_iter().filter(|f| self.template.contains(&f.2)).map(|f| (f.0, f.1)).collect()
    }
}

/// Seed 001's baseline: frequent lines.
pub struct DfLines {
    pub threshold: f64,
}

impl Method for DfLines {
    fn name(&self) -> String {
        format!("df-lines (> {:.2} of pages)", self.threshold)
    }

    fn train(&self, source: &Source<'_>) -> Result<Box<dyn Model>> {
        Ok(Box::new(FrequentFragments { template: frequent(&source.docs, self.threshold, lines), split: lines }))
    }
}

/// The non-blank lines of `text`, keyed by their words.
pub fn lines(text: &str) -> Vec<Fragment> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let key = collapse(line);
        if !key.is_empty() {
            out.push((start, start + line.len(), key));
        }
        start += line.len();
    }
    out
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Seed 002's baseline: frequent text chunks between table tags.
pub struct TableChunks {
    pub threshold: f64,
}

impl Method for TableChunks {
    fn name(&self) -> String {
        format!("table-chunks (> {:.2} of pages)", self.threshold)
    }

    fn input(&self, _asked: Input) -> Input {
        Input::Html
    }

    fn train(&self, source: &Source<'_>) -> Result<Box<dyn Model>> {
        Ok(Box::new(FrequentFragments {
            template: frequent(&source.docs, self.threshold, table_chunks),
            split: table_chunks,
        }))
    }
}

const TABLE_TAGS: [&str; 8] = ["table", "tr", "td", "th", "tbody", "thead", "tfoot", "caption"];
/// Elements whose content is not text a reader sees.
const SKIPPED: [&str; 5] = ["script", "style", "noscript", "template", "textarea"];

/// The chunks of `html` between table tags: the raw byte span from one table tag to the next, keyed by
/// its visible text (tags dropped, whitespace collapsed). Chunks without text are left out.
pub fn table_chunks(html: &str) -> Vec<Fragment> {
    let bytes = html.as_bytes();
    let mut out = Vec::new();
    let mut text = String::new();
    let mut chunk_start = 0;
    let mut i = 0;
    let flush = |start: usize, end: usize, text: &mut String, out: &mut Vec<Fragment>| {
        let key = collapse(text);
        if !key.is_empty() {
            out.push((start, end, key));
        }
        text.clear();
    };
    while i < bytes.len() {
        let Some(lt) = memchr(b'<', &bytes[i..]).map(|k| i + k) else {
            text.push_str(&html[i..]);
            break;
        };
        text.push_str(&html[i..lt]);
        text.push(' ');
        if html[lt..].starts_with("<!--") {
            i = html[lt + 4..].find("-->").map_or(bytes.len(), |k| lt + 4 + k + 3);
            continue;
        }
        let Some(gt) = memchr(b'>', &bytes[lt..]).map(|k| lt + k) else {
            text.push_str(&html[lt..]);
            break;
        };
        let tag = &html[lt + 1..gt];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        i = gt + 1;
        if TABLE_TAGS.contains(&name.as_str()) {
            flush(chunk_start, lt, &mut text, &mut out);
            chunk_start = i;
        } else if !closing && SKIPPED.contains(&name.as_str()) && !tag.ends_with('/') {
            // skip to the matching end tag (case-insensitively)
            let close = format!("</{name}");
            let rest = html[i..].to_ascii_lowercase();
            i = rest.find(&close).map_or(bytes.len(), |k| i + k);
        }
    }
    flush(chunk_start, html.len(), &mut text, &mut out);
    out
}

fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|&b| b == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_spans_and_collapse_whitespace() {
        let l = lines("a  b\n\n c\n");
        assert_eq!(l, vec![(0, 5, "a b".to_string()), (6, 9, "c".to_string())]);
    }

    #[test]
    fn table_chunks_split_at_table_tags_only() {
        let html = "<p>Intro <b>x</b></p><table><tr><td>Menu <a>Home</a></td><td><script>var a='<td>';</script>Body</td></tr></table>";
        let keys: Vec<String> = table_chunks(html).into_iter().map(|c| c.2).collect();
        assert_eq!(keys, ["Intro x", "Menu Home", "Body"]);
    }

    #[test]
    fn frequent_needs_two_pages_and_the_share() {
        let docs = [("1", "menu\nalpha"), ("2", "menu\nbeta"), ("3", "gamma\nalpha")];
        let t = frequent(&docs, 0.5, lines);
        assert!(t.contains("menu") && t.contains("alpha") && t.len() == 2);
        let t = frequent(&docs, 0.7, lines);
        assert!(t.is_empty());
    }
}
