//! A draft without a terminal: every action, undo, redo, reconcile, save, and a save merged with another
//! writer's.

use super::*;
use crate::clean_settings::Stage as CleanStage;
use crate::corpus::Document;
use crate::merge::{LockHolder, Prefer, save_merged};
use crate::mining::{MiningConfig, Quiet, mine};
use crate::rules::Action;
use crate::symbol::{Symbol, stable_id};

pub(super) fn corpus(n: usize) -> Corpus {
    let source = chaff_generate::sevendays(n, 20_070_227);
    let docs = source.docs.into_iter().map(|d| Document { id: d.id, text: d.text }).collect();
    Corpus::from_docs("sevendays", docs)
}

pub(super) fn mined(corpus: &Corpus, patterns: Vec<MutablePattern>) -> Mining {
    let mut config = MiningConfig::for_tokenizer(crate::tokens::Tokenizer::Text);
    config.patterns = patterns;
    mine(corpus, &config, &Quiet).unwrap()
}

/// A draft of 60 generated documents without a rules file (the automatic rules).
pub(super) fn draft() -> Draft {
    let corpus = corpus(60);
    let patterns = MiningConfig::for_tokenizer(crate::tokens::Tokenizer::Text).patterns;
    let mining = mined(&corpus, patterns.clone());
    let params = crate::rules::MiningParams::of(&MiningConfig::for_tokenizer(crate::tokens::Tokenizer::Text));
    Draft::open(corpus, mining, None, None, params, patterns, |_| {}).0
}

/// The first pending candidate above the cutoff that no suggestion decided.
pub(super) fn pending(d: &Draft) -> usize {
    (0..d.editor_from)
        .find(|&i| d.string(i).bin >= d.cutoff && d.status(i) == Status::Pending && d.rule_action(i) == Action::Remove)
        .expect("a pending candidate")
}

fn saved_rule(file: &RulesFile, id: &str) -> Rule {
    file.rules.iter().find(|r| r.id == id).cloned().unwrap_or_else(|| panic!("{id} is in the rules file"))
}

#[test]
fn a_decision_says_which_rule_changed_and_undo_and_redo_take_it_back_and_again() {
    let mut d = draft();
    let i = pending(&d);
    let id = d.string(i).id.clone();
    let change = d.decide(&[i], Some(Status::Accepted), None);
    assert_eq!(change, Change { rules: vec![id.clone()], ..Change::default() });
    assert!(d.dirty);
    assert_eq!(saved_rule(&d.rules_file(), &id).status, Status::Accepted);
    assert!(d.decide(&[i], Some(Status::Accepted), None).is_empty(), "the same decision again changes nothing");
    let (what, change) = d.undo().unwrap();
    assert_eq!(change.rules, vec![id.clone()]);
    assert!(what.starts_with("accepting `") && what.ends_with('`'), "it names the rule: {what}");
    assert_eq!(d.status(i), Status::Pending);
    assert!(!d.dirty, "back at the saved state");
    d.redo().unwrap();
    assert_eq!(d.status(i), Status::Accepted);
}

#[test]
fn an_action_on_a_pending_rule_is_a_decision_the_rules_file_keeps() {
    let mut d = draft();
    let i = pending(&d);
    let id = d.string(i).id.clone();
    d.decide(&[i], None, Some(Action::CutBefore));
    let rule = saved_rule(&d.rules_file(), &id);
    assert_eq!((rule.status, rule.action), (Status::Pending, Action::CutBefore));
}

#[test]
fn cutoff_stage_and_pattern_changes_name_the_setting_and_are_undone() {
    let mut d = draft();
    let auto = d.cutoff;
    let change = d.set_cutoff(d.cutoff_step_down());
    assert!(change.cutoff && change.rules.is_empty());
    assert!(d.cutoff < auto);
    assert_eq!(d.rules_file().cutoff.chosen, d.cutoff);
    let stage = CleanStage::Reprints;
    let on = d.stage_on(stage);
    assert!(d.set_stage(stage, !on).stages);
    assert_eq!(d.rules_file().clean.off.contains(&stage), on);
    let mut patterns = d.patterns.clone();
    patterns.push(MutablePattern::new("never", "zzqq"));
    let change = d.set_patterns(patterns.clone());
    assert!(change.patterns, "a pattern edit asks for a new mining");
    assert_eq!(d.rules_file().mutable, patterns);
    assert!(d.undo().unwrap().1.patterns);
    assert!(d.undo().unwrap().1.stages);
    assert_eq!(d.stage_on(stage), on);
    assert!(d.undo().unwrap().1.cutoff);
    assert_eq!(d.cutoff, auto);
    assert!(!d.dirty);
}

#[test]
fn trim_mark_keep_and_regex_make_the_editors_rules_and_reset_drops_them() {
    let mut d = draft();
    let i = (0..d.editor_from)
        .find(|&i| d.string(i).symbols.len() >= 3 && d.status(i) == Status::Pending)
        .expect("a candidate of three tokens");
    let id = d.string(i).id.clone();
    let (change, text, docs) = d.trim(i, false).unwrap();
    assert!(change.rules.contains(&id) && change.rules.len() == 2, "{change:?}");
    assert!(docs > 0 && !text.is_empty());
    let trimmed = change.rules.iter().find(|r| **r != id).unwrap().clone();
    let file = d.rules_file();
    assert_eq!(saved_rule(&file, &id).status, Status::Rejected);
    assert_eq!(saved_rule(&file, &trimmed).status, Status::Accepted);
    let doc = d.corpus.docs[0].text.clone();
    let (change, marked) = d.mark_span(&doc, 0, doc.find('\n').unwrap_or(doc.len()), Action::Keep).unwrap();
    assert_eq!(change.rules, std::slice::from_ref(&marked));
    let rule = saved_rule(&d.rules_file(), &marked);
    assert!(rule.editor && rule.action == Action::Keep && rule.status == Status::Accepted);
    // the same text made a footer cut is another rule: the keep stands beside it, the cut goes on cutting
    let (_, cut) = d.mark_span(&doc, 0, doc.find('\n').unwrap_or(doc.len()), Action::CutAfter).unwrap();
    assert_ne!(cut, marked);
    assert_eq!(saved_rule(&d.rules_file(), &marked).action, Action::Keep);
    assert_eq!(saved_rule(&d.rules_file(), &cut).action, Action::CutAfter);
    d.undo().unwrap();
    let j = pending(&d);
    let mut rule = d.current_rule(j);
    rule.regex = r"Photo:\s+\w+".into();
    rule.status = Status::Accepted;
    assert_eq!(d.set_regex(rule.clone()).rules, std::slice::from_ref(&rule.id));
    assert_eq!(saved_rule(&d.rules_file(), &rule.id).regex, rule.regex);
    let change = d.reset_to_automatic();
    assert!(change.rules.contains(&marked) && change.rules.contains(&rule.id));
    assert!(d.rules_file().rules.iter().all(|r| r.id != marked && r.id != trimmed), "the editor's rules are gone");
    d.undo().unwrap();
    assert_eq!(saved_rule(&d.rules_file(), &marked).action, Action::Keep, "undo brings them back");
}

#[test]
fn reconcile_keeps_decisions_and_passes_them_to_twins_under_new_patterns() {
    let mut d = draft();
    // a candidate with a plain word a new pattern can take
    let (i, word) = (0..d.editor_from)
        .filter(|&i| d.string(i).bin >= d.cutoff)
        .find_map(|i| {
            d.string(i).symbols.iter().find_map(|s| match s {
                Symbol::Literal(w) if w.len() > 3 && w.chars().all(|c| c.is_ascii_alphabetic()) => Some((i, w.clone())),
                _ => None,
            })
        })
        .unwrap();
    let (old, symbols) = (d.string(i).id.clone(), d.string(i).symbols.clone());
    d.decide(&[i], Some(Status::Accepted), Some(Action::CutAfter));
    let mut patterns = d.patterns.clone();
    patterns.push(MutablePattern::new("word", &word));
    d.set_patterns(patterns.clone());
    let mining = mined(&d.corpus, patterns);
    let ready = Ready::build(&mining, d.header.clean_settings());
    let remined = Remined { corpus: Arc::clone(&d.corpus), mining, ready, extra: Vec::new(), automatic: Vec::new() };
    let (change, _old) = d.reconcile(remined);
    let twin: Vec<Symbol> = symbols
        .into_iter()
        .map(|s| match s {
            Symbol::Literal(w) if w == word => Symbol::Mutable("word".into()),
            other => other,
        })
        .collect();
    let twin = stable_id(&twin);
    assert!(change.all && change.rules.contains(&old) && change.rules.contains(&twin), "{change:?}");
    let rule = saved_rule(&d.rules_file(), &twin);
    assert_eq!((rule.status, rule.action), (Status::Accepted, Action::CutAfter));
    assert!(d.rules_file().rules.iter().all(|r| r.id != old), "no stale copy");
}

#[test]
fn save_writes_the_rules_file_and_merges_what_another_writer_saved_meanwhile() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sevendays.toml");
    let mut d = draft();
    let (a, b) = {
        let a = pending(&d);
        let b =
            (a + 1..d.editor_from).find(|&j| d.string(j).bin >= d.cutoff && d.status(j) == Status::Pending).unwrap();
        (a, b)
    };
    let (ida, idb) = (d.string(a).id.clone(), d.string(b).id.clone());
    d.decide(&[a], Some(Status::Accepted), None);
    let never = |_: &LockHolder| panic!("no one holds the lock");
    let saved = d.save(&path, None, None, std::time::Duration::from_secs(1), never).unwrap();
    assert!(saved.report.is_empty() && !d.dirty);
    assert_eq!(saved_rule(&RulesFile::load(&path).unwrap(), &ida).status, Status::Accepted);
    // another writer rejects b and saves; this draft then rejects a
    let mut theirs = RulesFile::load(&path).unwrap();
    theirs.rules.iter_mut().find(|r| r.id == idb).unwrap().status = Status::Rejected;
    save_merged(&path, theirs, Some(&saved.text), Prefer::Ours).unwrap();
    d.decide(&[a], Some(Status::Rejected), None);
    let merged = d.save(&path, Some(&saved.text), None, std::time::Duration::from_secs(1), never).unwrap();
    assert!(!merged.report.is_empty(), "the merge took the other writer's decision");
    let file = RulesFile::load(&path).unwrap();
    assert_eq!(saved_rule(&file, &ida).status, Status::Rejected, "this draft's decision");
    assert_eq!(saved_rule(&file, &idb).status, Status::Rejected, "the other writer's, not lost");
    assert_eq!(d.status(b), Status::Rejected, "and the draft holds it now");
    assert!(!d.dirty);
}

#[test]
fn a_snapshot_makes_the_rules_file_the_draft_makes_and_a_decision_not_made_is_the_decision_made() {
    let mut d = draft();
    let i = pending(&d);
    let before = d.snapshot();
    assert_eq!(before.rules_file(), d.rules_file());
    let rule = d.if_decided(i, Some(Status::Accepted), Some(Action::CutAfter));
    let what_if = with_rule(&d.rules_file(), &rule);
    d.decide(&[i], Some(Status::Accepted), Some(Action::CutAfter));
    let active = |f: &RulesFile| -> Vec<(String, Action)> {
        let mut v: Vec<(String, Action)> = f.active_rules(false).map(|r| (r.id.clone(), r.action)).collect();
        v.sort();
        v
    };
    assert_eq!(active(&what_if), active(&d.rules_file()), "the rules the cleaner reads are the same");
    assert!(!before.same(&d.snapshot()), "a decision makes another rules file");
    assert_eq!(d.snapshot().rules_file(), d.rules_file());
    d.undo().unwrap();
    assert!(before.same(&d.snapshot()), "undone: the same rules file again");
}
