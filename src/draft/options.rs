//! The rules file a decision would make, without making it: each editor action's file from the file as it
//! stands, for the front end to measure its impact (see [`crate::impact`]) before the editor confirms. Only
//! what the cleaner reads matters: which rules are active, with which action and regex.

use crate::clean_settings::Stage;
use crate::cutoff::CutoffBin;
use crate::rules::{Action as RuleAction, Rule, RulesFile, Status};

use super::{Draft, default_status};

impl Draft {
    /// `base` (the draft's [`Draft::rules_file`]) with candidate `i` given `status` and `action` (`None`:
    /// as it is).
    pub fn file_if_decided(
        &self,
        base: &RulesFile,
        i: usize,
        status: Option<Status>,
        action: Option<RuleAction>,
    ) -> RulesFile {
        let s = &self.mining.strings[i];
        let current = self
            .decisions
            .get(&s.id)
            .cloned()
            .unwrap_or_else(|| Rule { status: default_status(s), ..self.ready.rules[i].clone() });
        let rule =
            Rule { status: status.unwrap_or(current.status), action: action.unwrap_or(current.action), ..current };
        with_rule(base, rule)
    }

    /// `base` with the rule an editor makes of `doc[start..end]` with `action` (see [`Draft::mark_span`]),
    /// and that rule.
    pub fn file_if_marked(
        &self,
        base: &RulesFile,
        doc: &str,
        start: usize,
        end: usize,
        action: RuleAction,
    ) -> Result<(RulesFile, Rule), String> {
        let rule = crate::editing::rule_from_span(doc, start, end, action, self.mining.tokenizer, &self.ready.mutable)
            .map_err(|e| e.to_string())?;
        Ok((with_rule(base, rule.clone()), rule))
    }

    /// `base` with the chosen cutoff at `c` (clamped as [`Draft::set_cutoff`] clamps it).
    pub fn file_if_cutoff(&self, base: &RulesFile, c: CutoffBin) -> RulesFile {
        let mut file = base.clone();
        file.cutoff.chosen = self.clamp_cutoff(c);
        file
    }

    /// `base` with cleaning stage `stage` on or off.
    pub fn file_if_stage(&self, base: &RulesFile, stage: Stage, on: bool) -> RulesFile {
        let mut file = base.clone();
        file.set_stage(stage, on);
        file
    }
}

/// `base` with `rule` in it, in place of a rule of its id.
fn with_rule(base: &RulesFile, rule: Rule) -> RulesFile {
    let mut file = base.clone();
    match file.rules.iter_mut().find(|r| r.id == rule.id) {
        Some(r) => *r = rule,
        None => file.rules.push(rule),
    }
    file
}
