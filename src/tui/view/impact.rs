//! What a decision does over the whole source, as the dialogs and the status line say it: the documents
//! and words it changes (inside and outside the article), the verified pages it changes and which words,
//! the documents it changes most (each a key away), and a cut's evidence and warnings.

use ratatui::text::{Line, Span};

use crate::evidence::{Evidence, cut_problems};
use crate::frame::GENERIC_TOKENS;
use crate::impact::{DocImpact, Impact};

use super::super::session::Session;
use super::super::state::Measure;
use super::{printable, theme};

/// One short line: documents changed, words removed and given back, inside the article block (of the page
/// before the change for words removed, after it for words given back).
pub fn summary(impact: &Impact) -> String {
    if impact.changed.is_empty() {
        return format!("no document of {} changes", impact.documents);
    }
    let mut out = format!("{}/{} docs change:", impact.changed.len(), impact.documents);
    if impact.removed() > 0 || impact.given_back() == 0 {
        out.push_str(&format!(" −{} words ({} in article)", impact.removed(), impact.removed_inside));
    }
    if impact.given_back() > 0 {
        out.push_str(&format!(" +{} back ({} in article)", impact.given_back(), impact.given_back_inside));
    }
    // the first rule in force starts the stages: say how much is theirs, and what the decision does itself
    if let Some(s) = &impact.stages_start {
        let own = &s.change;
        out.push_str(&format!(
            "; no rule was in force, the stages start (theirs −{}), the decision's own",
            s.stages.removed()
        ));
        if own.removed() > 0 || own.given_back() == 0 {
            out.push_str(&format!(" −{} ({} in article)", own.removed(), own.removed_inside));
        }
        if own.given_back() > 0 {
            out.push_str(&format!(" +{} back", own.given_back()));
        }
    }
    out
}

/// The first words of `text[start..end]`, at most `max` characters.
fn excerpt(text: &str, start: usize, end: usize, max: usize) -> String {
    let t = text.get(start..end).unwrap_or_default();
    let words: Vec<&str> = t.split_whitespace().collect();
    let mut out = String::new();
    for w in &words {
        if out.chars().count() + w.chars().count() + 1 > max {
            out.push('…');
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    printable(&out)
}

/// How a document changes, in words: `−4 "read more …" +2 "Posted by"`.
fn words_of(s: &Session, d: &DocImpact) -> String {
    let text = s.corpus.docs.get(d.index).map_or("", |doc| doc.text.as_str());
    let mut parts = Vec::new();
    if let Some(r) = d.removed.first() {
        parts.push(format!("−{} \"{}\"", d.removed_inside + d.removed_outside, excerpt(text, r.start, r.end, 40)));
    }
    if let Some(r) = d.given_back.first() {
        parts.push(format!(
            "+{} \"{}\"",
            d.given_back_inside + d.given_back_outside,
            excerpt(text, r.start, r.end, 40)
        ));
    }
    parts.join(" ")
}

/// The verified pages `impact` changes, each with the words: a decision that changes one says so.
pub fn verified_changes(s: &Session, impact: &Impact) -> Vec<String> {
    s.draft
        .verified
        .affected(impact)
        .iter()
        .map(|d| format!("verified page {} changes: {}", d.id, words_of(s, d)))
        .collect()
}

/// What is wrong with cutting at a rule with this evidence: the cut check's problems (matches inside
/// sentences among them), few fixed tokens.
pub fn cut_warnings(e: &Evidence) -> Vec<String> {
    let mut out: Vec<String> = cut_problems(e).iter().map(|p| p.message()).collect();
    // a generic string or patterns alone say so already
    if e.literal_tokens > 0 && e.literal_tokens <= GENERIC_TOKENS && !e.generic {
        out.push(format!("only {} fixed token(s): articles may hold them too", e.literal_tokens));
    }
    // a string with a mark no sentence writes is no problem there ([`cut_problems`]), but shown
    if e.in_prose > 0 && e.marked {
        out.push(format!("{} match(es) inside lines of prose", e.in_prose));
    }
    out
}

/// The most changed documents of `impact`, numbered for their keys, verified ones marked.
fn most_changed(s: &Session, impact: &Impact) -> Line<'static> {
    let mut spans = vec![Span::styled("most changed ", theme::header())];
    for (k, d) in impact.most_changed(super::super::update::JUMPS).iter().enumerate() {
        spans.push(Span::styled(format!("{} ", k + 1), theme::key()));
        let mark = if s.draft.is_verified(&d.id) { "✔" } else { "" };
        spans.push(Span::raw(format!(
            "{}{mark} −{}/+{}  ",
            d.id,
            d.removed_inside + d.removed_outside,
            d.given_back_inside + d.given_back_outside
        )));
    }
    spans.push(Span::styled("(a digit shows it, b comes back)", theme::dim()));
    Line::from(spans)
}

/// What the dialog's first option does to the page in view, once measured: the words it takes or gives
/// back there, or, for a rule that matches here, that it changes nothing here (a cut the stages stop, or
/// with nothing before or after it).
pub fn here_line(s: &Session, measure: &Measure, matches_here: bool) -> Option<Line<'static>> {
    let impact = measure.impacts.as_ref().filter(|_| measure.error.is_none())?.first()?;
    let id = s.corpus.docs.get(s.preview.doc).map_or("", |d| d.id.as_str());
    let text = match impact.changed.iter().find(|d| d.index == s.preview.doc) {
        Some(d) => {
            let (removed, back) = (d.removed_inside + d.removed_outside, d.given_back_inside + d.given_back_outside);
            let mut t = format!("This page ({id}): −{removed} words");
            if back > 0 {
                t.push_str(&format!(", +{back} back"));
            }
            t
        }
        None if matches_here => format!("This page ({id}): it matches, but cuts nothing here."),
        None => format!("This page ({id}): it does not match here."),
    };
    Some(Line::from(Span::styled(text, theme::header())))
}

/// A dialog's lines of its measure: [`changes_lines`], the first option's most changed documents; with
/// `cut`, the rule's evidence and a cut's warnings.
pub fn measure_lines(s: &Session, measure: &Measure, labels: &[String], cut: bool) -> Vec<Line<'static>> {
    let mut out = changes_lines(s, measure, labels);
    let Some(impacts) = measure.impacts.as_ref().filter(|_| measure.error.is_none()) else { return out };
    if let Some(first) = impacts.first().filter(|i| !i.changed.is_empty()) {
        out.push(most_changed(s, first));
    }
    if cut && let Some(e) = &measure.evidence {
        out.push(Line::from(Span::styled(format!("evidence {}", e.line()), theme::dim())));
        if let Some(note) = e.own_line_note() {
            out.push(Line::from(Span::styled(note.to_string(), theme::dim())));
        }
        for w in cut_warnings(e) {
            out.push(Line::from(Span::styled(format!("⚠ as a cut: {w}"), theme::error())));
        }
    }
    out
}

/// Per option (`labels`, in the measure's order) what it changes and the verified pages it changes; or
/// why it cannot be measured, or that it is being measured.
pub fn changes_lines(s: &Session, measure: &Measure, labels: &[String]) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    if let Some(e) = &measure.error {
        out.push(Line::from(Span::styled(format!("cannot measure it: {e}"), theme::error())));
        return out;
    }
    let Some(impacts) = &measure.impacts else {
        out.push(Line::from(Span::styled(
            format!("measuring what it changes over the {} documents…", s.corpus.docs.len()),
            theme::dim(),
        )));
        return out;
    };
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    for (label, impact) in labels.iter().zip(impacts) {
        let head = if label.is_empty() { String::new() } else { format!("{label:<width$}  ") };
        let style = if impact.takes_article_words() { theme::key() } else { ratatui::style::Style::new() };
        out.push(Line::from(vec![Span::styled(head, theme::header()), Span::styled(summary(impact), style)]));
        for w in verified_changes(s, impact) {
            out.push(Line::from(Span::styled(format!("  ⚠ {w}"), theme::error())));
        }
    }
    out
}
