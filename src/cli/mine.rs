//! `chaff mine` and `chaff stats`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use chaff::automatic::{AutoOptions, automatic_rules};
use chaff::corpus::Corpus;
use chaff::cross_source::flag_idioms;
use chaff::frame::CutParams;
use chaff::mining::{Mining, mine as mine_corpus};
use chaff::rules::{MiningParams, RulesFile, rules_path};
use chaff::symbol::display;
use serde_json::json;

use super::args::{MineArgs, StatsArgs};
use super::output::StageSpinner;
use super::{mining_config, sources_under};

struct Mined {
    corpus: Corpus,
    mining: Mining,
    params: MiningParams,
    previous: Option<RulesFile>,
    path: PathBuf,
    warnings: Vec<String>,
}

fn load_previous(path: &Path) -> Result<Option<RulesFile>> {
    if !path.exists() {
        return Ok(None);
    }
    RulesFile::load(path)
        .map(Some)
        .context("the existing rules file is unusable; fix it or move it away before re-mining")
}

fn mine_one(corpus_path: &Path, source: Option<&str>, args: &MineArgs) -> Result<Mined> {
    let mut corpus = Corpus::load(corpus_path)?;
    if let Some(name) = source {
        corpus.name = name.to_string();
    }
    let path = rules_path(&args.rules_dir, &corpus.name);
    let previous = load_previous(&path)?;
    let config = mining_config(&args.mining, previous.as_ref(), corpus_path);
    let spinner = StageSpinner::new(&corpus.name);
    let mining = mine_corpus(&corpus, &config, &spinner)?;
    spinner.finish();
    let warnings = corpus.warnings.iter().map(|w| w.to_string()).collect();
    Ok(Mined { corpus, mining, params: MiningParams::of(&config), previous, path, warnings })
}

pub fn mine(args: MineArgs) -> Result<ExitCode> {
    let corpora: Vec<PathBuf> = if args.all { sources_under(&args.corpus)? } else { vec![args.corpus.clone()] };
    let mut mined = Vec::new();
    for path in &corpora {
        mined.push(mine_one(path, args.source.as_deref(), &args)?);
    }
    let flagged = if args.all {
        let mut minings: Vec<Mining> = mined.iter().map(|m| m.mining.clone()).collect();
        let n = flag_idioms(&mut minings, args.idiom_sources);
        for (m, flagged) in mined.iter_mut().zip(minings) {
            m.mining = flagged;
        }
        n
    } else {
        0
    };
    let mut summaries = Vec::new();
    for m in &mined {
        for w in &m.warnings {
            eprintln!("chaff: warning: {w}");
        }
        let auto = AutoOptions {
            cuts: (!args.no_cuts).then(CutParams::default),
            line_boundary: if args.line_boundary {
                Some(true)
            } else if args.no_line_boundary {
                Some(false)
            } else {
                None
            },
            islands: args.islands.unwrap_or(AutoOptions::default().islands),
            short_runs: args.short_runs.unwrap_or(AutoOptions::default().short_runs),
            line_rules: !args.no_line_rules,
            reject_patterns: !args.keep_pattern_strings,
            clusters: Some(chaff::automatic::ClusterParams {
                method: args.clusters.map(|c| c.method()).unwrap_or_default(),
                ..Default::default()
            }),
            ..AutoOptions::default()
        };
        let mut file = automatic_rules(&m.corpus, &m.mining, m.params, m.previous.as_ref(), &auto)?;
        // asked on the command line: overrides what the rules file had
        if let Some(gap) = args.merge_gap {
            file.merge_gap = gap;
        }
        if let Some(on) = auto.line_boundary {
            file.line_boundary = on;
        }
        if let Some(n) = args.islands {
            file.islands = n;
        }
        if let Some(n) = args.short_runs {
            file.short_runs = n;
        }
        let cuts = file.rules.iter().filter(|r| r.action != chaff::rules::Action::Remove).count();
        file.save(&m.path)?;
        if args.json {
            summaries.push(summary_json(&m.mining, &file, Some(&m.path), &m.warnings, 0));
        } else {
            print!("{}", summary_text(&m.mining, &file, 10));
            println!(
                "  frame cuts: {cuts}; line-boundary filter {}; short runs under {} words removed; islands under {} words removed",
                if file.line_boundary { "on" } else { "off" },
                file.short_runs,
                file.islands
            );
            println!("  rules file: {} ({} rules)\n", m.path.display(), file.rules.len());
        }
    }
    if args.json {
        let out = if args.all {
            json!({ "sources": summaries, "idioms_flagged": flagged })
        } else {
            summaries.pop().expect("one source")
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else if args.all {
        println!("second-level filter: {flagged} candidate(s) flagged as idioms across {} sources", mined.len());
    }
    Ok(ExitCode::SUCCESS)
}

pub fn stats(args: StatsArgs) -> Result<ExitCode> {
    let corpus = Corpus::load(&args.corpus)?;
    for w in &corpus.warnings {
        eprintln!("chaff: warning: {w}");
    }
    let config = mining_config(&args.mining, None, &args.corpus);
    let spinner = StageSpinner::new(&corpus.name);
    let mining = mine_corpus(&corpus, &config, &spinner)?;
    spinner.finish();
    let file = RulesFile::from_mining(&mining, MiningParams::of(&config), None);
    if args.json {
        let warnings: Vec<String> = corpus.warnings.iter().map(|w| w.to_string()).collect();
        println!("{}", serde_json::to_string_pretty(&summary_json(&mining, &file, None, &warnings, args.top))?);
    } else {
        print!("{}", summary_text(&mining, &file, args.top));
    }
    Ok(ExitCode::SUCCESS)
}

fn summary_text(m: &Mining, file: &RulesFile, top: usize) -> String {
    let mut out = format!(
        "{}: {} documents{}, {} tokens, {} maximal strings, {} candidates at or above the auto cutoff {}%\n",
        m.source,
        m.documents,
        if m.sampled_documents < m.documents {
            format!(" ({} mined, all counted)", m.sampled_documents)
        } else {
            String::new()
        },
        m.tokens,
        m.histogram.total(),
        m.candidates(m.auto_cutoff).count(),
        m.auto_cutoff,
    );
    out.push_str(&m.histogram.render_text(8, m.auto_cutoff, file.cutoff.chosen));
    if top > 0 {
        out.push_str("  top candidates (df, tf, tokens, text):\n");
        for s in m.candidates(file.cutoff.chosen).take(top) {
            let text = display(&s.symbols);
            let short: String = text.chars().take(90).collect();
            let flag = if s.idiom { " [idiom]" } else { "" };
            out.push_str(&format!(
                "  {:>5} {:>6} {:>4}  {}{}{}\n",
                s.df,
                s.tf,
                s.symbols.len(),
                short,
                if short.len() < text.len() { "…" } else { "" },
                flag
            ));
        }
    }
    out
}

fn summary_json(
    m: &Mining,
    file: &RulesFile,
    path: Option<&Path>,
    warnings: &[String],
    top: usize,
) -> serde_json::Value {
    let timings: serde_json::Map<String, serde_json::Value> =
        m.timings.iter().map(|(s, d)| (s.name().to_string(), json!(d.as_secs_f64() * 1000.0))).collect();
    let mut v = json!({
        "source": m.source,
        "documents": m.documents,
        "sampled_documents": m.sampled_documents,
        "bytes": m.bytes,
        "tokens": m.tokens,
        "maximal_strings": m.histogram.total(),
        "auto_cutoff": m.auto_cutoff,
        "chosen_cutoff": file.cutoff.chosen,
        "candidates": m.candidates(m.auto_cutoff).count(),
        "histogram": m.histogram.counts,
        "rules": file.rules.len(),
        "warnings": warnings,
        "timings_ms": timings,
    });
    if let Some(p) = path {
        v["rules_file"] = json!(p.display().to_string());
    }
    if top > 0 {
        v["top"] = json!(m.candidates(file.cutoff.chosen).take(top).collect::<Vec<_>>());
    }
    v
}
