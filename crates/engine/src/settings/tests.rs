//! The one settings value: a rules file's settings over chaff's automatic configuration, given ones over
//! both, a round trip through a rules file, older files read as the same settings, and a stage's
//! settings reaching the cleaner from its `[clean.<stage>]` table alone.

use std::path::Path;

use super::*;
use crate::clean_settings::{CleanTable, ShortRunsSettings, StageSetting};
use crate::corpus::{Corpus, Document};
use crate::mining::{Quiet, mine};
use crate::rules::FORMAT;

fn parse(text: &str) -> RulesFile {
    RulesFile::parse(text, Path::new("x.toml")).unwrap()
}

const HEAD: &str = "source = \"x\"\n[cutoff]\nauto = 5\nchosen = 5\n";

#[test]
fn a_rules_files_settings_win_over_the_automatic_configuration_and_given_ones_over_both() {
    let file = parse(&format!(
        "format = 3\nmerge_gap = 4\n{HEAD}[mining]\nmin_tokens = 3\nmin_df = 2\n\
         [clean]\noff = [\"reprints\"]\n[clean.short-runs]\nwords = 7\n"
    ));
    let defaults = Settings::default();
    assert_eq!(defaults.clean.short_runs, ShortRunsSettings::AUTOMATIC);
    assert_eq!((defaults.mining.min_tokens, defaults.clean.merge_gap), (2, 0));
    let mut s = Settings::of_file(Some(&file));
    assert_eq!((s.mining.min_tokens, s.clean.merge_gap, s.clean.short_runs.words), (3, 4, 7));
    assert!(!s.clean.on(Stage::Reprints) && s.clean.on(Stage::Cuts));
    // nothing given: applying changes nothing
    let mut again = file.clone();
    s.apply_given(&mut again);
    assert_eq!(again, file);
    s.give_stage(Stage::ShortRuns, |c| c.short_runs.words = 9);
    s.give_off(Stage::Cuts);
    s.give_merge_gap(1);
    s.give_line_boundary(false);
    let mut given = file.clone();
    s.apply_given(&mut given);
    let c = given.clean_settings();
    assert_eq!((c.short_runs.words, c.merge_gap), (9, 1));
    assert!(!c.on(Stage::Cuts) && !c.on(Stage::Reprints) && !c.on(Stage::SentenceHeads), "{:?}", c.stages);
    assert_eq!(c.islands, file.clean_settings().islands, "what was not given stays the file's");
}

#[test]
fn settings_stored_in_a_rules_file_read_back_the_same() {
    let mut s = Settings::default();
    s.mining.min_tokens = 4;
    s.mining.max_tf_per_df = Some(2.5);
    s.clean.merge_gap = 3;
    s.clean.islands.words = 6;
    s.clean.specks.chars = 8;
    s.clean.stages.set(Stage::Title, false);
    let mut file = RulesFile { source: "x".into(), ..Default::default() };
    s.store(&mut file);
    let back = Settings::of_file(Some(&parse(&file.to_toml())));
    assert_eq!(back.clean, s.clean);
    assert_eq!(back.mining_params(), s.mining_params());
    assert_eq!((back.mining.tokenizer, back.mining.patterns.len()), (s.mining.tokenizer, s.mining.patterns.len()));
}

#[test]
fn a_file_of_the_previous_format_loads_with_the_same_settings_and_is_written_in_tables() {
    // format 2: islands and short_runs at the top, specks a number in [clean]
    let old = parse(&format!(
        "format = 2\nmerge_gap = 2\nislands = 4\nshort_runs = 20\n{HEAD}[clean]\noff = [\"reprints\"]\nspecks = 6\n"
    ));
    let s = old.clean_settings();
    assert_eq!((s.merge_gap, s.islands.words, s.short_runs.words, s.specks.chars), (2, 4, 20, 6));
    assert!(!s.on(Stage::Reprints) && s.on(Stage::Title));
    assert_eq!(old.format, FORMAT);
    let text = old.to_toml();
    assert!(text.contains("[clean.islands]\nwords = 4") && text.contains("[clean.specks]\nchars = 6"), "{text}");
    assert!(!text.contains("short_runs") && !text.contains("\nislands"), "{text}");
    assert_eq!(parse(&text).clean_settings(), s, "read back as the same settings");
    // format 1: the same keys, beside its switches
    let one = parse(&format!("line_boundary = true\nkeep_title = true\nshort_runs = 12\n{HEAD}"));
    let s = one.clean_settings();
    assert_eq!(s.short_runs.words, 12);
    assert!(s.on(Stage::LineBoundary) && s.on(Stage::Title) && !s.on(Stage::Reprints));
}

#[test]
fn a_format_two_key_in_a_format_three_file_is_an_error_naming_its_line() {
    for (key, line) in [("short_runs = 20\n", "short_runs"), ("islands = 3\n", "islands")] {
        let text = format!("format = 3\n{key}{HEAD}");
        let err = RulesFile::parse(&text, Path::new("x.toml")).unwrap_err().to_string();
        assert!(err.starts_with("x.toml:2:1:") && err.contains(line) && err.contains("[clean."), "{err}");
    }
    let text = format!("format = 3\n{HEAD}[clean]\nspecks = 10\n");
    let err = RulesFile::parse(&text, Path::new("x.toml")).unwrap_err().to_string();
    assert!(err.starts_with("x.toml:7:1:") && err.contains("[clean.specks]"), "{err}");
}

/// A stage's setting needs its stage's line and settings type alone: for every stage that has settings,
/// a `[clean.<stage>]` table parses with no warning, reaches the cleaner's settings, and is written back.
#[test]
fn every_stages_table_reaches_the_cleaners_settings_with_no_other_file() {
    let stages = CleanTable::stage_keys();
    assert!(!stages.is_empty());
    for (stage, keys) in stages {
        let body: String = keys.iter().map(|k| format!("{k} = 5\n")).collect();
        let text = format!("format = 3\n{HEAD}[clean.{stage}]\n{body}");
        let (file, warnings) = RulesFile::parse_checked(&text, Path::new("x.toml")).unwrap();
        assert!(warnings.is_empty(), "{stage}: {warnings:?}");
        let settings = file.clean_settings();
        assert_ne!(settings, RulesFile::default().clean_settings(), "{stage}: its settings reach the cleaner");
        let cleaner = crate::cleaning::Cleaner::new(&file, true).unwrap();
        assert_eq!(*cleaner.settings(), settings);
        let written = file.to_toml();
        assert!(written.contains(&format!("[clean.{stage}]\n{body}")), "{stage}: written back\n{written}");
        // a misspelled key is a warning naming it and its line
        let typo = format!("format = 3\n{HEAD}[clean.{stage}]\nwrods = 5\n");
        let (_, warnings) = RulesFile::parse_checked(&typo, Path::new("x.toml")).unwrap();
        assert!(warnings.len() == 1 && warnings[0].contains(&format!("clean.{stage}.wrods")), "{warnings:?}");
    }
}

/// Documents glued into long lines: no line boundary, no short runs, unless given.
fn glued() -> Corpus {
    let docs = (0..6)
        .map(|i| {
            let words: String = (0..40).map(|w| format!("word{} ", (w * 7 + i * 3) % 50)).collect();
            Document { id: i.to_string(), text: format!("Home News Sport Weather {words} Copyright the site") }
        })
        .collect();
    Corpus::from_docs("glued", docs)
}

#[test]
fn the_automatic_rules_decide_from_the_documents_what_was_not_given() {
    let corpus = glued();
    let rules = |s: &Settings| {
        let mining = mine(&corpus, &s.mining, &Quiet).unwrap();
        crate::automatic::automatic_rules(&corpus, &mining, s.mining_params(), None, s).unwrap().clean_settings()
    };
    let auto = rules(&Settings::default());
    assert!(!auto.on(Stage::LineBoundary) && !auto.on(Stage::Reprints), "{:?}", auto.stages);
    assert_eq!(auto.short_runs.words, 0, "runs are judged by lines: none here");
    let mut given = Settings::default();
    given.give_stage(Stage::ShortRuns, |c| c.short_runs.words = 15);
    given.give_line_boundary(true);
    let s = rules(&given);
    assert_eq!(s.short_runs.words, 15, "given, it wins over the documents");
    assert!(s.on(Stage::LineBoundary) && s.on(Stage::SentenceTails));
}
