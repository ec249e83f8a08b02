//! `chaff bench --impact`: how long one decision's impact over a whole source takes to find (the tuning
//! UI shows it before the editor confirms), on a generated source of 1,000 documents, against cleaning
//! every document again: decisions on template strings (on every page), on a string of few pages, an
//! editor's rule no mining made (its matches found on every page once), a stage; and on a generated
//! HTML source, each mined region rule (its pages go through the stages again). Figures, not pass/fail.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use chaff::automatic::automatic_rules;
use chaff::corpus::{Corpus, Document};
use chaff::impact::Baseline;
use chaff::mining::{MiningConfig, Quiet, mine};
use chaff::regions::region_impact;
use chaff::rules::region::RegionRule;
use chaff::rules::{Action, MiningParams, RulesFile, Status};
use chaff::settings::Settings;
use chaff::view::DocKind;

/// Documents of the benchmark's source.
const DOCUMENTS: usize = 1000;

pub fn bench_impact() -> Result<ExitCode> {
    let source = chaff::generate::sevendays(DOCUMENTS, 7);
    let docs: Vec<Document> = source.docs.into_iter().map(|d| Document { id: d.id, text: d.text }).collect();
    let corpus = Corpus::from_docs("bench-impact", docs.clone());
    let config = MiningConfig::default();
    let mining = mine(&corpus, &config, &Quiet)?;
    let file = automatic_rules(&corpus, &mining, MiningParams::of(&config), None, &Settings::default())?;
    let t = Instant::now();
    let base = Baseline::new(&file, docs.clone(), true)?;
    outln!(
        "impact: {} documents, {:.1} MB, {} rules; baseline (every document cleaned once) {:.0} ms",
        base.len(),
        corpus.bytes() as f64 / (1 << 20) as f64,
        file.rules.len(),
        t.elapsed().as_secs_f64() * 1000.0
    );
    let active: Vec<usize> = (0..file.rules.len()).filter(|&i| file.is_active(&file.rules[i], true)).collect();
    let inactive: Vec<usize> = (0..file.rules.len()).filter(|&i| !file.is_active(&file.rules[i], true)).collect();
    let mut decisions: Vec<(String, RulesFile)> = Vec::new();
    let mut decide = |label: String, f: &dyn Fn(&mut RulesFile)| {
        let mut after = file.clone();
        f(&mut after);
        decisions.push((label, after));
    };
    for &i in active.iter().take(3) {
        decide(format!("reject {}", file.rules[i].tokens.join(" ")), &|f| f.rules[i].status = Status::Rejected);
    }
    for &i in inactive.iter().take(2) {
        decide(format!("accept {}", file.rules[i].tokens.join(" ")), &|f| f.rules[i].status = Status::Accepted);
    }
    if let Some(&i) = active.first() {
        decide(format!("cut-after at {}", file.rules[i].tokens.join(" ")), &|f| f.rules[i].action = Action::CutAfter);
    }
    if let Some(&i) = inactive.iter().filter(|&&i| file.rules[i].df > 0).min_by_key(|&&i| file.rules[i].df) {
        let label = format!("accept (df {}) {}", file.rules[i].df, file.rules[i].tokens.join(" "));
        decide(label, &|f| f.rules[i].status = Status::Accepted);
    }
    // an editor marks the first words of a page as template: a rule no mining made
    let mutable = chaff::mutable::MutableSet::new(file.mutable.clone())?;
    let first = &base.docs()[0].text;
    let end = first.char_indices().nth(60).map_or(first.len(), |(i, _)| i);
    let marked = chaff::editing::rule_from_span(first, 0, end, Action::Remove, file.tokenizer, &mutable)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    decide(format!("mark {}", marked.tokens.join(" ")), &|f| f.rules.push(marked.clone()));
    decide("stage short-runs off".into(), &|f| f.set_stage(chaff::clean_settings::Stage::ShortRuns, false));
    for (label, after) in &decisions {
        let t = Instant::now();
        let impact = base.impact(after)?;
        let fast = t.elapsed().as_secs_f64() * 1000.0;
        let t = Instant::now();
        let all = base.impact_cleaning_all(after)?;
        let slow = t.elapsed().as_secs_f64() * 1000.0;
        assert_eq!(impact.changed, all.changed, "{label}: the impact differs from cleaning every document");
        let label: String = label.chars().take(48).collect();
        outln!(
            "    {label:<48} {fast:>7.1} ms ({} documents cleaned again; every document: {slow:.1} ms): {}",
            impact.recleaned,
            impact.summary()
        );
    }
    // as the tuning UI holds it: the accepted rules cleaned, the articles found with the pending ones too,
    // and a decision made moves the baseline on (the documents it changes, their articles found again)
    let t = Instant::now();
    let accepted = Baseline::new(&file, docs, false)?;
    outln!(
        "  baseline of the accepted rules, articles with the pending ones: {:.0} ms; each decision made:",
        t.elapsed().as_secs_f64() * 1000.0
    );
    for (label, after) in &decisions {
        let mut moved = accepted.clone();
        let t = Instant::now();
        let impact = moved.advance(after)?;
        let made = t.elapsed().as_secs_f64() * 1000.0;
        let label: String = label.chars().take(48).collect();
        outln!("    {label:<48} {made:>7.1} ms ({} documents cleaned again)", impact.recleaned);
    }
    regions()?;
    Ok(ExitCode::SUCCESS)
}

/// Each region rule mined from a generated HTML source of 1,000 pages, as the tuning UI's region list
/// asks for it: its impact against the automatic rules with every region rule left out.
fn regions() -> Result<()> {
    let docs: Vec<Document> =
        (0..DOCUMENTS).map(|i| Document { id: format!("p{i}"), text: chaff::generate::block_page(i) }).collect();
    let mut config = MiningConfig::default();
    let views = chaff::page::viewed(Corpus::from_docs("bench-regions", docs), DocKind::Html, &mut config);
    let mining = mine(&views, &config, &Quiet)?;
    let mut file = automatic_rules(&views, &mining, MiningParams::of(&config), None, &Settings::default())?;
    let candidates: Vec<RegionRule> = file.regions.drain(..).collect();
    // the pages are held as their views' text, where their lines sit beside it
    file.input = Some(DocKind::Text);
    let t = Instant::now();
    let base = Baseline::of_corpus(&file, Arc::new(views), true)?;
    outln!(
        "  regions: {} HTML pages held as their views, {} region rules; baseline {:.0} ms; each rule's impact:",
        base.len(),
        candidates.len(),
        t.elapsed().as_secs_f64() * 1000.0
    );
    for rule in &candidates {
        let t = Instant::now();
        let impact = region_impact(&base, rule)?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let removed = impact.removed_inside + impact.removed_outside;
        outln!(
            "    {:<48} {ms:>7.1} ms: on {} pages, {} changed, -{removed} words",
            rule.element,
            impact.pages,
            impact.changed
        );
    }
    Ok(())
}
