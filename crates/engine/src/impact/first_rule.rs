//! The first rule in force starts the cleaning stages. With no rule the cleaner leaves a page as it is
//! (the stages refine what rules find, they do not clean alone), so on a source nothing is accepted of
//! yet the first rule accepted changes every page through the stages as well as through its own
//! matches, whatever it is: accepting a keep rule "removes" the menus stage `short-runs` takes. An impact
//! across that switch says which part is which: the stages' own (a rule in force that matches nothing,
//! against no rule), and the change's with the stages already running.

use serde::Serialize;

use super::{Baseline, DocImpact, State};
use crate::error::Result;
use crate::rules::{Action, Rule, RulesFile};

/// A change's words split where it starts the stages (see the module doc).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StagesStart {
    /// What the stages change on their own.
    pub stages: Totals,
    /// What the change changes with the stages already running.
    pub change: Totals,
}

/// Words a change moves over a source, and on how many documents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub documents: usize,
    pub removed_inside: usize,
    pub removed_outside: usize,
    pub given_back_inside: usize,
    pub given_back_outside: usize,
}

impl Totals {
    fn add(&mut self, d: &DocImpact) {
        self.documents += 1;
        self.removed_inside += d.removed_inside;
        self.removed_outside += d.removed_outside;
        self.given_back_inside += d.given_back_inside;
        self.given_back_outside += d.given_back_outside;
    }

    pub fn removed(&self) -> usize {
        self.removed_inside + self.removed_outside
    }

    pub fn given_back(&self) -> usize {
        self.given_back_inside + self.given_back_outside
    }

    /// `-1641 words (0 inside the article) on 10 documents`, given-back words when there are any.
    pub fn line(&self) -> String {
        let mut out = format!("-{} words ({} inside the article)", self.removed(), self.removed_inside);
        if self.given_back() > 0 {
            out.push_str(&format!(", +{} given back ({} inside)", self.given_back(), self.given_back_inside));
        }
        out.push_str(&format!(" on {} document(s)", self.documents));
        out
    }
}

/// A rule in force that matches nothing (a word boundary that is not one): the stages run, and nothing
/// else changes.
fn idle_rule() -> Rule {
    Rule::with_regex("stages-start", r"\b\B", Action::Keep)
}

impl Baseline {
    /// Whether `file` has a rule in force (a string or region rule) for this baseline.
    fn in_force(&self, file: &RulesFile) -> bool {
        file.active_rules(self.include_pending).next().is_some()
            || file.regions.iter().any(|r| r.is_active(self.include_pending))
    }

    /// Where a change to `after` starts the stages (the baseline has no rule in force, `after` has) and
    /// they change a page on their own, its words split (see the module doc); `states` are the pages
    /// `after` changes, with their states.
    pub(super) fn stages_start<'a>(
        &self,
        after: &RulesFile,
        states: impl Iterator<Item = (usize, &'a State)>,
    ) -> Result<Option<StagesStart>> {
        if self.in_force(&self.file) || !self.in_force(after) {
            return Ok(None);
        }
        let mut idle = self.file.clone();
        idle.rules.push(idle_rule());
        // the stages start on every page: all of them are cleaned again
        let (idle_states, _, _) = self.cleaned_after(&idle)?;
        let mut running: Vec<&State> = self.states.iter().collect();
        for (i, s, _) in &idle_states {
            running[*i] = s;
        }
        let mut out = StagesStart::default();
        for (i, &s) in running.iter().enumerate() {
            if let Some(d) = self.compare(i, s) {
                out.stages.add(&d);
            }
        }
        let mut after_states: Vec<&State> = self.states.iter().collect();
        for (i, s) in states {
            after_states[i] = s;
        }
        for (i, &s) in after_states.iter().enumerate() {
            if let Some(d) = self.compare_states(i, running[i], s) {
                out.change.add(&d);
            }
        }
        // stages that change nothing on their own leave nothing to tell apart
        Ok((out.stages.documents > 0).then_some(out))
    }
}
