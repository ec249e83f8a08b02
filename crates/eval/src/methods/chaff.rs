//! chaff itself as an evaluated method: mine the training pages, keep the automatic rules (pending ones at
//! or above the cutoff, idioms rejected), clean. It takes chaff's one [`Settings`] value, as `chaff mine`
//! does: every lever the evaluation measures is a setting (`chaff eval` converts its flags into one), so
//! one `chaff eval` run answers one question ("does a 3-token minimum help?"). The cleaner's stages are the
//! rules file's, as `chaff mine` writes them with the same settings.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;
use serde_json::json;

use crate::automatic::{mine_source, read_as_kind, take_idiom_flags};
use crate::clean_settings::CleanSettings;
use crate::cleaning::{Cleaner, normalize};
use crate::corpus::{Corpus, Document};
use crate::cross_source::{flag, idiom_threshold};
use crate::error::Result;
use crate::mining::{Mining, MiningConfig, Quiet, mine};
use crate::page::{Output, Page};
use crate::rules::{Rule, RulesFile};
use crate::settings::Settings;
use crate::symbol::display;
use crate::tokens::Tokenizer;
use crate::view::DocKind;

use super::{Input, Method, Model, Site, Source};

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
    /// The settings sources are mined and cleaned with. The tokenizer is the input's: an HTML page is mined
    /// on its view's text unless `settings.mining.tokenizer` asks for its raw markup.
    pub settings: Settings,
    idioms: Option<Idioms>,
}

fn candidate_keys(m: &Mining) -> HashSet<String> {
    m.candidates(m.auto_cutoff).map(|s| display(&s.symbols)).collect()
}

impl Chaff {
    pub fn new(settings: Settings) -> Chaff {
        Chaff { settings, idioms: None }
    }

    /// The settings' levers, as the evaluation reports them.
    pub fn options(&self) -> serde_json::Value {
        options(&self.settings)
    }

    fn config(&self, input: Input) -> MiningConfig {
        // HTML pages are mined on their views' text unless the raw-HTML tokenizer is asked for
        let tokenizer = match input {
            Input::Html if self.settings.mining.tokenizer == Tokenizer::Html => Tokenizer::Html,
            _ => Tokenizer::Text,
        };
        MiningConfig { tokenizer, ..self.settings.mining.clone() }
    }

    /// The automatic rules file of a source, and the corpus it was mined from. All mined strings are
    /// rules, those below the cutoff pending and inactive: an editor (the oracle) may accept them.
    pub fn rules_file(&self, source: &Source<'_>) -> Result<(Corpus, RulesFile)> {
        self.mined(source).map(|(corpus, _, file)| (corpus, file))
    }

    /// [`Chaff::rules_file`] with the mining it was made from (the oracle editor opens a draft on it).
    pub fn mined(&self, source: &Source<'_>) -> Result<(Corpus, Mining, RulesFile)> {
        let docs = source.docs.iter().map(|(id, text)| Document { id: id.to_string(), text: text.to_string() });
        let mut settings = Settings { mining: self.config(source.input), ..self.settings.clone() };
        let corpus = Corpus::from_docs(source.name, docs.collect());
        let corpus = read_as_kind(corpus, Some(kind_of(source.input)), None, &mut settings.mining);
        let (mut mining, mut file) = mine_source(&corpus, &settings, None, &Quiet, |mining| {
            if let Some(idioms) = &self.idioms {
                flag(mining, idioms.threshold, |key| idioms.elsewhere(source.site, key));
            }
        })?;
        // the oracle opens a draft on the mining: it must make the rules file these are
        take_idiom_flags(&mut mining, &file);
        let present: HashSet<String> = file.rules.iter().map(|r| r.id.clone()).collect();
        file.rules.extend(mining.strings.iter().filter(|s| !present.contains(&s.id)).map(Rule::from_mined));
        Ok((corpus, mining, file))
    }

    /// The model cleaning with `file`'s active rules (accepted, and pending at or above the cutoff).
    pub fn model(&self, file: &RulesFile) -> Result<ChaffModel> {
        Ok(ChaffModel { cleaner: Cleaner::new(file, true)?.with_settings(self.settings(file)), kind: file.input() })
    }

    /// The settings `file` cleans with, with what this run's settings give over them (stages off, a
    /// stage's settings).
    pub fn settings(&self, file: &RulesFile) -> CleanSettings {
        self.settings.given_over(file.clean_settings())
    }
}

/// The levers of `settings`, as the evaluation reports them.
pub fn options(settings: &Settings) -> serde_json::Value {
    let (s, auto) = (settings, &settings.automatic);
    let clusters = auto.clusters;
    let mut v = json!({
        "min_tokens": s.mining.min_tokens,
        "min_df": s.mining.min_df,
        "max_tf_per_df": s.mining.max_tf_per_df,
        "line_boundary": auto.line_boundary != Some(false),
        "cuts": auto.cuts.is_some(),
        "cut_share": auto.cuts.unwrap_or_default().min_share,
        "cut_rounds": auto.cut_rounds,
        "idioms": auto.idioms,
        "merge_gap": s.clean.merge_gap,
        "line_rules": auto.line_rules,
        "tag_bound": auto.reject_tagless,
        "reject_patterns": auto.reject_patterns,
        "cutoff": auto.cutoff,
        "clusters": clusters.map(|c| c.similarity),
        "min_cluster": clusters.unwrap_or_default().min_docs,
        // every stage's own settings, from the stage list, as a rules file's `[clean.<stage>]` tables
        "stages": crate::clean_settings::CleanTable { off: Vec::new(), ..s.clean.table() },
    });
    if let Some(c) = clusters.filter(|c| !c.method.is_linkage()) {
        v["cluster_method"] = json!(c.method);
    }
    if s.mining.tokenizer == Tokenizer::Html {
        v["raw_html"] = json!(true);
    }
    if !s.given.off.is_empty() {
        v["off"] = json!(s.given.off);
    }
    v
}

impl Method for Chaff {
    fn name(&self) -> String {
        "chaff".into()
    }

    fn prepare(&mut self, sites: &[Site], input: Input) -> Result<()> {
        let Some(min_sources) = self.settings.automatic.idioms else { return Ok(()) };
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
                // read as `chaff mine --all` reads the site: HTML pages as their views, so the strings
                // compared across sites are the ones each site's own mining finds
                let mut config = config.clone();
                let corpus = read_as_kind(Corpus::from_docs(&site.name, docs), Some(kind_of(input)), None, &mut config);
                Ok(candidate_keys(&mine(&corpus, &config, &Quiet)?))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{Page, Site};

    fn site(name: &str, seed: u64) -> Site {
        let pages = chaff_generate::html_news(12, seed)
            .docs
            .into_iter()
            .map(|d| Page { id: d.id, txt: None, html: Some(d.text), gold: Some(String::new()), template: None })
            .collect();
        Site { name: name.into(), pages }
    }

    #[test]
    fn html_sites_are_compared_across_sites_on_the_strings_their_own_minings_find() {
        let sites = [site("a", 1), site("b", 2)];
        let mut chaff = Chaff::new(Settings::default());
        chaff.prepare(&sites, Input::Html).unwrap();
        let idioms = chaff.idioms.as_ref().expect("prepared");
        for (k, s) in sites.iter().enumerate() {
            let docs = s.pages.iter().map(|p| (p.id.as_str(), p.html.as_deref().unwrap())).collect();
            let source = Source { name: &s.name, site: k, input: Input::Html, docs };
            let (_, mining, _) = chaff.mined(&source).unwrap();
            // the page views' strings, as `chaff mine --all` compares them: not the raw markup's
            assert_eq!(idioms.own[k], candidate_keys(&mining), "site {}", s.name);
            assert!(!idioms.own[k].iter().any(|key| key.contains('<')), "no markup in the keys of site {}", s.name);
        }
    }
}
