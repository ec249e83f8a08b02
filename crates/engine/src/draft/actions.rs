//! The editor's actions on a draft, each one undoable step returning what it changed.

use foldhash::{HashMap, HashMapExt};

use crate::automatic::automatic_rules;
use crate::clean_settings::Stage as CleanStage;
use crate::cutoff::CutoffBin;
use crate::mutable::MutablePattern;
use crate::rules::{Action as RuleAction, Rule, Status};
use crate::settings::Settings;

use super::history::{Decision, Step, Trimmed};
use super::{Change, Draft, default_status};

/// What a trim takes: its decisions, the candidate's id, its trim before and after, the rule it makes.
pub(super) struct TrimStep {
    pub decisions: Vec<Decision>,
    pub id: String,
    pub before: Option<Trimmed>,
    pub after: Trimmed,
    pub rule: Rule,
}

impl Draft {
    /// Sets status and action of strings (indices into `mining.strings`), one step to undo.
    pub fn decide(&mut self, strings: &[usize], status: Option<Status>, action: Option<RuleAction>) -> Change {
        let step = self.decision_step(strings, status, action);
        if step.is_empty() {
            return Change::default();
        }
        let change = self.apply_decisions(&step);
        self.history.record(Step::Decisions(step));
        change
    }

    /// The decisions [`Draft::decide`] would take, without taking them.
    pub(super) fn decision_step(
        &self,
        strings: &[usize],
        status: Option<Status>,
        action: Option<RuleAction>,
    ) -> Vec<Decision> {
        let mut step = Vec::new();
        for &i in strings {
            let s = &self.mining.strings[i];
            let before = self.decisions.get(&s.id).cloned();
            let mut rule =
                before.clone().unwrap_or_else(|| Rule { status: default_status(s), ..self.ready.rules[i].clone() });
            let was = (rule.status, rule.action);
            if let Some(st) = status {
                rule.status = st;
            }
            if let Some(a) = action {
                rule.action = a;
            }
            if (rule.status, rule.action) == was {
                continue;
            }
            let after = (rule.status != default_status(s) || rule.action != RuleAction::Remove).then_some(rule);
            step.push(Decision { id: s.id.clone(), before, after });
        }
        step
    }

    /// Trims candidate `i` by one more token at its start (`front`) or end: the trimmed string becomes an
    /// accepted rule with the candidate's action, and the candidate (or its earlier trim) gives way to it,
    /// rejected. One step; returns the change, the trimmed text and on how many documents it matches.
    pub fn trim(&mut self, i: usize, front: bool) -> Result<(Change, String, usize), String> {
        let TrimStep { decisions: step, id, before, after, rule: trimmed } = self.trim_step(i, front)?;
        let docs = trimmed.df as usize;
        let text = trimmed.tokens.join(" ");
        let change = self.apply_decisions(&step);
        self.set_trim(&id, Some(after.clone()));
        self.history.record(Step::Trim { decisions: step, id, before, after: Some(after) });
        Ok((change, text, docs))
    }

    /// `rule` with its statistics over the source, as a mined string has them: the list shows an editor's
    /// rule by them (a trim's string over the whole source, not the string it was trimmed from).
    fn with_statistics(&self, rule: Rule) -> Rule {
        let tokenizer = self.mining.tokenizer;
        let c = crate::editing::counted(&rule.symbols(), &self.corpus.docs, tokenizer, &self.ready.mutable);
        let bin = crate::cutoff::bin_of(c.df, self.mining.documents as u64);
        let example = if c.example.is_empty() { rule.example.clone() } else { c.example };
        Rule { tf: c.tf, df: c.df, coverage: c.coverage, bin, example, ..rule }
    }

    /// What [`Draft::trim`] would take, without taking it.
    pub(super) fn trim_step(&self, i: usize, front: bool) -> Result<TrimStep, String> {
        let s = &self.mining.strings[i];
        let original = self.decisions.get(&s.id).cloned().unwrap_or_else(|| self.ready.rules[i].clone());
        // a trim whose rule another step dropped (a reset) is no trim any more
        let earlier = self.trims.get(&s.id).filter(|t| self.decisions.contains_key(&t.rule)).cloned();
        let (f, b) = earlier.as_ref().map_or((0, 0), |t| (t.front, t.back));
        let (f, b) = if front { (f + 1, b) } else { (f, b + 1) };
        let tokenizer = self.mining.tokenizer;
        let trimmed =
            crate::editing::trim(&original, f, b, tokenizer, &self.ready.mutable).map_err(|e| e.to_string())?;
        // her rule, as a marked span is (its statistics do not make it a mined string's)
        let trimmed =
            self.with_statistics(Rule { action: original.action, status: Status::Accepted, editor: true, ..trimmed });
        let mut step = Vec::new();
        let id = s.id.clone();
        let before = self.decisions.get(&id).cloned();
        let rejected = Rule { status: Status::Rejected, ..original };
        if before.as_ref().map(|r| r.status) != Some(Status::Rejected) {
            step.push(Decision { id: id.clone(), before, after: Some(rejected) });
        }
        if let Some(earlier) = &earlier {
            step.push(Decision {
                id: earlier.rule.clone(),
                before: self.decisions.get(&earlier.rule).cloned(),
                after: None,
            });
        }
        step.push(Decision {
            id: trimmed.id.clone(),
            before: self.decisions.get(&trimmed.id).cloned(),
            after: Some(trimmed.clone()),
        });
        let after = Trimmed { front: f, back: b, rule: trimmed.id.clone() };
        Ok(TrimStep { decisions: step, id, before: earlier, after, rule: trimmed })
    }

    fn set_trim(&mut self, id: &str, trim: Option<Trimmed>) {
        match trim {
            Some(t) => self.trims.insert(id.to_string(), t),
            None => self.trims.remove(id),
        };
    }

    /// Takes a rule with a hand-written regex (checked by the caller: compiled within the cleaner's
    /// budget), accepted. One step.
    pub fn set_regex(&mut self, rule: Rule) -> Change {
        let step = self.rule_step(rule);
        let change = self.apply_decisions(&step);
        self.history.record(Step::Decisions(step));
        change
    }

    /// The decision that puts `rule` in place of the rule of its id (or adds it).
    pub(super) fn rule_step(&self, rule: Rule) -> Vec<Decision> {
        let id = rule.id.clone();
        vec![Decision { id: id.clone(), before: self.decisions.get(&id).cloned(), after: Some(rule) }]
    }

    /// Makes an accepted rule of `doc[start..end]` (tokens generalized by the mutable patterns, as mined
    /// strings are) with `action`: `keep` protects that text from every rule and stage, `remove` marks it
    /// as template. One step; returns the change and the rule's id.
    pub fn mark_span(
        &mut self,
        doc: &str,
        start: usize,
        end: usize,
        action: RuleAction,
    ) -> Result<(Change, String), String> {
        let rule = self.if_marked(doc, start, end, action)?;
        let id = rule.id.clone();
        let step = self.rule_step(rule);
        let change = self.apply_decisions(&step);
        self.history.record(Step::Decisions(step));
        Ok((change, id))
    }

    /// Back to the automatic rules, as `chaff mine` writes them for this mining: every decision is dropped
    /// and the suggested frame cuts are taken again. One step.
    pub fn reset_to_automatic(&mut self) -> Change {
        let step = self.reset_step();
        if step.is_empty() {
            return Change::default();
        }
        let change = self.apply_decisions(&step);
        self.history.record(Step::Decisions(step));
        change
    }

    /// The decisions [`Draft::reset_to_automatic`] would take, without taking them.
    pub(super) fn reset_step(&self) -> Vec<Decision> {
        // the strings mined, without the decided rules annexed to them: no automatic rule judges those
        let from = self.editor_from.min(self.mining.strings.len());
        let mut mined = std::borrow::Cow::Borrowed(&*self.mining);
        if from < self.mining.strings.len() {
            mined.to_mut().strings.truncate(from);
        }
        let auto = automatic_rules(&self.corpus, &mined, self.header.mining, None, &Settings::default())
            .map(|f| f.rules)
            .unwrap_or_default();
        let mut wanted: HashMap<String, Rule> = HashMap::new();
        for mut r in auto {
            let default = self.ready.index.get(&r.id).map(|&i| default_status(&self.mining.strings[i]));
            if default == Some(Status::Rejected) {
                r.status = Status::Rejected;
            }
            if r.action != RuleAction::Remove || Some(r.status) != default {
                wanted.insert(r.id.clone(), r);
            }
        }
        let mut ids: Vec<String> = self.decisions.keys().chain(wanted.keys()).cloned().collect();
        ids.sort();
        ids.dedup();
        ids.into_iter()
            .filter_map(|id| {
                let before = self.decisions.get(&id).cloned();
                let after = wanted.remove(&id);
                let same =
                    before.as_ref().map(|r| (r.status, r.action)) == after.as_ref().map(|r| (r.status, r.action));
                (!same).then_some(Decision { id, before, after })
            })
            .collect()
    }

    /// Sets each rule's decision to `after` (`None`: undecided, as mined).
    fn apply_decisions(&mut self, step: &[Decision]) -> Change {
        for d in step {
            match &d.after {
                Some(rule) => self.decisions.insert(d.id.clone(), rule.clone()),
                None => self.decisions.remove(&d.id),
            };
        }
        self.annex_decided();
        self.refresh_dirty();
        Change::rules(step.iter().map(|d| d.id.clone()))
    }

    /// Turns a cleaning stage on or off for this source (saved in the rules file's `[clean] off`). One
    /// step.
    pub fn set_stage(&mut self, stage: CleanStage, on: bool) -> Change {
        if self.stage_on(stage) == on {
            return Change::default();
        }
        self.history.record(Step::Stage { stage, on });
        self.switch_stage(stage, on)
    }

    fn switch_stage(&mut self, stage: CleanStage, on: bool) -> Change {
        self.header.set_stage(stage, on);
        self.refresh_dirty();
        Change { stages: true, ..Change::default() }
    }

    /// Moves the chosen cutoff (clamped to the mined range). One step, if it moved.
    pub fn set_cutoff(&mut self, c: CutoffBin) -> Change {
        let from = self.cutoff;
        let change = self.move_cutoff(c);
        if change.cutoff {
            self.history.record(Step::Cutoff { from, to: self.cutoff });
        }
        change
    }

    fn move_cutoff(&mut self, c: CutoffBin) -> Change {
        let c = self.clamp_cutoff(c);
        if c == self.cutoff {
            return Change::default();
        }
        self.cutoff = c;
        self.refresh_dirty();
        Change { cutoff: true, ..Change::default() }
    }

    /// Edits the mutable patterns (the caller mines again: see [`Change::patterns`]). One step.
    pub fn set_patterns(&mut self, patterns: Vec<MutablePattern>) -> Change {
        if patterns != self.patterns {
            self.history.record(Step::Patterns { from: self.patterns.clone(), to: patterns.clone(), remined: None });
        }
        self.put_patterns(patterns)
    }

    fn put_patterns(&mut self, patterns: Vec<MutablePattern>) -> Change {
        self.patterns = patterns;
        self.refresh_dirty();
        Change { patterns: true, ..Change::default() }
    }

    /// Sets saved decisions back or again (see [`super::history::Remining`]), each only where the saved
    /// state still holds what the change found: a save since has the last word.
    fn put_saved(&mut self, changes: &[super::history::SavedChange]) {
        for c in changes {
            if self.saved.rules.get(&c.id).copied() != c.before {
                continue;
            }
            match c.after {
                Some(d) => self.saved.rules.insert(c.id.clone(), d),
                None => self.saved.rules.remove(&c.id),
            };
        }
        self.refresh_dirty();
    }

    /// Takes back the last step: what it was (as taken, not its inverse: "the cutoff move 43% → 54%"
    /// undone leaves 43%) and what changed, or `None` when there is none.
    pub fn undo(&mut self) -> Option<(String, Change)> {
        let inverse = self.history.undo()?;
        let what = self.history.undone().map(Step::describe).unwrap_or_default();
        Some((what, self.apply_step(&inverse)))
    }

    /// Takes the last undone step again: what it was and what changed, or `None` when there is none.
    pub fn redo(&mut self) -> Option<(String, Change)> {
        let step = self.history.redo()?;
        Some((step.describe(), self.apply_step(&step)))
    }

    pub(super) fn apply_step(&mut self, step: &Step) -> Change {
        match step {
            Step::Decisions(ds) => self.apply_decisions(ds),
            Step::Cutoff { to, .. } => self.move_cutoff(*to),
            Step::Stage { stage, on } => self.switch_stage(*stage, *on),
            Step::Patterns { to, remined, .. } => {
                let mut change = self.put_patterns(to.clone());
                if let Some(remined) = remined {
                    // the decisions are put back as they were with these patterns at once, and the mining
                    // they ask for suggests nothing over them (see `Draft::reconcile`)
                    self.put_saved(&remined.saved);
                    change.rules = self.apply_decisions(&remined.decisions).rules;
                    self.restoring = Some(to.clone());
                }
                change
            }
            Step::Verified { id, after, .. } => self.put_verified(id, after.as_ref()),
            Step::Region { .. } => self.apply_region(step),
            Step::Trim { decisions, id, after, .. } => {
                let change = self.apply_decisions(decisions);
                self.set_trim(id, after.clone());
                change
            }
        }
    }
}
