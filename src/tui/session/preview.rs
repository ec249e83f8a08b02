//! The preview's side of a session: the shown document, cleaned off the UI thread (see
//! [`crate::tui::cleaning`]), its lines, scroll, cursors and selection, and where it is (to come back to
//! after a jump to a most changed document).

use std::sync::Arc;

use crate::rules::{Action as RuleAction, Status};

use super::Session;
use crate::tui::cleaning::PreviewRequest;
use crate::tui::document::line_of;

/// How long a key waits for the preview's cleaning before the frame is drawn without it: a document of
/// ordinary size is cleaned well within it and shows cleaned at once, a large one shows "cleaning…".
pub const PREVIEW_WAIT: std::time::Duration = std::time::Duration::from_millis(8);

/// A document the last impact shown changed, and the first changed byte of its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Jump {
    pub doc: usize,
    pub at: usize,
}

/// Where the preview is: the document, its scroll, its cursors and its selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub doc: usize,
    pub scroll: usize,
    pub line: usize,
    pub cursor: Option<usize>,
    pub kept: Option<(usize, usize)>,
    pub selection: Option<(usize, usize)>,
}

impl Session {
    /// Where the preview is now.
    pub fn place(&self) -> Place {
        let p = &self.preview;
        Place { doc: p.doc, scroll: p.scroll, line: p.line, cursor: p.cursor, kept: p.kept, selection: p.selection }
    }

    /// Shows the preview at `place` again (its document, scroll, cursors and selection).
    pub fn restore(&mut self, place: Place) {
        self.show_document(place.doc);
        let p = &mut self.preview;
        (p.scroll, p.line, p.kept, p.selection) = (place.scroll, place.line, place.kept, place.selection);
        p.cursor = place.cursor.filter(|&c| c < p.spans.len());
        self.clamp_preview_scroll();
    }

    pub fn document_text(&self) -> &str {
        self.draft.corpus.docs.get(self.preview.doc).map_or("", |d| d.text.as_str())
    }

    /// Cleans the previewed document again (after a decision or a cutoff move), off the UI thread: the
    /// preview shows the result at once if it comes within [`PREVIEW_WAIT`], else when it comes.
    pub fn refresh_preview(&mut self) {
        self.sync_pending_actions();
        let (strings, decisions, cutoff) = (&self.draft.mining.strings, &self.draft.decisions, self.draft.cutoff);
        let pending: Vec<bool> = strings
            .iter()
            .map(|s| s.bin >= cutoff && decisions.get(&s.id).map_or(!s.idiom, |r| r.status == Status::Pending))
            .collect();
        self.preview.render_html = self.draft.mining.tokenizer == crate::tokens::Tokenizer::Html;
        let request = PreviewRequest {
            corpus: Arc::clone(&self.draft.corpus),
            doc: self.preview.doc,
            matches_key: 0,
            accepted: None,
            all: self.draft.ready.all.clone(),
            pending: Arc::new(pending),
            pending_regions: None,
            with_pending: false,
            render_html: false,
        };
        self.preview.request(request, PREVIEW_WAIT);
        self.clamp_preview_scroll();
    }

    /// Takes the preview's cleaning if it has come back. Returns whether the preview changed.
    pub fn poll_preview(&mut self) -> bool {
        let changed = self.preview.poll();
        if changed {
            self.clamp_preview_scroll();
        }
        changed
    }

    /// Gives every string of the preview's pending matcher its decided action, so a pending suggested cut
    /// shows as the cut it would be, not as a removal of its own text.
    fn sync_pending_actions(&mut self) {
        let Some(all) = self.draft.ready.all.as_mut() else { return };
        for (i, s) in self.draft.mining.strings.iter().enumerate() {
            let action = self.draft.decisions.get(&s.id).map_or(RuleAction::Remove, |r| r.action);
            if all.action(i as u32) != action {
                // the worker may hold the matcher: it is copied then, not changed under it
                Arc::make_mut(all).set_action(i as u32, action);
            }
        }
    }

    /// Shows another document, or the same one after a new mining.
    pub(super) fn rematch_preview(&mut self) {
        self.preview.new_document();
        self.refresh_preview();
    }

    /// The preview's visual lines at the current width.
    pub fn preview_lines(&self) -> std::rc::Rc<Vec<(usize, usize)>> {
        self.preview.lines(self.preview.shown(self.document_text()), self.preview_width)
    }

    pub fn clamp_preview_scroll(&mut self) {
        let n = self.preview_lines().len();
        self.preview.scroll = self.preview.scroll.min(n.saturating_sub(self.preview_height.max(1)));
    }

    /// Starts a selection on the preview's top line, or drops the one there is.
    pub fn toggle_selection(&mut self) {
        if self.preview.selection.take().is_some() || self.preview.only_cleaned {
            return;
        }
        let lines = self.preview_lines();
        if let Some(&(a, b)) = lines.get(self.preview.scroll) {
            self.preview.selection = Some((a, b));
        }
    }

    /// Moves the selection's end `delta` visual lines (to that line's end, or its start when above the
    /// anchor), scrolling to keep it in view.
    pub fn extend_selection_lines(&mut self, delta: isize) {
        let Some((anchor, head)) = self.preview.selection else { return };
        let lines = self.preview_lines();
        let here = line_of(&lines, head.saturating_sub(usize::from(head > anchor)));
        let to = (here as isize + delta).clamp(0, lines.len().saturating_sub(1) as isize) as usize;
        let Some(&(a, b)) = lines.get(to) else { return };
        let head = if b > anchor || (a >= anchor && to >= here) { b } else { a };
        self.preview.selection = Some((anchor, head));
        let page = self.page.max(1);
        if to < self.preview.scroll {
            self.preview.scroll = to;
        } else if to >= self.preview.scroll + page {
            self.preview.scroll = to + 1 - page;
        }
        self.clamp_preview_scroll();
    }

    /// Moves the selection's end one word forward or back.
    pub fn extend_selection_word(&mut self, forward: bool) {
        let Some((anchor, head)) = self.preview.selection else { return };
        let text = self.document_text();
        let head = if forward {
            let rest = &text[head..];
            let skip = rest.find(|c: char| !c.is_whitespace()).unwrap_or(rest.len());
            let word = rest[skip..].find(char::is_whitespace).unwrap_or(rest.len() - skip);
            head + skip + word
        } else {
            let before = text[..head].trim_end();
            before.rfind(char::is_whitespace).map_or(0, |i| i + 1)
        };
        self.preview.selection = Some((anchor, head));
    }

    pub fn scroll_preview(&mut self, delta: isize) {
        self.preview.scroll = (self.preview.scroll as isize + delta).max(0) as usize;
        self.clamp_preview_scroll();
    }

    pub fn show_document(&mut self, doc: usize) {
        let doc = doc.min(self.draft.corpus.docs.len().saturating_sub(1));
        if doc != self.preview.doc {
            self.preview.doc = doc;
            self.preview.scroll = 0;
            self.preview.cursor = None;
            self.preview.selection = None;
        }
        self.rematch_preview();
    }

    /// Moves the preview's cursor to the next (`forward`) or previous removed span, scrolling to it.
    pub fn step_span(&mut self, forward: bool) {
        let n = self.preview.spans.len();
        if n == 0 || self.preview.only_cleaned {
            self.preview.cursor = None;
            return;
        }
        let next = match (self.preview.cursor, forward) {
            (None, true) => 0,
            (None, false) => n - 1,
            (Some(c), true) => (c + 1) % n,
            (Some(c), false) => (c + n - 1) % n,
        };
        self.preview.cursor = Some(next);
        let lines = self.preview_lines();
        let line = line_of(&lines, self.preview.spans[next].start);
        let h = self.preview_height.max(1);
        if line < self.preview.scroll || line >= self.preview.scroll + h {
            self.preview.scroll = line.saturating_sub(h / 3);
        }
        self.clamp_preview_scroll();
    }

    /// Share of the shown document's characters removed by accepted rules, and by pending ones besides.
    pub fn removed_share(&self) -> (f64, f64) {
        let len = self.document_text().len().max(1) as f64;
        (self.preview.removed as f64 / len, self.preview.pending as f64 / len)
    }
}
