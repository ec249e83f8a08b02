//! Span-level scoring of removal against injected templates (thesis §6.1): the generator records which
//! byte spans of each document are template, the method reports which spans it removed. Precision = share
//! of the removed text that is template, recall = share of the template that was removed. Only
//! non-whitespace characters count: whether a span takes the blank before it along is no decision.
//!
//! An HTML page is scored on what a reader sees of it ([`score_page_spans`]): both sets of byte spans are
//! carried onto the page's view and only the view's characters count. A template's markup (the tags
//! around a menu, a script) is no text a reader loses or keeps, and the cleaned page must keep some of it
//! to parse: counting its bytes made recall a measure of how much markup a method deletes.

use serde::Serialize;

use super::dataset::Input;
use crate::cleaning::normalize;
use crate::view::PageView;

/// Counts behind a span score, in non-whitespace characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct SpanCounts {
    /// Removed and template.
    pub hit: usize,
    pub removed: usize,
    pub template: usize,
}

impl SpanCounts {
    /// Precision of removal; 1 when nothing was removed.
    pub fn precision(&self) -> f64 {
        if self.removed == 0 { 1.0 } else { self.hit as f64 / self.removed as f64 }
    }

    /// Recall of removal; 1 when the document has no template.
    pub fn recall(&self) -> f64 {
        if self.template == 0 { 1.0 } else { self.hit as f64 / self.template as f64 }
    }
}

/// Scores `removed` against `template`, both byte spans of the page `text` read as `input`: for text,
/// [`score_spans`]; for HTML, the characters of the page's view the spans' bytes show as (a span maps to
/// the view from its first shown byte to the first shown byte at or after its end, as the cleaned text
/// is cut: a span of markup alone shows as nothing).
pub fn score_page_spans(
    text: &str,
    removed: &[(usize, usize)],
    template: &[(usize, usize)],
    input: Input,
) -> SpanCounts {
    match input {
        Input::Txt => score_spans(text, removed, template),
        Input::Html => {
            let view = PageView::of_html(text);
            let shown = |spans: &[(usize, usize)]| -> Vec<(usize, usize)> {
                spans
                    .iter()
                    .map(|&(s, e)| (view.from_source(s.min(text.len())), view.from_source(e.min(text.len()))))
                    .collect()
            };
            score_spans(view.text(), &shown(removed), &shown(template))
        }
    }
}

/// Scores `removed` against `template`, both byte spans of `text` (any order, may overlap).
pub fn score_spans(text: &str, removed: &[(usize, usize)], template: &[(usize, usize)]) -> SpanCounts {
    let clamp = |v: &[(usize, usize)]| -> Vec<(usize, usize)> {
        normalize(&v.iter().map(|&(s, e)| (s.min(text.len()), e.min(text.len()))).collect::<Vec<_>>())
    };
    let (removed, template) = (clamp(removed), clamp(template));
    let count = |spans: &[(usize, usize)]| spans.iter().map(|&(s, e)| solid(&text.as_bytes()[s..e])).sum();
    let mut both = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < removed.len() && j < template.len() {
        let (s, e) = (removed[i].0.max(template[j].0), removed[i].1.min(template[j].1));
        if s < e {
            both.push((s, e));
        }
        if removed[i].1 < template[j].1 { i += 1 } else { j += 1 }
    }
    SpanCounts { hit: count(&both), removed: count(&removed), template: count(&template) }
}

/// Non-whitespace characters of a byte slice (UTF-8 continuation bytes do not count; Unicode blanks
/// other than ASCII ones count as text, which is rare enough not to matter).
fn solid(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| !b.is_ascii_whitespace() && (b & 0xC0) != 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_does_not_count() {
        let text = "head  body text  foot";
        let c = score_spans(text, &[(0, 6)], &[(0, 4), (17, 21)]);
        assert_eq!(c, SpanCounts { hit: 4, removed: 4, template: 8 });
        assert_eq!(c.precision(), 1.0);
        assert_eq!(c.recall(), 0.5);
    }

    #[test]
    fn html_counts_the_text_a_reader_sees_not_the_markup() {
        let page = "<html><body><div class=\"nav\"><a href=\"/\">Home</a></div><p>Body text.</p></body></html>";
        let nav = (page.find("<div").unwrap(), page.find("<p>").unwrap());
        // the template is the whole menu element; a method that removes only its text got all of it
        let text_only = (page.find("Home").unwrap(), page.find("Home").unwrap() + 4);
        let c = score_page_spans(page, &[text_only], &[nav], Input::Html);
        assert_eq!(c, SpanCounts { hit: 4, removed: 4, template: 4 });
        // as bytes, the same removal would have found a sixth of the menu
        let bytes = score_page_spans(page, &[text_only], &[nav], Input::Txt);
        assert!(bytes.recall() < 0.2, "{bytes:?}");
        // removing the menu's markup and the article's first word: the word counts against precision
        let body = page.find("Body").unwrap();
        let c = score_page_spans(page, &[(nav.0, body + 4)], &[nav], Input::Html);
        assert_eq!(c, SpanCounts { hit: 4, removed: 8, template: 4 });
    }

    #[test]
    fn a_decoded_reference_counts_once() {
        let page = "<p>Fish &amp; chips</p><p>Article.</p>";
        let tpl = (0, page.find("<p>Art").unwrap());
        let c = score_page_spans(page, &[tpl], &[tpl], Input::Html);
        assert_eq!(c, SpanCounts { hit: 10, removed: 10, template: 10 });
    }
}
