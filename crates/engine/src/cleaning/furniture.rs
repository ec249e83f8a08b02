//! Stage `furniture`: the page's furniture goes. Related-story strips, sidebars, promotions, sharing
//! buttons, newsletter sign-ups, navigation and galleries differ on every page in their text (the stories
//! they list change), so no string rule holds them, and a region rule needs them on most pages mined. But
//! templates across the web name their blocks for what they are (`div.related-stories`, `aside#sidebar`,
//! `div.promo-box`, `ul.share-tools`, `div.newsletter-signup`, `nav.breadcrumbs`, `div.photo-gallery`),
//! whatever the site.
//!
//! A line goes when it lies inside a block element whose id or one of whose classes, split at `-` and
//! `_`, has a part that names one of the [`KINDS`], or whose tag is HTML's own for one (`<nav>`,
//! `<aside>`). Each kind is judged alone: nothing of a kind goes
//! when its blocks hold half the words of the article block or more (a `div.content-with-sidebar`
//! around the article's paragraphs, its headline above it), nor, as in stage `comments`
//! ([`super::comments::drop_blocks_inside`]), when such blocks hold every kept word; then the next kind
//! is asked. Judged together, one wrapper named for one kind would keep every other kind's blocks on the
//! page. Unlike in `comments`, where the article block starts says nothing here: its kept run often
//! starts with a box glued on top of the article's paragraphs (a related-links list under the byline,
//! its heading taken by a rule), and the words weighed say whether the article is in the box. `header`
//! and `footer` are not furniture: an article's own `<header class="entry-header">` holds its headline
//! (measured: docs/results.md).
//!
//! Text documents have no structure: the stage leaves them alone. One pass over the page's paths reads
//! each label once, one over the kept lines finds the kinds they stand in; then, per such kind, one pass
//! over the article block's lines and one over the kept lines.

use super::block_names::block_names;
use super::comments::{ArticleStart, drop_blocks_inside};
use super::stage::{PageState, SpanStage};
use super::{kept_runs, run_lines, work};
use crate::clean_settings::Stage;
use crate::view::Structure;

/// The stage.
pub(super) struct Furniture;

/// The kinds of furniture, each the parts of an id or class that name it, in the order they are taken.
pub(super) const KINDS: [&[&str]; 7] = [
    // other stories
    &["related", "recommended", "popular", "trending", "outbrain", "taboola"],
    &["sidebar"],
    // promotions and advertisements
    &["promo", "sponsor", "sponsored", "advert", "advertisement", "ad", "ads", "banner"],
    &["share", "sharing", "social"],
    &["newsletter", "subscribe", "signup", "rss"],
    &["nav", "menu", "breadcrumb", "breadcrumbs", "pagination", "pager", "popup"],
    &["gallery", "widget", "tags"],
];

/// HTML's own elements for furniture, each with the word of [`KINDS`] it names as a class would: a
/// template whose classes are generated (`css-1x2y3z`) still says what its blocks are by their tags.
const KIND_TAGS: [(&str, &str); 2] = [("nav", "nav"), ("aside", "sidebar")];

/// The kinds (a bit each, by [`KINDS`] index) an element label's tag, id or classes name.
fn kinds_named(label: &str) -> u8 {
    let tag = crate::view::split_label(label).0;
    let by_tag = KIND_TAGS.iter().filter(|(t, _)| tag.eq_ignore_ascii_case(t)).map(|&(_, word)| word);
    let mut kinds = 0;
    for part in by_tag.chain(block_names(label).flat_map(|name| name.split(['-', '_']))) {
        for (k, words) in KINDS.iter().enumerate() {
            if words.iter().any(|w| part.eq_ignore_ascii_case(w)) {
                kinds |= 1 << k;
            }
        }
    }
    kinds
}

/// Per path, the kinds of the block elements it lies inside (or is): paths are numbered after their
/// parents, so one pass.
fn kinds_of(structure: &Structure) -> Vec<u8> {
    let mut kinds = vec![0u8; structure.paths()];
    for p in 1..kinds.len() {
        let path = p as u32;
        let parent = structure.parent(path) as usize;
        let inherited = if parent < p { kinds[parent] } else { 0 };
        let own = if structure.breaks_line(path) { kinds_named(structure.label(path)) } else { 0 };
        kinds[p] = inherited | own;
    }
    work::add(kinds.len());
    kinds
}

impl SpanStage for Furniture {
    fn run(&self, _: &super::Cleaner, page: &mut PageState) {
        let Some(structure) = page.structure else { return };
        let kinds = kinds_of(structure);
        // the kinds of the kept lines' blocks: most pages' menus and share bars went with the rules
        let doc = page.doc;
        let lines = structure.lines().min(doc.lines());
        if lines == 0 {
            return;
        }
        let mut found = 0;
        for run in kept_runs(doc.text().len(), &page.spans) {
            for (k, ..) in run_lines(doc, run, lines) {
                found |= kinds.get(structure.line_path(k) as usize).copied().unwrap_or(0);
            }
        }
        for k in (0..KINDS.len()).filter(|k| found & (1 << k) != 0) {
            let inside: Vec<bool> = kinds.iter().map(|&m| m & (1 << k) != 0).collect();
            if !holds_the_article(page, structure, lines, &inside) {
                drop_blocks_inside(page, &inside, Stage::Furniture, ArticleStart::Weighed);
            }
        }
    }
}

/// Whether blocks of a kind (`inside`, per path) hold half the words of the page's article block or
/// more: the article stands in one. One pass over the block's lines (`lines` of them, at least one).
fn holds_the_article(page: &mut PageState, structure: &Structure, lines: usize, inside: &[bool]) -> bool {
    let Some(block) = page.block() else { return false };
    let doc = page.doc;
    let (mut words, mut held) = (0, 0);
    for (k, ..) in run_lines(doc, block, lines) {
        let n = doc.line_words(k);
        words += n;
        if inside.get(structure.line_path(k) as usize).copied().unwrap_or(false) {
            held += n;
        }
    }
    held > 0 && 2 * held >= words
}

#[cfg(test)]
mod tests {
    use super::{KINDS, kinds_named};
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::{ARTICLE_HTML as ARTICLE, cleaned_html, cleaner};
    use crate::rules::Action;

    const RELATED: &str = "<div class=\"related-stories\"><h3>More from the coast</h3><ul>\
        <li><a href=\"/a\">Lifeboat crew rescue two walkers stranded by the tide near the point</a></li>\
        <li><a href=\"/b\">Fish market reopens after a winter of repairs to its leaking roof</a></li></ul></div>";
    const SIDEBAR: &str = "<aside id=\"sidebar\"><p>Our weekly letter brings you the best of the harbour \
        town, its people and its boats.</p></aside>";

    fn cleaned(on: bool, html: &str) -> String {
        let c = cleaner(&[("Contact the newsroom today", Action::Remove)], 0).with_stage(Stage::Furniture, on);
        cleaned_html(&c, html)
    }

    fn page(article: &str, around: &str) -> String {
        format!(
            "<html><body class=\"single has-sidebar\"><h1>Harbour opens</h1>{article}{around}\
             <div id=\"foot\">Contact the newsroom today</div></body></html>"
        )
    }

    #[test]
    fn a_related_stories_strip_and_a_sidebar_go_and_the_article_stays() {
        let html = page(&format!("<div class=\"post\">{ARTICLE}</div>"), &format!("{RELATED}{SIDEBAR}"));
        let off = cleaned(false, &html);
        assert!(off.contains("Lifeboat crew") && off.contains("weekly letter"), "off, both stay: {off}");
        let on = cleaned(true, &html);
        assert!(!on.contains("Lifeboat crew") && !on.contains("Fish market") && !on.contains("weekly letter"), "{on}");
        assert!(on.contains("Harbour opens") && on.contains("The harbour opened") && on.contains("next year"), "{on}");
    }

    #[test]
    fn a_nav_and_an_aside_go_by_their_tags_where_their_classes_name_nothing() {
        let menu = "<nav class=\"css-1x2y3z\"><ul><li><a href=\"/s\">Sport and the weekend fixtures</a></li>\
            <li><a href=\"/w\">Weather for the coast and the hills</a></li></ul></nav>";
        let aside = "<aside id=\"secondary-column\"><h3>Neurons that shaped the town</h3><p>A film about the \
            harbour's first engineers and the bridges they built.</p></aside>";
        let html = page(&format!("<div class=\"post\">{ARTICLE}</div>"), &format!("{menu}{aside}"));
        let off = cleaned(false, &html);
        assert!(off.contains("weekend fixtures") && off.contains("first engineers"), "off, both stay: {off}");
        let on = cleaned(true, &html);
        for gone in ["weekend fixtures", "Weather for", "Neurons that", "first engineers"] {
            assert!(!on.contains(gone), "{gone}: {on}");
        }
        assert!(on.contains("Harbour opens") && on.contains("The harbour opened") && on.contains("next year"), "{on}");
    }

    #[test]
    fn an_article_inside_an_aside_stays() {
        // a template that sets its post in an `<aside>`: the kind holds the article, nothing of it goes
        let html = page(&format!("<aside>{ARTICLE}</aside>"), "");
        assert_eq!(cleaned(true, &html), cleaned(false, &html));
    }

    #[test]
    fn an_article_inside_a_block_named_as_furniture_stays() {
        let html = page(&format!("<div class=\"content-with-sidebar\">{ARTICLE}</div>"), "");
        assert_eq!(cleaned(true, &html), cleaned(false, &html));
    }

    #[test]
    fn a_related_list_glued_on_top_of_the_article_goes_though_the_article_block_starts_in_it() {
        // a rule took the box's heading, so the kept run the article block is starts with the box's links
        let boxed = "<div class=\"story-feature related\"><h2>Related Stories</h2><ul>\
            <li><a href=\"/a\">Ferry fares rise again</a></li><li><a href=\"/b\">Quay plans approved</a></li></ul></div>";
        let html = page(&format!("<div class=\"story-body\">{boxed}{ARTICLE}</div>"), "");
        let rules = [("Contact the newsroom today", Action::Remove), ("Related Stories", Action::Remove)];
        let c = |on| cleaner(&rules, 0).with_stage(Stage::Furniture, on);
        assert!(cleaned_html(&c(false), &html).contains("Ferry fares rise again"), "off: the box stays");
        let on = cleaned_html(&c(true), &html);
        assert!(!on.contains("Ferry fares") && !on.contains("Quay plans"), "{on}");
        assert!(on.contains("The harbour opened") && on.contains("next year"), "{on}");
    }

    #[test]
    fn each_kind_is_judged_alone_so_a_wrapper_named_for_one_keeps_no_other_kinds_blocks() {
        // the article stands in a block named for sharing (its buttons inside it): sharing takes nothing
        // on this page, and the related strip beside it goes all the same
        let html = page(&format!("<div class=\"share-wrapper\">{ARTICLE}</div>"), RELATED);
        let on = cleaned(true, &html);
        assert!(on.contains("The harbour opened") && on.contains("next year"), "{on}");
        assert!(!on.contains("Lifeboat crew"), "{on}");
    }

    #[test]
    fn ids_and_classes_name_kinds_by_their_parts_and_never_on_the_page_or_its_header() {
        let kind = |words: &[&str]| 1u8 << KINDS.iter().position(|k| k.starts_with(words)).unwrap();
        assert_eq!(kinds_named("div.related-links"), kind(&["related"]));
        assert_eq!(kinds_named("aside#sidebar.widget"), kind(&["sidebar"]) | kind(&["gallery"]));
        assert_eq!(kinds_named("ul.share_tools"), kind(&["share"]));
        assert_eq!(kinds_named("nav.breadcrumbs"), kind(&["nav"]));
        assert_eq!(kinds_named("NAV"), kind(&["nav"]));
        assert_eq!(kinds_named("aside#secondary-column"), kind(&["sidebar"]));
        // a part, not a substring: "shared", "header", "adventure", "navigator" name nothing
        for label in ["div.shared-story", "header.entry-header", "footer#colophon", "div.adventure", "p.navigator"] {
            assert_eq!(kinds_named(label), 0, "{label}");
        }
        // the page's body class says what the page has, not what a block holds
        assert_eq!(kinds_named("body.single.has-sidebar"), 0);
    }
}
