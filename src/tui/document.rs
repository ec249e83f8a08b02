//! The preview's model: one document of the corpus, cleaned twice — by the accepted rules (what the
//! rules file removes) and by the pending candidates at or above the chosen cutoff (what accepting
//! them would remove) — and laid out in lines for the pane. Drawing only reads it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::cleaning::{Cleaned, Cleaner, Match, SpanKind};

thread_local! {
    /// How many times a text was laid out in lines on this thread: tests bound the preview's work by it.
    static WRAPS: Cell<usize> = const { Cell::new(0) };
}

/// How many times [`wrap`] has run on this thread.
pub fn wraps() -> usize {
    WRAPS.with(Cell::get)
}

/// What a highlighted span of the preview is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// Removed by accepted rules (a removal, or a header / footer cut).
    Accepted(SpanKind),
    /// Would be removed by pending candidates above the cutoff, if accepted (a removal, or a suggested
    /// header / footer cut).
    Pending(SpanKind),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewSpan {
    pub start: usize,
    pub end: usize,
    pub mark: Mark,
    /// Ids of the rules behind the span.
    pub rules: Vec<String>,
}

#[derive(Debug, Default)]
pub struct Preview {
    /// Index into the corpus's documents.
    pub doc: usize,
    /// Show the cleaned text alone instead of the document with removed spans highlighted.
    pub only_cleaned: bool,
    /// The cleaned text is of the accepted and pending rules, not the accepted ones alone (what is
    /// exported).
    pub with_pending: bool,
    /// HTML documents: the cleaned text is shown as a reader sees it ([`crate::render::html_text`]), as
    /// `chaff eval --input html` scores it and `chaff clean --text` writes it.
    pub render_html: bool,
    /// First visual line drawn.
    pub scroll: usize,
    /// Index into `spans`: the span under the cursor.
    pub cursor: Option<usize>,
    /// The line cursor: the visual line marking, selecting and explaining act on.
    pub line: usize,
    /// The kept block under the cursor (`]`/`[` stop on kept text too), when no span is.
    pub kept: Option<(usize, usize)>,
    /// The last text searched for with `/` (n/N find it again).
    pub search: Option<String>,
    /// A selection of the document's text: where it was started (anchor) and where it ends now (head),
    /// in bytes; marked as template or kept with one key.
    pub selection: Option<(usize, usize)>,
    pub spans: Vec<PreviewSpan>,
    /// The document cleaned by the accepted rules.
    pub cleaned: String,
    /// Bytes removed by accepted rules, and by pending ones besides.
    pub removed: usize,
    pub pending: usize,
    pub accepted_cleaner: Option<Cleaner>,
    /// Matches of every mined string in the document: the pending spans are these matches filtered,
    /// so a cutoff move rebuilds nothing.
    pub doc_matches: Vec<Match>,
    /// The shown text laid out at a width, kept until the text or the width changes: a key must not lay
    /// out a large document again (see [`Preview::lines`]).
    layout: RefCell<Option<LaidOut>>,
    /// Bumped when the document shown changes (another one, a new corpus) and when the cleaned text is
    /// made again: the layout of the text shown is kept while its version stands, so a decision on a
    /// large document lays out again only the cleaned text, and only when that is shown.
    doc_version: u64,
    cleaned_version: u64,
}

#[derive(Debug)]
struct LaidOut {
    /// Which text (document or cleaned, its version, address and length) at which width.
    key: (bool, u64, usize, usize, usize),
    lines: Rc<Vec<(usize, usize)>>,
}

impl Preview {
    /// Finds every mined string in the document (on a new document or a new mining).
    pub fn match_all(&mut self, all: Option<&Cleaner>, text: &str) {
        self.doc_version += 1;
        self.doc_matches = all.map(|c| c.matches(text)).unwrap_or_default();
    }

    /// Cleans `text` with the accepted rules, and with the strings of `all` (every mined string) that
    /// `is_pending` says are pending candidates above the cutoff; combines the spans: accepted ones, and pending ones where nothing accepted
    /// removes already.
    pub fn compute(&mut self, text: &str, all: Option<&Cleaner>, is_pending: impl Fn(usize) -> bool) {
        // the cleaned text is new (the document's layout stands: see `doc_version`)
        self.cleaned_version += 1;
        let accepted = match &self.accepted_cleaner {
            Some(c) => c.clean(text),
            None => Cleaned { text: text.trim().to_string(), spans: Vec::new(), removed_bytes: 0 },
        };
        let mut spans: Vec<PreviewSpan> = accepted
            .spans
            .iter()
            .map(|s| PreviewSpan {
                start: s.start,
                end: s.end,
                mark: Mark::Accepted(s.kind),
                rules: rule_ids(self.accepted_cleaner.as_ref(), &s.rules),
            })
            .collect();
        let mut pending = 0;
        if let Some(all) = all {
            let matches: Vec<Match> =
                self.doc_matches.iter().filter(|m| is_pending(m.rule as usize)).copied().collect();
            for s in all.spans_of(text, &matches) {
                let rules = rule_ids(Some(all), &s.rules);
                for (a, b) in subtract((s.start, s.end), &accepted.spans) {
                    if text[a..b].trim().is_empty() {
                        continue;
                    }
                    pending += b - a;
                    spans.push(PreviewSpan { start: a, end: b, mark: Mark::Pending(s.kind), rules: rules.clone() });
                }
            }
        }
        spans.sort_by_key(|s| (s.start, s.end));
        self.spans = spans;
        // accepted and pending spans are disjoint: pending ones are what accepted ones leave
        let removed: Vec<(usize, usize)> = if self.with_pending {
            self.spans.iter().map(|s| (s.start, s.end)).collect()
        } else {
            accepted.spans.iter().map(|s| (s.start, s.end)).collect()
        };
        self.cleaned = if self.render_html {
            crate::render::html_text(text, &removed)
        } else if self.with_pending {
            let spans: Vec<crate::cleaning::Span> =
                removed.iter().map(|&(a, b)| crate::cleaning::Span::new(a, b, SpanKind::Removed, Vec::new())).collect();
            crate::cleaning::render(text, &spans)
        } else {
            accepted.text
        };
        self.removed = accepted.removed_bytes;
        self.pending = pending;
        if self.cursor.is_some_and(|c| c >= self.spans.len()) {
            self.cursor = self.spans.len().checked_sub(1);
        }
    }

    /// The selected bytes, ordered; `None` when nothing or an empty range is selected.
    pub fn selected(&self) -> Option<(usize, usize)> {
        let (a, h) = self.selection?;
        (a != h).then(|| (a.min(h), a.max(h)))
    }

    /// The visual lines of `shown` (the text the pane shows) at `width`: laid out once per text and width.
    pub fn lines(&self, shown: &str, width: usize) -> Rc<Vec<(usize, usize)>> {
        let version = if self.only_cleaned { self.cleaned_version } else { self.doc_version };
        let key = (self.only_cleaned, version, shown.as_ptr() as usize, shown.len(), width);
        let mut cache = self.layout.borrow_mut();
        match cache.as_ref() {
            Some(l) if l.key == key => Rc::clone(&l.lines),
            _ => {
                let lines = Rc::new(wrap(shown, width));
                *cache = Some(LaidOut { key, lines: Rc::clone(&lines) });
                lines
            }
        }
    }

    /// The text the pane shows: the document, or its cleaned text.
    pub fn shown<'a>(&'a self, document: &'a str) -> &'a str {
        if self.only_cleaned { &self.cleaned } else { document }
    }
}

fn rule_ids(cleaner: Option<&Cleaner>, rules: &[u32]) -> Vec<String> {
    cleaner.map(|c| rules.iter().map(|&r| c.rule_id(r).to_string()).collect()).unwrap_or_default()
}

/// `range` minus the (sorted, disjoint) spans: only the spans that meet it are visited (a binary search
/// finds the first), so a large document's pending spans cost no scan of every accepted span each.
fn subtract(range: (usize, usize), spans: &[crate::cleaning::Span]) -> Vec<(usize, usize)> {
    let (mut a, b) = range;
    let mut out = Vec::new();
    let first = spans.partition_point(|s| s.end <= a);
    for s in &spans[first..] {
        if s.start >= b {
            break;
        }
        if s.start > a {
            out.push((a, s.start));
        }
        a = a.max(s.end);
    }
    if a < b {
        out.push((a, b));
    }
    out
}

/// Lays `text` out in lines of at most `width` characters, breaking at whitespace where possible.
/// Returns the byte range of each visual line (newlines excluded).
pub fn wrap(text: &str, width: usize) -> Vec<(usize, usize)> {
    WRAPS.with(|w| w.set(w.get() + 1));
    let width = width.max(1);
    let mut out = Vec::new();
    let mut base = 0;
    for line in text.split('\n') {
        let mut start = base;
        let mut cols = 0;
        let mut brk: Option<usize> = None;
        for (off, c) in line.char_indices() {
            let i = base + off;
            if cols >= width {
                if c.is_whitespace() {
                    out.push((start, i));
                    start = i + c.len_utf8();
                    cols = 0;
                    brk = None;
                    continue;
                }
                match brk {
                    Some(b) if b > start => {
                        out.push((start, b));
                        start = b + text[b..].chars().next().map_or(1, char::len_utf8);
                        cols = text[start..i].chars().count();
                    }
                    _ => {
                        out.push((start, i));
                        start = i;
                        cols = 0;
                    }
                }
                brk = None;
            }
            if c.is_whitespace() {
                brk = Some(i);
            }
            cols += 1;
        }
        out.push((start, base + line.len()));
        base += line.len() + 1;
    }
    out
}

/// The visual line holding byte `pos`.
pub fn line_of(lines: &[(usize, usize)], pos: usize) -> usize {
    lines.partition_point(|l| l.0 <= pos).saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_html_preview_reads_as_a_reader_sees_the_page() {
        use crate::mutable::MutableSet;
        use crate::rules::{Action, Rule};
        use crate::symbol::Symbol;
        use crate::tokens::Tokenizer;
        // the rule takes the menu and the script's opening tag: its code must not become text
        let m = MutableSet::defaults();
        let symbols: Vec<Symbol> = "<nav> Home </nav> <script>".split(' ').map(Symbol::decode).collect();
        let rule = Rule::accepted("r", &symbols, Action::Remove, Tokenizer::Html, &m).unwrap();
        let cleaner = Cleaner::from_rules(Tokenizer::Html, m.patterns(), [&rule], 0).unwrap();
        let text = "<html><body><nav> Home </nav><script>var x = 1;</script>\n\
            <p>The article <img alt=\"Image\" src=\"x.gif\">text.</p></body></html>";
        let mut preview = Preview { render_html: true, accepted_cleaner: Some(cleaner), ..Preview::default() };
        preview.compute(text, None, |_| false);
        assert!(!preview.cleaned.contains("var x") && !preview.cleaned.contains("Home"), "{}", preview.cleaned);
        assert!(
            preview.cleaned.contains("The article text.") && !preview.cleaned.contains("Image"),
            "{}",
            preview.cleaned
        );
    }

    #[test]
    fn subtracting_spans_visits_only_those_that_meet_the_range() {
        use crate::cleaning::Span;
        let spans: Vec<Span> =
            (0..1000).map(|i| Span::new(i * 10, i * 10 + 4, SpanKind::Removed, Vec::new())).collect();
        assert_eq!(subtract((12, 33), &spans), [(14, 20), (24, 30)]);
        assert_eq!(subtract((5, 9), &spans), [(5, 9)]);
        assert_eq!(subtract((9_990, 9_994), &spans), []);
        assert_eq!(subtract((9_995, 10_005), &spans), [(9_995, 10_005)]);
    }

    fn lines(text: &str, width: usize) -> Vec<&str> {
        wrap(text, width).iter().map(|&(a, b)| &text[a..b]).collect()
    }

    #[test]
    fn wraps_at_spaces_and_newlines() {
        assert_eq!(lines("aaa bbb ccc", 7), ["aaa bbb", "ccc"]);
        assert_eq!(lines("aaa bbb ccc", 5), ["aaa", "bbb", "ccc"]);
        assert_eq!(lines("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(lines("a\n\nb", 3), ["a", "", "b"]);
        assert_eq!(lines("«x» éé", 3), ["«x»", "éé"]);
        for (w, t) in [(1, "a b  c"), (4, "ab  cd   ef"), (2, " x ")] {
            for &(a, b) in &wrap(t, w) {
                assert!(t[a..b].chars().count() <= w, "{t:?} {w}");
            }
        }
    }
}
