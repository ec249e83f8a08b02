//! `chaff clean`: files or folders to a folder (or in place), JSON Lines on stdin to stdout, or one
//! document on stdin (`-`) to stdout. A bad
//! document or a missing input is reported (file or line named) and skipped; the run goes on and exits
//! 1 at the end. Outputs never replace inputs unless asked (`--in-place`), never each other, and never a
//! file that is not an input; a document is written over itself only when it was read exactly, and every
//! output is written in its input's encoding.

mod explain;
mod one;
mod plan;
mod route;
mod stdin;
mod window;

use std::fs;
use std::mem::ManuallyDrop;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use chaff::atomic::{check_writable, prepare_folder, sync_folder, write_unsynced};
use chaff::cleaning::Cleaner;
use chaff::corpus::{Encoding, read_text_as};
pub(super) use chaff::page::Output;
use chaff::page::{CleanedPage, Page};
use chaff::view::DocKind;

pub(super) use self::plan::Destination;
use super::args::CleanArgs;
use super::output::progress_bar;

pub fn clean(args: CleanArgs) -> Result<ExitCode> {
    if args.rules_dir.is_some() || args.rules.as_os_str().is_empty() {
        return route::clean_routed(&args);
    }
    // the process ends with this command: its rules file and cleaner are left to the exit, not freed
    let file = ManuallyDrop::new(super::load_rules(&args.rules)?);
    let flag = if args.text { Some("--text") } else { args.keep_tags.then_some("--keep-tags") };
    super::mismatch_warnings(&file, &args.rules, &args.inputs, flag)
        .iter()
        .for_each(|w| eprintln!("chaff: warning: {w}"));
    let mut settings = file.clean_settings();
    for s in crate::cli::args::stages_off(&args.off) {
        settings.stages.set(s, false);
    }
    let cleaner = ManuallyDrop::new(
        Cleaner::new(&file, args.include_pending)
            .with_context(|| format!("{}", args.rules.display()))?
            .with_settings(settings),
    );
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
    let how = How { in_place: args.in_place, explain: args.explain, output, encoding: args.encoding };
    if args.inputs.iter().any(|i| i.as_os_str() == "-") {
        if args.inputs.len() > 1 || args.out.is_some() || args.in_place {
            usage!(
                "`-` reads one document on stdin and writes it cleaned to stdout: it stands alone, with no other INPUT, --out or --in-place"
            );
        }
        return one::clean_stdin_document(&cleaner, kind, how);
    }
    if args.inputs.is_empty() {
        if args.out.is_some() || args.in_place {
            usage!(
                "--out and --in-place need INPUT files or folders; without them chaff clean reads JSON Lines on stdin and writes stdout"
            );
        }
        return stdin::clean_jsonl(&cleaner, kind, args.explain, output);
    }
    let dest = match (args.out.as_deref(), args.in_place) {
        (Some(out), _) => Destination::Folder(out),
        (None, true) => Destination::Beside,
        (None, false) => {
            let one = match &args.inputs[..] {
                [file] if file.is_file() => {
                    format!(
                        " (or, to write it to stdout: chaff clean --rules {} - < {})",
                        args.rules.display(),
                        file.display()
                    )
                }
                _ => String::new(),
            };
            usage!("give --out DIR for the cleaned files, or --in-place to replace the documents with them{one}")
        }
    };
    clean_files(&cleaner, kind, &args.inputs, dest, how)
}

fn written(cleaned: &CleanedPage, output: Output) -> String {
    cleaned.write(output)
}

/// How files are cleaned: over their inputs or not, explained or not, which output, which encoding.
#[derive(Clone, Copy, Default)]
pub(super) struct How {
    pub in_place: bool,
    pub explain: bool,
    pub output: Output,
    /// Every input read in this encoding (`--encoding`), instead of finding each one's.
    pub encoding: Option<&'static encoding_rs::Encoding>,
}

pub(super) fn clean_files(
    cleaner: &Cleaner,
    kind: DocKind,
    inputs: &[PathBuf],
    dest: Destination<'_>,
    how: How,
) -> Result<ExitCode> {
    let How { in_place, explain, output, .. } = how;
    let plan = plan::plan(inputs, dest, in_place, output == Output::Text)?;
    let mut failed = plan.failed;
    for dir in &plan.folders {
        prepare_folder(dir).with_context(|| format!("{}: cannot create the output folder", dir.display()))?;
        if let Err(e) = check_writable(dir) {
            let what = match dest {
                Destination::Folder(_) => "make it writable, or choose another --out",
                Destination::Beside => "make it writable, or clean into another folder with --out",
            };
            bail!("{}: cannot write into the output folder ({e}); nothing was cleaned: {what}", dir.display());
        }
    }
    // names that differ only in case are one file where the file system folds case: asked of each folder
    // once it is made, before any document is written
    let folding: Vec<&PathBuf> =
        plan.folders.iter().filter(|dir| chaff::atomic::folds_case(dir).unwrap_or(false)).collect();
    plan::refuse_case_collisions(&plan.jobs, |dir| folding.iter().any(|f| f.as_path() == dir))?;
    let (mut removed, mut total, mut done) = (0, 0, 0);
    let bar = progress_bar(Some(plan.jobs.len() as u64), "files cleaned");
    // Documents stream through a bounded window: read, cleaned and written on every thread, their
    // explanations printed here in input order; memory holds the window's documents, never the corpus.
    let threads = window::threads();
    window::ordered(
        plan.jobs.iter(),
        threads,
        threads * window::PER_THREAD,
        |job| {
            let result = clean_file(cleaner, kind, job, how);
            bar.inc(1);
            result
        },
        |result| {
            match result {
                Ok(Done { removed_bytes, len, lines }) => {
                    total += len;
                    removed += removed_bytes;
                    done += 1;
                    if explain {
                        super::output::write_stdout_as("the explanation", format_args!("{lines}"));
                    }
                }
                Err(e) => {
                    eprintln!("chaff: error: {}; skipped", super::output::one_line(&e));
                    failed += 1;
                }
            }
            ControlFlow::Continue(())
        },
    );
    bar.finish_and_clear();
    for dir in &plan.folders {
        if let Err(e) = sync_folder(dir) {
            eprintln!("chaff: error: {e}: the cleaned files may not all be on disk; run again");
            failed += 1;
        }
    }
    let (t, r) = (total, removed);
    let into = match dest {
        Destination::Folder(out) => format!("into {}", out.display()),
        Destination::Beside => "in place".to_string(),
    };
    eprintln!(
        "cleaned {done} document(s) {into}: {:.1}% of {} bytes removed",
        if t > 0 { 100.0 * r as f64 / t as f64 } else { 0.0 },
        t
    );
    if failed > 0 {
        eprintln!("chaff: {failed} input(s) failed; see the errors above");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// A file cleaned: the bytes it lost, its length, and its explanation's lines (empty unless asked).
struct Done {
    removed_bytes: usize,
    len: usize,
    lines: String,
}

/// Reads, cleans and writes one file, and explains it in the same run of the stages when asked.
fn clean_file(cleaner: &Cleaner, kind: DocKind, job: &plan::Job, how: How) -> Result<Done> {
    let path = &job.input;
    let bytes = fs::read(path).with_context(|| format!("{}", path.display()))?;
    let (bytes, done) = clean_bytes(cleaner, kind, path, bytes, how, job.replaces_input)?;
    // Outputs can be made again: no fsync each; the folder is synced once at the end.
    write_unsynced(&job.output, &bytes)?;
    Ok(done)
}

/// The document `path` holds (its `bytes`), cleaned: the bytes to write, in its encoding, and what was
/// done. `replaces_input`: they are to be written over it, which needs it read exactly.
fn clean_bytes(
    cleaner: &Cleaner,
    kind: DocKind,
    path: &Path,
    bytes: Vec<u8>,
    how: How,
    replaces_input: bool,
) -> Result<(Vec<u8>, Done)> {
    let How { explain, output, encoding, .. } = how;
    let Some(decoded) = read_text_as(bytes, encoding) else {
        bail!("{}: binary file (NUL bytes): neither UTF-8 nor UTF-16 with a byte order mark", path.display());
    };
    if !decoded.exact() {
        if replaces_input {
            // Writing the cleaned text over the file would put U+FFFD where its bytes were.
            bail!(
                "{}: not read exactly as {} ({}), so --in-place would not write its bytes back; left as it is: name its encoding with --encoding, convert it to UTF-8 first (iconv -f ITS-ENCODING -t utf-8), or clean it with --out into another folder",
                path.display(),
                decoded.encoding.name(),
                decoded.inexact_message()
            );
        }
        eprintln!("chaff: warning: {}: {}", path.display(), decoded.inexact_message());
    }
    let page = Page::new(&decoded.text, kind);
    // explained in the same run of the stages that cleans it
    let cleaned = if explain { cleaner.clean_page_explained(page) } else { cleaner.clean_page(page) };
    // Written as it was read: UTF-16 stays UTF-16, a byte order mark stays, a page stays in its declared
    // encoding. A legacy page's reader text is a new document with no declaration: UTF-8.
    let out = written(&cleaned, output);
    let bytes = match decoded.encoding {
        Encoding::Legacy(_) if output == Output::Text => out.into_bytes(),
        _ => decoded.encode(out),
    };
    // Offsets are the file's bytes: past a byte order mark, over UTF-16's and replaced bytes.
    let lines = match explain {
        true => explain::explain_lines(path, cleaner, &cleaned, output, &|i| decoded.file_offset(i)),
        false => String::new(),
    };
    Ok((bytes, Done { removed_bytes: cleaned.removed_bytes(), len: decoded.text.len(), lines }))
}
