//! Region rules: the page's structure as a second template signal.
//!
//! String rules find text repeated on most pages. What they cannot see is a block whose words change on
//! every page while its container does not: reader comments, related-story strips, galleries, teaser
//! lists, author boxes. The container (`div#comments`, `ul.related-links`) is the same on every page.
//! Mining therefore counts, beside strings, the elements the view's lines sit in ([`paths`]): an element
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

pub mod mine;
pub mod paths;

use serde::{Deserialize, Serialize};

use crate::rules::{Action, Status};

pub use mine::{RegionParams, add_region_rules, mine_regions};
pub use paths::{LocalPaths, SourcePaths};

/// The id prefix of region rules, as `--explain` and the cleaner name them: `region:div#comments`.
pub const REGION_PREFIX: &str = "region:";

/// Classes of one element that become selectors at most: no template names a block with more, and a
/// page that piles classes on an element does not multiply the work per line.
pub const MAX_CLASSES: usize = 8;

/// A region rule: the lines under every element `element` names, and what to do with them. A rules
/// file's `[[region]]` table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionRule {
    /// The selector: `tag#id` or `tag.class` (see the module doc).
    pub element: String,
    #[serde(default)]
    pub status: Status,
    /// `remove` the lines; `keep` them whatever removed them; `cut-before`: everything up to the end of
    /// the region's last line before the article; `cut-after`: everything from the start of its first
    /// line after the article.
    #[serde(default, skip_serializing_if = "Action::is_remove")]
    pub action: Action,
    /// Pages it was found on, of the file's `documents` (of the pages mining looked at, when sampled).
    #[serde(default)]
    pub df: u64,
    /// Words it holds on a page (the median over its pages).
    #[serde(default)]
    pub words: u64,
    /// Words of it that the string rules leave, on a page (the median over its pages).
    #[serde(default)]
    pub kept: u64,
    /// What it holds on one page, shortened.
    #[serde(default)]
    pub example: String,
}

impl RegionRule {
    /// A region rule an editor wrote: `element`, accepted with `action`, no statistics.
    pub fn accepted(element: impl Into<String>, action: Action) -> RegionRule {
        RegionRule {
            element: element.into(),
            status: Status::Accepted,
            action,
            df: 0,
            words: 0,
            kept: 0,
            example: String::new(),
        }
    }

    /// Its id among the cleaner's rules, as `--explain` names it.
    pub fn id(&self) -> String {
        format!("{REGION_PREFIX}{}", self.element)
    }

    /// Whether the cleaner applies it: accepted, or pending with `include_pending`.
    pub fn is_active(&self, include_pending: bool) -> bool {
        self.status == Status::Accepted || (include_pending && self.status == Status::Pending)
    }

    /// Whether an editor decided on it (a status or an action of hers): a new mining keeps the decision.
    pub fn is_decided(&self) -> bool {
        self.status != Status::Pending || self.action != Action::Remove
    }
}

/// Whether `selector` is one a region rule can hold: a tag, then `#id` or `.class`, nothing else.
pub fn is_selector(selector: &str) -> bool {
    let Some(at) = selector.find(['#', '.']) else { return false };
    let (tag, name) = (&selector[..at], &selector[at + 1..]);
    !tag.is_empty()
        && tag.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !name.is_empty()
        && !name.contains(char::is_whitespace)
        && !name.contains(['.', '#'])
}

/// The selectors of an element labelled `label` (`tag#id.class1.class2`, as the view writes it):
/// `tag#id`, and `tag.class` for each of its first [`MAX_CLASSES`] classes. None for a bare tag.
pub fn selectors(label: &str) -> impl Iterator<Item = String> + '_ {
    let tag_end = label.find(['#', '.']).unwrap_or(label.len());
    let tag = &label[..tag_end];
    let rest = &label[tag_end..];
    let (id, classes) = match rest.strip_prefix('#') {
        Some(r) => match r.find('.') {
            Some(dot) => (Some(&r[..dot]), &r[dot..]),
            None => (Some(r), ""),
        },
        None => (None, rest),
    };
    let id = id.filter(|i| !i.is_empty()).map(|i| format!("{tag}#{i}"));
    let classes = classes.split('.').filter(|c| !c.is_empty()).take(MAX_CLASSES).map(move |c| format!("{tag}.{c}"));
    id.into_iter().chain(classes)
}

/// Shortens `text` to about `max` bytes on a character boundary, with `…` where it was cut.
pub(crate) fn shorten(text: &str, max: usize) -> String {
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
    fn a_selector_is_a_tag_and_an_id_or_one_class() {
        assert!(is_selector("div#comments") && is_selector("ul.related-links") && is_selector("div#post-0"));
        assert!(!is_selector("div") && !is_selector("#comments") && !is_selector("div.a.b"));
        assert!(!is_selector("div.") && !is_selector("div .a") && !is_selector("div>p.a"));
    }
}
