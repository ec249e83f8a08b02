//! `table-chunks`: the text between two table tags (`table`, `tr`, `td`, …) is a chunk; a chunk is
//! template when it occurs in more than a share of the training pages. It reads the HTML whatever input
//! is asked: table tags are its whole idea. A page laid out without tables is one chunk.

use crate::error::Result;

use super::fragments::{Fragment, FrequentFragments, collapse, frequent};
use super::html_tokens::find_close;
use super::{Input, Method, Model, Source};

/// Frequent text chunks between table tags.
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
            // skip to the matching end tag (case-insensitively), without copying the rest of the page
            i = find_close(bytes, i, name.as_bytes());
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
    fn table_chunks_split_at_table_tags_only() {
        let html = "<p>Intro <b>x</b></p><table><tr><td>Menu <a>Home</a></td><td><script>var a='<td>';</script>Body</td></tr></table>";
        let keys: Vec<String> = table_chunks(html).into_iter().map(|c| c.2).collect();
        assert_eq!(keys, ["Intro x", "Menu Home", "Body"]);
    }
}
