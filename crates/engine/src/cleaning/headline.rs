//! Stage `headline`: the headline above the article block, when a removal took it, is given back. The
//! site's other pages list this page's headline ("Most popular", "Top stories"), so a rule matches it
//! whole; above the article it is the article's. The headline is the line that repeats the page's
//! `<title>`; where none does (a title written for search engines), an HTML page's last `<h1>` line of
//! two words or more above the block that the title does not hold (a logo's `<h1>` is the site's name,
//! which the title ends with).

use super::stage::{PageState, SpanStage};
use super::title::{headline_not_in_title, title_line, title_lines};
use super::{Cleaner, Layout, Match, Span};
use crate::clean_settings::Stage;
use crate::view::Structure;

/// The headline above the article block, when a removal took it: the site's other pages list this
/// page's headline ("Most popular"), so a rule matches it whole. It is given back. Its line repeats the
/// title, or on an HTML page (`structure`) where none does, is the last `<h1>` line above the block that
/// is not in the title.
pub(super) fn lost_headline(
    doc: &Layout,
    structure: Option<&Structure>,
    spans: &[Span],
    matches: &[Match],
    block: (usize, usize),
) -> Option<(usize, usize)> {
    let text = doc.text();
    let (block_start, block_end) = block;
    if title_lines(doc, block_start, block_end).next().is_some() {
        return None;
    }
    // the removal ends before the title's newline, where the block starts; or it took the headline's head
    // only (the site's lists print it without its "…"), and the block starts inside the headline
    let end = (doc.line_end(block_start) + 1).min(text.len());
    let title = title_line(doc, 0, end, matches).or_else(|| headline_not_in_title(doc, structure?, end))?;
    let title_end = doc.line_end(title);
    spans.iter().any(|s| s.start < title_end && s.end > title).then_some((title, title_end))
}

pub(super) struct Headline;

impl SpanStage for Headline {
    fn run(&self, _: &Cleaner, page: &mut PageState) {
        if let Some(block) = page.block()
            && let Some(lost) = lost_headline(page.doc, page.structure, &page.spans, &page.template, block)
        {
            page.give_back([lost], Stage::Headline);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::{cleaned_html, cleaner, titled};
    use crate::rules::Action;

    #[test]
    fn keep_title_keeps_a_title_that_a_rule_matches_whole() {
        // the site lists its headlines on every page, so a rule matches this page's headline too
        let text = "Big news today | Site\nMenu one two\nBig news today\nShare this now\n\
            Body text here, long enough to be the article block.\nTop stories\nBig news today";
        let rules = [
            ("Menu one two", Action::Remove),
            ("Big news today", Action::Remove),
            ("Share this now", Action::CutBefore),
        ];
        let mut c = cleaner(&rules, 0);
        c = titled(c);
        assert_eq!(
            c.clean(text).text,
            "Big news today\nBody text here, long enough to be the article block.\nTop stories",
            "the headline stays above the article, and goes from the list"
        );
    }

    #[test]
    fn a_headline_listed_on_other_pages_is_given_back_without_a_header_cut() {
        // no header string: the headline goes by a plain removal (the site lists it under "Most popular")
        let text = "Big news today | Site\nMenu one two\nBig news today\n\
            Body text here, long enough to be the article block.\nMost popular\nBig news today";
        let rules = [("Menu one two", Action::Remove), ("Big news today", Action::Remove)];
        let mut c = cleaner(&rules, 0);
        assert_eq!(c.clean(text).text, "| Site\nBody text here, long enough to be the article block.\nMost popular");
        c = titled(c);
        assert_eq!(
            c.clean(text).text,
            "| Site\nBig news today\nBody text here, long enough to be the article block.\nMost popular",
            "the copy above the article is given back, the listed one after it is not"
        );
        assert_eq!(
            c.with_stage(Stage::Headline, false).clean(text).text,
            "| Site\nBody text here, long enough to be the article block.\nMost popular",
            "off: the headline goes with the list's copy"
        );
    }

    #[test]
    fn a_headline_whose_head_a_rule_took_is_given_back_whole() {
        // the site's lists print the headline without its "…", so a rule matches only its head
        let text = "Big news from the Stats Impressive - Blog\nMenu one two\n\
            Big news from the Stats\u{2026} Impressive\n\
            Body text here, long enough to be the article block.";
        let rules = [("Menu one two", Action::Remove), ("Big news from the", Action::Remove)];
        let mut c = cleaner(&rules, 0).with_line_boundary(true);
        c = titled(c);
        let kept = c.clean(text).text;
        assert!(kept.contains("\nBig news from the Stats\u{2026} Impressive\nBody"), "{kept}");
    }

    #[test]
    fn a_listed_headline_in_an_h1_is_given_back_where_the_title_words_it_otherwise() {
        // the <title> names the section, not the story; the logo is an <h1> too; the site's other pages list
        // this story, so a rule matches its headline whole
        let html = "<html><head><title>Scout - Fall Trends | The Paper</title></head><body>\
            <h1>Paper</h1><div>Menu one two</div><h1>Decked-out digits and prints charming</h1>\
            <p>Body text here, long enough to be the article block of this page.</p>\
            <div>Most popular</div><div>Decked-out digits and prints charming</div></body></html>";
        let rules = [
            ("Paper", Action::Remove),
            ("Menu one two", Action::Remove),
            ("Decked-out digits and prints charming", Action::Remove),
        ];
        let c = titled(cleaner(&rules, 0));
        assert_eq!(
            cleaned_html(&c, html),
            "Scout - Fall Trends | The\nDecked-out digits and prints charming\n\
             Body text here, long enough to be the article block of this page.\nMost popular",
            "the headline stays above the article, and goes from the list"
        );
        assert!(
            !cleaned_html(&c.clone().with_stage(Stage::Headline, false), html).contains("Decked"),
            "off: the headline goes with the list's copy"
        );
        // a logo's <h1> is the site's name, which the title holds: it is no headline
        let logo = "<html><head><title>Scout - Fall Trends | Harbour Paper</title></head><body>\
            <h1>Harbour Paper</h1><div>Menu one two</div><h2>Decked-out digits and prints charming</h2>\
            <p>Body text here, long enough to be the article block of this page.</p></body></html>";
        let c = titled(cleaner(&[("Harbour Paper", Action::Remove), ("Menu one two", Action::Remove)], 0));
        assert_eq!(
            cleaned_html(&c, logo),
            "Scout - Fall Trends |\nDecked-out digits and prints charming\n\
             Body text here, long enough to be the article block of this page."
        );
    }
}
