//! Stage `link-density`: lines whose text is mostly inside links, left by the rules and the earlier
//! stages, go where a reader would skip them: navigation, related-story strips, tag clouds and teaser
//! lists change their words on every page (no string rule sees them) but are made of links, which an
//! article's prose is not. An article's own paragraph with a few links in it has a low link share and
//! stays.
//!
//! A line is link-dense when at least `share` percent of its text sits inside links (the page view
//! records it per line as a whole percent, `view::Structure::link_percent`, which a page rebuilt from its
//! source's paths keeps too; `[clean.link-density] share`, 0: the stage does nothing) and it is no
//! sentence (a long line that reads as prose stays, linked or not). A stretch of [`RUN_LINES`] or more
//! consecutive link-dense lines, in a kept run outside the article block, goes. Inside the block
//! nothing goes: some sites' articles end in a list of related links their readers count as the article,
//! and a list of the site's recent posts or a byline's link sits there too. A single linked line stays
//! anywhere (a byline, a source named by its link, a photo credit), and so does a line repeating the
//! page's title. Only whole kept lines count: a line a rule cut is no evidence either way.
//!
//! Text documents have no structure (no links are known): the stage leaves them alone. It runs after
//! `short-runs`, so the article block it measures against is the one the earlier stages settled. One pass
//! over the lines of the kept runs: linear in the page.

use super::stage::{PageState, SpanStage};
use super::title::starts_a_title_line;
use super::{Cleaner, LONG_LINE_WORDS, Span, by_stage, kept_runs, run_lines};
use crate::clean_settings::Stage;

/// Link-dense lines in a row, outside the article block, that go.
pub const RUN_LINES: usize = 2;

/// The stage, with its threshold ([`crate::clean_settings::CleanSettings::link_density`]; 0: nothing).
pub(super) struct LinkDensity;

impl SpanStage for LinkDensity {
    fn run(&self, cleaner: &Cleaner, page: &mut PageState) {
        let share = cleaner.settings.link_density.share;
        let Some(structure) = page.structure.filter(|_| share > 0) else { return };
        let block = page.block();
        let doc = page.doc;
        let lines = structure.lines().min(doc.lines());
        if lines == 0 {
            return;
        }
        let mut out: Vec<Span> = Vec::new();
        for (start, end) in kept_runs(doc.text().len(), &page.spans) {
            if block.is_some_and(|(a, b)| start < b && a < end) {
                continue;
            }
            // the stretch of link-dense lines being read: its first line's start, its last line's end, its lines
            let mut stretch: Option<(usize, usize, usize)> = None;
            let mut close = |stretch: &mut Option<(usize, usize, usize)>| {
                if let Some((a, b, n)) = stretch.take()
                    && n >= RUN_LINES
                {
                    out.push(by_stage(a, b, Stage::LinkDensity));
                }
            };
            for (k, a, b, whole) in run_lines(doc, (start, end), lines) {
                let sentence = doc.line_words(k) >= LONG_LINE_WORDS && doc.reads_as_prose(a, b);
                if whole && !sentence && usize::from(structure.link_percent(k)) >= share && !starts_a_title_line(doc, a)
                {
                    stretch = Some(stretch.map_or((a, b, 1), |(s, _, n)| (s, b, n + 1)));
                } else {
                    close(&mut stretch);
                }
            }
            close(&mut stretch);
        }
        page.remove(out);
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::{cleaned_html as cleaned, cleaner, linked};
    use crate::cleaning::{Cleaner, Layout, work};
    use crate::rules::Action;
    use crate::view::PageView;

    const ARTICLE: &str = "<p>The harbour opened on Monday after ten years of building work, the mayor said.</p>\
        <p>Ferries will run every hour from the new quay, and the old terminal closes in spring.</p>";

    /// A page: a menu, the article, the heading the site prints above whatever follows it, `strip`, and a
    /// footer; rules remove the heading and the footer, so `strip` is a run of its own.
    fn page(strip: &str) -> String {
        format!(
            "<html><head><title>Harbour opens</title></head><body>\
             <ul id=\"nav\"><li><a href=\"/\">Home</a></li><li><a href=\"/n\">News</a></li><li><a href=\"/s\">Sport</a></li></ul>\
             <div class=\"post\">{ARTICLE}</div><h3>More from the harbour desk</h3>{strip}<div id=\"foot\">Contact the newsroom today</div></body></html>"
        )
    }

    const RELATED: &str = "<ul class=\"related\">\
        <li><a href=\"/1\">Council votes to close the old ferry terminal next spring</a></li>\
        <li><a href=\"/2\">Fishermen fear the new quay will crowd the harbour mouth</a></li></ul>";

    const RULES: &[(&str, Action)] =
        &[("More from the harbour desk", Action::Remove), ("Contact the newsroom today", Action::Remove)];

    fn cleaner_with(on: bool) -> Cleaner {
        linked(RULES, Stage::LinkDensity, on)
    }

    #[test]
    fn a_related_links_strip_next_to_the_article_goes_and_the_stage_off_keeps_it() {
        let html = page(RELATED);
        let on = cleaned(&cleaner_with(true), &html);
        assert!(!on.contains("Council votes") && !on.contains("Fishermen fear"), "{on}");
        assert!(on.contains("The harbour opened") && on.contains("old terminal closes"), "{on}");
        assert!(on.contains("Sport"), "the menu is in the article's run: it is no evidence: {on}");
        let off = cleaned(&cleaner_with(false), &html);
        assert!(off.contains("Council votes") && off.contains("Fishermen fear"), "{off}");
        // a rules file without `[clean.link-density]` sets no share: the stage does nothing
        let unset = cleaner(RULES, 0).with_stage(Stage::Furniture, false);
        assert!(cleaned(&unset, &html).contains("Council votes"));
    }

    #[test]
    fn the_articles_own_paragraph_with_a_few_links_stays() {
        let linked = "<p>The <a href=\"/m\">mayor</a> thanked the builders and the \
            <a href=\"/p\">port authority</a>, who paid for most of the quay.</p>";
        let html = page(&format!("<div class=\"more\">{linked}</div>"));
        let on = cleaned(&cleaner_with(true), &html);
        assert!(on.ends_with("who paid for most of the quay."), "{on}");
        // one linked line between two parts of the article stays too
        let source = "<p><a href=\"/r\">The full report of the harbour board</a></p>";
        let html = page(&format!("{source}{ARTICLE}"));
        let on = cleaned(&cleaner_with(true), &html);
        assert!(on.contains("The full report of the harbour board"), "{on}");
        // a sentence of the article that is one link, and a lone source link after the article, stay
        let sentence =
            "<p><a href=\"/d\">The board's report says the quay will pay for itself within twenty years.</a></p>";
        let html = page(&format!("{sentence}<p>[<a href=\"/src\">Source</a>]</p>"));
        let on = cleaned(&cleaner_with(true), &html);
        assert!(on.contains("pay for itself within twenty years.") && on.ends_with("[Source]"), "{on}");
    }

    #[test]
    fn a_text_document_is_left_alone() {
        let c = cleaner_with(true);
        let text = "Home\nNews\nSport\nThe harbour opened on Monday after ten years of work, the mayor said.\n\
            Council votes to close the old ferry terminal next spring\nContact the newsroom today";
        assert_eq!(c.clean(text).text, cleaner_with(false).clean(text).text);
        assert!(c.clean(text).text.contains("Council votes"));
    }

    #[test]
    fn the_stage_reads_each_line_once() {
        let c = cleaner_with(true);
        let cost = |items: usize| {
            let strip: String =
                (0..items).map(|i| format!("<li><a href=\"/{i}\">Story number {i} here</a></li>")).collect();
            let html = page(&format!("<ul>{strip}</ul>"));
            let view = PageView::of_html(&html);
            let doc = Layout::new(view.text());
            let matches = c.matches(view.text());
            let run = |c: &Cleaner| work::measure(|| c.run_on(&doc, &matches, view.structure())).1;
            let stage = run(&c).saturating_sub(run(&c.clone().with_stage(Stage::LinkDensity, false)));
            (stage, view.text().len())
        };
        let (small, small_len) = cost(100);
        let (large, large_len) = cost(10_000);
        assert!(small > 0, "the stage counts its work");
        assert!(
            large <= 2 * small * large_len / small_len,
            "linear: {small} for {small_len} bytes, {large} for {large_len}"
        );
    }
}
