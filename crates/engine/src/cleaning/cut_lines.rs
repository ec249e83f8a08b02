//! Stage `cut-lines`: a line of a cut string, found alone, cuts as the string would.
//!
//! A footer mined from a source's history is often one long string: a strip of the day's headlines, a
//! channel finder, the copyright notice. Its first lines change with the news, so on a page fetched a
//! week later the string as a whole is nowhere and its cut is lost, though the notice under it is word
//! for word the same. Each line of a cut string's example with at least [`MIN_WORDS`] words is therefore
//! a place that string may cut, wherever a page has it as a whole line. Such a line only cuts: it does
//! not move the article block (stage `cuts` finds the block from the rules' own matches, then cuts at
//! the nearest header or footer line outside it), it adds no line of prose to the cuts but itself, and
//! a line that cuts nothing is not removed. The
//! lines of a long string hold the day's teasers too, which may stand above the article of a later
//! page: as matches they moved the block there and cut the article. Plain template strings' lines are
//! not used: alone they are as often the article's own.

use foldhash::{HashMap, HashSet};

use super::{Cleaner, Layout, Match, work};
use crate::rules::{Action, Rule};

/// Lines shorter than this many words ("Share this", "Related stories") are too common to cut at alone.
pub const MIN_WORDS: usize = 4;

/// The lines of every rule's example (the text of one of its matches), by their trimmed text: the first
/// rule holding a line has it. A rule's lines count only while its action is a cut.
#[derive(Debug, Clone, Default)]
pub(super) struct CutLines {
    lines: HashMap<String, u32>,
}

impl CutLines {
    /// Adds the lines of `rule`'s example, as rule `idx`, if it has more than one.
    pub fn add(&mut self, idx: u32, rule: &Rule) {
        if !rule.example.contains('\n') {
            return;
        }
        for line in rule.example.lines().map(str::trim) {
            if line.split_whitespace().nth(MIN_WORDS - 1).is_some() && !self.lines.contains_key(line) {
                self.lines.insert(line.to_string(), idx);
            }
        }
    }

    /// The lines of cut rules on `doc` that may cut around the article `block`, and the block ended (or
    /// begun) at them. They stand in for a string that changed: a rule among `matches` (found whole) has
    /// none, and a line found twice on the page is the page's own ("Continue reading the main story"
    /// between an article's paragraphs). A footer line counts below the block's start where no line of
    /// prose lies between it and the footer cut there is (`footer_start`, the text's end if none): the
    /// notice under an article no rule split off. A header line, mirrored (`header_end`). Elsewhere it
    /// is a teaser of the day above the article. One look-up a line.
    pub fn places(
        &self,
        cleaner: &Cleaner,
        doc: &Layout,
        matches: &[Match],
        block: (usize, usize),
        (header_end, footer_start): (usize, usize),
    ) -> ((usize, usize), Vec<Match>) {
        let (mut start, mut end) = block;
        if self.lines.is_empty() {
            return (block, Vec::new());
        }
        let text = doc.text();
        // each line is read once, to hash it
        work::add(text.len());
        let mut found: Vec<(Match, &str)> = Vec::new();
        let mut copies: HashMap<&str, usize> = HashMap::default();
        for k in 0..doc.lines() {
            let (a, b) = doc.line_range(k);
            let line = &text[a..b];
            let trimmed = line.trim();
            let Some(&rule) = self.lines.get(trimmed) else { continue };
            if cleaner.action(rule).is_cut() {
                let from = a + (line.len() - line.trim_start().len());
                found.push((Match { start: from, end: from + trimmed.len(), rule }, trimmed));
                *copies.entry(trimmed).or_default() += 1;
            }
        }
        if found.is_empty() {
            return (block, Vec::new());
        }
        let whole: HashSet<u32> = matches.iter().map(|m| m.rule).collect();
        let mut out = Vec::new();
        for (m, line) in found {
            if copies[line] > 1 || whole.contains(&m.rule) {
                continue;
            }
            // what it adds to the cuts besides the line itself holds no prose, and it leaves some of the block
            match cleaner.action(m.rule) {
                Action::CutAfter
                    if m.start > block.0 && m.start < footer_start && !doc.has_prose_line(m.end, footer_start) =>
                {
                    end = end.min(m.start)
                }
                Action::CutBefore
                    if m.end < block.1 && m.end > header_end && !doc.has_prose_line(header_end, m.start) =>
                {
                    start = start.max(m.end)
                }
                _ => continue,
            }
            out.push(m);
        }
        ((start, end.max(start)), out)
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

    /// The cleaner of one mined string with `action`, its example `example` (its tokens: the example's).
    fn mined(example: &str, action: Action) -> Cleaner {
        let m = MutableSet::defaults();
        let tokens = example.replace(':', " :").split_whitespace().collect::<Vec<_>>().join(" ");
        let mut r = rule("r", &tokens, action, &m);
        r.example = example.into();
        Cleaner::from_rules(Tokenizer::Text, m.patterns(), &[r], 0).unwrap()
    }

    /// A footer mined as one string: the day's headlines, then the site's notice.
    fn footer(action: Action) -> Cleaner {
        mined("Top stories:\nStorm hits coast\nSite is the official home of hockey", action)
    }

    const PAGE: &str = "Headline of the day\nThe article says what it says in one long line of words.\n\
                        Top stories:\nVote counted late\nSite is the official home of hockey\nChannel finder";

    #[test]
    fn a_cut_string_whose_first_lines_changed_still_cuts_at_a_line_of_it() {
        let c = footer(Action::CutAfter);
        assert_eq!(
            c.clean(PAGE).text,
            "Headline of the day\nThe article says what it says in one long line of words.\nTop stories:\nVote counted late"
        );
        let off = c.with_stage(Stage::CutLines, false);
        assert_eq!(off.clean(PAGE).text, PAGE, "off: the string is nowhere whole, nothing is cut");
    }

    #[test]
    fn the_lines_of_a_string_that_is_no_cut_match_nothing() {
        assert_eq!(footer(Action::Remove).clean(PAGE).text, PAGE);
    }

    #[test]
    fn lines_of_fewer_than_four_words_and_lines_inside_others_do_not_match() {
        let c = footer(Action::CutAfter);
        let page = "Body text of the article, long enough to be its block.\nStorm hits coast\n\
                    Read: Site is the official home of hockey";
        assert_eq!(c.clean(page).text, page);
    }

    #[test]
    fn a_footer_line_above_the_article_is_a_teaser_and_cuts_nothing() {
        // as a match it would end the article block above it: the promoted story would be the article
        let c = footer(Action::CutAfter);
        let page = "Headline of the day\nA promoted story told in a line long enough to read as a sentence.\n\
                    Site is the official home of hockey\nThe article says what it says in one long line of \
                    words, and then some more of them, and more again until it is the longest run.";
        assert_eq!(c.clean(page).text, page);
    }

    #[test]
    fn a_header_whose_last_lines_changed_still_cuts_before_the_article() {
        let c = mined("Welcome to the site of hockey\nToday:\nStorm hits coast", Action::CutBefore);
        let page = "Welcome to the site of hockey\nToday:\nVote counted late\n\
                    The article says what it says in one long line of words, and then some more of them.";
        assert_eq!(
            c.clean(page).text,
            "Today:\nVote counted late\nThe article says what it says in one long line of words, and then some more of them."
        );
        assert_eq!(c.with_stage(Stage::CutLines, false).clean(page).text, page);
    }

    #[test]
    fn a_header_line_between_the_articles_paragraphs_cuts_nothing() {
        let c = mined("Welcome to the site of hockey\nContinue reading the main story", Action::CutBefore);
        let page = "Headline of the day\nThe first paragraph says what it says in one line of words.\n\
                    Continue reading the main story\nThe second paragraph is longer than the first one, \
                    and it says much more of what the article has to say about the game today.";
        assert_eq!(c.clean(page).text, page);
    }

    #[test]
    fn a_line_printed_twice_on_the_page_is_its_own_and_cuts_nothing() {
        let c = footer(Action::CutAfter);
        let notice = "Site is the official home of hockey";
        let page = format!(
            "Headline of the day\n{notice}\nThe article says what it says in one long line of words.\n{notice}\nChannel finder"
        );
        assert_eq!(c.clean(&page).text, page);
        let once = format!(
            "Headline of the day\nThe article says what it says in one long line of words.\n{notice}\nChannel finder"
        );
        assert_eq!(
            c.clean(&once).text,
            "Headline of the day\nThe article says what it says in one long line of words."
        );
    }
}
