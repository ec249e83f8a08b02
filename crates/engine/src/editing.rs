//! An editor's own rules: a span of a document marked as template, and a candidate trimmed at either end.
//!
//! Both become token strings generalized by the source's mutable patterns, exactly as mined strings are
//! (a token a pattern matches whole becomes that pattern's slot), so a marked "Posted on Tuesday, 27th
//! February" matches every page's date, and both are synthesized into regexes by the miner's own
//! synthesis. Before the editor adds one, [`documents_matching`] says on how many documents it matches.

use crate::corpus::Document;
use crate::error::{Error, Result};
use crate::matcher::{Scratch, TokenMatcher};
use crate::mutable::MutableSet;
use crate::rules::{Action, Rule};
use crate::symbol::{Symbol, stable_id};
use crate::tokens::Tokenizer;

/// The symbols of `text`: its tokens, each one a pattern matches whole replaced by that pattern's slot.
pub fn symbols_of(text: &str, tokenizer: Tokenizer, mutable: &MutableSet) -> Vec<Symbol> {
    let mut out = Vec::new();
    tokenizer.for_each(text, |s, e| {
        let token = &text[s..e];
        out.push(match mutable.classify(token) {
            Some(p) => Symbol::Mutable(mutable.patterns()[p].name.clone()),
            None => Symbol::Literal(token.to_string()),
        });
    });
    out
}

/// The accepted rule an editor makes of `doc[start..end]` (widened to whole tokens), with `action`.
/// Its id is the id mining gives the same string, so marking a span that is also a candidate decides that
/// candidate; a keep rule has an id of its own ([`rule_id`]), so that keeping the text of a cut (an
/// article's last line a footer cut starts at) leaves the cut cutting around it.
pub fn rule_from_span(
    doc: &str,
    start: usize,
    end: usize,
    action: Action,
    tokenizer: Tokenizer,
    mutable: &MutableSet,
) -> Result<Rule> {
    let (start, end) = token_bounds(doc, start.min(doc.len()), end.min(doc.len()), tokenizer);
    let symbols = symbols_of(&doc[start..end], tokenizer, mutable);
    if symbols.is_empty() {
        return Err(Error::Invalid("the selection holds no token to make a rule of: select some text".into()));
    }
    let mut rule = Rule::accepted(rule_id(&symbols, action), &symbols, action, tokenizer, mutable)?;
    rule.example = doc[start..end].to_string();
    // her decision even where a mined string has these tokens: no stage overrules it
    rule.editor = true;
    Ok(rule)
}

/// The id of an editor's rule of `symbols` with `action`: mining's id of the string (`r…`), or for a
/// keep rule the same with `k`, which no mined string has: a keep rule stands beside the string's own
/// rule instead of replacing it.
pub fn rule_id(symbols: &[Symbol], action: Action) -> String {
    let id = stable_id(symbols);
    match action {
        Action::Keep => format!("k{}", &id[1..]),
        _ => id,
    }
}

/// `rule` with `front` tokens dropped from its start and `back` from its end: a new accepted rule (a new
/// id) with the same action. At least one token must stay.
pub fn trim(rule: &Rule, front: usize, back: usize, tokenizer: Tokenizer, mutable: &MutableSet) -> Result<Rule> {
    let symbols = rule.symbols();
    if symbols.is_empty() {
        return Err(Error::Invalid(format!(
            "rule {}: a hand-written regex has no tokens to trim; edit its regex instead",
            rule.id
        )));
    }
    if front + back >= symbols.len() {
        return Err(Error::Invalid(format!(
            "rule {}: trimming {front} token(s) from the start and {back} from the end leaves none of its {}",
            rule.id,
            symbols.len()
        )));
    }
    let kept = &symbols[front..symbols.len() - back];
    let mut trimmed = Rule::accepted(rule_id(kept, rule.action), kept, rule.action, tokenizer, mutable)?;
    trimmed.status = rule.status;
    trimmed.cluster = rule.cluster;
    Ok(trimmed)
}

/// On how many of `docs` the token string `symbols` occurs.
pub fn documents_matching(symbols: &[Symbol], docs: &[Document], tokenizer: Tokenizer, mutable: &MutableSet) -> usize {
    counted(symbols, docs, tokenizer, mutable).df as usize
}

/// A token string's statistics over a source's documents, as mining counts them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counted {
    /// Occurrences.
    pub tf: u64,
    /// Documents holding it.
    pub df: u64,
    /// Bytes of text its occurrences span.
    pub coverage: u64,
    /// The text of its first occurrence (empty: none).
    pub example: String,
}

/// The statistics of the token string `symbols` over `docs` (a pass of the token matcher, the documents
/// shared among threads): what an editor's rule made of it is listed with, as a mined string is.
pub fn counted(symbols: &[Symbol], docs: &[Document], tokenizer: Tokenizer, mutable: &MutableSet) -> Counted {
    use rayon::prelude::*;
    let matcher = TokenMatcher::new(tokenizer, mutable.clone(), &[symbols]);
    // per document: occurrences, bytes, and the first one's place
    let per_doc = |scratch: &mut Scratch, (d, doc): (usize, &Document)| {
        let (mut tf, mut coverage, mut first) = (0u64, 0u64, None);
        matcher.find_all(&doc.text, scratch, |s, e, _| {
            tf += 1;
            coverage += (e - s) as u64;
            first.get_or_insert((d, s, e));
        });
        (tf, u64::from(tf > 0), coverage, first)
    };
    let (tf, df, coverage, first) = docs
        .par_iter()
        .enumerate()
        .map_init(Scratch::default, per_doc)
        .reduce(|| (0, 0, 0, None), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2, [a.3, b.3].into_iter().flatten().min()));
    let example = first.map_or_else(String::new, |(d, s, e)| docs[d].text[s..e].to_string());
    Counted { tf, df, coverage, example }
}

/// `start..end` widened to the tokens it touches.
fn token_bounds(doc: &str, start: usize, end: usize, tokenizer: Tokenizer) -> (usize, usize) {
    let (mut s, mut e) = (None, start);
    tokenizer.for_each(doc, |ts, te| {
        if te > start && ts < end.max(start + 1) {
            s.get_or_insert(ts);
            e = te;
        }
    });
    (s.unwrap_or(start), e.max(s.unwrap_or(start)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Status;

    fn docs(texts: &[&str]) -> Vec<Document> {
        texts.iter().enumerate().map(|(i, t)| Document { id: i.to_string(), text: t.to_string() }).collect()
    }

    #[test]
    fn a_marked_span_generalizes_its_dates_and_matches_other_pages() {
        let mutable = MutableSet::defaults();
        let page = "Story one.\nPhoto: Tuesday, 27th February by Reuters\nMore.";
        let start = page.find("Photo").unwrap();
        let end = page.find(" by").unwrap();
        let rule = rule_from_span(page, start + 2, end - 1, Action::Remove, Tokenizer::Text, &mutable).unwrap();
        assert_eq!(rule.status, Status::Accepted);
        assert_eq!(rule.tokens, ["Photo:", "«weekday»", "«ordinal»", "«month»"], "widened to whole tokens");
        let others = docs(&["x Photo: Friday, 2nd March y", "no photo here", "Photo: Monday, 1st May"]);
        assert_eq!(documents_matching(&rule.symbols(), &others, Tokenizer::Text, &mutable), 2);
    }

    #[test]
    fn an_empty_selection_is_refused_with_advice() {
        let err = rule_from_span("a   b", 1, 3, Action::Remove, Tokenizer::Text, &MutableSet::defaults());
        assert!(err.unwrap_err().to_string().contains("select some text"));
    }

    #[test]
    fn trimming_drops_tokens_from_either_end_and_keeps_the_action() {
        let mutable = MutableSet::defaults();
        let page = "Read the full story By Ann Smith";
        let rule = rule_from_span(page, 0, page.len(), Action::CutBefore, Tokenizer::Text, &mutable).unwrap();
        let trimmed = trim(&rule, 0, 3, Tokenizer::Text, &mutable).unwrap();
        assert_eq!(trimmed.tokens, ["Read", "the", "full", "story"]);
        assert_eq!(trimmed.action, Action::CutBefore);
        assert_ne!(trimmed.id, rule.id);
        assert!(trim(&rule, 4, 3, Tokenizer::Text, &mutable).is_err(), "nothing would be left");
    }
}
