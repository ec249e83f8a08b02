//! What a draft's rules file is made of, taken without making it: the mining (shared), the settings, the
//! cutoff, the patterns and the decisions. Taking one costs what the decisions are; making the rules file
//! from it reads every mined string, which a front end does off its UI thread.

use std::collections::HashSet;
use std::sync::Arc;

use crate::cutoff::CutoffBin;
use crate::mining::Mining;
use crate::mutable::{MutablePattern, MutableSet};
use crate::rules::{Cutoff, Rule, RulesFile};

use super::Draft;

/// A draft's rules file, not made yet (see [`Draft::snapshot`]).
#[derive(Debug, Clone)]
pub struct Snapshot {
    mining: Arc<Mining>,
    /// The rules file's settings, without its rules.
    header: Box<RulesFile>,
    cutoff: CutoffBin,
    patterns: Vec<MutablePattern>,
    /// The decided rules, by id.
    decided: Vec<Rule>,
    /// Decided rules the mining did not find, annexed among its strings (see [`Draft::annex_decided`]).
    annexed: HashSet<String>,
}

impl Snapshot {
    /// The rules file: what [`Draft::rules_file`] makes of the draft the snapshot was taken of.
    pub fn rules_file(&self) -> RulesFile {
        let previous = RulesFile {
            cutoff: Cutoff { auto: self.mining.auto_cutoff, chosen: self.cutoff },
            mutable: self.patterns.clone(),
            rules: self.decided.clone(),
            ..(*self.header).clone()
        };
        let mut file = crate::merge::from_mining(&self.mining, self.header.mining, Some(&previous));
        file.mutable = self.patterns.clone();
        if self.patterns != self.mining.patterns {
            rematch(&mut file, &self.mining.patterns);
        }
        let decided: std::collections::HashMap<&str, &Rule> = self.decided.iter().map(|r| (r.id.as_str(), r)).collect();
        for r in &mut file.rules {
            if let Some(d) = decided.get(r.id.as_str()) {
                // annexed among the strings, not mined: stale as it was
                r.stale = if self.annexed.contains(&r.id) { d.stale } else { r.stale || d.stale };
            }
        }
        // a rule annexed as decided and set back to pending is no rule: no mining found it
        file.rules.retain(|r| !self.annexed.contains(&r.id) || decided.contains_key(r.id.as_str()));
        file
    }

    /// Whether both make the same rules file (the same mining, settings, cutoff, patterns and decisions).
    pub fn same(&self, other: &Snapshot) -> bool {
        Arc::ptr_eq(&self.mining, &other.mining)
            && self.cutoff == other.cutoff
            && self.patterns == other.patterns
            && self.decided == other.decided
            && self.annexed == other.annexed
            && self.header == other.header
    }
}

/// A pattern edit the mining has not caught up with yet: each rule made from its tokens under the
/// mining's patterns (`mined`) is made again under the file's, so the rules as they stand match with the
/// new patterns (a rule of `«month»` matches what the edited pattern matches). The re-mine the edit
/// asks for finds the strings again; until then, this is what the edit does to the rules. A rule whose
/// regex was written by hand, or that cannot be made again, stays as it is.
fn rematch(file: &mut RulesFile, mined: &[MutablePattern]) {
    let (Ok(before), Ok(after)) = (MutableSet::new(mined.to_vec()), MutableSet::new(file.mutable.clone())) else {
        return;
    };
    let tokenizer = file.tokenizer;
    for rule in &mut file.rules {
        if rule.tokens.is_empty() || !rule.is_synthesized(tokenizer, &before) {
            continue;
        }
        if let Ok(regex) = crate::synthesis::synthesize(&rule.symbols(), tokenizer, &after) {
            rule.regex = regex;
        }
    }
}

impl Snapshot {
    /// The snapshot with each decision of `step` taken (`after`; `None`: undecided, as mined), as
    /// [`Draft::snapshot`] would be after the draft took them.
    pub(super) fn decided_as(mut self, step: &[super::history::Decision], draft: &Draft) -> Snapshot {
        let ids: HashSet<&str> = step.iter().map(|d| d.id.as_str()).collect();
        // a decided rule the mining lacks the draft annexes among its strings (see `Draft::annex_decided`)
        let annex = step.iter().filter(|d| d.after.is_some() && !draft.ready.index.contains_key(&d.id));
        self.annexed.extend(annex.map(|d| d.id.clone()));
        self.decided.retain(|r| !ids.contains(r.id.as_str()));
        self.decided.extend(step.iter().filter_map(|d| d.after.clone()));
        self.decided.sort_by(|a, b| a.id.cmp(&b.id));
        self
    }

    /// The snapshot with the chosen cutoff at `cutoff`.
    pub(super) fn cut_at(mut self, cutoff: CutoffBin) -> Snapshot {
        self.cutoff = cutoff;
        self
    }

    /// The snapshot with a cleaning stage on or off.
    pub(super) fn staged(mut self, stage: crate::clean_settings::Stage, on: bool) -> Snapshot {
        self.header.set_stage(stage, on);
        self
    }

    /// The snapshot with other mutable patterns.
    pub(super) fn patterned(mut self, patterns: Vec<MutablePattern>) -> Snapshot {
        self.patterns = patterns;
        self
    }
}

impl Draft {
    /// The draft's rules file, not made yet: cheap to take after every action.
    pub fn snapshot(&self) -> Snapshot {
        let mut decided: Vec<Rule> = self.decisions.values().cloned().collect();
        decided.sort_by(|a, b| a.id.cmp(&b.id));
        let from = self.editor_from.min(self.mining.strings.len());
        Snapshot {
            mining: Arc::clone(&self.mining),
            header: Box::new(self.header.clone()),
            cutoff: self.cutoff,
            patterns: self.patterns.clone(),
            decided,
            annexed: self.mining.strings[from..].iter().map(|s| s.id.clone()).collect(),
        }
    }
}
