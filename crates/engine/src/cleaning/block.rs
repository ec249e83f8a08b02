//! The article block: the kept run with the most words on long lines, the part of the page that the cuts
//! and the later stages are measured against. The cleaner's own matches bound the runs (cut strings, list
//! items' markers). A run with a line of running text beats one without: a headline list (a site's top
//! stories) has long lines too, and more words than a page whose article is one sentence.

use std::collections::HashSet;

use super::list_items::list_items;
use super::title::on_a_title_line;
use super::{Cleaner, Layout, Match, SPLIT_WORDS, Span, SpanKind, kept_runs, union};
use crate::clean_settings::Stage;
use crate::rules::Action;

impl Cleaner {
    /// The article block of `text`: the largest run between the matches of all rules. Cut strings are
    /// template too: they bound the runs the block is chosen from. Runs after the first footer string
    /// are chosen only if none before it has a long line: a comment thread can outweigh its article, and
    /// it is exactly what the footer string announces. A footer string on the page's own title line is
    /// not its footer (the site lists this page among its headlines). Runs that open list items (a
    /// comment's "name, date at time", stage `list-items`) are chosen only if no other run carries words.
    pub fn article_block(&self, text: &str, matches: &[Match]) -> Option<(usize, usize)> {
        self.article_block_of(&Layout::new(text), matches)
    }

    /// As [`Cleaner::article_block`], given the text's layout.
    pub(crate) fn article_block_of(&self, doc: &Layout, matches: &[Match]) -> Option<(usize, usize)> {
        let text = doc.text();
        let template: Vec<Match> =
            matches.iter().filter(|m| self.rules[m.rule as usize].action != Action::Keep).copied().collect();
        let matches = &template[..];
        let items = if self.settings.on(Stage::ListItems) {
            list_items(doc, matches, |rule| self.rules[rule as usize].fixed, |m| splits_runs(doc, m))
        } else {
            vec![false; matches.len()]
        };
        // A short match that is not a line of its own (an idiom, most likely) does not break the article;
        // a list item's marker does.
        let splitting = matches
            .iter()
            .enumerate()
            .filter(|&(i, m)| items[i] || (splits_runs(doc, m) && !doc.is_blank(m.start, m.end)))
            .map(|(_, m)| m);
        // what the rules match, not what the merge gap joins: a wide gap would join across the article
        let all = union(text, splitting, 0, SpanKind::Removed);
        // a run starting where an item's marker ends is that item
        let item_ends: HashSet<usize> = matches.iter().zip(&items).filter(|(_, is)| **is).map(|(m, _)| m.end).collect();
        let opens_item = |(run_start, _): (usize, usize)| item_ends.contains(&run_start);
        // a footer string on this page's own title line is no footer here: the title itself (the site
        // lists its headlines, this one among them), or a name in it ("… at Jacksonville Jaguars") that
        // a footer list holds on the pages mined
        let first_footer = matches
            .iter()
            .filter(|m| self.rules[m.rule as usize].action == Action::CutAfter)
            .filter(|m| !on_a_title_line(doc, m.start))
            .map(|m| m.start)
            .min();
        if let Some(f) = first_footer
            && let Some(block) = article_block_where(
                doc,
                &kept_runs(f, &all.iter().filter(|s| s.start < f).cloned().collect::<Vec<_>>()),
                opens_item,
            )
            // and it has a line of prose: a footer string that matched early (the site's name under a
            // long <title>) does not make a menu the article
            && has_long_line(doc, block)
        {
            return Some(block);
        }
        article_block_where(doc, &kept_runs(text.len(), &all), opens_item)
    }
}

/// Whether `block` has a long line, not counting the document's first line (the `<title>`).
fn has_long_line(doc: &Layout, (start, end): (usize, usize)) -> bool {
    let from = if start == 0 { (doc.line_end(0) + 1).min(end) } else { start };
    doc.run_words(from, end).0 > 0
}

/// The article block: the kept run with the most words on long lines (≥ [`super::LONG_LINE_WORDS`] words),
/// of those with a line of running text ([`Layout::has_running_line`]) if any has one, or with the most
/// words if no line is that long. `None` when nothing is kept.
pub fn article_block(doc: &Layout, removed: &[Span]) -> Option<(usize, usize)> {
    article_block_passing(doc, removed, |_| false)
}

/// As [`article_block`], passing over the runs `passed` says are no article (a comment in a thread,
/// stage `threads`), unless no other run carries words.
pub(super) fn article_block_passing(
    doc: &Layout,
    removed: &[Span],
    passed: impl Fn((usize, usize)) -> bool,
) -> Option<(usize, usize)> {
    article_block_where(doc, &kept_runs(doc.text().len(), removed), passed)
}

/// As [`article_block`] of the kept `runs`, passing over those `opens_item` says are a list item's,
/// unless no other run carries words.
fn article_block_where(
    doc: &Layout,
    runs: &[(usize, usize)],
    opens_item: impl Fn((usize, usize)) -> bool,
) -> Option<(usize, usize)> {
    let (items, runs): (Vec<_>, Vec<_>) = runs.iter().partition(|&&run| opens_item(run));
    largest_run(doc, runs).or_else(|| largest_run(doc, items))
}

fn largest_run(doc: &Layout, runs: Vec<(usize, usize)>) -> Option<(usize, usize)> {
    let mut scored: Vec<((usize, usize), usize, usize)> = runs
        .into_iter()
        .map(|(a, b)| {
            let (long, all) = doc.run_words(a, b);
            ((a, b), long, all)
        })
        .filter(|r| r.2 > 0)
        .collect();
    if !scored.iter().any(|r| r.1 > 0) {
        // ties go to the earliest run
        return scored.iter().rev().max_by_key(|r| r.2).map(|r| r.0);
    }
    // the run with the most words on long lines of those with a line of running text, if any has one (a
    // headline list has long lines, but they read as headlines); most first, of equals the earliest, read
    // until one has such a line: most often the first
    scored.sort_by_key(|r| (std::cmp::Reverse(r.1), r.0));
    scored.iter().find(|r| doc.has_running_line(r.0.0, r.0.1)).or(scored.first()).map(|r| r.0)
}

/// Whether a match bounds the runs the article block is chosen from: it is whole lines, or it has at
/// least [`SPLIT_WORDS`] words. A short match inside a line is most likely an idiom.
pub fn splits_runs(doc: &Layout, m: &Match) -> bool {
    doc.is_whole_lines(m.start, m.end) || doc.words(m.start, m.end) >= SPLIT_WORDS
}

#[cfg(test)]
mod tests {
    use crate::cleaning::tests::cleaner;
    use crate::rules::Action;

    #[test]
    fn a_footer_string_matching_above_the_article_does_not_make_a_menu_the_article() {
        // "Talks resume today" is a headline list's entry on other pages, a footer string there; here it
        // is the page's own title, above the article
        let text = "Home\nScores\nTeams\nTalks resume today\nFriday, 11.06.2012\n\
            The talks between the league and the players resumed on Friday in the city.\n\
            Both sides said the meeting was a first step, and more would follow soon.\n\
            Top headlines\nTalks resume today\nAnother story";
        let rules = [("Talks resume today", Action::CutAfter), ("Top headlines", Action::Remove)];
        let c = cleaner(&rules, 0);
        let out = c.clean(text).text;
        assert!(out.contains("The talks between") && out.contains("more would follow soon."), "{out}");
        assert!(!out.contains("Another story"), "{out}");
    }

    #[test]
    fn a_headline_list_with_more_words_than_a_one_sentence_article_is_not_the_article() {
        // a video page: its article is one sentence under its headline; the site's top stories above
        // have more words on long lines, but no sentence. A string of the site's menu closes the list
        // (here inside its last entry), and a share widget's string opens the article.
        let text = "Talks resume today | The Site\nHome\nOur Top Stories\n\
            Mayor Opens the New Bridge Over the River With a Ceremony Downtown\n\
            Council Votes on the Budget for Schools and Parks in the Coming Year\n\
            City Leaders Meet the Visiting Delegation\nTalks resume today\nA. Writer\nShare This Post\n\
            The talks between the league and the players resumed on Friday.\nTranscript | Download\n\
            More stories\nAbout us";
        let rules = [
            ("Home", Action::Remove),
            ("City Leaders", Action::Remove),
            ("Share This Post", Action::Remove),
            ("More stories", Action::CutAfter),
        ];
        let mut c = cleaner(&rules, 0).with_line_boundary(true);
        c.settings.short_runs.words = 20;
        let out = c.clean(text).text;
        assert!(out.contains("Talks resume today\nA. Writer"), "the headline and byline stay: {out}");
        assert!(out.contains("resumed on Friday."), "{out}");
        assert!(!out.contains("Our Top Stories") && !out.contains("Mayor Opens"), "the list goes: {out}");
    }

    #[test]
    fn a_short_post_without_a_sentences_end_stays_the_article_over_a_comment_with_one() {
        // the post's two lines end in no period, but read as running text, not as headlines: a reader's
        // comment below, with fewer words, does not take the block from it
        let text = "Viva the shrine | Blog\nHome\nViva the shrine\nShare this\n\
            Whenever you have time, and if you believe in miracles, visit the shrine in the hills of Italy\n\
            To find more information about the apparitions and the shrine, please click here\n\
            Comments\nI went there last year and it was the most beautiful place.\nAbout us";
        let rules = [("Home", Action::Remove), ("Share this", Action::Remove), ("Comments", Action::Remove)];
        let mut c = cleaner(&rules, 0).with_line_boundary(true);
        c.settings.short_runs.words = 20;
        let out = c.clean(text).text;
        assert!(out.contains("Whenever you have time") && out.contains("please click here"), "{out}");
    }

    #[test]
    fn the_block_among_headline_lists_is_found_in_work_linear_in_the_page() {
        // runs of headlines between a menu string's matches, none with running text: each run's lines
        // are read once, never once per run
        let c = cleaner(&[("Top Stories", Action::Remove), ("About us", Action::CutAfter)], 0);
        let mut counts = Vec::new();
        for n in [100, 1000] {
            let list = "Top Stories\nMayor Opens the New Bridge Over the River With a Band\n".repeat(n);
            let text = format!("{list}About us\nContact");
            let ((), scanned) = crate::cleaning::work::measure(|| {
                c.clean(&text);
            });
            counts.push(scanned as f64 / text.len() as f64);
        }
        assert!(counts[1] < counts[0] * 1.5, "work per byte grows with the runs: {counts:?}");
    }

    #[test]
    fn a_long_title_above_the_sites_name_is_not_the_article() {
        // the site's name is a line of its own at the top and at the foot; an editor made the foot's a
        // footer string. A <title> of eight words or more above the name is no article either.
        let text = "Biscuit Home Decor and Bedding for Everyone at Home\nMenu\nDailyCandy\nBiscuit Home\n\
            Sheets shopping can be a snooze, but this new shop makes it fun again.\n\
            The decorator launched the site with the help of two friends this week.\n\
            DailyCandy\nAbout us\nContact";
        let rules = [("DailyCandy", Action::CutAfter), ("Menu", Action::Remove)];
        let c = cleaner(&rules, 0).with_line_boundary(true);
        let out = c.clean(text).text;
        assert!(out.contains("Sheets shopping") && out.contains("this week."), "{out}");
        assert!(!out.contains("About us"), "{out}");
    }

    #[test]
    fn a_footer_string_that_is_the_pages_own_title_does_not_make_a_comment_the_article() {
        // the site's sidebar links this page ("Aleph: comments") on every other page, after the article:
        // an editor made it a footer string. Here it is the <title> and the headline, and the comments
        // below the real footer outweigh the article.
        let comment = "I read this twice and it said more to me the second time than the first, thank you.";
        let text = format!(
            "Aleph: comments\nHome\nAleph: comments\n\
             This space is moderated but not censored, and you can post your comments in any language.\n\
             To read the comments in another language please click on a flag in the sidebar.\n\
             Previous post\n{comment}\n{comment}\n{comment}\nLeave a reply"
        );
        let rules =
            [("Aleph: comments", Action::CutAfter), ("Previous post", Action::CutAfter), ("Home", Action::Remove)];
        let out = cleaner(&rules, 0).with_line_boundary(true).clean(&text).text;
        assert!(out.contains("This space is moderated") && out.contains("in the sidebar."), "{out}");
        assert!(!out.contains("I read this twice"), "{out}");
    }

    #[test]
    fn a_footer_string_ending_the_pages_headline_does_not_make_a_link_above_it_the_article() {
        // a team's name, a footer list's line on the pages mined, ends this page's title and headline;
        // the link to the next post above the headline is a long line, but not the article
        let text = "Lions at Jacksonville Jaguars - Blog\nHome\n\
                    Join our fans across the nation in the salute to service »\n\
                    Lions at Jacksonville Jaguars\nBy Staff\n\
                    Our hero did not practice all week due to a lingering knee injury, but he played.\n\
                    The second paragraph of the article has many more words than the others do.\n\
                    Jacksonville Jaguars\nTennessee Titans";
        let out = cleaner(&[("Jacksonville Jaguars", Action::CutAfter)], 0).with_line_boundary(true).clean(text).text;
        assert!(out.contains("knee injury") && out.contains("second paragraph"), "{out}");
        assert!(!out.contains("Titans"), "the list's own line is the footer: {out}");
    }
}
