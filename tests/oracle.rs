//! The oracle editor judges its decisions as a careful editor would, on the pages they were not made on:
//! no cut at a generic string, no decision that takes article words from a training page, and the
//! per-site table flags a site that its decisions leave below its automatic figure.

use std::fs;
use std::path::Path;

use chaff::eval::methods::chaff::Chaff;
use chaff::eval::methods::{Model, Source};
use chaff::eval::oracle::{Edited, edit};
use chaff::eval::report::{Evaluation, RunReport};
use chaff::eval::run::{PageResult, ProtocolRun, Speed, output_text};
use chaff::eval::score::{Gold, Prf};
use chaff::eval::{Dataset, EvalConfig, Input, Protocol, Quiet, evaluate_oracle};
use chaff::frame::is_generic;
use chaff::generate::{html_news, mixed_templates, optional_parts, sevendays, write_source};
use chaff::rules::{RulesFile, Status};
use chaff::settings::Settings;
use chaff::symbol::Symbol;

/// Pages of the courier: the article is two paragraphs of the page's own words, and on pages 3 and 13 a
/// third that starts "The NSA said". After the article a line of the page's own words opens with "The"
/// and an agency's initials: template, which only a cut after the generic `The «upcase»` removes.
fn courier(root: &Path) {
    let site = root.join("courier");
    fs::create_dir_all(&site).unwrap();
    let words = |page: usize, what: &str, n: usize| -> String {
        let w: Vec<String> = (0..n).map(|k| format!("{what}{page}x{k}")).collect();
        format!("{}.", w.join(" "))
    };
    let agencies = ["BBC", "CNN", "NPR", "UPI", "AFP"];
    for i in 0..20 {
        let headline = format!("Headline {}", words(i, "h", 4));
        let mut article = vec![words(i, "a", 30)];
        if i % 10 == 3 {
            article.push(format!("The NSA said on Monday that {}", words(i, "n", 20)));
        }
        article.push(words(i, "b", 25));
        let article = article.join("\n");
        let footer = format!("The {} {}", agencies[i % agencies.len()], words(i, "f", 12));
        let text = format!(
            "Daily Courier | Home | World | Sports | Weather\n{headline}\n{article}\n{footer}\n\
             Copyright Daily Courier. All rights reserved. Contact us | Privacy\n"
        );
        fs::write(site.join(format!("{i:02}.txt")), text).unwrap();
        fs::write(site.join(format!("{i:02}.gold.txt")), format!("{headline}\n{article}\n")).unwrap();
    }
}

/// Chaff as the evaluation runs it, without the second-level filter (it needs every site mined first).
fn chaff() -> Chaff {
    // each source mined alone: no other sources to compare its strings with
    let mut settings = Settings::default();
    settings.automatic.idioms = None;
    Chaff::new(settings)
}

/// The oracle editor on the pages `pages` of the dataset's first site.
fn edited(dataset: &Dataset, pages: &[usize]) -> (Edited, Vec<Gold>) {
    let site = &dataset.sites[0];
    let input = site.input_for(Input::Txt).unwrap();
    let docs: Vec<(&str, &str)> =
        pages.iter().map(|&i| (site.pages[i].id.as_str(), site.pages[i].input(input).unwrap())).collect();
    let golds: Vec<Gold> = pages.iter().map(|&i| Gold::new(site.pages[i].gold.as_deref().unwrap_or(""))).collect();
    let source = Source { name: &site.name, site: 0, input, docs };
    let refs: Vec<&Gold> = golds.iter().collect();
    (edit(&chaff(), &source, &refs, false, false).unwrap(), golds)
}

/// Whether `rule` holds a generic string for an editor: common words, or more patterns than fixed text.
fn generic(tokens: &[String], symbols: &[Symbol]) -> bool {
    let literal = symbols.iter().filter(|s| matches!(s, Symbol::Literal(_))).count();
    !symbols.is_empty() && (is_generic(tokens) || literal == 0 || symbols.len() - literal > literal)
}

/// The cuts `file` makes that `automatic` did not.
fn new_cuts<'a>(automatic: &RulesFile, file: &'a RulesFile) -> Vec<&'a chaff::rules::Rule> {
    file.rules
        .iter()
        .filter(|r| r.action.is_cut() && file.is_active(r, true))
        .filter(|r| {
            !automatic.rules.iter().any(|a| a.id == r.id && a.action == r.action && automatic.is_active(a, true))
        })
        .collect()
}

#[test]
fn a_generic_cut_that_takes_the_next_pages_article_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    courier(dir.path());
    let dataset = Dataset::load(dir.path()).unwrap();
    // the fold whose held-out pages are 3 and 13: none of its training pages has "The NSA" in its article,
    // so only the string's evidence tells the editor that a cut there would take an article
    let training: Vec<usize> = (0..20).filter(|i| i % 10 != 3).collect();
    let (edited, _) = edited(&dataset, &training);
    assert!(edited.refused.get("generic").is_some_and(|&n| n > 0), "{:?} {:?}", edited.refused, edited.decisions);
    for file in &edited.files {
        for r in new_cuts(&edited.files[0], file) {
            assert!(!generic(&r.tokens, &r.symbols()), "a cut at {:?}: {:?}", r.tokens, edited.decisions);
        }
    }
    // held-out, the pages with "The NSA" keep it after every checkpoint, and no site is flagged
    let mut chaff = chaff();
    let config = EvalConfig { protocols: vec![Protocol::HeldOut], ..EvalConfig::default() };
    let eval = evaluate_oracle(&dataset, &mut chaff, &config, &Quiet).unwrap();
    let run = &eval.runs[0];
    assert!(run.below_automatic.is_empty(), "{:?}\n{}", run.below_automatic, eval.table());
    for p in run.pages.iter().filter(|p| p.id == "03" || p.id == "13") {
        let recall: Vec<f64> = p.scores.iter().map(|s| s.recall).collect();
        assert!(
            recall.iter().all(|&r| r >= recall[0] - 1e-9),
            "page {}: recall {recall:?} {:?}",
            p.id,
            edited.decisions
        );
    }
}

#[test]
fn the_oracle_never_cuts_at_a_generic_string_nor_takes_a_training_pages_article() {
    let dir = tempfile::tempdir().unwrap();
    courier(dir.path());
    for source in [sevendays(24, 3), mixed_templates(24, 3), optional_parts(20, 3), html_news(12, 3)] {
        write_source(&source, dir.path()).unwrap();
    }
    let all = Dataset::load(dir.path()).unwrap();
    for site in &all.sites {
        let dataset = Dataset { sites: vec![site.clone()], ..all.clone() };
        let (edited, golds) = edited(&dataset, &(0..site.pages.len()).collect::<Vec<_>>());
        let input = site.input_for(Input::Txt).unwrap();
        let chaff = chaff();
        let automatic = chaff.model(&edited.files[0]).unwrap();
        for (k, file) in edited.files.iter().enumerate() {
            for r in new_cuts(&edited.files[0], file) {
                assert!(!generic(&r.tokens, &r.symbols()), "{}: a cut at {:?}", site.name, r.tokens);
            }
            let model = chaff.model(file).unwrap();
            for (page, gold) in site.pages.iter().zip(&golds) {
                let text = page.input(input).unwrap();
                let score = |m: &dyn Model| gold.score(&output_text(text, &m.removed(text), input));
                let (before, after) = (score(&automatic), score(&model));
                assert!(
                    after.f1 >= before.f1 - 0.005,
                    "{} page {} after checkpoint {k}: F1 {} < {} ({:?}, drift {})",
                    site.name,
                    page.id,
                    after.f1,
                    before.f1,
                    edited.decisions,
                    edited.drift
                );
            }
        }
        assert_eq!(edited.drift, 0, "{}: the draft's rules file cleans as the editor's trials said", site.name);
        // every decision is in the rules file the draft saves: a rule decided, or a stage turned off
        let (first, last) = (&edited.files[0], edited.files.last().unwrap());
        let decided = |f: &RulesFile| -> Vec<(String, Status, chaff::rules::Action)> {
            let mut d: Vec<_> = f
                .rules
                .iter()
                .filter(|r| r.status != Status::Pending)
                .map(|r| (r.id.clone(), r.status, r.action))
                .collect();
            d.sort_by(|a, b| a.0.cmp(&b.0));
            d
        };
        let changed = decided(first) != decided(last) || first.clean_settings() != last.clean_settings();
        assert_eq!(changed, !edited.decisions.is_empty(), "{}: {:?}", site.name, edited.decisions);
    }
}

fn page(site: &str, id: &str, f1: &[f64]) -> PageResult {
    let prf = |f1: f64| Prf { precision: f1, recall: f1, f1 };
    PageResult {
        site: site.into(),
        id: id.into(),
        fold: 0,
        scores: f1.iter().map(|&f| prf(f)).collect(),
        floor: prf(0.5),
        spans: Vec::new(),
    }
}

#[test]
fn the_per_site_table_flags_a_site_below_its_automatic_figure() {
    let run = ProtocolRun {
        protocol: Protocol::HeldOut,
        folds: 10,
        pages: vec![
            // within the tolerance after 10 decisions: not flagged
            page("steady.com", "1", &[0.9, 0.91, 0.8995, 0.95, 0.95]),
            // below after 5 and after all
            page("slips.com", "1", &[0.9, 0.85, 0.92, 0.93, 0.88]),
        ],
        notes: Vec::new(),
        seconds: 1.0,
        speed: Speed::default(),
    };
    let report = RunReport::of(run);
    let flagged: Vec<(&str, usize)> = report.below_automatic.iter().map(|b| (b.site.as_str(), b.model)).collect();
    assert_eq!(flagged, [("slips.com", 1), ("slips.com", 4)]);
    let eval = Evaluation {
        dataset: "set".into(),
        method: "chaff + oracle editor".into(),
        input: Input::Txt,
        options: serde_json::Value::Null,
        models: ["0", "5", "10", "20", "all"].map(String::from).to_vec(),
        runs: vec![report],
        warnings: Vec::new(),
    };
    let table = eval.table();
    let row = table.lines().find(|l| l.starts_with("slips.com") && l.contains('!')).expect("a flagged row");
    assert!(row.contains("0.850!") && row.contains("0.880!") && !row.contains("0.920!"), "{table}");
    assert!(!table.lines().any(|l| l.starts_with("steady.com") && l.contains('!')), "{table}");
    assert!(table.contains("slips.com after 5: 0.850 < 0.900, slips.com after all: 0.880 < 0.900"), "{table}");
    // what `chaff eval --fail-below-automatic` prints before it fails, one line a flagged figure
    assert_eq!(
        eval.below_automatic(),
        ["set txt held-out: slips.com after 5: 0.850 < 0.900", "set txt held-out: slips.com after all: 0.880 < 0.900"]
    );
    let json = serde_json::to_value(&eval).unwrap();
    let below = &json["runs"][0]["below_automatic"];
    assert_eq!(below[0]["site"], "slips.com");
    assert_eq!(below[0]["model"], 1);
}
