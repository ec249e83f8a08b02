//! Stage `sentence-tails`: a short match that closes a sentence of prose is an idiom, not template.
//!
//! Articles end their sentences alike ("… since 1999.", "… later this month.", "… in a row."): such a
//! string repeats on many pages of a source and ends a line, so the line-boundary test lets it through.
//! A template string at a line's end is a link ("Read More", "Continue reading »"), or a sentence of its
//! own after one that ended ("… the article. Read more."); it never runs on from a sentence. This stage
//! drops a match of fewer than 8 words that ends a line with a sentence's end, where the line before it
//! is a long run of words that has not ended its sentence. A match that starts so and runs on below (a
//! string mined with the article's last words, "2005." then "Related") starts on the next line: the
//! sentence's tail is the article's, whatever the rule's action.

use super::matching::drop_and_trim;
use super::stage::MatchFilter;
use super::{Cleaner, LONG_LINE_WORDS, Layout, Match};

/// Whether a match of fewer than [`LONG_LINE_WORDS`] words closes the sentence its line runs on.
pub(super) fn closes_a_sentence(doc: &Layout, m: &Match) -> bool {
    doc.newlines_in(m.start, m.end) == 0 && closes_its_line(doc, m.start, m.end)
}

/// Whether `start..end`, inside one line, is fewer than [`LONG_LINE_WORDS`] words that end the line with
/// a sentence's end, after a long run of words that has not ended its sentence.
fn closes_its_line(doc: &Layout, start: usize, end: usize) -> bool {
    let text = doc.text();
    let line_start = doc.line_start(start);
    if doc.words(start, end) >= LONG_LINE_WORDS || !doc.is_blank(end, doc.line_end(end)) {
        return false;
    }
    let shown = text[start..end].trim_end();
    let ends_sentence = shown.ends_with(['.', '!', '?']) && !shown.ends_with("..");
    // what precedes it on its line: a sentence running on, not one that ended
    let before = text[line_start..start].trim_end();
    ends_sentence
        && doc.words(line_start, start) >= LONG_LINE_WORDS
        && !before.ends_with(['.', '!', '?', ':', '|', '"', '\u{201d}', '»', '›'])
}

/// Where a match that runs on below its first line starts once the tail of a sentence is left out: the
/// next line's start, when its part on the first line closes that line's sentence (see [`closes_its_line`]).
fn past_the_sentence(doc: &Layout, m: &Match) -> Option<usize> {
    let first_end = doc.line_end(m.start);
    (first_end < m.end && closes_its_line(doc, m.start, first_end)).then_some(first_end + 1)
}

/// The stage: `remove` rules' matches that close a sentence are dropped (keep rules and cut strings are
/// the editor's); a match of a `remove` or cut rule that starts with a sentence's tail and runs on below
/// starts below it.
pub(super) struct SentenceTails;

impl MatchFilter for SentenceTails {
    fn filter(&self, cleaner: &Cleaner, doc: &Layout, matches: &mut Vec<Match>) {
        let trim = |m: &mut Match| past_the_sentence(doc, m).map(|start| m.start = start).is_some();
        drop_and_trim(cleaner, matches, |m| closes_a_sentence(doc, m), trim);
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

    #[test]
    fn a_match_that_starts_with_a_sentences_tail_and_runs_on_below_starts_below_it() {
        // strings mined with the article's last number: "«number». Related", the footer's "«number». © Site"
        let rules = [("«number» Related", Action::Remove), ("«number» © Site", Action::CutAfter)];
        let c = cleaner(&rules, 0).with_line_boundary(true);
        let article = "The council has rebuilt the harbour wall three times since 1999.";
        let text = format!("{article}\nRelated\nFerry times");
        assert_eq!(c.clean(&text).text, format!("{article}\nFerry times"));
        let footer = format!("{article}\n© Site\nAbout us");
        assert_eq!(c.clean(&footer).text, article);
        let off = c.with_stage(Stage::SentenceTails, false);
        let cut_short = "The council has rebuilt the harbour wall three times since";
        assert_eq!(off.clean(&text).text, format!("{cut_short}\nFerry times"), "off: the year goes");
        assert_eq!(
            off.clean(&footer).text,
            footer,
            "off: the footer string starts inside the article's line, and cuts nothing"
        );
    }
}
