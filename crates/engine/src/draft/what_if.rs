//! Every editor action as a value, to take it ([`Draft::take`]) or to weigh it before it is taken: the rules
//! file it would make, without making it ([`Draft::if_taken`]), and what that does over the whole source
//! ([`Draft::what_if`]): the same as taking the action and measuring the change, with nothing taken, so
//! the undo history, the cutoff, the stages and the decisions stay as they are.
//!
//! What each costs: a decision, a trim, a mark, a regex or a reset change which rules are in force, and the
//! impact re-cleans only the pages those rules match; a cutoff move changes which pending rules are in force
//! (the pages they match); a stage turned on or off runs the stages again on every page, from each page's
//! cached matches. A pattern edit is weighed on the rules as they stand, each made again from its tokens
//! with the new patterns (a rule of `«month»` matches what the edited pattern matches), every page matched
//! again: the re-mine it asks for (new candidates, new statistics) is not run here, and comes after the
//! edit, which the editor can undo with one key.

use crate::clean_settings::Stage;
use crate::cutoff::CutoffBin;
use crate::impact::{Baseline, Impact};
use crate::mutable::MutablePattern;
use crate::rules::{Action as RuleAction, Rule, Status};

use super::{Change, Draft, Snapshot};

/// An editor action on a draft (each is one of [`Draft`]'s methods, and one undoable step).
#[derive(Debug, Clone, PartialEq)]
pub enum Act {
    /// [`Draft::decide`]: status and action of strings (indices into `mining.strings`).
    Decide { strings: Vec<usize>, status: Option<Status>, action: Option<RuleAction> },
    /// [`Draft::trim`]: candidate `string` trimmed by one more token at its start (`front`) or end.
    Trim { string: usize, front: bool },
    /// [`Draft::mark_span`]: a rule of `doc[start..end]` with `action`.
    Mark { doc: String, start: usize, end: usize, action: RuleAction },
    /// [`Draft::set_regex`]: a rule with a hand-written regex.
    Regex(Rule),
    /// [`Draft::reset_to_automatic`].
    Reset,
    /// [`Draft::set_stage`].
    Stage { stage: Stage, on: bool },
    /// [`Draft::set_cutoff`].
    Cutoff(CutoffBin),
    /// [`Draft::set_patterns`].
    Patterns(Vec<MutablePattern>),
}

impl Draft {
    /// Takes `act`: what its method returns.
    pub fn take(&mut self, act: &Act) -> Result<Change, String> {
        Ok(match act {
            Act::Decide { strings, status, action } => self.decide(strings, *status, *action),
            Act::Trim { string, front } => self.trim(*string, *front)?.0,
            Act::Mark { doc, start, end, action } => self.mark_span(doc, *start, *end, *action)?.0,
            Act::Regex(rule) => self.set_regex(rule.clone()),
            Act::Reset => self.reset_to_automatic(),
            Act::Stage { stage, on } => self.set_stage(*stage, *on),
            Act::Cutoff(c) => self.set_cutoff(*c),
            Act::Patterns(p) => self.set_patterns(p.clone()),
        })
    }

    /// The draft's rules file as it would be after `act`, not made yet (see [`Draft::snapshot`]): nothing is
    /// taken. Costs what the decisions are (a reset: the automatic rules made again; a trim: the trimmed
    /// rule, counted over the source).
    pub fn if_taken(&self, act: &Act) -> Result<Snapshot, String> {
        let now = self.snapshot();
        Ok(match act {
            Act::Decide { strings, status, action } => {
                now.decided_as(&self.decision_step(strings, *status, *action), self)
            }
            Act::Trim { string, front } => now.decided_as(&self.trim_step(*string, *front)?.decisions, self),
            Act::Mark { doc, start, end, action } => {
                now.decided_as(&self.rule_step(self.if_marked(doc, *start, *end, *action)?), self)
            }
            Act::Regex(rule) => now.decided_as(&self.rule_step(rule.clone()), self),
            Act::Reset => now.decided_as(&self.reset_step(), self),
            Act::Stage { stage, on } => now.staged(*stage, *on),
            Act::Cutoff(c) => now.cut_at(self.clamp_cutoff(*c)),
            Act::Patterns(p) => now.patterned(p.clone()),
        })
    }

    /// What `act` would do over the source, measured on `base` (the draft's rules as they stand, cleaned on
    /// every document): the impact taking it and measuring the change gives, with nothing taken.
    pub fn what_if(&self, base: &Baseline, act: &Act) -> Result<Impact, String> {
        let mut after = self.if_taken(act)?.rules_file();
        // the documents as the baseline reads them (a front end holds HTML pages as their views)
        after.input = base.file().input;
        base.impact(&after).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests;
