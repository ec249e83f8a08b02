//! The state of one source being tuned: its [`Draft`] (the mining, the editor's decisions, the rules file
//! they make, undo and redo) and what the UI shows of it: the panes' positions, the candidate list, the
//! preview. Every change of the draft comes back as a [`Change`]; the session journals it and updates the
//! list and the preview at once (the cleaners are rebuilt; a document is cleaned in well under a frame).

use std::ops::{Deref, DerefMut};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use crate::clean_settings::Stage as CleanStage;
use crate::cleaning::Cleaner;
use crate::cutoff::CutoffBin;
use crate::draft::{Change, Draft, default_status};
use crate::mining::{Mining, Stage};
use crate::mutable::MutablePattern;
use crate::rules::region::REGION_PREFIX;
use crate::rules::{Action as RuleAction, Rule, RulesFile, Status};

use super::candidates::CandidateList;
use super::document::Preview;
use super::journal::{Entry, Journal, Replay};
use super::miner::{Mined, Prepare};
use super::ready::Ready;
use super::source::{Idioms, Opened, SourceSpec};
use super::watch::Watch;

mod preview;
pub use preview::{Jump, PREVIEW_WAIT, Place};

pub use crate::draft::Decided;

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
    /// The mining, the editor's decisions and settings, undo and redo: all that is not the screen's.
    pub draft: Draft,
    pub idioms: Idioms,
    pub focus: Pane,
    pub list: CandidateList,
    pub pattern_selected: usize,
    pub preview: Preview,
    pub job: Option<Job>,
    pub journal: Journal,
    /// Keys of the rules file as opened that chaff does not read, with file, line and column: shown once
    /// the source opens.
    pub rules_warnings: Vec<String>,
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
    /// A warning asked for confirmation (`w` on another source's rules file): the next key, if it is this
    /// action again, goes ahead.
    pub armed: Option<crate::tui::action::Action>,
    /// The rules file's `source` when it is another source's (see [`Opened::foreign_source`]), and whether
    /// the editor has confirmed saving over it.
    pub foreign_source: Option<String>,
    pub foreign_confirmed: bool,
    /// The verified pages' file beside the rules file is unusable: it is neither shown nor written over.
    pub verified_unusable: bool,
    /// Visible rows of the candidate table and lines of the preview, and the preview's width (from the
    /// layout, set on resize).
    pub page: usize,
    pub preview_height: usize,
    pub preview_width: usize,
    /// The rules as last sent to the impact worker (its baseline stands there), for the next decision's
    /// impact to be measured from; `None`: nothing sent yet.
    pub impact_file: Option<crate::draft::Snapshot>,
    /// The documents the last impact shown changed most, each a key away (`1`…), and where in each.
    pub jumps: Vec<Jump>,
    /// Where the preview was before the first jump (`b` goes back there).
    pub back: Option<Place>,
    /// What the editor did, for the status line to say with its impact when it comes.
    pub pending_label: String,
    /// The source is this process's to edit while the session lives (see [`super::journal::OpenLock`]).
    pub lock: Option<super::journal::OpenLock>,
}

/// The draft's fields and queries read through the session (`s.decisions`, `s.status(i)`).
impl Deref for Session {
    type Target = Draft;

    fn deref(&self) -> &Draft {
        &self.draft
    }
}

impl DerefMut for Session {
    fn deref_mut(&mut self) -> &mut Draft {
        &mut self.draft
    }
}

/// How the UI follows a change: the list rebuilt always, or only when it shows pending candidates alone
/// (a decision there leaves it).
#[derive(Clone, Copy, PartialEq, Eq)]
enum List {
    Rebuild,
    IfPendingOnly,
}

impl Session {
    /// A session on a mined source; decisions, cutoff and settings come from its rules file. `ready`:
    /// the mining prepared on the miner thread (with idioms flagged), or `None` to prepare it here.
    pub fn new(opened: Opened, mining: Mining, ready: Option<Ready>, journal: Journal) -> Session {
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
            lock,
        } = opened;
        let (draft, suggested_cuts) =
            Draft::open(corpus, mining, ready, previous, params, config.patterns, |m: &mut Mining| idioms.flag(m));
        let mut idioms = idioms;
        idioms.remember(&draft.mining);
        let mut s = Session {
            spec,
            draft,
            idioms,
            focus: Pane::Candidates,
            list: CandidateList::default(),
            pattern_selected: 0,
            preview: Preview::default(),
            job: None,
            journal,
            rules_warnings,
            drift,
            disk_text: previous_text,
            watch: None,
            pending_conflict: false,
            suggested_cuts,
            armed: None,
            foreign_source,
            foreign_confirmed: false,
            verified_unusable: false,
            page: 10,
            preview_height: 10,
            preview_width: 40,
            impact_file: None,
            jumps: Vec::new(),
            back: None,
            pending_label: String::new(),
            lock,
        };
        s.load_verified();
        s.refresh_all();
        s.draft.mark_saved();
        s
    }

    /// The rules file as the impact worker measures it: the draft's, on the documents as this session holds
    /// them (HTML pages as their views, unless mined as raw markup).
    pub fn impact_rules(&self) -> RulesFile {
        super::impact::for_views(self.draft.rules_file())
    }

    /// Reads the source's verified pages from beside its rules file; an unusable file is a warning, and
    /// is not written over.
    fn load_verified(&mut self) {
        let path = crate::verified::path_for(&self.spec.rules);
        match crate::verified::Verified::load_checked(&path) {
            Ok((v, warnings)) => {
                self.rules_warnings.extend(warnings);
                self.draft.load_verified(v);
            }
            Err(e) => {
                self.rules_warnings.push(format!("{e}: verified pages are not shown, and not saved over it"));
                self.verified_unusable = true;
            }
        }
    }

    /// Marks `page` verified, or (with `None`) unmarks document `id`: one undoable step.
    pub fn set_verified(&mut self, id: &str, page: Option<crate::verified::VerifiedPage>) -> bool {
        let change = match page {
            Some(p) => self.draft.verify(p),
            None => self.draft.unverify(id),
        };
        self.follow(&change, List::Rebuild);
        !change.verified.is_empty()
    }

    /// What the miner thread needs to prepare a new mining for this session: with the rules file as it
    /// stands here, so the new mining gets the automatic rules `chaff mine` would make with it.
    pub fn prepare(&self) -> Prepare {
        Prepare {
            idioms: self.idioms.clone(),
            settings: self.draft.header.clean_settings(),
            previous: Some(self.draft.remine_base()),
        }
    }

    /// Journals what a change of the draft changed and updates the list and the preview after it. Back
    /// at the saved state, the journal is no longer needed.
    fn follow(&mut self, change: &Change, list: List) {
        if change.is_empty() {
            return;
        }
        for id in &change.rules {
            if let Some(element) = id.strip_prefix(REGION_PREFIX) {
                // a region she named and took back (undo) is journaled as undecided: replay leaves it out
                let rule = self.draft.region(element).cloned().unwrap_or(crate::rules::region::RegionRule {
                    status: Status::Pending,
                    ..crate::rules::region::RegionRule::accepted(element, RuleAction::Remove)
                });
                let _ = self.journal.append(&Entry::Region { rule });
            } else if let Some(rule) = self.draft.recorded(id) {
                let _ = self.journal.append(&Entry::Decide { rule });
            }
        }
        for rule in &change.undecided {
            let _ = self.journal.append(&Entry::Decide { rule: rule.clone() });
        }
        if change.cutoff {
            let _ = self.journal.append(&Entry::Cutoff { chosen: self.draft.cutoff });
        }
        for id in &change.verified {
            let page = self.draft.verified.pages.iter().find(|p| &p.id == id).cloned();
            let _ = self.journal.append(&Entry::Verified { id: id.clone(), page });
        }
        if change.patterns {
            let _ = self.journal.append(&Entry::Patterns { patterns: self.draft.patterns.clone() });
            self.pattern_selected = self.pattern_selected.min(self.draft.patterns.len().saturating_sub(1));
        }
        if !self.draft.dirty {
            self.journal.remove();
        }
        if change.all {
            return self.refresh_all();
        }
        if !change.rules.is_empty() || change.stages {
            self.rebuild_cleaners();
        }
        if !change.rules.is_empty() && (list == List::Rebuild || self.list.pending_only) || change.cutoff {
            self.refresh_list();
        }
        if !change.rules.is_empty() || change.stages || change.cutoff {
            self.refresh_preview();
        }
    }

    /// Sets status and action of strings (indices into `mining.strings`): one step to undo. Returns how
    /// many changed.
    pub fn decide(&mut self, strings: &[usize], status: Option<Status>, action: Option<RuleAction>) -> usize {
        let change = self.draft.decide(strings, status, action);
        self.follow(&change, List::IfPendingOnly);
        change.rules.len()
    }

    /// Sets status and action of region rule `element` (see [`Draft::decide_region`]): one step to undo,
    /// journaled as every decision is.
    pub fn decide_region(&mut self, element: &str, status: Option<Status>, action: Option<RuleAction>) -> Change {
        let change = self.draft.decide_region(element, status, action);
        self.follow(&change, List::IfPendingOnly);
        change
    }

    /// Names region rule `named`, accepted (see [`Draft::name_region`]): one step to undo, journaled as
    /// every decision is.
    pub fn name_region(&mut self, named: crate::rules::region::RegionRule) -> Result<Change, String> {
        let change = self.draft.name_region(named)?;
        self.follow(&change, List::IfPendingOnly);
        Ok(change)
    }

    /// Trims candidate `i` by one more token at its start (`front`) or end (see [`Draft::trim`]); returns
    /// the trimmed text and on how many documents it matches.
    pub fn trim_candidate(&mut self, i: usize, front: bool) -> Result<(String, usize), String> {
        let (change, text, docs) = self.draft.trim(i, front)?;
        self.follow(&change, List::Rebuild);
        Ok((text, docs))
    }

    /// Takes a rule whose hand-written regex was checked (see [`super::regex_check`]), accepted. One
    /// undoable step.
    pub fn set_regex(&mut self, rule: Rule) {
        let change = self.draft.set_regex(rule);
        self.follow(&change, List::Rebuild);
    }

    /// Back to the automatic rules (see [`Draft::reset_to_automatic`]); returns how many rules changed.
    pub fn reset_to_automatic(&mut self) -> usize {
        let change = self.draft.reset_to_automatic();
        self.follow(&change, List::Rebuild);
        change.rules.len()
    }

    /// Takes back the editor's last step: what it was and whether the patterns changed (re-mine), or
    /// `None` when there is none.
    pub fn undo(&mut self) -> Option<(String, bool)> {
        let (what, change) = self.draft.undo()?;
        self.follow(&change, List::Rebuild);
        Some((what, change.patterns))
    }

    /// Takes the last undone step again: what it was and whether the patterns changed, or `None`.
    pub fn redo(&mut self) -> Option<(String, bool)> {
        let (what, change) = self.draft.redo()?;
        self.follow(&change, List::Rebuild);
        Some((what, change.patterns))
    }

    /// Turns a cleaning stage on or off for this source; the preview shows the effect at once.
    pub fn set_stage(&mut self, stage: CleanStage, on: bool) {
        let change = self.draft.set_stage(stage, on);
        self.follow(&change, List::Rebuild);
    }

    /// Makes an accepted rule of the shown document's `start..end` with `action` (see
    /// [`Draft::mark_span`]); the rule's id is returned.
    pub fn rule_from_preview(&mut self, start: usize, end: usize, action: RuleAction) -> Result<String, String> {
        let corpus = Arc::clone(&self.draft.corpus);
        let text = corpus.docs.get(self.preview.doc).map_or("", |d| d.text.as_str());
        let (change, id) = self.draft.mark_span(text, start, end, action)?;
        self.follow(&change, List::Rebuild);
        Ok(id)
    }

    /// Moves the chosen cutoff (clamped to the mined range). Returns whether it moved.
    pub fn set_cutoff(&mut self, c: CutoffBin) -> bool {
        let change = self.draft.set_cutoff(c);
        self.follow(&change, List::Rebuild);
        change.cutoff
    }

    /// Edits the mutable patterns (the caller re-mines). An undoable step.
    pub fn set_patterns(&mut self, patterns: Vec<MutablePattern>) {
        let change = self.draft.set_patterns(patterns);
        self.follow(&change, List::Rebuild);
    }

    /// Takes a new mining (see [`Draft::reconcile`]), keeping the previewed document.
    pub fn apply_mined(&mut self, mined: Mined) {
        let doc_id = self.draft.corpus.docs.get(self.preview.doc).map(|d| d.id.clone());
        let Mined { corpus, mining, ready, extra, automatic, .. } = mined;
        let remined = crate::draft::Remined { corpus, mining, ready, extra, automatic };
        let (change, old) = self.draft.reconcile(remined);
        self.idioms.remember(&self.draft.mining);
        // freeing a large mining takes milliseconds: not on the UI thread
        std::thread::spawn(move || drop(old));
        self.preview.doc = doc_id
            .and_then(|id| self.draft.corpus.position(&id))
            .unwrap_or(self.preview.doc)
            .min(self.draft.corpus.docs.len().saturating_sub(1));
        let index = &self.draft.ready.index;
        self.list.marks.retain(|id| index.contains_key(id));
        self.follow(&change, List::Rebuild);
    }

    /// Applies a journal left by an earlier session. Returns whether the patterns differ (re-mine).
    pub fn apply_replay(&mut self, replay: Replay) -> bool {
        let remine = self.draft.replay(replay.decisions, replay.cutoff, replay.patterns);
        self.draft.replay_verified(replay.verified);
        for rule in replay.regions.values() {
            // a region she named is named again; an undecided one she named is left out
            if self.draft.region(&rule.element).is_none() && rule.is_decided() {
                let _ = self.draft.name_region(rule.clone());
            }
            self.draft.decide_region(&rule.element, Some(rule.status), Some(rule.action));
        }
        if !self.draft.dirty {
            self.journal.remove();
        }
        self.refresh_all();
        remine
    }

    /// Replaces the editor's state with a rules file read from disk ("take theirs", or a reload with no
    /// unsaved work). Returns whether its patterns differ (re-mine).
    pub fn reload(&mut self, file: &RulesFile, text: String) -> bool {
        let remine = self.draft.reload(file);
        self.disk_text = Some(text);
        self.journal.remove();
        self.refresh_all();
        remine
    }

    /// "Keep mine" after the rules file changed on disk (see [`Draft::merge_from_disk`]). Returns what the
    /// merge took from disk (`None`: the file is gone) and whether the patterns or the mining parameters
    /// changed (re-mine).
    pub fn keep_mine(&mut self) -> Result<(Option<crate::merge::MergeReport>, bool), String> {
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
        let (report, remine) = self.draft.merge_from_disk(&path, &theirs, base.as_ref());
        self.disk_text = Some(text);
        if !self.draft.dirty {
            self.journal.remove();
        }
        self.refresh_all();
        Ok((Some(report), remine))
    }

    /// Saves the rules file, merged (under the file's lock, as `chaff mine` saves) with what another writer
    /// saved since it was read here: the path, and what the merge took from disk, if it took anything. The
    /// journal is no longer needed.
    pub fn save(&mut self) -> Result<(PathBuf, Option<String>), String> {
        // saved over another source's file only as the editor confirmed: as that source's rules
        let source = self.foreign_source.clone();
        // the UI thread never waits for a lock another process holds: it says who holds it, and `w` retries
        let mut held = None;
        let disk_text = self.disk_text.clone();
        let verified = self.draft.verified_unsaved() && !self.verified_unusable;
        let saved = self
            .draft
            .save(&self.spec.rules, disk_text.as_deref(), source.as_deref(), std::time::Duration::ZERO, |holder| {
                held = Some(holder.to_string())
            })
            .map_err(|e| match &held {
                Some(holder) => format!(
                    "{}: its lock is held by {holder}; nothing was saved, your work is kept: w again once that \
                     process is done",
                    self.spec.rules.display()
                ),
                None => e.to_string(),
            })?;
        if verified {
            let name = source.unwrap_or_else(|| self.spec.name.clone());
            self.draft
                .save_verified(&self.spec.rules, &name)
                .map_err(|e| format!("the rules were saved, the verified pages not: {e}"))?;
        }
        let merged = (!saved.report.is_empty()).then(|| saved.report.to_string());
        if merged.is_some() {
            self.refresh_all();
        }
        // a review merged in from disk (another editor's) is kept by the saves after this one
        self.header.review = saved.file.review.clone();
        // the watcher will report our own write: the same text is no news
        self.disk_text = Some(saved.text);
        self.journal.remove();
        Ok((self.spec.rules.clone(), merged))
    }

    /// Takes the editor's state as the one on disk (after a save).
    pub fn mark_saved(&mut self) {
        self.draft.mark_saved();
    }

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
        self.draft.annex_decided();
        self.list.editor_from = self.draft.editor_from;
        let (mining, decisions) = (&self.draft.mining, &self.draft.decisions);
        let pending = |i: usize| {
            let s = &mining.strings[i];
            decisions.get(&s.id).map_or_else(|| default_status(s), |r| r.status) == Status::Pending
        };
        let decided = |i: usize| decisions.contains_key(&mining.strings[i].id);
        let accepted = |i: usize| decisions.get(&mining.strings[i].id).is_some_and(|r| r.status == Status::Accepted);
        self.list.rebuild(&self.draft.mining, &self.draft.ready.lower, self.draft.cutoff, pending, decided, accepted);
        self.list.scroll_into_view(self.page);
    }

    /// Rebuilds the cleaner of the accepted rules.
    pub fn rebuild_cleaners(&mut self) {
        let tokenizer = self.draft.mining.tokenizer;
        let mutable = &self.draft.ready.mutable;
        let settings = self.draft.header.clean_settings();
        let build = |rules: Vec<&Rule>| {
            Cleaner::with_patterns(tokenizer, mutable, rules, settings.merge_gap).map(|c| c.with_settings(settings))
        };
        let mut rules: Vec<&Rule> = self.draft.decisions.values().filter(|r| r.status == Status::Accepted).collect();
        rules.sort_by(|a, b| a.id.cmp(&b.id));
        let cleaner = match build(rules.clone()) {
            Ok(c) => Some(c),
            // one bad hand-written regex must not blank the preview: keep the rules that compile
            Err(_) => build(rules.into_iter().filter(|r| build(vec![*r]).is_ok()).collect()).ok(),
        };
        // the accepted region rules too: the preview cleans pages with where their lines sit; and the
        // pending ones besides, as `chaff clean --include-pending` applies them, to show what they would do
        let regions = self.draft.regions();
        let any_pending = regions.iter().any(|r| r.status == Status::Pending);
        let pending = cleaner
            .as_ref()
            .filter(|_| any_pending)
            .map(|c| c.clone().with_regions(regions.iter().filter(|r| r.is_active(true))));
        self.preview.pending_regions_cleaner = pending.map(Arc::new);
        self.preview.accepted_cleaner =
            cleaner.map(|c| Arc::new(c.with_regions(regions.iter().filter(|r| r.is_active(false)))));
    }
}
