//! Stage `line-slots`: the few words a template string leaves on its line are its slots, and go with
//! it. Stage `slots` does this for the cut strings' lines; template strings removed where they stand
//! leave slots too: a video link's title before "Watch Video", a caption's head before "View Full
//! Size", a section's name after "More from", a post's title after "Comments (uncensored)". The miner
//! finds the fixed part, on every page; the slot's words differ on every page, so no rule holds them,
//! and they are left as a line of their own between the template's. An article's lines are its own:
//! the rest of a line a removal opens, or the head of a line a removal closes, is the template's when it
//! is a few words that read as no sentence.
//!
//! A line that reads as a dateline or a byline ("By A. Writer, Sport desk", "03:06 PM EDT") is left as
//! it is: whether the page's date and author are the article's is stage `datelines`' call, and taking
//! the rest of such a line would hand that stage a whole line it gives back with the template's part.

use super::datelines::reads_as_dateline;
use super::slots::is_slot_run;
use super::stage::{PageState, SpanStage};
use super::{Cleaner, Layout, Span, SpanKind, by_stage};
use crate::clean_settings::Stage;
use crate::mutable::MutableSet;

/// The slots beside removals of template strings (spans a rule matched in): the rest of a line a removal
/// covers from the line's start, and the head of a line a removal covers to its end, where no other
/// removal takes part of it. A look at each span's first and last line, by their starts and ends.
fn line_slots(doc: &Layout, spans: &[Span], patterns: &MutableSet) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, s) in spans.iter().enumerate() {
        if s.rules.is_empty() || s.kind != SpanKind::Removed {
            continue;
        }
        // its last line, taken from the line's start: the rest, up to the next removal's line
        let (line_start, line_end) = (doc.line_start(s.end), doc.line_end(s.end));
        if s.end < line_end
            && (s.start <= line_start || doc.is_blank(line_start, s.start))
            && spans.get(i + 1).is_none_or(|next| next.start >= line_end)
            && is_slot_run(doc, s.end, line_end)
            && !reads_as_dateline(doc, line_start, line_end, patterns)
        {
            out.push((s.end, line_end));
        }
        // its first line, taken to the line's end: the head, below the previous removal's line
        let (line_start, line_end) = (doc.line_start(s.start), doc.line_end(s.start));
        if s.start > line_start
            && (s.end >= line_end || doc.is_blank(s.end, line_end))
            && (i == 0 || spans[i - 1].end <= line_start)
            && is_slot_run(doc, line_start, s.start)
            && !reads_as_dateline(doc, line_start, line_end, patterns)
        {
            out.push((line_start, s.start));
        }
    }
    out
}

pub(super) struct LineSlots;

impl SpanStage for LineSlots {
    fn run(&self, cleaner: &Cleaner, page: &mut PageState) {
        let runs = line_slots(page.doc, &page.spans, cleaner.patterns());
        page.remove(runs.into_iter().map(|(a, b)| by_stage(a, b, Stage::LineSlots)).collect());
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::explain::Reason;
    use crate::cleaning::tests::{cleaner, titled};
    use crate::cleaning::work;
    use crate::rules::Action;

    const BODY: &str = "Repairs to the harbour wall began in recent weeks and should be finished soon.";

    fn on(rules: &[(&str, Action)]) -> crate::cleaning::Cleaner {
        cleaner(rules, 0).with_stage(Stage::LineSlots, true)
    }

    #[test]
    fn the_title_before_a_closing_template_string_and_the_name_after_an_opening_one_go() {
        let c = on(&[("Watch Video", Action::Remove), ("More from", Action::Remove)]);
        let text = format!("{BODY}\nStorm damage along the valley Watch Video\nMore from Valley News\n{BODY}");
        assert_eq!(c.clean(&text).text, format!("{BODY}\n{BODY}"));
        let explained = c.explain(&text);
        let stage = Reason::Stage(Stage::LineSlots);
        assert!(explained.decisions.iter().any(|d| d.removed && d.reasons.contains(&stage)), "{explained:?}");
        let off = c.with_stage(Stage::LineSlots, false);
        assert_eq!(
            off.clean(&text).text,
            format!("{BODY}\nStorm damage along the valley\nValley News\n{BODY}"),
            "off: the slots are left as lines of their own"
        );
    }

    #[test]
    fn a_sentence_many_words_or_another_removal_on_the_line_keep_it() {
        let c = on(&[("Watch Video", Action::Remove), ("Share", Action::Remove)]);
        // a sentence before the string
        let prose = format!("{BODY} Watch Video\n{BODY}");
        assert_eq!(c.clean(&prose).text, format!("{BODY}\n{BODY}"));
        // thirteen words
        let long = "one two three four five six seven eight nine ten eleven twelve thirteen";
        let many = format!("{BODY}\n{long} Watch Video\n{BODY}");
        assert_eq!(c.clean(&many).text, format!("{BODY}\n{long}\n{BODY}"));
        // the words between two removals on one line are not one removal's slots
        let between = format!("{BODY}\nShare the valley Watch Video\n{BODY}");
        assert_eq!(c.clean(&between).text, format!("{BODY}\nthe valley\n{BODY}"));
    }

    #[test]
    fn a_bylines_and_a_datelines_rest_is_left_to_the_datelines_stage() {
        let c = titled(on(&[("Sport desk", Action::Remove), ("EDT Share this post", Action::Remove)]));
        let text = format!("Storm hits the coast\nBy Noor Ellery, Sport desk\n03:06 PM EDT\nShare this post\n{BODY}");
        assert_eq!(c.clean(&text).text, format!("Storm hits the coast\nBy Noor Ellery,\n03:06 PM\n{BODY}"));
    }

    #[test]
    fn slots_are_found_in_work_linear_in_the_page() {
        // a long line of matches and the words between them: each removal's line is looked at by its
        // ends, never read once per removal
        let c = on(&[("Watch Video", Action::Remove)]);
        let mut counts = Vec::new();
        for n in [100, 1000] {
            let line = "a clip Watch Video ".repeat(n);
            let text = format!("{BODY}\n{line}\n{BODY}");
            let ((), scanned) = work::measure(|| {
                c.clean(&text);
            });
            counts.push(scanned as f64 / text.len() as f64);
        }
        assert!(counts[1] < counts[0] * 2.0, "work per byte grows with the matches: {counts:?}");
    }
}
