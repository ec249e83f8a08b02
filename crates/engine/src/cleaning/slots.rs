//! Stage `slots`: a template line's slots go with its fixed part. Many template lines hold a few words of
//! the page's own between fixed text: "Posted by «name» on «date» in «category»", "Back to gallery:
//! «title»", "Photo: «name» / Site". The miner finds the fixed part, which is on every page, and the cuts
//! cut at it; the slots' words differ on every page, so no rule holds them, and a header string that ends
//! mid-line (or a footer string that starts mid-line) leaves them as the article's first (or last) line.
//! An article starts and ends on lines of its own: the rest of a header string's line, and the start of a
//! footer string's line, are the template's when they are a few words that read as no sentence. A line
//! of prose the template shares (a glued text's whole article) stays, and so does a header string's line
//! below the page's title, where the title stage keeps the byline. Where no footer string cut, the
//! template under the article becomes one removal to the page's end only in stage `short-runs`, which
//! then takes the slots on that removal's first line by the same rule ([`footer_slots`]).

use super::stage::{PageState, SpanStage};
use super::{Cleaner, Layout, Span, SpanKind, by_stage};
use crate::clean_settings::Stage;

/// The most words a slot run holds: a name and a date, a category, a gallery's title. A line with more
/// is more likely a sentence the template shares than values filled into it.
pub const SLOT_WORDS: usize = 12;

/// Whether `start..end` (inside one line) is a run of slots: some words, at most [`SLOT_WORDS`], that read
/// as no sentence.
pub(super) fn is_slot_run(doc: &Layout, start: usize, end: usize) -> bool {
    !doc.is_blank(start, end) && doc.words(start, end) <= SLOT_WORDS && !doc.reads_as_prose(start, end)
}

/// The removals to add to `spans` for the slots on the lines of the header cut's end (`header_end`) and
/// of the footer cut's start (`footer_start`): the rest of the first, the head of the second. Only where
/// the cut is still whole (the title stage did not stop it at the page's title) and the cut string has
/// text of its own on that line.
pub(super) fn slot_runs(
    doc: &Layout,
    spans: &[Span],
    header_end: Option<usize>,
    footer_start: Option<usize>,
) -> Vec<(usize, usize)> {
    let text = doc.text();
    let mut out = Vec::new();
    if let Some(end) = header_end.filter(|&e| e > 0 && e < text.len()) {
        // the span holding the header string's last byte is the cut from the document's start
        let i = spans.partition_point(|s| s.end < end);
        let cut = spans.get(i).filter(|s| s.start == 0 && s.kind == SpanKind::CutBefore && s.end >= end);
        let line_start = doc.line_start(end);
        if let Some(cut) = cut
            && cut.end < doc.line_end(end)
            && !doc.is_blank(line_start, end)
            && is_slot_run(doc, cut.end, doc.line_end(end))
        {
            out.push((cut.end, doc.line_end(end)));
        }
    }
    if let Some(start) = footer_start.filter(|&s| s > 0 && s < text.len()) {
        let i = spans.partition_point(|s| s.end <= start);
        // a footer cut, or removals that run to the page's end (see [`footer_slots`])
        let cut = spans.get(i).filter(|s| s.kind != SpanKind::CutBefore && s.start <= start && s.end == text.len());
        let line_start = doc.line_start(start);
        if let Some(cut) = cut
            && cut.start > line_start
            && !doc.is_blank(start, doc.line_end(start))
            && is_slot_run(doc, line_start, cut.start)
            // the run before it on its line is no removal's tail: only then is it the line's head
            && spans[..i].last().is_none_or(|s| s.end <= line_start)
        {
            out.push((line_start, cut.start));
        }
    }
    out
}

/// The slots at the head of the line where the removals running to the page's end start, where no footer
/// string cut: `short-runs` joins the template under the article into one removal only after this stage
/// ran, and a byline's words left above it ("By A. Writer | 02:29 PM" before "ET, 03/27/2013 Share…") are
/// that line's slots as they would be a footer cut's.
pub(super) fn footer_slots(doc: &Layout, spans: &[Span]) -> Option<(usize, usize)> {
    let last = spans.last().filter(|s| s.end == doc.text().len() && s.kind == SpanKind::Removed)?;
    slot_runs(doc, spans, None, Some(last.start)).into_iter().next()
}

pub(super) struct Slots;

impl SpanStage for Slots {
    fn run(&self, _: &Cleaner, page: &mut PageState) {
        if !page.cuts {
            return;
        }
        let runs = slot_runs(page.doc, &page.spans, page.header.map(|h| h.end), page.footer.map(|f| f.start));
        page.remove(runs.into_iter().map(|(a, b)| by_stage(a, b, Stage::Slots)).collect());
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::explain::Reason;
    use crate::cleaning::tests::{cleaner, titled};
    use crate::rules::Action;

    const BODY: &str = "Repairs to the harbour wall began in recent weeks and should be finished soon.";

    #[test]
    fn the_words_in_a_header_lines_slots_go_with_its_cut() {
        let rules = [("Blog | Home | About Posted by", Action::CutBefore), ("Leave a reply", Action::CutAfter)];
        let c = cleaner(&rules, 0);
        let text =
            format!("Blog | Home | About\nPosted by Leila Brandt on 17 January 2019 in Parks\n{BODY}\nLeave a reply");
        assert_eq!(c.clean(&text).text, BODY);
        let off = c.clone().with_stage(Stage::Slots, false);
        assert_eq!(
            off.clean(&text).text,
            format!("Leila Brandt on 17 January 2019 in Parks\n{BODY}"),
            "off: the slots' words are left as the article's first line"
        );
        // a sentence on the header string's line is no slot (a glued page's article)
        let glued = format!("Blog | Home | About\nPosted by {BODY} More words follow here.\nLeave a reply");
        assert_eq!(c.clean(&glued).text, format!("{BODY} More words follow here."));
        // nor are many words
        let long = "Blog | Home | About\nPosted by one two three four five six seven eight nine ten eleven twelve \
            thirteen\nLeave a reply";
        assert!(c.clean(long).text.starts_with("one two"));
        let explained = c.explain(&text);
        let slots = Reason::Stage(Stage::Slots);
        assert!(explained.decisions.iter().any(|d| d.removed && d.reasons.contains(&slots)), "{explained:?}");
    }

    #[test]
    fn a_bylines_words_above_the_template_short_runs_joins_to_the_end_go_as_slots() {
        // no footer string: a removal starts mid-line under the article, and `short-runs` joins what is
        // below it into one removal to the page's end
        let rules = [("Blog | Home | About", Action::CutBefore), ("ET, «date_time» Share this post", Action::Remove)];
        let mut c = cleaner(&rules, 0);
        c.settings.short_runs.words = 20;
        let long = format!("{BODY} {BODY}");
        let text = format!(
            "Blog | Home | About\n{long}\n{long}\nBy Leila Brandt | 02:29 PM ET, 03/27/2013\nShare this post\n\
             Previous: an older post\nNext: a newer post"
        );
        assert_eq!(c.clean(&text).text, format!("{long}\n{long}"));
        let off = c.clone().with_stage(Stage::Slots, false);
        assert_eq!(off.clean(&text).text, format!("{long}\n{long}\nBy Leila Brandt | 02:29 PM"));
    }

    #[test]
    fn the_words_before_a_footer_string_on_its_line_go_with_its_cut() {
        let rules = [("Photo gallery", Action::CutBefore), ("/ Valley Courier Next image", Action::CutAfter)];
        let c = cleaner(&rules, 0);
        let text = format!("Photo gallery\n{BODY}\nPhoto: Helen Ellery / Valley Courier\nNext image");
        assert_eq!(c.clean(&text).text, BODY);
        let off = c.with_stage(Stage::Slots, false);
        assert_eq!(off.clean(&text).text, format!("{BODY}\nPhoto: Helen Ellery"));
    }

    #[test]
    fn below_the_title_the_byline_after_a_header_string_stays() {
        // the title stage stops the cut at the page's title: the header string's line is the article's byline
        let rules = [("Menu one two", Action::Remove), ("Share this story Posted by", Action::CutBefore)];
        let c = titled(cleaner(&rules, 0));
        let text = format!(
            "Big news today | Site\nMenu one two\nBig news today\nShare this story\nPosted by Jane Doe\n{BODY}"
        );
        assert_eq!(c.clean(&text).text, format!("Big news today\nJane Doe\n{BODY}"));
        // with no title on the page, the name goes with the cut
        let untitled = text.replace("\nBig news today\n", "\n");
        assert_eq!(c.clean(&untitled).text, BODY);
    }
}
