//! `chaff bench --html`: speed on HTML through the page view, the path users' pages take. On the real
//! pages of a corpora folder (each site a source): mining (view, suffix array, automatic rules), cleaning
//! to cleaned HTML and to the text a reader sees. On generated minified pages (each page one line) of 10
//! and 100 MB: what 100 MB costs against 10 MB. Cleaning figures are the median of three runs. Figures,
//! not pass/fail.

use std::fs;
use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use chaff::automatic::automatic_rules;
use chaff::cleaning::Cleaner;
use chaff::corpus::{Corpus, Document};
use chaff::generate::html_news;
use chaff::mining::{MiningConfig, Quiet, mine};
use chaff::page::{Page, viewed};
use chaff::rules::{MiningParams, RulesFile};
use chaff::settings::Settings;
use chaff::view::DocKind;
use rayon::prelude::*;

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

/// Mines a source of HTML pages through their views: the automatic rules `chaff mine` writes.
fn mine_pages(name: &str, pages: Vec<Document>) -> Result<RulesFile> {
    let mut config = MiningConfig::default();
    let corpus = viewed(Corpus::from_docs(name, pages), DocKind::Html, &mut config);
    let mining = mine(&corpus, &config, &Quiet)?;
    Ok(automatic_rules(&corpus, &mining, MiningParams::of(&config), None, &Settings::default())?)
}

/// The sites of a corpora folder (`ROOT/<dataset>/<site>/*.html`), each as a source of pages.
fn sites(root: &Path) -> Vec<(String, Vec<Document>)> {
    let mut out = Vec::new();
    let Ok(datasets) = fs::read_dir(root) else { return out };
    for dataset in datasets.flatten().filter(|e| e.path().is_dir()) {
        let Ok(site_dirs) = fs::read_dir(dataset.path()) else { continue };
        for site in site_dirs.flatten().filter(|e| e.path().is_dir()) {
            let pages: Vec<Document> = fs::read_dir(site.path())
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "html"))
                .filter_map(|p| {
                    let text = String::from_utf8_lossy(&fs::read(&p).ok()?).into_owned();
                    Some(Document { id: p.display().to_string(), text })
                })
                .collect();
            if pages.len() >= 2 {
                out.push((site.file_name().to_string_lossy().into_owned(), pages));
            }
        }
    }
    out
}

/// Mines and cleans every site of `root`, sites in parallel; prints MB/s of HTML for each step.
fn real_pages(root: &Path) -> Result<()> {
    let sites = sites(root);
    if sites.is_empty() {
        outln!("html: no pages under {} (skipped)", root.display());
        return Ok(());
    }
    let bytes: usize = sites.iter().flat_map(|(_, p)| p.iter().map(|d| d.text.len())).sum();
    let t = Instant::now();
    let files: Vec<RulesFile> =
        sites.par_iter().map(|(name, pages)| mine_pages(name, pages.clone())).collect::<Result<_>>()?;
    let mine_secs = t.elapsed().as_secs_f64();
    let cleaners: Vec<Cleaner> = files.iter().map(|f| Cleaner::new(f, true)).collect::<chaff::Result<_>>()?;
    let clean = |text: bool| -> f64 {
        let t = Instant::now();
        let written: usize = sites
            .par_iter()
            .zip(&cleaners)
            .flat_map(|((_, pages), c)| pages.par_iter().map(move |d| (c, d)))
            .map(|(c, d)| {
                let out = c.clean_page(Page::new(&d.text, DocKind::Html));
                if text { out.text().len() } else { out.cleaned().len() }
            })
            .sum();
        std::hint::black_box(written);
        t.elapsed().as_secs_f64()
    };
    let (clean_secs, text_secs) = (median_of_3(|| clean(false)), median_of_3(|| clean(true)));
    outln!(
        "html, {} sites of {} ({:.1} MB of pages), {} threads:",
        sites.len(),
        root.display(),
        mb(bytes),
        rayon::current_num_threads()
    );
    outln!("    mine (view + suffix array + automatic rules): {:>7.1} MB/s ({mine_secs:.2} s)", mb(bytes) / mine_secs);
    outln!(
        "    clean to cleaned HTML (median of 3):          {:>7.1} MB/s ({clean_secs:.2} s)",
        mb(bytes) / clean_secs
    );
    outln!("    clean --text (median of 3):                   {:>7.1} MB/s ({text_secs:.2} s)", mb(bytes) / text_secs);
    Ok(())
}

/// The median of three timings of `run`: a cleaning pass takes a fraction of a second, where one run's
/// figure is at the mercy of the machine.
fn median_of_3(mut run: impl FnMut() -> f64) -> f64 {
    let mut secs = [run(), run(), run()];
    secs.sort_by(f64::total_cmp);
    secs[1]
}

/// Generated news pages printed minified (each page one line), about `bytes` in all.
fn minified_pages(bytes: usize) -> Vec<Document> {
    let per_page = html_news(4, 7).docs.iter().map(|d| d.text.len()).sum::<usize>() / 4;
    let n = bytes / per_page.max(1) + 1;
    html_news(n, 11).docs.into_iter().map(|d| Document { id: d.id, text: d.text.replace('\n', "") }).collect()
}

/// Mines and cleans 10 MB and 100 MB of minified pages; prints the times and their ratio.
fn scaling() -> Result<()> {
    let mut secs = Vec::new();
    for size in [10usize, 100] {
        let pages = minified_pages(size * 1_000_000);
        let bytes: usize = pages.iter().map(|d| d.text.len()).sum();
        let t = Instant::now();
        let file = mine_pages("minified", pages.clone())?;
        let mined = t.elapsed().as_secs_f64();
        let cleaner = Cleaner::new(&file, true)?;
        let cleaned = median_of_3(|| {
            let t = Instant::now();
            let written: usize =
                pages.par_iter().map(|d| cleaner.clean_page(Page::new(&d.text, DocKind::Html)).cleaned().len()).sum();
            std::hint::black_box(written);
            t.elapsed().as_secs_f64()
        });
        outln!(
            "minified html, {:.0} MB ({} one-line pages): mine {:.1} MB/s ({mined:.2} s), clean {:.1} MB/s ({cleaned:.2} s, median of 3)",
            mb(bytes),
            pages.len(),
            mb(bytes) / mined,
            mb(bytes) / cleaned
        );
        secs.push(mined + cleaned);
    }
    outln!("minified html: 100 MB costs {:.1}× what 10 MB costs (mine + clean)", secs[1] / secs[0]);
    Ok(())
}

pub fn bench_html(root: &Path) -> Result<()> {
    real_pages(root)?;
    scaling()
}
