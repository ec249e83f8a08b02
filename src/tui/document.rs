//! The preview's model: one document of the corpus, cleaned twice — by the accepted rules (what the
//! rules file removes) and by the pending candidates at or above the chosen cutoff and the pending region
//! rules (what accepting them would remove) — and laid out in lines for the pane. Drawing only reads it.
//! The cleaning runs off the UI thread ([`super::cleaning`]): until it comes back the preview shows its
//! last cleaned state.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use crate::cleaning::{Cleaner, Match, SpanKind};

use super::cleaning::{Computed, Done, Explained, PreviewCleaner, PreviewRequest, compute, structure_of};

/// Documents up to this size are cleaned on the UI thread: a page of ordinary size cleans well within a
/// frame, and a thread between would only add its wake-up to every key. Larger ones go to the worker.
pub const INLINE_BYTES: usize = 64 << 10;

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
    /// Would be removed by pending candidates above the cutoff or pending region rules, if accepted (a
    /// removal, or a suggested header / footer cut).
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
    /// HTML documents: the cleaned text is shown as a reader sees it ([`crate::reading::html_text`]), as
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
    /// Why the accepted rules removed or kept what `spans` show, from the pass that made them (`e`).
    pub explained: Option<Explained>,
    pub accepted_cleaner: Option<Arc<Cleaner>>,
    /// The accepted rules with the pending region rules besides (see [`PreviewRequest::pending_regions`]).
    pub pending_regions_cleaner: Option<Arc<Cleaner>>,
    /// Changes with the document shown and the mining: the worker finds the document's matches of every
    /// mined string again when it changes (the pending spans are these matches filtered, so a decision or
    /// a cutoff move finds none).
    pub matches_key: u64,
    /// The cleaning worker, and the generation of the cleaning it runs for this preview, if one runs.
    worker: PreviewCleaner,
    pub cleaning: Option<u64>,
    /// A small document's matches of every mined string, found here, and the key they were found under.
    inline_matches: Option<(u64, usize, Vec<Match>)>,
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
    /// Another document is shown (or the mining changed): its matches are found again, and the spans and
    /// cleaned text of the one before, which are not of its text, are dropped until its own come back.
    pub fn new_document(&mut self) {
        self.matches_key += 1;
        self.doc_version += 1;
        self.cleaned_version += 1;
        self.spans.clear();
        self.cleaned.clear();
        self.removed = 0;
        self.pending = 0;
        self.explained = None;
        self.cursor = None;
    }

    /// Asks the worker to clean the shown document as `request` says (its document, cleaners and pending
    /// candidates; the preview's own settings are filled in), then waits at most `wait` for the result: a
    /// small document is cleaned within a frame and shows at once; a large one shows its last state,
    /// "cleaning…", until [`Preview::poll`] takes the result.
    pub fn request(&mut self, mut request: PreviewRequest, wait: Duration) {
        request.accepted = self.accepted_cleaner.clone();
        request.pending_regions = self.pending_regions_cleaner.clone();
        request.matches_key = self.matches_key;
        request.with_pending = self.with_pending;
        request.render_html = self.render_html;
        request.doc = self.doc;
        let text = request.corpus.docs.get(self.doc).map_or("", |d| d.text.as_str());
        if text.len() > INLINE_BYTES {
            self.cleaning = Some(self.worker.request(request));
            self.settle(wait);
            return;
        }
        // a cleaning of a large document shown before is moot
        self.worker.cancel();
        self.cleaning = None;
        let key = (self.matches_key, self.doc);
        if self.inline_matches.as_ref().is_none_or(|(k, d, _)| (*k, *d) != key) {
            let found = request.all.as_deref().map(|c| c.matches(text)).unwrap_or_default();
            self.inline_matches = Some((key.0, key.1, found));
        }
        let matches = self.inline_matches.as_ref().map_or(&[][..], |(_, _, m)| m.as_slice());
        let pending = |i: usize| request.pending.get(i).copied().unwrap_or(false);
        let computed = compute(
            text,
            structure_of(&request.corpus, self.doc),
            request.accepted.as_ref(),
            request.all.as_deref(),
            request.pending_regions.as_deref(),
            matches,
            pending,
            request.with_pending,
            request.render_html,
        );
        self.apply(computed);
    }

    /// Takes the worker's results; the latest one is applied. Returns whether the preview changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Some(done) = self.worker.try_recv() {
            changed |= self.take(done);
        }
        changed
    }

    /// Waits at most `timeout` for the running cleaning (tests, benchmarks). Returns whether it came back.
    pub fn settle(&mut self, timeout: Duration) -> bool {
        let deadline = std::time::Instant::now() + timeout;
        while self.cleaning.is_some() {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return false;
            }
            if let Some(done) = self.worker.recv_timeout(left.min(Duration::from_millis(50))) {
                self.take(done);
            }
        }
        true
    }

    fn take(&mut self, done: Done) -> bool {
        // an older cleaning (another document, an earlier decision) is moot
        if self.cleaning != Some(done.generation) || !self.worker.is_latest(done.generation) {
            return false;
        }
        self.cleaning = None;
        if done.doc != self.doc || done.matches_key != self.matches_key {
            return false;
        }
        self.apply(done.computed);
        true
    }

    /// Shows a document's cleaning (see [`super::cleaning::compute`]).
    pub fn apply(&mut self, c: Computed) {
        // the cleaned text is new (the document's layout stands: see `doc_version`)
        self.cleaned_version += 1;
        let Computed { spans, cleaned, removed, pending, explained } = c;
        self.spans = spans;
        // a large cleaned text, and a large document's explanation, are freed off the UI thread
        let old = std::mem::replace(&mut self.cleaned, cleaned);
        let old_explained = std::mem::replace(&mut self.explained, explained);
        if old.len() > 1 << 20 || old_explained.as_ref().is_some_and(|x| x.explanation.decisions.len() > 1 << 12) {
            std::thread::spawn(move || drop((old, old_explained)));
        }
        self.removed = removed;
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
