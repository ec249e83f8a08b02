//! `chaff clean`: files or folders to a folder (or in place), or JSON Lines on stdin to stdout. A bad
//! document or a missing input is reported (file or line named) and skipped; the run goes on and exits
//! 1 at the end. Outputs never replace inputs unless asked (`--in-place`), and never each other.

mod explain;
mod plan;
mod stdin;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, bail};
use chaff::atomic::{prepare_folder, sync_folder, write_unsynced};
use chaff::cleaning::Cleaner;
use chaff::corpus::decode;
use chaff::page::{CleanedPage, Page};
use chaff::view::DocKind;
use rayon::prelude::*;

pub(super) use self::plan::Destination;
use super::args::CleanArgs;
use super::output::progress_bar;

pub fn clean(args: CleanArgs) -> Result<ExitCode> {
    let file = super::load_rules(&args.rules)?;
    super::mismatch_warnings(&file, &args.rules, &args.inputs).iter().for_each(|w| eprintln!("chaff: warning: {w}"));
    let mut settings = file.clean_settings();
    for s in &args.off {
        settings.stages.set(*s, false);
    }
    let cleaner = Cleaner::new(&file, args.include_pending)
        .with_context(|| format!("{}", args.rules.display()))?
        .with_settings(settings);
    if cleaner.is_empty() {
        eprintln!(
            "chaff: warning: {}: no accepted rules{}; documents pass through unchanged (accept rules with `chaff tune`, or add --include-pending)",
            args.rules.display(),
            if args.include_pending { " or pending rules above the cutoff" } else { "" }
        );
    }
    let kind = file.input();
    let html = kind == DocKind::Html;
    let output = match (args.text, args.keep_tags) {
        (true, _) if html => Output::Text,
        (_, true) if html => Output::KeepTags,
        _ => Output::Cleaned,
    };
    if args.inputs.is_empty() {
        if args.out.is_some() || args.in_place {
            bail!(
                "--out and --in-place need INPUT files or folders; without them chaff clean reads JSON Lines on stdin and writes stdout"
            );
        }
        return stdin::clean_jsonl(&cleaner, kind, args.explain, output);
    }
    let dest = match (args.out.as_deref(), args.in_place) {
        (Some(out), _) => Destination::Folder(out),
        (None, true) => Destination::Beside,
        (None, false) => bail!(
            "give --out DIR for the cleaned files, or --in-place to replace the documents with them (or no INPUT, to clean JSON Lines from stdin to stdout)"
        ),
    };
    clean_files(&cleaner, kind, &args.inputs, dest, args.in_place, args.explain, output)
}

/// What is written for a cleaned document.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Output {
    /// The document without the removed spans.
    Cleaned,
    /// HTML: without the text of the removed spans; their tags stay (`--keep-tags`).
    KeepTags,
    /// HTML: the text a reader sees of what is left (`--text`).
    Text,
}

fn written(cleaned: &CleanedPage, output: Output) -> String {
    match output {
        Output::Cleaned => cleaned.cleaned(),
        Output::KeepTags => cleaned.keep_tags(),
        Output::Text => cleaned.text(),
    }
}

pub(super) fn clean_files(
    cleaner: &Cleaner,
    kind: DocKind,
    inputs: &[PathBuf],
    dest: Destination<'_>,
    in_place: bool,
    explain: bool,
    output: Output,
) -> Result<ExitCode> {
    let plan = plan::plan(inputs, dest, in_place, output == Output::Text)?;
    let failed = AtomicUsize::new(plan.failed);
    for dir in &plan.folders {
        prepare_folder(dir).with_context(|| format!("{}: cannot create the output folder", dir.display()))?;
    }
    let removed = AtomicUsize::new(0);
    let total = AtomicUsize::new(0);
    let bar = progress_bar(Some(plan.jobs.len() as u64), "files cleaned");
    let results: Vec<Option<(&Path, usize, String)>> = plan
        .jobs
        .par_iter()
        .map(|job| {
            bar.inc(1);
            let path = &job.input;
            let run = || -> Result<Option<(usize, String)>> {
                let bytes = fs::read(path).with_context(|| format!("{}", path.display()))?;
                let Some((text, replaced)) = decode(bytes) else {
                    eprintln!("chaff: warning: {}: binary file (NUL bytes), skipped", path.display());
                    return Ok(None);
                };
                if replaced > 0 {
                    eprintln!(
                        "chaff: warning: {}: {replaced} invalid UTF-8 sequence(s) replaced with U+FFFD",
                        path.display()
                    );
                }
                let cleaned = cleaner.clean_page(Page::new(&text, kind));
                // Outputs can be made again: no fsync each; the folder is synced once at the end.
                write_unsynced(&job.output, written(&cleaned, output).as_bytes())?;
                let removed = cleaned.removed_bytes();
                Ok(Some((removed, text)))
            };
            match run() {
                Ok(Some((removed_bytes, text))) => {
                    total.fetch_add(text.len(), Ordering::Relaxed);
                    removed.fetch_add(removed_bytes, Ordering::Relaxed);
                    Some((path.as_path(), removed_bytes, text))
                }
                Ok(None) => None,
                Err(e) => {
                    eprintln!("chaff: error: {}; skipped", super::output::one_line(&e));
                    failed.fetch_add(1, Ordering::Relaxed);
                    None
                }
            }
        })
        .collect();
    bar.finish_and_clear();
    for dir in &plan.folders {
        if let Err(e) = sync_folder(dir) {
            eprintln!("chaff: error: {e}: the cleaned files may not all be on disk; run again");
            failed.fetch_add(1, Ordering::Relaxed);
        }
    }
    let done = results.iter().flatten().count();
    if explain {
        for (path, _, text) in results.iter().flatten() {
            let page = Page::new(text, kind);
            out!("{}", explain::explain_lines(path, cleaner, &page, &cleaner.explain_page(&page)));
        }
    }
    let (t, r) = (total.load(Ordering::Relaxed), removed.load(Ordering::Relaxed));
    let into = match dest {
        Destination::Folder(out) => format!("into {}", out.display()),
        Destination::Beside => "in place".to_string(),
    };
    eprintln!(
        "cleaned {done} document(s) {into}: {:.1}% of {} bytes removed",
        if t > 0 { 100.0 * r as f64 / t as f64 } else { 0.0 },
        t
    );
    let failed = failed.load(Ordering::Relaxed);
    if failed > 0 {
        eprintln!("chaff: {failed} input(s) failed; see the errors above");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
