//! Running an evaluation: for each site and fold, train on the training pages, clean the test pages,
//! render, score. Sites and folds run in parallel (rayon).
//!
//! Protocols: `in-sample` trains on all pages of a site and cleans the same pages (what the thesis did);
//! `held-out` splits a site's pages into k folds and cleans each fold with what was learned from the
//! others (the real use: new articles); `few-pages` turns the folds over, learning from one fold and
//! cleaning the others (an editor who has seen a few pages of a source: the hardest test of whether her
//! decisions hold on the rest). A page is scored once by the first two, k − 1 times by `few-pages`. A
//! fold whose training pages are fewer than two cannot be mined: its pages are scored uncleaned, and a
//! note says so.

use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::Result;

pub use super::dataset::output_text;
use super::dataset::{Dataset, Input, Page, Site};
use super::methods::{Model, Nothing, Source};
use super::score::{Gold, Prf};
use super::spans::{SpanCounts, score_page_spans};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    InSample,
    HeldOut,
    FewPages,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::InSample => "in-sample",
            Protocol::HeldOut => "held-out",
            Protocol::FewPages => "few-pages",
        }
    }
}

/// A page ready to be scored: its gold, and the floor (the whole input text, unchanged).
pub struct Prepared {
    pub gold: Gold,
    pub floor: Prf,
}

/// The score of one page under one protocol.
#[derive(Debug, Clone, Serialize)]
pub struct PageResult {
    pub site: String,
    pub id: String,
    pub fold: usize,
    /// One score per model of the task: the method's, or the oracle editor's after each checkpoint.
    pub scores: Vec<Prf>,
    pub floor: Prf,
    /// Span-level removal scores against the injected template, one per model (generated sources).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<SpanCounts>,
}

/// Something that went wrong or was worked around, for the report.
#[derive(Debug, Clone, Serialize)]
pub struct Note {
    pub site: String,
    pub fold: Option<usize>,
    pub message: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProtocolRun {
    pub protocol: Protocol,
    pub folds: usize,
    pub pages: Vec<PageResult>,
    pub notes: Vec<Note>,
    pub seconds: f64,
    pub speed: Speed,
}

/// How fast a method learned and cleaned: bytes and seconds summed over a run's (site, fold) tasks, each
/// timed on its own thread (scoring and rendering left out).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Speed {
    pub learn_bytes: usize,
    pub learn_seconds: f64,
    pub clean_bytes: usize,
    pub clean_seconds: f64,
}

impl Speed {
    fn add(self, o: Speed) -> Speed {
        Speed {
            learn_bytes: self.learn_bytes + o.learn_bytes,
            learn_seconds: self.learn_seconds + o.learn_seconds,
            clean_bytes: self.clean_bytes + o.clean_bytes,
            clean_seconds: self.clean_seconds + o.clean_seconds,
        }
    }

    /// MB/s of pages learned from.
    pub fn learn_mb_s(&self) -> f64 {
        self.learn_bytes as f64 / 1e6 / self.learn_seconds.max(1e-9)
    }

    /// MB/s of pages cleaned.
    pub fn clean_mb_s(&self) -> f64 {
        self.clean_bytes as f64 / 1e6 / self.clean_seconds.max(1e-9)
    }
}

/// Progress of a run, for the CLI's bar.
pub trait Progress: Sync {
    fn start(&self, _label: &str, _tasks: usize) {}
    fn task_done(&self) {}
}

pub struct Quiet;
impl Progress for Quiet {}

/// The texts a method sees for a page: its input (`None` if the page lacks it).
fn input_of(page: &Page, input: Input) -> Option<&str> {
    page.input(input)
}

/// The gold and floor of every page of every site, for `input` (sites lacking it are skipped).
pub fn prepare(dataset: &Dataset, input: Input) -> Vec<Vec<Prepared>> {
    dataset
        .sites
        .par_iter()
        .map(|site| {
            let input = site.input_for(input).unwrap_or(input);
            site.pages
                .par_iter()
                .map(|page| {
                    let gold = Gold::new(page.gold.as_deref().unwrap_or_default());
                    let floor = match input_of(page, input) {
                        Some(text) => gold.score(&output_text(text, &[], input)),
                        None => Prf::default(),
                    };
                    Prepared { gold, floor }
                })
                .collect()
        })
        .collect()
}

/// What a task learns: one or more models (the oracle editor's checkpoints), given the training pages.
pub type Train<'a> = dyn Fn(&Source<'_>, &[&Prepared]) -> Result<Vec<Box<dyn Model>>> + Sync + 'a;

/// Runs `protocol` over the dataset: `train` builds the models of each (site, fold), which clean the
/// fold's test pages. `models` is how many models `train` returns (for uncleaned folds).
#[allow(clippy::too_many_arguments)]
pub fn run_protocol(
    dataset: &Dataset,
    prepared: &[Vec<Prepared>],
    input: Input,
    protocol: Protocol,
    folds: usize,
    models: usize,
    train: &Train<'_>,
    dump: Option<&Path>,
    progress: &dyn Progress,
) -> ProtocolRun {
    let clock = Instant::now();
    let mut tasks: Vec<(usize, usize, usize, Input)> = Vec::new(); // (site, fold, folds of the site, input)
    let mut notes = Vec::new();
    for (s, site) in dataset.sites.iter().enumerate() {
        let Some(site_input) = site.input_for(input) else {
            notes.push(Note {
                site: site.name.clone(),
                fold: None,
                message: "some pages have neither a .txt nor an .html file: site skipped".into(),
            });
            continue;
        };
        if site_input != input {
            notes.push(Note {
                site: site.name.clone(),
                fold: None,
                message: format!("no .{} pages: read as {}", input.name(), site_input.name()),
            });
        }
        let empty: Vec<&str> = site
            .pages
            .iter()
            .zip(&prepared[s])
            .filter(|(_, p)| p.gold.is_empty())
            .map(|(p, _)| p.id.as_str())
            .collect();
        if !empty.is_empty() {
            notes.push(Note {
                site: site.name.clone(),
                fold: None,
                message: format!("empty gold, left out of the scores: {}", empty.join(", ")),
            });
        }
        let k = match protocol {
            Protocol::InSample => 1,
            Protocol::HeldOut | Protocol::FewPages => folds.clamp(2, site.pages.len().max(2)),
        };
        tasks.extend((0..k).map(|f| (s, f, k, site_input)));
    }
    progress.start(protocol.name(), tasks.len());
    let results: Vec<(Vec<PageResult>, Option<Note>, Speed)> = tasks
        .par_iter()
        .map(|&(s, fold, k, input)| {
            let out = run_task(&dataset.sites[s], s, &prepared[s], input, protocol, fold, k, models, train, dump);
            progress.task_done();
            out
        })
        .collect();
    let mut pages = Vec::new();
    let mut speed = Speed::default();
    for (p, note, s) in results {
        pages.extend(p);
        notes.extend(note);
        speed = speed.add(s);
    }
    ProtocolRun {
        protocol,
        folds: if protocol == Protocol::InSample { 1 } else { folds },
        pages,
        notes,
        seconds: clock.elapsed().as_secs_f64(),
        speed,
    }
}

#[allow(clippy::too_many_arguments)]
fn run_task(
    site: &Site,
    s: usize,
    prepared: &[Prepared],
    input: Input,
    protocol: Protocol,
    fold: usize,
    k: usize,
    models: usize,
    train: &Train<'_>,
    dump: Option<&Path>,
) -> (Vec<PageResult>, Option<Note>, Speed) {
    let n = site.pages.len();
    let (test, training): (Vec<usize>, Vec<usize>) = match protocol {
        Protocol::InSample => ((0..n).collect(), (0..n).collect()),
        Protocol::HeldOut => (0..n).partition(|i| i % k == fold),
        Protocol::FewPages => (0..n).partition(|i| i % k != fold),
    };
    // A page with an empty gold has no main content to score recall of: it trains, but is not scored.
    let test: Vec<usize> = test.into_iter().filter(|&i| !prepared[i].gold.is_empty()).collect();
    let docs: Vec<(&str, &str)> =
        training.iter().map(|&i| (site.pages[i].id.as_str(), input_of(&site.pages[i], input).unwrap_or(""))).collect();
    let golds: Vec<&Prepared> = training.iter().map(|&i| &prepared[i]).collect();
    let source = Source { name: &site.name, site: s, input, docs };
    let fold_no = (protocol != Protocol::InSample).then_some(fold);
    let learn_clock = Instant::now();
    let (trained, note) = if source.docs.len() < 2 {
        let message =
            format!("{} training page(s): nothing to mine, {} page(s) scored uncleaned", source.docs.len(), test.len());
        (Vec::new(), Some(message))
    } else {
        match train(&source, &golds) {
            Ok(m) => (m, None),
            Err(e) => (Vec::new(), Some(format!("training failed ({e}): pages scored uncleaned"))),
        }
    };
    let learn_seconds = learn_clock.elapsed().as_secs_f64();
    let learn_bytes = if trained.is_empty() { 0 } else { source.docs.iter().map(|d| d.1.len()).sum() };
    let trained: Vec<Box<dyn Model>> =
        if trained.is_empty() { (0..models).map(|_| Box::new(Nothing) as Box<dyn Model>).collect() } else { trained };
    let cleaned: Vec<(PageResult, f64)> = test
        .par_iter()
        .map(|&i| {
            let page = &site.pages[i];
            let text = input_of(page, input).unwrap_or("");
            let template = page.template_of(input);
            let mut scores = Vec::with_capacity(trained.len());
            let mut spans = Vec::new();
            let mut clean_seconds = 0.0;
            for (m, model) in trained.iter().enumerate() {
                let clock = Instant::now();
                let (removed, written) = model.clean(text);
                if m == 0 {
                    clean_seconds = clock.elapsed().as_secs_f64();
                }
                // the text the method writes, where it writes its own (chaff: as `chaff clean` does)
                let output = written.unwrap_or_else(|| output_text(text, &removed, input));
                if m == 0
                    && let Some(dir) = dump
                {
                    let dir = dir.join(protocol.name()).join(&site.name);
                    // `few-pages` cleans a page once per other fold: one file each
                    let name = match protocol {
                        Protocol::FewPages => format!("{}.fold{fold}.txt", page.id),
                        _ => format!("{}.txt", page.id),
                    };
                    // best effort: a debugging aid, never a reason to stop the evaluation
                    let _ = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(dir.join(name), &output));
                }
                scores.push(prepared[i].gold.score(&output));
                if let Some(t) = template {
                    spans.push(score_page_spans(text, &removed, t, input));
                }
            }
            let result = PageResult {
                site: site.name.clone(),
                id: page.id.clone(),
                fold: if protocol == Protocol::InSample { 0 } else { fold },
                scores,
                floor: prepared[i].floor,
                spans,
            };
            (result, clean_seconds)
        })
        .collect();
    let speed = Speed {
        learn_bytes,
        learn_seconds,
        clean_bytes: test.iter().map(|&i| input_of(&site.pages[i], input).map_or(0, str::len)).sum(),
        clean_seconds: cleaned.iter().map(|c| c.1).sum(),
    };
    let pages = cleaned.into_iter().map(|c| c.0).collect();
    (pages, note.map(|message| Note { site: site.name.clone(), fold: fold_no, message }), speed)
}
