//! Stage `sentence-tails`: a short match that closes a sentence of prose is an idiom, not template.
//!
//! Articles end their sentences alike ("… since 1999.", "… later this month.", "… in a row."): such a
//! string repeats on many pages of a source and ends a line, so the line-boundary test lets it through.
//! A template string at a line's end is a link ("Read More", "Continue reading »"), or a sentence of its
//! own after one that ended ("… the article. Read more."); it never runs on from a sentence. This stage
//! drops a match of fewer than 8 words that ends a line with a sentence's end, where the line before it
//! is a long run of words that has not ended its sentence.

use super::stage::MatchFilter;
use super::{Cleaner, LONG_LINE_WORDS, Layout, Match};
use crate::rules::Action;

/// Whether a match of fewer than [`LONG_LINE_WORDS`] words closes the sentence its line runs on.
pub(super) fn closes_a_sentence(doc: &Layout, m: &Match) -> bool {
    let text = doc.text();
    let line_start = doc.line_start(m.start);
    let line_end = doc.line_end(m.end);
    if doc.words(m.start, m.end) >= LONG_LINE_WORDS
        || doc.newlines_in(m.start, m.end) > 0
        || !doc.is_blank(m.end, line_end)
    {
        return false;
    }
    let shown = text[m.start..m.end].trim_end();
    let ends_sentence = shown.ends_with(['.', '!', '?']) && !shown.ends_with("..");
    // what precedes it on its line: a sentence running on, not one that ended
    let before = text[line_start..m.start].trim_end();
    ends_sentence
        && doc.words(line_start, m.start) >= LONG_LINE_WORDS
        && !before.ends_with(['.', '!', '?', ':', '|', '"', '\u{201d}', '»', '›'])
}

/// The stage: only `remove` rules' matches are dropped (keep rules and cut strings are the editor's).
pub(super) struct SentenceTails;

impl MatchFilter for SentenceTails {
    fn filter(&self, cleaner: &Cleaner, doc: &Layout, matches: &mut Vec<Match>) {
        matches.retain(|m| cleaner.action(m.rule) != Action::Remove || !closes_a_sentence(doc, m));
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::cleaner;
    use crate::rules::Action;

    #[test]
    fn a_short_match_that_closes_a_sentence_is_an_idiom_not_template() {
        let rules = [("since «number»", Action::Remove), ("Read more", Action::Remove)];
        let c = cleaner(&rules, 0).with_line_boundary(true).with_stage(Stage::SentenceTails, false);
        let line = "The council has rebuilt the harbour wall three times since 1999.";
        assert_eq!(c.clean(line).text, "The council has rebuilt the harbour wall three times", "off: the tail goes");
        let c = c.with_stage(Stage::SentenceTails, true);
        assert_eq!(c.clean(line).text, line);
        // a link at the line's end, and a sentence of its own after one that ended, still go
        assert_eq!(
            c.clean("The council has rebuilt the harbour wall three times, and more. Read more").text,
            "The council has rebuilt the harbour wall three times, and more."
        );
        assert_eq!(
            c.clean("Repairs began last week.\nsince 1999.").text,
            "Repairs began last week.",
            "a line of its own"
        );
    }
}
