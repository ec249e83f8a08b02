//! The seeds' methods beside chaff, on generated sources whose template is known: the alignment's
//! consensus, the window detector's spans, and TEXT-MDL clustering.

use std::collections::HashSet;

use chaff::clusters::{ClusterMethod, Structures, group};
use chaff::eval::methods::alignment::{AlignmentModel, AlignmentParams};
use chaff::eval::methods::{MethodName, MethodParams, build};
use chaff::eval::{Dataset, EvalConfig, Evaluation, Input, Quiet, evaluate};
use chaff::generate::{comments, html_news, mixed_templates, optional_parts, write_source};

fn evaluate_on(sources: &[chaff::generate::GeneratedSource], method: MethodName, input: Input) -> Evaluation {
    let dir = tempfile::tempdir().unwrap();
    for s in sources {
        write_source(s, dir.path()).unwrap();
    }
    let dataset = Dataset::load(dir.path()).unwrap();
    let params = MethodParams::default();
    let mut m = build(method, &params);
    let config = EvalConfig { input, ..EvalConfig::default() };
    evaluate(&dataset, m.as_mut(), params.options(method), &config, &Quiet).unwrap()
}

fn collapse_lower(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

#[test]
fn the_alignment_consensus_holds_the_template_tags_and_not_the_article() {
    let source = html_news(24, 3);
    let docs: Vec<(&str, &str)> = source.docs.iter().map(|d| (d.id.as_str(), d.text.as_str())).collect();
    let model = AlignmentModel::learn(&docs, Input::Html, AlignmentParams::default());
    let template = model.template();
    for tag in ["<nav>", r#"<header class="masthead">"#, "</nav>", "</header>", "<main>", "<article>"] {
        assert!(template.iter().any(|t| t == tag), "{tag} missing from the consensus {template:?}");
    }
    assert!(template.iter().any(|t| t == "\u{1}the harbour gazette"), "the masthead's text is template");
    // no sentence of any article: the article's text is each page's own
    let article: HashSet<String> =
        source.docs.iter().flat_map(|d| d.body.lines().map(|l| format!("\u{1}{}", collapse_lower(l)))).collect();
    let leaked: Vec<&String> = template.iter().filter(|t| article.contains(*t)).collect();
    assert!(leaked.is_empty(), "article text in the consensus: {leaked:?}");
}

#[test]
fn the_alignment_removes_template_lines_and_keeps_the_article() {
    let e = evaluate_on(&[optional_parts(40, 9)], MethodName::Alignment, Input::Txt);
    for r in &e.runs {
        let s = r.overall.spans[0];
        assert!(s.precision > 0.95, "{:?}: span precision {}", r.protocol, s.precision);
        assert!(s.recall > 0.6, "{:?}: span recall {}", r.protocol, s.recall);
        assert!(r.overall.main().f1 > r.overall.floor.f1 + 0.04, "{:?}", r.protocol);
    }
}

#[test]
fn the_window_detector_finds_the_injected_template_spans() {
    let e = evaluate_on(&[optional_parts(40, 9), comments(30, 9)], MethodName::Gibson, Input::Txt);
    for r in &e.runs {
        let site = |name: &str| r.sites.iter().find(|s| s.site == name).unwrap().summary.spans[0];
        // fixed header and footer lines on every page: found, and nothing else; the dated line and the
        // optional parts are in no window of 8 words counted 3 times
        let parts = site("optional_parts");
        assert!(parts.precision > 0.95 && parts.recall > 0.6, "{:?}: optional_parts {parts:?}", r.protocol);
        // comments change from page to page: only their frame is found
        let thread = site("comments");
        assert!(thread.precision > 0.95, "{:?}: comments {thread:?}", r.protocol);
        assert!(thread.recall < parts.recall, "{:?}: comments are no fixed window", r.protocol);
    }
}

#[test]
fn every_seed_method_runs_on_html_and_beats_the_whole_page() {
    for method in [MethodName::Alignment, MethodName::Gibson] {
        let e = evaluate_on(&[html_news(16, 4)], method, Input::Html);
        for r in &e.runs {
            assert!(r.overall.main().f1 > r.overall.floor.f1 + 0.03, "{method:?} {:?}", r.protocol);
        }
    }
}

#[test]
fn mdl_clustering_separates_the_two_templates_of_mixed_templates() {
    // the bundled sample, as `chaff generate` writes it
    let source = mixed_templates(80, 20_070_227);
    let texts: Vec<&str> = source.docs.iter().map(|d| d.text.as_str()).collect();
    let gallery: Vec<bool> = texts.iter().map(|t| t.contains("Photo gallery |")).collect();
    let groups = group(&Structures::for_method(&texts, ClusterMethod::Mdl).pages, ClusterMethod::Mdl, 0.5);
    assert_eq!(groups.len(), 2, "{groups:?}");
    for g in &groups {
        let kinds: HashSet<bool> = g.iter().map(|&i| gallery[i]).collect();
        assert_eq!(kinds.len(), 1, "a cluster mixes the templates: {g:?}");
    }
}

#[test]
fn eval_help_lists_every_method_and_the_seed_methods_run_from_the_command_line() {
    use std::process::Command;
    let help = Command::new(env!("CARGO_BIN_EXE_chaff")).args(["eval", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for name in ["chaff", "df-lines", "table-chunks", "alignment", "gibson", "--gibson-window", "--clusters"] {
        assert!(help.contains(name), "{name} missing from chaff eval --help:\n{help}");
    }
    let dir = tempfile::tempdir().unwrap();
    write_source(&optional_parts(12, 2), &dir.path().join("set")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(["eval", "set", "--method", "alignment,gibson", "--clusters", "mdl", "--gibson-window", "4"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains("set: alignment (t = 16)") && stdout.contains("set: gibson (W 4, F 3, D 0, P 64)"),
        "{stdout}"
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(["eval", "set", "--clusters", "ward"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("expected linkage, mdl"));
}

/// The options an evaluation reports (`chaff eval --json`) held three stages' settings by hand, and a
/// stage added since (`link-density`) was missing: every stage's settings now come from the stage list.
#[test]
fn the_reported_options_hold_every_stages_settings() {
    let params = MethodParams::default();
    let options = params.options(MethodName::Chaff);
    let stages = options["stages"].as_object().expect("a table of stage settings");
    for (stage, keys) in chaff::clean_settings::CleanTable::stage_keys() {
        let automatic = chaff::settings::Settings::default();
        let table = serde_json::to_value(automatic.clean.table()).unwrap();
        // a stage whose settings do nothing is left out, as in a rules file
        if table.get(stage).is_some() {
            for key in keys {
                assert!(stages[stage].get(key).is_some(), "{stage}.{key} missing from {options}");
            }
        }
    }
    assert!(stages["link-density"]["share"].as_u64().is_some_and(|s| s > 0), "{options}");
}
