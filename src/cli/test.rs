//! `chaff test --rules FILE CORPUS`: continuous integration for a rules file. Every verified page (see
//! [`chaff::verified`]) must get its verified text from the rules: exit 0 when each does, 1 with a word
//! diff of each page that does not, 2 on bad input (a rules or verified file that cannot be read, a
//! verified page the corpus lacks or whose text changed). `--accept IDS` / `--accept-all` write the current
//! output as verified.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use chaff::verified::{Outcome, Verified, accept, check, path_for};
use clap::Args;
use serde_json::json;

use super::args::{List, comma_list};
use super::diff::{diff_line, load};

#[derive(Args, Debug)]
pub struct TestArgs {
    /// The source's rules file; its verified pages are beside it (`<source>.verified.toml`).
    #[arg(long)]
    pub rules: PathBuf,
    /// The source's documents: a folder of .txt/.html files or a .jsonl file.
    pub corpus: PathBuf,
    /// The verified pages (default: beside the rules file, `<source>.verified.toml`).
    #[arg(long)]
    pub verified: Option<PathBuf>,
    /// Apply the pending rules at or above the chosen cutoff too (the automatic rules).
    #[arg(long)]
    pub include_pending: bool,
    /// Mark these documents (ids, comma-separated or repeated) verified with the rules' current output,
    /// then test.
    #[arg(long, value_name = "IDS", value_parser = comma_list("id", clap::builder::StringValueParser::new()))]
    pub accept: Option<Vec<List<String>>>,
    /// Mark every document of the corpus verified with the rules' current output.
    #[arg(long, conflicts_with = "accept")]
    pub accept_all: bool,
    /// Print JSON instead of a report.
    #[arg(long)]
    pub json: bool,
}

/// Exit status of bad input: unreadable files, verified pages the corpus lacks or that changed.
const BAD_INPUT: u8 = 2;
const FAILED: u8 = 1;

pub fn test(args: TestArgs) -> Result<ExitCode> {
    match run(args) {
        Ok(code) => Ok(code),
        Err(e) => {
            eprintln!("chaff: error: {}", super::output::one_line(&e));
            Ok(ExitCode::from(BAD_INPUT))
        }
    }
}

/// An id of several documents (a JSON Lines id given twice, file names that are not UTF-8 read alike)
/// is refused when it is to be accepted: one page would be verified in the others' place.
fn refuse_shared_ids(docs: &[chaff::corpus::Document], ids: Option<&[String]>, corpus: &Path) -> Result<()> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for d in docs {
        *count.entry(d.id.as_str()).or_default() += 1;
    }
    let mut shared: Vec<&str> = count
        .into_iter()
        .filter(|&(id, n)| n > 1 && ids.is_none_or(|ids| ids.iter().any(|i| i == id)))
        .map(|(id, _)| id)
        .collect();
    if shared.is_empty() {
        return Ok(());
    }
    shared.sort_unstable();
    anyhow::bail!(
        "{}: id(s) {} name more than one document each, so a verified page could not be told from the others: \
         nothing written; give each document its own id (rename the files, or fix the JSON Lines ids)",
        corpus.display(),
        shared.join(", ")
    );
}

/// Accepting rewrites the verified pages, which would drop keys chaff does not read (and the intent of
/// whoever wrote them), so those are an error here, as `chaff mine` treats a rules file's.
fn refuse_to_drop_keys(path: &Path, warnings: &[String]) -> Result<()> {
    if !warnings.is_empty() {
        anyhow::bail!(
            "{}: {} unused key(s) (above); accepting would drop them: fix or remove them, then accept again \
             (nothing was written)",
            path.display(),
            warnings.len()
        );
    }
    Ok(())
}

fn run(args: TestArgs) -> Result<ExitCode> {
    let file = super::load_rules(&args.rules)?;
    let path = args.verified.clone().unwrap_or_else(|| path_for(&args.rules));
    let (mut verified, warnings) = Verified::load_checked(&path)?;
    for w in &warnings {
        eprintln!("chaff: warning: {w}");
    }
    let docs = load(&args.corpus)?;
    if args.accept.is_some() || args.accept_all {
        refuse_to_drop_keys(&path, &warnings)?;
        let listed: Option<Vec<String>> = args.accept.as_deref().map(|l| super::args::entries(l).cloned().collect());
        let ids = if args.accept_all { None } else { listed.as_deref() };
        refuse_shared_ids(&docs, ids, &args.corpus)?;
        let mut accepted = Verified::default();
        let missing = accept(&file, &mut accepted, &docs, ids, args.include_pending)?;
        if !missing.is_empty() {
            anyhow::bail!(
                "{}: no document with id {} (ids are file names less their extension, or JSON Lines ids): nothing written",
                args.corpus.display(),
                missing.join(", ")
            );
        }
        // another run may have verified pages since the file was read: they stay
        verified = Verified::update(
            &path,
            chaff::merge::LOCK_TIMEOUT,
            |_| {},
            |on_disk| {
                on_disk.source = accepted.source;
                for page in accepted.pages {
                    on_disk.set(page);
                }
            },
        )?;
        eprintln!("chaff: {}: {} verified page(s)", path.display(), verified.pages.len());
    }
    if verified.pages.is_empty() {
        anyhow::bail!(
            "{}: no verified pages: mark pages verified first (chaff test --rules {} --accept ID,… CORPUS)",
            path.display(),
            args.rules.display()
        );
    }
    let outcomes = check(&file, &verified, &docs, args.include_pending)?;
    let count = |f: fn(&Outcome) -> bool| outcomes.iter().filter(|(_, o)| f(o)).count();
    let failed = count(|o| matches!(o, Outcome::Failed { .. }));
    let bad = count(|o| matches!(o, Outcome::Missing | Outcome::InputChanged));
    let passed = count(|o| matches!(o, Outcome::Passed));
    if args.json {
        let v = json!({ "rules": args.rules.display().to_string(), "verified": path.display().to_string(),
                        "passed": passed, "failed": failed, "bad": bad,
                        "pages": outcomes.iter().map(|(id, o)| json!({ "id": id, "outcome": o })).collect::<Vec<_>>() });
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        for (id, o) in &outcomes {
            match o {
                Outcome::Passed => {}
                Outcome::Missing => eprintln!(
                    "chaff: error: {}: verified page {id} is not in {}: give the corpus it was verified on, or drop its [[page]] table",
                    path.display(),
                    args.corpus.display()
                ),
                Outcome::InputChanged => eprintln!(
                    "chaff: error: {}: page {id} of {} is not the page that was verified (its text changed): verify it again (--accept {id})",
                    path.display(),
                    args.corpus.display()
                ),
                Outcome::Failed { text, removed, given_back } => {
                    let words = |rs: &[chaff::impact::WordRange]| rs.iter().map(|r| r.words).sum::<usize>();
                    outln!(
                        "FAIL {id}: the rules remove {} word(s) the verified text keeps (-) and keep {} it removes (+)",
                        words(removed),
                        words(given_back)
                    );
                    let mut runs: Vec<(char, &chaff::impact::WordRange)> =
                        removed.iter().map(|r| ('-', r)).chain(given_back.iter().map(|r| ('+', r))).collect();
                    runs.sort_by_key(|(_, r)| r.start);
                    for (sign, r) in runs {
                        outln!("{}", diff_line(text, sign, r));
                    }
                }
            }
        }
        outln!(
            "{}: {passed} of {} verified page(s) pass, {failed} fail, {bad} missing or changed",
            args.rules.display(),
            outcomes.len()
        );
    }
    Ok(if bad > 0 {
        ExitCode::from(BAD_INPUT)
    } else if failed > 0 {
        ExitCode::from(FAILED)
    } else {
        ExitCode::SUCCESS
    })
}
