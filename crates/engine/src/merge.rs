//! Merging rules files, so that no writer loses an editor's work:
//!
//! - a new mining (or the tuning UI's new state) with the rules file it replaces: decisions, the chosen
//!   cutoff, the settings and hand-edited regexes carry over ([`from_mining`], [`keep_hand_edits`]);
//! - a file about to be written with what another writer saved since this one read it ([`save_merged`]):
//!   `chaff mine` and the tuning UI both save through it, under a lock beside the rules file, re-reading
//!   the file and merging before the rename.
//!
//! A regex is the editor's when it is not the one synthesized from the rule's tokens with the file's
//! mutable patterns (the test the cleaner uses to run a regex as a regex).

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::clean_settings::CleanSettings;
use crate::error::{Error, Result};
use crate::lines;
use crate::mining::Mining;
use crate::mutable::MutableSet;
use crate::rules::{Action, Cutoff, MiningParams, Rule, RulesFile, Status};
use crate::synthesis::synthesize;
use crate::tokens::Tokenizer;
use crate::view::DocKind;

mod lock;
mod twins;
pub use lock::*;
pub use twins::{names_a_missing_pattern, twin_ids, twins};

/// Whether `rule`'s regex is the one made from its tokens (see [`Rule::is_synthesized`]).
pub fn is_synthesized(rule: &Rule, tokenizer: Tokenizer, mutable: &MutableSet) -> bool {
    rule.is_synthesized(tokenizer, mutable)
}

/// The status a mining gives a string an editor has not decided on.
fn default_status(r: &Rule) -> Status {
    if r.idiom { Status::Rejected } else { Status::Pending }
}

/// The ids of `file`'s rules whose regex is the editor's, with that regex.
fn hand_edits(file: &RulesFile) -> HashMap<&str, &str> {
    let Ok(mutable) = MutableSet::new(file.mutable.clone()) else { return HashMap::new() };
    file.rules
        .iter()
        .filter(|r| !is_synthesized(r, file.tokenizer, &mutable))
        .map(|r| (r.id.as_str(), r.regex.as_str()))
        .collect()
}

/// Gives the rules of `file` the regexes an editor wrote in `previous` (same id), and adds the rules of
/// `previous` with a regex of the editor's that `file` lacks: a re-mining makes each regex again from
/// the tokens, and would otherwise apply the mined regex under the editor's decision.
pub fn keep_hand_edits(file: &mut RulesFile, previous: &RulesFile) {
    let edited = hand_edits(previous);
    if edited.is_empty() {
        return;
    }
    let mut found = HashSet::new();
    for r in &mut file.rules {
        if let Some(re) = edited.get(r.id.as_str()) {
            r.regex = re.to_string();
            found.insert(r.id.clone());
        }
    }
    for r in previous.rules.iter().filter(|r| edited.contains_key(r.id.as_str()) && !found.contains(&r.id)) {
        file.rules.push(r.clone());
    }
}

/// A rules file from a fresh mining: candidates at or above the auto cutoff, pending (idioms rejected).
/// With `previous`, the editor's work carries over: decisions (status and action), hand-edited regexes,
/// the chosen cutoff and the settings; rules an editor decided on or wrote that are not mined again are
/// kept (mined ones marked stale), and cluster rules are kept as they are.
pub fn from_mining(mining: &Mining, params: MiningParams, previous: Option<&RulesFile>) -> RulesFile {
    let mut file = RulesFile {
        format: crate::rules::FORMAT,
        source: mining.source.clone(),
        input: (mining.input == DocKind::Html).then_some(DocKind::Html),
        tokenizer: mining.tokenizer,
        merge_gap: 0,
        clean: Default::default(),
        legacy_islands: None,
        legacy_short_runs: None,
        legacy_line_boundary: None,
        legacy_keep_title: None,
        legacy_drop_reprints: None,
        documents: mining.documents as u64,
        cutoff: Cutoff { auto: mining.auto_cutoff, chosen: mining.auto_cutoff },
        mining: params,
        // a review names the accepted rules it saw (their hash): a new mining keeps it, and says so if they change
        review: previous.and_then(|p| p.review.clone()),
        mutable: mining.patterns.clone(),
        rules: Vec::new(),
        // region rules are mined after the strings (`regions::add_region_rules`); the editor's carry over
        regions: previous.map(|p| p.regions.clone()).unwrap_or_default(),
    };
    // the stages that refine a mining's rules stay off until the automatic rules turn them on
    file.set_clean_settings(CleanSettings::default());
    if let Some(prev) = previous {
        file.set_clean_settings(prev.clean_settings());
        if prev.cutoff.chosen != prev.cutoff.auto {
            file.cutoff.chosen = prev.cutoff.chosen;
        }
    }
    let floor = file.cutoff.chosen.min(file.cutoff.auto);
    let edited = previous.map(hand_edits).unwrap_or_default();
    // the editor's rules: decided on, or with a regex of the editor's
    let editors: HashMap<&str, &Rule> = previous
        .map(|p| {
            p.rules
                .iter()
                // a cluster's rule is its cluster's, kept below as it is: a suggested cut on it is no
                // decision for the whole source's string of the same id
                .filter(|r| {
                    r.status != Status::Pending
                        || edited.contains_key(r.id.as_str())
                        || (r.is_decided() && r.cluster.is_none())
                })
                .map(|r| (r.id.as_str(), r))
                .collect()
        })
        .unwrap_or_default();
    // a decided string mined again under a new id (the patterns changed) passes its decision on
    // (the patterns compiled only when a decided rule was not mined again: a draft saves through here)
    let ids: HashSet<&str> = mining.strings.iter().map(|s| s.id.as_str()).collect();
    let unmined = editors.keys().any(|id| !ids.contains(id));
    let mutable = if unmined { MutableSet::new(mining.patterns.clone()).ok() } else { None };
    let twin_of: HashMap<String, String> = match mutable {
        Some(mutable) => {
            let decided = editors.values().copied().filter(|r| !edited.contains_key(r.id.as_str()));
            twins(decided, |id| ids.contains(id), |id| editors.contains_key(id), mining.tokenizer, &mutable)
        }
        None => HashMap::new(),
    };
    // a cluster's string in this mining (a draft's, see `crate::draft::with_extra`) takes its decision
    let clustered: HashMap<&str, &Rule> = previous
        .map(|p| {
            let decided = p.rules.iter().filter(|r| r.cluster.is_some() && r.is_decided());
            decided.map(|r| (r.id.as_str(), r)).collect()
        })
        .unwrap_or_default();
    let mut seen: HashSet<String> = twin_of.values().cloned().collect();
    for s in &mining.strings {
        let decided = editors
            .get(s.id.as_str())
            .or_else(|| twin_of.get(&s.id).and_then(|old| editors.get(old.as_str())))
            .or_else(|| s.cluster.and(clustered.get(s.id.as_str())));
        if s.bin < floor && decided.is_none() {
            continue;
        }
        let mut rule = Rule::from_mined(s);
        if let Some(old) = decided {
            rule.status = old.status;
            rule.action = old.action;
            rule.editor = old.editor;
        }
        seen.insert(rule.id.clone());
        file.rules.push(rule);
    }
    if let Some(prev) = previous {
        for r in prev.rules.iter().filter(|r| !seen.contains(&r.id)) {
            let hand_written = r.tokens.is_empty() && !lines::is_line_id(&r.id);
            if r.cluster.is_some() || hand_written {
                // cluster rules come from mining the clusters, not this mining; hand-written ones from
                // no mining: kept as they are
                file.rules.push(r.clone());
            } else if editors.contains_key(r.id.as_str()) {
                file.rules.push(Rule { stale: true, ..r.clone() });
            }
        }
        keep_hand_edits(&mut file, prev);
    }
    file
}

/// Which side wins where this writer and the file on disk changed the same decision differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefer {
    /// The file on disk: `chaff mine`, whose own decisions are automatic, yields to an editor's.
    Disk,
    /// This writer: the tuning UI, whose editor is deciding now.
    Ours,
}

/// What a merge with the file on disk took from it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MergeReport {
    pub path: PathBuf,
    /// Rules whose decision or regex came from disk.
    pub taken: Vec<String>,
    /// Rules decided differently on disk and here, where this writer's decision was kept.
    pub kept: Vec<String>,
    /// The chosen cutoff, the cleaning settings and the mutable patterns came from disk.
    pub cutoff: bool,
    pub settings: bool,
    pub patterns: bool,
}

impl MergeReport {
    /// Whether the merge changed nothing.
    pub fn is_empty(&self) -> bool {
        self.taken.is_empty() && self.kept.is_empty() && !self.cutoff && !self.settings && !self.patterns
    }
}

/// Up to 5 ids, then how many more.
fn some_ids(ids: &[String]) -> String {
    let mut s = ids.iter().take(5).map(String::as_str).collect::<Vec<_>>().join(", ");
    if ids.len() > 5 {
        s.push_str(&format!(" and {} more", ids.len() - 5));
    }
    s
}

impl fmt::Display for MergeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut took = Vec::new();
        if !self.taken.is_empty() {
            took.push(format!("the decisions on {} rule(s) ({})", self.taken.len(), some_ids(&self.taken)));
        }
        if self.cutoff {
            took.push("the chosen cutoff".into());
        }
        if self.settings {
            took.push("the cleaning settings".into());
        }
        if self.patterns {
            took.push("the mutable patterns (mine again to apply them)".into());
        }
        write!(f, "{}: changed on disk since it was read; merged", self.path.display())?;
        if !took.is_empty() {
            write!(f, ", taking from disk {}", took.join(", "))?;
        }
        if !self.kept.is_empty() {
            write!(
                f,
                "; kept this save's decisions on {} rule(s) decided differently there ({})",
                self.kept.len(),
                some_ids(&self.kept)
            )?;
        }
        Ok(())
    }
}

/// Merges into `ours` what `theirs` (the file on disk) changed since `base` (the file as this writer
/// read it; `None`: there was none, so every decision on disk counts). Rules merge one by one: a
/// decision or regex changed on disk is taken unless this writer changed it too and `prefer` is
/// [`Prefer::Ours`]; a rule decided on disk that `ours` lacks is added. The chosen cutoff, the settings
/// and the patterns merge the same way when there is a `base`.
pub fn merge(ours: &mut RulesFile, base: Option<&RulesFile>, theirs: &RulesFile, prefer: Prefer) -> MergeReport {
    let mut report = MergeReport::default();
    let decision = |r: &Rule| (r.status, r.action);
    let undecided = |r: &Rule| (default_status(r), Action::Remove);
    let base_rules: HashMap<&str, &Rule> =
        base.map(|b| b.rules.iter().map(|r| (r.id.as_str(), r)).collect()).unwrap_or_default();
    let their_edits = hand_edits(theirs);
    let our_edits: HashSet<String> = hand_edits(ours).into_keys().map(str::to_string).collect();
    let at: HashMap<String, usize> = ours.rules.iter().enumerate().map(|(i, r)| (r.id.clone(), i)).collect();
    for t in &theirs.rules {
        let b = base_rules.get(t.id.as_str()).copied();
        let their_decision = b.map_or(decision(t) != undecided(t), |b| decision(b) != decision(t));
        let their_regex = their_edits.contains_key(t.id.as_str()) && b.is_none_or(|b| b.regex != t.regex);
        if !their_decision && !their_regex {
            continue;
        }
        let Some(&i) = at.get(&t.id) else {
            ours.rules.push(t.clone());
            report.taken.push(t.id.clone());
            continue;
        };
        let o = &mut ours.rules[i];
        let (mut took, mut kept) = (false, false);
        if their_decision && decision(o) != decision(t) {
            let ours_changed = b.map_or(decision(o) != undecided(o), |b| decision(b) != decision(o));
            if ours_changed && prefer == Prefer::Ours {
                kept = true;
            } else {
                (o.status, o.action) = (t.status, t.action);
                took = true;
            }
        }
        if their_regex && o.regex != t.regex {
            // a regex made again from the tokens is no edit of this writer's
            if our_edits.contains(&o.id) && prefer == Prefer::Ours {
                kept = true;
            } else {
                o.regex = t.regex.clone();
                took = true;
            }
        }
        if took {
            report.taken.push(t.id.clone());
        }
        if kept {
            report.kept.push(t.id.clone());
        }
    }
    crate::review::merge(ours, base, theirs);
    let Some(b) = base else { return report };
    let take = |ours_changed: bool| !ours_changed || prefer == Prefer::Disk;
    if theirs.cutoff.chosen != b.cutoff.chosen
        && ours.cutoff.chosen != theirs.cutoff.chosen
        && take(ours.cutoff.chosen != b.cutoff.chosen)
    {
        ours.cutoff.chosen = theirs.cutoff.chosen;
        report.cutoff = true;
    }
    // setting by setting (and stage by stage): `chaff mine --short-runs 7` under an editor who turned a
    // stage off keeps both
    let (mut o, t, bs) = (ours.clean_settings(), theirs.clean_settings(), b.clean_settings());
    let mut merge_one = |ours: &mut usize, theirs: usize, base: usize| {
        if theirs != base && *ours != theirs && take(*ours != base) {
            *ours = theirs;
            report.settings = true;
        }
    };
    merge_one(&mut o.merge_gap, t.merge_gap, bs.merge_gap);
    // each stage's settings (its `[clean.<stage>]` table), stage by stage
    if o.merge_stage_settings(&t, &bs, take) {
        report.settings = true;
    }
    for stage in crate::clean_settings::Stage::ALL {
        let (on, their_on, base_on) = (o.on(stage), t.on(stage), bs.on(stage));
        if their_on != base_on && on != their_on && take(on != base_on) {
            o.stages.set(stage, their_on);
            report.settings = true;
        }
    }
    ours.set_clean_settings(o);
    // the mining parameters `chaff mine` was given (`--min-tokens`, …) are settings too
    if theirs.mining != b.mining && ours.mining != theirs.mining && take(ours.mining != b.mining) {
        ours.mining = theirs.mining;
        report.settings = true;
    }
    if theirs.mutable != b.mutable && ours.mutable != theirs.mutable && take(ours.mutable != b.mutable) {
        // the rules made from tokens are made again with the patterns taken, so that they stay
        // token-matched and are not taken for hand edits later
        if let (Ok(old), Ok(new)) = (MutableSet::new(ours.mutable.clone()), MutableSet::new(theirs.mutable.clone())) {
            for r in ours.rules.iter_mut().filter(|r| !r.tokens.is_empty()) {
                if is_synthesized(r, ours.tokenizer, &old)
                    && let Ok(re) = synthesize(&r.symbols(), ours.tokenizer, &new)
                {
                    r.regex = re;
                }
            }
        }
        ours.mutable = theirs.mutable.clone();
        report.patterns = true;
    }
    report
}

/// A rules file as saved by [`save_merged`].
#[derive(Debug)]
pub struct Saved {
    /// What was written: `ours` with what it took from disk.
    pub file: RulesFile,
    pub text: String,
    /// What the merge took from disk (empty: the file on disk was the one read, or there was none).
    pub report: MergeReport,
}

/// Writes `ours` to `path` atomically, under the file's [`lock`]. If the file on disk is no longer
/// `base_text` (the text this writer read; `None`: there was no file), another writer saved since: its
/// file is read and [`merge`]d into `ours` first. A file on disk that changed and no longer parses is
/// not overwritten.
pub fn save_merged(path: &Path, ours: RulesFile, base_text: Option<&str>, prefer: Prefer) -> Result<Saved> {
    save_merged_within(path, ours, base_text, prefer, LOCK_TIMEOUT, |_| {})
}

/// As [`save_merged`], waiting at most `timeout` for the lock, calling `on_blocked` once if it is held
/// (see [`lock_within`]).
pub fn save_merged_within(
    path: &Path,
    mut ours: RulesFile,
    base_text: Option<&str>,
    prefer: Prefer,
    timeout: Duration,
    on_blocked: impl FnMut(&LockHolder),
) -> Result<Saved> {
    // a link is written through to its target: the lock that counts is the target's, which every path
    // to the file shares
    let target = crate::atomic::resolve_links(path)?;
    let path = target.as_path();
    let _lock = lock_within(path, timeout, on_blocked)?;
    let disk = match crate::rules::read_text(path) {
        Ok(text) => Some(text),
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let mut report = MergeReport { path: path.to_path_buf(), ..MergeReport::default() };
    if let Some(disk) = disk.as_deref()
        && Some(disk) != base_text
    {
        let theirs = RulesFile::parse(disk, path).map_err(|e| {
            Error::Invalid(format!(
                "{e} (the rules file changed on disk since it was read and is unusable now; nothing was written: \
                 fix it, then save or mine again)"
            ))
        })?;
        // a base that no longer parses (kept over an unusable file) counts as none
        let base = base_text.and_then(|t| RulesFile::parse(t, path).ok());
        report = MergeReport { path: path.to_path_buf(), ..merge(&mut ours, base.as_ref(), &theirs, prefer) };
    }
    let text = ours.to_toml();
    crate::atomic::write_atomic(path, text.as_bytes())?;
    Ok(Saved { file: ours, text, report })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutable::MutablePattern;

    fn file(rules: Vec<Rule>) -> RulesFile {
        RulesFile {
            format: crate::rules::FORMAT,
            source: "demo".into(),
            input: None,
            tokenizer: Tokenizer::Text,
            merge_gap: 0,
            clean: crate::clean_settings::CleanTable {
                short_runs: crate::clean_settings::ShortRunsSettings { words: 20 },
                ..Default::default()
            },
            legacy_islands: None,
            legacy_short_runs: None,
            legacy_line_boundary: None,
            legacy_keep_title: None,
            legacy_drop_reprints: None,
            documents: 10,
            cutoff: Cutoff { auto: 50, chosen: 50 },
            mining: MiningParams::default(),
            review: None,
            mutable: vec![MutablePattern::new("number", r"\d+")],
            rules,
            regions: Vec::new(),
        }
    }

    fn rule(id: &str, tokens: &[&str], status: Status) -> Rule {
        let mutable = MutableSet::new(vec![MutablePattern::new("number", r"\d+")]).unwrap();
        let symbols: Vec<_> = tokens.iter().map(|t| crate::symbol::Symbol::decode(t)).collect();
        Rule {
            id: id.into(),
            status,
            ..Rule::accepted(id, &symbols, Action::Remove, Tokenizer::Text, &mutable).unwrap()
        }
    }

    #[test]
    fn an_accepted_rule_whose_pattern_was_deleted_passes_its_decision_to_no_narrower_twin() {
        let none = MutableSet::new(Vec::new()).unwrap();
        let generalized = Rule { example: "page 12".into(), ..rule("y", &["page", "«number»"], Status::Accepted) };
        let twin = twin_ids(&generalized, Tokenizer::Text, &none)[0].clone();
        let twins_of = |r: &Rule| twins([r], |id| id == twin, |_| false, Tokenizer::Text, &none);
        assert!(twins_of(&generalized).is_empty(), "in force: it stays as it is, not narrowed to `page 12`");
        let rejected = Rule { status: Status::Rejected, ..generalized.clone() };
        assert_eq!(twins_of(&rejected).get(&twin), Some(&rejected.id), "a rejection passes on");
    }

    #[test]
    fn a_rule_mined_again_under_new_patterns_is_found_by_its_twin_id() {
        let none = MutableSet::new(Vec::new()).unwrap();
        let mut old = Rule::accepted("x", &[], Action::Remove, Tokenizer::Text, &none).unwrap();
        old.tokens = vec!["page".into(), "12".into()];
        old.example = "page 12".into();
        old.id = crate::symbol::stable_id(&old.symbols());
        let number = MutableSet::new(vec![MutablePattern::new("number", r"\d+")]).unwrap();
        let twin = crate::symbol::stable_id(&[
            crate::symbol::Symbol::Literal("page".into()),
            crate::symbol::Symbol::Mutable("number".into()),
        ]);
        assert_eq!(twin_ids(&old, Tokenizer::Text, &number), std::slice::from_ref(&twin));
        // the pattern deleted again: the slot comes back as the example's literal
        let generalized = rule("y", &["page", "«number»"], Status::Accepted);
        let generalized = Rule { id: twin, example: "page 12".into(), ..generalized };
        assert_eq!(twin_ids(&generalized, Tokenizer::Text, &none), [old.id.clone()]);
        // an editor's own rule keeps its id
        assert!(twin_ids(&Rule { editor: true, ..old }, Tokenizer::Text, &number).is_empty());
    }

    #[test]
    fn synthesized_regexes_are_told_from_the_editors() {
        let f = file(vec![
            rule("a", &["read", "more"], Status::Pending),
            rule("b", &["page", "«number»"], Status::Pending),
        ]);
        assert!(hand_edits(&f).is_empty());
        let mut g = f.clone();
        g.rules[1].regex = r"page\s+\d+\s+of".into();
        assert_eq!(hand_edits(&g).into_keys().collect::<Vec<_>>(), ["b"]);
    }

    #[test]
    fn hand_edits_are_kept_and_hand_written_rules_added() {
        let mut previous = file(vec![rule("a", &["read", "more"], Status::Accepted)]);
        previous.rules[0].regex = r"read\s+more\b".into();
        let written = Rule {
            id: "mine".into(),
            tokens: Vec::new(),
            regex: "Sponsored".into(),
            ..rule("x", &["x"], Status::Pending)
        };
        previous.rules.push(written);
        let mut again = file(vec![rule("a", &["read", "more"], Status::Accepted)]);
        keep_hand_edits(&mut again, &previous);
        assert_eq!(again.rules[0].regex, r"read\s+more\b");
        assert_eq!(again.rules.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["a", "mine"]);
    }

    #[test]
    fn the_disk_wins_for_mine_and_this_writer_for_the_ui_on_a_conflict() {
        let base = file(vec![rule("a", &["read", "more"], Status::Pending), rule("b", &["x", "y"], Status::Pending)]);
        let mut theirs = base.clone();
        theirs.rules[0].status = Status::Rejected;
        theirs.rules[1].status = Status::Accepted;
        theirs.cutoff.chosen = 30;
        let mut ours = base.clone();
        ours.rules[0].status = Status::Accepted;
        let mut mine = ours.clone();
        let r = merge(&mut mine, Some(&base), &theirs, Prefer::Disk);
        assert_eq!((mine.rules[0].status, mine.rules[1].status), (Status::Rejected, Status::Accepted));
        assert_eq!(mine.cutoff.chosen, 30);
        assert!(r.cutoff && r.taken.len() == 2 && r.kept.is_empty(), "{r:?}");
        let mut ui = ours.clone();
        let r = merge(&mut ui, Some(&base), &theirs, Prefer::Ours);
        assert_eq!((ui.rules[0].status, ui.rules[1].status), (Status::Accepted, Status::Accepted));
        assert_eq!(r.kept, ["a"]);
        assert!(r.to_string().contains("kept this save's decisions on 1 rule(s) decided differently there (a)"), "{r}");
    }

    #[test]
    fn settings_merge_one_by_one_so_each_side_keeps_what_it_alone_changed() {
        use crate::clean_settings::Stage;
        let base = file(vec![rule("a", &["read", "more"], Status::Pending)]);
        let mut theirs = base.clone();
        theirs.merge_gap = 5;
        (theirs.clean.short_runs.words, theirs.clean.islands.words) = (7, 2);
        let mut ours = base.clone();
        ours.set_stage(Stage::Reprints, false);
        let r = merge(&mut ours, Some(&base), &theirs, Prefer::Ours);
        assert!(r.settings);
        assert_eq!((ours.clean.short_runs.words, ours.clean.islands.words, ours.merge_gap), (7, 2, 5), "theirs taken");
        assert!(!ours.clean_settings().on(Stage::Reprints), "ours kept");
    }

    #[test]
    fn nothing_changed_on_disk_is_no_merge() {
        let base = file(vec![rule("a", &["read", "more"], Status::Accepted)]);
        let mut ours = base.clone();
        ours.rules[0].status = Status::Rejected;
        assert!(merge(&mut ours, Some(&base), &base, Prefer::Disk).is_empty());
        assert_eq!(ours.rules[0].status, Status::Rejected);
    }

    #[test]
    fn patterns_taken_from_disk_make_the_mined_regexes_again() {
        let base = file(vec![rule("b", &["page", "«number»"], Status::Accepted)]);
        let mut theirs = base.clone();
        theirs.mutable = vec![MutablePattern::new("number", r"\d[\d,]*")];
        let mut ours = base.clone();
        let r = merge(&mut ours, Some(&base), &theirs, Prefer::Disk);
        assert!(r.patterns);
        assert!(hand_edits(&ours).is_empty(), "{}", ours.rules[0].regex);
    }

    #[test]
    fn a_held_lock_names_its_holder_and_the_wait_for_it_ends() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("demo.toml");
        let held = lock(&path).unwrap();
        let holder = try_lock(&path).unwrap().expect_err("held");
        assert_eq!(holder.pid, Some(std::process::id()));
        let mut told = Vec::new();
        let err = lock_within(&path, Duration::from_millis(120), |h| told.push(h.to_string())).unwrap_err().to_string();
        assert_eq!(told, [holder.to_string()], "said once");
        assert!(told[0].starts_with(&format!("pid {} (", std::process::id())), "{told:?}");
        assert!(
            err.contains(&format!("held by pid {}", std::process::id())) && err.contains("--lock-timeout"),
            "{err}"
        );
        drop(held);
        assert!(try_lock(&path).unwrap().is_ok());
    }

    #[test]
    fn the_lock_is_exclusive() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("demo.toml");
        let held = lock(&path).unwrap();
        let other = std::fs::OpenOptions::new().write(true).open(dir.path().join(".demo.toml.lock")).unwrap();
        assert!(matches!(other.try_lock(), Err(std::fs::TryLockError::WouldBlock)));
        drop(held);
        assert!(other.try_lock().is_ok());
    }
}
