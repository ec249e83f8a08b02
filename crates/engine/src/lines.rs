//! A source's lines: whether its documents are laid out in lines at all ([`is_lined`]; text glued into
//! long lines has no line the cleaner can trust), and single-word lines as rules.
//!
//! The miner keeps strings of two tokens or more (a single word repeats everywhere), but a line that is
//! one word — "Reply", "Home", "Topics:" — and recurs across documents
//! is template as surely as a longer string. Such a line becomes a rule matching the whole line, in text
//! mode, where lines mean something.
//!
//! A line rule is an ordinary rule (`regex = '(?m)^Topics:$'`, no tokens, id `line:Topics:`): an editor
//! sees, accepts and rejects it like any other. The cleaner matches it by looking each trimmed line up,
//! not by running its regex, so hundreds of them cost one pass over the lines.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use crate::corpus::Corpus;
use crate::cutoff::bin_of;
use crate::rules::{Action, Rule, Status};

use crate::rules::LINE_PREFIX as PREFIX;

/// Lines of this many words or more (at the median) are text glued together, not a layout.
pub const GLUED_WORDS: usize = 25;

/// Whether a source's documents are laid out in lines the line-boundary filter can use: the median
/// non-empty line has fewer than [`GLUED_WORDS`] words. A naive parser that glues a page into one long
/// line (the thesis's own example) leaves template and article on the same line, and the filter would
/// keep the template.
pub fn is_lined(corpus: &Corpus) -> bool {
    let mut words: Vec<usize> = corpus
        .docs
        .par_iter()
        .flat_map_iter(|d| d.text.lines().map(|l| l.split_whitespace().count()).filter(|&n| n > 0).collect::<Vec<_>>())
        .collect();
    if words.is_empty() {
        return false;
    }
    let mid = words.len() / 2;
    let (_, median, _) = words.select_nth_unstable(mid);
    *median < GLUED_WORDS
}

/// Rules for the one-token lines (with a letter in them) found on at least two documents, pending, binned
/// by document frequency like mined strings, sorted by id.
pub fn line_rules(corpus: &Corpus) -> Vec<Rule> {
    let mut df: HashMap<&str, (u64, u64)> = HashMap::new();
    for doc in &corpus.docs {
        let mut seen = HashSet::new();
        for line in doc.text.lines() {
            let line = line.trim();
            // one token, with a letter in it: "-" or "2012" on a line of its own says nothing
            if line.is_empty() || line.contains(char::is_whitespace) || !line.contains(char::is_alphabetic) {
                continue;
            }
            let e = df.entry(line).or_default();
            e.1 += 1;
            if seen.insert(line) {
                e.0 += 1;
            }
        }
    }
    let n = corpus.docs.len() as u64;
    let mut rules: Vec<Rule> = df
        .into_iter()
        .filter(|&(_, (d, _))| d >= 2)
        .map(|(line, (d, tf))| Rule {
            id: format!("{PREFIX}{line}"),
            status: Status::Pending,
            action: Action::Remove,
            regex: regex_of(line),
            tokens: Vec::new(),
            tf,
            df: d,
            bin: bin_of(d, n),
            coverage: tf * line.len() as u64,
            // line rules are not ranked with the mined strings: their coverage stands in
            adds: tf * line.len() as u64,
            example: line.to_string(),
            idiom: false,
            stale: false,
            editor: false,
            cluster: None,
            // its regex matches whole lines already
            own_line: false,
        })
        .collect();
    rules.sort_by(|a, b| a.id.cmp(&b.id));
    rules
}

use crate::rules::line_regex as regex_of;

/// Whether a rule or mined string id is a line rule's.
pub fn is_line_id(id: &str) -> bool {
    id.starts_with(PREFIX)
}

/// The line a line rule matches, if `rule` is one whose regex is still the one it was made with (an
/// edited regex runs as a regex).
pub fn line_of(rule: &Rule) -> Option<&str> {
    rule.line()
}

/// Whether `rule` is a line rule for a label ("Topics:", "Tags:"): the start of a section, and so a
/// possible frame string. Other single words ("Video", "Photo") turn up inside articles too.
pub fn is_label(rule: &Rule) -> bool {
    line_of(rule).is_some_and(|l| l.ends_with(':'))
}

/// Every line of `text` whose trimmed content is a key of `rules`, as (start, end, rule) with the trimmed
/// bounds, in order.
pub fn find_lines(text: &str, rules: &foldhash::HashMap<String, u32>, mut found: impl FnMut(usize, usize, u32)) {
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if let Some(&rule) = rules.get(trimmed) {
            let start = pos + (line.len() - line.trim_start().len());
            found(start, start + trimmed.len(), rule);
        }
        pos += line.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Document;

    #[test]
    fn line_rules_are_single_words_with_a_letter_on_two_pages() {
        let docs = ["Reply\n-\n2012\nReply\nbody one", "Reply\n-\n2012\nbody two", "Home\nbody three"];
        let corpus = Corpus::from_docs(
            "s",
            docs.iter().enumerate().map(|(i, t)| Document { id: i.to_string(), text: t.to_string() }).collect(),
        );
        let rules = line_rules(&corpus);
        assert_eq!(rules.len(), 1, "{rules:?}");
        assert_eq!(rules[0].regex, "(?m)^Reply$");
        assert_eq!((rules[0].df, rules[0].tf), (2, 3));
        assert_eq!(line_of(&rules[0]), Some("Reply"));
        assert!(!is_label(&rules[0]));
    }

    #[test]
    fn an_edited_line_rule_is_a_regex_again() {
        let mut rule = line_rules(&Corpus::from_docs(
            "s",
            (0..2).map(|i| Document { id: i.to_string(), text: "Tags:\nx".into() }).collect(),
        ))
        .remove(0);
        assert!(is_label(&rule));
        rule.regex = "(?m)^Tags:.*$".into();
        assert_eq!(line_of(&rule), None);
    }

    #[test]
    fn lines_are_found_by_their_trimmed_text() {
        let rules: foldhash::HashMap<String, u32> = [("Reply".to_string(), 7)].into_iter().collect();
        let text = "a Reply\n  Reply  \nReply";
        let mut found = Vec::new();
        find_lines(text, &rules, |s, e, r| found.push((s, e, r)));
        assert_eq!(found, vec![(10, 15, 7), (18, 23, 7)]);
    }
}
