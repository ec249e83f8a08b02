//! chaff itself as an evaluated method: mine the training pages, keep the automatic rules (pending ones at
//! or above the cutoff, idioms rejected), clean. Every lever the evaluation measures is an option here,
//! so one `chaff eval` run answers one question ("does a 3-token minimum help?").
//!
//! Two levers are the locality heuristics of thesis §6.1, applied to the removed spans after cleaning:
//! a short island of text between two removed spans goes too (`islands`), and a few characters removed
//! in the middle of a line of kept text come back (`specks`).

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;
use serde::Serialize;

use crate::automatic::{AutoOptions, ClusterParams, automatic_rules};
use crate::cleaning::Cleaner;
use crate::clusters::ClusterMethod;
use crate::corpus::{Corpus, Document};
use crate::cross_source::idiom_threshold;
use crate::cutoff::CutoffBin;
use crate::error::Result;
use crate::frame::{CutParams, suggest_cuts};
use crate::mining::{Mining, MiningConfig, Quiet, mine};
use crate::rules::{MiningParams, Rule, RulesFile};
use crate::symbol::display;
use crate::tokens::Tokenizer;

use super::{Input, Method, Model, Site, Source};
use crate::cleaning::normalize;

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
    /// A header cut stops at the line that repeats the page's title (its first line), so the title, byline
    /// and date under it stay; rule matches after it still go. A headline, dateline or byline above the
    /// article that a removal took is given back.
    pub keep_title: bool,
    /// Long lines a page prints a second time, two or more in a row, go.
    pub drop_reprints: bool,
    /// Locality: kept text of fewer than this many words between two removed spans is removed too.
    pub islands: Option<usize>,
    /// Kept runs outside the article block with fewer than this many words on long lines go too.
    pub short_runs: usize,
    /// Locality: a removed span of fewer than this many characters with kept text on both sides on its
    /// line is kept.
    pub specks: Option<usize>,
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
            idioms: None,
            merge_gap: 0,
            line_rules: true,
            tag_bound: true,
            reject_patterns: true,
            cutoff: None,
            clusters: Some(ClusterParams::default().similarity),
            cluster_method: ClusterParams::default().method,
            min_cluster: ClusterParams::default().min_docs,
            keep_title: true,
            drop_reprints: true,
            islands: Some(AutoOptions::default().islands),
            short_runs: AutoOptions::default().short_runs,
            specks: None,
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
    /// Whether `key`, a candidate of a mining of site `site`, is a candidate in enough sites.
    fn is_idiom(&self, site: usize, key: &str) -> bool {
        let elsewhere = self.sources.get(key).copied().unwrap_or(0) - usize::from(self.own[site].contains(key));
        elsewhere + 1 >= self.threshold
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
        let tokenizer = match input {
            Input::Txt => Tokenizer::Text,
            Input::Html => Tokenizer::Html,
        };
        MiningConfig {
            min_tokens: self.options.min_tokens,
            min_df: self.options.min_df,
            max_tf_per_df: self.options.max_tf_per_df,
            ..MiningConfig::for_tokenizer(tokenizer)
        }
    }

    /// The automatic rules file of a source, and the corpus it was mined from. All mined strings are
    /// rules, those below the cutoff pending and inactive: an editor (the oracle) may accept them.
    pub fn rules_file(&self, source: &Source<'_>) -> Result<(Corpus, RulesFile)> {
        let docs = source.docs.iter().map(|(id, text)| Document { id: id.to_string(), text: text.to_string() });
        let corpus = Corpus::from_docs(source.name, docs.collect());
        let config = self.config(source.input);
        let mut mining = mine(&corpus, &config, &Quiet)?;
        if let Some(idioms) = &self.idioms {
            let cutoff = mining.auto_cutoff;
            for s in mining.strings.iter_mut().filter(|s| s.bin >= cutoff) {
                s.idiom = idioms.is_idiom(source.site, &display(&s.symbols));
            }
        }
        // the engine's automatic rules, with this run's levers
        let auto = AutoOptions {
            cuts: self.options.cuts.then_some(CutParams { min_share: self.options.cut_share, ..CutParams::default() }),
            line_boundary: if self.options.line_boundary { None } else { Some(false) },
            reject_tagless: self.options.tag_bound,
            reject_patterns: self.options.reject_patterns,
            islands: self.options.islands.unwrap_or(0),
            keep_title: self.options.keep_title,
            short_runs: self.options.short_runs,
            drop_reprints: self.options.drop_reprints,
            line_rules: self.options.line_rules,
            clusters: self.options.clusters.map(|similarity| ClusterParams {
                method: self.options.cluster_method,
                similarity,
                min_docs: self.options.min_cluster,
                ..ClusterParams::default()
            }),
        };
        let mut file = automatic_rules(&corpus, &mining, MiningParams::of(&config), None, &auto)?;
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
        Ok((corpus, file))
    }

    /// The model cleaning with `file`'s active rules (accepted, and pending at or above the cutoff).
    pub fn model(&self, file: &RulesFile) -> Result<ChaffModel> {
        Ok(ChaffModel { cleaner: Cleaner::new(file, true)?, specks: self.options.specks })
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

/// A source's automatic rules, compiled, with the locality heuristics.
pub struct ChaffModel {
    cleaner: Cleaner,
    specks: Option<usize>,
}

impl Model for ChaffModel {
    fn removed(&self, text: &str) -> Vec<(usize, usize)> {
        let spans: Vec<(usize, usize)> = self.cleaner.spans(text).iter().map(|s| (s.start, s.end)).collect();
        let mut spans = normalize(&spans);
        if let Some(n) = self.specks {
            spans = keep_specks(text, &spans, n);
        }
        spans
    }
}

/// Drops removed spans of fewer than `max_chars` non-blank characters that have kept text on both sides
/// within their line (thesis §6.1: a few characters removed in the middle of clean text are probably a
/// false positive). `spans` are sorted and disjoint.
pub fn keep_specks(text: &str, spans: &[(usize, usize)], max_chars: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(spans.len());
    for (k, &(s, e)) in spans.iter().enumerate() {
        let small = text[s..e].chars().filter(|c| !c.is_whitespace()).count() < max_chars;
        let line_start = text[..s].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[e..].find('\n').map_or(text.len(), |i| e + i);
        let prev_end = if k > 0 { spans[k - 1].1 } else { 0 };
        let next_start = spans.get(k + 1).map_or(text.len(), |n| n.0);
        let before = &text[line_start.max(prev_end).min(s)..s];
        let after = &text[e..line_end.min(next_start).max(e)];
        let inside = !before.trim().is_empty() && !after.trim().is_empty();
        if !(small && inside) {
            out.push((s, e));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specks_inside_a_line_come_back() {
        let text = "one of the best\nof the week";
        // "of the" inside line 1 is a speck; at the start of line 2 it is not
        assert_eq!(keep_specks(text, &[(4, 10), (16, 22)], 10), vec![(16, 22)]);
        assert_eq!(keep_specks(text, &[(4, 10)], 3), vec![(4, 10)], "5 characters: not a speck under 3");
    }
}
