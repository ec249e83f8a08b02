//! `chaff mine --all CRAWL`: every source of a crawl (WARC, WARC.gz, JSON Lines with `url`/`source`)
//! with enough documents mined into its rules file, the others reported. The crawl is spooled once
//! (`chaff::crawl::gather`); each source is read back alone, so memory holds the sources being mined,
//! never the crawl. The idiom filter needs every source mined before any rules file is written: each
//! mining's strings wait on disk (`chaff::crawl::spill`) and memory keeps its candidates' hashes, so it
//! holds the largest sources at work, not the crawl's minings.

use std::process::ExitCode;

use anyhow::{Context, Result};
use chaff::crawl::spill::{Spill, Spilled};
use chaff::crawl::{Crawl, Event, SourceDocs, gather};
use chaff::cross_source::{candidate_keys, count_sources, flag_counted};
use chaff::mining::{Mining, Quiet, mine as mine_corpus};
use chaff::rules::{MiningParams, rules_path};
use rayon::prelude::*;
use serde_json::json;

use super::{Mined, check_rules_dir, load_previous, report_skipped, settings_of, summary_json, write_rules};
use crate::cli::args::{GenerateArgs, MineArgs};
use crate::cli::output::{one_line, progress_bar};

/// Reads a crawl into sources, each bad record or input reported on stderr as it is met; the number
/// reported comes back with the crawl.
pub(crate) fn read_crawl(inputs: &[std::path::PathBuf], group: chaff::crawl::Group) -> Result<Crawl> {
    let bar = progress_bar(None, "documents read");
    let crawl = gather(inputs, group, &mut |e| match e {
        Event::Bad(m) => bar.suspend(|| eprintln!("chaff: error: {m}")),
        Event::Warn(m) => bar.suspend(|| eprintln!("chaff: warning: {m}")),
        Event::Read { documents, .. } => {
            if documents % 256 == 0 {
                bar.set_position(documents as u64)
            }
        }
    })?;
    bar.finish_and_clear();
    eprintln!(
        "chaff: read {} document(s), {:.1} MB, of {} source(s){}{}",
        crawl.documents,
        crawl.bytes as f64 / 1e6,
        crawl.sources.len(),
        if crawl.not_pages > 0 {
            format!("; {} record(s) held no page (requests, redirects, media)", crawl.not_pages)
        } else {
            String::new()
        },
        if crawl.bad > 0 {
            format!("; {} bad record(s) or input(s) skipped (above)", crawl.bad)
        } else {
            String::new()
        },
    );
    Ok(crawl)
}

/// One source mined, before its rules are written: what the save needs, and its mining.
struct Pending<'a> {
    source: &'a SourceDocs,
    config: chaff::mining::MiningConfig,
    previous: Option<(chaff::rules::RulesFile, String)>,
    path: std::path::PathBuf,
}

/// A source mined, its strings spilled: the rest of its mining (histogram, counts), where its strings
/// lie, and its candidates' keys.
struct Mined1<'a> {
    pending: Pending<'a>,
    mining: Mining,
    strings: Spilled,
    keys: Vec<u64>,
}

fn mine_source<'a>(crawl: &Crawl, source: &'a SourceDocs, args: &MineArgs, spill: &Spill) -> Result<Mined1<'a>> {
    let path = rules_path(&args.rules_dir, &source.name);
    let previous = load_previous(&path)?;
    if let Some((file, _)) = &previous
        && file.source != source.name
        && !args.take_over
    {
        anyhow::bail!(
            "{}: holds the rules of source `{}`, not of `{}`; nothing was written for it: --take-over replaces them, or give another --rules-dir",
            path.display(),
            file.source,
            source.name
        );
    }
    let corpus = crawl.corpus(source)?;
    let mut config = settings_of(args, previous.as_ref().map(|p| &p.0)).mining;
    let kind = previous.as_ref().map(|p| p.0.input()).unwrap_or_else(|| crawl.kind(source, &corpus));
    let corpus = chaff::page::viewed(corpus, kind, &mut config);
    let mut mining = mine_corpus(&corpus, &config, &Quiet)?;
    let keys = candidate_keys(&mining);
    let strings = spill.put(&std::mem::take(&mut mining.strings))?;
    Ok(Mined1 { pending: Pending { source, config, previous, path }, mining, strings, keys })
}

pub(crate) fn mine_crawl(args: &MineArgs) -> Result<ExitCode> {
    check_rules_dir(&args.rules_dir)?;
    let crawl = read_crawl(std::slice::from_ref(&args.corpus), args.group.group())?;
    let min = args.min_docs.max(2);
    let (eligible, few): (Vec<&SourceDocs>, Vec<&SourceDocs>) = crawl.sources.iter().partition(|s| s.documents >= min);
    if !few.is_empty() {
        let docs: usize = few.iter().map(|s| s.documents).sum();
        let names: Vec<&str> = few.iter().take(5).map(|s| s.name.as_str()).collect();
        eprintln!(
            "chaff: {} source(s) with fewer than {min} documents not mined ({docs} document(s)): {}{} (--min-docs N)",
            few.len(),
            names.join(", "),
            if few.len() > names.len() { ", …" } else { "" }
        );
    }
    if eligible.is_empty() {
        anyhow::bail!(
            "{}: no source has {min} documents or more ({} source(s) read); nothing was mined (--min-docs N, or --group domain to merge hosts)",
            args.corpus.display(),
            crawl.sources.len()
        );
    }
    let spill = Spill::new()?;
    let bar = progress_bar(Some(eligible.len() as u64), "sources mined");
    let results: Vec<Result<Mined1>> = eligible
        .par_iter()
        .map(|s| {
            let r = mine_source(&crawl, s, args, &spill).with_context(|| format!("source {}", s.name));
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    let mut failed = 0;
    let mut mined = Vec::new();
    for r in results {
        match r {
            Ok(m) => mined.push(m),
            Err(e) => {
                eprintln!("chaff: error: {}; skipped", one_line(&e));
                failed += 1;
            }
        }
    }
    // the second-level filter sees every source's candidates: a string mined in many is an idiom
    let counts = count_sources(mined.iter().map(|m| m.keys.as_slice()));
    // `None` with --no-idioms: each source's strings stand as mined alone
    let idioms = settings_of(args, None).automatic.idioms;
    let sources = mined.len();
    let flagged = std::sync::atomic::AtomicUsize::new(0);
    let bar = progress_bar(Some(mined.len() as u64), "rules files written");
    let written: Vec<Result<(usize, serde_json::Value, String)>> = mined
        .into_par_iter()
        .map(|Mined1 { pending: p, mut mining, strings, keys: _ }| {
            let r = (|| {
                mining.strings = spill.take(strings)?;
                let n = idioms.map_or(0, |min| flag_counted(&mut mining, sources, min, &counts));
                flagged.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                // read again rather than kept: memory holds the sources being written, not all of them
                let mut config = p.config.clone();
                let corpus = crawl.corpus(p.source)?;
                let corpus = chaff::page::viewed(corpus, config.input, &mut config);
                let path = p.path.clone();
                let m = Mined {
                    corpus,
                    mining,
                    params: MiningParams::of(&p.config),
                    previous: p.previous,
                    path: p.path,
                    warnings: Vec::new(),
                    unreadable: 0,
                    binary: 0,
                };
                let file = write_rules(&m, args)?;
                let line = format!(
                    "{}: {} documents, {} rules: {}",
                    m.mining.source,
                    m.mining.documents,
                    file.rules.len(),
                    path.display()
                );
                Ok((m.mining.documents, summary_json(&m.mining, &file, Some(&path), &[], 0), line))
            })();
            bar.inc(1);
            r.map_err(|e: anyhow::Error| (p.source.name.clone(), e))
        })
        .map(|r| r.map_err(|(name, e)| e.context(format!("source {name}"))))
        .collect();
    bar.finish_and_clear();
    let mut summaries = Vec::new();
    let (mut mined_docs, mut mined_sources) = (0, 0);
    for r in written {
        match r {
            Ok((docs, summary, line)) => {
                mined_docs += docs;
                mined_sources += 1;
                if args.json {
                    summaries.push(summary);
                } else {
                    outln!("{line}");
                }
            }
            Err(e) => {
                report_skipped(&args.rules_dir, &e);
                failed += 1;
            }
        }
    }
    let skipped_docs: usize = few.iter().map(|s| s.documents).sum();
    let flagged = flagged.into_inner();
    if args.json {
        let out = json!({
            "sources": summaries,
            "idioms_flagged": flagged,
            "failed": failed,
            "skipped_sources": few.len(),
            "skipped_documents": skipped_docs,
            "bad_records": crawl.bad,
        });
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        outln!(
            "{} source(s) mined ({mined_docs} documents); {} with fewer than {min} documents skipped ({skipped_docs} documents); second-level filter: {flagged} candidate(s) flagged as idioms",
            mined_sources,
            few.len()
        );
    }
    if failed > 0 || crawl.bad > 0 {
        eprintln!(
            "chaff: error: {failed} source(s) failed and {} bad record(s) or input(s) were skipped (see above); the other rules files are written",
            crawl.bad
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// `chaff generate --crawl HOSTS`: the crawl of `chaff::generate::crawl`.
pub(crate) fn generate(a: GenerateArgs) -> Result<ExitCode> {
    let hosts = a.crawl.unwrap_or(0);
    let files = chaff::generate::crawl::write_crawl(&a.out, hosts, a.pages, 20_260_101, a.folders)
        .with_context(|| format!("{}", a.out.display()))?;
    outln!(
        "{} and {}: {hosts} sites × {} pages, {:.1} MB of pages{}",
        files.warc.display(),
        files.jsonl.display(),
        a.pages,
        files.page_bytes as f64 / 1e6,
        files.sources.map(|s| format!("; sources in {}", s.display())).unwrap_or_default()
    );
    Ok(ExitCode::SUCCESS)
}
