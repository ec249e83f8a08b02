//! The state of one source being tuned: its corpus and mining, the editor's decisions, the chosen cutoff,
//! the mutable patterns, and the panes' positions. Changing a decision or the cutoff updates the list and
//! the preview at once (the cleaners are rebuilt; a document is cleaned in well under a frame).
//!
//! The full [`Mining`] stays in memory, so the cutoff can move anywhere down to `min_kept_bin`; the rules
//! file to save is built from it and the decisions.

use foldhash::{HashMap, HashMapExt};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use crate::clean_settings::{Stage as CleanStage, Stages};
use crate::cleaning::Cleaner;
use crate::corpus::Corpus;
use crate::cutoff::CutoffBin;
use crate::lines;
use crate::mining::{MinedString, Mining, MiningConfig, Stage};
use crate::mutable::MutablePattern;
use crate::rules::{Action as RuleAction, Cutoff, Rule, RulesFile, Status};

use super::candidates::CandidateList;
use super::document::{Preview, line_of};
use super::history::{Decision, History, Step, Trimmed};
use super::journal::{Entry, Journal, Replay};
use super::miner::{Mined, Prepare};
use super::ready::Ready;
use super::source::{Idioms, Opened, SourceSpec};
use super::watch::Watch;
use crate::automatic::{AutoOptions, automatic_rules};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pane {
    #[default]
    Candidates,
    Patterns,
    Preview,
}

impl Pane {
    pub fn next(self) -> Pane {
        match self {
            Pane::Candidates => Pane::Patterns,
            Pane::Patterns => Pane::Preview,
            Pane::Preview => Pane::Candidates,
        }
    }

    pub fn prev(self) -> Pane {
        self.next().next()
    }
}

/// A mining running in the background for this source.
#[derive(Debug, Clone)]
pub struct Job {
    pub generation: u64,
    pub stage: Option<Stage>,
    pub started: Instant,
    /// Why: "pattern edit", "corpus changed", …
    pub reason: String,
}

pub struct Session {
    pub spec: SourceSpec,
    pub corpus: Arc<Corpus>,
    pub mining: Arc<Mining>,
    /// Texts, rules, index and matcher of the mining's strings.
    pub ready: Ready,
    pub idioms: Idioms,
    /// The rules file's settings (merge gap, line boundary, mining parameters…) without its rules.
    pub header: RulesFile,
    /// Rules that are not strings of the whole source's mining — those of template clusters and the
    /// single-word line rules (`crate::lines`): listed with the candidates, and added again to every
    /// new mining (line rules counted again on the new corpus).
    pub extra_strings: Vec<MinedString>,
    /// Rules whose status or action differs from the default (pending; rejected for idioms), by id,
    /// with their data: a decided string that is not mined again stays in the rules file, stale.
    pub decisions: HashMap<String, Rule>,
    pub cutoff: CutoffBin,
    /// The mutable patterns as the editor wants them (the mining may still be catching up).
    pub patterns: Vec<MutablePattern>,
    /// Whether the editor's state differs from the rules file as last loaded or saved (see [`Decided`]);
    /// kept up to date by every change.
    pub dirty: bool,
    /// The editor's state as last loaded or saved.
    pub saved: Decided,
    pub focus: Pane,
    pub list: CandidateList,
    pub pattern_selected: usize,
    pub preview: Preview,
    pub job: Option<Job>,
    pub journal: Journal,
    /// Keys of the rules file as opened that chaff does not read, with file, line and column: shown once
    /// the source opens.
    pub rules_warnings: Vec<String>,
    /// The editor's steps, for undo and redo.
    pub history: History,
    /// The rules file against the corpus as opened (see [`crate::drift`]): a newer corpus shows which
    /// rules match less than when they were mined.
    pub drift: Option<crate::drift::Drift>,
    /// The rules file's text as last loaded or saved here: a watcher event with the same text is ours.
    pub disk_text: Option<String>,
    pub watch: Option<Watch>,
    /// The rules file changed on disk during a popup: ask when it closes.
    pub pending_conflict: bool,
    /// Frame cuts suggested when the source was opened without a rules file.
    pub suggested_cuts: usize,
    /// How each trimmed candidate is trimmed, by its id (undo and redo restore it with the decisions).
    pub trims: HashMap<String, Trimmed>,
    /// A warning asked for confirmation (`x` on an export with no accepted rule, `w` on another source's
    /// rules file): the next key, if it is this action again, goes ahead.
    pub armed: Option<crate::tui::action::Action>,
    /// The rules file's `source` when it is another source's (see [`Opened::foreign_source`]), and whether
    /// the editor has confirmed saving over it.
    pub foreign_source: Option<String>,
    pub foreign_confirmed: bool,
    /// Counts the changes to the editor's state (decisions, cutoff, patterns, stages, a save): a status
    /// message older than the last change is stale.
    pub revision: u64,
    /// Visible rows of the candidate table and lines of the preview, and the preview's width (from the
    /// layout, set on resize).
    pub page: usize,
    pub preview_height: usize,
    pub preview_width: usize,
}

/// Puts the extra strings (cluster and line rules) in a mining of the whole source: as the rules file
/// holds them, a string mined in a cluster is that cluster's rule, with the cluster's statistics, even
/// where the whole source has it too (below its cutoff).
pub(crate) fn with_extra(mining: &mut Mining, extra: &[MinedString]) {
    let at: HashMap<String, usize> = mining.strings.iter().enumerate().map(|(i, s)| (s.id.clone(), i)).collect();
    for c in extra {
        match at.get(&c.id) {
            Some(&i) => mining.strings[i] = c.clone(),
            None => mining.strings.push(c.clone()),
        }
    }
}

/// Whether a rules file's rule is one the whole source's mining does not make (see `extra_strings`).
pub(crate) fn is_extra(r: &Rule) -> bool {
    r.cluster.is_some() || lines::line_of(r).is_some()
}

/// What saving writes that is the editor's to decide: each rule's status and action where they differ
/// from the default, the chosen cutoff (`None`: the automatic one, as the rules file says it), the
/// mutable patterns. Work is unsaved when this differs from what was last loaded or saved, so undoing a
/// change (the cutoff moved back, a rule set back to pending) leaves nothing unsaved.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decided {
    pub rules: HashMap<String, (Status, RuleAction)>,
    pub cutoff: Option<CutoffBin>,
    pub patterns: Vec<MutablePattern>,
    /// The cleaning stages that are on.
    pub stages: Option<Stages>,
}

fn default_status(s: &MinedString) -> Status {
    if s.idiom { Status::Rejected } else { Status::Pending }
}

impl Session {
    /// A session on a freshly mined source; decisions, cutoff and merge gap come from its rules file.
    /// A session on a mined source; decisions, cutoff and settings come from its rules file. `ready`:
    /// the mining prepared on the miner thread (with idioms flagged), or `None` to prepare it here.
    pub fn new(opened: Opened, mut mining: Mining, ready: Option<Ready>, journal: Journal) -> Session {
        let Opened {
            spec,
            corpus,
            previous,
            previous_text,
            config,
            params,
            idioms,
            rules_warnings,
            foreign_source,
            drift,
        } = opened;
        // A source without a rules file starts from the automatic rules, as `chaff mine` writes them.
        let auto = match &previous {
            Some(_) => None,
            None => automatic_rules(&corpus, &mining, params, None, &AutoOptions::default()).ok(),
        };
        let header = match (&previous, &auto) {
            (Some(p), _) => RulesFile { rules: Vec::new(), ..p.clone() },
            (None, Some(a)) => RulesFile { rules: Vec::new(), ..a.clone() },
            (None, None) => crate::merge::from_mining(&mining, params, None),
        };
        let extra_strings: Vec<MinedString> = previous
            .as_ref()
            .or(auto.as_ref())
            .map(|f| f.rules.iter().filter(|r| is_extra(r)).map(Rule::to_mined).collect())
            .unwrap_or_default();
        let ready = match ready {
            Some(ready) if extra_strings.is_empty() => ready,
            _ => {
                idioms.flag(&mut mining);
                with_extra(&mut mining, &extra_strings);
                Ready::build(&mining, header.clean_settings())
            }
        };
        let mut s = Session {
            spec,
            corpus: Arc::new(corpus),
            mining: Arc::new(mining),
            ready,
            idioms,
            header,
            decisions: HashMap::new(),
            cutoff: 0,
            patterns: config.patterns,
            dirty: false,
            saved: Decided::default(),
            focus: Pane::Candidates,
            list: CandidateList::default(),
            pattern_selected: 0,
            preview: Preview::default(),
            job: None,
            journal,
            rules_warnings,
            history: History::default(),
            drift,
            disk_text: previous_text,
            watch: None,
            pending_conflict: false,
            suggested_cuts: 0,
            trims: HashMap::new(),
            armed: None,
            foreign_source,
            foreign_confirmed: false,
            revision: 0,
            extra_strings,
            page: 10,
            preview_height: 10,
            preview_width: 40,
        };
        s.cutoff = s.mining.auto_cutoff;
        s.list.editor_from = s.mining.strings.len();
        match (previous, auto) {
            (Some(file), _) => s.take_file(&file),
            (None, Some(auto)) => s.suggested_cuts = s.take_suggestions(auto.rules),
            (None, None) => {}
        }
        s.refresh_all();
        s.mark_saved();
        s
    }

    /// The automatic rules' suggestions for a source mined afresh, as `chaff mine` makes them: frame cuts
    /// (cut-before / cut-after on pending candidates) and, in html mode, tagless candidates rejected. They
    /// are not unsaved work (they join the saved state). Returns how many frame cuts.
    fn take_suggestions(&mut self, auto: impl IntoIterator<Item = Rule>) -> usize {
        let mut cuts = 0;
        for mut r in auto {
            let default = self.ready.index.get(&r.id).map(|&i| default_status(&self.mining.strings[i]));
            // an idiom flagged here stays rejected whatever the suggestion
            if default == Some(Status::Rejected) {
                r.status = Status::Rejected;
            }
            if r.action != RuleAction::Remove || Some(r.status) != default {
                cuts += usize::from(r.action != RuleAction::Remove);
                self.saved.rules.entry(r.id.clone()).or_insert((r.status, r.action));
                self.decisions.entry(r.id.clone()).or_insert(r);
            }
        }
        cuts
    }

    /// What the miner thread needs to prepare a new mining for this session: with the rules file as it
    /// stands here, so the new mining gets the automatic rules `chaff mine` would make with it.
    pub fn prepare(&self) -> Prepare {
        let mut previous = self.rules_file();
        // cluster and line rules are made afresh from the new corpus and mining, as a fresh `chaff mine`
        // makes them: kept, they would keep their old statistics, or take the whole source's. The
        // editor's decisions on them are kept here, by id, like every other.
        previous.rules.retain(|r| !is_extra(r));
        Prepare { idioms: self.idioms.clone(), settings: self.header.clean_settings(), previous: Some(previous) }
    }

    /// The chosen cutoff as the rules file says it: `None` when it is the automatic one.
    fn cutoff_choice(&self) -> Option<CutoffBin> {
        (self.cutoff != self.mining.auto_cutoff).then_some(self.cutoff)
    }

    /// Whether the editor's state differs from `saved`.
    fn differs_from_saved(&self) -> bool {
        let saved = &self.saved;
        self.cutoff_choice() != saved.cutoff
            || self.patterns != saved.patterns
            || Some(self.header.clean_settings().stages) != saved.stages
            || self.decisions.len() != saved.rules.len()
            || self.decisions.iter().any(|(id, r)| saved.rules.get(id) != Some(&(r.status, r.action)))
    }

    /// Recomputes `dirty` after a change. Back at the saved state, the journal is no longer needed.
    pub fn refresh_dirty(&mut self) {
        self.revision += 1;
        self.dirty = self.differs_from_saved();
        if !self.dirty {
            self.journal.remove();
        }
    }

    /// Takes the editor's state as the one on disk (opened, saved, or reloaded).
    pub fn mark_saved(&mut self) {
        self.revision += 1;
        self.saved = Decided {
            rules: self.decisions.iter().map(|(id, r)| (id.clone(), (r.status, r.action))).collect(),
            cutoff: self.cutoff_choice(),
            patterns: self.patterns.clone(),
            stages: Some(self.header.clean_settings().stages),
        };
        self.dirty = false;
    }

    /// Takes decisions, cutoff, merge gap and parameters from a rules file (patterns are the caller's
    /// business: a change needs a re-mine).
    fn take_file(&mut self, file: &RulesFile) {
        self.decisions.clear();
        for r in &file.rules {
            let default = if r.idiom { Status::Rejected } else { Status::Pending };
            if r.status != default || r.action != RuleAction::Remove {
                self.decisions.insert(r.id.clone(), r.clone());
            }
        }
        self.refresh_decided_data();
        self.header = RulesFile { rules: Vec::new(), ..file.clone() };
        self.cutoff = if file.cutoff.chosen != file.cutoff.auto { file.cutoff.chosen } else { self.mining.auto_cutoff };
        self.cutoff = self.clamp_cutoff(self.cutoff);
    }

    /// Decided rules that were mined again take the new mining's data.
    fn refresh_decided_data(&mut self) {
        for (id, rule) in self.decisions.iter_mut() {
            if let Some(&i) = self.ready.index.get(id) {
                *rule = Rule {
                    status: rule.status,
                    action: rule.action,
                    editor: rule.editor,
                    ..self.ready.rules[i].clone()
                };
            }
        }
    }

    /// The cutoff one step down: to the highest bin below the chosen one that holds strings, so each step
    /// adds candidates (empty bins are skipped, not walked through a percent at a time).
    pub fn cutoff_step_down(&self) -> CutoffBin {
        let counts = &self.mining.histogram.counts;
        let holds = |b: CutoffBin| counts.get(b as usize).is_some_and(|&n| n > 0);
        match (0..self.cutoff).rev().find(|&b| holds(b)) {
            Some(b) => self.anchored(b),
            None => self.cutoff,
        }
    }

    /// The cutoff one step up: past the lowest bin at or above the chosen one that holds strings, so each
    /// step takes that bin's candidates away.
    pub fn cutoff_step_up(&self) -> CutoffBin {
        let counts = &self.mining.histogram.counts;
        let holds = |b: CutoffBin| counts.get(b as usize).is_some_and(|&n| n > 0);
        match (self.cutoff..=99).find(|&b| holds(b)) {
            Some(b) if b < 99 => self.anchored(((b + 1)..=99).find(|&n| holds(n)).unwrap_or(b + 1)),
            _ => 99,
        }
    }

    /// `target`, or the automatic or the saved cutoff where one of them gives the same candidates (no bin
    /// between them holds strings): a step and a step back land where the editor started, even on an
    /// empty bin, so nothing reads unsaved.
    fn anchored(&self, target: CutoffBin) -> CutoffBin {
        let counts = &self.mining.histogram.counts;
        let same =
            |a: CutoffBin| (a.min(target)..a.max(target)).all(|b| counts.get(b as usize).is_none_or(|&n| n == 0));
        [self.saved.cutoff, Some(self.mining.auto_cutoff)].into_iter().flatten().find(|&a| same(a)).unwrap_or(target)
    }

    pub fn clamp_cutoff(&self, c: CutoffBin) -> CutoffBin {
        c.clamp(self.mining.min_kept_bin.min(self.mining.auto_cutoff), 99)
    }

    /// A mined string's readable text (mutable tokens by name).
    pub fn text(&self, i: usize) -> &str {
        &self.ready.texts[i]
    }

    pub fn string(&self, i: usize) -> &MinedString {
        &self.mining.strings[i]
    }

    pub fn position(&self, id: &str) -> Option<usize> {
        self.ready.index.get(id).copied()
    }

    pub fn status(&self, i: usize) -> Status {
        let s = &self.mining.strings[i];
        self.decisions.get(&s.id).map_or_else(|| default_status(s), |r| r.status)
    }

    pub fn rule_action(&self, i: usize) -> RuleAction {
        self.decisions.get(&self.mining.strings[i].id).map_or(RuleAction::Remove, |r| r.action)
    }

    pub fn count(&self, status: Status) -> usize {
        let (a, r, p) = self.counts();
        match status {
            Status::Accepted => a,
            Status::Rejected => r,
            Status::Pending => p,
        }
    }

    /// Accepted, rejected (decided anywhere, stale ones too) and pending candidates above the cutoff.
    pub fn counts(&self) -> (usize, usize, usize) {
        let (mut a, mut r) = (0, 0);
        for rule in self.decisions.values() {
            match rule.status {
                Status::Accepted => a += 1,
                Status::Rejected => r += 1,
                Status::Pending => {}
            }
        }
        let mut p = 0;
        for s in &self.mining.strings {
            let above = s.bin >= self.cutoff;
            if !above && !s.idiom {
                continue;
            }
            match self.decisions.get(&s.id) {
                // idioms start rejected, wherever they are
                None if s.idiom => r += 1,
                None => p += 1,
                Some(d) if d.status == Status::Pending && above => p += 1,
                Some(_) => {}
            }
        }
        (a, r, p)
    }

    /// Sets status and action of strings (indices into `mining.strings`); journals each change and records
    /// them as one step to undo. Returns how many changed.
    pub fn decide(&mut self, strings: &[usize], status: Option<Status>, action: Option<RuleAction>) -> usize {
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
        let changed = step.len();
        if changed > 0 {
            self.apply_decisions(&step);
            self.history.record(Step::Decisions(step));
            if self.list.pending_only {
                // a decided rule leaves the list of what is left to decide
                self.refresh_list();
            }
        }
        changed
    }

    /// Trims candidate `i` by one more token at its start (`front`) or end: the trimmed string becomes an
    /// accepted rule with the candidate's action, and the candidate (or its earlier trim) gives way to it,
    /// rejected. One undoable step; returns the trimmed text and on how many documents it matches.
    pub fn trim_candidate(&mut self, i: usize, front: bool) -> Result<(String, usize), String> {
        let s = &self.mining.strings[i];
        let original = self.decisions.get(&s.id).cloned().unwrap_or_else(|| self.ready.rules[i].clone());
        // a trim whose rule another step dropped (a reset) is no trim any more
        let earlier = self.trims.get(&s.id).filter(|t| self.decisions.contains_key(&t.rule)).cloned();
        let (f, b) = earlier.as_ref().map_or((0, 0), |t| (t.front, t.back));
        let (f, b) = if front { (f + 1, b) } else { (f, b + 1) };
        let tokenizer = self.mining.tokenizer;
        let trimmed =
            crate::editing::trim(&original, f, b, tokenizer, &self.ready.mutable).map_err(|e| e.to_string())?;
        let trimmed = Rule { action: original.action, status: Status::Accepted, ..trimmed };
        let docs =
            crate::editing::documents_matching(&trimmed.symbols(), &self.corpus.docs, tokenizer, &self.ready.mutable);
        let text = trimmed.tokens.join(" ");
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
        let after = Some(Trimmed { front: f, back: b, rule: trimmed.id });
        self.apply_decisions(&step);
        self.set_trim(&id, after.clone());
        self.history.record(Step::Trim { decisions: step, id, before: earlier, after });
        self.refresh_list();
        Ok((text, docs))
    }

    fn set_trim(&mut self, id: &str, trim: Option<Trimmed>) {
        match trim {
            Some(t) => self.trims.insert(id.to_string(), t),
            None => self.trims.remove(id),
        };
    }

    /// Candidate `i`'s rule as the editor has it: her decision, else as mined.
    pub fn current_rule(&self, i: usize) -> Rule {
        let id = &self.mining.strings[i].id;
        self.decisions.get(id).cloned().unwrap_or_else(|| self.ready.rules[i].clone())
    }

    /// Takes a rule whose hand-written regex was checked (see [`super::regex_check`]), accepted. One
    /// undoable step.
    pub fn set_regex(&mut self, rule: Rule) {
        let id = rule.id.clone();
        let step = vec![Decision { id: id.clone(), before: self.decisions.get(&id).cloned(), after: Some(rule) }];
        self.apply_decisions(&step);
        self.history.record(Step::Decisions(step));
        self.refresh_list();
    }

    /// Back to the automatic rules, as `chaff mine` writes them for this mining: every decision the editor
    /// made is dropped and the suggested frame cuts are taken again. One undoable step; returns how many
    /// rules changed.
    pub fn reset_to_automatic(&mut self) -> usize {
        let auto = automatic_rules(&self.corpus, &self.mining, self.header.mining, None, &AutoOptions::default())
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
        let step: Vec<Decision> = ids
            .into_iter()
            .filter_map(|id| {
                let before = self.decisions.get(&id).cloned();
                let after = wanted.remove(&id);
                let same =
                    before.as_ref().map(|r| (r.status, r.action)) == after.as_ref().map(|r| (r.status, r.action));
                (!same).then_some(Decision { id, before, after })
            })
            .collect();
        let changed = step.len();
        if changed > 0 {
            self.apply_decisions(&step);
            self.history.record(Step::Decisions(step));
            self.refresh_list();
        }
        changed
    }

    /// Sets each rule's decision to `after` (`None`: undecided, as mined), journaled.
    fn apply_decisions(&mut self, step: &[Decision]) {
        for d in step {
            let journaled = match &d.after {
                Some(rule) => {
                    self.decisions.insert(d.id.clone(), rule.clone());
                    rule.clone()
                }
                None => {
                    self.decisions.remove(&d.id);
                    // undecided: the rule as mined, which the journal replays as its default
                    let Some(i) = self.position(&d.id) else { continue };
                    Rule { status: default_status(&self.mining.strings[i]), ..self.ready.rules[i].clone() }
                }
            };
            let _ = self.journal.append(&Entry::Decide { rule: journaled });
        }
        self.refresh_dirty();
        self.rebuild_cleaners();
        self.refresh_preview();
    }

    /// Takes back the editor's last step: what it was (as taken, not its inverse: "the cutoff move
    /// 43% → 54%" undone leaves 43%) and whether the patterns changed (re-mine), or `None` when there is
    /// none.
    pub fn undo(&mut self) -> Option<(String, bool)> {
        let inverse = self.history.undo()?;
        let what = self.history.undone().map(Step::describe).unwrap_or_default();
        self.apply_step(&inverse);
        Some((what, matches!(inverse, Step::Patterns { .. })))
    }

    /// Takes the last undone step again: what it was and whether the patterns changed, or `None` when
    /// there is none.
    pub fn redo(&mut self) -> Option<(String, bool)> {
        let step = self.history.redo()?;
        self.apply_step(&step);
        Some((step.describe(), matches!(step, Step::Patterns { .. })))
    }

    fn apply_step(&mut self, step: &Step) {
        match step {
            Step::Decisions(ds) => {
                self.apply_decisions(ds);
                self.refresh_list();
            }
            Step::Cutoff { to, .. } => {
                self.move_cutoff(*to);
            }
            Step::Stage { stage, on } => self.switch_stage(*stage, *on),
            Step::Patterns { to, .. } => self.put_patterns(to.clone()),
            Step::Trim { decisions, id, after, .. } => {
                self.apply_decisions(decisions);
                self.set_trim(id, after.clone());
                self.refresh_list();
            }
        }
    }

    /// Turns a cleaning stage on or off for this source (saved in the rules file's `[clean] off`); the
    /// preview shows the effect at once. An undoable step.
    pub fn set_stage(&mut self, stage: CleanStage, on: bool) {
        if self.header.clean_settings().on(stage) == on {
            return;
        }
        self.switch_stage(stage, on);
        self.history.record(Step::Stage { stage, on });
    }

    fn switch_stage(&mut self, stage: CleanStage, on: bool) {
        self.header.set_stage(stage, on);
        self.rebuild_cleaners();
        self.refresh_preview();
        self.refresh_dirty();
    }

    /// Whether a cleaning stage is on for this source.
    pub fn stage_on(&self, stage: CleanStage) -> bool {
        self.header.clean_settings().on(stage)
    }

    /// Makes an accepted rule of the shown document's `start..end` (tokens generalized by the mutable
    /// patterns, as mined strings are) with `action`: `keep` protects that text from every rule and stage,
    /// `remove` marks it as template. An undoable step; the rule's id is returned.
    pub fn rule_from_preview(&mut self, start: usize, end: usize, action: RuleAction) -> Result<String, String> {
        let text = self.document_text().to_string();
        let rule =
            crate::editing::rule_from_span(&text, start, end, action, self.mining.tokenizer, &self.ready.mutable)
                .map_err(|e| e.to_string())?;
        let id = rule.id.clone();
        let before = self.decisions.get(&id).cloned();
        let step = vec![Decision { id: id.clone(), before, after: Some(rule) }];
        self.apply_decisions(&step);
        self.history.record(Step::Decisions(step));
        self.refresh_list();
        Ok(id)
    }

    /// Moves the chosen cutoff (clamped to the mined range). Returns whether it moved.
    pub fn set_cutoff(&mut self, c: CutoffBin) -> bool {
        let from = self.cutoff;
        let moved = self.move_cutoff(c);
        if moved {
            self.history.record(Step::Cutoff { from, to: self.cutoff });
        }
        moved
    }

    /// [`Session::set_cutoff`] without recording a step (undo and redo use it).
    fn move_cutoff(&mut self, c: CutoffBin) -> bool {
        let c = self.clamp_cutoff(c);
        if c == self.cutoff {
            return false;
        }
        self.cutoff = c;
        let _ = self.journal.append(&Entry::Cutoff { chosen: c });
        self.refresh_dirty();
        self.refresh_list();
        self.refresh_preview();
        true
    }

    /// Edits the mutable patterns (the caller re-mines). An undoable step.
    pub fn set_patterns(&mut self, patterns: Vec<MutablePattern>) {
        if patterns != self.patterns {
            self.history.record(Step::Patterns { from: self.patterns.clone(), to: patterns.clone() });
        }
        self.put_patterns(patterns);
    }

    /// [`Session::set_patterns`] without recording a step (undo and redo use it).
    fn put_patterns(&mut self, patterns: Vec<MutablePattern>) {
        let _ = self.journal.append(&Entry::Patterns { patterns: patterns.clone() });
        self.patterns = patterns;
        self.pattern_selected = self.pattern_selected.min(self.patterns.len().saturating_sub(1));
        self.refresh_dirty();
    }

    /// The configuration to mine the source again with the editor's patterns.
    pub fn mining_config(&self) -> MiningConfig {
        let mut config = MiningConfig::for_tokenizer(self.mining.tokenizer);
        // the documents are of the kind opened (HTML pages as their views): the rules file keeps saying so
        config.input = self.mining.input;
        config.patterns = self.patterns.clone();
        self.header.mining.apply(&mut config);
        config
    }

    /// Takes a new mining: decisions on strings mined again are kept (by id); a cutoff left at auto
    /// follows the new auto cutoff. The automatic rules made with it replace the cluster and line rules,
    /// and their suggestions for strings new to this mining are taken as at opening.
    pub fn apply_mined(&mut self, mined: Mined) {
        let follow_auto = self.cutoff == self.mining.auto_cutoff;
        let doc_id = self.corpus.docs.get(self.preview.doc).map(|d| d.id.clone());
        let Mined { corpus, mining, ready, extra, automatic, .. } = mined;
        self.corpus = corpus;
        self.extra_strings = extra;
        let new: Vec<Rule> = automatic.into_iter().filter(|r| !self.ready.index.contains_key(&r.id)).collect();
        let old = (std::mem::replace(&mut self.mining, Arc::new(mining)), std::mem::replace(&mut self.ready, ready));
        // freeing a large mining takes milliseconds: not on the UI thread
        std::thread::spawn(move || drop(old));
        self.list.editor_from = self.mining.strings.len();
        self.adopt_twins();
        self.refresh_decided_data();
        self.cutoff = self.clamp_cutoff(if follow_auto { self.mining.auto_cutoff } else { self.cutoff });
        self.take_suggestions(new);
        self.preview.doc = doc_id
            .and_then(|id| self.corpus.position(&id))
            .unwrap_or(self.preview.doc)
            .min(self.corpus.docs.len().saturating_sub(1));
        self.list.marks.retain(|id| self.ready.index.contains_key(id));
        self.refresh_dirty();
        self.refresh_all();
    }

    /// Decided rules a new mining found under a new id (the patterns changed) pass their decision to that
    /// twin (see [`crate::merge::twin_ids`]) instead of staying behind as stale rules.
    fn adopt_twins(&mut self) {
        let (index, decisions) = (&self.ready.index, &self.decisions);
        let twins = crate::merge::twins(
            decisions.values(),
            |id| index.contains_key(id),
            |id| decisions.contains_key(id),
            self.mining.tokenizer,
            &self.ready.mutable,
        );
        for (twin, old) in twins {
            let Some(old) = self.decisions.remove(&old) else { continue };
            // a replayed journal must not bring the old id back decided
            let undecided = Rule { status: Status::Pending, action: RuleAction::Remove, ..old.clone() };
            let _ = self.journal.append(&Entry::Decide { rule: undecided });
            let i = self.ready.index[&twin];
            let rule = Rule { status: old.status, action: old.action, ..self.ready.rules[i].clone() };
            let _ = self.journal.append(&Entry::Decide { rule: rule.clone() });
            self.decisions.insert(twin, rule);
        }
    }

    /// Applies a journal left by an earlier session. Returns whether the patterns differ (re-mine).
    pub fn apply_replay(&mut self, replay: Replay) -> bool {
        for (id, rule) in replay.decisions {
            let default = match self.ready.index.get(&id) {
                Some(&i) => default_status(&self.mining.strings[i]),
                None => Status::Pending,
            };
            if rule.status == default && rule.action == RuleAction::Remove {
                self.decisions.remove(&id);
            } else {
                self.decisions.insert(id, rule);
            }
        }
        self.refresh_decided_data();
        if let Some(c) = replay.cutoff {
            self.cutoff = self.clamp_cutoff(c);
        }
        let remine = replay.patterns.as_ref().is_some_and(|p| *p != self.patterns);
        if let Some(p) = replay.patterns {
            self.patterns = p;
        }
        self.refresh_dirty();
        self.refresh_all();
        remine
    }

    /// Replaces the editor's state with a rules file read from disk ("take theirs", or a reload with no
    /// unsaved work). Returns whether its patterns differ (re-mine).
    pub fn reload(&mut self, file: &RulesFile, text: String) -> bool {
        self.take_file(file);
        self.disk_text = Some(text);
        self.journal.remove();
        let remine = !file.mutable.is_empty() && file.mutable != self.patterns;
        if remine {
            self.patterns = file.mutable.clone();
        }
        self.refresh_all();
        self.mark_saved();
        remine
    }

    /// "Keep mine" after the rules file changed on disk: what the other writer saved is merged into the
    /// editor's state rule by rule, the editor's decision winning only where both decided (a second editor's
    /// accepts, or the settings `chaff mine` changed, are never dropped). The file on disk becomes the saved
    /// state, so the editor's own work stays unsaved. Returns what the merge took from disk (`None`: the
    /// file is gone) and whether the patterns or the mining parameters changed (re-mine).
    pub fn keep_mine(&mut self) -> Result<(Option<crate::merge::MergeReport>, bool), String> {
        use crate::merge::{MergeReport, Prefer, keep_hand_edits, merge};
        let path = self.spec.rules.clone();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                self.disk_text = None;
                return Ok((None, false));
            }
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let theirs = RulesFile::parse(&text, &path).map_err(|e| e.to_string())?;
        let base = self.disk_text.as_deref().and_then(|t| RulesFile::parse(t, &path).ok());
        let mut ours = self.rules_file();
        if let Some(read) = &base {
            keep_hand_edits(&mut ours, read);
        }
        let report = MergeReport { path: path.clone(), ..merge(&mut ours, base.as_ref(), &theirs, Prefer::Ours) };
        let (patterns, mining) = (self.patterns.clone(), self.header.mining);
        // the file on disk is what is saved now; the merged state is the editor's, unsaved
        self.take_file(&theirs);
        if !theirs.mutable.is_empty() {
            self.patterns = theirs.mutable.clone();
        }
        self.mark_saved();
        self.take_file(&ours);
        self.patterns = if ours.mutable.is_empty() { patterns.clone() } else { ours.mutable.clone() };
        self.disk_text = Some(text);
        self.refresh_dirty();
        self.refresh_all();
        Ok((Some(report), self.patterns != patterns || self.header.mining != mining))
    }

    /// The rules file to save: every candidate at or above min(auto, chosen) cutoff, every decided rule
    /// (stale ones too), the cutoffs and the patterns.
    pub fn rules_file(&self) -> RulesFile {
        let mut decided: Vec<Rule> = self.decisions.values().cloned().collect();
        decided.sort_by(|a, b| a.id.cmp(&b.id));
        let previous = RulesFile {
            cutoff: Cutoff { auto: self.mining.auto_cutoff, chosen: self.cutoff },
            mutable: self.patterns.clone(),
            rules: decided,
            ..self.header.clone()
        };
        let mut file = crate::merge::from_mining(&self.mining, self.header.mining, Some(&previous));
        file.mutable = self.patterns.clone();
        for r in &mut file.rules {
            if let Some(d) = self.decisions.get(&r.id) {
                r.status = d.status;
                r.action = d.action;
                // listed among the strings (see `list_decided_rules`), not mined: stale as it was
                r.stale |= d.stale;
                r.editor = d.editor;
            }
        }
        // a rule listed as decided and set back to pending is no rule: no mining found it
        let from = self.list.editor_from;
        file.rules.retain(|r| self.position(&r.id).is_none_or(|i| i < from) || self.decisions.contains_key(&r.id));
        file
    }

    /// Saves the rules file atomically, merged (under the file's lock, as `chaff mine` saves) with what
    /// another writer saved since it was read here: their decisions survive, and this editor's win where
    /// both decided. What the merge took is then shown here too. The journal is no longer needed.
    /// Saves the rules file, merged with what another writer saved since it was read: the path, and what
    /// the merge took from disk, if it took anything.
    pub fn save(&mut self) -> Result<(PathBuf, Option<String>), String> {
        use crate::merge::{Prefer, keep_hand_edits, save_merged_within};
        let mut file = self.rules_file();
        if let Some(other) = &self.foreign_source {
            // saved over another source's file only as the editor confirmed: as that source's rules
            file.source = other.clone();
        }
        // the UI edits no regex: those an editor wrote in the file as read stay
        if let Some(read) = self.disk_text.as_deref().and_then(|t| RulesFile::parse(t, &self.spec.rules).ok()) {
            keep_hand_edits(&mut file, &read);
        }
        // the UI thread never waits for a lock another process holds: it says who holds it, and `w` retries
        let mut held = None;
        let saved = save_merged_within(
            &self.spec.rules,
            file,
            self.disk_text.as_deref(),
            Prefer::Ours,
            std::time::Duration::ZERO,
            |holder| held = Some(holder.to_string()),
        )
        .map_err(|e| match &held {
            Some(holder) => format!(
                "{}: its lock is held by {holder}; nothing was saved, your work is kept: w again once that \
                 process is done",
                self.spec.rules.display()
            ),
            None => e.to_string(),
        })?;
        let merged = (!saved.report.is_empty()).then(|| saved.report.to_string());
        if !saved.report.is_empty() {
            self.take_file(&saved.file);
            if !saved.file.mutable.is_empty() {
                self.patterns = saved.file.mutable.clone();
            }
            self.refresh_all();
        }
        // the watcher will report our own write: the same text is no news
        self.disk_text = Some(saved.text);
        self.dirty = false;
        self.journal.remove();
        Ok((self.spec.rules.clone(), merged))
    }

    /// What to tell the editor about a rules file of another source: at open, and before a save over it.
    pub fn foreign_note(&self) -> Option<String> {
        let other = self.foreign_source.as_ref()?;
        Some(format!(
            "{} is the rules file of source `{other}`, not of `{}` ({}): w asks before saving over it (keeping \
             `source = \"{other}\"`); for this source's own, open it with --rules {} or without --rules",
            self.spec.rules.display(),
            self.spec.name,
            self.spec.corpus.display(),
            crate::rules::rules_path(&self.spec.rules_dir, &self.spec.name).display()
        ))
    }

    /// Writes the accepted rules alone to the export path; with `automatic`, the automatic rules instead
    /// (every pending rule at or above the cutoff, accepted there). Returns the path and how many rules it
    /// holds.
    pub fn export(&self, automatic: bool) -> Result<(PathBuf, usize), String> {
        let mut file = self.rules_file();
        if automatic {
            let active: Vec<bool> = file.rules.iter().map(|r| file.is_active(r, true)).collect();
            for (r, on) in file.rules.iter_mut().zip(active) {
                if on {
                    r.status = Status::Accepted;
                }
            }
        }
        let file = file.export_accepted();
        file.save(&self.spec.export).map_err(|e| e.to_string())?;
        Ok((self.spec.export.clone(), file.rules.len()))
    }

    pub fn refresh_all(&mut self) {
        self.refresh_list();
        self.rebuild_cleaners();
        self.rematch_preview();
    }

    pub fn refresh_list(&mut self) {
        self.list_decided_rules();
        let (mining, decisions) = (&self.mining, &self.decisions);
        let pending = |i: usize| {
            let s = &mining.strings[i];
            decisions.get(&s.id).map_or_else(|| default_status(s), |r| r.status) == Status::Pending
        };
        let decided = |i: usize| decisions.contains_key(&mining.strings[i].id);
        self.list.rebuild(&self.mining, &self.ready.lower, self.cutoff, pending, decided);
        self.list.scroll_into_view(self.page);
    }

    /// Puts the decided rules this mining did not find (the editor's own: marked, kept, trimmed; and stale
    /// ones) among its strings, after `list.editor_from`, so the list shows them with their status and
    /// action and every decision works on them. They never match in the pending preview (annexed to its
    /// cleaner, not compiled); a new mining drops them and they are added again.
    fn list_decided_rules(&mut self) {
        if self.list.editor_from > self.mining.strings.len() {
            self.list.editor_from = self.mining.strings.len();
        }
        let mut missing: Vec<Rule> =
            self.decisions.values().filter(|r| !self.ready.index.contains_key(&r.id)).cloned().collect();
        if missing.is_empty() {
            return;
        }
        missing.sort_by(|a, b| a.id.cmp(&b.id));
        let mining = Arc::make_mut(&mut self.mining);
        for rule in missing {
            let string = rule.to_mined();
            let text = if string.symbols.is_empty() {
                string.example.clone()
            } else {
                crate::symbol::display(&string.symbols)
            };
            self.ready.lower.push(text.to_lowercase());
            self.ready.texts.push(text);
            self.ready.index.insert(rule.id.clone(), mining.strings.len());
            if let Some(all) = self.ready.all.as_mut() {
                all.annex(&rule);
            }
            self.ready.rules.push(Rule { status: default_status(&string), ..rule });
            mining.strings.push(string);
        }
    }

    /// Rebuilds the cleaner of the accepted rules.
    pub fn rebuild_cleaners(&mut self) {
        let tokenizer = self.mining.tokenizer;
        let mutable = &self.ready.mutable;
        let settings = self.header.clean_settings();
        let build = |rules: Vec<&Rule>| {
            Cleaner::with_patterns(tokenizer, mutable, rules, settings.merge_gap).map(|c| c.with_settings(settings))
        };
        let mut rules: Vec<&Rule> = self.decisions.values().filter(|r| r.status == Status::Accepted).collect();
        rules.sort_by(|a, b| a.id.cmp(&b.id));
        self.preview.accepted_cleaner = match build(rules.clone()) {
            Ok(c) => Some(c),
            // one bad hand-written regex must not blank the preview: keep the rules that compile
            Err(_) => build(rules.into_iter().filter(|r| build(vec![*r]).is_ok()).collect()).ok(),
        };
    }

    pub fn document_text(&self) -> &str {
        self.corpus.docs.get(self.preview.doc).map_or("", |d| d.text.as_str())
    }

    /// Cleans the previewed document again (after a decision or a cutoff move).
    pub fn refresh_preview(&mut self) {
        self.sync_pending_actions();
        let corpus = Arc::clone(&self.corpus);
        let text = corpus.docs.get(self.preview.doc).map_or("", |d| d.text.as_str());
        let (strings, decisions, cutoff) = (&self.mining.strings, &self.decisions, self.cutoff);
        let pending = |i: usize| {
            let s = &strings[i];
            s.bin >= cutoff && decisions.get(&s.id).map_or(!s.idiom, |r| r.status == Status::Pending)
        };
        self.preview.render_html = self.mining.tokenizer == crate::tokens::Tokenizer::Html;
        self.preview.compute(text, self.ready.all.as_ref(), pending);
        self.clamp_preview_scroll();
    }

    /// Gives every string of the preview's pending matcher its decided action, so a pending suggested cut
    /// shows as the cut it would be, not as a removal of its own text.
    fn sync_pending_actions(&mut self) {
        let Some(all) = self.ready.all.as_mut() else { return };
        for (i, s) in self.mining.strings.iter().enumerate() {
            let action = self.decisions.get(&s.id).map_or(RuleAction::Remove, |r| r.action);
            if all.action(i as u32) != action {
                all.set_action(i as u32, action);
            }
        }
    }

    /// Shows another document, or the same one after a new mining.
    fn rematch_preview(&mut self) {
        let corpus = Arc::clone(&self.corpus);
        let text = corpus.docs.get(self.preview.doc).map_or("", |d| d.text.as_str());
        self.preview.match_all(self.ready.all.as_ref(), text);
        self.refresh_preview();
    }

    /// The preview's visual lines at the current width.
    pub fn preview_lines(&self) -> std::rc::Rc<Vec<(usize, usize)>> {
        self.preview.lines(self.preview.shown(self.document_text()), self.preview_width)
    }

    pub fn clamp_preview_scroll(&mut self) {
        let n = self.preview_lines().len();
        self.preview.scroll = self.preview.scroll.min(n.saturating_sub(self.preview_height.max(1)));
    }

    /// Starts a selection on the preview's top line, or drops the one there is.
    pub fn toggle_selection(&mut self) {
        if self.preview.selection.take().is_some() || self.preview.only_cleaned {
            return;
        }
        let lines = self.preview_lines();
        if let Some(&(a, b)) = lines.get(self.preview.scroll) {
            self.preview.selection = Some((a, b));
        }
    }

    /// Moves the selection's end `delta` visual lines (to that line's end, or its start when above the
    /// anchor), scrolling to keep it in view.
    pub fn extend_selection_lines(&mut self, delta: isize) {
        let Some((anchor, head)) = self.preview.selection else { return };
        let lines = self.preview_lines();
        let here = crate::tui::document::line_of(&lines, head.saturating_sub(usize::from(head > anchor)));
        let to = (here as isize + delta).clamp(0, lines.len().saturating_sub(1) as isize) as usize;
        let Some(&(a, b)) = lines.get(to) else { return };
        let head = if b > anchor || (a >= anchor && to >= here) { b } else { a };
        self.preview.selection = Some((anchor, head));
        let page = self.page.max(1);
        if to < self.preview.scroll {
            self.preview.scroll = to;
        } else if to >= self.preview.scroll + page {
            self.preview.scroll = to + 1 - page;
        }
        self.clamp_preview_scroll();
    }

    /// Moves the selection's end one word forward or back.
    pub fn extend_selection_word(&mut self, forward: bool) {
        let Some((anchor, head)) = self.preview.selection else { return };
        let text = self.document_text();
        let head = if forward {
            let rest = &text[head..];
            let skip = rest.find(|c: char| !c.is_whitespace()).unwrap_or(rest.len());
            let word = rest[skip..].find(char::is_whitespace).unwrap_or(rest.len() - skip);
            head + skip + word
        } else {
            let before = text[..head].trim_end();
            before.rfind(char::is_whitespace).map_or(0, |i| i + 1)
        };
        self.preview.selection = Some((anchor, head));
    }

    pub fn scroll_preview(&mut self, delta: isize) {
        self.preview.scroll = (self.preview.scroll as isize + delta).max(0) as usize;
        self.clamp_preview_scroll();
    }

    pub fn show_document(&mut self, doc: usize) {
        let doc = doc.min(self.corpus.docs.len().saturating_sub(1));
        if doc != self.preview.doc {
            self.preview.doc = doc;
            self.preview.scroll = 0;
            self.preview.cursor = None;
            self.preview.selection = None;
        }
        self.rematch_preview();
    }

    /// Moves the preview's cursor to the next (`forward`) or previous removed span, scrolling to it.
    pub fn step_span(&mut self, forward: bool) {
        let n = self.preview.spans.len();
        if n == 0 || self.preview.only_cleaned {
            self.preview.cursor = None;
            return;
        }
        let next = match (self.preview.cursor, forward) {
            (None, true) => 0,
            (None, false) => n - 1,
            (Some(c), true) => (c + 1) % n,
            (Some(c), false) => (c + n - 1) % n,
        };
        self.preview.cursor = Some(next);
        let lines = self.preview_lines();
        let line = line_of(&lines, self.preview.spans[next].start);
        let h = self.preview_height.max(1);
        if line < self.preview.scroll || line >= self.preview.scroll + h {
            self.preview.scroll = line.saturating_sub(h / 3);
        }
        self.clamp_preview_scroll();
    }

    /// Share of the shown document's characters removed by accepted rules, and by pending ones besides.
    pub fn removed_share(&self) -> (f64, f64) {
        let len = self.document_text().len().max(1) as f64;
        (self.preview.removed as f64 / len, self.preview.pending as f64 / len)
    }

    /// Tokens each of the editor's patterns normalized in the current mining (`None`: not mined yet).
    pub fn pattern_count(&self, p: &MutablePattern) -> Option<u64> {
        let i = self.mining.patterns.iter().position(|q| q == p)?;
        self.mining.pattern_counts.get(i).copied()
    }
}
