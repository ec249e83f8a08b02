//! A what-if is the action taken and measured, with nothing taken: for every kind of action, the impact
//! [`Draft::what_if`] gives equals the impact of the change the action makes, and the draft (rules,
//! cutoff, stages, undo history) is as it was.

use std::sync::Arc;

use super::*;
use crate::clean_settings::Stage as CleanStage;
use crate::draft::tests::{draft, pending};
use crate::rules::RulesFile;

/// What the draft holds that an action could change: its rules file, its undo history's last step, its
/// revision.
fn state(d: &Draft) -> (RulesFile, Option<crate::draft::history::Step>, u64, bool) {
    (d.rules_file(), d.history.last().cloned(), d.revision, d.dirty)
}

/// Weighs `act`, checks nothing moved, takes it, and checks the impact measured after is the one weighed
/// and the rules file is the one foreseen; then undoes it. Returns the impact.
fn weighed_then_taken(d: &mut Draft, act: Act) -> Impact {
    let before = state(d);
    let base = Baseline::of_corpus(&before.0, Arc::clone(&d.corpus), true).unwrap();
    let foreseen = d.if_taken(&act).unwrap().rules_file();
    let weighed = d.what_if(&base, &act).unwrap();
    assert_eq!(state(d), before, "weighing {act:?} takes nothing");
    let change = d.take(&act).unwrap();
    assert!(!change.is_empty(), "{act:?} changes the draft");
    let taken = d.rules_file();
    assert_eq!(foreseen, taken, "{act:?}: the rules file foreseen is the one made");
    assert_eq!(weighed, base.impact(&taken).unwrap(), "{act:?}: the impact weighed is the one measured");
    let all = base.impact_cleaning_all(&taken).unwrap();
    assert_eq!(Impact { recleaned: 0, ..weighed.clone() }, Impact { recleaned: 0, ..all }, "{act:?}: and cleaning all");
    d.undo().unwrap();
    assert_eq!(d.rules_file(), before.0, "{act:?} undone");
    weighed
}

#[test]
fn every_action_weighed_before_it_is_taken_has_the_impact_of_taking_it() {
    let mut d = draft();
    let i = pending(&d);
    // a pending rule in force alone on some words: rejecting it gives them back
    let base = Baseline::of_corpus(&d.rules_file(), Arc::clone(&d.corpus), true).unwrap();
    let reject = |i: usize| Act::Decide { strings: vec![i], status: Some(Status::Rejected), action: None };
    let alone = (i..d.editor_from)
        .filter(|&j| d.string(j).bin >= d.cutoff && d.status(j) == Status::Pending)
        .find(|&j| d.what_if(&base, &reject(j)).unwrap().given_back() > 0)
        .expect("a pending rule whose words no other rule takes");
    let rejected = weighed_then_taken(&mut d, reject(alone));
    assert!(rejected.given_back() > 0 && rejected.removed() == 0, "{rejected:?}");
    weighed_then_taken(
        &mut d,
        Act::Decide { strings: vec![i], status: Some(Status::Accepted), action: Some(RuleAction::CutAfter) },
    );
    let lower = d.cutoff_step_down();
    let down = weighed_then_taken(&mut d, Act::Cutoff(lower));
    assert!(down.removed() > 0, "a lower cutoff puts more rules in force: {down:?}");
    let higher = d.cutoff_step_up();
    weighed_then_taken(&mut d, Act::Cutoff(higher));
    let mut stages_that_change = 0;
    for stage in CleanStage::ALL {
        let on = !d.stage_on(stage);
        stages_that_change += usize::from(!weighed_then_taken(&mut d, Act::Stage { stage, on }).changed.is_empty());
    }
    assert!(stages_that_change > 0, "some stage changes some page");
    let three = (0..d.editor_from)
        .find(|&i| d.string(i).symbols.len() >= 3 && d.status(i) == Status::Pending && d.string(i).bin >= d.cutoff)
        .expect("a candidate of three tokens");
    weighed_then_taken(&mut d, Act::Trim { string: three, front: false });
    let doc = d.corpus.docs[0].text.clone();
    let line = doc.find('\n').unwrap_or(doc.len());
    weighed_then_taken(&mut d, Act::Mark { doc: doc.clone(), start: 0, end: line, action: RuleAction::Keep });
    let mut rule = d.current_rule(i);
    rule.regex = r"Photo:\s+\w+".into();
    rule.status = Status::Accepted;
    weighed_then_taken(&mut d, Act::Regex(rule));
    let mut patterns = d.patterns.clone();
    patterns.push(MutablePattern::new("never", "zzqq"));
    weighed_then_taken(&mut d, Act::Patterns(patterns));
}

#[test]
fn a_reset_weighed_gives_back_what_the_editors_decisions_took() {
    let mut d = draft();
    let i = pending(&d);
    d.decide(&[i], Some(Status::Accepted), Some(RuleAction::CutAfter));
    let doc = d.corpus.docs[1].text.clone();
    let line = doc.find('\n').unwrap_or(doc.len());
    d.mark_span(&doc, 0, line, RuleAction::Remove).unwrap();
    let reset = weighed_then_taken(&mut d, Act::Reset);
    assert!(reset.given_back() > 0, "the marked line comes back: {reset:?}");
}

#[test]
fn a_pattern_edit_weighed_matches_the_rules_as_they_stand_with_the_edited_pattern() {
    let mut d = draft();
    let base = Baseline::of_corpus(&d.rules_file(), Arc::clone(&d.corpus), true).unwrap();
    let reject = |i: usize| Act::Decide { strings: vec![i], status: Some(Status::Rejected), action: None };
    // a rule in force with a pattern in it, alone on some words
    let (i, name) = (0..d.editor_from)
        .filter(|&j| d.string(j).bin >= d.cutoff && d.status(j) == Status::Pending)
        .filter_map(|j| {
            let name = d.string(j).symbols.iter().find_map(|s| match s {
                crate::symbol::Symbol::Mutable(p) => Some(p.clone()),
                _ => None,
            })?;
            (d.what_if(&base, &reject(j)).unwrap().given_back() > 0).then_some((j, name))
        })
        .next()
        .expect("a pending rule with a pattern, alone on some words");
    // the pattern made to match nothing: the rule matches no more, its words come back
    let mut patterns = d.patterns.clone();
    let p = patterns.iter_mut().find(|p| p.name == name).unwrap();
    p.regex = "zzqq".into();
    let edited = weighed_then_taken(&mut d, Act::Patterns(patterns));
    let rejected = d.what_if(&base, &reject(i)).unwrap();
    let words = |i: &Impact| (i.changed.len(), i.given_back(), i.removed());
    assert!(edited.given_back() >= rejected.given_back(), "{:?} against {:?}", words(&edited), words(&rejected));
    assert!(edited.given_back() > 0 && edited.removed() == 0, "{:?}", words(&edited));
}
