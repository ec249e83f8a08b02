//! Stage `sentence-heads`: a short match that heads a line of prose is a name or an idiom, not template.
//!
//! A site's tag lists repeat the names its articles open sentences with ("Indianapolis Colts rookie tight
//! end …"), and idioms open sentences too ("You can …"). Such a match stands at a line's start, so the
//! line-boundary test lets it through; this stage drops it when it is shorter than a long line and the
//! rest of its line reads as prose ("There are now «number»" is a grammar's opener as much as a name). A
//! string that ends with such a head on the line below (a header string mined with the article's first
//! word, "… | Updated «number»" then "The") ends above it, whatever the rule's action.

use super::matching::drop_and_trim;
use super::stage::MatchFilter;
use super::{Cleaner, LONG_LINE_WORDS, Layout, Match, work};

/// Whether a match of fewer than [`LONG_LINE_WORDS`] words starts a line of prose.
pub(super) fn opens_a_sentence(doc: &Layout, m: &Match) -> bool {
    doc.newlines_in(m.start, m.end) == 0 && opens_its_line(doc, m.start, m.end)
}

/// Whether `start..end`, inside one line, is a few words that start the line, and the rest of the line
/// reads as prose.
fn opens_its_line(doc: &Layout, start: usize, end: usize) -> bool {
    // at the end of a line, a short match is a link ("Read More"), not a name
    let line_start = doc.line_start(start);
    if doc.words(start, end) >= LONG_LINE_WORDS || !doc.is_blank(line_start, start) {
        return false;
    }
    let line_end = doc.line_end(end);
    // and a line of fields ("Posted by A. Writer on July 3 | Permalink") is no sentence
    doc.words(end, line_end) >= LONG_LINE_WORDS
        && doc.reads_as_prose(end, line_end)
        && !work::scan(&doc.text()[end..line_end]).contains(" | ")
}

/// Where a match that starts above its last line ends once the head of a sentence is left out: the end
/// of the line before, when its part on the last line opens that line's sentence (see [`opens_its_line`]).
fn before_the_sentence(doc: &Layout, m: &Match) -> Option<usize> {
    let last_start = doc.line_start(m.end);
    (last_start > m.start && opens_its_line(doc, last_start, m.end)).then(|| last_start - 1)
}

/// The stage: `remove` rules' matches that open a sentence are dropped (keep rules and cut strings are
/// the editor's); a match of a `remove` or cut rule that ends with a sentence's head ends above it.
pub(super) struct SentenceHeads;

impl MatchFilter for SentenceHeads {
    fn filter(&self, cleaner: &Cleaner, doc: &Layout, matches: &mut Vec<Match>) {
        let trim = |m: &mut Match| before_the_sentence(doc, m).map(|end| m.end = end).is_some();
        drop_and_trim(cleaner, matches, |m| opens_a_sentence(doc, m), trim);
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

    #[test]
    fn a_match_that_ends_with_a_sentences_head_ends_above_it() {
        // a header string mined with the article's first word on most of its pages
        let rules = [("Home | World «number» | Updated «date_time» The", Action::CutBefore)];
        let c = cleaner(&rules, 0).with_line_boundary(true);
        let article =
            "cost of new sports clubs in Old Quay climbed by 37 per cent in January, the fifth shift in a row.";
        let text = format!("Home | World\n2025 | Updated 15:23\nThe {article}");
        assert_eq!(c.clean(&text).text, format!("The {article}"));
        let off = c.with_stage(Stage::SentenceHeads, false);
        assert_eq!(off.clean(&text).text, article, "off: the article's first word goes");
    }
}
