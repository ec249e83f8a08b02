//! Stage `regions`: the lines under an element a region rule names go (`remove`), stay (`keep`), or cut
//! the page before or after them (`cut-before`, `cut-after`, as the `cuts` stage cuts at header and
//! footer strings). Region rules are mined beside strings (`crate::regions`): blocks whose text changes
//! on every page while their container does not (comments, related-story strips, galleries), which no
//! string rule sees. The stage reads where each line of an HTML page's view sits (`view::Structure`);
//! text documents have no structure, and the stage leaves them alone.
//!
//! An element is named by a selector (`div#comments`, `li.comment`); a line is under it when any element
//! it sits in has that selector, the outermost one deciding. Each element's selectors are looked up once
//! per page (the page's paths are a trie: a path inherits its parent's region), and each line asks its
//! path: the stage costs one pass over the page's elements and one over its lines, whatever the rules.
//!
//! A rule that removes or cuts leaves alone a page where its element holds the article: most of its prose
//! outside comment threads, and the line repeating the page's title or the prose's opening under it (see
//! [`holds_the_article`]). A cut whose element stands as two runs or more on a page besides the article
//! (a blog's post and each reader's comment sharing a class) is a list there: its runs are removed, and
//! nothing is cut at them, since a cut before or after one of them would take the article with the rest.
//!
//! Its matches join the page's template matches before any other span stage runs: the `cuts` stage cuts
//! at region cuts and chooses the article block between region removals, and `--explain` names the
//! region rule (`region:div#comments`) of every range it removed; keep regions are given back last, with
//! the keep rules.

use foldhash::HashMap;

use super::block_names::{comment_blocks_per_path, in_comment_block};
use super::explain::Reason;
use super::stage::{PageState, SpanStage};
use super::title::title_line;
use super::{ActiveRule, Cleaner, LONG_LINE_WORDS, Layout, Match, Span, SpanKind, merge_spans, work};
use crate::clean_settings::Stage;
use crate::rules::Action;
use crate::rules::region::{RegionRule, selectors};
use crate::view::Structure;

/// A cleaner's region rules: each selector's rule (an index into the cleaner's rules).
#[derive(Debug, Clone, Default)]
pub(crate) struct RegionRules {
    by_selector: HashMap<String, u32>,
}

impl Cleaner {
    /// The cleaner with `rules` (region rules) added: each becomes a rule of the cleaner, named by its
    /// id, which stage `regions` applies to pages with a structure. A selector named twice keeps its
    /// first rule.
    pub fn with_regions<'a>(mut self, rules: impl IntoIterator<Item = &'a RegionRule>) -> Self {
        for r in rules {
            if self.regions.by_selector.contains_key(&r.element) {
                continue;
            }
            let idx = self.rules.len() as u32;
            self.rules.push(ActiveRule {
                id: r.id(),
                action: r.action,
                cluster: None,
                fixed: false,
                editor: false,
                own_line: false,
            });
            self.regions.by_selector.insert(r.element.clone(), idx);
            self.any_cut |= r.action.is_cut();
        }
        self
    }

    /// Whether the cleaner has region rules.
    pub fn has_regions(&self) -> bool {
        !self.regions.by_selector.is_empty()
    }

    /// The matches of the region rules on a page: for each rule, each run of consecutive lines under an
    /// element it names, whole lines. `doc` is the page's view text, `structure` where its lines sit.
    pub(crate) fn region_matches(&self, doc: &Layout, structure: &Structure) -> Vec<Match> {
        let by = &self.regions.by_selector;
        if by.is_empty() {
            return Vec::new();
        }
        work::add(structure.paths() + structure.lines());
        // per path: the outermost region that keeps, and the outermost that does anything else
        let mut keep: Vec<Option<u32>> = vec![None; structure.paths()];
        let mut other: Vec<Option<u32>> = vec![None; structure.paths()];
        for p in 1..structure.paths() {
            let path = p as u32;
            let parent = structure.parent(path) as usize;
            (keep[p], other[p]) = (keep[parent], other[parent]);
            if !structure.breaks_line(path) || (keep[p].is_some() && other[p].is_some()) {
                continue;
            }
            for s in selectors(structure.label(path)) {
                let Some(&rule) = by.get(&s) else { continue };
                let slot = if self.rules[rule as usize].action == Action::Keep { &mut keep[p] } else { &mut other[p] };
                slot.get_or_insert(rule);
            }
        }
        let mut out = Vec::new();
        for slots in [&keep, &other] {
            let mut run: Option<Match> = None;
            for line in 0..structure.lines().min(doc.lines()) {
                let (start, end) = doc.line_range(line);
                match (slots[structure.line_path(line) as usize], &mut run) {
                    (Some(rule), Some(m)) if m.rule == rule => m.end = end,
                    (rule, _) => {
                        out.extend(run.take());
                        run = rule.map(|rule| Match { start, end, rule });
                    }
                }
            }
            out.extend(run);
        }
        out.sort_unstable();
        out
    }
}

/// The stage (see the module doc).
pub(super) struct Regions;

impl SpanStage for Regions {
    fn run(&self, cleaner: &Cleaner, page: &mut PageState) {
        let Some(structure) = page.structure else { return };
        let matches = cleaner.region_matches(page.doc, structure);
        if matches.is_empty() {
            return;
        }
        let mut spans = std::mem::take(&mut page.spans);
        let mut page_prose = None;
        let action = |m: &Match| cleaner.rules[m.rule as usize].action;
        let held: Vec<bool> = matches
            .iter()
            .map(|m| action(m) != Action::Keep && holds_the_article(page.doc, structure, *m, &mut page_prose))
            .collect();
        // a cut's element standing twice on a page besides the article (each reader's comment) is a list:
        // cutting before or after one of them would take the article with the rest
        let mut runs: HashMap<u32, usize> = HashMap::default();
        for (m, _) in matches.iter().zip(&held).filter(|(m, held)| !**held && action(m).is_cut()) {
            *runs.entry(m.rule).or_default() += 1;
        }
        for (m, held) in matches.into_iter().zip(held) {
            match action(&m) {
                Action::Keep => page.keeps.push(m),
                // `--explain` says the stage kept it, on this page, over the region rule
                action if held => {
                    page.trace.kept(m.start, m.end, Reason::Rule { rule: m.rule, action });
                    page.trace.kept(m.start, m.end, Reason::Stage(Stage::Regions));
                }
                action => {
                    let listed = runs.get(&m.rule).is_some_and(|&n| n > 1);
                    // with the cuts off, or listed, a cut region is removed as a cut string is
                    if action == Action::Remove || (!page.cuts && action.is_cut()) || listed {
                        let mut span = Span::new(m.start, m.end, SpanKind::Removed, vec![m.rule]);
                        span.stages.push(Stage::Regions);
                        spans.push(span);
                    }
                    if !listed {
                        page.template.push(m);
                    }
                }
            }
        }
        page.spans = merge_spans(spans);
        page.template.sort_unstable();
    }
}

/// Words in the long lines of prose of `doc` within lines `lines` (`LONG_LINE_WORDS` words or more, read
/// as prose).
fn prose_words(doc: &Layout, lines: std::ops::Range<usize>) -> usize {
    prose(doc, lines).map(|k| doc.line_words(k)).sum()
}

/// How many long lines of prose `doc` has within lines `lines`.
fn prose_lines(doc: &Layout, lines: std::ops::Range<usize>) -> usize {
    prose(doc, lines).count()
}

fn prose(doc: &Layout, lines: std::ops::Range<usize>) -> impl Iterator<Item = usize> {
    work::add(lines.len());
    lines.filter(|&k| {
        let (a, b) = doc.line_range(k);
        doc.line_words(k) >= LONG_LINE_WORDS && doc.reads_as_prose(a, b)
    })
}

/// Whether region match `m` holds most of the page's prose (`page_prose`, its words) and either a line
/// repeating the page's `<title>` or the first prose under the last such line above it: the article.
/// Mining never proposes an element that holds the article on the pages it read, but a class a site gives
/// a sidebar on most pages can be its main column's on another (`div.left`), and a photo caption is all
/// the text of a photo page: there the rule is not the template's block, and does nothing on that page.
/// A sidebar listing the story among others holds its title but little of the prose; a comment thread,
/// prose but neither the title nor the article's opening, which stands between the headline and the
/// thread (under a post of a line or two, a block naming comments is still a thread). One pass over the
/// match's lines; only a match holding most of the prose (one a page) looks above it.
fn holds_the_article(doc: &Layout, structure: &Structure, m: Match, page_prose: &mut Option<usize>) -> bool {
    let first = doc.line_of(m.start);
    let lines = first..doc.line_of(m.end.saturating_sub(1).max(m.start)) + 1;
    let total = *page_prose.get_or_insert_with(|| prose_outside_threads(doc, structure));
    if 2 * prose_words(doc, lines) <= total {
        return false;
    }
    if title_line(doc, m.start, m.end, &[]).is_some() {
        return true;
    }
    // the headline above the match, at most one line of prose between them (a standfirst), and no
    // comment block around it: a short post's thread opens under its headline too (a match's lines are
    // lines of the structure: `region_matches` reads no others)
    title_line(doc, 0, doc.line_range(first).0, &[]).is_some_and(|headline| {
        prose_lines(doc, doc.line_of(headline) + 1..first) <= 1
            && !in_comment_block(structure, structure.line_path(first))
    })
}

/// Words of the page's prose outside blocks named for comments: a thread's prose is no article's, and an
/// article under a thread outweighing it still holds most of the rest. One pass over the page's paths
/// and one over its lines.
fn prose_outside_threads(doc: &Layout, structure: &Structure) -> usize {
    let in_thread = comment_blocks_per_path(structure, 1);
    prose(doc, 0..doc.lines())
        .filter(|&k| k >= structure.lines() || in_thread[structure.line_path(k) as usize] == 0)
        .map(|k| doc.line_words(k))
        .sum()
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::{Cleaner, Layout, Reason};
    use crate::mutable::MutableSet;
    use crate::rules::Action;
    use crate::rules::region::RegionRule;
    use crate::tokens::Tokenizer;
    use crate::view::PageView;

    const PAGE: &str = "<html><head><title>Harbour</title></head><body><div id=\"nav\">Home News</div>\
        <div class=\"post\"><p>The harbour opened on Monday after ten years of building work, the mayor said.</p></div>\
        <div id=\"comments\"><div class=\"comment even\">What a great day for the town!</div>\
        <div class=\"comment odd\">About time.</div></div><div id=\"foot\">Contact us</div></body></html>";

    /// A cleaner with no string rule and `regions`, accepted.
    fn cleaner(regions: &[(&str, Action)]) -> Cleaner {
        let m = MutableSet::defaults();
        let regions: Vec<RegionRule> = regions.iter().map(|(e, a)| RegionRule::accepted(*e, *a)).collect();
        Cleaner::from_rules(Tokenizer::Text, m.patterns(), std::iter::empty(), 0).unwrap().with_regions(&regions)
    }

    fn cleaned(c: &Cleaner) -> String {
        cleaned_page(c, PAGE)
    }

    fn cleaned_page(c: &Cleaner, page: &str) -> String {
        let view = PageView::of_html(page);
        let doc = Layout::new(view.text());
        let (spans, _) = c.run_on(&doc, &[], view.structure());
        crate::cleaning::render(view.text(), &spans)
    }

    #[test]
    fn the_lines_under_a_region_go_and_the_stage_off_keeps_them() {
        let c = cleaner(&[("div#comments", Action::Remove)]);
        let out = cleaned(&c);
        assert!(!out.contains("great day") && !out.contains("About time"), "{out}");
        assert!(out.contains("The harbour opened") && out.contains("Contact us"), "{out}");
        // stage `comments` takes these lines whatever the region rules say: off too, to see `regions` alone
        let off = cleaned(&c.clone().with_stage(Stage::Regions, false).with_stage(Stage::Comments, false));
        assert!(off.contains("great day") && off.contains("About time"), "off: nothing removed: {off}");
    }

    #[test]
    fn one_class_names_every_element_that_has_it() {
        let out = cleaned(&cleaner(&[("div.comment", Action::Remove)]));
        assert!(!out.contains("great day") && !out.contains("About time"), "{out}");
    }

    #[test]
    fn a_region_cut_after_takes_everything_from_its_first_line() {
        let out = cleaned(&cleaner(&[("div#comments", Action::CutAfter)]));
        assert!(out.ends_with("the mayor said."), "{out}");
    }

    #[test]
    fn a_keep_region_holds_inside_a_removed_one() {
        let out = cleaned(&cleaner(&[("div#comments", Action::Remove), ("div.odd", Action::Keep)]));
        assert!(!out.contains("great day") && out.contains("About time"), "{out}");
    }

    #[test]
    fn explain_names_the_region_rule_of_what_it_removed() {
        let c = cleaner(&[("div#comments", Action::Remove)]);
        let view = PageView::of_html(PAGE);
        let doc = Layout::new(view.text());
        let (spans, trace) = c.run_on(&doc, &[], view.structure());
        let e = c.explanation(&doc, spans, trace, &[]);
        let d = e.decisions.iter().find(|d| view.text()[d.start..d.end].contains("great day")).unwrap();
        assert!(d.removed);
        let named: Vec<&str> = (d.reasons.iter())
            .filter_map(|r| if let Reason::Rule { rule, .. } = r { Some(c.rule_id(*rule)) } else { None })
            .collect();
        assert_eq!(named, ["region:div#comments"]);
        assert!(d.reasons.contains(&Reason::Stage(Stage::Regions)));
    }

    #[test]
    fn a_region_that_holds_the_headline_and_most_of_the_prose_on_a_page_leaves_that_page_alone() {
        // `div.left` is the site's sidebar on most pages; on this one it is the main column
        let prose = "<p>The harbour opened on Monday after ten years of building work, the mayor said.</p>\
            <p>Fishing boats lined the new quay while the town band played for the crowd on the pier.</p>";
        let main = format!(
            "<html><head><title>The harbour opens | Gazette</title></head><body><div class=\"left\">\
             <h1>The harbour opens</h1>{prose}</div><div class=\"right\">Most read: The harbour opens</div></body></html>"
        );
        let c = cleaner(&[("div.left", Action::Remove), ("div.right", Action::Remove)]);
        let out = cleaned_page(&c, &main);
        assert!(out.contains("The harbour opens\nThe harbour opened") && out.contains("town band"), "{out}");
        // `--explain` says the stage kept it
        let view = PageView::of_html(&main);
        let doc = Layout::new(view.text());
        let (spans, trace) = c.run_on(&doc, &[], view.structure());
        let e = c.explanation(&doc, spans, trace, &[]);
        let kept = e.decisions.iter().find(|d| view.text()[d.start..d.end].contains("town band"));
        assert!(kept.is_some_and(|d| !d.removed && d.reasons.contains(&Reason::Stage(Stage::Regions))), "{kept:?}");
        let rule = c.rule_ids().position(|id| id == "region:div.left").unwrap() as u32;
        let left = Reason::Rule { rule, action: Action::Remove };
        assert!(kept.is_some_and(|d| d.reasons.contains(&left)), "it names the region rule it held: {kept:?}");
        assert!(!out.contains("Most read"), "a sidebar listing the story holds its title, not its prose: {out}");
        // a page whose `div.left` is the sidebar loses it
        let side = format!(
            "<html><head><title>The harbour opens | Gazette</title></head><body>\
             <div class=\"left\">Home News Sport</div><h1>The harbour opens</h1>{prose}</body></html>"
        );
        let out = cleaned_page(&c, &side);
        assert!(!out.contains("Sport") && out.contains("town band"), "{out}");
    }

    /// A blog page whose post and each reader's comment share a class (`div.text`): the post under
    /// `div.entry`, the comments in an `<ol>` of class `list`.
    fn blog_page(list: &str, comments: &[&str]) -> String {
        let thread: String = (comments.iter().enumerate())
            .map(|(i, c)| format!("<li><cite>Reader {i}</cite> says:<div class=\"text\"><p>{c}</p></div></li>"))
            .collect();
        format!(
            "<html><head><title>The harbour opens | Blog</title></head><body><div id=\"nav\">Home Archives</div>\
             <h1>The harbour opens</h1><div class=\"text entry\"><p>The harbour opened on Monday after ten \
             years of building work, the mayor said.</p><p>Fishing boats lined the new quay while the town band \
             played for the crowd on the pier all afternoon.</p></div>\
             <ol class=\"{list}\">{thread}</ol><div id=\"foot\">Contact us</div></body></html>"
        )
    }

    const COMMENT: &str = "What a great day for the town, and for everyone who waited so long for the boats to \
        come back to the quay where my grandfather once mended his nets every morning.";

    /// The explained decision on the line of `text`, with the view's text, of `page` cleaned by `c`.
    fn decision_on(c: &Cleaner, page: &str, text: &str) -> Option<(bool, Vec<Reason>)> {
        let view = PageView::of_html(page);
        let doc = Layout::new(view.text());
        let (spans, trace) = c.run_on(&doc, &[], view.structure());
        let e = c.explanation(&doc, spans, trace, &[]);
        e.decisions.iter().find(|d| view.text()[d.start..d.end].contains(text)).map(|d| (d.removed, d.reasons.clone()))
    }

    #[test]
    fn a_post_under_a_longer_thread_still_holds_the_article_where_its_class_is_the_comments_own() {
        // the thread holds most of the page's prose; the post, most of the rest: the stage keeps it
        let c = cleaner(&[("div.text", Action::CutBefore)]);
        let page = blog_page("commentlist", &[COMMENT, COMMENT, COMMENT]);
        let kept = decision_on(&c, &page, "town band");
        assert!(
            kept.as_ref().is_some_and(|(removed, r)| !removed && r.contains(&Reason::Stage(Stage::Regions))),
            "{kept:?}"
        );
    }

    #[test]
    fn a_cut_whose_element_stands_twice_on_a_page_besides_the_article_cuts_nothing_there() {
        // each reader's comment is a `div.text`: no cut at any of them, each is removed by the stage
        let c = cleaner(&[("div.text", Action::CutBefore)]);
        let page = blog_page("responses", &[COMMENT, "About time."]);
        let removed = decision_on(&c, &page, "About time");
        assert!(
            removed.as_ref().is_some_and(|(removed, r)| *removed && r.contains(&Reason::Stage(Stage::Regions))),
            "{removed:?}"
        );
        assert!(cleaned_page(&c, &page).contains("building work"));
    }

    #[test]
    fn a_caption_that_is_all_the_prose_of_a_photo_page_opening_under_its_headline_stays() {
        // `div.caption` is a photo's caption on the site's articles; on a photo page it is the text
        let page = |body: &str| {
            format!(
                "<html><head><title>The harbour opens | Photos | Gazette</title></head><body>\
                 <h1>The harbour opens</h1><p>The new quay was full of people on its first morning.</p>{body}\
                 </body></html>"
            )
        };
        let caption = "<div class=\"caption\">Fishing boats lined the new quay on Monday while the town band played \
            for a crowd of hundreds on the pier, ten years after the building work began.</div>";
        let c = cleaner(&[("div.caption", Action::Remove), ("div.comment", Action::Remove)]);
        let out = cleaned_page(&c, &page(caption));
        assert!(out.contains("town band"), "the caption opens the page's prose under its headline: {out}");
        // under an article the caption goes
        let article = "<p>The harbour opened on Monday after ten years of building work, the mayor said.</p>\
            <p>Fishing boats lined the new quay while the town band played for the crowd on the pier.</p>";
        let out = cleaned_page(&c, &page(&format!("{article}{caption}")));
        assert!(!out.contains("hundreds") && out.contains("mayor said"), "{out}");
        // and a comment thread holding most of the prose, below the article's paragraphs
        let comment = "<div class=\"comment\">I was there with my children and we all loved the music and the boats \
            very much, though it took far too long and cost far more than the council ever told any of us.</div>";
        let c = c.with_stage(Stage::Comments, false);
        let out = cleaned_page(&c, &page(&format!("{article}{}", comment.repeat(3))));
        assert!(!out.contains("loved the music") && out.contains("mayor said"), "{out}");
        // or right under a post of one line: a block naming comments is a thread wherever it opens
        let out = cleaned_page(&c, &page(comment));
        assert!(!out.contains("loved the music") && out.contains("first morning"), "{out}");
    }

    #[test]
    fn a_text_document_has_no_regions() {
        let c = cleaner(&[("div#comments", Action::Remove)]);
        let text = "div#comments\nWhat a great day for the town!";
        assert_eq!(c.clean(text).text, text);
    }
}
