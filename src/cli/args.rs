//! Command-line arguments, parsed once (clap). Usage errors exit with status 2.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

mod list;
mod settings;

pub use list::{List, comma_list, entries};
pub use settings::{SettingsArgs, Thresholds};

#[derive(Parser, Debug)]
#[command(
    name = "chaff",
    version,
    about = "Learn each source's template from its documents, tune the rules, and remove the template.",
    long_about = "Learn each source's template from a history of its documents (Foschini's suffix-array method), \
review the mined rules in a terminal UI, and remove the template from new documents.\n\n\
With no command, opens the tuning UI on the bundled sample-corpora/."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Mine a source's templates into its rules file (rules/<source>.toml).
    Mine(MineArgs),
    /// Remove the template from documents with a source's rules.
    Clean(CleanArgs),
    /// Print the histogram, cutoff and top candidates of a corpus without writing anything.
    Stats(StatsArgs),
    /// Open the tuning UI on a source (or a folder of sources).
    Tune(TuneArgs),
    /// Write the bundled sample corpora (deterministic generator).
    Generate(GenerateArgs),
    /// Measure mining and cleaning speed on generated corpora; prints MB/s per stage.
    Bench(BenchArgs),
    /// Measure template removal against gold: word-LCS P/R/F1 per site and overall, or span P/R on
    /// injected-template corpora.
    Eval(EvalArgs),
    /// Check new documents of a source against its rules: which rules match less often than when mined
    /// (the template changed); exit 3 past --max-drift.
    Check(CheckArgs),
    /// What a rules change does, document by document: a word diff of each changed document's cleaned
    /// text (- removed, + given back), inside and outside its article block, and each changed rule's evidence.
    Diff(super::diff::DiffArgs),
    /// Test a rules file against its verified pages: exit 1 with a word diff when a page no longer gets its
    /// verified text, 2 on bad input; --accept writes the current output as verified.
    Test(super::test::TestArgs),
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    Text,
    Html,
}

/// How a source's documents are read and sampled for mining (`mine`, `stats`).
#[derive(Args, Debug, Clone)]
pub struct MiningOpts {
    /// Tokenizer preset (default: the rules file's, else text; HTML pages are read through their page
    /// view, the lines a reader sees, unless `html` asks for their raw markup).
    #[arg(long, value_enum)]
    pub preset: Option<Preset>,
    /// Mine on a sample of at most this many MB of documents, then count on all of them (default 16).
    #[arg(long)]
    pub sample_mb: Option<usize>,
}

#[derive(Args, Debug)]
pub struct MineArgs {
    /// A folder of .txt/.html documents, a .jsonl file of {"id", "text"} records, or with --all a folder of
    /// source folders.
    pub corpus: PathBuf,
    /// Source name (default: the folder or file name).
    #[arg(long, conflicts_with = "all")]
    pub source: Option<String>,
    /// Where rules files are written.
    #[arg(long, default_value = "rules")]
    pub rules_dir: PathBuf,
    /// Mine every sub-folder of CORPUS as its own source, and flag strings mined in many (idioms).
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub mining: MiningOpts,
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// Print a JSON summary instead of text.
    #[arg(long)]
    pub json: bool,
    /// Seconds to wait for a rules file's lock held by another process (a tuning UI saving, another
    /// mine) before failing.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub lock_timeout: u64,
    /// Re-mine a rules file that holds another source's rules (its `source` differs) as this source's.
    #[arg(long)]
    pub take_over: bool,
    /// With --all on a crawl (a .warc, .warc.gz or .jsonl file): how documents without a `source` field
    /// are grouped into sources, by their URL's host or its registrable domain.
    #[arg(long, value_enum, default_value = "host")]
    pub group: GroupBy,
    /// With --all on a crawl: sources with fewer documents are not mined (reported).
    #[arg(long, default_value_t = 5, value_name = "N")]
    pub min_docs: usize,
}

/// How a crawl's documents are grouped into sources (a document's own `source` field always wins).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GroupBy {
    /// The URL's host, without a port or a leading `www.`.
    #[default]
    Host,
    /// The registrable domain of the host, from the public suffix list (a.example.co.uk and
    /// b.example.co.uk are example.co.uk).
    Domain,
}

impl GroupBy {
    pub fn group(self) -> chaff::crawl::Group {
        match self {
            GroupBy::Host => chaff::crawl::Group::Host,
            GroupBy::Domain => chaff::crawl::Group::Domain,
        }
    }
}

#[derive(Args, Debug)]
pub struct CleanArgs {
    /// The source's rules file (rules/<source>.toml or an exported one). Or --rules-dir.
    #[arg(long, default_value = "", hide_default_value = true, value_parser = path_or_none)]
    pub rules: PathBuf,
    /// Clean each document with its own source's rules, RULES_DIR/<source>.toml: INPUTs are crawls
    /// (.warc, .warc.gz, JSON Lines with `url` or `source`) or folders of sources, or JSON Lines on stdin;
    /// writes JSON Lines {id, source, url, text, removed_bytes} to stdout, or files OUT/<source>/<id>.
    #[arg(long, value_name = "RULES_DIR", conflicts_with_all = ["rules", "in_place", "explain", "encoding"])]
    pub rules_dir: Option<PathBuf>,
    /// With --rules-dir: a document of a source that has no rules file passes through unchanged, or is
    /// skipped (left out of the output); either is counted in the summary.
    #[arg(long, value_enum, default_value = "pass")]
    pub unknown: Unknown,
    /// With --rules-dir: how documents without a `source` field are grouped into sources.
    #[arg(long, value_enum, default_value = "host")]
    pub group: GroupBy,
    /// Files or folders to clean; `-` alone: one document on stdin, written cleaned to stdout. Without
    /// any, reads JSON Lines {"id", "text"} on stdin and writes JSON Lines on stdout.
    pub inputs: Vec<PathBuf>,
    /// Folder for the cleaned files (same names). Required with INPUTs, unless --in-place. It may not be,
    /// or be inside, an input folder, nor would any output replace an input (without --in-place).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace the documents with their cleaned text: without --out, each cleaned file is written over its
    /// input (with --text, as <stem>.txt beside it); with --out, the output folder may be an input folder.
    /// The originals are lost: keep a copy.
    #[arg(long)]
    pub in_place: bool,
    /// List every removed span with the rule(s) that removed it (JSON Lines: a "spans" field).
    #[arg(long)]
    pub explain: bool,
    /// Also apply pending rules at or above the chosen cutoff (the automatic rules, no editor).
    #[arg(long)]
    pub include_pending: bool,
    /// Turn cleaning stages off for this run, by name (comma-separated or repeated; the rules file's
    /// `[clean] off` turns them off for good).
    #[arg(long, value_name = "STAGE", value_parser = stage_names())]
    pub off: Vec<StageList>,
    /// HTML rules: write the text a reader sees of each cleaned page (as the preview shows it and
    /// `chaff eval --input html` scores it), not its cleaned HTML; files get a .txt name. Text rules:
    /// no change.
    #[arg(long)]
    pub text: bool,
    /// HTML rules: only the text of a removed span goes and its tags stay, so the cleaned page parses as
    /// it did (a removed `<script>` opener would otherwise leave its code as text). Text rules: no change.
    #[arg(long, conflicts_with = "text")]
    pub keep_tags: bool,
    /// Read every input in this encoding (a WHATWG label: windows-1251, shift_jis, gbk, euc-kr, koi8-r,
    /// iso-8859-2, …) instead of finding it: a byte order mark, else UTF-8, else the page's declaration,
    /// else a detector. Cleaned files are written in the input's encoding; `--text` writes UTF-8.
    #[arg(long, value_name = "LABEL", value_parser = encoding_label)]
    pub encoding: Option<&'static encoding_rs::Encoding>,
}

/// What `chaff clean --rules-dir` does with a document of a source that has no rules file.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// Written unchanged.
    Pass,
    /// Left out of the output.
    Skip,
}

/// A path, or the empty one that stands for "not given" (`--rules` beside `--rules-dir`).
fn path_or_none(s: &str) -> Result<PathBuf, String> {
    Ok(PathBuf::from(s))
}

fn encoding_label(label: &str) -> Result<&'static encoding_rs::Encoding, String> {
    encoding_rs::Encoding::for_label(label.as_bytes()).ok_or_else(|| {
        format!("no encoding labelled {label:?}: give a WHATWG label such as utf-8, windows-1251, shift_jis, gbk, euc-kr, koi8-r or iso-8859-2")
    })
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The source's rules file.
    #[arg(long, required_unless_present = "rules_dir")]
    pub rules: Option<PathBuf>,
    /// Check every source of the inputs against its own rules file, RULES_DIR/<source>.toml: INPUTs are
    /// crawls (.warc, .warc.gz, JSON Lines with `url` or `source`) or folders of sources. One line a source
    /// (or --json); exit 3 when any drifted.
    #[arg(long, value_name = "RULES_DIR", conflicts_with = "rules", requires = "docs")]
    pub rules_dir: Option<PathBuf>,
    /// With --rules-dir: how documents without a `source` field are grouped into sources.
    #[arg(long, value_enum, default_value = "host")]
    pub group: GroupBy,
    /// New documents of the source: files, folders, or .jsonl files. Without any, JSON Lines on stdin.
    pub docs: Vec<PathBuf>,
    /// Also check the pending rules at or above the chosen cutoff (the automatic rules, no editor).
    #[arg(long)]
    pub include_pending: bool,
    /// Exit 3 when the drift passes this: the share of the template text the rules found per document
    /// that they no longer find, sum over rules of max(0, bytes matched per document then - now) / sum of
    /// bytes then (0: nothing lost, 1: no rule matches any more).
    #[arg(long, default_value_t = chaff::drift::DEFAULT_MAX_DRIFT)]
    pub max_drift: f64,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// A folder of .txt/.html documents or a .jsonl file of {"id", "text"} records.
    pub corpus: PathBuf,
    #[command(flatten)]
    pub mining: MiningOpts,
    #[command(flatten)]
    pub thresholds: Thresholds,
    /// How many top candidates to list.
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// Print JSON (the histogram, the cutoff and the top candidates) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// A source's corpus, or a folder of sources (the sources table opens first; default sample-corpora).
    /// With --corpus: the rules folder (`chaff tune rules/ --corpus DIR`).
    pub corpus: Option<PathBuf>,
    /// A folder of sources, one folder each: the sources table opens on them, their rules in the folder
    /// given before it (default: rules).
    #[arg(long = "corpus", value_name = "DIR")]
    pub sources: Option<PathBuf>,
    /// The rules file to load and save (default: RULES_DIR/<source>.toml).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Where rules files are (default: rules).
    #[arg(long)]
    pub rules_dir: Option<PathBuf>,
    /// Tokenizer preset for mining in the UI (default: the rules file's, else text; HTML pages are read
    /// through their page view unless `html` asks for their raw markup).
    #[arg(long, value_enum)]
    pub preset: Option<Preset>,
}

impl TuneArgs {
    /// The corpus to open and the rules folder: `tune [CORPUS] [--rules-dir DIR]`, or
    /// `tune [RULES_DIR] --corpus DIR`.
    pub fn paths(&self) -> anyhow::Result<(PathBuf, PathBuf)> {
        let rules = |p: Option<&PathBuf>| p.cloned().unwrap_or_else(|| PathBuf::from("rules"));
        match &self.sources {
            None => Ok((
                self.corpus.clone().unwrap_or_else(|| PathBuf::from("sample-corpora")),
                rules(self.rules_dir.as_ref()),
            )),
            Some(sources) => match (&self.corpus, &self.rules_dir) {
                (Some(a), Some(b)) if a != b => usage!(
                    "the rules folder is given twice ({} and --rules-dir {}): with --corpus, give it once, as \
                     `chaff tune RULES_DIR --corpus DIR`",
                    a.display(),
                    b.display()
                ),
                (a, b) => Ok((sources.clone(), rules(a.as_ref().or(b.as_ref())))),
            },
        }
    }
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Where to write the sources.
    #[arg(long, default_value = "sample-corpora")]
    pub out: PathBuf,
    /// Write a crawl of this many news sites instead (OUT/crawl.warc.gz and OUT/crawl.jsonl).
    #[arg(long, value_name = "HOSTS")]
    pub crawl: Option<usize>,
    /// With --crawl: pages per site.
    #[arg(long, default_value_t = 20, requires = "crawl")]
    pub pages: usize,
    /// With --crawl: also write the sites as a folder of sources (OUT/sources/<source>/), each page beside
    /// its template truth.
    #[arg(long, requires = "crawl")]
    pub folders: bool,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Corpus sizes to mine, in MB, comma-separated (or repeated).
    #[arg(long, value_parser = sizes_mb(), default_value = "10,100")]
    pub sizes: Vec<List<usize>>,
    /// Also run the thesis-scale run (220 MB, ~10,000 documents).
    #[arg(long)]
    pub thesis_scale: bool,
    /// Time the tuning UI's frames and a 5 MB re-mine instead.
    #[arg(long)]
    pub tui: bool,
    /// Time HTML through the page view instead: mining and cleaning the real pages under ROOT (default
    /// ../shared/corpora), and 10 MB against 100 MB of generated minified pages.
    #[arg(long, value_name = "ROOT", num_args = 0..=1, default_missing_value = "../shared/corpora")]
    pub html: Option<std::path::PathBuf>,
    /// Time one decision's impact over a generated source of 1,000 documents instead.
    #[arg(long)]
    pub impact: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalInput {
    /// The naive text of each page (<id>.txt).
    Txt,
    /// The raw HTML (<id>.html), mined with the html preset; what is left is rendered to text.
    Html,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalProtocol {
    /// Mine on all pages of a site, clean the same pages (what the thesis did).
    InSample,
    /// K-fold over a site's pages: mine on the other folds, clean this one (new articles).
    HeldOut,
    /// The folds turned over: mine on one fold, clean the others (an editor who has seen a few pages;
    /// each page is scored once per fold it is cleaned in).
    FewPages,
    /// In-sample and held-out.
    Both,
}

#[derive(Args, Debug)]
pub struct EvalArgs {
    /// A folder of site folders (or one site folder): pages <id>.txt and/or <id>.html, each with its gold
    /// <id>.gold.txt or its template spans <id>.template.json.
    pub root: PathBuf,
    /// Which form of each page to mine and clean: its naive text or its HTML.
    #[arg(long, value_enum, default_value = "txt")]
    pub input: EvalInput,
    /// How pages are split into those mined and those cleaned and scored.
    #[arg(long, value_enum, default_value = "both")]
    pub protocol: EvalProtocol,
    /// Folds of the held-out protocol (at most one page per fold: leave-one-out).
    #[arg(long, default_value_t = 10)]
    pub folds: usize,
    /// Method(s) to evaluate, comma-separated (or repeated), each learning a site from the same training
    /// pages.
    #[arg(long, default_value = "chaff", value_parser = method_names())]
    pub method: Vec<List<chaff::eval::methods::MethodName>>,
    /// Baselines: a fragment is template when in more than this share of the training pages (and in two).
    #[arg(long, default_value_t = 1.0 / 3.0)]
    pub df_threshold: f64,
    /// Also score chaff with the oracle editor: F1 after 0, 5, 10, 20 and all its decisions (accept,
    /// reject, trim, action, mark as template, keep, stage off), each made on the training pages.
    #[arg(long)]
    pub oracle_editor: bool,
    /// With --oracle-editor: fail (exit 1) when a site's F1 after some of its decisions falls below the
    /// site's automatic figure (0 decisions) by more than the flagging tolerance, naming each such site.
    #[arg(long, requires = "oracle_editor")]
    pub fail_below_automatic: bool,
    /// Print JSON (every page's scores included) instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Also print every page's scores.
    #[arg(long)]
    pub pages: bool,
    /// Write what is left of each page to DIR/<protocol>/<site>/<id>.txt, to read what was kept.
    #[arg(long, value_name = "DIR")]
    pub dump: Option<PathBuf>,
    /// Fail (exit 1) when an overall F1 falls more than the file's tolerance below its floor.
    #[arg(long)]
    pub floors: Option<PathBuf>,
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// HTML input: mine and match the raw HTML with the html tokenizer, as `chaff mine --preset html` does
    /// (by default pages are mined and cleaned on their views' text).
    #[arg(long)]
    pub raw_html: bool,
    #[command(flatten)]
    pub seeds: SeedParams,
}

/// Parameters of the seeds' methods.
#[derive(Args, Debug, Clone)]
pub struct SeedParams {
    /// alignment: t, the sample pages of the consensus tree (a power of two; fewer if the site has fewer).
    #[arg(long, default_value_t = 16)]
    pub alignment_pages: usize,
    /// gibson: W, words in a window.
    #[arg(long, default_value_t = 8)]
    pub gibson_window: usize,
    /// gibson: F, fewest times a window is counted in the sample to be template.
    #[arg(long, default_value_t = 3)]
    pub gibson_frequency: usize,
    /// gibson: D, only windows whose hash is 0 modulo D are counted (0: all).
    #[arg(long, default_value_t = 0)]
    pub gibson_density: u64,
    /// gibson: P, pages sampled for counting.
    #[arg(long, default_value_t = 64)]
    pub gibson_pages: usize,
}

/// One `--off` value: stage names, comma-separated.
pub type StageList = List<chaff::clean_settings::Stage>;

/// Every stage named by the `--off` values given, in order.
pub fn stages_off(lists: &[StageList]) -> impl Iterator<Item = chaff::clean_settings::Stage> + '_ {
    list::entries(lists).copied()
}

/// The `--off` values: stage names, comma-separated, each one of the pipeline's stages, which the help lists
/// with their one-line docs, read from the stage list itself so that the help can never miss a stage.
pub(super) fn stage_names() -> impl clap::builder::TypedValueParser<Value = StageList> {
    use chaff::clean_settings::Stage;
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let each = PossibleValuesParser::new(Stage::ALL.iter().map(|s| PossibleValue::new(s.name()).help(s.doc())))
        .map(|name| Stage::from_name(&name).expect("a possible value is a stage's name"));
    comma_list("stage name", each)
}

/// The `--sizes` values: sizes in MB, comma-separated.
fn sizes_mb() -> impl clap::builder::TypedValueParser<Value = List<usize>> {
    comma_list("size", clap::builder::RangedU64ValueParser::<usize>::new())
}

/// The `--method` values: methods, comma-separated, each of the evaluation's registry, which the help
/// lists with their one-line docs.
fn method_names() -> impl clap::builder::TypedValueParser<Value = List<chaff::eval::methods::MethodName>> {
    use chaff::eval::methods::MethodName;
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let each = PossibleValuesParser::new(MethodName::ALL.iter().map(|m| PossibleValue::new(m.name()).help(m.doc())))
        .map(|name| MethodName::parse(&name).expect("a possible value is a method's name"));
    comma_list("method", each)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every argument of every subcommand, as `command sub --arg`, that `--help` lists without a line
    /// saying what it is.
    fn undescribed(cmd: &clap::Command, path: &str) -> Vec<String> {
        let mut out: Vec<String> = (cmd.get_arguments())
            .filter(|a| !a.is_hide_set() && a.get_help().is_none() && a.get_long_help().is_none())
            .map(|a| format!("{path} {}", a.get_long().map_or(a.get_id().to_string(), |l| format!("--{l}"))))
            .collect();
        for sub in cmd.get_subcommands() {
            out.extend(undescribed(sub, &format!("{path} {}", sub.get_name())));
        }
        out
    }

    #[test]
    fn every_argument_of_every_subcommand_has_a_line_of_help() {
        let mut cli = super::Cli::command();
        // the generated `--help` and `--version` are described once built
        cli.build();
        assert_eq!(undescribed(&cli, "chaff"), Vec::<String>::new());
    }
}
