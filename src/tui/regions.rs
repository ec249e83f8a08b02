//! The region rules list's state (`G`): the source's `[[region]]` rules, the one selected, what it would
//! do over the whole source (measured off the UI thread by the impact worker) and where it sits on the
//! previewed page. The decisions themselves are the draft's (`Draft::decide_region`).

use crate::regions::RegionImpact;
use crate::rules::Action as RuleAction;
use crate::rules::region::RegionRule;

/// The list as the editor has it open.
#[derive(Debug, Clone, Default)]
pub struct RegionList {
    /// Index into the draft's region rules.
    pub selected: usize,
    /// The generation of the impact asked for the selected rule (0: none asked).
    pub asked: u64,
    /// What the selected rule, active with its action, would do over the source: `None` while measured.
    pub measured: Option<Result<RegionImpact, String>>,
    /// The selected rule's lines on the previewed page (byte ranges of its text): the first is shown as
    /// the preview's selection.
    pub on_page: Vec<(usize, usize)>,
    /// Words in those lines.
    pub on_page_words: usize,
    /// The preview's selection before the list opened, given back when it closes.
    pub selection_before: Option<(usize, usize)>,
    /// A region rule the editor is naming from a line of the page (`B`): shown and measured in place
    /// of the selected rule until she accepts it or moves in the list.
    pub naming: Option<Naming>,
}

/// A region rule being named from a line: the elements around the line, the one proposed, its action.
#[derive(Debug, Clone)]
pub struct Naming {
    /// Selectors of the elements around the line, innermost first (`crate::regions::named_elements`).
    pub elements: Vec<String>,
    pub at: usize,
    pub action: RuleAction,
}

impl Naming {
    /// The rule proposed: the element at `at`, accepted with the action.
    pub fn rule(&self) -> RegionRule {
        RegionRule::accepted(self.elements[self.at].clone(), self.action)
    }
}
