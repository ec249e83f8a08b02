//! Removed spans as sets: the union of matches, merging, giving a stretch back, the kept runs between
//! them, and the text left once they are gone. Every stage changes what is removed through these.

use super::{Layout, Match, Span, SpanKind, work};
use crate::clean_settings::Stage;

/// Union of matches as spans; intervals fewer than `gap` characters apart are joined.
pub(super) fn union<'a>(text: &str, matches: impl Iterator<Item = &'a Match>, gap: usize, kind: SpanKind) -> Vec<Span> {
    let mut ms: Vec<&Match> = matches.collect();
    ms.sort_unstable();
    let mut out: Vec<Span> = Vec::new();
    for m in ms {
        if let Some(last) = out.last_mut()
            && (m.start <= last.end || joinable(&text[last.end..m.start], gap))
        {
            last.end = last.end.max(m.end);
            if !last.rules.contains(&m.rule) {
                last.rules.push(m.rule);
            }
            continue;
        }
        out.push(Span::new(m.start, m.end, kind, vec![m.rule]));
    }
    for s in &mut out {
        s.rules.sort_unstable();
    }
    out
}

/// Whether the text between two removed intervals goes with them: only whitespace (nothing would be
/// left of it), or fewer than `gap` characters.
fn joinable(between: &str, gap: usize) -> bool {
    between.trim().is_empty() || (gap > 0 && between.chars().count() < gap)
}

/// Extends `last` over `s` (which starts within or after it): a cut absorbs the removals it covers, and
/// the rules and stages of both are kept.
pub(super) fn absorb(last: &mut Span, s: Span) {
    last.end = last.end.max(s.end);
    if last.kind == SpanKind::Removed {
        last.kind = s.kind;
    }
    for r in s.rules {
        if !last.rules.contains(&r) {
            last.rules.push(r);
        }
    }
    last.rules.sort_unstable();
    for st in s.stages {
        if !last.stages.contains(&st) {
            last.stages.push(st);
        }
    }
    last.stages.sort_unstable();
}

/// Merges overlapping spans of different kinds; a cut absorbs the removals it covers.
pub(super) fn merge_spans(mut spans: Vec<Span>) -> Vec<Span> {
    spans.sort_by_key(|s| (s.start, s.end));
    let mut out: Vec<Span> = Vec::new();
    for s in spans {
        if let Some(last) = out.last_mut()
            && s.start <= last.end
        {
            absorb(last, s);
            continue;
        }
        out.push(s);
    }
    out
}

/// `spans` less `start..end`: a span across it is split in two.
pub(super) fn give_back(spans: Vec<Span>, start: usize, end: usize) -> Vec<Span> {
    let mut out = Vec::with_capacity(spans.len() + 1);
    for s in spans {
        if s.end <= start || s.start >= end {
            out.push(s);
            continue;
        }
        if s.start < start {
            out.push(Span { end: start, ..s.clone() });
        }
        if s.end > end {
            out.push(Span { start: end, ..s });
        }
    }
    out
}

/// The stretches of a text of `len` bytes between `removed` spans (sorted), empty ones left out.
pub(super) fn kept_runs(len: usize, removed: &[Span]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut pos = 0;
    for s in removed {
        if s.start > pos {
            runs.push((pos, s.start));
        }
        pos = pos.max(s.end);
    }
    if pos < len {
        runs.push((pos, len));
    }
    runs
}

/// The lines of `doc` that kept run `start..end` holds some text of, among its first `lines` (at least
/// one): `(k, a, b, whole)` for line `k` at `a..b`, `whole` when the run holds all of it. A line the run
/// only touches (its kept part blank) is left out. Counted as the lines read, once per run.
pub(super) fn run_lines(
    doc: &Layout<'_>,
    (start, end): (usize, usize),
    lines: usize,
) -> impl Iterator<Item = (usize, usize, usize, bool)> {
    let (first, last) = (doc.line_of(start), doc.line_of(end).min(lines - 1));
    work::add((last + 1).saturating_sub(first));
    (first..=last).filter_map(move |k| {
        let (a, b) = doc.line_range(k);
        (!doc.is_blank(a.max(start), b.min(end))).then_some((k, a, b, start <= a && b <= end))
    })
}

/// A span a stage removed on its own (no rule matched it).
pub(super) fn by_stage(start: usize, end: usize, stage: Stage) -> Span {
    Span { start, end, kind: SpanKind::Removed, rules: Vec::new(), stages: vec![stage] }
}

/// Sorted, disjoint, non-empty byte ranges from any ranges.
pub fn normalize(spans: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = spans.iter().copied().filter(|s| s.1 > s.0).collect();
    v.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(v.len());
    for (s, e) in v {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// The text with `spans` removed. At each seam the whitespace around the removed text collapses to one
/// separator: a newline if any was there, else a space. The result is trimmed.
pub fn render(text: &str, spans: &[Span]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut newline = false;
    let mut pos = 0;
    let keep = |kept: &str, out: &mut String, newline: &mut bool| {
        let t = kept.trim();
        if t.is_empty() {
            *newline |= kept.contains('\n');
            return;
        }
        let lead = &kept[..kept.len() - kept.trim_start().len()];
        *newline |= lead.contains('\n');
        if !out.is_empty() {
            out.push(if *newline { '\n' } else { ' ' });
        }
        out.push_str(t);
        *newline = kept[kept.trim_end().len()..].contains('\n');
    };
    if spans.is_empty() {
        return text.trim().to_string();
    }
    for s in spans {
        keep(&text[pos..s.start], &mut out, &mut newline);
        newline |= text[s.start..s.end].contains('\n');
        pos = s.end;
    }
    keep(&text[pos..], &mut out, &mut newline);
    out
}

/// `spans` less every range of `ranges` (sorted and disjoint), in one sweep over both: a span across a
/// range is split around it.
pub(super) fn subtract(spans: Vec<Span>, ranges: &[(usize, usize)]) -> Vec<Span> {
    if ranges.is_empty() {
        return spans;
    }
    let mut out = Vec::with_capacity(spans.len() + ranges.len());
    let mut k = 0;
    for s in spans {
        // ranges ending before this span cannot touch it, nor any later span
        while k < ranges.len() && ranges[k].1 <= s.start {
            k += 1;
        }
        let mut from = s.start;
        let mut j = k;
        while j < ranges.len() && ranges[j].0 < s.end {
            let (a, b) = ranges[j];
            if a > from {
                out.push(Span { start: from, end: a, ..s.clone() });
            }
            from = from.max(b);
            j += 1;
        }
        if from < s.end {
            out.push(Span { start: from, ..s });
        }
    }
    out
}
