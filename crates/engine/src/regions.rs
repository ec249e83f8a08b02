//! Region rules: the page's structure as a second template signal.
//!
//! String rules find text repeated on most pages. What they cannot see is a block whose words change on
//! every page while its container does not: reader comments, related-story strips, galleries, teaser
//! lists, author boxes. The container (`div#comments`, `ul.related-links`) is the same on every page.
//! Mining therefore counts, beside strings, the elements the view's lines sit in ([`SourcePaths`]): an element
//! on most pages whose text the string rules leave is a **region rule** candidate, "the lines under
//! `div#comments`" ([`mine`]). The cleaner applies region rules as its stage `regions`
//! (`cleaning/regions.rs`).
//!
//! An element is named by a selector: its tag and its id (`div#comments`), or its tag and one of its
//! classes (`li.comment`), digits generalized as the view writes them (`post-0`). One class rather than
//! the whole class list, so that `li.comment.even` and `li.comment.odd` are one region, and a block that
//! gains a class on some pages is still found. Only elements that break lines are regions: a line lies
//! inside such an element whole.
//!
//! The article's own container is on every page too, and its text varies: mining never proposes an
//! element that holds the start of the article or the headline on any page, nor one that holds lines of
//! prose inside the element that holds the article on most pages (see [`mine`]).

pub mod impact;
pub mod mine;

pub use crate::rules::region::{MAX_CLASSES, REGION_PREFIX, RegionRule, is_selector, selectors};
pub use crate::view::paths::{LocalPaths, SourcePaths};
pub use impact::{RegionImpact, region_impact};
pub use mine::{RegionParams, add_region_rules, mine_regions};

/// The selectors an editor can name a region rule by from line `line` of a page whose view's structure
/// is `structure`: those of the elements around the line that break lines (a region's lines are whole),
/// innermost first. None past the page's lines, or for a line in no element with an id or a class.
pub fn named_elements(structure: &crate::view::Structure, line: usize) -> Vec<String> {
    if line >= structure.lines() {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    let mut path = structure.line_path(line);
    while path != 0 {
        if structure.breaks_line(path) {
            for s in selectors(structure.label(path)) {
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        path = structure.parent(path);
    }
    out
}

/// Shortens `text` to about `max` bytes on a character boundary, with `…` where it was cut.
pub fn shorten(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_element_is_named_by_its_id_and_by_each_of_its_classes() {
        let got: Vec<String> = selectors("div#comments.thread.open").collect();
        assert_eq!(got, ["div#comments", "div.thread", "div.open"]);
        assert_eq!(selectors("li.comment.even").collect::<Vec<_>>(), ["li.comment", "li.even"]);
        assert_eq!(selectors("div").count(), 0, "a bare tag names no region");
        let many = format!("div{}", (0..20).map(|i| format!(".c{i}")).collect::<String>());
        assert_eq!(selectors(&many).count(), MAX_CLASSES);
    }

    #[test]
    fn a_line_names_the_elements_around_it_innermost_first_blocks_only() {
        let html = "<div id=page><div class='rel box'><span class=tag>x</span><p class=head>Watch this</p></div>\
                    <p>Prose outside.</p></div>";
        let view = crate::view::PageView::of_html(html);
        let s = view.structure().unwrap();
        let line = view.text().lines().position(|l| l.contains("Watch")).unwrap();
        assert_eq!(named_elements(s, line), ["p.head", "div.rel", "div.box", "div#page"]);
        let prose = view.text().lines().position(|l| l.contains("Prose")).unwrap();
        assert_eq!(named_elements(s, prose), ["div#page"], "a bare <p> names nothing");
        assert!(named_elements(s, 10_000).is_empty());
    }

    #[test]
    fn a_selector_is_a_tag_and_an_id_or_one_class() {
        assert!(is_selector("div#comments") && is_selector("ul.related-links") && is_selector("div#post-0"));
        assert!(!is_selector("div") && !is_selector("#comments") && !is_selector("div.a.b"));
        assert!(!is_selector("div.") && !is_selector("div .a") && !is_selector("div>p.a"));
    }
}
