//! The automatic rules: what chaff makes of a freshly mined source before an editor looks at it. One
//! place decides it, for `chaff mine`, the tuning UI and `chaff eval` alike, with the defaults that
//! measured best on real pages (`chaff eval`, see docs/method.md):
//! - frame cuts suggested for header and footer strings ([`crate::frame`]);
//! - in text mode, the line-boundary filter, unless the source's documents are glued into long lines
//!   (as a naive parser leaves them: the thesis's own example);
//! - a string the cross-source filter flagged that stands on lines of its own here is a template several
//!   sources share (a blogging platform's "Posted by"), not an idiom: it is a candidate again
//!   ([`crate::idioms::restore_shared_templates`]);
//! - in html mode, a candidate with no tag in it starts rejected: template strings carry markup, idioms
//!   ("of the") do not;
//! - a candidate of mutable patterns alone («month» «number» «number») starts rejected: dates and
//!   numbers are in articles as much as in templates, and such a string has no fixed text to show it is
//!   a template;
//! - in text mode, single-word lines found on two documents or more as rules ([`crate::lines`]);
//! - in text mode, the page's title (and byline) kept where a header cut would take it, and short runs
//!   outside the article block removed ([`crate::cleaning`]);
//! - short islands of text between removals removed too (thesis §6.1): an option, off by default;
//! - template clusters: a source whose pages use several templates is split by the
//!   structure of its pages, each cluster of enough pages is mined apart, and the strings found only
//!   there become rules of that cluster. A template on a third of the pages never reaches the cutoff of
//!   the whole source; in its own cluster it is on every page.

use std::collections::{HashMap, HashSet};

use crate::clean_settings::{Stage, Stages, TITLE_STAGES};
use crate::clusters::{Structures, clusters_down_to, group, with_rests};
use crate::corpus::{Corpus, Document};
use crate::error::Result;
use crate::frame::suggest_cuts;
use crate::lines::{is_lined, line_rules};
use crate::mining::{Mining, MiningConfig, Progress, Quiet, mine};
use crate::rules::{MiningParams, Rule, RulesFile, Status};
use crate::settings::{Automatic, ClusterParams, Settings};
use crate::tokens::Tokenizer;
use crate::view::DocKind;
use std::path::Path;

/// The kind of a source's documents, decided in one place for every front end (folders, JSON Lines, the
/// UI's re-mines, Python, Spark): as `recorded` (a rules file's `input`, or what an evaluation declares),
/// else by the files of the source's folder `path` (see [`crate::corpus::choose_kind`]), else by what the
/// documents look like ([`DocKind::sniff`]: documents handed over in memory).
pub fn document_kind(recorded: Option<DocKind>, path: Option<&Path>, docs: &[Document]) -> DocKind {
    match (recorded, path) {
        (Some(kind), _) => kind,
        (None, Some(path)) => crate::corpus::choose_kind(None, path, docs),
        (None, None) => DocKind::sniff(docs.iter().map(|d| d.text.as_str())),
    }
}

/// A source's documents read as their kind (see [`document_kind`]) for mining: HTML pages as their views'
/// text (unless mined as raw markup), and `config` saying which.
pub fn read_as_kind(
    corpus: Corpus,
    recorded: Option<DocKind>,
    path: Option<&Path>,
    config: &mut MiningConfig,
) -> Corpus {
    let kind = document_kind(recorded, path, &corpus.docs);
    crate::page::viewed(corpus, kind, config)
}

/// The one recipe from a source's documents (read by [`read_as_kind`]) to its automatic rules, for `chaff
/// mine`, the tuning UI's miner, `chaff eval`, the oracle and Python alike: mined with `settings.mining`
/// (`progress` may cancel), `flag` marks what the mining shares with other sources (idioms), and the
/// automatic rules made with `settings` (with `previous`, the rules file it re-mines: the editor's work
/// carries over).
pub fn mine_source(
    corpus: &Corpus,
    settings: &Settings,
    previous: Option<&RulesFile>,
    progress: &dyn Progress,
    flag: impl FnOnce(&mut Mining),
) -> Result<(Mining, RulesFile)> {
    let mut mining = mine(corpus, &settings.mining, progress)?;
    flag(&mut mining);
    if progress.cancelled() {
        return Err(crate::error::Error::Cancelled);
    }
    let file = automatic_rules(corpus, &mining, settings.mining_params(), previous, settings)?;
    Ok((mining, file))
}

/// The idiom flags of `file`'s rules (the automatic rules made from `mining`) put on `mining`'s strings:
/// an idiom the source alone shows is flagged as the other sources' are, and a shared string the automatic
/// rules gave back as a template is one no more. A draft opened on the mining then makes the rules file the
/// automatic rules are.
pub fn take_idiom_flags(mining: &mut Mining, file: &RulesFile) {
    let idioms: HashMap<&str, bool> = file.rules.iter().map(|r| (r.id.as_str(), r.idiom)).collect();
    for s in mining.strings.iter_mut() {
        if let Some(&idiom) = idioms.get(s.id.as_str()) {
            s.idiom = idiom;
        }
    }
}

/// The automatic rules of a source mined afresh (no rules file yet), and its idioms as they say (see
/// [`take_idiom_flags`]): `flag` first marks what the mining shares with other sources. One path for `chaff
/// mine` and the tuning UI's first mining of a source, so both flag and reject the same strings.
pub fn new_source_rules(
    corpus: &Corpus,
    mining: &mut Mining,
    params: MiningParams,
    settings: &Settings,
    flag: impl FnOnce(&mut Mining),
) -> Result<RulesFile> {
    flag(mining);
    let file = automatic_rules(corpus, mining, params, None, settings)?;
    take_idiom_flags(mining, &file);
    Ok(file)
}

/// The rules file of a fresh mining, made with `settings`. With `previous` (re-mining), the editor's
/// settings and decisions carry over and only new candidates get the automatic treatment. What
/// `settings` says was given is applied last ([`Settings::apply_given`]).
pub fn automatic_rules(
    corpus: &Corpus,
    mining: &Mining,
    params: MiningParams,
    previous: Option<&RulesFile>,
    settings: &Settings,
) -> Result<RulesFile> {
    let auto = &settings.automatic;
    let mut file = crate::merge::from_mining(mining, params, previous);
    // whether the source's documents are read by their lines: decided here for a new source
    let lined = match previous {
        Some(_) => file.line_boundary(),
        None => file.tokenizer == Tokenizer::Text && auto.line_boundary.unwrap_or_else(|| is_lined(corpus)),
    };
    if previous.is_none() {
        let mut s = file.clean_settings();
        s.take_stage_settings(&settings.clean, Stages::all());
        for stage in TITLE_STAGES {
            s.stages.set(stage, auto.keep_title);
        }
        s.set_line_boundary(lined);
        // runs are judged by their lines: not where documents are glued into long lines
        if !lined {
            s.short_runs = Default::default();
        }
        // slots are the words left on a template string's line: where documents are read by their lines
        s.stages.set(Stage::LineSlots, lined);
        s.stages.set(Stage::Reprints, auto.drop_reprints && lined);
        s.stages.set(Stage::Repeats, auto.drop_reprints && lined);
        file.set_clean_settings(s);
    }
    // before the rejections below: a string given back is judged by them as any other
    crate::idioms::restore_shared_templates(corpus, &mut file, previous, &crate::idioms::IdiomParams::default())?;
    let html = file.tokenizer == Tokenizer::Html;
    reject_new(&mut file, previous, |r| {
        // HTML: template strings carry markup; "of the" does not
        (auto.reject_tagless && html && !r.tokens.is_empty() && !r.symbols().iter().any(|s| s.is_tag()))
            // mutable patterns alone («month» «number» «number», «upcase» «upcase») are in articles as
            // much as in templates: no fixed text, no evidence of a template
            || (auto.reject_patterns && !r.has_fixed_text())
    });
    crate::idioms::reject_idioms(corpus, &mut file, &crate::idioms::IdiomParams::default())?;
    if auto.line_rules && lined {
        add_line_rules(corpus, &mut file);
    }
    if let Some(cut) = auto.cuts {
        suggest_cuts(corpus, &mut file, &cut)?;
    }
    if let Some(cp) = auto.clusters {
        add_cluster_rules(corpus, mining, params, &mut file, settings, &cp)?;
    }
    if let Some(cut) = auto.cuts {
        for _ in 1..auto.cut_rounds.max(1) {
            if suggest_cuts(corpus, &mut file, &cut)? == 0 {
                break;
            }
        }
    }
    // HTML pages: the elements whose text changes per page and that the string rules leave
    crate::regions::add_region_rules(corpus, &mut file, &crate::regions::RegionParams::default())?;
    settings.apply_given(&mut file);
    Ok(file)
}

/// Rejects the pending rules that `reject` picks, except those an editor decided on before a re-mine.
fn reject_new(file: &mut RulesFile, previous: Option<&RulesFile>, reject: impl Fn(&Rule) -> bool) {
    let decided: HashSet<&str> = previous
        .map(|p| p.rules.iter().filter(|r| r.status != Status::Pending).map(|r| r.id.as_str()).collect())
        .unwrap_or_default();
    for r in file.rules.iter_mut().filter(|r| r.status == Status::Pending && !decided.contains(r.id.as_str())) {
        if reject(r) {
            r.status = Status::Rejected;
        }
    }
}

/// Adds the source's line rules (see [`crate::lines`]) at or above the cutoff. One an editor decided on,
/// which re-mining carried over as stale, keeps the decision and is no longer stale.
fn add_line_rules(corpus: &Corpus, file: &mut RulesFile) {
    let floor = file.cutoff.chosen.min(file.cutoff.auto);
    let at: HashMap<String, usize> = file.rules.iter().enumerate().map(|(i, r)| (r.id.clone(), i)).collect();
    for rule in line_rules(corpus) {
        match at.get(&rule.id) {
            Some(&i) => {
                let old = &file.rules[i];
                file.rules[i] = Rule { status: old.status, action: old.action, cluster: old.cluster, ..rule };
            }
            None if rule.bin >= floor => file.rules.push(rule),
            None => {}
        }
    }
}

/// Mines each template cluster of enough pages apart and adds, as rules of that cluster, the automatic
/// rules it finds that the whole source's rules do not hold. Returns how many.
pub fn add_cluster_rules(
    corpus: &Corpus,
    mining: &Mining,
    params: MiningParams,
    file: &mut RulesFile,
    settings: &Settings,
    cp: &ClusterParams,
) -> Result<usize> {
    let step = corpus.docs.len().div_ceil(cp.max_docs.max(1)).max(1);
    let sample: Vec<&Document> = corpus.docs.iter().step_by(step).collect();
    let texts: Vec<&str> = sample.iter().map(|d| d.text.as_str()).collect();
    let pages = Structures::for_method(&texts, cp.method).pages;
    // a template split into pieces too small to mine, mined as one piece more
    let groups = match cp.rest_similarity.filter(|&r| cp.method.is_linkage() && r < cp.similarity) {
        Some(rest) => {
            let [fine, coarse]: [Vec<Vec<usize>>; 2] =
                clusters_down_to(&pages, &[cp.similarity, rest]).try_into().expect("one partition per threshold");
            with_rests(fine, &coarse, cp.min_docs.max(2))
        }
        None => group(&pages, cp.method, cp.similarity),
    };
    if groups.len() < 2 {
        return Ok(0);
    }
    let mut config =
        MiningConfig { patterns: mining.patterns.clone(), ..MiningConfig::for_tokenizer(mining.tokenizer) };
    params.apply(&mut config);
    // a cluster's own automatic rules: one round of cuts, its own cutoff, nothing given (the whole
    // source's file takes what was given)
    let automatic = Automatic { clusters: None, cut_rounds: 1, cutoff: None, ..settings.automatic };
    let inner = Settings { automatic, given: Default::default(), ..settings.clone() };
    let mut known: HashSet<String> = file.rules.iter().map(|r| r.id.clone()).collect();
    let mut added = 0;
    for (k, group) in groups.iter().enumerate() {
        if group.len() < cp.min_docs.max(2) || group.len() == sample.len() {
            continue;
        }
        let docs = group.iter().map(|&i| sample[i].clone()).collect();
        let sub = Corpus::from_docs(format!("{} cluster {k}", corpus.name), docs);
        let mut sub_mining = mine(&sub, &config, &Quiet)?;
        sub_mining.auto_cutoff = sub_mining.auto_cutoff.min(cp.max_cutoff);
        let sub_file = automatic_rules(&sub, &sub_mining, params, None, &inner)?;
        for r in sub_file.active_rules(true) {
            if known.insert(r.id.clone()) {
                file.rules.push(Rule { cluster: Some(k as u32), ..r.clone() });
                added += 1;
            }
        }
    }
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(texts: &[&str]) -> Vec<Document> {
        texts.iter().enumerate().map(|(i, t)| Document { id: i.to_string(), text: t.to_string() }).collect()
    }

    #[test]
    fn documents_in_memory_that_start_with_a_wrapper_element_are_html_as_in_a_folder() {
        let page = "<div class=\"wrapper\"><p>The story.</p></div>";
        let pages = docs(&[page, page]);
        assert_eq!(document_kind(None, None, &pages), DocKind::Html, "Python and Spark hand pages over in memory");
        let dir = tempfile::tempdir().unwrap();
        for d in &pages {
            std::fs::write(dir.path().join(format!("{}.html", d.id)), &d.text).unwrap();
        }
        assert_eq!(document_kind(None, Some(dir.path()), &pages), DocKind::Html, "a folder of .html files");
        assert_eq!(document_kind(Some(DocKind::Text), None, &pages), DocKind::Text, "a rules file's input wins");
        assert_eq!(document_kind(None, None, &docs(&["An article.", "Another."])), DocKind::Text);
    }

    #[test]
    fn mine_source_reads_html_pages_as_their_views_and_makes_html_input_rules() {
        let template = "<html><body><nav>Home News Sport</nav><p>";
        let texts: Vec<String> = (0..12)
            .map(|i| format!("{template}Story number {i} about things.</p><footer>All rights</footer></body></html>"))
            .collect();
        let corpus = Corpus::from_docs("wrapped", docs(&texts.iter().map(String::as_str).collect::<Vec<_>>()));
        let mut settings = Settings::default();
        let corpus = read_as_kind(corpus, None, None, &mut settings.mining);
        assert!(!corpus.docs[0].text.contains("<nav>"), "mined on the page's view: {}", corpus.docs[0].text);
        let (_, file) = mine_source(&corpus, &settings, None, &Quiet, |_| {}).unwrap();
        assert_eq!(file.input(), DocKind::Html);
    }
}
