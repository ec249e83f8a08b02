//! Opening a source for tuning: where its files are, its corpus, its rules file (if any), the mining
//! configuration they imply, and what the other sources' rules files say about idioms.
//!
//! Everything here runs before the terminal is taken (or, from the picker, before the mining starts),
//! so failures are plain errors with a message that says what to do.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, anyhow};

use crate::corpus::Corpus;
use crate::cross_source::{flag, saved_threshold};
use crate::mining::{Mining, MiningConfig};
use crate::rules::{MiningParams, RulesFile, rules_path};
use crate::tokens::Tokenizer;

use super::journal::OpenLock;

/// Where a source's files are.
#[derive(Debug, Clone)]
pub struct SourceSpec {
    pub name: String,
    pub corpus: PathBuf,
    /// The rules file loaded and saved (`w`).
    pub rules: PathBuf,
    /// Where `x` writes the accepted rules alone: `<rules>.accepted.toml` beside the rules file.
    pub export: PathBuf,
    pub rules_dir: PathBuf,
}

/// A source ready to mine.
#[derive(Debug)]
pub struct Opened {
    pub spec: SourceSpec,
    pub corpus: Corpus,
    pub previous: Option<RulesFile>,
    /// The rules file's text as loaded, to tell an outside change from our own save.
    pub previous_text: Option<String>,
    pub config: MiningConfig,
    pub params: MiningParams,
    pub idioms: Idioms,
    /// Keys of the rules file chaff does not read (`stauts = …`), each with file, line and column.
    pub rules_warnings: Vec<String>,
    /// The rules file's `source` when it is not this corpus's (`--rules` naming another source's file):
    /// the UI says so at open and asks before saving over it.
    pub foreign_source: Option<String>,
    /// The rules file's rules against this corpus (as `chaff check` measures them): how much of what each
    /// matched when mined it matches now. `None` without a rules file.
    pub drift: Option<crate::drift::Drift>,
    /// This process's claim on the source (see [`OpenLock`]); `None` for documents in memory.
    pub lock: Option<OpenLock>,
}

/// Where `x` exports the accepted rules of a rules file.
pub fn export_path(rules: &Path) -> PathBuf {
    let stem = rules.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "rules".into());
    rules.with_file_name(format!("{stem}.accepted.toml"))
}

/// Loads the corpus and the rules file of one source. `rules` overrides `<rules_dir>/<source>.toml`.
pub fn open(corpus_path: &Path, rules: Option<&Path>, rules_dir: &Path, preset: Option<Tokenizer>) -> Result<Opened> {
    open_with(corpus_path, rules, rules_dir, preset, |own, previous| Idioms::load(rules_dir, own, previous))
}

/// As [`open`], the other sources' candidates counted by `idioms` (given the rules file and what it
/// holds): the sources table has read every rules file already, and reading them again per source
/// opened would cost seconds on a thousand sources.
pub fn open_with(
    corpus_path: &Path,
    rules: Option<&Path>,
    rules_dir: &Path,
    preset: Option<Tokenizer>,
    idioms: impl FnOnce(&Path, Option<&RulesFile>) -> Idioms,
) -> Result<Opened> {
    if rules.is_none() {
        // a folder name that is not UTF-8 would stand in as `source`, its rules file shared with others
        crate::corpus::source_name_checked(corpus_path)
            .map_err(|e| anyhow!("{e} (or open it with a rules file of its own: --rules FILE)"))?;
    }
    let corpus = Corpus::load(corpus_path).map_err(|e| anyhow!("cannot open the corpus: {e}"))?;
    open_loaded(corpus, corpus_path, rules, rules_dir, preset, idioms)
}

/// As [`open_with`], the corpus read already (a crawl's source, read from its spool); `corpus_path` is
/// where it was read from.
pub fn open_loaded(
    corpus: Corpus,
    corpus_path: &Path,
    rules: Option<&Path>,
    rules_dir: &Path,
    preset: Option<Tokenizer>,
    idioms: impl FnOnce(&Path, Option<&RulesFile>) -> Idioms,
) -> Result<Opened> {
    if corpus.docs.len() < 2 {
        return Err(anyhow!(
            "{}: {} document(s); tuning needs at least two documents of one source to tell template from article",
            corpus_path.display(),
            corpus.docs.len()
        ));
    }
    let rules = rules.map(Path::to_path_buf).unwrap_or_else(|| rules_path(rules_dir, &corpus.name));
    // before any work: a second editor on the source would share its journal of unsaved work
    let lock = OpenLock::take(&rules).map_err(|pid| {
        anyhow!(
            "{}: this source is open in another chaff tune (process {pid}); close it there first (two editors on \
             one source would share one journal of unsaved work)",
            rules.display()
        )
    })?;
    let (previous, previous_text, rules_warnings) = if rules.exists() {
        let text =
            fs::read_to_string(&rules).with_context(|| format!("{}: cannot read the rules file", rules.display()))?;
        let (file, warnings) = RulesFile::parse_checked(&text, &rules)
            .map_err(|e| anyhow!("{e} (the rules file is unusable: fix it, or move it away to mine afresh)"))?;
        (Some(file), Some(text), warnings)
    } else {
        (None, None, Vec::new())
    };
    // the same configuration `chaff mine` builds from the rules file
    let mut config = crate::settings::Settings::of_file(previous.as_ref()).mining;
    config.tokenizer = preset.unwrap_or(config.tokenizer);
    // HTML pages are tuned on their views: the preview shows what a reader sees, as the cleaner reads it
    let recorded = previous.as_ref().map(|p| p.input());
    let corpus = crate::automatic::read_as_kind(corpus, recorded, Some(corpus_path), &mut config);
    let params = MiningParams::of(&config);
    let idioms = idioms(&rules, previous.as_ref());
    let spec = SourceSpec {
        name: corpus.name.clone(),
        corpus: corpus_path.to_path_buf(),
        export: export_path(&rules),
        rules,
        rules_dir: rules_dir.to_path_buf(),
    };
    // linear in the corpus, and cheaper than the mining that follows
    let drift = previous.as_ref().and_then(|file| crate::drift::drift(file, &corpus.docs, true).ok());
    let foreign_source = previous.as_ref().map(|p| p.source.clone()).filter(|s| *s != corpus.name);
    Ok(Opened {
        spec,
        corpus,
        previous,
        previous_text,
        config,
        params,
        idioms,
        rules_warnings,
        foreign_source,
        drift,
        lock: Some(lock),
    })
}

impl Opened {
    /// A source from documents in memory (benchmarks, tests): no rules file yet, default patterns, its
    /// rules file to be `<rules_dir>/<name>.toml`.
    pub fn from_corpus(corpus: Corpus, rules_dir: &Path, tokenizer: Tokenizer) -> Opened {
        let rules = rules_path(rules_dir, &corpus.name);
        let spec = SourceSpec {
            name: corpus.name.clone(),
            corpus: corpus.root.clone(),
            export: export_path(&rules),
            rules,
            rules_dir: rules_dir.to_path_buf(),
        };
        let config = MiningConfig::for_tokenizer(tokenizer);
        let params = MiningParams::of(&config);
        Opened {
            spec,
            corpus,
            previous: None,
            previous_text: None,
            config,
            params,
            idioms: Idioms::default(),
            rules_warnings: Vec::new(),
            foreign_source: None,
            drift: None,
            lock: None,
        }
    }
}

/// The second-level filter as far as one source can apply it: strings flagged in its rules file, and
/// strings that are candidates in enough of the other sources' rules files (method.md §6).
#[derive(Debug, Clone, Default)]
pub struct Idioms {
    flagged: HashSet<String>,
    /// Candidate text → how many other sources have it as a candidate.
    others: HashMap<String, usize>,
}

impl Idioms {
    pub fn load(rules_dir: &Path, own: &Path, previous: Option<&RulesFile>) -> Idioms {
        let mut idioms = Idioms::default();
        if let Some(p) = previous {
            idioms.flagged = p.rules.iter().filter(|r| r.idiom).map(|r| r.id.clone()).collect();
        }
        let own = fs::canonicalize(own).unwrap_or_else(|_| own.to_path_buf());
        let Ok(entries) = fs::read_dir(rules_dir) else { return idioms };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if !name.ends_with(".toml") || name.ends_with(".accepted.toml") || name.starts_with('.') {
                continue;
            }
            if fs::canonicalize(&path).is_ok_and(|p| p == own) {
                continue;
            }
            // Not every .toml there is a rules file (mutable-patterns.toml); those are skipped.
            let Ok(file) = RulesFile::load(&path) else { continue };
            for t in Idioms::candidate_texts(&file) {
                *idioms.others.entry(t).or_default() += 1;
            }
        }
        idioms
    }

    /// What a rules file counts for idioms: the text of each candidate at or above its auto cutoff.
    pub fn candidate_texts(file: &RulesFile) -> HashSet<String> {
        file.rules
            .iter()
            .filter(|r| r.bin >= file.cutoff.auto && !r.tokens.is_empty())
            .map(|r| r.tokens.join(" "))
            .collect()
    }

    /// From counts made elsewhere: `others` maps a candidate's text to how many other sources have it
    /// (see [`Idioms::candidate_texts`]).
    pub fn from_counts(previous: Option<&RulesFile>, others: HashMap<String, usize>) -> Idioms {
        let flagged = previous.map(|p| p.rules.iter().filter(|r| r.idiom).map(|r| r.id.clone()).collect());
        Idioms { flagged: flagged.unwrap_or_default(), others }
    }

    /// Flags the idioms of `mining` in every later mining too: a source's own idioms (the automatic rules
    /// find them when it is first opened) stay idioms when it is mined again with other patterns, and
    /// again with these.
    pub fn remember(&mut self, mining: &crate::mining::Mining) {
        self.flagged.extend(mining.strings.iter().filter(|s| s.idiom).map(|s| s.id.clone()));
    }

    /// Flags idioms among `mining`'s candidates at or above its auto cutoff.
    pub fn flag(&self, mining: &mut Mining) {
        if let Some(min_sources) = crate::settings::Settings::default().automatic.idioms {
            flag(mining, saved_threshold(min_sources), |key| self.others.get(key).copied().unwrap_or(0));
        }
        // and what `mine --all` flagged before, where the other sources were mined together
        let cutoff = mining.auto_cutoff;
        for s in mining.strings.iter_mut().filter(|s| s.bin >= cutoff && self.flagged.contains(&s.id)) {
            s.idiom = true;
        }
    }
}

/// A source folder offered by the picker.
#[derive(Debug, Clone)]
pub struct PickerEntry {
    pub path: PathBuf,
    pub name: String,
    pub documents: usize,
    /// "3 ✓ 1 ✗ 40 ·" from its rules file, "no rules yet", or why the file is unusable.
    pub rules: String,
}

impl PickerEntry {
    pub fn scan(path: &Path, rules_dir: &Path) -> PickerEntry {
        let name = crate::corpus::source_name(path);
        let documents = fs::read_dir(path)
            .map(|d| {
                d.flatten()
                    .filter(|e| {
                        let n = e.file_name().to_string_lossy().into_owned();
                        !n.starts_with('.')
                            && !n.ends_with(".gold.txt")
                            && !n.contains(".template.")
                            && (n.ends_with(".txt") || n.ends_with(".html") || n.ends_with(".htm"))
                    })
                    .count()
            })
            .unwrap_or(0);
        let rules_file = rules_path(rules_dir, &name);
        let rules = if !rules_file.exists() {
            "no rules yet".to_string()
        } else {
            match RulesFile::load(&rules_file) {
                Ok(f) => {
                    use crate::rules::Status;
                    format!(
                        "{} ✓  {} ✗  {} ·",
                        f.count(Status::Accepted),
                        f.count(Status::Rejected),
                        f.count(Status::Pending)
                    )
                }
                Err(e) => format!("unusable rules file: {e}"),
            }
        };
        PickerEntry { path: path.to_path_buf(), name, documents, rules }
    }
}
