//! A draft and the world: a new mining taken in, unsaved work replayed, the rules file on disk read,
//! merged with and saved.

use std::path::Path;
use std::sync::Arc;

use foldhash::HashMap;
use std::time::Duration;

use crate::corpus::Corpus;
use crate::cutoff::CutoffBin;
use crate::merge::{LockHolder, MergeReport, Prefer, Saved, keep_hand_edits, merge, save_merged_within};
use crate::mining::{MinedString, Mining};
use crate::mutable::MutablePattern;
use crate::rules::{Action as RuleAction, Rule, RulesFile, Status};

use super::history::{Decision, Remining, SavedChange, Step};
use super::ready::Ready;
use super::{Change, Draft, default_status};

/// A new mining of the draft's source, prepared (see the tuning UI's miner): its corpus, the mining with
/// its extra strings, the prepared strings, and the automatic rules made with the draft's rules file.
pub struct Remined {
    pub corpus: Arc<Corpus>,
    pub mining: Mining,
    pub ready: Ready,
    /// The automatic rules that are not strings of the whole source's mining (cluster and line rules).
    pub extra: Vec<MinedString>,
    /// The automatic rules with their suggested statuses and actions.
    pub automatic: Vec<Rule>,
}

impl Draft {
    /// Takes a new mining: decisions on strings mined again are kept (by id), and those on strings mined
    /// again under a new id (the patterns changed) pass to that twin; a cutoff left at auto follows the
    /// new auto cutoff; the automatic rules made with it replace the cluster and line rules, and their
    /// suggestions for strings new to this mining are taken. Returns the old mining and strings, to be
    /// freed where it costs nothing (freeing a large mining takes milliseconds).
    pub fn reconcile(&mut self, new: Remined) -> (Change, Box<dyn Send>) {
        let follow_auto = self.cutoff == self.mining.auto_cutoff;
        let Remined { corpus, mining, ready, extra, automatic } = new;
        self.corpus = corpus;
        self.extra_strings = extra;
        let decided_before = self.decisions.clone();
        // a pattern edit undone or redone put the decisions back as they were: nothing is suggested over them
        let restoring = self.restoring.take().is_some_and(|p| p == mining.patterns);
        let new: Vec<Rule> = match restoring {
            true => Vec::new(),
            false => automatic.into_iter().filter(|r| !self.ready.index.contains_key(&r.id)).collect(),
        };
        let old = (std::mem::replace(&mut self.mining, Arc::new(mining)), std::mem::replace(&mut self.ready, ready));
        self.editor_from = self.mining.strings.len();
        let (mut changed, undecided) = self.adopt_twins();
        self.refresh_decided_data();
        self.cutoff = self.clamp_cutoff(if follow_auto { self.mining.auto_cutoff } else { self.cutoff });
        let before: Vec<String> = new.iter().map(|r| r.id.clone()).collect();
        let (_, saved) = self.take_suggestions(new);
        changed.extend(before.into_iter().filter(|id| self.decisions.contains_key(id)));
        self.note_remining(&decided_before, saved);
        self.annex_decided();
        self.refresh_dirty();
        (Change { rules: changed, all: true, undecided, ..Change::default() }, Box::new(old))
    }

    /// The mining a pattern edit asked for is in: what it changed of the decisions and of the saved state
    /// joins the edit's step, so that undoing the edit puts the rules back exactly as they were.
    fn note_remining(&mut self, before: &HashMap<String, Rule>, saved: Vec<SavedChange>) {
        let patterns = &self.mining.patterns;
        let Some(Step::Patterns { to, remined: remined @ None, .. }) = self.history.last_mut() else { return };
        if to != patterns {
            return;
        }
        let mut ids: Vec<&String> = before.keys().chain(self.decisions.keys()).collect();
        ids.sort();
        ids.dedup();
        let decisions = ids
            .into_iter()
            .filter(|id| before.get(*id) != self.decisions.get(*id))
            .map(|id| Decision {
                id: id.clone(),
                before: before.get(id).cloned(),
                after: self.decisions.get(id).cloned(),
            })
            .collect();
        *remined = Some(Remining { decisions, saved });
    }

    /// Decided rules a new mining found under a new id (the patterns changed) pass their decision to that
    /// twin (see [`crate::merge::twin_ids`]) instead of staying behind as stale rules. Returns the ids
    /// whose decision changed (the old and the twin), and the old rules, undecided.
    fn adopt_twins(&mut self) -> (Vec<String>, Vec<Rule>) {
        let (index, decisions) = (&self.ready.index, &self.decisions);
        let twins = crate::merge::twins(
            decisions.values(),
            |id| index.contains_key(id),
            |id| decisions.contains_key(id),
            self.mining.tokenizer,
            &self.ready.mutable,
        );
        let (mut changed, mut undecided) = (Vec::new(), Vec::new());
        for (twin, old) in twins {
            let Some(rule) = self.decisions.remove(&old) else { continue };
            undecided.push(Rule { status: Status::Pending, action: RuleAction::Remove, ..rule.clone() });
            let i = self.ready.index[&twin];
            let inherited = Rule { status: rule.status, action: rule.action, ..self.ready.rules[i].clone() };
            self.decisions.insert(twin.clone(), inherited);
            changed.extend([old, twin]);
        }
        (changed, undecided)
    }

    /// Applies unsaved work found from an earlier session: decisions by id (a rule back at its default
    /// is undecided), the cutoff, the patterns. Each restored decision is one step of the undo history,
    /// as it was when made. Returns whether the patterns differ (mine again).
    pub fn replay(
        &mut self,
        decisions: impl IntoIterator<Item = (String, Rule)>,
        cutoff: Option<CutoffBin>,
        patterns: Option<Vec<MutablePattern>>,
    ) -> bool {
        // in a fixed order, so that undo takes them back the same way each time
        let mut decisions: Vec<(String, Rule)> = decisions.into_iter().collect();
        decisions.sort_by(|a, b| a.0.cmp(&b.0));
        for (id, rule) in decisions {
            let default = match self.ready.index.get(&id) {
                Some(&i) => default_status(&self.mining.strings[i]),
                None => Status::Pending,
            };
            let before = self.decisions.get(&id).cloned();
            let after = (rule.status != default || rule.action != RuleAction::Remove).then_some(rule);
            match &after {
                Some(rule) => self.decisions.insert(id.clone(), rule.clone()),
                None => self.decisions.remove(&id),
            };
            if before != after {
                self.history.record(Step::Decisions(vec![Decision { id, before, after }]));
            }
        }
        self.refresh_decided_data();
        if let Some(c) = cutoff {
            let from = self.cutoff;
            self.cutoff = self.clamp_cutoff(c);
            if self.cutoff != from {
                self.history.record(Step::Cutoff { from, to: self.cutoff });
            }
        }
        let remine = patterns.as_ref().is_some_and(|p| *p != self.patterns);
        if let Some(p) = patterns {
            if remine {
                self.history.record(Step::Patterns { from: self.patterns.clone(), to: p.clone(), remined: None });
            }
            self.patterns = p;
        }
        self.annex_decided();
        self.refresh_dirty();
        remine
    }

    /// Replaces the state with a rules file read from disk ("take theirs", or a reload with no unsaved
    /// work), as saved. Returns whether its patterns differ (mine again).
    pub fn reload(&mut self, file: &RulesFile) -> bool {
        self.take_file(file);
        let remine = !file.mutable.is_empty() && file.mutable != self.patterns;
        if remine {
            self.patterns = file.mutable.clone();
        }
        self.annex_decided();
        self.mark_saved();
        remine
    }

    /// "Keep mine" after the rules file changed on disk: `theirs` (the file there now) is merged into
    /// the state rule by rule, this editor's decision winning only where both decided; `base` is the file
    /// as this draft last read it. The file on disk becomes the saved state, so this editor's own work
    /// stays unsaved. Returns what the merge took and whether the patterns or the mining parameters
    /// changed (mine again).
    pub fn merge_from_disk(
        &mut self,
        path: &Path,
        theirs: &RulesFile,
        base: Option<&RulesFile>,
    ) -> (MergeReport, bool) {
        let mut ours = self.rules_file();
        if let Some(read) = base {
            keep_hand_edits(&mut ours, read);
        }
        let report = MergeReport { path: path.to_path_buf(), ..merge(&mut ours, base, theirs, Prefer::Ours) };
        let (patterns, mining) = (self.patterns.clone(), self.header.mining);
        self.take_file(theirs);
        if !theirs.mutable.is_empty() {
            self.patterns = theirs.mutable.clone();
        }
        self.mark_saved();
        self.take_file(&ours);
        self.patterns = if ours.mutable.is_empty() { patterns.clone() } else { ours.mutable.clone() };
        self.annex_decided();
        self.refresh_dirty();
        (report, self.patterns != patterns || self.header.mining != mining)
    }

    /// Saves the rules file atomically to `path`, merged (under the file's lock, as `chaff mine` saves)
    /// with what another writer saved since `disk_text` was read: their decisions survive, and this
    /// draft's win where both decided; what the merge took is taken here too. `source`: the name to save
    /// under (another source's, as the editor confirmed). Waits at most `timeout` for the lock, calling
    /// `on_blocked` with its holder.
    pub fn save(
        &mut self,
        path: &Path,
        disk_text: Option<&str>,
        source: Option<&str>,
        timeout: Duration,
        on_blocked: impl FnMut(&LockHolder),
    ) -> crate::error::Result<Saved> {
        let mut file = self.rules_file();
        if let Some(other) = source {
            file.source = other.to_string();
        }
        // no regex is edited here but through a decision: those an editor wrote in the file as read stay
        if let Some(read) = disk_text.and_then(|t| RulesFile::parse(t, path).ok()) {
            keep_hand_edits(&mut file, &read);
        }
        let saved = save_merged_within(path, file, disk_text, Prefer::Ours, timeout, on_blocked)?;
        if !saved.report.is_empty() {
            self.take_file(&saved.file);
            if !saved.file.mutable.is_empty() {
                self.patterns = saved.file.mutable.clone();
            }
            self.annex_decided();
        }
        self.mark_saved();
        Ok(saved)
    }
}
