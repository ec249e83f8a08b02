//! A memory budget for the rules run as regexes (hand-edited ones). Each compiled regex holds its
//! automaton and, per thread, a lazy-DFA cache; a legal rule such as `\w{1,200}` compiles to megabytes,
//! and a few hundred of them ran a cleaner to gigabytes. Every regex gets explicit limits, and the rules
//! together a total: a rule past it is an error naming it, before it is compiled.
//!
//! The cache is set explicitly, not left at the crate's default: a lazy DFA whose cache is too small for
//! its pattern rebuilds it over and over (a cliff measured at 50x on 1,000 patterns), while one cache per
//! rule and thread is what the budget pays for.

use std::cell::Cell;

use regex::{Regex, RegexBuilder};

use crate::error::{Error, Result};
pub use crate::rules::RULE_REGEX_BYTES;
use crate::rules::rule_regex_estimate;

thread_local! {
    static BUILT: Cell<usize> = const { Cell::new(0) };
}

/// Regexes this thread has built for rules so far: tests bound the work of refusing a rule by it.
#[cfg(test)]
fn regexes_built() -> usize {
    BUILT.with(Cell::get)
}

/// One rule's lazy-DFA cache (per thread that runs it), at least.
pub const RULE_CACHE_BYTES: usize = 256 << 10;
/// One rule's lazy-DFA cache, at most.
const MAX_RULE_CACHE_BYTES: usize = 8 << 20;
/// Cache bytes per byte of a rule's automaton. A lazy DFA's state holds a set of the automaton's states,
/// and a counted repetition (`\S{0,250}`) keeps a state per count: a cache sized for small rules is then
/// rebuilt every few bytes of input, and the search falls back to running the automaton itself, a
/// thousand times slower. So the cache grows with the automaton.
const CACHE_PER_AUTOMATON_BYTE: usize = 8;

/// The lazy-DFA cache a rule whose automaton is estimated at `automaton` bytes gets.
fn cache_bytes(automaton: usize) -> usize {
    automaton.saturating_mul(CACHE_PER_AUTOMATON_BYTE).clamp(RULE_CACHE_BYTES, MAX_RULE_CACHE_BYTES)
}
/// All regex rules of a cleaner together, estimated before compiling, caches included.
pub const TOTAL_REGEX_BYTES: usize = 512 << 20;

/// The running total of a cleaner's regex rules.
#[derive(Debug, Default)]
pub struct RegexBudget {
    spent: usize,
}

impl RegexBudget {
    /// Compiles rule `id`'s `pattern` within its own limits and what is left of the total.
    pub fn compile(&mut self, id: &str, pattern: &str) -> Result<Regex> {
        let invalid = |message: String| Error::InvalidRule { id: id.to_string(), message };
        // refused at once past one rule's limit: building it only to fail took a tenth of a second a rule
        let automaton = rule_regex_estimate(id, pattern)?;
        let cache = cache_bytes(automaton);
        let estimate = automaton + cache;
        if self.spent + estimate > TOTAL_REGEX_BYTES {
            return Err(Error::RegexBudget {
                id: id.to_string(),
                spent: self.spent >> 20,
                needs: estimate >> 20,
                total: TOTAL_REGEX_BYTES >> 20,
            });
        }
        BUILT.with(|c| c.set(c.get() + 1));
        let re = RegexBuilder::new(pattern).size_limit(RULE_REGEX_BYTES).dfa_size_limit(cache).build().map_err(
            |e| match e {
                regex::Error::CompiledTooBig(limit) => Error::RegexTooBig { id: id.to_string(), limit: limit >> 20 },
                e => invalid(last_line(&e.to_string())),
            },
        )?;
        self.spent += estimate;
        Ok(re)
    }
}

fn last_line(message: &str) -> String {
    message.lines().last().unwrap_or_default().trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_set_past_the_budget_is_an_error_naming_the_rule() {
        let mut budget = RegexBudget::default();
        let mut failed = None;
        for i in 0..300 {
            if let Err(e) = budget.compile(&format!("r{i}"), r"\w{1,50}\s+\w{1,50}") {
                failed = Some((i, e.to_string()));
                break;
            }
        }
        let (i, message) = failed.expect("300 rules of \\w{1,50} exceed the budget");
        assert!(i > 0, "the first rule fits");
        assert!(message.contains(&format!("rule r{i}")) && message.contains("simplify"), "{message}");
    }

    #[test]
    fn ordinary_rules_fit_by_the_thousand() {
        let mut budget = RegexBudget::default();
        for i in 0..1000 {
            budget.compile(&format!("r{i}"), &format!(r"Read\s+more\s+{i}\s*\|\s*(?:Monday|Tuesday)")).unwrap();
        }
    }

    #[test]
    fn an_over_large_rule_is_refused_without_being_built() {
        let mut budget = RegexBudget::default();
        let before = regexes_built();
        for i in 0..300 {
            let err = budget.compile(&format!("big{i}"), r"\w{1,150}\s\w{1,150}").unwrap_err().to_string();
            assert!(err.contains(&format!("rule big{i}")) && err.contains("simplify"), "{err}");
        }
        assert_eq!(regexes_built(), before, "refused from its syntax, none built");
        budget.compile("small", r"read\s+more").unwrap();
        assert_eq!(regexes_built(), before + 1);
    }

    #[test]
    fn a_rule_too_big_alone_names_its_limit() {
        let err = RegexBudget::default().compile("huge", r"\w{1000}\w{1000}").unwrap_err().to_string();
        assert!(err.contains("rule huge") && err.contains("simplify"), "{err}");
    }
}
