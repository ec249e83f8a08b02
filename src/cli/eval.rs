//! `chaff eval ROOT`: score methods against the gold of real sites or injected-template corpora, print
//! the tables (or JSON), and with `--floors` fail when an overall F1 regressed.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use chaff::eval::floors::{FloorCheck, Floors};
use chaff::eval::methods::alignment::AlignmentParams;
use chaff::eval::methods::chaff::Chaff;
use chaff::eval::methods::gibson::GibsonParams;
use chaff::eval::methods::{MethodName, MethodParams, build};
use chaff::eval::report::BELOW_TOLERANCE;
use chaff::eval::{Dataset, EvalConfig, Evaluation, Input, Progress, Protocol, evaluate, evaluate_oracle};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use chaff::settings::Settings;
use chaff::tokens::Tokenizer;

use super::args::{EvalArgs, EvalInput, EvalProtocol, SeedParams};

/// A bar on stderr, drawn only when stderr is a terminal.
struct Bar(Option<ProgressBar>);

impl Bar {
    fn new() -> Bar {
        Bar(std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template("{prefix} {bar:30} {pos}/{len} site folds ({elapsed})").expect("template"),
            );
            bar
        }))
    }
}

impl Progress for Bar {
    fn start(&self, label: &str, tasks: usize) {
        if let Some(b) = &self.0 {
            b.reset();
            b.set_length(tasks as u64);
            b.set_prefix(label.to_string());
        }
    }
    fn task_done(&self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

/// chaff's settings for the run: its automatic configuration (as `chaff mine --all` runs it, so that the
/// evaluation measures what users get), with the levers given.
fn settings(args: &EvalArgs) -> Settings {
    let mut settings = Settings::default();
    if args.raw_html {
        settings.mining.tokenizer = Tokenizer::Html;
    }
    args.settings.apply(&mut settings);
    settings
}

fn seed_params(s: &SeedParams) -> Result<(AlignmentParams, GibsonParams)> {
    if s.alignment_pages < 2 {
        bail!("--alignment-pages must be at least 2 (pages aligned in pairs), got {}", s.alignment_pages);
    }
    if s.gibson_window == 0 || s.gibson_frequency == 0 || s.gibson_pages == 0 {
        bail!("--gibson-window, --gibson-frequency and --gibson-pages must be at least 1");
    }
    Ok((
        AlignmentParams { pages: s.alignment_pages, ..AlignmentParams::default() },
        GibsonParams {
            window: s.gibson_window,
            frequency: s.gibson_frequency,
            density: s.gibson_density,
            pages: s.gibson_pages,
        },
    ))
}

pub fn eval(args: EvalArgs) -> Result<ExitCode> {
    if !args.root.exists() {
        bail!(
            "{}: no such folder (chaff eval expects ROOT/<site>/<id>.txt|html with <id>.gold.txt or <id>.template.json)",
            args.root.display()
        );
    }
    let methods: Vec<MethodName> = super::args::entries(&args.method).copied().collect();
    if args.oracle_editor && !methods.contains(&MethodName::Chaff) {
        bail!("--oracle-editor edits chaff's candidates: add chaff to --method");
    }
    if !(0.0..1.0).contains(&args.df_threshold) {
        bail!("--df-threshold must be a share of pages in [0, 1), got {}", args.df_threshold);
    }
    let floors = args.floors.as_deref().map(Floors::load).transpose()?;
    let clock = Instant::now();
    let dataset = Dataset::load(&args.root)?;
    let config = EvalConfig {
        input: match args.input {
            EvalInput::Txt => Input::Txt,
            EvalInput::Html => Input::Html,
        },
        protocols: match args.protocol {
            EvalProtocol::InSample => vec![Protocol::InSample],
            EvalProtocol::HeldOut => vec![Protocol::HeldOut],
            EvalProtocol::FewPages => vec![Protocol::FewPages],
            EvalProtocol::Both => vec![Protocol::InSample, Protocol::HeldOut],
        },
        folds: args.folds.max(2),
        dump: args.dump.clone(),
    };
    for w in &dataset.warnings {
        eprintln!("chaff: warning: {w}");
    }
    let chaff_settings = settings(&args);
    let (alignment, gibson) = seed_params(&args.seeds)?;
    let params = MethodParams { chaff: chaff_settings.clone(), df_threshold: args.df_threshold, alignment, gibson };
    let bar = Bar::new();
    let mut evaluations: Vec<Evaluation> = Vec::new();
    for &name in &methods {
        let eval = if name == MethodName::Chaff && args.oracle_editor {
            let mut chaff = Chaff::new(chaff_settings.clone());
            evaluate_oracle(&dataset, &mut chaff, &config, &bar)?
        } else {
            let mut method = build(name, &params);
            evaluate(&dataset, method.as_mut(), params.options(name), &config, &bar)
                .with_context(|| format!("{}: evaluating {}", args.root.display(), name.name()))?
        };
        if !args.json {
            outln!("{}", eval.table());
            if args.pages {
                out!("{}", page_table(&eval));
            }
        }
        evaluations.push(eval);
    }
    drop(bar);
    let checks: Vec<FloorCheck> = match &floors {
        Some(f) => evaluations.iter().filter(|e| e.method == "chaff").flat_map(|e| f.check(e)).collect(),
        None => Vec::new(),
    };
    let seconds = clock.elapsed().as_secs_f64();
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&json!({ "evaluations": evaluations, "floors": checks, "seconds": seconds }))?
        );
    } else {
        outln!("{}: {} sites, {} pages, {:.1} s in all", dataset.name, dataset.sites.len(), dataset.pages(), seconds);
    }
    let mut failed = false;
    if let Some(f) = &floors {
        if checks.is_empty() {
            eprintln!("chaff: warning: no floor recorded for {} (input {})", dataset.name, config.input.name());
        }
        for c in &checks {
            let verdict = if c.ok { "ok" } else { "FAILED" };
            eprintln!(
                "floor {verdict}: {} {} {}: overall F1 {:.3}, floor {:.3} (tolerance {:.3})",
                c.dataset, c.input, c.protocol, c.measured, c.floor, f.tolerance
            );
        }
        if checks.iter().any(|c| !c.ok) {
            eprintln!(
                "chaff: an overall F1 fell more than {:.3} below its floor in {}: find the change that lowered it",
                f.tolerance,
                args.floors.as_ref().map(|p| p.display().to_string()).unwrap_or_default()
            );
            failed = true;
        }
    }
    if args.fail_below_automatic {
        let below: Vec<String> = evaluations.iter().flat_map(Evaluation::below_automatic).collect();
        for line in &below {
            eprintln!("below automatic: {line}");
        }
        if below.is_empty() {
            eprintln!("oracle editor: no site below its automatic figure (tolerance {BELOW_TOLERANCE})");
        } else {
            eprintln!(
                "chaff: the oracle editor's decisions left {} site figure(s) more than {BELOW_TOLERANCE} below the \
                 automatic one: a decision took article words from pages it was not made on",
                below.len()
            );
            failed = true;
        }
    }
    if failed {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Every page's score, for digging into a site.
fn page_table(eval: &Evaluation) -> String {
    let mut out = String::new();
    for r in &eval.runs {
        out.push_str(&format!("\npages, {}: site id fold | P R F1 | floor F1\n", r.protocol.name()));
        for p in &r.pages {
            let s = p.scores.first().copied().unwrap_or_default();
            out.push_str(&format!(
                "{} {} {} | {:.3} {:.3} {:.3} | {:.3}\n",
                p.site, p.id, p.fold, s.precision, s.recall, s.f1, p.floor.f1
            ));
        }
    }
    out
}
