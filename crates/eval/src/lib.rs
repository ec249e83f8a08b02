//! Measuring how much template a method removes without eating the article.
//!
//! `chaff eval ROOT` reads site folders of pages with a gold main content ([`dataset`]), has a method
//! learn each site and clean its pages ([`methods`]: one file per method, chaff with its levers and the
//! seeds' methods side by side), under two protocols ([`run`]: in-sample, held-out k-fold), and scores
//! what is left with word-sequence LCS precision, recall and F1 ([`score`]), or span-level precision and
//! recall of removal on injected-template corpora ([`spans`]). The oracle editor ([`oracle`]) measures
//! what an editor's decisions buy. [`report`] makes the tables; [`floors`] is CI's regression check.
//!
//! The library has no UI dependency: the CLI (`src/cli/eval.rs`) parses flags and prints.

pub mod dataset;
pub mod floors;
pub mod methods;
pub mod oracle;
pub mod report;
pub mod run;
pub mod score;
pub mod spans;

// The engine's modules at this crate's root: the evaluation names them `crate::rules`, `crate::cleaning`…
// as it did inside the engine.
use chaff_engine::{
    automatic, clean_settings, cleaning, corpus, cross_source, draft, editing, error, evidence, frame, impact, mining,
    mutable, page, regions, rules, settings, symbol, tokens, verified, view,
};

pub use dataset::{Dataset, Input};
pub use report::Evaluation;
pub use run::{Progress, Protocol, Quiet};

use std::path::PathBuf;

use crate::error::Result;

use self::methods::chaff::Chaff;
use self::methods::{Method, Model, Source};
use self::report::RunReport;
use self::run::{Prepared, Train, prepare, run_protocol};

/// How to evaluate.
#[derive(Debug, Clone)]
pub struct EvalConfig {
    /// The input asked for (a method may read another: table-chunks reads HTML).
    pub input: Input,
    pub protocols: Vec<Protocol>,
    /// Folds of the held-out protocol (at most one per page: leave-one-out).
    pub folds: usize,
    /// Write what is left of each page to `DIR/<protocol>/<site>/<id>.txt` (the first model's output).
    pub dump: Option<PathBuf>,
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig { input: Input::Txt, protocols: vec![Protocol::InSample, Protocol::HeldOut], folds: 10, dump: None }
    }
}

/// What an evaluation is of, for its report.
struct Labels {
    method: String,
    options: serde_json::Value,
    models: Vec<String>,
}

fn evaluate_with(
    dataset: &Dataset,
    config: &EvalConfig,
    input: Input,
    labels: Labels,
    train: &Train<'_>,
    progress: &dyn Progress,
) -> Evaluation {
    let Labels { method, options, models } = labels;
    let prepared = prepare(dataset, input);
    let runs = config
        .protocols
        .iter()
        .map(|&p| {
            RunReport::of(run_protocol(
                dataset,
                &prepared,
                input,
                p,
                config.folds,
                models.len(),
                train,
                config.dump.as_deref(),
                progress,
            ))
        })
        .collect();
    Evaluation {
        dataset: dataset.name.clone(),
        method,
        input,
        options,
        models,
        runs,
        warnings: dataset.warnings.clone(),
    }
}

/// Evaluates `method` on `dataset`.
pub fn evaluate(
    dataset: &Dataset,
    method: &mut dyn Method,
    options: serde_json::Value,
    config: &EvalConfig,
    progress: &dyn Progress,
) -> Result<Evaluation> {
    let input = method.input(config.input);
    method.prepare(&dataset.sites, input)?;
    let method: &dyn Method = method;
    let train =
        |source: &Source<'_>, _: &[&Prepared]| -> Result<Vec<Box<dyn Model>>> { Ok(vec![method.train(source)?]) };
    let labels = Labels { method: method.name(), options, models: vec![method.name()] };
    Ok(evaluate_with(dataset, config, input, labels, &train, progress))
}

/// Evaluates chaff with the oracle editor: scores after 0, 5, 10, 20 and all decisions.
pub fn evaluate_oracle(
    dataset: &Dataset,
    chaff: &mut Chaff,
    config: &EvalConfig,
    progress: &dyn Progress,
) -> Result<Evaluation> {
    let input = config.input;
    chaff.prepare(&dataset.sites, input)?;
    let options = chaff.options();
    let chaff: &Chaff = chaff;
    let train = |source: &Source<'_>, golds: &[&Prepared]| oracle::train(chaff, source, golds);
    let models = oracle::CHECKPOINTS.iter().map(|&c| oracle::checkpoint_name(c)).collect();
    Ok(evaluate_with(
        dataset,
        config,
        input,
        Labels { method: "chaff + oracle editor".to_string(), options, models },
        &train,
        progress,
    ))
}
