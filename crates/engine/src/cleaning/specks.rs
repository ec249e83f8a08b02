//! Stage `specks`: a removed span of fewer than `specks` characters with kept text on both sides within
//! its line comes back (thesis §6.1: a few characters removed in the middle of clean text are probably a
//! false positive). Its threshold is 0 (nothing comes back) unless a rules file's `[clean] specks` sets it.

use super::explain::Reason;
use super::stage::{PageState, SpanStage, outside, restore};
use super::{Cleaner, Layout, Span, SpanKind};
use crate::clean_settings::Stage;

/// `spans` less its specks, and the specks given back.
pub(super) fn give_back_specks(doc: &Layout, spans: Vec<Span>, max_chars: usize) -> (Vec<Span>, Vec<(usize, usize)>) {
    if max_chars == 0 {
        return (spans, Vec::new());
    }
    let text = doc.text();
    let mut kept = Vec::with_capacity(spans.len());
    let mut back = Vec::new();
    for (k, s) in spans.iter().enumerate() {
        let small = s.kind == SpanKind::Removed
            && text[s.start..s.end].chars().filter(|c| !c.is_whitespace()).take(max_chars).count() < max_chars;
        let prev_end = if k > 0 { spans[k - 1].end } else { 0 };
        let next_start = spans.get(k + 1).map_or(text.len(), |n| n.start);
        let before = doc.line_start(s.start).max(prev_end).min(s.start);
        let after = doc.line_end(s.end).min(next_start).max(s.end);
        if small && !doc.is_blank(before, s.start) && !doc.is_blank(s.end, after) {
            back.push((s.start, s.end));
        } else {
            kept.push(s.clone());
        }
    }
    (kept, back)
}

/// The stage, with its threshold ([`crate::clean_settings::CleanSettings::specks`]).
pub(super) struct Specks;

impl SpanStage for Specks {
    fn run(&self, cleaner: &Cleaner, page: &mut PageState) {
        let (kept, back) = give_back_specks(page.doc, std::mem::take(&mut page.spans), cleaner.settings.specks.chars);
        page.spans = restore(kept, &page.editor);
        for (start, end) in back.into_iter().flat_map(|(a, b)| outside(&page.editor, a, b)) {
            page.trace.kept(start, end, Reason::Stage(Stage::Specks));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::cleaner;
    use crate::rules::Action;

    #[test]
    fn a_speck_removed_inside_a_line_of_kept_text_comes_back() {
        let text = "one of the best\nof the week";
        let mut c = cleaner(&[("of the", Action::Remove)], 0);
        assert_eq!(c.clean(text).text, "one best\nweek");
        c.settings.specks.chars = 10;
        // "of the" inside line 1 is a speck; at the start of line 2 it is not
        assert_eq!(c.clean(text).text, "one of the best\nweek");
        assert_eq!(c.with_stage(Stage::Specks, false).clean(text).text, "one best\nweek", "off");
    }
}
