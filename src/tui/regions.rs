//! The region rules list's state (`G`): the source's `[[region]]` rules, the one selected, what it would
//! do over the whole source (measured off the UI thread by the impact worker) and where it sits on the
//! previewed page. The decisions themselves are the draft's (`Draft::decide_region`).

use crate::regions::RegionImpact;

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
}
