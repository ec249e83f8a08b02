//! Stage `short-runs`: kept runs outside the article block with fewer than `short_runs` words on long
//! lines, or with no long line that reads as prose, go: menus, headline lists, related links and share
//! widgets that no rule matched and no cut reached. The run that holds the title stays from the title on
//! (an HTML page's `<h1>` headline where no line repeats its `<title>`).

use super::article_element::Paragraphs;
use super::stage::{PageState, SpanStage};
use super::title::{headline_element, title_lines};
use super::{Cleaner, Layout, Reason, Span, by_stage, kept_runs, merge_spans};
use crate::clean_settings::Stage;
use crate::view::Structure;

/// Adds to `spans` the short runs outside the article `block`. The run that holds the title (the block's
/// fullest copy, else the fullest kept copy above the block, else a kept `<h1>` line above it) stays from
/// the title on; what is above the title in it goes, unless a sentence is there. A short run with a
/// sentence at the article's `paragraphs` (found from the removed spans when first needed) between two
/// runs that stay stays too, and is returned beside the spans.
pub(super) fn drop_short_runs<'a>(
    doc: &Layout,
    structure: Option<&Structure>,
    spans: Vec<Span>,
    min_words: usize,
    block: (usize, usize),
    paragraphs: impl FnOnce(&[Span]) -> Option<Paragraphs<'a>>,
) -> (Vec<Span>, Vec<(usize, usize)>) {
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
    let mut runs: Vec<(usize, usize, Run)> = Vec::new();
    for (start, end) in kept_runs(text.len(), &spans) {
        let title = title_at.filter(|&at| start <= at && at < end);
        // the article starts at its title: menus and breadcrumbs above it in its run go (if no prose does)
        if let Some(at) = title
            && !doc.has_prose_line(start, at)
            && !doc.is_blank(start, at)
        {
            out.push(by_stage(start, at, Stage::ShortRuns));
        }
        if doc.is_blank(start, end) {
            continue;
        }
        // a headline list has long lines too, but no sentence; the title's run stays from the title on
        let prose = doc.has_prose_line(start, end);
        let run = if (start, end) == block || title.is_some() || (prose && doc.run_words(start, end).0 >= min_words) {
            Run::Stays
        } else if prose {
            Run::Sentence
        } else {
            Run::Short { words: doc.run_words(start, end).1 }
        };
        runs.push((start, end, run));
    }
    // a short paragraph between two parts of the article that stay is the article's too: an inline
    // widget ("Read more: …", an advertisement's label) removed on each side of it split it off, and
    // what its rule left of it (the headline it links) is a few words on their own
    let stays_before = enclosed(runs.iter().map(|r| r.2), min_words);
    let stays_after = {
        let mut v = enclosed(runs.iter().rev().map(|r| r.2), min_words);
        v.reverse();
        v
    };
    // …and set where the article's paragraphs are (stage `article-element`; found once a page, and only
    // for a page with such a run); its lines elsewhere (what a rule left of the widget) go
    let mut rescued = Vec::new();
    let mut paragraphs = Some(paragraphs);
    let mut found: Option<Paragraphs> = None;
    for (k, &(start, end, run)) in runs.iter().enumerate() {
        let enclosed = run.passed_over(min_words) && stays_before[k] && stays_after[k];
        if enclosed && let Some(find) = paragraphs.take() {
            found = find(&spans);
        }
        let elsewhere = found.filter(|_| enclosed).and_then(|p| p.elsewhere_in(doc, (start, end)));
        match elsewhere {
            Some(other) => {
                out.extend(other.iter().map(|&(a, b)| by_stage(a, b, Stage::ShortRuns)));
                rescued.push((start, end));
            }
            None if run != Run::Stays => out.push(by_stage(start, end, Stage::ShortRuns)),
            None => {}
        }
    }
    (merge_spans(out), rescued)
}

/// A kept run to stage `short-runs`: one that stays (the article block, the title's run, a run of enough
/// words with a sentence), a short run with a sentence, or a short run without one (and its words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Run {
    Stays,
    Sentence,
    Short { words: usize },
}

impl Run {
    /// A short run with a sentence, or of fewer than `min_words` words without one (a widget's remains,
    /// a one-line paragraph; a menu has more): what lies between two runs that stay without parting them.
    fn passed_over(self, min_words: usize) -> bool {
        match self {
            Run::Stays => false,
            Run::Sentence => true,
            Run::Short { words } => words < min_words,
        }
    }
}

/// Per run, in the order given: whether the nearest run before it that is not passed over
/// ([`Run::passed_over`]) is one that stays.
fn enclosed(runs: impl Iterator<Item = Run>, min_words: usize) -> Vec<bool> {
    let mut last_stays = false;
    runs.map(|run| {
        let here = last_stays;
        if !run.passed_over(min_words) {
            last_stays = run == Run::Stays;
        }
        here
    })
    .collect()
}

/// The stage, with its threshold ([`crate::clean_settings::CleanSettings::short_runs`]; 0: nothing).
pub(super) struct ShortRuns;

impl SpanStage for ShortRuns {
    fn run(&self, cleaner: &Cleaner, page: &mut PageState) {
        let min_words = cleaner.settings.short_runs.words;
        if min_words > 0
            && let Some(block) = page.block()
        {
            let spans = std::mem::take(&mut page.spans);
            let (doc, structure) = (page.doc, page.structure);
            let paragraphs = |removed: &[Span]| {
                structure
                    .filter(|_| cleaner.settings.on(Stage::ArticleElement))
                    .and_then(|s| Paragraphs::of(doc, s, removed, block))
            };
            let rescued;
            (page.spans, rescued) = drop_short_runs(doc, structure, spans, min_words, block, paragraphs);
            for (start, end) in rescued {
                page.trace.kept(start, end, Reason::Stage(Stage::ArticleElement));
            }
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
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::{cleaned_html as cleaned, cleaner, explains_kept_by, work_per_byte_html};
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

    /// A story's element: paragraphs long enough to stay, an inline link box ("Read more: …", a rule)
    /// after the second and after `between`, then two more paragraphs.
    fn story(between: &str) -> String {
        let long = |i: usize| {
            format!(
                "<p>The harbour opened on Monday after ten years of building work, the mayor said, and \
                 ferries will run every hour from the new quay. Part {i}.</p>"
            )
        };
        let related = "<p class=\"related\"><b>Read more:</b> <a href=\"/s\">Ferry strike ends</a></p>";
        format!(
            "<html><body><div class=\"story\">{}{}{related}{between}{related}{}{}</div></body></html>",
            long(0),
            long(1),
            long(2),
            long(3)
        )
    }

    fn short_runs_on() -> crate::cleaning::Cleaner {
        let mut c = cleaner(&[("Read more:", Action::Remove)], 0);
        c.settings.short_runs.words = 20;
        c
    }

    #[test]
    fn a_one_sentence_paragraph_between_two_inline_link_boxes_stays() {
        let sentence = "The council will vote on the plan next week, officials said.";
        let kept = cleaned(&short_runs_on(), &story(&format!("<p>{sentence}</p>")));
        assert!(kept.contains(sentence) && kept.contains("Part 3."), "{kept}");
        assert!(!kept.contains("Ferry strike ends"), "the link boxes go: {kept}");
        // stage `article-element` keeps it; off, it is a short run like any other
        let off =
            cleaned(&short_runs_on().with_stage(Stage::ArticleElement, false), &story(&format!("<p>{sentence}</p>")));
        assert!(!off.contains(sentence) && off.contains("Part 3."), "{off}");
        assert!(explains_kept_by(&short_runs_on(), &story(&format!("<p>{sentence}</p>")), Stage::ArticleElement));
        // a paragraph of one short sentence too, but a label of two words no
        let kept = cleaned(&short_runs_on(), &story("<p>He declined to comment.</p>"));
        assert!(kept.contains("He declined to comment."), "{kept}");
        let kept = cleaned(&short_runs_on(), &story("<p>See photos.</p>"));
        assert!(!kept.contains("See photos") && kept.contains("Part 3."), "{kept}");
    }

    #[test]
    fn a_teasers_blurb_between_two_kept_parts_of_the_article_goes() {
        // the same sentence, set as no paragraph of the story is: a teaser's blurb
        let blurb = "Thousands are left homeless after the storm, and food aid is running low.";
        let kept = cleaned(&short_runs_on(), &story(&format!("<div class=\"teaser\"><p>{blurb}</p></div>")));
        assert!(!kept.contains("Thousands") && kept.contains("Part 3."), "{kept}");
        // and in text, with no elements to tell them apart, a short run goes as before
        let text = "Part one of the story is a line long enough to count as running text here, with more words \
            than the stage asks for, surely.\nRead more: Ferry strike ends\n\
            The council will vote on the plan next week, officials said.\nRead more: Ferry strike ends\n\
            Part two of the story is a line long enough to count as running text here, with more words than \
            the stage asks for, surely.";
        let kept = short_runs_on().clean(text).text;
        assert!(!kept.contains("The council") && kept.contains("Part two"), "{kept}");
    }

    #[test]
    fn short_paragraphs_between_link_boxes_are_kept_in_work_linear_in_the_page() {
        let c = short_runs_on();
        let page = |n: usize| {
            let between: String = (0..n)
                .map(|i| format!("<p>The council will vote on plan {i} next week, officials said.</p><p class=\"related\"><b>Read more:</b> <a href=\"/s\">Ferry strike ends</a></p>"))
                .collect();
            story(&between)
        };
        let per_byte = [20, 200].map(|n| work_per_byte_html(&c, &page(n)));
        assert!(per_byte[1] < per_byte[0] * 1.5, "work per byte grows with the page: {per_byte:?}");
        assert!(cleaned(&c, &page(200)).contains("plan 199 next week"));
    }
}
