//! What a decision would make of the rules file, without making it: a decision on a candidate, or a rule an
//! editor makes of a span, as the rule it makes, put in the rules file as it stands ([`with_rule`]) for the
//! front end to measure its impact (see [`crate::impact`]) before the editor confirms. Only what the
//! cleaner reads matters: which rules are active, with which action and regex.

use crate::rules::{Action as RuleAction, Rule, RulesFile, Status};

use super::{Draft, default_status};

/// `base` (a draft's [`Draft::rules_file`]) with `rule` in place of the rule of its id (a decision on it),
/// or added (a rule an editor makes).
pub fn with_rule(base: &RulesFile, rule: &Rule) -> RulesFile {
    let mut file = base.clone();
    match file.rules.iter_mut().find(|r| r.id == rule.id) {
        Some(r) => *r = rule.clone(),
        None => file.rules.push(rule.clone()),
    }
    file
}

impl Draft {
    /// Candidate `i`'s rule given `status` and `action` (`None`: as it is).
    pub fn if_decided(&self, i: usize, status: Option<Status>, action: Option<RuleAction>) -> Rule {
        let s = &self.mining.strings[i];
        let current = self
            .decisions
            .get(&s.id)
            .cloned()
            .unwrap_or_else(|| Rule { status: default_status(s), ..self.ready.rules[i].clone() });
        Rule { status: status.unwrap_or(current.status), action: action.unwrap_or(current.action), ..current }
    }

    /// The rule an editor makes of `doc[start..end]` with `action` (see [`Draft::mark_span`]).
    pub fn if_marked(&self, doc: &str, start: usize, end: usize, action: RuleAction) -> Result<Rule, String> {
        crate::editing::rule_from_span(doc, start, end, action, self.mining.tokenizer, &self.ready.mutable)
            .map_err(|e| e.to_string())
    }
}
