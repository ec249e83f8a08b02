//! Stage `line-boundary`: a match counts only where it starts or ends a line (whitespace aside).
//!
//! Template strings stand on lines of their own (a menu, "Read more", a dateline); the same words inside
//! a sentence are an idiom ("of the", "read more about"). Mining turns it off where a source's template is
//! glued to its article on one line. Cut strings and keep rules are exempt from the stages that drop
//! matches: the editor placed them.

use super::stage::MatchFilter;
use super::{Cleaner, Layout, Match};
use crate::rules::Action;

/// Whether match `m` starts a line or ends one.
pub(super) fn touches_a_line_edge(doc: &Layout, m: &Match) -> bool {
    doc.touches_line_boundary(m.start, m.end)
}

/// The stage: keep rules and cut strings are exempt (the editor placed them; a cut string is template
/// wherever it stands in a line).
pub(super) struct LineBoundary;

impl MatchFilter for LineBoundary {
    fn filter(&self, cleaner: &Cleaner, doc: &Layout, matches: &mut Vec<Match>) {
        matches.retain(|m| cleaner.action(m.rule) == Action::Keep || touches_a_line_edge(doc, m));
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::cleaner;
    use crate::rules::Action;

    #[test]
    fn line_boundary_keeps_only_matches_that_touch_a_line_edge() {
        let text = "one of the best\nof the week\nend of the";
        let c = cleaner(&[("of the", Action::Remove)], 0);
        assert_eq!(c.clean(text).text, "one best\nweek\nend", "off: every match goes");
        let c = c.with_stage(Stage::LineBoundary, true);
        assert_eq!(c.clean(text).text, "one of the best\nweek\nend");
    }
}
