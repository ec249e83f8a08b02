//! Rules files (method.md §9): one TOML file per source, `rules/<source>.toml`, holding the tokenizer,
//! the mutable patterns, the cutoffs (auto and chosen), the merge gap, and every rule with its regex,
//! status, statistics and an example. The batch cleaner reads only these files.
//!
//! Files are written atomically (temporary file in the same folder, fsync, rename): a crash leaves the old
//! file or the new one, never half of one. A malformed file is an error naming file, line and column.

use std::fs;
use std::path::Path;

use serde::{Deserialize, Serialize};

mod check;

pub use check::{RULE_REGEX_BYTES, rule_regex_estimate};

use crate::clean_settings::{CleanSettings, Stage, Stages};
use crate::cutoff::CutoffBin;
use crate::error::{Error, Result, line_column};
use crate::mining::{MinedString, MiningConfig};
use crate::mutable::{MutablePattern, MutableSet};
use crate::symbol::Symbol;
use crate::synthesis::synthesize;
use crate::tokens::Tokenizer;
use crate::view::DocKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Accepted,
    Rejected,
    #[default]
    Pending,
}

impl Status {
    pub fn symbol(self) -> char {
        match self {
            Status::Accepted => '✓',
            Status::Rejected => '✗',
            Status::Pending => '·',
        }
    }
}

/// What a rule does to the text it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Remove the matches (the thesis).
    #[default]
    Remove,
    /// A header string: remove everything from the document's start to the end of the match.
    CutBefore,
    /// A footer string: remove everything from the start of the match to the document's end.
    CutAfter,
    /// Never remove what it matches, by any rule or stage: the editor's word that this is the article.
    Keep,
}

impl Action {
    /// Every action, in the order an editor cycles through them.
    pub const ALL: [Action; 4] = [Action::Remove, Action::CutBefore, Action::CutAfter, Action::Keep];

    pub fn is_remove(&self) -> bool {
        *self == Action::Remove
    }

    /// The action's name in rules files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Action::Remove => "remove",
            Action::CutBefore => "cut-before",
            Action::CutAfter => "cut-after",
            Action::Keep => "keep",
        }
    }

    /// The next action in [`Action::ALL`], round.
    pub fn next(self) -> Action {
        let i = Action::ALL.iter().position(|a| *a == self).unwrap_or(0);
        Action::ALL[(i + 1) % Action::ALL.len()]
    }

    /// A cut: a header or footer string.
    pub fn is_cut(self) -> bool {
        matches!(self, Action::CutBefore | Action::CutAfter)
    }
}

/// Reads one of a few words, and says which ones when given anything else (a number, a misspelling).
struct OneOf<T: 'static> {
    words: &'static [(&'static str, T)],
    expected: &'static str,
}

impl<T: Copy> serde::de::Visitor<'_> for OneOf<T> {
    type Value = T;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.expected)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<T, E> {
        self.words
            .iter()
            .find(|(w, _)| *w == v)
            .map(|(_, t)| *t)
            .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(v), &self))
    }
}

impl<'de> Deserialize<'de> for Status {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_str(OneOf {
            words: &[("accepted", Status::Accepted), ("rejected", Status::Rejected), ("pending", Status::Pending)],
            expected: "a status: \"accepted\", \"rejected\" or \"pending\"",
        })
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_str(OneOf {
            words: &[
                ("remove", Action::Remove),
                ("cut-before", Action::CutBefore),
                ("cut-after", Action::CutAfter),
                ("keep", Action::Keep),
            ],
            expected: "an action: \"remove\", \"cut-before\", \"cut-after\" or \"keep\"",
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    pub id: String,
    #[serde(default)]
    pub status: Status,
    #[serde(default, skip_serializing_if = "Action::is_remove")]
    pub action: Action,
    pub regex: String,
    /// The mined token string, mutable tokens as `«name»`. Empty for a hand-written rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<String>,
    #[serde(default)]
    pub tf: u64,
    #[serde(default)]
    pub df: u64,
    /// Histogram bin of its df (percent of the mined documents).
    #[serde(default)]
    pub bin: CutoffBin,
    #[serde(default)]
    pub coverage: u64,
    /// New coverage: what it covers beyond the strings of larger coverage ([`MinedString::adds`]).
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub adds: u64,
    #[serde(default)]
    pub example: String,
    /// Flagged by the second-level filter (found in many sources).
    #[serde(default, skip_serializing_if = "is_false")]
    pub idiom: bool,
    /// Not found when the source was last mined; kept because an editor decided on it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub stale: bool,
    /// Made by an editor's hand (a span marked as template or kept in the UI), even where a mined string has
    /// the same tokens: her explicit decision, which no cleaning stage overrules.
    #[serde(default, skip_serializing_if = "is_false")]
    pub editor: bool,
    /// Mined in one template cluster of the source: applied only to documents of that cluster (the one
    /// whose cluster rules cover most of a document).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<u32>,
}

/// A rules file's `[clean]` table: the cleaner's stages off for this source, and thresholds of stages that
/// mining does not set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CleanTable {
    /// Stages turned off, by name (`off = ["reprints", "short-runs"]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub off: Vec<Stage>,
    /// `specks`: removed spans of fewer than this many characters inside a line of kept text come back
    /// (0: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub specks: usize,
}

impl CleanTable {
    fn is_empty(&self) -> bool {
        self.off.is_empty() && self.specks == 0
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Rule {
    pub fn symbols(&self) -> Vec<Symbol> {
        self.tokens.iter().map(|t| Symbol::decode(t)).collect()
    }

    /// Whether the rule holds fixed text: a string made only of mutable patterns ("«upcase»
    /// «upcase»") is a shape that turns up anywhere, not a place in the template. A hand-written
    /// regex counts as fixed.
    pub fn has_fixed_text(&self) -> bool {
        self.tokens.is_empty() || self.symbols().iter().any(|s| matches!(s, Symbol::Literal(_)))
    }

    /// Whether the rule holds fixed text a reader sees: as [`Rule::has_fixed_text`], where HTML tags
    /// are not text (`«upcase» </a>` is any linked name, not a place in the template).
    pub fn shows_fixed_text(&self) -> bool {
        self.tokens.is_empty() || self.symbols().iter().any(|s| matches!(s, Symbol::Literal(_)) && !s.is_tag())
    }

    /// A rule an editor wrote: `symbols`, synthesized as the miner would, accepted with `action`; no
    /// statistics.
    pub fn accepted(
        id: impl Into<String>,
        symbols: &[Symbol],
        action: Action,
        tokenizer: Tokenizer,
        mutable: &MutableSet,
    ) -> Result<Rule> {
        Ok(Rule {
            id: id.into(),
            status: Status::Accepted,
            action,
            regex: synthesize(symbols, tokenizer, mutable)?,
            tokens: symbols.iter().map(Symbol::encode).collect(),
            tf: 0,
            df: 0,
            bin: 0,
            coverage: 0,
            adds: 0,
            example: String::new(),
            idiom: false,
            stale: false,
            editor: false,
            cluster: None,
        })
    }

    /// The line a line rule matches, if this is one whose regex is still the one it was made with (an
    /// edited regex makes it a regex rule like any other).
    pub fn line(&self) -> Option<&str> {
        let line = self.id.strip_prefix(LINE_PREFIX)?;
        (self.tokens.is_empty() && self.regex == line_regex(line)).then_some(line)
    }

    /// Whether the rule's regex is the one made from its tokens (a line rule's: from its line). A
    /// hand-written rule (no tokens) is not.
    pub fn is_synthesized(&self, tokenizer: Tokenizer, mutable: &MutableSet) -> bool {
        if self.id.starts_with(LINE_PREFIX) && self.tokens.is_empty() {
            return self.line().is_some();
        }
        !self.tokens.is_empty() && synthesize(&self.symbols(), tokenizer, mutable).is_ok_and(|re| re == self.regex)
    }

    /// The mined string behind a rule (for rules that do not come from this mining: cluster rules).
    pub fn to_mined(&self) -> MinedString {
        MinedString {
            id: self.id.clone(),
            symbols: self.symbols(),
            tf: self.tf,
            df: self.df,
            bin: self.bin,
            coverage: self.coverage,
            adds: self.adds,
            example: self.example.clone(),
            regex: self.regex.clone(),
            idiom: self.idiom,
            cluster: self.cluster,
        }
    }

    pub fn from_mined(s: &MinedString) -> Rule {
        Rule {
            id: s.id.clone(),
            status: if s.idiom { Status::Rejected } else { Status::Pending },
            action: Action::Remove,
            regex: s.regex.clone(),
            tokens: s.symbols.iter().map(Symbol::encode).collect(),
            tf: s.tf,
            df: s.df,
            bin: s.bin,
            coverage: s.coverage,
            adds: s.adds,
            example: s.example.clone(),
            idiom: s.idiom,
            stale: false,
            editor: false,
            cluster: s.cluster,
        }
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

/// The id prefix of line rules: a single-word line found on many documents (see `crate::lines`).
pub const LINE_PREFIX: &str = "line:";

/// A line rule's regex: the line, whole.
pub fn line_regex(line: &str) -> String {
    format!("(?m)^{}$", regex::escape(line))
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

/// The rules-file format chaff writes. Format 1 (files without `format`) had three switches beside
/// `[clean] off`, each governing stages and off when absent; format 2 names every stage that is off in
/// `[clean] off`, and nothing else turns one off.
pub const FORMAT: u32 = 2;

fn format_one() -> u32 {
    1
}

/// The stages each format-1 switch governs: `line_boundary`, `keep_title`.
pub const LINE_BOUNDARY_STAGES: [Stage; 3] = [Stage::LineBoundary, Stage::SentenceHeads, Stage::SentenceTails];
pub const TITLE_STAGES: [Stage; 3] = [Stage::Title, Stage::Headline, Stage::Datelines];

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
    /// Kept text of fewer than this many words between two removed spans is removed too (0: off).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub islands: usize,
    /// Kept runs outside the article block with fewer than this many words on long lines (of 8 words or
    /// more) are removed too (0: off): menus and link lists no rule matched. The title's run stays.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub short_runs: usize,
    /// The cleaner's stages turned off for this source (`[clean] off = ["reprints"]`): every stage not
    /// named is on.
    #[serde(default, skip_serializing_if = "CleanTable::is_empty")]
    pub clean: CleanTable,
    /// Format 1's switches, read from format-1 files only: `line_boundary` (stages `line-boundary`,
    /// `sentence-heads`, `sentence-tails`), `keep_title` (`title`, `headline`, `datelines`),
    /// `drop_reprints` (`reprints`). Such a file is read as the same stages, each switch absent or false
    /// becoming `[clean] off` entries; in a format-2 file they are an error.
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
    pub review: Option<crate::review::Review>,
    #[serde(rename = "mutable", default)]
    pub mutable: Vec<MutablePattern>,
    #[serde(rename = "rule", default)]
    pub rules: Vec<Rule>,
    /// Region rules: the lines under an element, by its selector (`[[region]]`, see [`crate::regions`]).
    #[serde(rename = "region", default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<crate::regions::RegionRule>,
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
            islands: 0,
            short_runs: 0,
            clean: CleanTable::default(),
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

    /// The settings the cleaner runs with: the file's thresholds, and its stages: all of them but those
    /// `[clean] off` names and those the file's own switches leave off (`line_boundary = false` leaves
    /// `line-boundary`, `sentence-heads` and `sentence-tails` off, no `keep_title` leaves `title`, `headline` and
    /// `datelines` off, no `drop_reprints` leaves `reprints` off).
    pub fn clean_settings(&self) -> CleanSettings {
        let mut stages = Stages::all();
        for s in &self.clean.off {
            stages.set(*s, false);
        }
        CleanSettings {
            merge_gap: self.merge_gap,
            islands: self.islands,
            short_runs: self.short_runs,
            specks: self.clean.specks,
            stages,
        }
    }

    /// Stores `settings`: its thresholds, and every stage it has off in `[clean] off`.
    pub fn set_clean_settings(&mut self, settings: CleanSettings) {
        (self.merge_gap, self.islands, self.short_runs) = (settings.merge_gap, settings.islands, settings.short_runs);
        self.clean.specks = settings.specks;
        self.clean.off = settings.stages.off();
    }

    /// Whether matches must touch a line's edge (stage `line-boundary`): text glued into long lines
    /// has it off.
    pub fn line_boundary(&self) -> bool {
        self.clean_settings().on(Stage::LineBoundary)
    }

    /// Turns stages `line-boundary`, `sentence-heads` and `sentence-tails` on or off together.
    pub fn set_line_boundary(&mut self, on: bool) {
        for s in LINE_BOUNDARY_STAGES {
            self.set_stage(s, on);
        }
    }

    /// Turns stages `title`, `headline` and `datelines` on or off together.
    pub fn set_keep_title(&mut self, on: bool) {
        for s in TITLE_STAGES {
            self.set_stage(s, on);
        }
    }

    /// Reads a format-1 file's switches into `[clean] off` and makes it format 2.
    fn migrate(&mut self) {
        if self.format < 2 {
            let mut settings = self.clean_settings();
            let switches = [
                (self.legacy_line_boundary, &LINE_BOUNDARY_STAGES[..]),
                (self.legacy_keep_title, &TITLE_STAGES[..]),
                (self.legacy_drop_reprints, &[Stage::Reprints][..]),
            ];
            for (on, stages) in switches {
                for s in stages {
                    if !on.unwrap_or(false) {
                        settings.stages.set(*s, false);
                    }
                }
            }
            self.set_clean_settings(settings);
            self.format = FORMAT;
        }
        (self.legacy_line_boundary, self.legacy_keep_title, self.legacy_drop_reprints) = (None, None, None);
    }

    /// Turns `stage` on or off for this source.
    pub fn set_stage(&mut self, stage: Stage, on: bool) {
        let mut settings = self.clean_settings();
        settings.stages.set(stage, on);
        self.set_clean_settings(settings);
    }

    pub fn count(&self, status: Status) -> usize {
        self.rules.iter().filter(|r| r.status == status).count()
    }

    /// Parses and checks a rules file's text (see [`RulesFile::parse_checked`]); warnings are dropped.
    pub fn parse(text: &str, path: &Path) -> Result<RulesFile> {
        RulesFile::parse_checked(text, path).map(|(file, _)| file)
    }

    /// Parses a rules file's text. Errors (malformed TOML, a bin over 99, a rule id used twice, a regex
    /// that does not compile) and the warnings returned (keys chaff does not read, such as a misspelled
    /// `stauts`) name `path`, line and column.
    pub fn parse_checked(text: &str, path: &Path) -> Result<(RulesFile, Vec<String>)> {
        let file: RulesFile = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map_or((1, 1), |s| line_column(text, s.start));
            Error::Toml { path: path.to_path_buf(), line, column, message: e.message().trim().to_string() }
        })?;
        let warnings = check::check(text, path, &file)?;
        let mut file = file;
        file.migrate();
        Ok((file, warnings))
    }

    /// Reads and checks a rules file (see [`RulesFile::parse_checked`]); warnings are dropped.
    pub fn load(path: &Path) -> Result<RulesFile> {
        RulesFile::load_checked(path).map(|(file, _)| file)
    }

    /// Reads and checks a rules file: the file and its warnings, for the caller to show.
    pub fn load_checked(path: &Path) -> Result<(RulesFile, Vec<String>)> {
        RulesFile::parse_checked(&read_text(path)?, path)
    }

    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).expect("rules serialize");
        format!(
            "# chaff rules for source `{}`. Set a rule's status to accepted, rejected or pending;\n\
             # `chaff clean --rules` applies the accepted ones. Written by chaff; comments are not kept.\n\n{body}",
            self.source
        )
    }

    /// Writes atomically: temporary file beside `path`, fsync, rename.
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::atomic::write_atomic(path, self.to_toml().as_bytes())
    }
}

/// A rules file's text; invalid UTF-8 is an error naming its line and column.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = fs::read(path).map_err(|e| Error::io(path, e))?;
    String::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_column(&String::from_utf8_lossy(e.as_bytes()), e.utf8_error().valid_up_to());
        Error::Toml { path: path.to_path_buf(), line, column, message: "invalid UTF-8".into() }
    })
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
             file name holds at most 255 bytes, so a source name at most {MAX_SOURCE_NAME_BYTES}; give a shorter \
             one with --source NAME (or rename the folder)",
            name.len()
        )));
    }
    let bad = name.is_empty()
        || name.starts_with('.')
        || name.chars().any(|c| matches!(c, '/' | '\\' | ':' | '\0') || c.is_control());
    if bad {
        return Err(Error::Invalid(format!(
            "{name:?} is not a usable source name: it names the rules file <source>.toml, so it must be non-empty, \
             not start with `.`, and hold no `/`, `\\`, `:` or control characters (give one with --source NAME)"
        )));
    }
    Ok(())
}

/// The rules file of a source: `<dir>/<source>.toml`.
pub fn rules_path(dir: &Path, source: &str) -> std::path::PathBuf {
    dir.join(format!("{source}.toml"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> RulesFile {
        RulesFile {
            source: "demo".into(),
            merge_gap: 3,
            islands: 4,
            short_runs: 20,
            clean: CleanTable { off: vec![Stage::Reprints], specks: 0 },
            documents: 10,
            cutoff: Cutoff { auto: 51, chosen: 60 },
            mutable: vec![MutablePattern::new("weekday", "(?:Monday|Tuesday)[[:punct:]]*")],
            rules: vec![
                Rule {
                    id: "r1".into(),
                    status: Status::Accepted,
                    action: Action::CutAfter,
                    regex: r"read\s+more".into(),
                    tokens: vec!["read".into(), "more".into()],
                    tf: 20,
                    df: 10,
                    bin: 99,
                    coverage: 180,
                    adds: 0,
                    example: "read more".into(),
                    idiom: false,
                    stale: false,
                    editor: false,
                    cluster: None,
                },
                Rule {
                    id: "r2".into(),
                    status: Status::Pending,
                    action: Action::Remove,
                    regex: r"«x»\s+\|".into(),
                    tokens: vec!["\\«x»".into(), "|".into()],
                    tf: 9,
                    df: 9,
                    bin: 90,
                    coverage: 45,
                    adds: 0,
                    example: "«x» | \"quoted\"\nnew line".into(),
                    idiom: true,
                    stale: true,
                    editor: false,
                    cluster: Some(1),
                },
            ],
            ..Default::default()
        }
    }

    #[test]
    fn a_default_rules_file_is_an_empty_file_of_the_current_format_that_reads_back() {
        let file = RulesFile { source: "demo".into(), ..Default::default() };
        assert_eq!(file.format, FORMAT);
        let text = toml::to_string(&file).unwrap();
        assert_eq!(RulesFile::parse(&text, Path::new("x.toml")).unwrap(), file);
    }

    #[test]
    fn only_words_are_fixed_text_a_reader_sees() {
        let with = |tokens: &[&str]| Rule {
            tokens: tokens.iter().map(|t| t.to_string()).collect(),
            ..sample().rules[0].clone()
        };
        let linked_name = with(&["«upcase»", "</a>"]);
        assert!(linked_name.has_fixed_text() && !linked_name.shows_fixed_text());
        let dated = with(&["</b>", "on", "«month»", "«number»"]);
        assert!(dated.has_fixed_text() && dated.shows_fixed_text());
        assert!(!with(&["«upcase»", "«upcase»"]).shows_fixed_text());
    }

    #[test]
    fn load_save_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("demo.toml");
        let file = sample();
        file.save(&path).unwrap();
        assert_eq!(RulesFile::load(&path).unwrap(), file);
        // saving what was loaded gives the same bytes
        let first = fs::read_to_string(&path).unwrap();
        RulesFile::load(&path).unwrap().save(&path).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), first);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left behind");
    }

    #[test]
    fn a_format_one_files_switches_become_the_same_stages_off() {
        let head = "source = \"x\"\n[cutoff]\nauto = 5\nchosen = 5\n";
        let old = |switches: &str, tables: &str| {
            RulesFile::parse(&format!("{switches}{head}{tables}"), Path::new("x.toml")).unwrap()
        };
        // absent switches left their stages off in format 1
        let bare = old("", "");
        assert_eq!(bare.format, FORMAT);
        assert_eq!(bare.clean_settings().stages, Stages::default());
        let all = old("line_boundary = true\nkeep_title = true\ndrop_reprints = true\n", "");
        assert_eq!(all.clean_settings().stages, Stages::all());
        assert!(all.clean.off.is_empty());
        let some = old("line_boundary = true\n", "[clean]\noff = [\"islands\"]\n");
        assert_eq!(
            some.clean.off,
            [Stage::Islands, Stage::Title, Stage::Headline, Stage::Datelines, Stage::Reprints],
            "the switches' stages join the file's own, in pipeline order"
        );
        // written as format 2: `[clean] off` alone says which stages are off, and reads back the same
        let text = some.to_toml();
        assert!(text.contains("format = 2") && !text.contains("line_boundary"), "{text}");
        assert_eq!(RulesFile::parse(&text, Path::new("x.toml")).unwrap(), some);
    }

    #[test]
    fn a_format_one_switch_in_a_format_two_file_is_an_error_naming_its_line() {
        let text = "format = 2\nsource = \"x\"\nkeep_title = false\n[cutoff]\nauto = 5\nchosen = 5\n";
        let err = RulesFile::parse(text, Path::new("x.toml")).unwrap_err().to_string();
        assert!(err.starts_with("x.toml:3:1:") && err.contains("[clean] off"), "{err}");
        let newer = "format = 3\nsource = \"x\"\n[cutoff]\nauto = 5\nchosen = 5\n";
        let err = RulesFile::parse(newer, Path::new("x.toml")).unwrap_err().to_string();
        assert!(err.contains("update chaff"), "{err}");
    }

    #[test]
    fn malformed_file_names_line_and_column() {
        let text = "source = \"x\"\n[cutoff]\nauto = 5\nchosen = \"high\"\n";
        let err = RulesFile::parse(text, Path::new("rules/x.toml")).unwrap_err().to_string();
        assert!(err.starts_with("rules/x.toml:4:10:"), "{err}");
        let err = RulesFile::parse("source = \n", Path::new("y.toml")).unwrap_err().to_string();
        assert!(err.starts_with("y.toml:1:"), "{err}");
    }

    #[test]
    fn export_keeps_only_accepted() {
        let f = sample().export_accepted();
        assert_eq!(f.rules.len(), 1);
        assert_eq!(f.rules[0].id, "r1");
    }

    #[test]
    fn active_rules_include_pending_above_the_chosen_cutoff_on_request() {
        let f = sample();
        assert_eq!(f.active_rules(false).count(), 1);
        assert_eq!(f.active_rules(true).count(), 2);
        let mut g = f.clone();
        g.cutoff.chosen = 95;
        assert_eq!(g.active_rules(true).count(), 1);
    }
}
