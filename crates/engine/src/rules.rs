//! Rules files (method.md §9): one TOML file per source, `rules/<source>.toml`, holding the tokenizer,
//! the mutable patterns, the cutoffs (auto and chosen), the mining parameters, the cleaner's settings, and
//! every rule with its regex, status, statistics and an example. The batch cleaner reads only these files.
//!
//! Files are written atomically (temporary file in the same folder, fsync, rename): a crash leaves the old
//! file or the new one, never half of one. A malformed file is an error naming file, line and column.
//!
//! | concern | file |
//! |---|---|
//! | the file's data: [`RulesFile`], its cutoffs, mining parameters and review, which rules apply | `rules.rs` |
//! | a rule: status, action, regex, statistics; line rules | `rules/rule.rs` |
//! | the cleaner's settings in a file (`merge_gap`, `[clean]`), and older formats' keys read as them | `rules/clean.rs` |
//! | reading (errors and warnings naming file, line and column) and writing | `rules/io.rs`, `rules/check.rs` |
//! | reading the plain TOML chaff writes the short way, the TOML parser reading the rest | `rules/fast.rs` |

use std::path::Path;

use serde::{Deserialize, Serialize};

mod check;
mod clean;
mod fast;
mod io;
pub mod region;
mod rule;

pub use crate::clean_settings::CleanTable;
pub(crate) use check::unread_keys;
pub use check::{RULE_REGEX_BYTES, rule_regex_estimate};
pub use io::read_text;
pub use rule::{Action, LINE_PREFIX, Rule, Status, line_regex};

use crate::cutoff::CutoffBin;
use crate::error::{Error, Result};
use crate::mining::MiningConfig;
use crate::mutable::MutablePattern;
use crate::tokens::Tokenizer;
use crate::view::DocKind;

/// The rules-file format chaff writes. Format 1 (files without `format`) had three switches beside
/// `[clean] off`, each governing stages and off when absent; format 2 names every stage that is off in
/// `[clean] off`, and nothing else turns one off; format 3 keeps each stage's settings in its own table,
/// `[clean.<stage>]`, where format 2 had `islands` and `short_runs` at the top and `specks` in `[clean]`.
/// Older formats are read as the same settings and written as this one.
pub const FORMAT: u32 = 3;

fn format_one() -> u32 {
    1
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RulesFile {
    /// The file's format ([`FORMAT`]; 1 when absent).
    #[serde(default = "format_one")]
    pub format: u32,
    pub source: String,
    /// The kind of the source's documents (default: `html` with the html tokenizer, else `text`). HTML
    /// documents with the text tokenizer are mined and cleaned on their page view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<DocKind>,
    #[serde(default)]
    pub tokenizer: Tokenizer,
    /// Removed intervals closer than this many characters are joined, with the text between them.
    #[serde(default)]
    pub merge_gap: usize,
    /// The cleaner's stages turned off for this source (`[clean] off = ["reprints"]`: every stage not
    /// named is on), and each stage's settings (`[clean.short-runs] words = 20`). See
    /// [`RulesFile::clean_settings`].
    #[serde(default, skip_serializing_if = "CleanTable::is_empty")]
    pub clean: CleanTable,
    /// Format 2's thresholds of stages `islands` and `short-runs`, read from older files only (now
    /// `[clean.islands] words` and `[clean.short-runs] words`); in a format-3 file they are an error.
    #[serde(default, skip_serializing, rename = "islands")]
    pub legacy_islands: Option<usize>,
    #[serde(default, skip_serializing, rename = "short_runs")]
    pub legacy_short_runs: Option<usize>,
    /// Format 1's switches, read from format-1 files only: `line_boundary` (stages `line-boundary`,
    /// `sentence-heads`, `sentence-tails`), `keep_title` (`title`, `headline`, `datelines`),
    /// `drop_reprints` (`reprints`). Such a file is read as the same stages, each switch absent or false
    /// becoming `[clean] off` entries; in a later format they are an error.
    #[serde(default, skip_serializing, rename = "line_boundary")]
    pub legacy_line_boundary: Option<bool>,
    #[serde(default, skip_serializing, rename = "keep_title")]
    pub legacy_keep_title: Option<bool>,
    #[serde(default, skip_serializing, rename = "drop_reprints")]
    pub legacy_drop_reprints: Option<bool>,
    /// Documents the rules were mined from.
    #[serde(default)]
    pub documents: u64,
    pub cutoff: Cutoff,
    #[serde(default)]
    pub mining: MiningParams,
    /// The `[review]` table: when an editor reviewed the source, and what its rules were then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<Review>,
    #[serde(rename = "mutable", default)]
    pub mutable: Vec<MutablePattern>,
    #[serde(rename = "rule", default)]
    pub rules: Vec<Rule>,
    /// Region rules: the lines under an element, by its selector (`[[region]]`, see [`crate::regions`]).
    #[serde(rename = "region", default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<region::RegionRule>,
}

impl Default for RulesFile {
    /// An empty rules file of the format chaff writes: no source name, no rules, every setting at its
    /// default (write `RulesFile { source, ..Default::default() }`, naming only what differs).
    fn default() -> Self {
        RulesFile {
            format: FORMAT,
            source: String::new(),
            input: None,
            tokenizer: Tokenizer::default(),
            merge_gap: 0,
            clean: CleanTable::default(),
            legacy_islands: None,
            legacy_short_runs: None,
            legacy_line_boundary: None,
            legacy_keep_title: None,
            legacy_drop_reprints: None,
            documents: 0,
            cutoff: Cutoff::default(),
            mining: MiningParams::default(),
            mutable: Vec::new(),
            rules: Vec::new(),
            regions: Vec::new(),
            review: None,
        }
    }
}

impl RulesFile {
    /// The kind of the source's documents: as recorded, else `html` for the html tokenizer.
    pub fn input(&self) -> DocKind {
        self.input.unwrap_or(if self.tokenizer == Tokenizer::Html { DocKind::Html } else { DocKind::Text })
    }

    /// Rules the cleaner applies: accepted ones, and with `include_pending` the pending ones at or above
    /// the chosen cutoff.
    pub fn active_rules(&self, include_pending: bool) -> impl Iterator<Item = &Rule> {
        self.rules.iter().filter(move |r| self.is_active(r, include_pending))
    }

    /// Whether `rule` applies: accepted, or with `include_pending` pending at or above the chosen cutoff.
    pub fn is_active(&self, rule: &Rule, include_pending: bool) -> bool {
        rule.status == Status::Accepted
            || (include_pending && rule.status == Status::Pending && rule.bin >= self.cutoff.chosen)
    }

    /// The approved rules alone: what `x` (export) writes and `chaff clean --rules` reads.
    pub fn export_accepted(&self) -> RulesFile {
        RulesFile {
            rules: self.rules.iter().filter(|r| r.status == Status::Accepted).cloned().collect(),
            regions: self.regions.iter().filter(|r| r.status == Status::Accepted).cloned().collect(),
            ..self.clone()
        }
    }

    pub fn count(&self, status: Status) -> usize {
        self.rules.iter().filter(|r| r.status == status).count()
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cutoff {
    pub auto: CutoffBin,
    pub chosen: CutoffBin,
}

/// Mining parameters stored with a source, so re-mining reproduces the same strings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MiningParams {
    pub min_tokens: u32,
    pub min_df: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tf_per_df: Option<f64>,
}

impl Default for MiningParams {
    fn default() -> Self {
        MiningParams::of(&MiningConfig::default())
    }
}

impl MiningParams {
    pub fn of(config: &MiningConfig) -> Self {
        MiningParams { min_tokens: config.min_tokens, min_df: config.min_df, max_tf_per_df: config.max_tf_per_df }
    }

    pub fn apply(&self, config: &mut MiningConfig) {
        config.min_tokens = self.min_tokens;
        config.min_df = self.min_df;
        config.max_tf_per_df = self.max_tf_per_df;
    }
}

/// Mining settings asked for on the command line (or by a caller), each `None` when not given.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MiningAsked {
    pub tokenizer: Option<Tokenizer>,
    pub min_tokens: Option<u32>,
    pub min_df: Option<u32>,
    pub max_tf_per_df: Option<f64>,
    pub sample_bytes: Option<usize>,
}

/// The mining configuration of a source, the one way `chaff mine`, the tuning UI and `chaff eval` build
/// it: the defaults, overridden by its rules file (tokenizer, mutable patterns, `[mining]`), overridden by
/// what was asked. Re-mining a source with no flags reproduces its strings.
pub fn mining_config(file: Option<&RulesFile>, asked: &MiningAsked) -> MiningConfig {
    let tokenizer = asked.tokenizer.or(file.map(|f| f.tokenizer)).unwrap_or(Tokenizer::Text);
    let mut config = MiningConfig::for_tokenizer(tokenizer);
    if let Some(f) = file {
        if !f.mutable.is_empty() {
            config.patterns = f.mutable.clone();
        }
        f.mining.apply(&mut config);
    }
    config.min_tokens = asked.min_tokens.unwrap_or(config.min_tokens);
    config.min_df = asked.min_df.unwrap_or(config.min_df);
    config.max_tf_per_df = asked.max_tf_per_df.or(config.max_tf_per_df);
    config.sample_bytes = asked.sample_bytes.unwrap_or(config.sample_bytes);
    config
}

/// A rules file's `[review]` table: the review state of its source (see `crate::review`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// When an editor marked the source reviewed (RFC 3339, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewed_at: Option<String>,
    /// Accepted rules at review.
    #[serde(default)]
    pub accepted: usize,
    /// `crate::review::rules_hash` of the file at review.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rules: String,
    /// The last drift check's drift (see `crate::drift`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drift: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked_at: Option<String>,
}

/// The longest source name, in bytes: the longest file name made of it, the tuning UI's journal
/// `.<source>.toml.journal`, must fit the 255 bytes file systems allow a name (the lock,
/// `.<source>.toml.lock`, is shorter).
pub const MAX_SOURCE_NAME_BYTES: usize = 255 - ".".len() - ".toml.journal".len();

/// Checks a source name for use as a rules file's name: not empty, not a path, not hidden, and short
/// enough for the rules file's name and those made from it (checked before mining, not after).
pub fn check_source_name(name: &str) -> Result<()> {
    if name.len() > MAX_SOURCE_NAME_BYTES {
        let head: String = name.chars().take(40).collect();
        return Err(Error::Invalid(format!(
            "source name \"{head}…\" is {} bytes long: it names the rules file <source>.toml and its lock, and a \
             file name holds at most 255 bytes, so a source name at most {MAX_SOURCE_NAME_BYTES}",
            name.len()
        )));
    }
    let bad = name.is_empty()
        || name.starts_with('.')
        || name.chars().any(|c| matches!(c, '/' | '\\' | ':' | '\0') || c.is_control());
    if bad {
        return Err(Error::Invalid(format!(
            "{name:?} is not a usable source name: it names the rules file <source>.toml, so it must be non-empty, \
             not start with `.`, and hold no `/`, `\\`, `:` or control characters"
        )));
    }
    Ok(())
}

/// The rules file of a source: `<dir>/<source>.toml`.
pub fn rules_path(dir: &Path, source: &str) -> std::path::PathBuf {
    dir.join(format!("{source}.toml"))
}

#[cfg(test)]
mod tests;
