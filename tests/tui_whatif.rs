//! Key sequences on the real app state for what an action would do before it is taken: a cutoff weighed
//! (`C`, moved with ←/→, taken with Enter), the stage highlighted in the stages list (`S`), a pattern edit
//! (weighed on the rules as they stand as it is typed, and again once its re-mine is in, one key from
//! undone). The impact shown is the one cleaning every page
//! finds, and Esc leaves the rules, the cutoff, the stages and the undo history as they were.

mod tui_support;

use std::sync::Arc;

use chaff::clean_settings::Stage;
use chaff::impact::{Baseline, Impact};
use chaff::rules::RulesFile;
use chaff::tui::App;
use chaff::tui::state::{Measure, Mode};
use tui_support::{Fixture, press, screen, type_text};

/// What the draft is and would save, and its undo stack's top: what a dialog closed with Esc must leave.
fn state(app: &App) -> (RulesFile, u64, bool, Option<String>) {
    let s = app.session().unwrap();
    (s.rules_file(), s.revision, s.dirty, s.history.last().map(|st| st.describe()))
}

/// The impact of going from `before` to `after`, found by cleaning every document with each.
fn cleaning_all(app: &App, before: &RulesFile, after: &RulesFile) -> Impact {
    let s = app.session().unwrap();
    let base = Baseline::of_corpus(before, Arc::clone(&s.draft.corpus), s.preview.with_pending).unwrap();
    Impact { recleaned: 0, ..base.impact_cleaning_all(after).unwrap() }
}

fn weighed(m: &Measure) -> Impact {
    let impacts = m.impacts.as_ref().unwrap_or_else(|| panic!("measured before confirming: {m:?}"));
    Impact { recleaned: 0, ..impacts[0].clone() }
}

fn cutoff_measure(app: &App) -> (u8, Measure) {
    match &app.mode {
        Mode::CutoffPrompt(c) => (c.target, c.measure.clone()),
        _ => panic!("the cutoff dialog is open"),
    }
}

#[test]
fn a_cutoff_weighed_shows_its_impact_before_enter_takes_it_and_esc_leaves_everything_as_it_was() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(160, 48);
    // the cleaned text counts the pending rules: the cutoff decides which are in force
    press(&mut app, "+");
    let was = state(&app);
    let cutoff = app.session().unwrap().cutoff;
    press(&mut app, "C");
    let (target, m) = cutoff_measure(&app);
    assert_eq!(target, cutoff, "the dialog opens at the chosen cutoff");
    assert!(weighed(&m).changed.is_empty(), "the chosen cutoff changes nothing");
    press(&mut app, "Left");
    let (lower, m) = cutoff_measure(&app);
    assert!(lower < cutoff, "← weighs a lower cutoff");
    let impact = weighed(&m);
    assert!(impact.removed() > 0, "a lower cutoff puts more rules in force: {impact:?}");
    assert_eq!(app.session().unwrap().cutoff, cutoff, "weighed, not taken");
    let shown = screen(&app);
    assert!(shown.contains("Take this cutoff?") && shown.contains(&format!("{cutoff}% → {lower}%")), "{shown}");
    assert!(
        shown.contains(&format!("{}/120 docs change: −{} words", impact.changed.len(), impact.removed())),
        "{shown}"
    );
    assert!(shown.contains("most changed"), "{shown}");
    assert!(shown.contains(&format!("△ weighed {lower}%")), "the histogram marks the cutoff weighed: {shown}");
    press(&mut app, "Esc");
    assert!(matches!(app.mode, Mode::Normal));
    assert_eq!(state(&app), was, "C ← Esc: rules, cutoff and undo history as they were");
    // taken: the impact weighed is the one cleaning every page with the rules before and after finds
    let before = app.session().unwrap().impact_rules();
    press(&mut app, "C Left");
    let weighed_lower = weighed(&cutoff_measure(&app).1);
    press(&mut app, "Enter");
    let s = app.session().unwrap();
    assert_eq!(s.cutoff, lower, "Enter takes the cutoff weighed");
    let after = s.impact_rules();
    assert_eq!(weighed_lower, cleaning_all(&app, &before, &after));
    let message = app.message.clone().expect("the status line says what it did").text;
    assert!(message.contains(&format!("−{} words", weighed_lower.removed())), "{message}");
    press(&mut app, "u");
    assert_eq!(state(&app).0, was.0, "one undo takes it back");
}

#[test]
fn esc_in_the_cutoff_dialog_turns_back_its_plus() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let was = state(&app);
    assert!(!app.session().unwrap().preview.with_pending);
    press(&mut app, "C +");
    assert!(app.session().unwrap().preview.with_pending, "+ in the dialog counts the pending rules");
    press(&mut app, "Esc");
    assert!(matches!(app.mode, Mode::Normal));
    assert!(!app.session().unwrap().preview.with_pending, "Esc: the preview of the accepted rules, as it was");
    assert_eq!(state(&app), was);
    // turned on before the dialog, it stays on
    press(&mut app, "+ C Esc");
    assert!(app.session().unwrap().preview.with_pending);
}

#[test]
fn a_cutoff_weighed_moves_back_and_up_and_a_digit_shows_the_document_it_changes_most() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "+ C Left Left");
    let (two_down, _) = cutoff_measure(&app);
    press(&mut app, "Right");
    let (one_down, m) = cutoff_measure(&app);
    assert!(two_down < one_down && one_down < app.session().unwrap().cutoff, "{two_down} {one_down}");
    let first = weighed(&m).changed[0].index;
    press(&mut app, "0");
    assert_eq!(cutoff_measure(&app).0, app.session().unwrap().mining.auto_cutoff, "0 weighs the automatic one");
    press(&mut app, "Left 1");
    assert!(matches!(app.mode, Mode::Normal), "a digit closes the dialog");
    let s = app.session().unwrap();
    assert_eq!(s.preview.doc, first, "1: the document the weighed cutoff changes most");
    assert!(!s.dirty && !s.history.can_undo(), "looking took nothing");
    press(&mut app, "b");
    assert_eq!(app.session().unwrap().preview.doc, 0, "b: back");
}

#[test]
fn the_highlighted_stage_shows_what_turning_it_would_do_before_enter_and_esc_leaves_everything_as_it_was() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(160, 48);
    // the pending rules in force: the stages have matches to work on
    press(&mut app, "+");
    let was = state(&app);
    press(&mut app, "S");
    // the first stage whose turn changes some page
    let mut found = None;
    for k in 0..Stage::ALL.len() {
        let Mode::Stages { selected, measure } = &app.mode else { panic!("the stages list is open") };
        assert_eq!(*selected, k);
        let impact = weighed(measure);
        if !impact.changed.is_empty() {
            found = Some((k, impact));
            break;
        }
        press(&mut app, "Down");
    }
    let (k, impact) = found.expect("turning some stage changes some page");
    let stage = Stage::ALL[k];
    let on = app.session().unwrap().stage_on(stage);
    let shown = screen(&app);
    let turn = format!("turning {} {}:", stage.name(), if on { "off" } else { "on" });
    assert!(shown.contains(&turn) && shown.contains(&format!("{}/120 docs change", impact.changed.len())), "{shown}");
    assert_eq!(state(&app), was, "highlighting weighs, takes nothing");
    // the next stage highlighted: its own turn weighed, the latest request answered
    let asked = |app: &App| match &app.mode {
        Mode::Stages { measure, .. } => measure.asked,
        _ => panic!("the stages list is open"),
    };
    let first = asked(&app);
    press(&mut app, "Down");
    let next = Stage::ALL[k + 1];
    assert!(asked(&app) > first, "↓ weighs the next stage");
    let turn_next =
        format!("turning {} {}:", next.name(), if app.session().unwrap().stage_on(next) { "off" } else { "on" });
    assert!(screen(&app).contains(&turn_next), "{}", screen(&app));
    press(&mut app, "Up");
    assert_eq!(
        weighed(match &app.mode {
            Mode::Stages { measure, .. } => measure,
            _ => panic!("the stages list is open"),
        }),
        impact,
        "back on it: the same impact"
    );
    press(&mut app, "Esc");
    assert!(matches!(app.mode, Mode::Normal));
    assert_eq!(state(&app), was, "S ↓ Esc: rules, stages and undo history as they were");
    // taken: the impact weighed is the one cleaning every page finds
    let before = app.session().unwrap().impact_rules();
    press(&mut app, "S");
    for _ in 0..k {
        press(&mut app, "Down");
    }
    press(&mut app, "Enter");
    let s = app.session().unwrap();
    assert_eq!(s.stage_on(stage), !on, "Enter turns it");
    assert_eq!(impact, cleaning_all(&app, &before, &s.impact_rules()));
    // the list now weighs turning it back: the same words, the other way
    let Mode::Stages { measure, .. } = &app.mode else { panic!("the list stays open") };
    let back = weighed(measure);
    assert_eq!((back.removed(), back.given_back()), (impact.given_back(), impact.removed()));
    press(&mut app, "Esc u");
    assert_eq!(state(&app).0, was.0, "one undo takes it back");
}

#[test]
fn a_pattern_edit_shows_its_impact_on_the_rules_as_they_stand_before_enter_and_esc_leaves_everything_as_it_was() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    // the pending rules in force: the header rule with the date's month in it cleans every page
    press(&mut app, "+");
    let was = state(&app);
    let before = app.session().unwrap().impact_rules();
    let patterns = app.session().unwrap().patterns.clone();
    let month = patterns.iter().position(|p| p.name == "month").expect("a month pattern");
    press(&mut app, "Tab");
    for _ in 0..month {
        press(&mut app, "Down");
    }
    press(&mut app, "e");
    let measure = |app: &App| match &app.mode {
        Mode::EditPattern(e) => e.measure.clone(),
        _ => panic!("the pattern editor is open"),
    };
    assert_eq!(measure(&app).asked, 0, "the pattern as it is: nothing to weigh");
    // no month matches any more: the rules with «month» in them stop matching
    type_text(&mut app, "zzz");
    tui_support::settle(&mut app);
    let impact = weighed(&measure(&app));
    assert!(impact.given_back() > 0 && impact.removed() == 0, "{:?}", (impact.given_back(), impact.removed()));
    let mut edited = patterns.clone();
    edited[month].regex.push_str("zzz");
    let after = app.session().unwrap().draft.if_taken(&chaff::draft::Act::Patterns(edited)).unwrap().rules_file();
    assert_eq!(impact, cleaning_all(&app, &before, &after), "the impact cleaning every page finds");
    let shown = screen(&app);
    let line = format!("the rules as they stand: {}/120 docs change", impact.changed.len());
    assert!(shown.contains(&line), "{shown}");
    assert_eq!(state(&app), was, "typing weighs, applies nothing");
    assert!(app.session().unwrap().job.is_none(), "nothing re-mined");
    // a pattern that does not compile is not weighed
    type_text(&mut app, "(");
    tui_support::settle(&mut app);
    assert_eq!(measure(&app).asked, 0);
    assert!(!screen(&app).contains("the rules as they stand"), "{}", screen(&app));
    press(&mut app, "Esc");
    assert!(matches!(app.mode, Mode::Normal));
    assert_eq!(state(&app), was, "Esc: rules, patterns and undo history as they were");
}

#[test]
fn a_pattern_edit_is_weighed_once_its_re_mine_is_in_and_one_key_undoes_it() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let was = state(&app).0;
    press(&mut app, "Tab n");
    type_text(&mut app, "never");
    press(&mut app, "Tab");
    type_text(&mut app, "zzqq[0-9]+zz");
    press(&mut app, "Enter");
    app.wait_for_miner();
    tui_support::settle(&mut app);
    let message = app.message.clone().expect("the re-mine says what it did").text;
    assert!(message.contains("u undoes the pattern edit"), "{message}");
    assert!(message.contains("docs change") || message.contains("no document of 120 changes"), "{message}");
    press(&mut app, "u");
    app.wait_for_miner();
    assert_eq!(state(&app).0.mutable, was.mutable, "u: the patterns as they were");
}

#[test]
fn the_cutoff_dialog_snapshot() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "+ C Left");
    insta::assert_snapshot!("cutoff_whatif_120x40", screen(&app));
}
