//! The editor's decisions on region rules (`[[region]]`, see [`crate::regions`]): accept, reject, set back
//! to pending, change the action. A region rule lives in the draft's rules file as mining made it (the
//! draft's header holds the source's region rules); a decision sets its status and action there, one
//! undoable step, and saving writes it as a string rule's decision is written.

use crate::rules::region::RegionRule;
use crate::rules::{Action as RuleAction, Status};

use super::history::Step;
use super::{Change, Draft};

/// One region rule's decision as saving writes it: its element, status and action.
pub type RegionDecision = (String, Status, RuleAction);

impl Draft {
    /// The source's region rules as the editor has them: mined candidates and her decisions on them.
    pub fn regions(&self) -> &[RegionRule] {
        &self.header.regions
    }

    /// The region rule of `element`, as it stands.
    pub fn region(&self, element: &str) -> Option<&RegionRule> {
        self.header.regions.iter().find(|r| r.element == element)
    }

    /// Region rule `element` given `status` and `action` (`None`: as it is), without deciding: what the
    /// front end measures before the editor confirms.
    pub fn if_region_decided(
        &self,
        element: &str,
        status: Option<Status>,
        action: Option<RuleAction>,
    ) -> Option<RegionRule> {
        let r = self.region(element)?;
        Some(RegionRule { status: status.unwrap_or(r.status), action: action.unwrap_or(r.action), ..r.clone() })
    }

    /// Sets status and action of region rule `element`; one step to undo. Nothing changes (an empty
    /// change, no step) for an element the draft has no rule of, or a decision it already holds.
    pub fn decide_region(&mut self, element: &str, status: Option<Status>, action: Option<RuleAction>) -> Change {
        let Some(after) = self.if_region_decided(element, status, action) else { return Change::default() };
        let before = self.region(element).cloned().expect("the rule decided on");
        if (before.status, before.action) == (after.status, after.action) {
            return Change::default();
        }
        self.step_region(Some(before), Some(after))
    }

    /// `named` accepted: the region rule an editor names from a line of the page in view (its element, a
    /// selector such as `div.photo_caption`, its action, and what the front end measured of it: pages,
    /// an example), when mining proposed none there. An element the draft has a rule of is decided as
    /// [`Self::decide_region`] decides it. One step to undo, which takes a rule she named away again.
    pub fn name_region(&mut self, named: RegionRule) -> Result<Change, String> {
        let (element, action) = (named.element.as_str(), named.action);
        if !crate::rules::region::is_selector(element) {
            return Err(format!(
                "{element:?} names no element: a region is a tag and an id or one class (div#comments, ul.related)"
            ));
        }
        if self.region(element).is_some() {
            return Ok(self.decide_region(element, Some(Status::Accepted), Some(action)));
        }
        Ok(self.step_region(None, Some(RegionRule { status: Status::Accepted, ..named })))
    }

    /// A region step from `before` to `after`, made and recorded.
    fn step_region(&mut self, before: Option<RegionRule>, after: Option<RegionRule>) -> Change {
        let step = Step::Region { before, after };
        let change = self.apply_region(&step);
        self.history.record(step);
        change
    }

    /// Puts a region step's `after` decision in place (undo applies the inverse step).
    pub(super) fn apply_region(&mut self, step: &Step) -> Change {
        let Step::Region { before, after } = step else { return Change::default() };
        let Some(element) = after.as_ref().or(before.as_ref()).map(|r| r.element.clone()) else {
            return Change::default();
        };
        let at = self.header.regions.iter().position(|r| r.element == element);
        match (after, at) {
            (Some(after), Some(i)) => {
                let r = &mut self.header.regions[i];
                (r.status, r.action) = (after.status, after.action);
            }
            // a new mining dropped it meanwhile (or the editor named it): the decision is taken as made
            (Some(after), None) => self.header.regions.push(after.clone()),
            // (had a new mining found it since, the next mining proposes it again)
            (None, Some(i)) => {
                self.header.regions.remove(i);
            }
            (None, None) => {}
        }
        self.refresh_dirty();
        Change { rules: vec![format!("{}{element}", crate::rules::region::REGION_PREFIX)], ..Change::default() }
    }

    /// The decided region rules, sorted: what [`super::Decided`] compares to tell unsaved work.
    pub(super) fn region_decisions(&self) -> Vec<RegionDecision> {
        let mut out: Vec<RegionDecision> = self
            .header
            .regions
            .iter()
            .filter(|r| r.is_decided())
            .map(|r| (r.element.clone(), r.status, r.action))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}

#[cfg(test)]
mod tests;
