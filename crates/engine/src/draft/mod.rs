//! A draft of a source's rules: a mining, the rules file it becomes, and the editor's decisions on it.
//!
//! Every editor action (decide, trim, mark a span, keep, move the cutoff, turn a stage on or off, edit the
//! patterns or a regex, reset to the automatic rules) is a method that returns a [`Change`]: which rules
//! and which settings it changed, for the front end to redraw and to weigh its impact. Each is one step of
//! the undo history. [`Draft::reconcile`] takes a new mining in; [`Draft::rules_file`] is the file to save.
//! No terminal here: the tuning UI's session holds a draft and its own panes.

pub mod history;
pub mod ready;

mod actions;
mod batch;
mod disk;
mod options;
mod regions;
mod snapshot;
mod verified;
mod what_if;

pub use options::with_rule;
pub use snapshot::Snapshot;
pub use what_if::Act;

pub use disk::Remined;
#[cfg(test)]
mod tests;

use foldhash::{HashMap, HashMapExt};
use std::sync::Arc;

use crate::clean_settings::Stages;
use crate::corpus::Corpus;
use crate::cutoff::CutoffBin;
use crate::lines;
use crate::mining::{MinedString, Mining};
use crate::mutable::MutablePattern;
use crate::rules::{Action as RuleAction, Rule, RulesFile, Status};
use crate::settings::Settings;

use history::{History, Trimmed};
use ready::Ready;

/// What an editor action changed: the front end redraws from it, journals it, and measures its impact
/// (the rules file before and after).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Change {
    /// Rules whose decision (status, action or regex) changed, by id.
    pub rules: Vec<String>,
    /// The chosen cutoff moved.
    pub cutoff: bool,
    /// A cleaning stage was turned on or off.
    pub stages: bool,
    /// The mutable patterns changed: the source must be mined again.
    pub patterns: bool,
    /// Everything may have changed (a new mining taken in, a rules file read from disk).
    pub all: bool,
    /// Rules the draft no longer holds whose decision was dropped (passed to a twin by a new mining), as
    /// undecided: a journal of unsaved work must not bring them back.
    pub undecided: Vec<Rule>,
    /// Pages marked verified or unmarked, by id.
    pub verified: Vec<String>,
}

impl Change {
    pub fn is_empty(&self) -> bool {
        *self == Change::default()
    }

    fn rules(ids: impl IntoIterator<Item = String>) -> Change {
        Change { rules: ids.into_iter().collect(), ..Change::default() }
    }
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
    /// The verified pages.
    pub verified: Vec<crate::verified::VerifiedPage>,
    /// The region rules' decisions.
    pub regions: Vec<regions::RegionDecision>,
}

/// Up to 3 ids, then how many more.
fn some_ids(ids: &[String]) -> String {
    let mut s = ids.iter().take(3).map(String::as_str).collect::<Vec<_>>().join(", ");
    if ids.len() > 3 {
        s.push_str(&format!(" and {} more", ids.len() - 3));
    }
    s
}

/// The status a mined string has while no one has decided on it: idioms start rejected.
pub fn default_status(s: &MinedString) -> Status {
    if s.idiom { Status::Rejected } else { Status::Pending }
}

/// Whether `rule` holds a decision: its status or action differ from what mining gives it. The one test
/// of "decided" for the drafts, their journal and the rules files they save.
pub fn is_decided(rule: &Rule) -> bool {
    rule.is_decided()
}

/// Puts the extra strings (cluster and line rules) in a mining of the whole source: as the rules file
/// holds them, a string mined in a cluster is that cluster's rule, with the cluster's statistics, even
/// where the whole source has it too (below its cutoff).
pub fn with_extra(mining: &mut Mining, extra: &[MinedString]) {
    let at: HashMap<String, usize> = mining.strings.iter().enumerate().map(|(i, s)| (s.id.clone(), i)).collect();
    for c in extra {
        match at.get(&c.id) {
            Some(&i) => mining.strings[i] = c.clone(),
            None => mining.strings.push(c.clone()),
        }
    }
}

/// Whether a rules file's rule is one the whole source's mining does not make (see
/// [`Draft::extra_strings`]).
pub fn is_extra(r: &Rule) -> bool {
    r.cluster.is_some() || lines::line_of(r).is_some()
}

pub struct Draft {
    pub corpus: Arc<Corpus>,
    pub mining: Arc<Mining>,
    /// Texts, rules, index and matcher of the mining's strings (and of the decided rules it lacks, from
    /// `editor_from` on).
    pub ready: Ready,
    /// The rules file's settings (merge gap, stages, mining parameters…) without its rules.
    pub header: RulesFile,
    /// Rules that are not strings of the whole source's mining — those of template clusters and the
    /// single-word line rules (`crate::lines`): listed with the candidates, and added again to every
    /// new mining.
    pub extra_strings: Vec<MinedString>,
    /// Rules whose status or action differs from the default (see [`is_decided`]), by id, with their
    /// data: a decided string that is not mined again stays in the rules file, stale.
    pub decisions: HashMap<String, Rule>,
    pub cutoff: CutoffBin,
    /// The mutable patterns as the editor wants them (the mining may still be catching up).
    pub patterns: Vec<MutablePattern>,
    /// Whether the state differs from the rules file as last loaded or saved (see [`Decided`]).
    pub dirty: bool,
    /// The state as last loaded or saved.
    pub saved: Decided,
    /// The editor's steps, for undo and redo.
    pub history: History,
    /// How each trimmed candidate is trimmed, by its id (undo and redo restore it with the decisions).
    pub trims: HashMap<String, Trimmed>,
    /// Strings from this index on are decided rules the mining did not find (the editor's own, stale ones),
    /// annexed so that every decision works on them.
    pub editor_from: usize,
    /// Counts the changes (decisions, cutoff, patterns, stages, verified pages, a save).
    pub revision: u64,
    /// The source's verified pages (`rules/<source>.verified.toml`), as the editor has them.
    pub verified: crate::verified::Verified,
    /// A pattern edit undone or redone put the decisions back as they were with these patterns: the
    /// mining they ask for takes no suggestion over them.
    restoring: Option<Vec<MutablePattern>>,
    /// Those pages as last read from disk or written there: a save changes on disk only what the editor
    /// changed since, and keeps what another writer verified meanwhile.
    verified_on_disk: Vec<crate::verified::VerifiedPage>,
}

impl Draft {
    /// A draft of a mined source. `previous`: its rules file (decisions, cutoff and settings come from
    /// it); without one, the draft starts from the automatic rules, as `chaff mine` writes them with
    /// `params` (the mining's parameters). `ready`:
    /// the mining prepared elsewhere (`None`: prepared here, after `flag` marks its idioms). Returns the
    /// draft and how many frame cuts the automatic rules suggested.
    pub fn open(
        corpus: Corpus,
        mut mining: Mining,
        mut ready: Option<Ready>,
        previous: Option<RulesFile>,
        params: crate::rules::MiningParams,
        patterns: Vec<MutablePattern>,
        flag: impl FnOnce(&mut Mining),
    ) -> (Draft, usize) {
        // a new source: flagged and given its automatic rules as `chaff mine` does (the idioms they reject
        // are flagged, the shared strings they give back are not); a mining prepared elsewhere is prepared
        // again if that changed a flag
        let mut flag = Some(flag);
        let auto = match &previous {
            Some(_) => None,
            None => {
                let before: Vec<bool> = mining.strings.iter().map(|s| s.idiom).collect();
                let flag = flag.take().expect("not taken yet");
                let auto =
                    crate::automatic::new_source_rules(&corpus, &mut mining, params, &Settings::default(), flag).ok();
                if mining.strings.iter().map(|s| s.idiom).ne(before) {
                    ready = None;
                }
                auto
            }
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
                if let Some(flag) = flag {
                    flag(&mut mining);
                }
                with_extra(&mut mining, &extra_strings);
                Ready::build(&mining, header.clean_settings())
            }
        };
        let mut d = Draft {
            corpus: Arc::new(corpus),
            cutoff: mining.auto_cutoff,
            editor_from: mining.strings.len(),
            mining: Arc::new(mining),
            ready,
            header,
            extra_strings,
            decisions: HashMap::new(),
            patterns,
            dirty: false,
            saved: Decided::default(),
            history: History::default(),
            trims: HashMap::new(),
            revision: 0,
            verified: crate::verified::Verified::default(),
            restoring: None,
            verified_on_disk: Vec::new(),
        };
        let mut cuts = 0;
        match (previous, auto) {
            (Some(file), _) => d.take_file(&file),
            (None, Some(auto)) => cuts = d.take_suggestions(auto.rules).0,
            (None, None) => {}
        }
        d.annex_decided();
        d.mark_saved();
        (d, cuts)
    }

    /// The automatic rules' suggestions for a source mined afresh, as `chaff mine` makes them: frame cuts
    /// (cut-before / cut-after on pending candidates) and, in html mode, tagless candidates rejected. They
    /// are not unsaved work (they join the saved state). Returns how many frame cuts, and what joined the
    /// saved state.
    fn take_suggestions(&mut self, auto: impl IntoIterator<Item = Rule>) -> (usize, Vec<history::SavedChange>) {
        let (mut cuts, mut saved) = (0, Vec::new());
        for mut r in auto {
            let default = self.ready.index.get(&r.id).map(|&i| default_status(&self.mining.strings[i]));
            // an idiom flagged here stays rejected whatever the suggestion
            if default == Some(Status::Rejected) {
                r.status = Status::Rejected;
            }
            if r.action != RuleAction::Remove || Some(r.status) != default {
                cuts += usize::from(r.action != RuleAction::Remove);
                if !self.saved.rules.contains_key(&r.id) {
                    self.saved.rules.insert(r.id.clone(), (r.status, r.action));
                    saved.push(history::SavedChange {
                        id: r.id.clone(),
                        before: None,
                        after: Some((r.status, r.action)),
                    });
                }
                self.decisions.entry(r.id.clone()).or_insert(r);
            }
        }
        (cuts, saved)
    }

    /// The chosen cutoff as the rules file says it: `None` when it is the automatic one.
    fn cutoff_choice(&self) -> Option<CutoffBin> {
        (self.cutoff != self.mining.auto_cutoff).then_some(self.cutoff)
    }

    /// Whether the state differs from `saved`.
    fn differs_from_saved(&self) -> bool {
        let saved = &self.saved;
        self.cutoff_choice() != saved.cutoff
            || self.patterns != saved.patterns
            || Some(self.header.clean_settings().stages) != saved.stages
            || self.decisions.len() != saved.rules.len()
            || self.decisions.iter().any(|(id, r)| saved.rules.get(id) != Some(&(r.status, r.action)))
            || self.verified.pages != saved.verified
            || self.region_decisions() != saved.regions
    }

    /// What differs from the saved state, each part a phrase for a prompt to list ("2 decisions (1
    /// accepted, 1 rejected)", "page 0001 marked verified"); empty when nothing does.
    pub fn unsaved_work(&self) -> Vec<String> {
        let saved = &self.saved;
        let mut out = Vec::new();
        let mut ids: Vec<&String> = self.decisions.keys().chain(saved.rules.keys()).collect();
        ids.sort();
        ids.dedup();
        let now = |id: &String| self.decisions.get(id).map(|r| (r.status, r.action));
        let changed: Vec<&String> = ids.into_iter().filter(|id| now(id) != saved.rules.get(*id).copied()).collect();
        if !changed.is_empty() {
            let count = |st: Status| changed.iter().filter(|id| now(id).map(|d| d.0) == Some(st)).count();
            let (a, r) = (count(Status::Accepted), count(Status::Rejected));
            let kinds: Vec<String> =
                [(a, "accepted"), (r, "rejected"), (changed.len() - a - r, "pending or undecided")]
                    .into_iter()
                    .filter(|(n, _)| *n > 0)
                    .map(|(n, what)| format!("{n} {what}"))
                    .collect();
            out.push(format!("{} decision(s) ({})", changed.len(), kinds.join(", ")));
        }
        if self.cutoff_choice() != saved.cutoff {
            let was = saved.cutoff.unwrap_or(self.mining.auto_cutoff);
            out.push(format!("the cutoff {was}% → {}%", self.cutoff));
        }
        if self.patterns != saved.patterns {
            out.push("the mutable patterns".to_string());
        }
        if Some(self.header.clean_settings().stages) != saved.stages {
            out.push("the cleaning stages".to_string());
        }
        if self.region_decisions() != saved.regions {
            out.push("region rule decisions".to_string());
        }
        let pages = |from: &[crate::verified::VerifiedPage], to: &[crate::verified::VerifiedPage]| -> Vec<String> {
            from.iter().filter(|p| !to.contains(p)).map(|p| p.id.clone()).collect()
        };
        let (marked, unmarked) =
            (pages(&self.verified.pages, &saved.verified), pages(&saved.verified, &self.verified.pages));
        let unmarked: Vec<String> = unmarked.into_iter().filter(|id| !marked.contains(id)).collect();
        for (ids, what) in [(marked, "marked verified"), (unmarked, "no longer verified")] {
            if !ids.is_empty() {
                out.push(format!("{} {} {what}", if ids.len() == 1 { "page" } else { "pages" }, some_ids(&ids)));
            }
        }
        out
    }

    /// Recomputes `dirty` after a change.
    pub fn refresh_dirty(&mut self) {
        self.revision += 1;
        self.dirty = self.differs_from_saved();
    }

    /// Takes the state as the one on disk (opened, saved, or reloaded).
    pub fn mark_saved(&mut self) {
        self.revision += 1;
        self.saved = Decided {
            rules: self.decisions.iter().map(|(id, r)| (id.clone(), (r.status, r.action))).collect(),
            cutoff: self.cutoff_choice(),
            patterns: self.patterns.clone(),
            stages: Some(self.header.clean_settings().stages),
            verified: self.verified.pages.clone(),
            regions: self.region_decisions(),
        };
        self.dirty = false;
    }

    /// Takes decisions, cutoff and settings from a rules file (patterns are the caller's business: a
    /// change needs a re-mine).
    pub(crate) fn take_file(&mut self, file: &RulesFile) {
        self.decisions.clear();
        for r in file.rules.iter().filter(|r| is_decided(r)) {
            self.decisions.insert(r.id.clone(), r.clone());
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

    /// Puts the decided rules this mining did not find (the editor's own: marked, kept, trimmed; and stale
    /// ones) among its strings, from `editor_from` on, so every decision works on them. They never match
    /// in the pending matcher (annexed to it, not compiled); a new mining drops them and they are added
    /// again.
    pub fn annex_decided(&mut self) {
        self.editor_from = self.editor_from.min(self.mining.strings.len());
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
                Arc::make_mut(all).annex(&rule);
            }
            self.ready.rules.push(Rule { status: default_status(&string), ..rule });
            mining.strings.push(string);
        }
    }

    /// The cutoff one step down: to the highest bin below the chosen one that holds strings, so each step
    /// adds candidates (empty bins are skipped, not walked through a percent at a time).
    pub fn cutoff_step_down(&self) -> CutoffBin {
        self.cutoff_below(self.cutoff)
    }

    /// The cutoff one step up: past the lowest bin at or above the chosen one that holds strings, so each
    /// step takes that bin's candidates away.
    pub fn cutoff_step_up(&self) -> CutoffBin {
        self.cutoff_above(self.cutoff)
    }

    /// One step down from `from` (a cutoff the editor weighs before moving to it; see
    /// [`Draft::cutoff_step_down`]).
    pub fn cutoff_below(&self, from: CutoffBin) -> CutoffBin {
        let counts = &self.mining.histogram.counts;
        let holds = |b: CutoffBin| counts.get(b as usize).is_some_and(|&n| n > 0);
        match (0..from).rev().find(|&b| holds(b)) {
            Some(b) => self.anchored(b),
            None => from,
        }
    }

    /// One step up from `from` (see [`Draft::cutoff_step_up`]).
    pub fn cutoff_above(&self, from: CutoffBin) -> CutoffBin {
        let counts = &self.mining.histogram.counts;
        let holds = |b: CutoffBin| counts.get(b as usize).is_some_and(|&n| n > 0);
        match (from..=99).find(|&b| holds(b)) {
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

    /// Candidate `i`'s rule as the editor has it: her decision, else as mined.
    pub fn current_rule(&self, i: usize) -> Rule {
        let id = &self.mining.strings[i].id;
        self.decisions.get(id).cloned().unwrap_or_else(|| self.ready.rules[i].clone())
    }

    /// The rule `id` as the journal records it: the decision, else the rule as mined (undecided).
    pub fn recorded(&self, id: &str) -> Option<Rule> {
        match self.decisions.get(id) {
            Some(r) => Some(r.clone()),
            None => {
                let i = self.position(id)?;
                Some(Rule { status: default_status(&self.mining.strings[i]), ..self.ready.rules[i].clone() })
            }
        }
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
        // the annexed rules count above, while decided: one set back to pending is no rule
        let from = self.editor_from.min(self.mining.strings.len());
        for s in &self.mining.strings[..from] {
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

    /// Whether a cleaning stage is on for this source.
    pub fn stage_on(&self, stage: crate::clean_settings::Stage) -> bool {
        self.header.clean_settings().on(stage)
    }

    /// The configuration to mine the source again with the editor's patterns.
    pub fn mining_config(&self) -> crate::mining::MiningConfig {
        let mut config = crate::mining::MiningConfig::for_tokenizer(self.mining.tokenizer);
        // the documents are of the kind opened (HTML pages as their views): the rules file keeps saying so
        config.input = self.mining.input;
        config.patterns = self.patterns.clone();
        self.header.mining.apply(&mut config);
        config
    }

    /// How many accepted rules name a pattern the mining lacks (deleted since they were mined): they are
    /// kept as they are, stale, their regexes matching what they matched.
    pub fn accepted_without_pattern(&self) -> usize {
        let mutable = &self.ready.mutable;
        let accepted = self.decisions.values().filter(|r| r.status == Status::Accepted);
        accepted.filter(|r| crate::merge::names_a_missing_pattern(r, mutable)).count()
    }

    /// Tokens each of the editor's patterns normalized in the current mining (`None`: not mined yet).
    pub fn pattern_count(&self, p: &MutablePattern) -> Option<u64> {
        let i = self.mining.patterns.iter().position(|q| q == p)?;
        self.mining.pattern_counts.get(i).copied()
    }

    /// The rules file to save: every candidate at or above min(auto, chosen) cutoff, every decided rule
    /// (stale ones too), the cutoffs and the patterns. One pass over the mining's strings (see
    /// [`Draft::snapshot`] to take it without the pass).
    pub fn rules_file(&self) -> RulesFile {
        self.snapshot().rules_file()
    }

    /// What the miner needs to mine this source again: the rules file as it stands, without the cluster
    /// and line rules (made afresh from the new corpus and mining, as a fresh `chaff mine` makes them;
    /// the decisions on them are kept here, by id, like every other).
    pub fn remine_base(&self) -> RulesFile {
        let mut previous = self.rules_file();
        previous.rules.retain(|r| !is_extra(r));
        previous
    }
}
