//! `chaff check`: new documents of a source against its rules (see [`chaff::drift`]). Prints each
//! rule's share of documents then and now and a one-line verdict; exits 3 past `--max-drift`, for a
//! nightly job.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use chaff::corpus::{Corpus, Document, decode, parse_jsonl};
use chaff::drift::{Drift, drift};
use rayon::prelude::*;
use serde_json::json;

use super::args::CheckArgs;

/// Exit status when the drift passes `--max-drift`.
const DRIFTED: u8 = 3;

pub fn check(args: CheckArgs) -> Result<ExitCode> {
    if !(0.0..=1.0).contains(&args.max_drift) {
        usage!(
            "--max-drift {}: give a share between 0 and 1 (default {})",
            args.max_drift,
            chaff::drift::DEFAULT_MAX_DRIFT
        );
    }
    let Some(rules) = &args.rules else { return check_all(&args) };
    let file = super::load_rules(rules)?;
    let docs = chaff::page::documents_for(&file, load_docs(&args.docs)?);
    let d = drift(&file, &docs, args.include_pending).with_context(|| format!("{}", rules.display()))?;
    let drifted = d.drift > args.max_drift;
    let verdict = verdict(&d, args.max_drift, drifted);
    if args.json {
        let mut v = serde_json::to_value(&d)?;
        v["max_drift"] = json!(args.max_drift);
        v["drifted"] = json!(drifted);
        v["stopped"] = json!(d.stopped().map(|r| r.id.as_str()).collect::<Vec<_>>());
        v["verdict"] = json!(verdict);
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print_table(&d);
        outln!("{verdict}");
    }
    Ok(if drifted { ExitCode::from(DRIFTED) } else { ExitCode::SUCCESS })
}

/// `chaff check --rules-dir DIR INPUT…`: every source of the inputs against its rules file, one line
/// each (or JSON), sources read back from the crawl's spool one at a time. Exit 3 when any source
/// drifted; else 1 when a source or record failed (reported); else 0.
fn check_all(args: &CheckArgs) -> Result<ExitCode> {
    let dir = args.rules_dir.as_deref().expect("clap: --rules or --rules-dir");
    if !dir.is_dir() {
        bail!(
            "--rules-dir {}: not a folder of rules files (`chaff mine --all CRAWL --rules-dir DIR` writes one)",
            dir.display()
        );
    }
    let crawl = super::mine::crawl::read_crawl(&args.docs, args.group.group())?;
    let results: Vec<(&str, Option<Result<Drift>>)> = crawl
        .sources
        .par_iter()
        .map(|s| {
            let path = chaff::rules::rules_path(dir, &s.name);
            if !path.exists() {
                return (s.name.as_str(), None);
            }
            let run = || -> Result<Drift> {
                let file = super::load_rules(&path)?;
                let corpus = crawl.corpus(s)?;
                let docs = chaff::page::documents_for(&file, corpus.docs);
                drift(&file, &docs, args.include_pending).with_context(|| format!("{}", path.display()))
            };
            (s.name.as_str(), Some(run()))
        })
        .collect();
    let (mut drifted, mut failed, mut no_rules) = (0usize, crawl.bad, Vec::new());
    let mut rows = Vec::new();
    if !args.json {
        outln!("{:<40} {:>6} {:>6} {:>6} {:>8} {:>8}  verdict", "source", "then", "now", "drift", "removed", "stopped");
    }
    for (name, r) in results {
        match r {
            None => no_rules.push(name),
            Some(Err(e)) => {
                eprintln!("chaff: error: {}; source {name} not checked", super::output::one_line(&e));
                failed += 1;
            }
            Some(Ok(d)) => {
                let is_drifted = d.drift > args.max_drift;
                drifted += usize::from(is_drifted);
                if args.json {
                    let mut v = serde_json::to_value(&d)?;
                    v["drifted"] = json!(is_drifted);
                    v["stopped"] = json!(d.stopped().map(|r| r.id.as_str()).collect::<Vec<_>>());
                    v["verdict"] = json!(verdict(&d, args.max_drift, is_drifted));
                    rows.push(v);
                } else {
                    outln!(
                        "{:<40} {:>6} {:>6} {:>6.2} {:>7.1}% {:>8}  {}",
                        d.source,
                        d.documents_then,
                        d.documents_now,
                        d.drift,
                        100.0 * d.removed_now,
                        d.stopped().count(),
                        if is_drifted { "DRIFT" } else { "ok" }
                    );
                }
            }
        }
    }
    let checked = crawl.sources.len() - no_rules.len();
    if args.json {
        let v = json!({
            "sources": rows,
            "max_drift": args.max_drift,
            "drifted": drifted,
            "failed": failed,
            "without_rules": no_rules,
        });
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        if !no_rules.is_empty() {
            let shown: Vec<&str> = no_rules.iter().take(5).copied().collect();
            outln!(
                "{} source(s) without a rules file in {}, not checked: {}{}",
                no_rules.len(),
                dir.display(),
                shown.join(", "),
                if no_rules.len() > shown.len() { ", …" } else { "" }
            );
        }
        outln!(
            "{}: {drifted} of {checked} source(s) drifted past {:.2} (--max-drift){}",
            if drifted > 0 { "DRIFT" } else { "ok" },
            args.max_drift,
            if drifted > 0 { "; mine them again (chaff mine) and review their rules (chaff tune)" } else { "" }
        );
    }
    if drifted > 0 {
        return Ok(ExitCode::from(DRIFTED));
    }
    if failed > 0 {
        eprintln!("chaff: error: {failed} source(s), record(s) or input(s) failed (see above)");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

fn verdict(d: &Drift, max: f64, drifted: bool) -> String {
    let fewer = d.fewer().count();
    let stopped = d.stopped().count();
    if drifted {
        format!(
            "DRIFT: {}: {:.2} > {max:.2} (--max-drift): {fewer} of {} rules match fewer documents, {stopped} stopped matching; the template changed: mine the source again (chaff mine) and review its rules (chaff tune)",
            d.source,
            d.drift,
            d.rules.len()
        )
    } else {
        format!(
            "ok: {}: drift {:.2} <= {max:.2}: {fewer} of {} rules match fewer documents, {stopped} stopped matching",
            d.source,
            d.drift,
            d.rules.len()
        )
    }
}

fn print_table(d: &Drift) {
    outln!(
        "{}: {} new document(s) against {} mined; cleaning removes {:.1}% of their bytes",
        d.source,
        d.documents_now,
        d.documents_then,
        100.0 * d.removed_now
    );
    outln!("  {:>6} {:>6} {:>16}  {:<10} rule", "then", "now", "bytes/doc", "action");
    for r in &d.rules {
        let action = r.action.name();
        outln!(
            "  {:>5.1}% {:>5.1}% {:>16}  {:<10} {}{}",
            100.0 * r.then,
            100.0 * r.now,
            format!("{:.0} -> {:.0}", r.bytes_then, r.bytes_now),
            action,
            r.id,
            if r.stopped { "  [stopped matching]" } else { "" }
        );
    }
}

/// New documents from files, folders and .jsonl files, or JSON Lines on stdin when none is given.
fn load_docs(inputs: &[PathBuf]) -> Result<Vec<Document>> {
    if inputs.is_empty() {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).context("stdin")?;
        return Ok(parse_jsonl(&text, Path::new("stdin"))?);
    }
    let mut docs = Vec::new();
    for input in inputs {
        let meta = fs::metadata(input).with_context(|| format!("{}", input.display()))?;
        if meta.is_dir() || input.extension().is_some_and(|e| e == "jsonl") {
            let corpus = Corpus::load(input)?;
            for w in &corpus.warnings {
                eprintln!("chaff: warning: {w}");
            }
            docs.extend(corpus.docs);
        } else {
            let bytes = fs::read(input).with_context(|| format!("{}", input.display()))?;
            let Some((text, replaced)) = decode(bytes) else {
                eprintln!("chaff: warning: {}: binary file (NUL bytes), skipped", input.display());
                continue;
            };
            if replaced > 0 {
                eprintln!(
                    "chaff: warning: {}: {replaced} invalid UTF-8 sequence(s) replaced with U+FFFD",
                    input.display()
                );
            }
            docs.push(Document { id: input.display().to_string(), text });
        }
    }
    Ok(docs)
}
