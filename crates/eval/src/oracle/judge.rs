//! What a careful editor checks before she makes a decision, with what the UI shows her: the rule's
//! evidence (fixed text or patterns, where its matches sit against each page's article), the decision's
//! effect on the training pages other than the one she is fixing, and its impact over the source (the
//! words it removes from every page, the verified pages it changes).
//!
//! A decision is judged on the pages it was not made on as much as on the one in view: it must not take
//! a word of any page's article nor lower pages' scores more than it raises others' ([`outweighs`]),
//! and a rule it makes remove more must not be
//! one that matches articles (a generic string, or one seen inside an article on any page). A cut must
//! pass the engine's cut check. A stage turned off must give back nothing but article on every page.
//! These hold by construction on the pages the editor has; the pages she has not seen are like them, so
//! a decision shown harmless on all of them is the safe bet there.

use crate::evidence::{CutProblem, check_cut};
use crate::frame::is_generic;
use crate::impact::{Baseline, Impact};
use crate::rules::{Action, Rule};
use crate::symbol::Symbol;

use super::page::TrainingPage;

/// Why a decision is not made.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Refusal {
    /// It would turn on a rule of a generic string: two or three common words, or mostly patterns
    /// (`the «upcase»`). Any article may hold it.
    Generic { rule: String },
    /// A rule it turns on matches inside the article of a training page (even where a stage drops the
    /// match there): it is in articles' wording, and a page out of view may lose words to it.
    MatchesArticle { rule: String, page: usize },
    /// A cut it makes has a problem the engine's cut check (or the article's place) names.
    Cut { rule: String, problem: CutProblem },
    /// It takes article words from a training page.
    TakesArticle { page: usize, words: usize },
    /// A stage it turns off gives template words back on a training page: the stage works on pages
    /// the editor has not seen too, and there it gives back what it gives back here.
    GivesTemplate { page: usize, words: usize },
    /// It turns off (or narrows) a rule whose own removals on the training pages are mostly template
    /// and whose article words are its matched text ([`drops_template`]): other rules cover that
    /// template on the pages in view, but the rule is what removes it from pages out of view where they
    /// do not. Keeping the matched text is the narrower decision.
    DropsTemplate { rule: String, template: usize, article: usize },
    /// It lowers the scores of training pages (`page` is the first) by more than [`outweighs`] allows.
    Hurts { page: usize },
    /// Its impact could not be read (the rules file it makes does not compile).
    NoImpact,
    /// It changes a page the editor verified.
    Verified { page: String },
    /// Made in the draft, it adds less to the training pages than an editor spends a decision on, as the
    /// engine cleans them (its trial promised more).
    NoGain,
}

impl Refusal {
    /// A short name, for the trace's counts.
    pub fn kind(&self) -> &'static str {
        match self {
            Refusal::Generic { .. } => "generic",
            Refusal::MatchesArticle { .. } => "matches an article",
            Refusal::Cut { .. } => "cut check",
            Refusal::TakesArticle { .. } => "takes article words",
            Refusal::GivesTemplate { .. } => "gives template back",
            Refusal::DropsTemplate { .. } => "turns off a rule removing mostly template",
            Refusal::Hurts { .. } => "lowers a page's score",
            Refusal::NoImpact => "no impact",
            Refusal::Verified { .. } => "changes a verified page",
            Refusal::NoGain => "gains nothing as the engine cleans",
        }
    }

    /// Whether a narrower decision (a removal for a cut, fewer tokens, a smaller span) may avoid it.
    pub fn narrowing_helps(&self) -> bool {
        !matches!(self, Refusal::Verified { .. } | Refusal::NoImpact | Refusal::NoGain)
    }
}

/// How many pages a decision must raise for each page it lowers, and how much more it must add to them
/// than it takes from the others.
const OUTWEIGH: usize = 4;

/// Whether a decision that raises `helped` training pages' scores by `raised` (summed F1) and lowers
/// `hurt` pages' by `lowered` is still made. A page's gold has its conventions (a dateline kept on eight
/// pages of ten and left out on two): a decision right on nearly every page is right on a page out of
/// view nearly as often, so one that raises at least [`OUTWEIGH`] pages for each it lowers, and adds
/// that many times what it takes, is made. Taking article words is refused before this is asked.
pub(super) fn outweighs(helped: usize, hurt: usize, raised: f64, lowered: f64) -> bool {
    hurt == 0 || (hurt * OUTWEIGH <= helped && lowered * OUTWEIGH as f64 <= raised)
}

/// Whether `rule` is a generic string for an editor: [`is_generic`] (two or three common words and
/// patterns), or no fixed text at all, or more pattern tokens than fixed ones (`«number» «month» by`).
/// A hand-written regex or a line rule (no tokens) is not.
pub(super) fn generic(rule: &Rule) -> bool {
    let symbols = rule.symbols();
    if symbols.is_empty() {
        return false;
    }
    let literal = symbols.iter().filter(|s| matches!(s, Symbol::Literal(_))).count();
    let patterns = symbols.len() - literal;
    is_generic(&rule.tokens) || literal == 0 || patterns > literal
}

/// Whether setting a rule from `before` to `after` makes it remove more: turned on (not as a keep rule),
/// or made a cut.
pub(super) fn widens(before: Option<Action>, after: Option<Action>) -> bool {
    match (before, after) {
        (_, None) | (_, Some(Action::Keep)) => false,
        (None, Some(_)) | (Some(Action::Keep), Some(_)) => true,
        (Some(b), Some(a)) => a.is_cut() && a != b,
    }
}

/// Where rule `r`'s matches sit against the article of each training page it matches on (`on`): the
/// gold's words inside the page's article block `blocks[p]`, which the editor reads on the page. The first
/// page where a match overlaps an article word, and with `cut`, the first page where it matches both
/// before and after the article (a cut there takes the article, whichever way).
pub(super) fn against_article(
    pages: &[TrainingPage<'_>],
    blocks: &[Option<(usize, usize)>],
    on: &[usize],
    r: usize,
    id: &str,
    cut: bool,
) -> Option<Refusal> {
    for &p in on {
        let page = &pages[p];
        let Some((a0, a1)) = page.article_extent(blocks[p]) else { continue };
        let (mut before, mut after) = (false, false);
        // a region rule's matches are its lines
        for m in page.matches.iter().chain(&page.regions).filter(|m| m.rule as usize == r) {
            if page.article_in(m.start, m.end, blocks[p]) > 0 {
                return Some(Refusal::MatchesArticle { rule: id.to_string(), page: p });
            }
            before |= m.end <= a0;
            after |= m.start >= a1;
        }
        if cut && before && after {
            return Some(Refusal::Cut { rule: id.to_string(), problem: CutProblem::BothSides { pages: 1 } });
        }
    }
    None
}

/// The words rule `r` removes by itself in state `action` (its matches alone, no other rule or stage) on
/// the training pages it matches on (`on`), as the engine's cuts apply around each page's article block
/// (`blocks`): a header cut at its last match above the block, a footer cut at its first match below it,
/// any other match (a cut's inside the block too) removed alone; off or kept, nothing.
fn own_removals(
    pages: &[TrainingPage<'_>],
    blocks: &[Option<(usize, usize)>],
    on: &[usize],
    r: usize,
    action: Option<Action>,
) -> Own {
    let mut own = Own::default();
    let Some(action) = action.filter(|a| *a != Action::Keep) else { return own };
    for &p in on {
        let page = &pages[p];
        let block = blocks[p];
        // each range with the match it comes from
        let mut ranges: Vec<((usize, usize), (usize, usize))> = page
            .matches
            .iter()
            .chain(&page.regions)
            .filter(|m| m.rule as usize == r)
            .map(|m| {
                let range = match (action, block) {
                    (Action::CutBefore, Some((start, _))) if m.end <= start => (0, m.end),
                    (Action::CutAfter, Some((_, end))) if m.start >= end => (m.start, page.text.len()),
                    _ => (m.start, m.end),
                };
                (range, (m.start, m.end))
            })
            .collect();
        ranges.sort_unstable();
        // the union of the ranges, each word counted once
        let mut covered = 0;
        for ((start, end), (m0, m1)) in ranges {
            let from = page.words.partition_point(|w| w.0 < start.max(covered));
            let to = page.words.partition_point(|w| w.0 < end);
            for i in from..to.max(from) {
                if !page.article[i] {
                    own.template += 1;
                } else if (m0..m1).contains(&page.words[i].0) {
                    own.article_matched += 1;
                } else {
                    own.article_beyond += 1;
                }
            }
            covered = covered.max(end);
        }
    }
    own
}

/// What a rule removes by itself ([`own_removals`]): template words, and article words in its matched
/// text or beyond it (a cut's reach).
#[derive(Debug, Default, Clone, Copy)]
struct Own {
    template: usize,
    article_matched: usize,
    article_beyond: usize,
}

/// Whether setting rule `r` from `before` to `after` lets go of more template than article among its
/// own removals ([`own_removals`]) while the article it gives back is only its own matched text: that
/// text is the article's and the rest the template's, so an editor keeps the text (a keep rule beside
/// the rule) and leaves the rule removing the rest on pages out of view, where other rules may not cover
/// it as they do on the pages in view. `Some((template, article))` let go when it does.
pub(super) fn drops_template(
    pages: &[TrainingPage<'_>],
    blocks: &[Option<(usize, usize)>],
    on: &[usize],
    r: usize,
    before: Option<Action>,
    after: Option<Action>,
) -> Option<(usize, usize)> {
    let (old, new) = (own_removals(pages, blocks, on, r, before), own_removals(pages, blocks, on, r, after));
    let template = old.template.saturating_sub(new.template);
    let matched = old.article_matched.saturating_sub(new.article_matched);
    let beyond = old.article_beyond.saturating_sub(new.article_beyond);
    (template > matched && beyond == 0).then_some((template, matched))
}

/// The engine's cut check of `rule` over the source's pages as `base` cleans them: a generic string,
/// patterns alone, or matches on both sides of a page's article block refuse the cut. (Its "inside the
/// article block" is left to [`against_article`]: the block of a page whose template is still kept holds
/// that template, and the editor reads where the article is.)
pub(super) fn cut_check(base: &Baseline, rule: &Rule) -> Option<Refusal> {
    let problems = check_cut(base, rule).ok()?;
    problems
        .into_iter()
        .find(|p| !matches!(p, CutProblem::InsideArticle { .. }))
        .map(|problem| Refusal::Cut { rule: rule.id.clone(), problem })
}

/// The impact of a decision made on page `made_on`, read as an editor reads it: a page among those it
/// changes loses article words (the words it removes that the editor knows are the page's article,
/// inside its article block `blocks`, before the change), or a verified page other than the one in view
/// changes.
pub(super) fn impact_refusal(
    pages: &[TrainingPage<'_>],
    blocks: &[Option<(usize, usize)>],
    impact: &Impact,
    made_on: usize,
    verified: Option<&crate::verified::Verified>,
) -> Option<Refusal> {
    for d in &impact.changed {
        let page = &pages[d.index];
        let words: usize = d.removed.iter().map(|r| page.article_in(r.start, r.end, blocks[d.index])).sum();
        if words > 0 {
            return Some(Refusal::TakesArticle { page: d.index, words });
        }
    }
    let verified = verified?;
    verified.affected(impact).into_iter().find(|d| d.index != made_on).map(|d| Refusal::Verified { page: d.id.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutable::MutableSet;
    use crate::symbol::{Symbol, stable_id};
    use crate::tokens::Tokenizer;

    fn rule(tokens: &str) -> Rule {
        let symbols: Vec<Symbol> = tokens.split(' ').map(Symbol::decode).collect();
        Rule::accepted(stable_id(&symbols), &symbols, Action::CutAfter, Tokenizer::Text, &MutableSet::defaults())
            .unwrap()
    }

    #[test]
    fn generic_strings_are_common_words_or_mostly_patterns() {
        assert!(generic(&rule("the «upcase»")), "a common word and a pattern");
        assert!(generic(&rule("of the")));
        assert!(generic(&rule("«number» «month» by")), "more patterns than fixed text");
        assert!(generic(&rule("«weekday» «number»")), "patterns alone");
        assert!(!generic(&rule("© «number»")), "a symbol and a year: the evidence decides");
        assert!(!generic(&rule("Posted by «upcase»")));
        assert!(!generic(&rule("Share this story with your friends")));
    }

    #[test]
    fn turning_on_or_making_a_cut_widens_a_rule_and_a_keep_or_a_removal_from_a_cut_does_not() {
        assert!(widens(None, Some(Action::Remove)));
        assert!(widens(Some(Action::Remove), Some(Action::CutAfter)));
        assert!(widens(Some(Action::Keep), Some(Action::Remove)));
        assert!(!widens(Some(Action::CutAfter), Some(Action::Remove)));
        assert!(!widens(None, Some(Action::Keep)));
        assert!(!widens(Some(Action::Remove), None));
        assert!(!widens(Some(Action::CutAfter), Some(Action::CutAfter)));
    }
}
