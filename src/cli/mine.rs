//! `chaff mine` and `chaff stats`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use std::sync::Arc;

use anyhow::{Context, Result};
use chaff::corpus::{Corpus, Warning};
use chaff::draft::Draft;
use chaff::mining::{Mining, mine as mine_corpus};
use chaff::rules::{MiningParams, RulesFile, rules_path};
use chaff::settings::Settings;
use chaff::symbol::display;
use serde_json::json;

pub(super) mod crawl;

use super::args::{MineArgs, MiningOpts, StatsArgs};
use super::output::{StageSpinner, one_line};
use super::{sources_under, tokenizer_of};

/// The settings a source is mined with: its rules file's, if it has one, else chaff's automatic
/// configuration, with what the command line gives over them.
pub(crate) fn settings_of(args: &MineArgs, previous: Option<&RulesFile>) -> Settings {
    let mut settings = Settings::of_file(previous);
    read_with(&args.mining, &mut settings);
    args.settings.apply(&mut settings);
    settings
}

/// How documents are read for mining (`--preset`, `--sample-mb`), given over `settings`.
fn read_with(opts: &MiningOpts, settings: &mut Settings) {
    if let Some(preset) = opts.preset {
        settings.mining.tokenizer = tokenizer_of(preset);
    }
    if let Some(mb) = opts.sample_mb {
        settings.mining.sample_bytes = mb.max(1) << 20;
    }
}

/// The second-level filter over sources mined together (`--all`): flags their idioms (none with
/// `--no-idioms`). Returns how many strings were flagged.
pub(crate) fn flag_idioms(minings: &mut [Mining], args: &MineArgs) -> usize {
    match settings_of(args, None).automatic.idioms {
        Some(n) => chaff::cross_source::flag_idioms(minings, n),
        None => 0,
    }
}

struct Mined {
    corpus: Corpus,
    mining: Mining,
    params: MiningParams,
    /// The rules file as read before mining, and its text: what the save merges against.
    previous: Option<(RulesFile, String)>,
    path: PathBuf,
    warnings: Vec<String>,
    /// Documents that could not be read: skipped, and the run fails at its end.
    unreadable: usize,
    /// Binary files (NUL bytes): skipped, said in the run's end too, failing nothing.
    binary: usize,
}

/// The source's rules file, if it has one, and its text. Keys chaff does not read (a misspelled
/// `stauts = "accepted"`) are an error here: the file mine writes would drop them, and the editor's
/// intent with them.
fn load_previous(path: &Path) -> Result<Option<(RulesFile, String)>> {
    if !path.exists() {
        return Ok(None);
    }
    let unusable = "the existing rules file is unusable; fix it or move it away before re-mining";
    let text = chaff::rules::read_text(path).context(unusable)?;
    let (file, warnings) = RulesFile::parse_checked(&text, path).context(unusable)?;
    if !warnings.is_empty() {
        for w in &warnings {
            eprintln!("chaff: warning: {w}");
        }
        anyhow::bail!(
            "{}: {} unused key(s) (above); re-mining would drop them: fix or remove them, then mine again \
             (nothing was written)",
            path.display(),
            warnings.len()
        );
    }
    Ok(Some((file, text)))
}

fn mine_one(corpus_path: &Path, source: Option<&str>, args: &MineArgs) -> Result<Mined> {
    super::no_such_corpus(corpus_path)?;
    if source.is_none() {
        chaff::corpus::source_name_checked(corpus_path)
            .map_err(|e| anyhow::anyhow!("{e} (give one with --source NAME)"))?;
    }
    let mut corpus = Corpus::load(corpus_path)?;
    if let Some(name) = source {
        corpus.name = name.to_string();
    }
    // a name taken from the folder: say how to give another (a name given with --source was checked already)
    chaff::rules::check_source_name(&corpus.name)
        .map_err(|e| anyhow::anyhow!("{e} (give one with --source NAME, or rename the folder)"))?;
    let path = rules_path(&args.rules_dir, &corpus.name);
    let previous = load_previous(&path)?;
    if let Some((file, _)) = &previous
        && file.source != corpus.name
        && !args.take_over
    {
        // the file may be another source's under a copied name or a link: mining over it loses its rules
        anyhow::bail!(
            "{}: holds the rules of source `{}`, not of `{}`, the source being mined; nothing was written: mine \
             `{}`'s documents into it, give this source its own file (--source NAME or --rules-dir DIR), or \
             --take-over to replace its rules with `{}`'s",
            path.display(),
            file.source,
            corpus.name,
            file.source,
            corpus.name
        );
    }
    let mut config = settings_of(args, previous.as_ref().map(|p| &p.0)).mining;
    let recorded = previous.as_ref().map(|p| p.0.input());
    let corpus = chaff::automatic::read_as_kind(corpus, recorded, Some(corpus_path), &mut config);
    // mined here, its draft made once every source is mined (`--all` flags idioms across them in
    // between)
    let spinner = StageSpinner::new(&corpus.name);
    let mining = mine_corpus(&corpus, &config, &spinner)?;
    spinner.finish();
    let warnings = corpus.warnings.iter().map(|w| w.to_string()).collect();
    let unreadable = corpus.warnings.iter().filter(|w| matches!(w, Warning::Unreadable { .. })).count();
    let binary = corpus.warnings.iter().filter(|w| matches!(w, Warning::Binary { .. })).count();
    Ok(Mined { corpus, mining, params: MiningParams::of(&config), previous, path, warnings, unreadable, binary })
}

/// The source folders of `--all` whose names are another's (a link to a folder is named as the folder it
/// leads to): each with its name and the others. Mined, they would write one rules file, each over
/// another's decisions.
fn sharing_a_rules_file(corpora: &[PathBuf]) -> HashMap<PathBuf, (String, Vec<PathBuf>)> {
    let mut by_name: HashMap<String, Vec<&PathBuf>> = HashMap::new();
    for path in corpora {
        // a name that is no name is reported when the folder is mined
        if let Ok(name) = chaff::corpus::source_name_checked(path) {
            by_name.entry(name).or_default().push(path);
        }
    }
    let mut sharing = HashMap::new();
    for (name, paths) in by_name.into_iter().filter(|(_, p)| p.len() > 1) {
        for path in &paths {
            let others = paths.iter().filter(|p| *p != path).map(|p| p.to_path_buf()).collect();
            sharing.insert(path.to_path_buf(), (name.clone(), others));
        }
    }
    sharing
}

/// A rules folder that is not a folder fails now, not after mining.
fn check_rules_dir(dir: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!("--rules-dir {}: not a folder (rules files are written into it; give a folder)", dir.display());
    }
    Ok(())
}

/// A source that failed: reported now, the run goes on and fails at its end.
fn report_skipped(what: &Path, err: &anyhow::Error) {
    eprintln!("chaff: error: {}: {}; skipped", what.display(), one_line(err));
}

pub fn mine(args: MineArgs) -> Result<ExitCode> {
    check_rules_dir(&args.rules_dir)?;
    if let Some(name) = &args.source {
        chaff::rules::check_source_name(name)?;
    }
    super::no_such_corpus(&args.corpus)?;
    if args.all && !args.corpus.is_dir() {
        // a crawl: one file of many sources
        return crawl::mine_crawl(&args);
    }
    let corpora: Vec<PathBuf> = if args.all { sources_under(&args.corpus)? } else { vec![args.corpus.clone()] };
    let mut failed = 0;
    let mut mined = Vec::new();
    let sharing = if args.all { sharing_a_rules_file(&corpora) } else { HashMap::new() };
    for path in &corpora {
        if let Some((name, others)) = sharing.get(path) {
            let others: Vec<String> = others.iter().map(|p| p.display().to_string()).collect();
            eprintln!(
                "chaff: error: {}: source `{name}`, as {} is too: both would be mined into {}; skipped (rename \
                 one, or mine each alone with --source NAME)",
                path.display(),
                others.join(", "),
                rules_path(&args.rules_dir, name).display()
            );
            failed += 1;
            continue;
        }
        match mine_one(path, args.source.as_deref(), &args) {
            Ok(m) => mined.push(m),
            // one bad source does not stop the others
            Err(e) if args.all => {
                report_skipped(path, &e);
                failed += 1;
            }
            Err(e) => return Err(e),
        }
    }
    let flagged = if args.all {
        let mut minings: Vec<Mining> = mined.iter().map(|m| m.mining.clone()).collect();
        let n = flag_idioms(&mut minings, &args);
        for (m, flagged) in mined.iter_mut().zip(minings) {
            m.mining = flagged;
        }
        n
    } else {
        0
    };
    let mut summaries = Vec::new();
    // with --all, a dataset's folders often all hold pages in two forms: said once, not once a folder
    let mut two_forms: Vec<&Warning> = Vec::new();
    for m in &mined {
        for w in &m.corpus.warnings {
            match w {
                Warning::SameStems { .. } if args.all => two_forms.push(w),
                _ => eprintln!("chaff: warning: {w}"),
            }
        }
        match write_rules(m, &args) {
            Ok(file) if args.json => summaries.push(summary_json(&m.mining, &file, Some(&m.path), &m.warnings, 0)),
            Ok(file) => {
                let cuts = file.rules.iter().filter(|r| r.action != chaff::rules::Action::Remove).count();
                let clean = file.clean_settings();
                out!("{}", summary_text(&m.mining, &file, 10));
                outln!(
                    "  frame cuts: {cuts}; line-boundary filter {}; short runs under {} words removed; islands under {} words removed",
                    if file.line_boundary() { "on" } else { "off" },
                    clean.short_runs.words,
                    clean.islands.words
                );
                let languages = date_languages(&file);
                if !languages.is_empty() {
                    outln!("  dates read in English and {} (their month and weekday names)", languages.join(", "));
                }
                outln!("  rules file: {} ({} rules)\n", m.path.display(), file.rules.len());
            }
            Err(e) if args.all => {
                report_skipped(&m.path, &e);
                failed += 1;
            }
            Err(e) => return Err(e),
        }
    }
    report_two_forms(&two_forms);
    if args.json {
        let out = if args.all {
            json!({ "sources": summaries, "idioms_flagged": flagged, "failed": failed })
        } else {
            summaries.pop().expect("one source")
        };
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else if args.all {
        outln!("second-level filter: {flagged} candidate(s) flagged as idioms across {} sources", mined.len());
    }
    if failed > 0 {
        eprintln!(
            "chaff: error: {failed} of {} source(s) failed and were skipped (see above); the others' rules files are written",
            corpora.len()
        );
        return Ok(ExitCode::FAILURE);
    }
    let unreadable: usize = mined.iter().map(|m| m.unreadable).sum();
    if unreadable > 0 {
        // each file skipped was warned about: the count says them all
        let binary: usize = mined.iter().map(|m| m.binary).sum();
        eprintln!(
            "chaff: error: {unreadable} document(s) could not be read{} and were skipped (see the warnings above); the rules were mined from the rest",
            if binary > 0 { format!(" and {binary} binary file(s) were not text") } else { String::new() }
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The folders whose pages come in two forms, in one warning: how many, and the first in full.
fn report_two_forms(two_forms: &[&Warning]) {
    match two_forms {
        [] => {}
        [one] => eprintln!("chaff: warning: {one}"),
        [first, ..] => {
            let pages: usize =
                two_forms.iter().map(|w| if let Warning::SameStems { stems, .. } = w { *stems } else { 0 }).sum();
            eprintln!(
                "chaff: warning: {} source folders hold pages in two forms ({pages} pages); the first: {first}",
                two_forms.len()
            );
        }
    }
}

/// The draft of a mined source (see [`Draft::of_mining`]: the new mining taken into its rules file as the
/// tuning UI takes one in, or the automatic rules of a new source), saved merged with any decisions saved
/// on disk since mining began.
fn write_rules(m: &Mined, args: &MineArgs) -> Result<RulesFile> {
    let previous = m.previous.as_ref().map(|p| &p.0);
    let mut settings = settings_of(args, previous);
    // the parameters it was mined with
    m.params.apply(&mut settings.mining);
    let draft = Draft::of_mining(Arc::new(m.corpus.clone()), m.mining.clone(), previous, &settings)
        .with_context(|| format!("{}: the automatic rules", m.path.display()))?;
    let timeout = std::time::Duration::from_secs(args.lock_timeout);
    let saved = draft.save_mined(&m.path, m.previous.as_ref().map(|p| p.1.as_str()), timeout, |holder| {
        eprintln!(
            "chaff: waiting for the lock on {} held by {holder}… (at most {} s; --lock-timeout SECS)",
            m.path.display(),
            args.lock_timeout
        )
    })?;
    if !saved.report.is_empty() {
        eprintln!("chaff: warning: {}", saved.report);
    }
    Ok(saved.file)
}

pub fn stats(args: StatsArgs) -> Result<ExitCode> {
    super::no_such_corpus(&args.corpus)?;
    let corpus = Corpus::load(&args.corpus)?;
    for w in &corpus.warnings {
        eprintln!("chaff: warning: {w}");
    }
    let mut settings = Settings::default();
    read_with(&args.mining, &mut settings);
    let t = &args.thresholds;
    settings.mining.min_tokens = t.min_tokens.unwrap_or(settings.mining.min_tokens);
    settings.mining.min_df = t.min_df.unwrap_or(settings.mining.min_df);
    settings.mining.max_tf_per_df = t.max_tf_per_df.or(settings.mining.max_tf_per_df);
    let mut config = settings.mining;
    let corpus = chaff::automatic::read_as_kind(corpus, None, Some(&args.corpus), &mut config);
    let spinner = StageSpinner::new(&corpus.name);
    let mining = mine_corpus(&corpus, &config, &spinner)?;
    spinner.finish();
    let file = chaff::merge::from_mining(&mining, MiningParams::of(&config), None);
    if args.json {
        let warnings: Vec<String> = corpus.warnings.iter().map(|w| w.to_string()).collect();
        outln!("{}", serde_json::to_string_pretty(&summary_json(&mining, &file, None, &warnings, args.top))?);
    } else {
        out!("{}", summary_text(&mining, &file, args.top));
    }
    Ok(ExitCode::SUCCESS)
}

fn summary_text(m: &Mining, file: &RulesFile, top: usize) -> String {
    let mut out = format!(
        "{}: {} documents{}, {} tokens, {} maximal strings, {} candidates at or above the auto cutoff {}%\n",
        m.source,
        m.documents,
        if m.sampled_documents < m.documents {
            format!(" ({} mined, all counted)", m.sampled_documents)
        } else {
            String::new()
        },
        m.tokens,
        m.histogram.total(),
        m.candidates(m.auto_cutoff).count(),
        m.auto_cutoff,
    );
    out.push_str(&m.histogram.render_text(8, m.auto_cutoff, file.cutoff.chosen));
    if top > 0 {
        out.push_str("  top candidates (df, tf, tokens, text):\n");
        for s in m.candidates(file.cutoff.chosen).take(top) {
            let text = display(&s.symbols);
            let short: String = text.chars().take(90).collect();
            let flag = if s.idiom { " [idiom]" } else { "" };
            out.push_str(&format!(
                "  {:>5} {:>6} {:>4}  {}{}{}\n",
                s.df,
                s.tf,
                s.symbols.len(),
                short,
                if short.len() < text.len() { "…" } else { "" },
                flag
            ));
        }
    }
    out
}

/// The languages besides English whose month and weekday names the source's patterns read.
fn date_languages(file: &RulesFile) -> Vec<&'static str> {
    chaff::mutable::MutableSet::new(file.mutable.clone())
        .map(|set| chaff::mutable::date_names::languages_read(&set))
        .unwrap_or_default()
}

fn summary_json(
    m: &Mining,
    file: &RulesFile,
    path: Option<&Path>,
    warnings: &[String],
    top: usize,
) -> serde_json::Value {
    let timings: serde_json::Map<String, serde_json::Value> =
        m.timings.iter().map(|(s, d)| (s.name().to_string(), json!(d.as_secs_f64() * 1000.0))).collect();
    let mut v = json!({
        "source": m.source,
        "documents": m.documents,
        "sampled_documents": m.sampled_documents,
        "bytes": m.bytes,
        "tokens": m.tokens,
        "maximal_strings": m.histogram.total(),
        "auto_cutoff": m.auto_cutoff,
        "chosen_cutoff": file.cutoff.chosen,
        "candidates": m.candidates(m.auto_cutoff).count(),
        "histogram": m.histogram.counts,
        "rules": file.rules.len(),
        "date_languages": date_languages(file),
        "warnings": warnings,
        "timings_ms": timings,
    });
    if let Some(p) = path {
        v["rules_file"] = json!(p.display().to_string());
    }
    if top > 0 {
        v["top"] = json!(m.candidates(file.cutoff.chosen).take(top).collect::<Vec<_>>());
    }
    v
}
