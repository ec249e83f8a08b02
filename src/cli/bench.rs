//! `chaff bench`: speed figures on generated templated corpora — MB/s for each mining stage, cleaning
//! with 200 and 1,000 accepted rules, and peak memory. Figures, not pass/fail: the machine decides.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use chaff::cleaning::Cleaner;
use chaff::corpus::{Corpus, Document};
use chaff::generate::bench_corpus;
use chaff::mining::{Mining, MiningConfig, Quiet, Stage, mine};
use chaff::mutable::MutableSet;
use chaff::rules::{MiningParams, Rule, RulesFile, Status};
use chaff::symbol::Symbol;
use rayon::prelude::*;

use super::args::BenchArgs;
use super::clean::Destination;

/// Peak resident memory of this process so far (VmHWM), in MB.
fn peak_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l.to_string()))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|kb| kb.parse::<f64>().ok()))
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn corpus(mb: usize, doc_bytes: usize) -> Corpus {
    let source = bench_corpus(mb << 20, doc_bytes, 42);
    let docs = source.docs.into_iter().map(|d| Document { id: d.id, text: d.text }).collect();
    Corpus::from_docs(format!("bench-{mb}mb"), docs)
}

fn mbps(bytes: u64, secs: f64) -> f64 {
    bytes as f64 / (1 << 20) as f64 / secs.max(1e-9)
}

fn report(label: &str, m: &Mining, total: f64) {
    outln!(
        "{label}: {} docs, {:.1} MB, {} tokens, mined {} docs; total {:.2} s = {:.1} MB/s; auto cutoff {}%, {} candidates",
        m.documents,
        m.bytes as f64 / (1 << 20) as f64,
        m.tokens,
        m.sampled_documents,
        total,
        mbps(m.bytes, total),
        m.auto_cutoff,
        m.candidates(m.auto_cutoff).count()
    );
    for stage in Stage::ALL {
        let t = m.time(stage).as_secs_f64();
        if t > 0.0 {
            outln!("    {:<13} {:>8.1} ms  {:>8.1} MB/s of input", stage.name(), t * 1000.0, mbps(m.bytes, t));
        }
    }
}

/// `n` accepted rules: the mined candidates, then random 3–6-token windows of the documents (each found
/// in at least its own document), synthesized as the miner would.
fn rules_for(corpus: &Corpus, mining: &Mining, n: usize) -> RulesFile {
    let mut file = chaff::merge::from_mining(mining, MiningParams::default(), None);
    let mutable = MutableSet::new(mining.patterns.clone()).expect("patterns");
    file.rules.truncate(n);
    let mut state = 0x9E3779B97F4A7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    while file.rules.len() < n {
        let doc = &corpus.docs[(next() % corpus.docs.len() as u64) as usize];
        let words: Vec<&str> = doc.text.split_whitespace().collect();
        let len = 3 + (next() % 4) as usize;
        if words.len() <= len {
            continue;
        }
        let at = (next() % (words.len() - len) as u64) as usize;
        let symbols: Vec<Symbol> = words[at..at + len]
            .iter()
            .map(|w| match mutable.classify(w) {
                Some(p) => Symbol::Mutable(mutable.patterns()[p].name.clone()),
                None => Symbol::Literal(w.to_string()),
            })
            .collect();
        let id = chaff::symbol::stable_id(&symbols);
        if file.rules.iter().any(|r| r.id == id) {
            continue;
        }
        file.rules
            .push(Rule::accepted(id, &symbols, Default::default(), file.tokenizer, &mutable).expect("synthesize"));
    }
    for r in &mut file.rules {
        r.status = Status::Accepted;
    }
    file
}

fn bench_clean(corpus: &Corpus, file: &RulesFile) {
    let t = Instant::now();
    let cleaner = Cleaner::new(file, false).expect("cleaner");
    let build = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let removed: usize = corpus.docs.par_iter().map(|d| cleaner.clean(&d.text).removed_bytes).sum();
    let secs = t.elapsed().as_secs_f64();
    let bytes = corpus.bytes() as u64;
    outln!(
        "    clean, {:>5} rules: {:>8.1} MB/s ({:.2} s for {:.0} MB; rules compiled in {:.0} ms; {:.1}% removed)",
        file.rules.len(),
        mbps(bytes, secs),
        secs,
        bytes as f64 / (1 << 20) as f64,
        build * 1000.0,
        100.0 * removed as f64 / bytes as f64
    );
}

/// `chaff clean` folder → folder end to end on thousands of small files (in a temp folder under TMPDIR):
/// reading, cleaning, writing and syncing, against cleaning the same documents in memory.
fn bench_clean_folder() -> Result<()> {
    let c = corpus(50, 4 << 10);
    let m = mine(&c, &MiningConfig::default(), &Quiet)?;
    let cleaner = Cleaner::new(&rules_for(&c, &m, 200), false)?;
    let dir = tempfile::Builder::new().prefix("chaff-bench-").tempdir()?;
    let input = dir.path().join("in");
    std::fs::create_dir(&input)?;
    for d in &c.docs {
        std::fs::write(input.join(format!("{}.txt", d.id)), &d.text)?;
    }
    let t = Instant::now();
    let _: usize = c.docs.par_iter().map(|d| cleaner.clean(&d.text).removed_bytes).sum();
    let memory = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let out = dir.path().join("out");
    super::clean::clean_files(
        &cleaner,
        chaff::view::DocKind::Text,
        std::slice::from_ref(&input),
        Destination::Folder(&out),
        super::clean::How::default(),
    )?;
    let folder = t.elapsed().as_secs_f64();
    let bytes = c.bytes() as u64;
    outln!(
        "clean folder → folder, {} files of {:.1} KB ({:.0} MB, 200 rules, in {}): {:.1} MB/s, {:.0} files/s ({:.2} s); in memory {:.1} MB/s",
        c.docs.len(),
        bytes as f64 / c.docs.len() as f64 / 1024.0,
        bytes as f64 / (1 << 20) as f64,
        dir.path().display(),
        mbps(bytes, folder),
        c.docs.len() as f64 / folder,
        folder,
        mbps(bytes, memory)
    );
    Ok(())
}

pub fn bench(args: BenchArgs) -> Result<ExitCode> {
    if args.impact {
        return super::bench_impact::bench_impact();
    }
    if args.tui {
        out!("{}", chaff::tui::bench::bench_frames());
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(root) = &args.html {
        super::bench_html::bench_html(root)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!("chaff bench: {} threads; figures from this machine, this run", rayon::current_num_threads());
    let sizes: Vec<usize> = super::args::entries(&args.sizes).copied().collect();
    let mut runs: Vec<(String, usize, usize)> = sizes.iter().map(|&mb| (format!("{mb} MB"), mb, 10 << 10)).collect();
    // a single 5 MB source, mined whole: the editor's re-mine
    runs.insert(0, ("5 MB source".into(), 5, 10 << 10));
    if args.thesis_scale {
        runs.push(("thesis scale (220 MB, ~10,000 docs)".into(), 220, 22 << 10));
    }
    let mut per_mb = Vec::new();
    for (label, mb, doc_bytes) in runs {
        let t = Instant::now();
        let c = corpus(mb, doc_bytes);
        let gen_secs = t.elapsed().as_secs_f64();
        let config = MiningConfig::default();
        // Reset the peak (VmHWM) so it measures mining and cleaning with the corpus loaded, not generation.
        let _ = std::fs::write("/proc/self/clear_refs", "5");
        let t = Instant::now();
        let m = mine(&c, &config, &Quiet)?;
        let total = t.elapsed().as_secs_f64();
        outln!("(generated in {gen_secs:.1} s)");
        report(&label, &m, total);
        per_mb.push((mb, total));
        if mb == 10 {
            // the same 10 MB mined whole, no sampling: the suffix array's own speed
            let whole = MiningConfig { sample_bytes: usize::MAX, ..MiningConfig::default() };
            let t = Instant::now();
            let w = mine(&c, &whole, &Quiet)?;
            report("10 MB, mined whole (no sample)", &w, t.elapsed().as_secs_f64());
        }
        if mb == 100 || (mb == *sizes.iter().max().unwrap_or(&mb) && !sizes.contains(&100)) {
            for n in [200, 1000] {
                bench_clean(&c, &rules_for(&c, &m, n));
            }
        }
        outln!("    peak memory: {:.0} MB (input {:.0} MB)\n", peak_mb(), c.bytes() as f64 / (1 << 20) as f64);
    }
    let ten = per_mb.iter().find(|r| r.0 == 10).map(|r| r.1);
    let hundred = per_mb.iter().find(|r| r.0 == 100).map(|r| r.1);
    if let (Some(a), Some(b)) = (ten, hundred) {
        outln!("100 MB costs {:.1}× what 10 MB costs", b / a);
    }
    bench_clean_folder()?;
    Ok(ExitCode::SUCCESS)
}
