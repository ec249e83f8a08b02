//! The settings' flags, declared once for `mine` and `eval` (and the thresholds for `stats`), their help
//! reading the defaults from chaff's automatic configuration, and their conversion into the one settings
//! value.

use clap::Args;

use super::{StageList, stage_names, stages_off};

/// Thesis step 7's thresholds (`mine`, `eval`, `stats`).
#[derive(Args, Debug, Clone, Default)]
pub struct Thresholds {
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), help = defaults::min_tokens())]
    pub min_tokens: Option<u32>,
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), help = defaults::min_df())]
    pub min_df: Option<u32>,
    /// Drop strings repeated more than this many times per document on average (default: a rules file's
    /// `[mining]`, else none).
    #[arg(long, value_parser = parse_positive)]
    pub max_tf_per_df: Option<f64>,
}

/// chaff's settings as flags, declared once for `mine` and `eval`: each run converts them into one
/// `chaff::settings::Settings` ([`SettingsArgs::apply`]), over a rules file's where a source has one, else
/// over chaff's automatic configuration. A setting given here wins over both.
#[derive(Args, Debug, Clone, Default)]
pub struct SettingsArgs {
    #[command(flatten)]
    pub thresholds: Thresholds,
    /// Keep only matches that start or end a line (the line-boundary filter; stages line-boundary,
    /// sentence-heads, sentence-tails). Default: on in text mode, unless the documents are glued into long
    /// lines.
    #[arg(long, conflicts_with = "no_line_boundary")]
    pub line_boundary: bool,
    /// Turn the line-boundary filter off: matches count anywhere.
    #[arg(long)]
    pub no_line_boundary: bool,
    /// Do not suggest frame cuts (cut-before / cut-after) for header and footer strings.
    #[arg(long)]
    pub no_cuts: bool,
    #[arg(long, value_parser = parse_share, help = defaults::cut_share())]
    pub cut_share: Option<f64>,
    /// Frame cuts: rounds of suggestion, each seeing the cuts found before (default 1).
    #[arg(long)]
    pub cut_rounds: Option<usize>,
    /// Text mode: single-word lines found on two documents or more ("Reply", "Topics:") are not rules.
    #[arg(long)]
    pub no_line_rules: bool,
    /// Keep candidates of mutable patterns alone ("«month» «number» «number»") pending; by default they
    /// start rejected.
    #[arg(long)]
    pub keep_pattern_strings: bool,
    /// HTML: keep candidates whose string holds no tag pending (by default they start rejected: the HTML
    /// counterpart of line boundaries).
    #[arg(long)]
    pub no_tag_bound: bool,
    /// Template clusters, mined apart too (a page is cleaned with its cluster's rules and the source's):
    /// `linkage` (average linkage on the Jaccard similarity of shared lines, down to 0.55, the default; the
    /// clusters too small to mine that are one cluster at 0.3, twice --min-cluster pages or more, are mined
    /// as one), a similarity for linkage to go down to, or `mdl` (TEXT-MDL: merge while the description
    /// length falls).
    #[arg(long, value_name = "linkage|mdl|SIMILARITY", value_parser = parse_clusters, num_args = 0..=1, default_missing_value = "linkage")]
    pub clusters: Option<ClusterChoice>,
    /// No template clusters: mine each source as one.
    #[arg(long, conflicts_with = "clusters")]
    pub no_clusters: bool,
    #[arg(long, help = defaults::min_cluster())]
    pub min_cluster: Option<usize>,
    #[arg(long = "idioms", alias = "idiom-sources", value_name = "N", conflicts_with = "no_idioms", help = defaults::idioms())]
    pub idioms: Option<usize>,
    /// No second-level filter: each source mined alone.
    #[arg(long)]
    pub no_idioms: bool,
    /// A fixed cutoff, percent of documents, 0 to 99 (default: the automatic cutoff).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=99))]
    pub cutoff: Option<u8>,
    /// Characters: removed intervals closer than this are joined (default: a rules file's, else 0).
    #[arg(long)]
    pub merge_gap: Option<usize>,
    /// Turn cleaning stages off, by name (comma-separated or repeated); `mine` writes them in the rules
    /// file's `[clean] off`.
    #[arg(long, value_name = "STAGE", value_parser = stage_names())]
    pub off: Vec<StageList>,
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "10", help = defaults::islands())]
    pub islands: Option<usize>,
    #[arg(long, value_name = "N", help = defaults::short_runs())]
    pub short_runs: Option<usize>,
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "10", help = defaults::specks())]
    pub specks: Option<usize>,
}

impl SettingsArgs {
    /// Gives `settings` what these flags say; what they leave out stays as it is.
    pub fn apply(&self, settings: &mut chaff::settings::Settings) {
        use chaff::clean_settings::Stage;
        let t = &self.thresholds;
        let mining = &mut settings.mining;
        mining.min_tokens = t.min_tokens.unwrap_or(mining.min_tokens);
        mining.min_df = t.min_df.unwrap_or(mining.min_df);
        mining.max_tf_per_df = t.max_tf_per_df.or(mining.max_tf_per_df);
        let auto = &mut settings.automatic;
        if self.no_cuts {
            auto.cuts = None;
        } else if let Some(min_share) = self.cut_share {
            auto.cuts = Some(chaff::frame::CutParams { min_share, ..auto.cuts.unwrap_or_default() });
        }
        auto.cut_rounds = self.cut_rounds.unwrap_or(auto.cut_rounds);
        auto.line_rules &= !self.no_line_rules;
        auto.reject_patterns &= !self.keep_pattern_strings;
        auto.reject_tagless &= !self.no_tag_bound;
        if self.no_clusters {
            auto.clusters = None;
        } else if self.clusters.is_some() || self.min_cluster.is_some() {
            let mut c = auto.clusters.unwrap_or_default();
            if let Some(choice) = self.clusters {
                c.method = choice.method;
                c.similarity = choice.similarity.unwrap_or(c.similarity);
            }
            c.min_docs = self.min_cluster.unwrap_or(c.min_docs);
            auto.clusters = Some(c);
        }
        if self.no_idioms {
            auto.idioms = None;
        } else if let Some(n) = self.idioms {
            auto.idioms = Some(n);
        }
        auto.cutoff = self.cutoff.or(auto.cutoff);
        if self.line_boundary || self.no_line_boundary {
            settings.give_line_boundary(self.line_boundary);
        }
        if let Some(gap) = self.merge_gap {
            settings.give_merge_gap(gap);
        }
        for stage in stages_off(&self.off) {
            settings.give_off(stage);
        }
        if let Some(n) = self.islands {
            settings.give_stage(Stage::Islands, |c| c.islands.words = n);
        }
        if let Some(n) = self.short_runs {
            settings.give_stage(Stage::ShortRuns, |c| c.short_runs.words = n);
        }
        if let Some(n) = self.specks {
            settings.give_stage(Stage::Specks, |c| c.specks.chars = n);
        }
    }
}

/// Help of the settings' flags, their defaults read from chaff's automatic configuration.
mod defaults {
    use chaff::clean_settings::StageSetting;
    use chaff::clean_settings::{IslandsSettings, ShortRunsSettings, SpecksSettings};
    use chaff::settings::Settings;

    pub fn min_tokens() -> String {
        let n = Settings::default().mining.min_tokens;
        format!("Shortest string kept, in tokens (default: a rules file's `[mining]`, else {n})")
    }

    pub fn min_df() -> String {
        let n = Settings::default().mining.min_df;
        format!("Fewest documents a string must occur in (default: a rules file's `[mining]`, else {n})")
    }

    pub fn cut_share() -> String {
        let share = Settings::default().automatic.cuts.unwrap_or_default().min_share;
        format!(
            "Frame cuts: share of its documents on which a string must lie before (after) the article block (default {share})"
        )
    }

    pub fn min_cluster() -> String {
        let n = Settings::default().automatic.clusters.unwrap_or_default().min_docs;
        format!("Template clusters: fewest documents a cluster needs to be mined on its own (default {n})")
    }

    pub fn idioms() -> String {
        let n = Settings::default().automatic.idioms.unwrap_or_default();
        format!(
            "Second-level filter, over the sources mined together (`mine --all`, `eval`): a string that is a \
             candidate in this many of them is an idiom, and starts rejected (default {n})"
        )
    }

    pub fn islands() -> String {
        format!(
            "Stage islands: kept text of fewer than N words between two removals goes too (`[clean.islands] \
             words`; default: a rules file's, else {}; 10 when given alone)",
            IslandsSettings::AUTOMATIC.words
        )
    }

    pub fn short_runs() -> String {
        format!(
            "Stage short-runs: kept runs outside the article block with fewer than N words on long lines go \
             (`[clean.short-runs] words`; 0: none; default: a rules file's, else {} where documents are laid out \
             in lines)",
            ShortRunsSettings::AUTOMATIC.words
        )
    }

    pub fn specks() -> String {
        format!(
            "Stage specks: removed spans of fewer than N characters inside a line of kept text come back \
             (`[clean.specks] chars`; default: a rules file's, else {}; 10 when given alone)",
            SpecksSettings::AUTOMATIC.chars
        )
    }
}

/// How template clusters are found, for `--clusters`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClusterChoice {
    pub method: chaff::clusters::ClusterMethod,
    /// Linkage's similarity threshold, when given.
    pub similarity: Option<f64>,
}

/// `linkage`, `mdl`, or a similarity (linkage down to it).
pub fn parse_clusters(s: &str) -> Result<ClusterChoice, String> {
    use chaff::clusters::ClusterMethod;
    match s {
        "linkage" => Ok(ClusterChoice { method: ClusterMethod::Linkage, similarity: None }),
        "mdl" => Ok(ClusterChoice { method: ClusterMethod::Mdl, similarity: None }),
        _ => match s.parse::<f64>() {
            Ok(x) if (0.0..=1.0).contains(&x) => {
                Ok(ClusterChoice { method: ClusterMethod::Linkage, similarity: Some(x) })
            }
            _ => Err(format!("`{s}`: expected linkage, mdl, or a Jaccard similarity in [0, 1] (linkage)")),
        },
    }
}

/// A share of documents: over 0, at most 1.
fn parse_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1.0 => Ok(x),
        _ => Err(format!("`{s}`: expected a share of documents over 0 and at most 1 (0.5 is half of them)")),
    }
}

/// A number over 0 (a finite one: NaN and infinity are no limit).
fn parse_positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("`{s}`: expected a number over 0")),
    }
}
