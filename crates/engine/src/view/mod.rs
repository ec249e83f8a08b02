//! The page view: a document as the lines a reader sees, built once, which every cleaning step reads.
//!
//! A text document is its own view. An HTML page's view is what a block-aware tag stripper makes of it
//! ([`html`], on its own WHATWG tokenizer): the title first, a line per block, scripts, styles, comments and hidden elements left
//! out, references decoded, whitespace collapsed. Every byte of the view maps back to source bytes
//! ([`SourceMap`]), so what is found on the view is cut from the HTML exactly. The cleaner indexes the
//! view's lines and words once (`cleaning::Layout`), so asking about a match's line costs O(log n), never
//! a rescan.

pub mod agreement;
mod elements;
mod entity;
pub mod html;
mod map;
pub mod paths;
mod structure;
mod tokenizer;
mod writer;

use std::ops::Range;

use serde::{Deserialize, Serialize};

pub(crate) use elements::{is_void, key};
pub use html::Reading;
pub(crate) use html::{Closes, raw_kind, tokenize_page};
pub use map::SourceMap;
pub use structure::{PathId, Structure, split_label};
pub(crate) use tokenizer::{Handler, Raw, Tag};

/// The kind of a source's documents: how their view is built. A rules file records it (`input`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DocKind {
    /// Plain text: the document is its own view.
    #[default]
    Text,
    /// HTML pages: the view is what a reader sees ([`PageView::of_html`]).
    Html,
}

impl DocKind {
    /// The kind most of `texts` are: HTML when most look like markup, else text. Every front end that has
    /// no file names to go by (JSON Lines, the Python module, Spark) decides through this, so they agree.
    pub fn sniff<'a>(texts: impl IntoIterator<Item = &'a str>) -> DocKind {
        let (mut html, mut all) = (0usize, 0usize);
        for t in texts {
            all += 1;
            html += usize::from(looks_like_markup(t));
        }
        if all > 0 && 2 * html > all { DocKind::Html } else { DocKind::Text }
    }

    pub fn name(self) -> &'static str {
        match self {
            DocKind::Text => "text",
            DocKind::Html => "html",
        }
    }
}

/// Whether a document is markup: it starts (after whitespace and a byte order mark) with a doctype, a
/// comment, an XML declaration, or an element (a page served as a fragment often starts with a wrapper
/// `<div>`), and closes an element somewhere. Text that merely starts with `<` ("<3", "<-") has no letter
/// after it; a fragment that opens a tag and never closes one is read as text.
fn looks_like_markup(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    let b = t.as_bytes();
    if b.first() != Some(&b'<') {
        return false;
    }
    match b.get(1) {
        Some(b'!' | b'?') => true,
        Some(c) if c.is_ascii_alphabetic() => t.contains("</") || t.contains("/>"),
        _ => false,
    }
}

/// One document as a reader sees it: its text, its lines and words, and where each byte comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageView {
    text: String,
    map: SourceMap,
    /// Each line's element path and link density: HTML pages only.
    structure: Option<Box<Structure>>,
}

impl PageView {
    /// The view of a text document: the document itself.
    pub fn of_text(text: &str) -> PageView {
        PageView { text: text.to_string(), map: SourceMap::identity(text.len()), structure: None }
    }

    /// The view of a document of kind `kind`.
    pub fn of(text: &str, kind: DocKind) -> PageView {
        match kind {
            DocKind::Text => PageView::of_text(text),
            DocKind::Html => PageView::of_html(text),
        }
    }

    /// The view of an HTML page, read as [`Reading::default`].
    pub fn of_html(html: &str) -> PageView {
        PageView::of_html_reading(html, Reading::default()).0
    }

    /// The view of an HTML page read as `reading`, and the bytes the reader examined to build it (its
    /// cost: a small multiple of the page's length whatever the page).
    pub fn of_html_reading(html: &str, reading: Reading) -> (PageView, u64) {
        let (text, map, structure, work) = html::read(html, reading);
        (PageView { text, map, structure: Some(Box::new(structure)) }, work)
    }

    /// The view's text: lines separated by `\n`.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Where each line sits in the page: its element path and link density (HTML pages only).
    pub fn structure(&self) -> Option<&Structure> {
        self.structure.as_deref()
    }

    /// The map back to the source.
    pub fn map(&self) -> &SourceMap {
        &self.map
    }

    /// The source byte ranges view bytes `view` come from (see [`SourceMap::to_source`]).
    pub fn to_source(&self, view: Range<usize>) -> Vec<Range<usize>> {
        self.map.to_source(view)
    }

    /// Where source byte `at` shows in the view (see [`SourceMap::from_source`]).
    pub fn from_source(&self, at: usize) -> usize {
        self.map.from_source(at)
    }
}

#[cfg(test)]
mod tests {
    use super::DocKind;

    #[test]
    fn a_page_that_starts_with_a_wrapper_element_is_html() {
        let page = "<div id=\"wrapper\"><p>An article about the harbour.</p></div>";
        assert_eq!(DocKind::sniff([page, page]), DocKind::Html);
        assert_eq!(DocKind::sniff(["\u{feff}<!DOCTYPE html><p>x</p>"]), DocKind::Html);
    }

    #[test]
    fn text_that_starts_with_an_angle_bracket_is_text() {
        assert_eq!(DocKind::sniff(["<3 this harbour", "<- back to the index"]), DocKind::Text);
        assert_eq!(DocKind::sniff(["<b and nothing closed"]), DocKind::Text);
        assert_eq!(DocKind::sniff(["An article.", "<div>x</div>", "Another."]), DocKind::Text);
    }
}
