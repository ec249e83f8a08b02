//! Stage `link-boxes`: a box of links the template sets inside the article, between its paragraphs (a
//! "Related stories" list, a special report's other stories, a gallery's controls), goes.
//! Its words differ on every page, so no string rule sees it, and stage `link-density` leaves the article
//! block alone: some articles end in links their readers count as the article, and an author's own list
//! of links sits between paragraphs too.
//!
//! What tells the template's box from the author's list is where it sits in the page: the template puts
//! its box in an element of its own, a `div`, `aside`, `section`, `nav`, `figure`, `header` or `footer`
//! with an id or a class (`div.related-links`, `aside#more`), that holds neither the line of prose before
//! it nor the one after. An author's list sits in the article's own container: a bare `<ul>`, a `<p>` of
//! links and `<br>`s, or a classed list (`ul.wp-block-list`) whose nearest such box also holds the
//! paragraphs around it.
//!
//! A stretch goes when its lines are whole kept lines, link-dense as stage `link-density` counts them
//! (`[clean.link-density] share`; 0: nothing goes) and no sentence; it follows a line of prose in a
//! kept run inside the article block, and another line of prose follows it or the run ends after it (a
//! story's "1 2 Next Page »", its topic links); such a box holds all its lines and neither prose line;
//! and it has three lines or more, or two once two lines of prose came before it in its run. A byline's
//! author and date (a linked name, a "Follow" link) sit in a box of two lines under the standfirst, and a
//! byline is the article's.
//!
//! Text documents have no structure: the stage leaves them alone. One pass over the lines of the kept
//! runs; a stretch's box is found by walking up from its lines at most [`MAX_DEPTH`] elements: linear
//! in the page.

use super::block_names::is_named_block;
use super::stage::{PageState, SpanStage};
use super::{Cleaner, LONG_LINE_WORDS, Span, by_stage, kept_runs, run_lines, work};
use crate::clean_settings::Stage;
use crate::view::{PathId, Structure};

/// Link-dense lines in a row that go anywhere between two lines of prose.
pub const BOX_LINES: usize = 3;

/// Lines of prose in a run after which its article's body has begun: past them a box of two links goes
/// too (above them it may be the byline under the standfirst).
pub const BODY_PROSE: usize = 2;

/// Elements looked at above a line for its box, at most: deeper boxes are not looked for, which keeps
/// the stage linear on pages nested thousands deep.
const MAX_DEPTH: usize = 64;

/// The stage.
pub(super) struct LinkBoxes;

/// A stretch of link-dense lines: its first and last line, how many lines it has (blank ones not
/// counted), its first byte and its end.
#[derive(Clone, Copy)]
struct Stretch {
    first: usize,
    last: usize,
    lines: usize,
    start: usize,
    end: usize,
}

impl SpanStage for LinkBoxes {
    fn run(&self, cleaner: &Cleaner, page: &mut PageState) {
        let share = cleaner.settings.link_density.share;
        let Some(structure) = page.structure.filter(|_| share > 0) else { return };
        let Some((block_start, block_end)) = page.block() else { return };
        let doc = page.doc;
        let lines = structure.lines().min(doc.lines());
        if lines == 0 {
            return;
        }
        let mut out: Vec<Span> = Vec::new();
        for (start, end) in kept_runs(doc.text().len(), &page.spans) {
            if end <= block_start || start >= block_end {
                continue;
            }
            // lines of prose read in this run, and the last one
            let (mut proses, mut prose): (usize, Option<usize>) = (0, None);
            let mut stretch: Option<Stretch> = None;
            // stretches closed since the last prose line, each with the prose line before it
            let mut waiting: Vec<(Stretch, usize)> = Vec::new();
            let close = |stretch: &mut Option<Stretch>, waiting: &mut Vec<(Stretch, usize)>, prose, proses| {
                if let Some(s) = stretch.take()
                    && let Some(before) = prose
                    && (s.lines >= BOX_LINES || (s.lines >= 2 && proses >= BODY_PROSE))
                {
                    waiting.push((s, before));
                }
            };
            for (k, a, b, whole) in run_lines(doc, (start, end), lines) {
                let sentence = doc.line_words(k) >= LONG_LINE_WORDS && doc.reads_as_prose(a, b);
                let dense = usize::from(structure.link_percent(k)) >= share;
                if whole && dense && !sentence {
                    stretch = Some(match stretch {
                        Some(s) => Stretch { last: k, lines: s.lines + 1, end: b, ..s },
                        None => Stretch { first: k, last: k, lines: 1, start: a, end: b },
                    });
                    continue;
                }
                close(&mut stretch, &mut waiting, prose, proses);
                if sentence && !dense {
                    for (s, before) in waiting.drain(..) {
                        if set_apart(structure, &s, before, Some(k)) {
                            out.push(by_stage(s.start, s.end, Stage::LinkBoxes));
                        }
                    }
                    proses += 1;
                    prose = Some(k);
                }
            }
            // the run's end: what is left after the article's last prose line
            close(&mut stretch, &mut waiting, prose, proses);
            for (s, before) in waiting {
                if set_apart(structure, &s, before, None) {
                    out.push(by_stage(s.start, s.end, Stage::LinkBoxes));
                }
            }
        }
        page.remove(out);
    }
}

/// Whether a box element with an id or a class holds stretch `s` and neither line `before` nor line
/// `after` (`None`: the stretch ends its run).
fn set_apart(structure: &Structure, s: &Stretch, before: usize, after: Option<usize>) -> bool {
    let mut inner = structure.line_path(s.first);
    for k in s.first + 1..=s.last {
        let Some(p) = common(structure, inner, structure.line_path(k)) else { return false };
        inner = p;
    }
    let Some(a) = common(structure, inner, structure.line_path(before)) else { return false };
    let b = match after {
        Some(after) => match common(structure, inner, structure.line_path(after)) {
            Some(b) => b,
            None => return false,
        },
        None => a,
    };
    // the elements from the stretch's innermost one up to (not into) the first one holding a prose line
    let outer = a.max(b);
    let mut p = inner;
    while p > outer {
        work::add(1);
        if is_named_box(structure, p) {
            return true;
        }
        p = structure.parent(p);
    }
    false
}

/// The innermost element holding paths `p` and `q` (the page's top, 0, holds all), looking up at most
/// [`MAX_DEPTH`] elements from each.
fn common(structure: &Structure, mut p: PathId, mut q: PathId) -> Option<PathId> {
    // a path's parent has a lower number: the higher of two is never the other's parent
    for _ in 0..2 * MAX_DEPTH {
        work::add(1);
        if p == q {
            return Some(p);
        }
        if p > q {
            p = structure.parent(p);
        } else {
            q = structure.parent(q);
        }
    }
    None
}

/// Whether path `p` is a box element (a block that sets content apart) with an id or a class.
fn is_named_box(structure: &Structure, p: PathId) -> bool {
    let tag = structure.tag(p);
    structure.breaks_line(p)
        && ["div", "aside", "section", "nav", "figure", "header", "footer"].iter().any(|t| tag.eq_ignore_ascii_case(t))
        && is_named_block(structure.label(p), |name| !name.is_empty())
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::Cleaner;
    use crate::cleaning::tests::{cleaned_html as cleaned, cleaner, linked};
    use crate::rules::Action;

    const PARAGRAPH: &str =
        "The harbour opened on Monday after ten years of building work, the mayor said to the crowd.";

    /// A page: a menu and a footer the rules remove, and an article of `body` between them.
    fn page(body: &str) -> String {
        format!(
            "<html><head><title>Harbour opens</title></head><body>\
             <div id=\"top\">Harbour Gazette front page menu</div>\
             <div class=\"story\"><h1>Harbour opens</h1>{body}</div>\
             <div id=\"foot\">Contact the newsroom today</div></body></html>"
        )
    }

    fn paragraphs(from: usize, n: usize) -> String {
        (from..from + n).map(|i| format!("<p>{PARAGRAPH} Part {i} follows.</p>")).collect()
    }

    fn links(n: usize) -> String {
        (0..n).map(|i| format!("<li><a href=\"/s/{i}\">Council votes on ferry plan number {i}</a></li>")).collect()
    }

    const RULES: &[(&str, Action)] =
        &[("Harbour Gazette front page menu", Action::Remove), ("Contact the newsroom today", Action::Remove)];

    fn cleaner_with(on: bool) -> Cleaner {
        linked(RULES, Stage::LinkBoxes, on)
    }

    #[test]
    fn a_related_box_between_paragraphs_goes_and_the_stage_off_keeps_it() {
        let html = page(&format!(
            "{}<div class=\"related\"><h3>Related stories</h3><ul>{}</ul></div>{}",
            paragraphs(0, 1),
            links(3),
            paragraphs(1, 2)
        ));
        let on = cleaned(&cleaner_with(true), &html);
        assert!(!on.contains("ferry plan"), "{on}");
        assert!(on.contains("Part 0") && on.contains("Part 2") && on.contains("Related stories"), "{on}");
        let off = cleaned(&cleaner_with(false), &html);
        assert!(off.contains("ferry plan number 2"), "{off}");
        // no link share set (a rules file without `[clean.link-density]`): nothing goes
        assert!(cleaned(&cleaner(RULES, 0).with_stage(Stage::Furniture, false), &html).contains("ferry plan"));
    }

    #[test]
    fn an_authors_list_of_links_in_the_articles_own_container_stays() {
        for list in [
            format!("<ul>{}</ul>", links(3)),
            format!("<ul class=\"wp-block-list\">{}</ul>", links(3)),
            format!(
                "<p>{}</p>",
                (0..3).map(|i| format!("<a href=\"/{i}\">Report {i} of the harbour board</a><br>")).collect::<String>()
            ),
        ] {
            let html = page(&format!("{}{list}{}", paragraphs(0, 2), paragraphs(2, 1)));
            let on = cleaned(&cleaner_with(true), &html);
            assert!(on.contains("number 2") || on.contains("Report 2"), "{list}: {on}");
        }
    }

    #[test]
    fn a_box_of_two_links_goes_inside_the_article_and_a_byline_under_the_standfirst_stays() {
        let byline =
            "<div class=\"byline\"><a href=\"/by/kim\">Kim Lee</a><br><a href=\"/tw\">Follow @kimlee</a></div>";
        let html = page(&format!("{}{byline}{}", paragraphs(0, 1), paragraphs(1, 2)));
        let on = cleaned(&cleaner_with(true), &html);
        assert!(on.contains("Kim Lee") && on.contains("Follow @kimlee"), "{on}");
        // the same box once the article's body has begun: a box of the template
        let html = page(&format!("{}{byline}{}", paragraphs(0, 2), paragraphs(2, 1)));
        let on = cleaned(&cleaner_with(true), &html);
        assert!(!on.contains("Kim Lee") && on.contains("Part 2"), "{on}");
    }

    #[test]
    fn a_box_ending_the_article_goes_and_a_list_in_the_articles_own_container_there_stays() {
        let html = page(&format!("{}<div class=\"pages\"><ul>{}</ul></div>", paragraphs(0, 3), links(3)));
        let on = cleaned(&cleaner_with(true), &html);
        assert!(!on.contains("ferry plan") && on.ends_with("Part 2 follows."), "{on}");
        // some articles end in links their readers count as the article: in the article's own markup
        let html = page(&format!("{}<ul>{}</ul>", paragraphs(0, 3), links(3)));
        let on = cleaned(&cleaner_with(true), &html);
        assert!(on.contains("ferry plan number 2"), "{on}");
    }

    #[test]
    fn a_page_held_as_its_views_text_and_paths_loses_its_boxes_as_the_page_does() {
        use crate::corpus::{Corpus, Document};
        use crate::page::{Page, viewed};
        use crate::view::DocKind;
        let html = page(&format!(
            "{}<aside class=\"more\"><ul>{}</ul></aside>{}<ul>{}</ul>{}",
            paragraphs(0, 1),
            links(3),
            paragraphs(1, 1),
            links(3).replace("ferry plan", "quay plan"),
            paragraphs(2, 1)
        ));
        let corpus = Corpus::from_docs("s", vec![Document { id: "a".into(), text: html.clone() }]);
        let viewed = viewed(corpus, DocKind::Html, &mut crate::mining::MiningConfig::default());
        let (paths, text) = (viewed.paths.as_deref().unwrap(), viewed.docs[0].text.as_str());
        let c = cleaner_with(true);
        let page = c.clean_page_explained(Page::new(&html, DocKind::Html));
        assert!(!page.text().contains("ferry plan") && page.text().contains("quay plan number 2"), "{}", page.text());
        let held = c.clean_page_explained(Page::of_view_text(text, paths.structure(0, "a")));
        assert_eq!(held.spans, page.spans);
        assert_eq!(held.explanation(), page.explanation());
    }
}
