//! Rules files: round trips, older formats read as this one, errors naming line and column.

use std::fs;

use super::*;
use crate::clean_settings::{IslandsSettings, ShortRunsSettings, Stage, Stages};

pub(super) fn sample() -> RulesFile {
    RulesFile {
        source: "demo".into(),
        merge_gap: 3,
        clean: CleanTable {
            off: vec![Stage::Reprints],
            islands: IslandsSettings { words: 4 },
            short_runs: ShortRunsSettings { words: 20 },
            ..Default::default()
        },
        documents: 10,
        cutoff: Cutoff { auto: 51, chosen: 60 },
        mutable: vec![MutablePattern::new("weekday", "(?:Monday|Tuesday)[[:punct:]]*")],
        rules: vec![
            Rule {
                id: "r1".into(),
                status: Status::Accepted,
                action: Action::CutAfter,
                regex: r"read\s+more".into(),
                tokens: vec!["read".into(), "more".into()],
                tf: 20,
                df: 10,
                bin: 99,
                coverage: 180,
                adds: 0,
                example: "read more".into(),
                idiom: false,
                stale: false,
                editor: false,
                cluster: None,
                own_line: true,
            },
            Rule {
                id: "r2".into(),
                status: Status::Pending,
                action: Action::Remove,
                regex: r"«x»\s+\|".into(),
                tokens: vec!["\\«x»".into(), "|".into()],
                tf: 9,
                df: 9,
                bin: 90,
                coverage: 45,
                adds: 0,
                example: "«x» | \"quoted\"\nnew line".into(),
                idiom: true,
                stale: true,
                editor: false,
                cluster: Some(1),
                own_line: false,
            },
        ],
        ..Default::default()
    }
}

#[test]
fn a_default_rules_file_is_an_empty_file_of_the_current_format_that_reads_back() {
    let file = RulesFile { source: "demo".into(), ..Default::default() };
    assert_eq!(file.format, FORMAT);
    let text = toml::to_string(&file).unwrap();
    assert_eq!(RulesFile::parse(&text, Path::new("x.toml")).unwrap(), file);
}

#[test]
fn only_words_are_fixed_text_a_reader_sees() {
    let with =
        |tokens: &[&str]| Rule { tokens: tokens.iter().map(|t| t.to_string()).collect(), ..sample().rules[0].clone() };
    let linked_name = with(&["«upcase»", "</a>"]);
    assert!(linked_name.has_fixed_text() && !linked_name.shows_fixed_text());
    let dated = with(&["</b>", "on", "«month»", "«number»"]);
    assert!(dated.has_fixed_text() && dated.shows_fixed_text());
    assert!(!with(&["«upcase»", "«upcase»"]).shows_fixed_text());
}

#[test]
fn load_save_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo.toml");
    let file = sample();
    file.save(&path).unwrap();
    assert_eq!(RulesFile::load(&path).unwrap(), file);
    // saving what was loaded gives the same bytes
    let first = fs::read_to_string(&path).unwrap();
    RulesFile::load(&path).unwrap().save(&path).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), first);
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left behind");
}

#[test]
fn a_format_one_files_switches_become_the_same_stages_off() {
    let head = "source = \"x\"\n[cutoff]\nauto = 5\nchosen = 5\n";
    let old = |switches: &str, tables: &str| {
        RulesFile::parse(&format!("{switches}{head}{tables}"), Path::new("x.toml")).unwrap()
    };
    // absent switches left their stages off in format 1
    let bare = old("", "");
    assert_eq!(bare.format, FORMAT);
    assert_eq!(bare.clean_settings().stages, Stages::default());
    let all = old("line_boundary = true\nkeep_title = true\ndrop_reprints = true\n", "");
    assert_eq!(all.clean_settings().stages, Stages::all());
    assert!(all.clean.off.is_empty());
    let some = old("line_boundary = true\n", "[clean]\noff = [\"islands\"]\n");
    assert_eq!(
        some.clean.off,
        [Stage::Islands, Stage::Title, Stage::Headline, Stage::Datelines, Stage::Reprints, Stage::Repeats],
        "the switches' stages join the file's own, in pipeline order"
    );
    // written in this format: `[clean] off` alone says which stages are off, and reads back the same
    let text = some.to_toml();
    assert!(text.contains(&format!("format = {FORMAT}")) && !text.contains("line_boundary"), "{text}");
    assert_eq!(RulesFile::parse(&text, Path::new("x.toml")).unwrap(), some);
}

#[test]
fn a_format_one_switch_in_a_later_file_is_an_error_naming_its_line() {
    let text = "format = 2\nsource = \"x\"\nkeep_title = false\n[cutoff]\nauto = 5\nchosen = 5\n";
    let err = RulesFile::parse(text, Path::new("x.toml")).unwrap_err().to_string();
    assert!(err.starts_with("x.toml:3:1:") && err.contains("[clean] off"), "{err}");
    let newer = format!("format = {}\nsource = \"x\"\n[cutoff]\nauto = 5\nchosen = 5\n", FORMAT + 1);
    let err = RulesFile::parse(&newer, Path::new("x.toml")).unwrap_err().to_string();
    assert!(err.contains("update chaff"), "{err}");
}

#[test]
fn malformed_file_names_line_and_column() {
    let text = "source = \"x\"\n[cutoff]\nauto = 5\nchosen = \"high\"\n";
    let err = RulesFile::parse(text, Path::new("rules/x.toml")).unwrap_err().to_string();
    assert!(err.starts_with("rules/x.toml:4:10:"), "{err}");
    let err = RulesFile::parse("source = \n", Path::new("y.toml")).unwrap_err().to_string();
    assert!(err.starts_with("y.toml:1:"), "{err}");
}

#[test]
fn export_keeps_only_accepted() {
    let f = sample().export_accepted();
    assert_eq!(f.rules.len(), 1);
    assert_eq!(f.rules[0].id, "r1");
}

#[test]
fn active_rules_include_pending_above_the_chosen_cutoff_on_request() {
    let f = sample();
    assert_eq!(f.active_rules(false).count(), 1);
    assert_eq!(f.active_rules(true).count(), 2);
    let mut g = f.clone();
    g.cutoff.chosen = 95;
    assert_eq!(g.active_rules(true).count(), 1);
}

mod line_rules {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// A line rule is known by its regex being exactly what `line_regex` writes of its line (read
        /// without writing it), and nothing else: a longer or shorter regex, another line's, the line
        /// unescaped.
        #[test]
        fn a_line_rule_is_one_whose_regex_is_its_line_regex_exactly(
            line in "[a-z.*()\\\\$^ «»é:?|-]{0,10}",
            other in "[a-z.*()\\\\$^ «»é:?|-]{0,10}",
            cut in 0usize..24,
        ) {
            let mut rule = sample().rules[0].clone();
            rule.id = format!("{LINE_PREFIX}{line}");
            rule.tokens.clear();
            let exact = line_regex(&line);
            let regexes = [
                exact.clone(),
                line_regex(&other),
                exact.get(..cut).unwrap_or("").to_string(),
                format!("{exact}$"),
                format!("(?m)^{line}$"),
                other.clone(),
            ];
            for regex in regexes {
                rule.regex = regex.clone();
                prop_assert_eq!(rule.line().is_some(), regex == exact, "{}", regex);
            }
        }
    }
}
