//! Stage `article-element`: a footer string inside the article's own element, with more of the article's
//! paragraphs after it, cuts nothing there. A widget the template sets in the article's column (a
//! gallery's "View the Full Gallery »") stood after the article on the pages mined, so mining made it a
//! footer string; on a page whose editor placed it between two paragraphs, the cut after it took the
//! rest of the article. Where the article ends the page shows it: the paragraphs go on, in the same
//! element as those above, which no comment thread or list of headlines does.
//!
//! The article's element is the innermost block holding every line of the article block, past the
//! paragraphs, headings, lists and tables inside it (`div.storyText`, not its `p`). More of the article is
//! a line of running text, mostly outside links and untouched by a removal, whose element path is one of
//! the block's own running lines' (a comment's `div.comment > p` is not the article's `div.entry > p`),
//! before the article's element ends. And a short paragraph (a sentence of fewer words than stage
//! `short-runs` asks of a run) between two parts of the article that stay, set where the article's
//! paragraphs are ([`Paragraphs`]), stays: an inline widget ("Read more: …", an advertisement's label)
//! removed above it and below it split it off the article. HTML pages only: text has no elements. It is
//! a switch that stages `cuts` and `short-runs` read, as `cut-lines` is.

use std::collections::HashMap;

use super::stage::PageState;
use super::{Layout, Match, Span, work};
use crate::rules::Action;
use crate::view::{PathId, Structure};

/// Elements that hold a paragraph's text rather than the article: the article's element is above them.
#[rustfmt::skip]
const TEXT_ELEMENTS: &[&str] = &[
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "dl", "dd", "dt", "blockquote", "pre",
    "table", "tbody", "thead", "tr", "td", "th", "center", "font",
];

/// A line of the article's paragraphs with a sentence's end and this many words is a paragraph of its own
/// ("He declined to comment."), not a widget's label.
const SENTENCE_WORDS: usize = 4;

/// A line is mostly inside links from this share on: a menu's entry or a headline, not a paragraph.
const LINK_SHARE: f64 = 0.5;

/// Where the article's element ends below the article block, and where its running text reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ArticleElement {
    /// Where the element's lines end below the block (bytes).
    end: usize,
    /// Where the last line of the article's running text in the element ends.
    last_prose: usize,
}

impl ArticleElement {
    /// The article's element around `block`, if the page has elements and the block one of its own (not
    /// the page's `body`).
    pub(super) fn of(page: &PageState, block: (usize, usize)) -> Option<ArticleElement> {
        let structure = page.structure?;
        element_around(page.doc, structure, &page.spans, block)
    }

    /// Whether footer string match `m`, after the block, stands inside the element with running text of
    /// the article after it. It cuts nothing there. (Header strings the same way, above the block, were
    /// measured and cost more than they gave: docs/results.md.)
    pub(super) fn holds(&self, m: &Match, action: Action) -> bool {
        action == Action::CutAfter && m.start < self.end && m.end < self.last_prose
    }
}

/// The article's element around `block`: per path, whether it lies inside the element; `None` where the
/// page has no elements or the block no element of its own (only the page's `body`). For stages that
/// keep what the article's element holds (`preformatted`).
pub(super) fn paths_in_article_element(page: &PageState, block: (usize, usize)) -> Option<Vec<bool>> {
    let structure = page.structure?;
    let found = element_holding(page.doc, structure, &page.spans, block)?;
    Some(paths_inside(structure, found.element))
}

/// Where the page sets its article's paragraphs: the path that holds most of the words of the article
/// block's running lines ([`is_running`]). Stage `short-runs` keeps a short paragraph there between two
/// parts of the article (an inline widget on each side split it off); a gallery's caption or a teaser's
/// blurb is set elsewhere.
#[derive(Clone, Copy)]
pub(super) struct Paragraphs<'a> {
    structure: &'a Structure,
    path: PathId,
}

impl<'a> Paragraphs<'a> {
    /// The paragraphs' path of `block`; `None` where the page has no elements or the block no running
    /// line. One pass over the block's lines.
    pub(super) fn of(
        doc: &Layout,
        structure: &'a Structure,
        removed: &[Span],
        (start, end): (usize, usize),
    ) -> Option<Paragraphs<'a>> {
        let lines = structure.lines();
        if lines != doc.lines() || lines == 0 || end <= start {
            return None;
        }
        let (first, last) = lines_of(doc, (start, end));
        let mut words: HashMap<PathId, usize> = HashMap::new();
        work::add(last + 1 - first);
        for k in first..=last {
            if doc.line_words(k) > 0 && is_running(doc, structure, removed, k) {
                *words.entry(structure.line_path(k)).or_default() += doc.line_words(k);
            }
        }
        let path = words.into_iter().max_by_key(|&(path, n)| (n, std::cmp::Reverse(path)))?.0;
        Some(Paragraphs { structure, path })
    }

    /// Of the kept run `start..end`: its lines that are not at the paragraphs' path (what a rule left of
    /// an inline widget: the headline it links), if a line there reads as prose (a long line, or a
    /// sentence of [`SENTENCE_WORDS`]); `None` if none does. One pass over the run's lines.
    pub(super) fn elsewhere_in(&self, doc: &Layout, (start, end): (usize, usize)) -> Option<Vec<(usize, usize)>> {
        if end <= start {
            return None;
        }
        let (first, last) = lines_of(doc, (start, end));
        work::add(last + 1 - first);
        let mut prose = false;
        let mut other = Vec::new();
        for k in first..=last {
            let (a, b) = doc.line_range(k);
            let (a, b) = (a.max(start), b.min(end));
            if a >= b || doc.words(a, b) == 0 {
                continue;
            }
            if self.structure.line_path(k) != self.path {
                other.push((a, b));
            } else if doc.has_prose_line(a, b) || (doc.words(a, b) >= SENTENCE_WORDS && doc.reads_as_prose(a, b)) {
                prose = true;
            }
        }
        prose.then_some(other)
    }
}

/// The first and last lines of the kept run `start..end` (not empty), from its first character that is no
/// whitespace: a kept run starts where a removal ended, at the newline closing the removed line.
fn lines_of(doc: &Layout, (start, end): (usize, usize)) -> (usize, usize) {
    let text = doc.text();
    let start = text[start..end].find(|c: char| !c.is_whitespace()).map_or(start, |i| start + i);
    let first = doc.line_of(start);
    (first, doc.line_of(end - 1).max(first).min(doc.lines() - 1))
}

/// The innermost element holding the lines of an article block, the block's last line, and whether each
/// path holds one of the block's running lines.
struct Found {
    element: PathId,
    last: usize,
    own: Vec<bool>,
}

/// The element around the block `start..end`: one pass over the block's lines and a few over the paths.
fn element_holding(
    doc: &Layout,
    structure: &Structure,
    removed: &[Span],
    (start, end): (usize, usize),
) -> Option<Found> {
    // a view's lines and their paths are one to one
    let lines = structure.lines();
    if lines != doc.lines() || lines == 0 || end <= start {
        return None;
    }
    let (first, last) = lines_of(doc, (start, end));
    let mut held = vec![false; structure.paths()];
    let mut own = vec![false; structure.paths()];
    work::add(last + 1 - first);
    for k in first..=last {
        if doc.line_words(k) == 0 {
            continue;
        }
        let path = structure.line_path(k) as usize;
        held[path] = true;
        if is_running(doc, structure, removed, k) {
            own[path] = true;
        }
    }
    let element = innermost_holding(structure, &held)?;
    if matches!(structure.tag(element), "body" | "html") {
        return None;
    }
    Some(Found { element, last, own })
}

/// [`ArticleElement::of`], given the page's parts: a few passes over the page's paths, one over the
/// block's lines and the element's below it.
fn element_around(
    doc: &Layout,
    structure: &Structure,
    removed: &[Span],
    block: (usize, usize),
) -> Option<ArticleElement> {
    let Found { element, last, own } = element_holding(doc, structure, removed, block)?;
    let (text, lines) = (doc.text(), structure.lines());
    let inside = paths_inside(structure, element);
    let in_element = |k: usize| inside[structure.line_path(k) as usize];
    let mut last_prose = 0;
    // the element's lines below the block; lines without words (a blank line's path is where the
    // newline fell) neither end it nor count
    let mut below_end = text.len();
    for k in last + 1..lines {
        work::add(1);
        if doc.line_words(k) == 0 {
            continue;
        }
        let (a, b) = doc.line_range(k);
        if !in_element(k) {
            below_end = a;
            break;
        }
        if own[structure.line_path(k) as usize] && is_running(doc, structure, removed, k) {
            last_prose = b;
        }
    }
    Some(ArticleElement { end: below_end, last_prose })
}

/// Whether line `k` is a line of running text, mostly outside links, that no removal (of `removed`,
/// sorted and disjoint) touches.
fn is_running(doc: &Layout, structure: &Structure, removed: &[Span], k: usize) -> bool {
    let (a, b) = doc.line_range(k);
    let touched = removed.get(removed.partition_point(|s| s.end <= a)).is_some_and(|s| s.start < b);
    !touched && structure.link_density(k) < LINK_SHARE && doc.has_running_line(a, b)
}

/// The innermost path that every `held` path is or lies in, above the [`TEXT_ELEMENTS`]; `None` when
/// nothing is held. Paths are numbered after their parents: a count of the held paths under each, from
/// the last path back, and each path's depth from the first forward.
fn innermost_holding(structure: &Structure, held: &[bool]) -> Option<PathId> {
    let n = structure.paths();
    let total = held.iter().filter(|&&h| h).count();
    if total == 0 {
        return None;
    }
    let mut under: Vec<usize> = held.iter().map(|&h| usize::from(h)).collect();
    for p in (1..n).rev() {
        let parent = structure.parent(p as PathId) as usize;
        if parent < p {
            under[parent] += under[p];
        }
    }
    let mut depth = vec![0usize; n];
    let mut best: PathId = 0;
    for p in 1..n {
        let parent = structure.parent(p as PathId) as usize;
        depth[p] = if parent < p { depth[parent] + 1 } else { 0 };
        if under[p] == total && depth[p] > depth[best as usize] {
            best = p as PathId;
        }
    }
    work::add(2 * n);
    let mut element = best;
    while element != 0 && TEXT_ELEMENTS.contains(&structure.tag(element)) {
        element = structure.parent(element);
    }
    (element != 0).then_some(element)
}

/// Per path: whether it is `element` or lies inside it (one pass: paths are numbered after their parents).
fn paths_inside(structure: &Structure, element: PathId) -> Vec<bool> {
    let mut inside = vec![false; structure.paths()];
    for p in 1..inside.len() {
        let parent = structure.parent(p as PathId) as usize;
        inside[p] = p == element as usize || (parent < p && inside[parent]);
    }
    work::add(inside.len());
    inside
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::Cleaner;
    use crate::cleaning::tests::{cleaned_html as cleaned, cleaner, explains_kept_by, work_per_byte_html};
    use crate::rules::Action;

    /// A page: a menu, the story's element holding `body`, and a footer the cut takes.
    fn page(body: &str) -> String {
        format!(
            "<html><head><title>Harbour opens</title></head><body>\
             <div id=\"top\">Harbour Gazette front page menu</div>\
             <div class=\"story\"><h1>Harbour opens</h1>{body}</div>\
             <div id=\"foot\">Contact the newsroom today</div><p>Read about our other harbours and the ships \
             that sail from them every day, in the archive below.</p></body></html>"
        )
    }

    fn paragraphs(from: usize, n: usize) -> String {
        (from..from + n)
            .map(|i| {
                format!("<p>The harbour opened on Monday after years of building work, the mayor said. Part {i}.</p>")
            })
            .collect()
    }

    /// A gallery's box: its link is a footer string (it stood after the article on the pages mined).
    const GALLERY: &str =
        "<div class=\"slideshow\"><h3>9 Photos</h3><h4><a href=\"/g\">View the Full Gallery »</a></h4></div>";

    const RULES: &[(&str, Action)] = &[
        ("Harbour Gazette front page menu", Action::CutBefore),
        ("View the Full Gallery »", Action::CutAfter),
        ("Contact the newsroom today", Action::CutAfter),
    ];

    fn cleaner_with(on: bool) -> Cleaner {
        cleaner(RULES, 0).with_stage(Stage::ArticleElement, on)
    }

    #[test]
    fn a_footer_string_between_the_articles_paragraphs_cuts_nothing_and_the_stage_off_cuts_there() {
        let html = page(&format!("{}{GALLERY}{}", paragraphs(0, 3), paragraphs(3, 3)));
        let on = cleaned(&cleaner_with(true), &html);
        assert!(on.contains("Part 0.") && on.contains("Part 5."), "the article stays whole: {on}");
        assert!(!on.contains("View the Full Gallery"), "the string itself still goes: {on}");
        assert!(!on.contains("Contact the newsroom") && !on.contains("archive below"), "the footer cuts: {on}");
        let off = cleaned(&cleaner_with(false), &html);
        assert!(off.contains("Part 2.") && !off.contains("Part 3."), "off, the gallery's link cuts: {off}");
    }

    #[test]
    fn a_footer_string_ending_the_articles_element_still_cuts() {
        // the gallery closes the story: nothing of the article after it
        let html = page(&format!("{}{GALLERY}", paragraphs(0, 3)));
        let on = cleaned(&cleaner_with(true), &html);
        assert!(on.contains("Part 2.") && !on.contains("Contact the newsroom"), "{on}");
        assert!(!on.contains("archive below"), "the cut is the gallery's, after the story: {on}");
    }

    #[test]
    fn a_comment_thread_in_the_articles_element_is_no_more_of_the_article() {
        // the post and its thread share an element; the thread's paragraphs are in elements of their own
        let thread: String = (0..3)
            .map(|i| {
                format!(
                    "<div class=\"comment\"><p>I walked along the new quay last week and loved it, said \
                     reader {i}.</p></div>"
                )
            })
            .collect();
        let rules =
            [("Harbour Gazette front page menu", Action::CutBefore), ("Leave a comment below", Action::CutAfter)];
        let html = page(&format!("{}<h3>Leave a comment below</h3>{thread}", paragraphs(0, 3)));
        let on = cleaned(&cleaner(&rules, 0).with_stage(Stage::ArticleElement, true), &html);
        assert!(on.contains("Part 2.") && !on.contains("reader 0"), "the thread goes with the cut: {on}");
    }

    #[test]
    fn links_after_the_footer_string_are_no_more_of_the_article() {
        // the site's previous post above the story and below it, in a paragraph as the article's are, but
        // a link: a line of the block's own path that is no paragraph of it
        let nav = "<p><a href=\"/p\">« What do you do when the harbour closes for the winter months?</a></p>";
        let html = page(&format!("{nav}{}{GALLERY}{nav}", paragraphs(0, 3)));
        let on = cleaned(&cleaner_with(true), &html);
        assert_eq!(on.matches("winter months").count(), 1, "the one below goes with the cut: {on}");
    }

    #[test]
    fn explain_names_the_stage_where_a_footer_string_cut_nothing() {
        let html = page(&format!("{}{GALLERY}{}", paragraphs(0, 3), paragraphs(3, 3)));
        assert!(explains_kept_by(&cleaner_with(true), &html, Stage::ArticleElement));
    }

    #[test]
    fn the_articles_element_is_found_in_work_linear_in_the_page() {
        let c = cleaner_with(true);
        let per_byte: Vec<f64> = [20, 200]
            .map(|n| work_per_byte_html(&c, &page(&format!("{}{GALLERY}{}", paragraphs(0, n), paragraphs(n, n)))))
            .to_vec();
        assert!(per_byte[1] < per_byte[0] * 1.5, "work per byte grows with the page: {per_byte:?}");
    }
}
