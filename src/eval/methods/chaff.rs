//! chaff itself as an evaluated method: mine the training pages, keep the automatic rules (pending ones at
//! or above the cutoff, idioms rejected), clean. Every lever the evaluation measures is an option here,
//! so one `chaff eval` run answers one question ("does a 3-token minimum help?").
//! The cleaner's stages are the rules file's, as `chaff mine` writes them; `off` turns stages off and
//! `specks` sets that stage's threshold, as a rules file's `[clean]` table does.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;
use serde::Serialize;

use crate::automatic::{AutoOptions, ClusterParams, mine_source, read_as_kind};
use crate::cleaning::Cleaner;
use crate::clusters::ClusterMethod;
use crate::corpus::{Corpus, Document};
use crate::cross_source::{flag, idiom_threshold};
use crate::cutoff::CutoffBin;
use crate::error::Result;
use crate::frame::{CutParams, suggest_cuts};
use crate::mining::{Mining, MiningConfig, Quiet, mine};
use crate::rules::{MiningAsked, Rule, RulesFile, mining_config};
use crate::symbol::display;
use crate::tokens::Tokenizer;

use super::{Input, Method, Model, Site, Source};
use crate::clean_settings::{CleanSettings, Stage};
use crate::cleaning::normalize;
use crate::page::{Output, Page};
use crate::view::DocKind;

/// The levers. `Default` is chaff's current automatic configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChaffOptions {
    /// Shortest mined string, in tokens.
    pub min_tokens: u32,
    /// Fewest documents a mined string occurs in.
    pub min_df: u32,
    /// Drop strings repeated more than this many times per document on average.
    pub max_tf_per_df: Option<f64>,
    /// Keep only matches that start or end a line (text input; HTML has `tag_bound` instead).
    pub line_boundary: bool,
    /// Frame cuts: header strings cut everything before them, footer strings everything after.
    pub cuts: bool,
    /// Share of its pages on which a string must lie outside the article block to cut.
    pub cut_share: f64,
    /// Rounds of frame-cut suggestion: each round sees the cuts of the rounds before (a footer string
    /// found keeps the comment thread after it from being taken for the article).
    pub cut_rounds: usize,
    /// Second-level filter: a candidate in this many sites of the dataset is an idiom, rejected.
    pub idioms: Option<usize>,
    /// Removed intervals closer than this many characters are joined.
    pub merge_gap: usize,
    /// Whole lines of one token ("Reply", "Home") are rules too, at their document frequency: the miner
    /// keeps strings of at least `min_tokens` tokens, and a single word is template only as a line.
    pub line_rules: bool,
    /// HTML: a rule whose string holds no tag is rejected (template strings carry markup; "of the" does
    /// not). The HTML counterpart of `line_boundary`.
    pub tag_bound: bool,
    /// Candidates of mutable patterns alone (no fixed text) start rejected.
    pub reject_patterns: bool,
    /// A fixed cutoff (percent of pages) instead of the automatic one.
    pub cutoff: Option<CutoffBin>,
    /// Template clusters: split the pages into clusters of this Jaccard similarity of structure, mine
    /// each cluster of at least `min_cluster` pages too, and clean a page with its cluster's rules and
    /// the whole source's.
    pub clusters: Option<f64>,
    /// Template clusters: how pages are grouped (linkage uses `clusters` as its threshold).
    #[serde(skip_serializing_if = "ClusterMethod::is_linkage")]
    pub cluster_method: ClusterMethod,
    pub min_cluster: usize,
    /// HTML input: mine and match the raw HTML with the html tokenizer (by default pages are mined and
    /// cleaned on their views' text, as `chaff mine` does).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub raw_html: bool,
    /// Cleaning stages turned off (all are on by default, as `chaff mine` writes them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub off: Vec<Stage>,
    /// Locality: kept text of fewer than this many words between two removed spans is removed too.
    pub islands: Option<usize>,
    /// Kept runs outside the article block with fewer than this many words on long lines go too.
    pub short_runs: usize,
    /// Stage `specks`: a removed span of fewer than this many characters with kept text on both sides on
    /// its line is kept (0: none).
    pub specks: usize,
}

impl Default for ChaffOptions {
    fn default() -> Self {
        ChaffOptions {
            min_tokens: 2,
            min_df: 2,
            max_tf_per_df: None,
            line_boundary: true,
            cuts: true,
            cut_share: CutParams::default().min_share,
            cut_rounds: 1,
            // on, as `chaff mine --all` runs it: the evaluation measures what users get
            idioms: Some(crate::cross_source::DEFAULT_MIN_SOURCES),
            merge_gap: 0,
            line_rules: true,
            tag_bound: true,
            reject_patterns: true,
            cutoff: None,
            clusters: Some(ClusterParams::default().similarity),
            cluster_method: ClusterParams::default().method,
            min_cluster: ClusterParams::default().min_docs,
            off: Vec::new(),
            raw_html: false,
            islands: Some(AutoOptions::default().islands),
            short_runs: AutoOptions::default().short_runs,
            specks: 0,
        }
    }
}

/// Candidate keys of every site mined on all its pages, for the second-level filter.
struct Idioms {
    /// In how many sites each string is a candidate.
    sources: HashMap<String, usize>,
    /// Each site's own candidates.
    own: Vec<HashSet<String>>,
    threshold: usize,
}

impl Idioms {
    /// In how many sites other than `site` the string `key` is a candidate.
    fn elsewhere(&self, site: usize, key: &str) -> usize {
        self.sources.get(key).copied().unwrap_or(0) - usize::from(self.own[site].contains(key))
    }
}

pub struct Chaff {
    pub options: ChaffOptions,
    idioms: Option<Idioms>,
}

fn candidate_keys(m: &Mining) -> HashSet<String> {
    m.candidates(m.auto_cutoff).map(|s| display(&s.symbols)).collect()
}

impl Chaff {
    pub fn new(options: ChaffOptions) -> Chaff {
        Chaff { options, idioms: None }
    }

    fn config(&self, input: Input) -> MiningConfig {
        // HTML pages are mined on their views' text unless the raw-HTML tokenizer is asked for
        let tokenizer = match input {
            Input::Html if self.options.raw_html => Tokenizer::Html,
            _ => Tokenizer::Text,
        };
        let asked = MiningAsked {
            tokenizer: Some(tokenizer),
            min_tokens: Some(self.options.min_tokens),
            min_df: Some(self.options.min_df),
            max_tf_per_df: self.options.max_tf_per_df,
            sample_bytes: None,
        };
        mining_config(None, &asked)
    }

    /// The automatic rules file of a source, and the corpus it was mined from. All mined strings are
    /// rules, those below the cutoff pending and inactive: an editor (the oracle) may accept them.
    pub fn rules_file(&self, source: &Source<'_>) -> Result<(Corpus, RulesFile)> {
        self.mined(source).map(|(corpus, _, file)| (corpus, file))
    }

    /// [`Chaff::rules_file`] with the mining it was made from (the oracle editor opens a draft on it).
    pub fn mined(&self, source: &Source<'_>) -> Result<(Corpus, Mining, RulesFile)> {
        let docs = source.docs.iter().map(|(id, text)| Document { id: id.to_string(), text: text.to_string() });
        let mut config = self.config(source.input);
        let corpus = Corpus::from_docs(source.name, docs.collect());
        let corpus = read_as_kind(corpus, Some(kind_of(source.input)), None, &mut config);
        // the engine's automatic rules, with this run's levers
        let auto = AutoOptions {
            cuts: self.options.cuts.then_some(CutParams { min_share: self.options.cut_share, ..CutParams::default() }),
            line_boundary: if self.options.line_boundary { None } else { Some(false) },
            reject_tagless: self.options.tag_bound,
            reject_patterns: self.options.reject_patterns,
            islands: self.options.islands.unwrap_or(0),
            keep_title: true,
            short_runs: self.options.short_runs,
            drop_reprints: true,
            line_rules: self.options.line_rules,
            clusters: self.options.clusters.map(|similarity| ClusterParams {
                method: self.options.cluster_method,
                similarity,
                min_docs: self.options.min_cluster,
                ..ClusterParams::default()
            }),
        };
        let (mining, mut file) = mine_source(&corpus, &config, None, &auto, &Quiet, |mining| {
            if let Some(idioms) = &self.idioms {
                flag(mining, idioms.threshold, |key| idioms.elsewhere(source.site, key));
            }
        })?;
        let present: HashSet<String> = file.rules.iter().map(|r| r.id.clone()).collect();
        file.rules.extend(mining.strings.iter().filter(|s| !present.contains(&s.id)).map(Rule::from_mined));
        file.merge_gap = self.options.merge_gap;
        if let Some(c) = self.options.cutoff {
            file.cutoff.chosen = c;
        }
        if self.options.cuts {
            let params = CutParams { min_share: self.options.cut_share, ..CutParams::default() };
            // the engine made the first round
            for _ in 1..self.options.cut_rounds.max(1) {
                if suggest_cuts(&corpus, &mut file, &params)? == 0 {
                    break;
                }
            }
        }
        Ok((corpus, mining, file))
    }

    /// The model cleaning with `file`'s active rules (accepted, and pending at or above the cutoff).
    pub fn model(&self, file: &RulesFile) -> Result<ChaffModel> {
        Ok(ChaffModel { cleaner: Cleaner::new(file, true)?.with_settings(self.settings(file)), kind: file.input() })
    }

    /// The stages `file` cleans with, less this run's `off`, with its `specks`.
    pub fn settings(&self, file: &RulesFile) -> CleanSettings {
        let mut settings = file.clean_settings();
        settings.specks = self.options.specks;
        for s in &self.options.off {
            settings.stages.set(*s, false);
        }
        settings
    }
}

impl Method for Chaff {
    fn name(&self) -> String {
        "chaff".into()
    }

    fn prepare(&mut self, sites: &[Site], input: Input) -> Result<()> {
        let Some(min_sources) = self.options.idioms else { return Ok(()) };
        let config = self.config(input);
        let own: Vec<HashSet<String>> = sites
            .par_iter()
            .map(|site| {
                let input = site.input_for(input).unwrap_or(input);
                let docs: Vec<Document> = site
                    .pages
                    .iter()
                    .filter_map(|p| Some(Document { id: p.id.clone(), text: p.input(input)?.to_string() }))
                    .collect();
                if docs.len() < 2 {
                    return Ok(HashSet::new());
                }
                Ok(candidate_keys(&mine(&Corpus::from_docs(&site.name, docs), &config, &Quiet)?))
            })
            .collect::<Result<_>>()?;
        let mut sources: HashMap<String, usize> = HashMap::new();
        for keys in &own {
            for k in keys {
                *sources.entry(k.clone()).or_default() += 1;
            }
        }
        let threshold = idiom_threshold(sites.len(), min_sources).unwrap_or(usize::MAX);
        self.idioms = Some(Idioms { sources, own, threshold });
        Ok(())
    }

    fn train(&self, source: &Source<'_>) -> Result<Box<dyn Model>> {
        let (_, file) = self.rules_file(source)?;
        Ok(Box::new(self.model(&file)?))
    }
}

/// A source's automatic rules, compiled, with this run's stages.
pub struct ChaffModel {
    cleaner: Cleaner,
    kind: DocKind,
}

impl Model for ChaffModel {
    /// Source byte ranges removed: the page's own cleaning path ([`crate::page`]).
    fn removed(&self, text: &str) -> Vec<(usize, usize)> {
        let cleaned = self.cleaner.clean_page(Page::new(text, self.kind));
        normalize(cleaned.source_ranges())
    }

    /// The removed spans and what `chaff clean` writes of the page: its cleaned text (`--text` for HTML).
    fn clean(&self, text: &str) -> (Vec<(usize, usize)>, Option<String>) {
        let cleaned = self.cleaner.clean_page(Page::new(text, self.kind));
        (normalize(cleaned.source_ranges()), Some(cleaned.write(Output::Text)))
    }
}

/// The kind of documents an evaluation input is.
fn kind_of(input: Input) -> DocKind {
    match input {
        Input::Txt => DocKind::Text,
        Input::Html => DocKind::Html,
    }
}
