//! chaff's settings, in one value: how a source is mined, what the automatic rules make of a fresh mining,
//! and how its documents are cleaned. Every front end takes a [`Settings`]: `chaff mine` and `chaff eval`
//! convert their flags into one ([`Given`] records which were given), the eval method `chaff`, the tuning
//! UI's miner, Python and Spark use [`Settings::default`] or a rules file's ([`Settings::of_file`]).
//!
//! Precedence, the one rule: chaff's automatic configuration (`Default`) < a source's rules file < what was
//! given. What the automatic rules decide from a source's documents (the line-boundary filter, short runs
//! and reprints where documents are glued into long lines) stands between the last two: a setting given is
//! applied over it ([`Settings::apply_given`]).
//!
//! A rules file holds the mining parameters (`tokenizer`, `[mining]`, `[[mutable]]`) and the cleaner's
//! settings (`merge_gap`, `[clean]`, see [`crate::clean_settings`]); the automatic rules' options are not
//! kept in it (they made the rules it holds).

use crate::clean_settings::{CleanSettings, Stage, Stages};
use crate::clusters::ClusterMethod;
use crate::cross_source::DEFAULT_MIN_SOURCES;
use crate::cutoff::CutoffBin;
use crate::frame::CutParams;
use crate::mining::MiningConfig;
use crate::rules::{MiningParams, RulesFile};

/// chaff's settings: mining, the automatic rules, cleaning, and which were given.
#[derive(Debug, Clone)]
pub struct Settings {
    /// How sources are mined: tokenizer, mutable patterns, thesis step 7's thresholds, sampling.
    pub mining: MiningConfig,
    /// What the automatic rules make of a source mined afresh.
    pub automatic: Automatic,
    /// How documents are cleaned: the merge gap, the stages on, each stage's settings. For a source mined
    /// afresh, chaff's automatic configuration ([`CleanSettings::automatic`]) before its documents decide.
    pub clean: CleanSettings,
    /// Which of `clean` were given: applied last ([`Settings::apply_given`]).
    pub given: Given,
}

/// The automatic rules' options (see [`crate::automatic`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Automatic {
    /// Frame cuts suggested for header and footer strings, with these parameters (`None`: none).
    pub cuts: Option<CutParams>,
    /// Rounds of frame-cut suggestion, each seeing the cuts (and the template clusters' rules) found
    /// before: a footer string found keeps the comment thread after it from being taken for the article.
    pub cut_rounds: usize,
    /// The line-boundary filter (stages `line-boundary`, `sentence-heads`, `sentence-tails`): `None`
    /// decides it from the source, on in text mode where its documents are laid out in lines. Given, it
    /// is also the last word on those stages.
    pub line_boundary: Option<bool>,
    /// HTML: candidates with no tag start rejected (template strings carry markup; "of the" does not).
    pub reject_tagless: bool,
    /// Candidates of mutable patterns alone (no fixed text) start rejected.
    pub reject_patterns: bool,
    /// The page's title, and the dateline and byline above the article, stay: stages `title`, `headline`
    /// and `datelines` on.
    pub keep_title: bool,
    /// Where the line-boundary filter is on, stages `reprints` and `repeats` too (text printed again).
    pub drop_reprints: bool,
    /// Where the line-boundary filter is on, single-word lines on two documents or more are rules too.
    pub line_rules: bool,
    /// Template clusters, mined apart (`None`: each source mined as one).
    pub clusters: Option<ClusterParams>,
    /// The second-level filter over sources mined together (`mine --all`, `eval`): a candidate in this
    /// many of them is an idiom, and starts rejected (`None`: each source mined alone).
    pub idioms: Option<usize>,
    /// A fixed cutoff (percent of documents) instead of the automatic one.
    pub cutoff: Option<CutoffBin>,
}

/// How template clusters are found and mined.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClusterParams {
    /// How pages are grouped: average linkage down to `similarity`, or TEXT-MDL.
    pub method: ClusterMethod,
    /// Linkage: pages join a cluster while they are this alike on average (Jaccard of their shared lines).
    /// 0.55 rather than 0.5: templates that differ in a widget or two are told apart (docs/results.md).
    pub similarity: f64,
    /// Fewest pages a cluster needs to be mined.
    pub min_docs: usize,
    /// Linkage: the clusters of fewer than `min_docs` pages are mined together, as one cluster, when they
    /// lie in one cluster at this lower similarity and are `2 × min_docs` pages at least. Lines a few pages share (a related headline, a
    /// byline) split a template's pages into pairs at `similarity`; without this a template on a third
    /// of the pages, so split, was never mined. 0.3: pages of one template were 0.3 to 0.65 alike in
    /// generated redesigns, pages of two templates 0 (docs/results.md). `None`: such clusters are not mined.
    pub rest_similarity: Option<f64>,
    /// Pages clustered at most (an even sample of larger sources): clustering is cubic.
    pub max_docs: usize,
    /// A cluster's cutoff bin is at most this: a string on more than half of a cluster's pages is its
    /// template. The automatic cutoff of a few pages' histogram has few bins to choose from, and lands
    /// above a sidebar that some of the cluster's pages lack (docs/results.md).
    pub max_cutoff: CutoffBin,
}

impl Default for ClusterParams {
    fn default() -> Self {
        ClusterParams {
            method: ClusterMethod::Linkage,
            similarity: 0.55,
            min_docs: 3,
            rest_similarity: Some(0.3),
            max_docs: 300,
            max_cutoff: 51,
        }
    }
}

impl Default for Automatic {
    fn default() -> Self {
        Automatic {
            cuts: Some(CutParams::default()),
            cut_rounds: 1,
            line_boundary: None,
            reject_tagless: true,
            reject_patterns: true,
            keep_title: true,
            drop_reprints: true,
            line_rules: true,
            clusters: Some(ClusterParams::default()),
            idioms: Some(DEFAULT_MIN_SOURCES),
            cutoff: None,
        }
    }
}

/// Which cleaning settings were given (flags, levers, a caller) rather than read from a rules file or
/// left at chaff's automatic configuration. The line-boundary filter and the cutoff, given, are
/// [`Automatic::line_boundary`] and [`Automatic::cutoff`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Given {
    pub merge_gap: bool,
    /// Stages turned off.
    pub off: Vec<Stage>,
    /// Stages whose settings (`[clean.<stage>]`) were given.
    pub stage_settings: Vec<Stage>,
}

impl Default for Settings {
    /// chaff's automatic configuration: what `chaff mine` makes of a new source with no flags.
    fn default() -> Self {
        Settings {
            mining: MiningConfig::default(),
            automatic: Automatic::default(),
            clean: CleanSettings::automatic(),
            given: Given::default(),
        }
    }
}

impl Settings {
    /// A source's settings: chaff's automatic configuration, overridden by its rules file, if it has one
    /// (its tokenizer, mutable patterns, `[mining]`, merge gap and `[clean]`). Re-mining a source with
    /// these reproduces its strings.
    pub fn of_file(file: Option<&RulesFile>) -> Settings {
        let mut settings = Settings::default();
        if let Some(f) = file {
            settings.mining.tokenizer = f.tokenizer;
            if !f.mutable.is_empty() {
                settings.mining.patterns = f.mutable.clone();
            }
            f.mining.apply(&mut settings.mining);
            settings.clean = f.clean_settings();
        }
        settings
    }

    /// The mining parameters a rules file keeps (`[mining]`).
    pub fn mining_params(&self) -> MiningParams {
        MiningParams::of(&self.mining)
    }

    /// Gives the merge gap.
    pub fn give_merge_gap(&mut self, gap: usize) {
        self.clean.merge_gap = gap;
        self.given.merge_gap = true;
    }

    /// Gives the line-boundary filter: the automatic rules do not decide it, and its stages follow.
    pub fn give_line_boundary(&mut self, on: bool) {
        self.automatic.line_boundary = Some(on);
        self.clean.set_line_boundary(on);
    }

    /// Turns `stage` off, given.
    pub fn give_off(&mut self, stage: Stage) {
        self.clean.stages.set(stage, false);
        if !self.given.off.contains(&stage) {
            self.given.off.push(stage);
        }
    }

    /// Gives `stage`'s settings, as `set` writes them into [`Settings::clean`]
    /// (`s.give_stage(Stage::ShortRuns, |c| c.short_runs.words = 12)`).
    pub fn give_stage(&mut self, stage: Stage, set: impl FnOnce(&mut CleanSettings)) {
        set(&mut self.clean);
        if !self.given.stage_settings.contains(&stage) {
            self.given.stage_settings.push(stage);
        }
    }

    /// Applies what was given to `file`, over what the automatic rules decided or the rules file held:
    /// the merge gap, the line-boundary filter, the stages turned off, each stage's settings, the cutoff.
    pub fn apply_given(&self, file: &mut RulesFile) {
        file.set_clean_settings(self.given_over(file.clean_settings()));
        if let Some(c) = self.automatic.cutoff {
            file.cutoff.chosen = c;
        }
    }

    /// `clean` with what was given of the cleaning settings over it (see [`Settings::apply_given`]).
    pub fn given_over(&self, mut clean: CleanSettings) -> CleanSettings {
        if self.given.merge_gap {
            clean.merge_gap = self.clean.merge_gap;
        }
        if let Some(on) = self.automatic.line_boundary {
            clean.set_line_boundary(on);
        }
        for stage in &self.given.off {
            clean.stages.set(*stage, false);
        }
        let given = self.given.stage_settings.iter().fold(Stages::none(), |set, st| set.with(*st, true));
        clean.take_stage_settings(&self.clean, given);
        clean
    }

    /// Stores the settings a rules file holds: the tokenizer, the mutable patterns, `[mining]`, the merge
    /// gap and `[clean]`.
    pub fn store(&self, file: &mut RulesFile) {
        file.tokenizer = self.mining.tokenizer;
        file.mutable = self.mining.patterns.clone();
        file.mining = self.mining_params();
        file.set_clean_settings(self.clean);
    }
}

#[cfg(test)]
mod tests;
