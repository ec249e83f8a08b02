//! Keep rules: what a `keep` rule matches is never removed, by any rule or stage. They are applied last,
//! over whatever the rules and stages removed: the editor's word that this text is the article.

use super::explain::{Reason, Trace};
use super::spans::{normalize, subtract};
use super::{Match, Span};
use crate::rules::Action;

/// `spans` less every keep rule's match (`keeps`).
pub(super) fn keep_matches(spans: Vec<Span>, keeps: &[Match], trace: &mut Trace) -> Vec<Span> {
    if keeps.is_empty() {
        return spans;
    }
    for m in keeps {
        trace.kept(m.start, m.end, Reason::Rule { rule: m.rule, action: Action::Keep });
    }
    let ranges: Vec<(usize, usize)> = keeps.iter().map(|m| (m.start, m.end)).collect();
    subtract(spans, &normalize(&ranges))
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::cleaner;
    use crate::rules::Action;

    #[test]
    fn a_keep_rule_holds_against_rules_cuts_and_stages() {
        let text = "Menu Home\nBy Jane Doe\nthe article has a long first line of many words here\n\
            Related stories\nOne more thing worth keeping here\nLeave a reply\nBob says hi";
        let rules = [
            ("Menu Home", Action::CutBefore),
            ("Leave a reply", Action::CutAfter),
            ("Related stories", Action::Remove),
            ("By Jane Doe", Action::Remove),
        ];
        let c = cleaner(&rules, 0).with_stage(Stage::ShortRuns, true);
        assert_eq!(
            c.clean(text).text,
            "the article has a long first line of many words here\nOne more thing worth keeping here"
        );
        let mut keeping = rules.to_vec();
        keeping.push(("By Jane Doe", Action::Keep));
        keeping.push(("Bob says hi", Action::Keep));
        let c = cleaner(&keeping, 0);
        let out = c.clean(text);
        assert_eq!(
            out.text,
            "By Jane Doe\nthe article has a long first line of many words here\nOne more thing worth keeping here\nBob says hi",
            "the removal and the footer's cut give back what keep rules match"
        );
    }

    #[test]
    fn keeping_the_text_a_footer_cut_starts_at_keeps_the_text_and_the_cut() {
        // an article's last line ("Follow us…") that a footer cut starts at: kept, the rest still cut
        let text = "the article has a long first line of many words here\nFollow us for updates\nLeave a reply\nBob";
        let rules = [("Follow us for updates", Action::CutAfter), ("Follow us for updates", Action::Keep)];
        assert_eq!(
            cleaner(&rules, 0).clean(text).text,
            "the article has a long first line of many words here\nFollow us for updates"
        );
    }
}
