//! `chaff clean --explain`: every range removed or given back, every rule that matched it (by id, with its
//! action) and the stages that decided, as tab-separated lines for files and as JSON for JSON Lines.

use std::fmt::Write as _;
use std::path::Path;

use chaff::cleaning::{Cleaner, Decision, Explanation, Reason, SpanKind};
use chaff::page::Page;
use serde::Serialize;

/// One explained range, as JSON Lines print it.
#[derive(Serialize)]
pub(super) struct ExplainedSpan<'a> {
    start: usize,
    end: usize,
    /// `removed`, `cut-before`, `cut-after`, or `kept` (given back by a stage or a keep rule).
    kind: &'static str,
    rules: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    stages: Vec<&'static str>,
    /// What a reader sees of the range (shortened).
    #[serde(skip)]
    shown: String,
}

/// The explained ranges of a document, removed and kept, sorted by start.
/// Offsets are the source's (for HTML, each range's hull in the page's bytes), through `to_file` (the
/// decoded source's offsets to the file's bytes); the text is the page's.
pub(super) fn explained<'a>(
    cleaner: &'a Cleaner,
    page: &Page,
    e: &Explanation,
    to_file: &dyn Fn(usize) -> usize,
) -> Vec<ExplainedSpan<'a>> {
    let mut out = Vec::with_capacity(e.decisions.len());
    let mut spans = e.spans.iter().peekable();
    for d in &e.decisions {
        let kind = if d.removed {
            // the removed span this decision is (decisions and spans are both sorted)
            let s = spans.find(|s| s.start == d.start && s.end == d.end);
            kind_name(s.map_or(SpanKind::Removed, |s| s.kind))
        } else {
            "kept"
        };
        let (start, end) = page.to_source_hull(d.start, d.end);
        let (start, end) = (to_file(start), to_file(end));
        let shown = excerpt(&page.text()[d.start..d.end]);
        out.push(ExplainedSpan { start, end, kind, rules: rule_ids(cleaner, d), stages: stages(d), shown });
    }
    out
}

/// `path`'s explained ranges as lines: path, range, kind, rule ids, stages, the text.
pub(super) fn explain_lines(
    path: &Path,
    cleaner: &Cleaner,
    page: &Page,
    e: &Explanation,
    to_file: &dyn Fn(usize) -> usize,
) -> String {
    let mut lines = String::new();
    for s in explained(cleaner, page, e, to_file) {
        let _ = writeln!(
            lines,
            "{}\t{}..{}\t{}\t{}\t{}\t{}",
            path.display(),
            s.start,
            s.end,
            s.kind,
            s.rules.join(","),
            s.stages.join(","),
            s.shown
        );
    }
    lines
}

fn rule_ids<'a>(cleaner: &'a Cleaner, d: &Decision) -> Vec<&'a str> {
    d.reasons
        .iter()
        .filter_map(|r| match r {
            Reason::Rule { rule, .. } => Some(cleaner.rule_id(*rule)),
            Reason::Stage(_) => None,
        })
        .collect()
}

fn stages(d: &Decision) -> Vec<&'static str> {
    d.reasons
        .iter()
        .filter_map(|r| match r {
            Reason::Stage(s) => Some(s.name()),
            Reason::Rule { .. } => None,
        })
        .collect()
}

pub(super) fn kind_name(kind: SpanKind) -> &'static str {
    match kind {
        SpanKind::Removed => "removed",
        SpanKind::CutBefore => "cut-before",
        SpanKind::CutAfter => "cut-after",
    }
}

fn excerpt(s: &str) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 80 { format!("{}…", flat.chars().take(80).collect::<String>()) } else { flat }
}
