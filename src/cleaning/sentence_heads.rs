//! Stage `sentence-heads`: a short match that heads a line of prose is a name or an idiom, not template.
//!
//! A site's tag lists repeat the names its articles open sentences with ("Indianapolis Colts rookie tight
//! end …"), and idioms open sentences too ("You can …"). Such a match stands at a line's start, so the
//! line-boundary test lets it through; this stage drops it when the rest of its line reads as prose.

use super::stage::MatchFilter;
use super::{Cleaner, LONG_LINE_WORDS, Layout, Match, SPLIT_WORDS, work};
use crate::rules::Action;

/// Whether a short match starts a line of prose.
pub(super) fn opens_a_sentence(doc: &Layout, m: &Match) -> bool {
    // at the end of a line, a short match is a link ("Read More"), not a name
    let line_start = doc.line_start(m.start);
    if doc.words(m.start, m.end) >= SPLIT_WORDS
        || doc.newlines_in(m.start, m.end) > 0
        || !doc.is_blank(line_start, m.start)
    {
        return false;
    }
    let line_end = doc.line_end(m.end);
    // and a line of fields ("Posted by A. Writer on July 3 | Permalink") is no sentence
    doc.words(m.end, line_end) >= LONG_LINE_WORDS
        && doc.reads_as_prose(m.end, line_end)
        && !work::scan(&doc.text()[m.end..line_end]).contains(" | ")
}

/// The stage: only `remove` rules' matches are dropped (keep rules and cut strings are the editor's).
pub(super) struct SentenceHeads;

impl MatchFilter for SentenceHeads {
    fn filter(&self, cleaner: &Cleaner, doc: &Layout, matches: &mut Vec<Match>) {
        matches.retain(|m| cleaner.action(m.rule) != Action::Remove || !opens_a_sentence(doc, m));
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::cleaner;
    use crate::rules::Action;

    #[test]
    fn a_short_match_that_opens_a_sentence_is_a_name_not_template() {
        let rules =
            [("Indianapolis Colts", Action::Remove), ("Read More", Action::Remove), ("Posted by", Action::Remove)];
        let c = cleaner(&rules, 0).with_stage(Stage::LineBoundary, true);
        let sentence = "Indianapolis Colts rookie tight end Dwayne Allen caught the pass on Sunday.";
        assert_eq!(
            c.clean(sentence).text,
            "rookie tight end Dwayne Allen caught the pass on Sunday.",
            "off: the name goes"
        );
        let c = c.with_stage(Stage::SentenceHeads, true);
        assert_eq!(c.clean(sentence).text, sentence, "the team's name heads a sentence of the article");
        // on a line of its own (a tag list), or heading a line that is no sentence, it goes
        assert_eq!(c.clean("Indianapolis Colts\nNew York Giants").text, "New York Giants");
        assert_eq!(c.clean("Indianapolis Colts rookie tight end").text, "rookie tight end");
        // at the end of a line, a short match is a link
        assert_eq!(
            c.clean("The storm reshaped communities across the coast last week... Read More").text,
            "The storm reshaped communities across the coast last week..."
        );
        // a line of fields is no sentence
        assert_eq!(
            c.clean("Posted by Zoe Tillman on November 06, 2012 in D.C. Courts | Permalink").text,
            "Zoe Tillman on November 06, 2012 in D.C. Courts | Permalink"
        );
    }
}
