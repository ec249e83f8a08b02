//! Stage `preformatted`: a `<pre>` block inside the article's element is the article's; what rules and
//! the word-counting stages took of it comes back. Code and verse are set in `<pre>`, a statement or a
//! verse a line: lines of a few words that read as no sentence (`}`, `return Ok(());`), many printed
//! alike on a site's every page (`import numpy as np`, a licence header). Every word statistic takes
//! them for template: mining makes them rules, and `short-runs`, `repeats` and `line-slots` take them.
//! A template seldom sets its furniture in `<pre>` (no page of the shared datasets holds one), and where
//! it does it is outside the article's element, where this stage gives nothing back. A page whose
//! article is itself set in `<pre>` (a mailing list's message, a plain-text page: more of the article
//! block's running lines inside a `<pre>` than outside) is read as any page is, its list footer template.
//!
//! A cut string found inside a `<pre>`, anywhere on the page, cuts nothing (stage `cuts` reads the switch):
//! a snippet's common last line (`Ok(()) }`) stands between the article's paragraphs, and mined as a header
//! string it took the headline and all above it. It is still removed where it stands, as any template
//! string is, and given back here in the article's element.
//!
//! What stays removed: cuts at strings outside a `<pre>`, what the page's structure removed (stages
//! `regions`, `comments`, `furniture`, `author-box`, `link-boxes`: a block's place, not its words), and what
//! an editor's rules removed. HTML pages only: text has no elements.

use super::article_element::paths_in_article_element;
use super::stage::{PageState, SpanStage};
use super::{Cleaner, Layout, Match, SpanKind, work};
use crate::clean_settings::Stage;
use crate::view::{PathId, Structure};

/// Stages that remove a block for its place in the page: their removals hold inside a `<pre>` too.
const BY_PLACE: &[Stage] = &[Stage::Regions, Stage::Comments, Stage::Furniture, Stage::AuthorBox, Stage::LinkBoxes];

pub(super) struct Preformatted;

impl SpanStage for Preformatted {
    fn run(&self, _: &Cleaner, page: &mut PageState) {
        if page.spans.is_empty() {
            return;
        }
        let Some(block) = page.block() else { return };
        let Some(pre) = PreLines::of(page, block) else { return };
        let Some(inside) = paths_in_article_element(page, block) else { return };
        let back = given_back(page, pre.structure, |p| pre.pre[p as usize] && inside[p as usize]);
        page.give_back(back, Stage::Preformatted);
    }
}

/// The lines of a page that lie in a `<pre>` set inside its article, not holding it.
pub(super) struct PreLines<'a> {
    structure: &'a Structure,
    /// Per path: whether it is a `<pre>` or lies inside one.
    pre: Vec<bool>,
}

impl<'a> PreLines<'a> {
    /// `None` for a page without a `<pre>` (or without elements), and for one whose article is set in
    /// `<pre>`: more of the article `block`'s running lines inside a `<pre>` than outside.
    pub(super) fn of(page: &PageState<'a>, block: (usize, usize)) -> Option<PreLines<'a>> {
        let (doc, structure) = (page.doc, page.structure?);
        let pre = paths_in_pre(structure);
        if !pre.iter().any(|&p| p) || structure.lines() != doc.lines() || block.1 <= block.0 {
            return None;
        }
        let (first, last) = (doc.line_of(block.0), doc.line_of(block.1 - 1));
        work::add(last + 1 - first);
        let (mut inside, mut outside) = (0usize, 0usize);
        for k in first..=last.min(doc.lines() - 1) {
            let (a, b) = doc.line_range(k);
            if doc.has_running_line(a.max(block.0), b.min(block.1)) {
                *(if pre[structure.line_path(k) as usize] { &mut inside } else { &mut outside }) += 1;
            }
        }
        (inside == 0 || inside < outside).then_some(PreLines { structure, pre })
    }

    /// Whether match `m` starts on a line inside a `<pre>`.
    pub(super) fn holds(&self, doc: &Layout, m: &Match) -> bool {
        let line = doc.line_of(m.start);
        line < self.structure.lines() && self.pre[self.structure.line_path(line) as usize]
    }
}

/// What comes back: the parts of removed spans (not cuts, not removals by place) on runs of lines whose
/// path `keeps`. One sweep over the lines and the spans, both in order.
fn given_back(page: &PageState, structure: &Structure, keeps: impl Fn(PathId) -> bool) -> Vec<(usize, usize)> {
    let doc = page.doc;
    let lines = structure.lines().min(doc.lines());
    work::add(lines);
    // runs of kept lines, with the line breaks between them
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for k in 0..lines {
        if !keeps(structure.line_path(k)) {
            continue;
        }
        let (a, b) = doc.line_range(k);
        match runs.last_mut() {
            Some(run) if k > 0 && run.1 == doc.line_range(k - 1).1 => run.1 = b,
            _ => runs.push((a, b)),
        }
    }
    let mut back = Vec::new();
    let mut i = 0;
    for (a, b) in runs {
        while page.spans.get(i).is_some_and(|s| s.end <= a) {
            i += 1;
        }
        for s in page.spans[i..].iter().take_while(|s| s.start < b) {
            work::add(1);
            let by_place = s.stages.iter().any(|st| BY_PLACE.contains(st));
            if s.kind == SpanKind::Removed && !by_place {
                back.push((s.start.max(a), s.end.min(b)));
            }
        }
    }
    back
}

/// Per path: whether it is a `<pre>` or lies inside one (one pass: paths are numbered after their parents).
fn paths_in_pre(structure: &Structure) -> Vec<bool> {
    let mut pre = vec![false; structure.paths()];
    for p in 1..pre.len() {
        let parent = structure.parent(p as PathId) as usize;
        pre[p] = structure.tag(p as PathId) == "pre" || (parent < p && pre[parent]);
    }
    work::add(pre.len());
    pre
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::Cleaner;
    use crate::cleaning::tests::{cleaned_html as cleaned, cleaner, explains_kept_by, work_per_byte_html};
    use crate::rules::Action;

    const PROSE: &str = "<p>The parser reads the whole configuration file before the server starts, and reports \
                         every error it finds with the line it found it on.</p>";

    /// A documentation page: a menu, the article with a code block, a footer; `sidebar` beside it.
    fn page(code: &str, sidebar: &str) -> String {
        format!(
            "<html><head><title>Parsing guide</title></head><body><div id=\"top\">Acme Docs home menu</div>\
             <article><h1>Parsing guide</h1>{PROSE}<pre><code>{code}</code></pre>{PROSE}{PROSE}</article>\
             {sidebar}<div id=\"foot\">Copyright Acme Inc all rights reserved</div></body></html>"
        )
    }

    const CODE: &str = "import acme\nconfig = acme.load(path)\nfor error in config.errors:\n    print(error)\n}";

    /// Mined on a site whose every snippet starts so: the import and the closing brace are template strings.
    const RULES: &[(&str, Action)] = &[
        ("Acme Docs home menu", Action::CutBefore),
        ("Copyright Acme Inc all rights reserved", Action::CutAfter),
        ("import acme", Action::Remove),
        ("}", Action::Remove),
    ];

    fn cleaner_with(on: bool) -> Cleaner {
        cleaner(RULES, 0).with_stage(Stage::Preformatted, on)
    }

    #[test]
    fn a_code_block_in_the_article_keeps_its_lines_and_the_stage_off_loses_them() {
        let html = page(CODE, "");
        let on = cleaned(&cleaner_with(true), &html);
        assert!(on.contains("import acme\nconfig = acme.load(path)"), "{on}");
        assert!(on.contains("print(error)\n}"), "{on}");
        assert!(!on.contains("Acme Docs home") && !on.contains("Copyright"), "the cuts still cut: {on}");
        let off = cleaned(&cleaner_with(false), &html);
        assert!(!off.contains("import acme") && off.contains("config = acme.load(path)"), "off: {off}");
    }

    #[test]
    fn a_cut_string_in_a_code_block_cuts_nothing_and_the_stage_off_cuts_there() {
        // mined as a header string: on the pages mined, the most of each article stood below it
        let mut rules = RULES.to_vec();
        rules.push(("config = acme.load(path)", Action::CutBefore));
        let c = |on| cleaner(&rules, 0).with_stage(Stage::Preformatted, on);
        let html = page(CODE, "");
        let on = cleaned(&c(true), &html);
        assert!(on.contains("Parsing guide\nThe parser reads"), "the headline and the paragraph stay: {on}");
        assert!(on.contains("import acme\nconfig = acme.load(path)\nfor error"), "the code whole: {on}");
        assert!(!on.contains("Acme Docs home"), "the menu's cut still cuts: {on}");
        let off = cleaned(&c(false), &html);
        assert!(off.starts_with("for error"), "off, it cuts: {off}");
    }

    #[test]
    fn an_article_set_in_pre_is_read_as_any_page_and_its_list_footer_cuts() {
        // a mailing list's archive: the message is a `<pre>`, the list's footer at its end
        let message: String = (0..6)
            .map(|i| format!("I tried the new parser on our staging server and it reported every error, part {i}.\n"))
            .collect();
        let html = format!(
            "<html><head><title>Parser errors</title></head><body><div id=\"top\">Acme Docs home menu</div>\
             <div class=\"message\"><h1>Parser errors</h1><pre>{message}Unsubscribe from the list at the page \
             below\nhttps://lists.acme.example/listinfo</pre></div></body></html>"
        );
        let rules = [
            ("Acme Docs home menu", Action::CutBefore),
            ("Unsubscribe from the list at the page below", Action::CutAfter),
        ];
        let on = cleaned(&cleaner(&rules, 0).with_stage(Stage::Preformatted, true), &html);
        assert!(on.contains("part 0.") && on.contains("part 5."), "{on}");
        assert!(!on.contains("Unsubscribe") && !on.contains("listinfo"), "the footer cuts: {on}");
    }

    #[test]
    fn a_code_block_outside_the_articles_element_stays_removed() {
        let sidebar = "<div class=\"install\"><pre>import acme</pre></div>";
        let on = cleaned(&cleaner_with(true), &page("x = 1", sidebar));
        assert!(!on.contains("import acme"), "{on}");
    }

    #[test]
    fn what_a_block_is_removed_for_its_place_stays_removed_in_a_code_block() {
        // a comment thread set inside the article's element, a reader's snippet in it
        let thread = "<div class=\"comments\"><p>Thanks, this helped me a lot with my own parser today.</p>\
                      <pre>config = acme.load(mine)</pre></div>";
        let html = page(CODE, "").replace("</article>", &format!("{thread}</article>"));
        let c = cleaner_with(true).with_stage(Stage::Comments, true);
        let on = cleaned(&c, &html);
        assert!(on.contains("import acme") && !on.contains("acme.load(mine)"), "{on}");
    }

    #[test]
    fn explain_names_the_stage_that_gave_a_code_line_back() {
        let html = page(CODE, "");
        assert!(explains_kept_by(&cleaner_with(true), &html, Stage::Preformatted));
    }

    #[test]
    fn code_lines_are_given_back_in_work_linear_in_the_page() {
        let c = cleaner_with(true);
        let per_byte: Vec<f64> = [20, 400].map(|n| work_per_byte_html(&c, &page(&CODE.repeat(n), ""))).to_vec();
        assert!(per_byte[1] < per_byte[0] * 1.5, "work per byte grows with the page: {per_byte:?}");
    }
}
