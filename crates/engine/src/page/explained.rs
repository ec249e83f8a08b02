//! What `chaff clean --explain` names of a cleaned page: every range removed or given back, the rules that
//! matched it and the stages that decided, in the offsets of the input the output was cut from. The
//! command line and the Python module print the same ranges from here.
//!
//! The removed ranges add up to the output: the output is its input less their bytes, nothing else. Their
//! offsets are the input's: the document's own bytes, or for `--text` of an HTML page the bytes of its
//! view. A removed range of HTML that keeps tags inside it lists the pieces it took.

use serde::Serialize;

use super::{CleanedPage, Output, Page};
use crate::cleaning::{Cleaner, Decision, Explanation, Reason, SpanKind};

/// One explained range, as JSON Lines print it.
#[derive(Serialize)]
pub struct ExplainedSpan<'a> {
    /// From the first byte taken to the last (a kept range: its hull in the input).
    pub start: usize,
    pub end: usize,
    /// The bytes taken, where not all of `start..end` is: the tags kept inside the range are not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taken: Option<Vec<[usize; 2]>>,
    /// `view` where offsets are of the page's view (`--text` of HTML), absent where they are the input's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offsets: Option<&'static str>,
    /// `removed`, `cut-before`, `cut-after`, or `kept` (given back by a stage or a keep rule, or a cut
    /// string's match a stage left in place: stage `cuts` where it cut nothing).
    pub kind: &'static str,
    pub rules: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<&'static str>,
    /// What a reader sees of the range (shortened).
    #[serde(skip)]
    pub shown: String,
}

/// The explained ranges of a document written as `output`, removed and kept, sorted by start. Source
/// offsets go through `to_file` (the decoded source's offsets to the file's bytes); view offsets do not.
pub fn explained<'a>(
    cleaner: &'a Cleaner,
    page: &Page,
    output: Output,
    e: &Explanation,
    to_file: &dyn Fn(usize) -> usize,
) -> Vec<ExplainedSpan<'a>> {
    // the explanation's own spans, so what it names is what was cut from them
    let cleaned = CleanedPage::new(page.clone(), e.spans.clone());
    explained_with(cleaner, &cleaned, output, e, to_file)
}

/// The explained ranges of a page cleaned explained ([`Cleaner::clean_page_explained`]), as
/// [`explained`] names them: from the run that cleaned it, nothing cleaned again. A page cleaned without
/// its explanation has none.
pub fn explained_page<'a>(
    cleaner: &'a Cleaner,
    cleaned: &CleanedPage,
    output: Output,
    to_file: &dyn Fn(usize) -> usize,
) -> Vec<ExplainedSpan<'a>> {
    match cleaned.explanation() {
        Some(e) => explained_with(cleaner, cleaned, output, e, to_file),
        None => Vec::new(),
    }
}

fn explained_with<'a>(
    cleaner: &'a Cleaner,
    cleaned: &CleanedPage,
    output: Output,
    e: &Explanation,
    to_file: &dyn Fn(usize) -> usize,
) -> Vec<ExplainedSpan<'a>> {
    let page = &cleaned.page;
    let taken = cleaned.taken_by_span(output);
    let of_view = page.view().is_some() && output == Output::Text;
    let file = |(a, b): (usize, usize)| (to_file(a), to_file(b));
    let mut out = Vec::with_capacity(e.decisions.len());
    let mut next = 0;
    for d in &e.decisions {
        let shown = excerpt(&page.text()[d.start..d.end]);
        let (rules, stages) = (rule_ids(cleaner, d), stages(d));
        let offsets = of_view.then_some("view");
        if !d.removed {
            let (start, end) = if of_view { (d.start, d.end) } else { file(page.to_source_hull(d.start, d.end)) };
            out.push(ExplainedSpan { start, end, taken: None, offsets, kind: "kept", rules, stages, shown });
            continue;
        }
        // the removed span this decision is (decisions and spans are both sorted)
        while next < e.spans.len() && (e.spans[next].start, e.spans[next].end) < (d.start, d.end) {
            next += 1;
        }
        let (kind, pieces) = match e.spans.get(next) {
            Some(s) if (s.start, s.end) == (d.start, d.end) => (kind_name(s.kind), taken[next].as_slice()),
            _ => (kind_name(SpanKind::Removed), &[][..]),
        };
        let pieces: Vec<(usize, usize)> = pieces.iter().map(|&r| if of_view { r } else { file(r) }).collect();
        let (start, end) = match (pieces.first(), pieces.last()) {
            (Some(first), Some(last)) => (first.0, last.1),
            // nothing taken (a span that was its seam's separator alone): where it was
            _ => {
                let at = if of_view { d.start } else { file(page.to_source_hull(d.start, d.end)).0 };
                (at, at)
            }
        };
        let taken = (pieces.len() > 1).then(|| pieces.iter().map(|&(a, b)| [a, b]).collect());
        out.push(ExplainedSpan { start, end, taken, offsets, kind, rules, stages, shown });
    }
    out.sort_by_key(|s| (s.start, s.end));
    out
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

pub fn kind_name(kind: SpanKind) -> &'static str {
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
