//! The candidate list: which mined strings are shown (at or above the chosen cutoff, matching the
//! filter), in which order, which one is selected and which are marked for a bulk action.

use std::collections::HashSet;

use crate::cutoff::CutoffBin;
use crate::mining::Mining;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// Document frequency, then length (the miner's order).
    #[default]
    Df,
    /// Characters removed across the corpus.
    Coverage,
    /// New coverage: what a string removes beyond the strings of larger coverage (a periodic archive
    /// list's many overlapping strings sink to the bottom). The oracle editor's order.
    New,
    /// Length in tokens.
    Length,
}

impl Sort {
    pub fn next(self) -> Sort {
        match self {
            Sort::Df => Sort::Coverage,
            Sort::Coverage => Sort::New,
            Sort::New => Sort::Length,
            Sort::Length => Sort::Df,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Sort::Df => "df",
            Sort::Coverage => "coverage",
            Sort::New => "new coverage",
            Sort::Length => "length",
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct CandidateList {
    /// Indices into `mining.strings`, in display order.
    pub rows: Vec<usize>,
    /// Position in `rows`.
    pub selected: usize,
    /// First row drawn.
    pub offset: usize,
    /// Ids of marked strings.
    pub marks: HashSet<String>,
    pub filter: String,
    /// Only the candidates still pending are listed: what is left to decide.
    pub pending_only: bool,
    pub sort: Sort,
    /// The id a Space just marked on the last row (the selection could not move on): a second Space there
    /// leaves it marked. Cleared when the selection moves.
    pub just_marked: Option<String>,
    /// Strings from this index on are decided rules the mining did not find: the editor's own (marked,
    /// kept, trimmed, hand-written) and stale ones.
    pub editor_from: usize,
    /// Only those are listed (the "made by the editor" filter).
    pub editor_only: bool,
}

impl CandidateList {
    /// Recomputes the rows, keeping the selected string selected if it is still shown. `pending` tells
    /// whether a string is still pending (read only with [`CandidateList::pending_only`]).
    /// The decided rules no mining found (the editor's own, stale ones) are listed whatever the cutoff while
    /// decided (`decided`); set back to pending, an editor's rule is no rule and leaves the list. A mined
    /// string accepted (`accepted`) is listed below the cutoff too: it is in force, and what is in force
    /// stays in sight, to be read and undone.
    pub fn rebuild(
        &mut self,
        mining: &Mining,
        lower: &[String],
        cutoff: CutoffBin,
        pending: impl Fn(usize) -> bool,
        decided: impl Fn(usize) -> bool,
        accepted: impl Fn(usize) -> bool,
    ) {
        let keep = self.current().map(|i| mining.strings.get(i).map(|s| s.id.clone()));
        let needle = self.filter.to_lowercase();
        let from = self.editor_from.min(mining.strings.len());
        let shown = |i: usize| {
            if i < from { (mining.strings[i].bin >= cutoff || accepted(i)) && !self.editor_only } else { decided(i) }
        };
        let mut rows: Vec<usize> = (0..mining.strings.len())
            .filter(|&i| shown(i) && (needle.is_empty() || lower[i].contains(&needle)))
            .filter(|&i| !self.pending_only || pending(i))
            .collect();
        let s = &mining.strings;
        match self.sort {
            // the miner's order already is df, then length
            Sort::Df => rows.sort_by(|&a, &b| {
                s[b].df.cmp(&s[a].df).then(s[b].symbols.len().cmp(&s[a].symbols.len())).then(a.cmp(&b))
            }),
            Sort::Coverage => rows.sort_by(|&a, &b| s[b].coverage.cmp(&s[a].coverage).then(a.cmp(&b))),
            Sort::New => {
                rows.sort_by(|&a, &b| (s[b].adds, s[b].coverage).cmp(&(s[a].adds, s[a].coverage)).then(a.cmp(&b)))
            }
            Sort::Length => rows.sort_by(|&a, &b| s[b].symbols.len().cmp(&s[a].symbols.len()).then(a.cmp(&b))),
        }
        self.rows = rows;
        if let Some(Some(id)) = keep
            && let Some(pos) = self.rows.iter().position(|&i| mining.strings[i].id == id)
        {
            self.selected = pos;
        }
        self.selected = self.selected.min(self.rows.len().saturating_sub(1));
    }

    /// Whether string `i` is a decided rule the mining did not find (see `editor_from`).
    pub fn is_editors(&self, i: usize) -> bool {
        i >= self.editor_from
    }

    /// The selected string (index into `mining.strings`).
    pub fn current(&self) -> Option<usize> {
        self.rows.get(self.selected).copied()
    }

    pub fn select(&mut self, pos: usize) {
        let pos = pos.min(self.rows.len().saturating_sub(1));
        if pos != self.selected {
            self.just_marked = None;
        }
        self.selected = pos;
    }

    /// Moves the selection by `delta` rows, clamped.
    pub fn step(&mut self, delta: isize) {
        let pos = (self.selected as isize + delta).max(0) as usize;
        self.select(pos);
    }

    /// Keeps the selected row within `offset..offset + height`.
    pub fn scroll_into_view(&mut self, height: usize) {
        let height = height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        self.offset = self.offset.min(self.rows.len().saturating_sub(height));
    }
}
