//! Where each byte of a view's text comes from in its source. Cleaning finds spans on the view; the
//! cleaned HTML (tags kept), the HTML preview and `--explain` need them as source bytes, exactly.
//!
//! The map is a list of runs in view order, one per stretch of view text copied verbatim from a
//! contiguous stretch of source, and one per piece of view text that stands for source text as a
//! whole: a decoded character reference (`&amp;` → `&`), a space for a run of whitespace or tags, a
//! line break for a block tag. Runs tile the view text without gaps, and their sources are in order:
//! both lookups are a binary search.

use std::ops::Range;

/// One run: view bytes `view_start..` (to the next run's start) from source bytes
/// `source_start..source_start + source_len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    view_start: usize,
    source_start: usize,
    source_len: usize,
    /// Copied byte for byte (view length = source length); otherwise any part of the run's view text
    /// stands for the whole source range.
    verbatim: bool,
}

/// The view-to-source map of one view (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    runs: Vec<Run>,
    view_len: usize,
    source_len: usize,
}

impl SourceMap {
    /// The map of a view that is its source, unchanged (a text document).
    pub fn identity(len: usize) -> SourceMap {
        let runs = if len == 0 {
            Vec::new()
        } else {
            vec![Run { view_start: 0, source_start: 0, source_len: len, verbatim: true }]
        };
        SourceMap { runs, view_len: len, source_len: len }
    }

    /// Runs the map holds (its size).
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// The source byte ranges `view` comes from, in order, adjacent ones merged. A part of a decoded
    /// reference or of a collapsed space maps to all of its source. O(log n + ranges).
    pub fn to_source(&self, view: Range<usize>) -> Vec<Range<usize>> {
        let first = self.runs.partition_point(|r| r.view_start <= view.start).saturating_sub(1);
        let mut out = Vec::new();
        self.runs_to_source(first, view, &mut out);
        out
    }

    /// [`SourceMap::to_source`] of each of `spans` (sorted, not overlapping), merged, in one walk over
    /// the runs: O(runs + spans), for the many spans cleaning finds on one view.
    pub fn spans_to_source(&self, spans: &[Range<usize>]) -> Vec<Range<usize>> {
        let mut out: Vec<Range<usize>> = Vec::new();
        let mut i = 0;
        for view in spans.iter().filter(|s| s.start < s.end) {
            // the run holding the span's start; spans are sorted, so never behind the last one
            while i + 1 < self.runs.len() && self.runs[i + 1].view_start <= view.start {
                i += 1;
            }
            self.runs_to_source(i, view.clone(), &mut out);
        }
        out
    }

    /// The one source range covering all of `view` (from its first source byte to its last), for a
    /// span that is kept or removed as a whole: what lies between (tags, hidden text) goes with it.
    pub fn to_source_hull(&self, view: Range<usize>) -> Option<Range<usize>> {
        let ranges = self.to_source(view);
        Some(ranges.first()?.start..ranges.last()?.end)
    }

    /// The view position of source byte `at`: where that byte shows, or, for a byte that does not show
    /// (markup, a dropped script), where the next shown byte is. A byte inside a decoded reference or a
    /// collapsed space maps to its start. O(log n).
    pub fn from_source(&self, at: usize) -> usize {
        // the last run starting at or before `at`
        let i = self.runs.partition_point(|r| r.source_start <= at);
        if i > 0 {
            let r = self.runs[i - 1];
            let (s, e) = (r.source_start, r.source_start + r.source_len);
            if at < e {
                return if r.verbatim { r.view_start + (at - s) } else { r.view_start };
            }
        }
        self.runs.get(i).map_or(self.view_len, |r| r.view_start)
    }

    /// Appends the source of `view` to `out`, from run `first` (the run holding `view.start`) on,
    /// merging ranges that touch.
    fn runs_to_source(&self, first: usize, view: Range<usize>, out: &mut Vec<Range<usize>>) {
        for (j, r) in self.runs.iter().enumerate().skip(first) {
            let (vs, ve) = (r.view_start, self.view_end(j));
            if vs >= view.end {
                break;
            }
            let (a, b) = (view.start.max(vs), view.end.min(ve));
            if a >= b {
                continue;
            }
            let src = if r.verbatim {
                let s = r.source_start;
                s + (a - vs)..s + (b - vs)
            } else {
                r.source_start..r.source_start + r.source_len
            };
            match out.last_mut() {
                Some(last) if last.end >= src.start => last.end = last.end.max(src.end),
                _ => out.push(src),
            }
        }
    }

    fn view_end(&self, i: usize) -> usize {
        self.runs.get(i + 1).map_or(self.view_len, |r| r.view_start)
    }

    /// Length of the source the map is of.
    pub fn source_len(&self) -> usize {
        self.source_len
    }
}

/// Builds a [`SourceMap`] as view text is appended, merging verbatim runs that continue each other.
#[derive(Debug, Default)]
pub(crate) struct MapBuilder {
    map: SourceMap,
}

impl MapBuilder {
    /// `view_len` bytes of view text, starting at `view_start`, copied from source bytes at
    /// `source_start`.
    pub(crate) fn verbatim(&mut self, view_start: usize, source_start: usize, len: usize) {
        if let Some(last) = self.map.runs.last_mut()
            && last.verbatim
            && last.source_start + last.source_len == source_start
            && view_start == last.view_start + last.source_len
        {
            last.source_len += len;
            return;
        }
        self.push(view_start, source_start..source_start + len, true);
    }

    /// View text starting at `view_start` standing for the whole of `source`.
    pub(crate) fn whole(&mut self, view_start: usize, source: Range<usize>) {
        self.push(view_start, source, false);
    }

    fn push(&mut self, view_start: usize, source: Range<usize>, verbatim: bool) {
        debug_assert!(self.map.runs.last().is_none_or(|r| r.source_start <= source.start));
        self.map.runs.push(Run {
            view_start,
            source_start: source.start,
            source_len: source.end - source.start,
            verbatim,
        });
    }

    pub(crate) fn finish(mut self, view_len: usize, source_len: usize) -> SourceMap {
        self.map.view_len = view_len;
        self.map.source_len = source_len;
        self.map
    }
}
