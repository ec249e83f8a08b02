//! Region decisions on a draft: decide, undo, redo, save and reload.

use std::time::Duration;

use super::super::Draft;
use crate::corpus::{Corpus, Document};
use crate::mining::{MiningConfig, mine};
use crate::rules::region::RegionRule;
use crate::rules::{Action, RulesFile, Status};
use crate::tokens::Tokenizer;

/// A pending region candidate as mining writes it.
fn candidate(element: &str) -> RegionRule {
    RegionRule {
        status: Status::Pending,
        df: 30,
        words: 40,
        kept: 35,
        example: "Comments (3) …".into(),
        ..RegionRule::accepted(element, Action::Remove)
    }
}

/// A draft of 40 generated documents whose rules file holds two region candidates.
fn draft_with(previous: Option<RulesFile>) -> Draft {
    let source = chaff_generate::sevendays(40, 20_070_227);
    let docs = source.docs.into_iter().map(|d| Document { id: d.id, text: d.text }).collect();
    let corpus = Corpus::from_docs("sevendays", docs);
    let config = MiningConfig::for_tokenizer(Tokenizer::Text);
    let mining = mine(&corpus, &config, &crate::mining::Quiet).unwrap();
    let params = crate::rules::MiningParams::of(&config);
    let previous = previous.or_else(|| {
        let mut file = crate::merge::from_mining(&mining, params, None);
        file.regions = vec![candidate("div#comments"), candidate("ul.related")];
        Some(file)
    });
    Draft::open(corpus, mining, None, previous, params, config.patterns.clone(), |_| {}).0
}

fn region<'a>(d: &'a Draft, element: &str) -> &'a RegionRule {
    d.region(element).unwrap_or_else(|| panic!("region {element} in the draft"))
}

#[test]
fn a_region_decision_names_its_rule_and_undo_and_redo_take_it_back_and_again() {
    let mut d = draft_with(None);
    assert!(!d.dirty);
    let change = d.decide_region("div#comments", Some(Status::Accepted), None);
    assert_eq!(change.rules, ["region:div#comments"]);
    assert!(d.dirty, "a region decision is unsaved work");
    assert_eq!(region(&d, "div#comments").status, Status::Accepted);
    assert_eq!(region(&d, "ul.related").status, Status::Pending, "the other region is left as it was");
    assert!(d.decide_region("div#comments", Some(Status::Accepted), None).is_empty(), "the same decision again");
    assert!(d.decide_region("div#nowhere", Some(Status::Accepted), None).is_empty(), "no such region");

    let change = d.decide_region("div#comments", None, Some(Action::CutAfter));
    assert_eq!(change.rules, ["region:div#comments"]);
    let (what, change) = d.undo().unwrap();
    assert_eq!(what, "a decision on region div#comments");
    assert_eq!(change.rules, ["region:div#comments"]);
    assert_eq!(
        (region(&d, "div#comments").status, region(&d, "div#comments").action),
        (Status::Accepted, Action::Remove)
    );
    d.undo().unwrap();
    assert_eq!(region(&d, "div#comments").status, Status::Pending);
    assert!(!d.dirty, "undone back to the state loaded: nothing unsaved");
    d.redo().unwrap();
    d.redo().unwrap();
    assert_eq!(
        (region(&d, "div#comments").status, region(&d, "div#comments").action),
        (Status::Accepted, Action::CutAfter)
    );
    assert!(d.redo().is_none());
}

#[test]
fn region_decisions_are_saved_in_the_rules_file_and_read_back() {
    let mut d = draft_with(None);
    d.decide_region("div#comments", Some(Status::Accepted), Some(Action::CutAfter));
    d.decide_region("ul.related", Some(Status::Rejected), None);
    let file = d.rules_file();
    let got: Vec<(&str, Status, Action)> =
        file.regions.iter().map(|r| (r.element.as_str(), r.status, r.action)).collect();
    assert_eq!(
        got,
        [("div#comments", Status::Accepted, Action::CutAfter), ("ul.related", Status::Rejected, Action::Remove)]
    );
    assert_eq!(file.regions[0].df, 30, "the rule keeps what mining measured of it");

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sevendays.toml");
    d.save(&path, None, None, Duration::from_secs(1), |_| {}).unwrap();
    assert!(!d.dirty);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("[[region]]") && text.contains("element = \"div#comments\""), "{text}");

    let reopened = draft_with(Some(RulesFile::load(&path).unwrap()));
    assert!(!reopened.dirty);
    let back = reopened.region("div#comments").unwrap();
    assert_eq!((back.status, back.action), (Status::Accepted, Action::CutAfter));
    assert_eq!(reopened.region("ul.related").unwrap().status, Status::Rejected);
    // the cleaner reads the accepted region rule only
    let active: Vec<String> = reopened.regions().iter().filter(|r| r.is_active(true)).map(RegionRule::id).collect();
    assert_eq!(active, ["region:div#comments"]);
}

#[test]
fn undoing_a_region_decision_after_a_save_is_unsaved_work() {
    let mut d = draft_with(None);
    d.decide_region("ul.related", Some(Status::Rejected), None);
    d.mark_saved();
    assert!(!d.dirty);
    d.undo().unwrap();
    assert!(d.dirty, "the file on disk holds the rejection");
    assert_eq!(region(&d, "ul.related").status, Status::Pending);
}

#[test]
fn a_region_the_editor_names_is_accepted_saved_and_taken_away_by_undo() {
    let mut d = draft_with(None);
    let change =
        d.name_region(RegionRule { df: 7, ..RegionRule::accepted("div.photo_caption", Action::Remove) }).unwrap();
    assert_eq!(change.rules, ["region:div.photo_caption"]);
    let named = region(&d, "div.photo_caption");
    assert_eq!((named.status, named.action, named.df), (Status::Accepted, Action::Remove, 7), "as measured");
    assert!(d.dirty);
    assert!(d.rules_file().regions.iter().any(|r| r.element == "div.photo_caption"), "saved with the rules");

    let (what, _) = d.undo().unwrap();
    assert_eq!(what, "naming region div.photo_caption");
    assert!(d.region("div.photo_caption").is_none(), "undo takes the named rule away");
    assert!(!d.dirty);
    d.redo().unwrap();
    assert_eq!(region(&d, "div.photo_caption").status, Status::Accepted);

    // an element mining proposed is decided, not named twice
    d.name_region(RegionRule::accepted("ul.related", Action::CutAfter)).unwrap();
    assert_eq!(d.regions().iter().filter(|r| r.element == "ul.related").count(), 1);
    assert_eq!(
        (region(&d, "ul.related").status, region(&d, "ul.related").action),
        (Status::Accepted, Action::CutAfter)
    );
    d.undo().unwrap();
    assert_eq!(region(&d, "ul.related").status, Status::Pending, "the mined candidate stays, pending");

    let err = d.name_region(RegionRule::accepted("div", Action::Remove)).unwrap_err();
    assert!(err.contains("a tag and an id or one class"), "{err}");
}
