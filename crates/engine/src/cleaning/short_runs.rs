//! Stage `short-runs`: kept runs outside the article block with fewer than `short_runs` words on long
//! lines, or with no long line that reads as prose, go: menus, headline lists, related links and share
//! widgets that no rule matched and no cut reached. The run that holds the title stays from the title on
//! (an HTML page's `<h1>` headline where no line repeats its `<title>`).

use super::stage::{PageState, SpanStage};
use super::title::{headline_element, title_lines};
use super::{Cleaner, Layout, Span, by_stage, kept_runs, merge_spans};
use crate::clean_settings::Stage;
use crate::view::Structure;

/// Adds to `spans` the short runs outside the article `block`. The run that holds the title (the block's
/// fullest copy, else the fullest kept copy above the block, else a kept `<h1>` line above it) stays from
/// the title on; what is above the title in it goes, unless a sentence is there.
pub(super) fn drop_short_runs(
    doc: &Layout,
    structure: Option<&Structure>,
    spans: Vec<Span>,
    min_words: usize,
    block: (usize, usize),
) -> Vec<Span> {
    let text = doc.text();
    let mut out = spans.clone();
    // the title kept above the block is its fullest kept copy there, of equal ones the last (earlier ones
    // are headline lists), and none if the block holds it. Fullest, in the block too: an author's name in
    // "Headline | Author | Site" repeats the title as well, and where the block holds only the name, the
    // headline above it is the title.
    let kept = |at: usize| spans.get(spans.partition_point(|s| s.end <= at)).is_none_or(|s| s.start > at);
    let words = |line: &str| crate::words::count(line);
    let in_block = title_lines(doc, block.0, block.1).max_by_key(|&(at, line)| (words(line), std::cmp::Reverse(at)));
    let above = title_lines(doc, 0, block.0)
        .map(|(at, line)| (at + (line.len() - line.trim_start().len()), line))
        .filter(|&(at, _)| kept(at))
        .max_by_key(|&(at, line)| (words(line), at));
    let title_at = match (in_block, above) {
        (Some(b), Some(a)) if words(a.1) > words(b.1) => Some(a.0),
        (Some(b), _) => Some(b.0),
        (None, a) => a.map(|a| a.0),
    };
    // no line repeats the title: an HTML page's kept `<h1>` line above the article is its headline,
    // unless the block starts with a copy of it (a page printing its headline twice)
    let title_at = title_at.or_else(|| {
        let at = headline_element(doc, structure?, block.0, |ls, _| kept(ls))?;
        let headline = text[at..doc.line_end(at)].trim();
        let first = doc.line_of(block.0);
        let copied = (first..(first + 3).min(doc.lines())).any(|k| {
            let (a, b) = doc.line_range(k);
            text[a.max(block.0)..b].trim() == headline
        });
        (!copied).then_some(at)
    });
    for (start, end) in kept_runs(text.len(), &spans) {
        let title = title_at.filter(|&at| start <= at && at < end);
        // the article starts at its title: menus and breadcrumbs above it in its run go (if no prose does)
        if let Some(at) = title
            && !doc.has_prose_line(start, at)
            && !doc.is_blank(start, at)
        {
            out.push(by_stage(start, at, Stage::ShortRuns));
        }
        // a headline list has long lines too, but no sentence; the title's run stays from the title on
        let short =
            (doc.run_words(start, end).0 < min_words || !doc.has_prose_line(start, end)) && !doc.is_blank(start, end);
        if (start, end) != block && title.is_none() && short {
            out.push(by_stage(start, end, Stage::ShortRuns));
        }
    }
    merge_spans(out)
}

/// The stage, with its threshold ([`crate::clean_settings::CleanSettings::short_runs`]; 0: nothing).
pub(super) struct ShortRuns;

impl SpanStage for ShortRuns {
    fn run(&self, cleaner: &Cleaner, page: &mut PageState) {
        let min_words = cleaner.settings.short_runs.words;
        if min_words > 0
            && let Some(block) = page.block()
        {
            page.spans = drop_short_runs(page.doc, page.structure, std::mem::take(&mut page.spans), min_words, block);
            // the template under the article is one removal to the page's end only now: the line it
            // starts on has its slots as a footer cut's line has (stage `slots`, which ran before)
            if page.cuts
                && page.footer.is_none()
                && cleaner.settings.stages.contains(Stage::Slots)
                && let Some((a, b)) = super::slots::footer_slots(page.doc, &page.spans)
            {
                page.spans.push(by_stage(a, b, Stage::Slots));
                page.spans = merge_spans(std::mem::take(&mut page.spans));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::cleaning::tests::cleaner;
    use crate::rules::Action;

    #[test]
    fn short_runs_outside_the_article_block_go_but_the_title_stays() {
        let text = "Big news today | Site\nHome\nNews\nSection menu here\nBig news today\nBy A. Writer\n\
            Posted on the site today\n\
            The article has a first line that is long enough to count here.\n\
            And a second line that is long enough to count as well, surely.\n\
            Share this story\nRelated\nOther story one\nOther story two\nLeave a comment on the site";
        let rules = [
            ("Section menu here", Action::Remove),
            ("Posted on the site today", Action::Remove),
            ("Share this story", Action::Remove),
            ("Leave a comment on the site", Action::Remove),
        ];
        let mut c = cleaner(&rules, 0);
        let kept = c.clean(text).text;
        assert!(kept.starts_with("Big news today | Site\nHome") && kept.contains("Other story two"), "{kept}");
        c.settings.short_runs.words = 20;
        let article = "The article has a first line that is long enough to count here.\n\
            And a second line that is long enough to count as well, surely.";
        assert_eq!(c.clean(text).text, format!("Big news today\nBy A. Writer\n{article}"));
        // menu lines in the title's run, above the title, go too
        let one_run = text.replace("Section menu here\n", "");
        assert_eq!(c.clean(&one_run).text, format!("Big news today\nBy A. Writer\n{article}"));
        // the title inside the article block: the menu above it in the block goes too
        let in_block = one_run.replace("Posted on the site today\n", "");
        assert_eq!(c.clean(&in_block).text, format!("Big news today\nBy A. Writer\n{article}"));
        // a run above the article that holds a sentence is no short run, but its menu above the title goes
        let lead = "The lead paragraph is a sentence that is long enough to count.\n\
            Its second sentence is also long enough to count as a line.";
        let with_lead = one_run.replace("By A. Writer\n", &format!("By A. Writer\n{lead}\n"));
        assert_eq!(c.clean(&with_lead).text, format!("Big news today\nBy A. Writer\n{lead}\n{article}"));
        // without a line repeating the title, the run above the article is a short run like any other
        assert_eq!(c.clean(&text.replace("\nBig news today\n", "\nAn aside\n")).text, article);
        // long lines that read as no sentence are a headline list; a second part of the article stays
        let headlines = "Scientists discover a new species of frog in the rainforest\n\
            City council approves the budget for the coming year";
        let second = "The story goes on after the box, with a third line of text.\n\
            And a fourth line that ends the story, as stories tend to end.";
        assert_eq!(
            c.clean(&text.replace("Other story one\nOther story two", headlines)).text,
            format!("Big news today\nBy A. Writer\n{article}")
        );
        let kept = c.clean(&text.replace("Other story one\nOther story two", second)).text;
        assert!(kept.ends_with(second), "{kept}");
    }

    #[test]
    fn the_headline_stays_above_the_authors_name_that_repeats_the_title_too() {
        // "Headline | Author": the author's line, nearer the article, repeats the title as well
        let text = "Big news for all today | Anna Maria Writer\nSection menu here\nBig news for all today\n\
            Share this story\nAnna Maria Writer\nPosted on the site today\n\
            The article has a first line that is long enough to count here.\n\
            And a second line that is long enough to count as well, surely.";
        let rules = [
            ("Section menu here", Action::Remove),
            ("Share this story", Action::Remove),
            ("Posted on the site today", Action::Remove),
        ];
        let mut c = cleaner(&rules, 0);
        c.settings.short_runs.words = 20;
        assert_eq!(
            c.clean(text).text,
            "Big news for all today\nThe article has a first line that is long enough to count here.\n\
            And a second line that is long enough to count as well, surely."
        );
    }

    #[test]
    fn an_h1_headline_the_title_words_otherwise_stays_once() {
        let article = "<p>The article has a first line that is long enough to count here.</p>\
            <p>And a second line that is long enough to count as well, surely.</p>";
        let page = |above: &str| {
            format!(
                "<html><head><title>Search engine words - The Paper</title></head><body><div>Section menu here</div>\
                 <h1>Words for the reader</h1><div>Share this story</div>{above}{article}</body></html>"
            )
        };
        let rules = [("Section menu here", Action::Remove), ("Share this story", Action::Remove)];
        let mut c = cleaner(&rules, 0);
        c.settings.short_runs.words = 20;
        let cleaned = |html: &str| {
            let view = crate::view::PageView::of_html(html);
            let matches = c.matches(view.text());
            crate::cleaning::render(view.text(), &c.spans_on(view.text(), &matches, view.structure()))
        };
        let body = "The article has a first line that is long enough to count here.\n\
            And a second line that is long enough to count as well, surely.";
        assert_eq!(cleaned(&page("")), format!("Words for the reader\n{body}"));
        // the article block starts with its own copy of the headline: the one in the <h1> goes
        assert_eq!(cleaned(&page("<p>Words for the reader</p>")), format!("Words for the reader\n{body}"));
    }

    #[test]
    fn a_headline_list_above_the_article_keeps_no_copy_of_the_title() {
        // the sidebar above the article lists this page's headline; the last copy before the article is its own
        let text = "Big news today | Site\nRecent posts\nBig news today\nOther story\nThe archive of the site\n\
            Big news today\nBody text here, long enough to be the article block, and one more line.\n\
            And a second line that is long enough to count as well, surely.";
        let rules = [("The archive of the site", Action::Remove)];
        let mut c = cleaner(&rules, 0);
        c.settings.short_runs.words = 20;
        assert_eq!(
            c.clean(text).text,
            "Big news today\nBody text here, long enough to be the article block, and one more line.\n\
            And a second line that is long enough to count as well, surely."
        );
    }
}
