//! A region rule as a rules file holds it (`[[region]]`): the lines under an element, named by a
//! selector, and what to do with them. Mining them is `crate::regions`; applying them, the cleaner's
//! stage `regions`.

use serde::{Deserialize, Serialize};

use super::{Action, Status};

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
    let (tag, rest) = crate::view::split_label(label);
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
