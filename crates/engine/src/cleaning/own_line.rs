//! Stage `own-line`: a cut string mined as a line of its own cuts only where it is one.
//!
//! A cut takes everything before or after its match, so one match in the wrong place costs the article.
//! A string that stood alone on its lines on most of the pages mined (a team's name in a sidebar listing
//! the league, "Related stories" above a list) is that line; the same words inside a longer line are the
//! article's ("Fairhaven Harriers goalkeeper Alex Keeper dropped by…") or a headline's or a tag
//! line's. Mining records which strings were lines of their own ([`crate::rules::Rule::own_line`]); this
//! stage drops a cut's match that is not a whole line, so the cut is made at the line (or nowhere).
//! Strings mined inside longer lines (a footer's "Posted by" before the author's name, a pagination's
//! "«number» Next >") are not touched, nor are removals: a removal takes its match, no more.

use super::stage::MatchFilter;
use super::{Cleaner, Layout, Match};

/// The stage.
pub(super) struct OwnLine;

impl MatchFilter for OwnLine {
    fn filter(&self, cleaner: &Cleaner, doc: &Layout, matches: &mut Vec<Match>) {
        matches.retain(|m| {
            let rule = &cleaner.rules[m.rule as usize];
            !(rule.own_line && rule.action.is_cut()) || doc.is_whole_lines(m.start, m.end)
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::Cleaner;
    use crate::cleaning::tests::rule;
    use crate::mutable::MutableSet;
    use crate::rules::Action;
    use crate::tokens::Tokenizer;

    fn cleaner(own_line: bool) -> Cleaner {
        let m = MutableSet::defaults();
        let rule = crate::rules::Rule { own_line, ..rule("r0", "Fairhaven Harriers", Action::CutAfter, &m) };
        Cleaner::from_rules(Tokenizer::Text, m.patterns(), [&rule], 0).unwrap()
    }

    /// A page whose article opens with the string (and whose tag line holds it), with no sidebar line of it.
    const PAGE: &str = "Keeper agrees that the start is embarrassing - League Blog\n\
        Home\nLeague Network\n\
        Keeper agrees that the start is embarrassing\n\
        By Sam Writer |\n\
        Published: November 7th, 2012 | Tags: Morning Show, Fairhaven Harriers, Alex Keeper\n\
        Fairhaven Harriers goalkeeper Alex Keeper dropped by the studio on Wednesday to talk about the game.\n\
        He agreed with the owner that the team's start to the season is embarrassing for everyone involved.\n\
        \"We did not play well and our record is really bad at this point,\" he said on the morning show.\n\
        Share this:\nFacebook\nTwitter";

    #[test]
    fn a_cut_string_mined_as_a_line_of_its_own_does_not_cut_inside_a_sentence_or_a_tag_line() {
        let out = cleaner(true).clean(PAGE).text;
        assert!(out.contains("dropped by the studio") && out.contains("really bad"), "{out}");
        // the stage off (or a string mined inside lines), a match inside a line cuts: the article goes
        let off = cleaner(true).with_stage(Stage::OwnLine, false).clean(PAGE).text;
        assert!(!off.contains("really bad"), "off: {off}");
        assert_eq!(cleaner(false).clean(PAGE).text, off);
        // where it is a line of its own, it cuts
        let listed = format!("{PAGE}\nTeams\nDunmore Lions\nFairhaven Harriers\nKingsport Chiefs");
        let out = cleaner(true).clean(&listed).text;
        assert!(out.contains("really bad") && !out.contains("Kingsport"), "{out}");
    }

    #[test]
    fn explain_names_the_stage_where_it_left_a_cut_strings_match_in_place() {
        use crate::cleaning::Reason;
        use crate::page::Page;
        use crate::view::DocKind;
        let e = cleaner(true).explain_page(&Page::new(PAGE, DocKind::Text));
        let named: Vec<_> = e.decisions.iter().map(|d| (&PAGE[d.start..d.end], d.removed, &d.reasons[..])).collect();
        let cut = Reason::Rule { rule: 0, action: Action::CutAfter };
        let at = PAGE.find("Fairhaven Harriers goalkeeper").unwrap();
        assert_eq!(named, [("Fairhaven Harriers", false, &[cut, Reason::Stage(Stage::OwnLine)][..])]);
        assert_eq!(e.decisions[0].start, at);
        // with the stage off the match cuts, and nothing is kept
        let off = cleaner(true).with_stage(Stage::OwnLine, false).explain_page(&Page::new(PAGE, DocKind::Text));
        assert!(off.decisions.iter().all(|d| d.removed), "{:?}", off.decisions);
    }
}
