//! Undo and redo of an editor's decisions and cutoff moves.
//!
//! Each user action that changes the rules is one step (a bulk accept of forty candidates is one step, as
//! the editor made it with one key); a new action after undoing drops what could have been redone, as
//! editors do. A pattern edit is a step too: undoing it puts the patterns back and mines again.

use crate::clean_settings::Stage;
use crate::cutoff::CutoffBin;
use crate::mutable::MutablePattern;
use crate::rules::{Action, Rule, Status};
use crate::verified::VerifiedPage;

/// At most this many steps are kept; the oldest go first.
const LIMIT: usize = 1000;

/// One rule's decision before and after a step: `None` is the rule as mined, undecided.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub id: String,
    pub before: Option<Rule>,
    pub after: Option<Rule>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Decisions(Vec<Decision>),
    Cutoff {
        from: CutoffBin,
        to: CutoffBin,
    },
    /// A cleaning stage turned on or off for the source.
    Stage {
        stage: Stage,
        on: bool,
    },
    /// The mutable patterns edited (a pattern added, changed or deleted), and what taking in the mining
    /// they asked for changed (`None` until it came).
    Patterns {
        from: Vec<MutablePattern>,
        to: Vec<MutablePattern>,
        remined: Option<Remining>,
    },
    /// A page marked verified (`after`), or unmarked (`None`), and its verification before.
    Verified {
        id: String,
        before: Option<VerifiedPage>,
        after: Option<VerifiedPage>,
    },
    /// A candidate trimmed: the decisions it took, and the candidate's trim before and after (`None`:
    /// untrimmed), so that undoing it takes back the token count too.
    Trim {
        decisions: Vec<Decision>,
        id: String,
        before: Option<Trimmed>,
        after: Option<Trimmed>,
    },
    /// A region rule's decision (status and action) before and after; `None` before: the editor named
    /// the element herself (undo takes the rule away), `None` after: that taken back.
    Region {
        before: Option<crate::rules::region::RegionRule>,
        after: Option<crate::rules::region::RegionRule>,
    },
}

/// What taking in the mining of a pattern edit changed: decisions passed to twins, and the automatic
/// rules' suggestions for strings new to it (which join the saved state). Undoing the edit takes them back,
/// so the rules are as they were before it, not as a mining with the old patterns would suggest afresh.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Remining {
    pub decisions: Vec<Decision>,
    pub saved: Vec<SavedChange>,
}

impl Remining {
    fn inverse(&self) -> Remining {
        Remining {
            decisions: inverse_decisions(&self.decisions),
            saved: self
                .saved
                .iter()
                .map(|c| SavedChange { id: c.id.clone(), before: c.after, after: c.before })
                .collect(),
        }
    }
}

/// A rule's decision as the saved state holds it, before and after (`None`: not there).
#[derive(Debug, Clone, PartialEq)]
pub struct SavedChange {
    pub id: String,
    pub before: Option<(Status, Action)>,
    pub after: Option<(Status, Action)>,
}

/// How a candidate is trimmed: tokens dropped from its start and its end, and the id of the rule made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trimmed {
    pub front: usize,
    pub back: usize,
    pub rule: String,
}

impl Decision {
    /// What the decision did, naming its rule: "accepting `read more`", "rejecting `of the`".
    pub fn describe(&self) -> String {
        let Some(rule) = self.after.as_ref().or(self.before.as_ref()) else { return "a decision".to_string() };
        let text = quoted(rule);
        match &self.after {
            None => format!("leaving {text} undecided"),
            Some(r) => match (r.status, r.action) {
                (Status::Accepted, Action::Remove) => format!("accepting {text}"),
                (Status::Accepted, a) => format!("accepting {text} as {}", a.name()),
                (Status::Rejected, _) => format!("rejecting {text}"),
                (Status::Pending, Action::Remove) => format!("setting {text} back to pending"),
                (Status::Pending, a) => format!("giving {text} the action {}", a.name()),
            },
        }
    }
}

/// A rule as a message names it: its tokens (else its regex), in backticks, cut short.
fn quoted(rule: &Rule) -> String {
    const MAX: usize = 28;
    let text = if rule.tokens.is_empty() { rule.regex.clone() } else { rule.tokens.join(" ") };
    let text: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    if text.chars().count() <= MAX {
        return format!("`{text}`");
    }
    let cut: String = text.chars().take(MAX - 1).collect();
    format!("`{cut}…`")
}

fn inverse_decisions(ds: &[Decision]) -> Vec<Decision> {
    ds.iter().map(|d| Decision { id: d.id.clone(), before: d.after.clone(), after: d.before.clone() }).collect()
}

impl Step {
    /// The step that takes this one back.
    pub fn inverse(&self) -> Step {
        match self {
            Step::Decisions(ds) => Step::Decisions(inverse_decisions(ds)),
            Step::Trim { decisions, id, before, after } => Step::Trim {
                decisions: inverse_decisions(decisions),
                id: id.clone(),
                before: after.clone(),
                after: before.clone(),
            },
            Step::Cutoff { from, to } => Step::Cutoff { from: *to, to: *from },
            Step::Region { before, after } => Step::Region { before: after.clone(), after: before.clone() },
            Step::Stage { stage, on } => Step::Stage { stage: *stage, on: !on },
            Step::Patterns { from, to, remined } => {
                Step::Patterns { from: to.clone(), to: from.clone(), remined: remined.as_ref().map(Remining::inverse) }
            }
            Step::Verified { id, before, after } => {
                Step::Verified { id: id.clone(), before: after.clone(), after: before.clone() }
            }
        }
    }

    /// What the step did, for the status bar.
    pub fn describe(&self) -> String {
        match self {
            Step::Decisions(ds) if ds.len() == 1 => ds[0].describe(),
            Step::Decisions(ds) => format!("{} decisions", ds.len()),
            Step::Cutoff { from, to } => format!("the cutoff move {from}% → {to}%"),
            Step::Stage { stage, on } => format!("turning stage {stage} {}", if *on { "on" } else { "off" }),
            Step::Trim { .. } => "a trim".to_string(),
            Step::Region { before: None, after: Some(r) } => format!("naming region {}", r.element),
            Step::Region { after: Some(r), .. } | Step::Region { before: Some(r), .. } => {
                format!("a decision on region {}", r.element)
            }
            Step::Region { .. } => "a decision on a region".to_string(),
            Step::Verified { id, after: Some(_), .. } => format!("marking page {id} verified"),
            Step::Verified { id, after: None, .. } => format!("unmarking page {id} as verified"),
            Step::Patterns { from, to, .. } => {
                let names = |ps: &[MutablePattern]| ps.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
                let (was, now) = (names(from), names(to));
                let added: Vec<&String> = now.iter().filter(|n| !was.contains(n)).collect();
                let gone: Vec<&String> = was.iter().filter(|n| !now.contains(n)).collect();
                match (added.as_slice(), gone.as_slice()) {
                    ([], [g]) => format!("deleting pattern `{g}`"),
                    ([a], []) => format!("adding pattern `{a}`"),
                    _ => "a pattern edit".to_string(),
                }
            }
        }
    }
}

#[derive(Debug, Default)]
pub struct History {
    undo: Vec<Step>,
    redo: Vec<Step>,
}

impl History {
    /// Records a step the editor took.
    pub fn record(&mut self, step: Step) {
        if self.undo.len() == LIMIT {
            self.undo.remove(0);
        }
        self.undo.push(step);
        self.redo.clear();
    }

    /// The step to apply to undo the last one (its inverse), moved to the redo stack. Its
    /// [`Step::describe`] is of the inverse: say what was undone with the step itself (see
    /// [`History::undone`]).
    pub fn undo(&mut self) -> Option<Step> {
        let step = self.undo.pop()?;
        let inverse = step.inverse();
        self.redo.push(step);
        Some(inverse)
    }

    /// The step the last [`History::undo`] took back, as the editor took it.
    pub fn undone(&self) -> Option<&Step> {
        self.redo.last()
    }

    /// The step to apply again, moved back to the undo stack.
    pub fn redo(&mut self) -> Option<Step> {
        let step = self.redo.pop()?;
        self.undo.push(step.clone());
        Some(step)
    }

    /// The last step taken (what `u` would take back).
    pub fn last(&self) -> Option<&Step> {
        self.undo.last()
    }

    pub(super) fn last_mut(&mut self) -> Option<&mut Step> {
        self.undo.last_mut()
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_gives_the_inverse_and_a_new_step_drops_redo() {
        let mut h = History::default();
        h.record(Step::Cutoff { from: 40, to: 45 });
        h.record(Step::Cutoff { from: 45, to: 50 });
        assert_eq!(h.undo(), Some(Step::Cutoff { from: 50, to: 45 }));
        assert_eq!(h.redo(), Some(Step::Cutoff { from: 45, to: 50 }));
        assert_eq!(h.undo(), Some(Step::Cutoff { from: 50, to: 45 }));
        h.record(Step::Cutoff { from: 45, to: 41 });
        assert_eq!(h.redo(), None, "a new step after undoing drops the redo");
        assert_eq!(h.undo(), Some(Step::Cutoff { from: 41, to: 45 }));
        assert_eq!(h.undo(), Some(Step::Cutoff { from: 45, to: 40 }));
        assert_eq!(h.undo(), None);
    }
}
