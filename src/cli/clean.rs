//! `chaff clean`: files or folders to a folder, or JSON Lines on stdin to stdout. A bad document is
//! reported (file or line named) and skipped; the run goes on and exits 1 at the end.

use std::borrow::Cow;
use std::fs;
use std::io::{BufRead, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, bail};
use chaff::atomic::write_atomic;
use chaff::cleaning::{Cleaned, Cleaner};
use chaff::corpus::{LoadOptions, decode, parse_record};
use chaff::render::{html_text, remove_text_keep_tags};
use chaff::rules::RulesFile;
use chaff::tokens::Tokenizer;
use rayon::prelude::*;
use serde_json::json;

use super::args::CleanArgs;
use super::output::progress_bar;

pub fn clean(args: CleanArgs) -> Result<ExitCode> {
    let file = RulesFile::load(&args.rules)?;
    let cleaner = Cleaner::new(&file, args.include_pending).with_context(|| format!("{}", args.rules.display()))?;
    if cleaner.is_empty() {
        eprintln!(
            "chaff: warning: {}: no accepted rules{}; documents pass through unchanged (accept rules with `chaff tune`, or add --include-pending)",
            args.rules.display(),
            if args.include_pending { " or pending rules above the cutoff" } else { "" }
        );
    }
    let html = file.tokenizer == Tokenizer::Html;
    let output = match (args.text, args.keep_tags) {
        (true, _) if html => Output::Text,
        (_, true) if html => Output::KeepTags,
        _ => Output::Cleaned,
    };
    if args.inputs.is_empty() {
        if args.out.is_some() {
            bail!(
                "--out needs INPUT files or folders; without them chaff clean reads JSON Lines on stdin and writes stdout"
            );
        }
        return clean_jsonl(&cleaner, args.explain, output);
    }
    let Some(out) = args.out.as_deref() else {
        bail!("give --out DIR for the cleaned files (or no INPUT, to clean JSON Lines from stdin to stdout)");
    };
    clean_files(&cleaner, &args.inputs, out, args.explain, output)
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

fn written<'a>(text: &str, cleaned: &'a Cleaned, output: Output) -> Cow<'a, str> {
    let removed = || -> Vec<(usize, usize)> { cleaned.spans.iter().map(|s| (s.start, s.end)).collect() };
    match output {
        Output::Cleaned => Cow::Borrowed(&cleaned.text),
        Output::KeepTags => Cow::Owned(remove_text_keep_tags(text, &removed())),
        Output::Text => Cow::Owned(html_text(text, &removed())),
    }
}

fn input_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let opts = LoadOptions::default();
    let mut files = Vec::new();
    for input in inputs {
        let meta = fs::metadata(input).with_context(|| format!("{}", input.display()))?;
        if meta.is_dir() {
            let mut found: Vec<PathBuf> = fs::read_dir(input)
                .with_context(|| format!("{}", input.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file() && {
                        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                        !name.starts_with('.')
                            && !name.ends_with(".gold.txt")
                            && !name.contains(".template.")
                            && p.extension()
                                .and_then(|e| e.to_str())
                                .is_some_and(|e| opts.extensions.iter().any(|x| x == e))
                    }
                })
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

pub(super) fn clean_files(cleaner: &Cleaner, inputs: &[PathBuf], out: &Path, explain: bool, output: Output) -> Result<ExitCode> {
    let files = input_files(inputs)?;
    fs::create_dir_all(out).with_context(|| format!("{}: cannot create the output folder", out.display()))?;
    let failed = AtomicUsize::new(0);
    let removed = AtomicUsize::new(0);
    let total = AtomicUsize::new(0);
    let bar = progress_bar(Some(files.len() as u64), "files cleaned");
    let results: Vec<Option<(PathBuf, Cleaned, String)>> = files
        .par_iter()
        .map(|path| {
            bar.inc(1);
            let run = || -> Result<Option<(Cleaned, String)>> {
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
                let cleaned = cleaner.clean(&text);
                let name = Path::new(path.file_name().context("input has no file name")?);
                let name = if output == Output::Text { name.with_extension("txt") } else { name.to_path_buf() };
                write_atomic(&out.join(name), written(&text, &cleaned, output).as_bytes())?;
                Ok(Some((cleaned, text)))
            };
            match run() {
                Ok(Some((cleaned, text))) => {
                    total.fetch_add(text.len(), Ordering::Relaxed);
                    removed.fetch_add(cleaned.removed_bytes, Ordering::Relaxed);
                    Some((path.clone(), cleaned, text))
                }
                Ok(None) => None,
                Err(e) => {
                    eprintln!("chaff: error: {}", super::output::one_line(&e));
                    failed.fetch_add(1, Ordering::Relaxed);
                    None
                }
            }
        })
        .collect();
    bar.finish_and_clear();
    let stdout = std::io::stdout();
    let mut w = BufWriter::new(stdout.lock());
    let done = results.iter().flatten().count();
    if explain {
        for (path, cleaned, text) in results.iter().flatten() {
            for s in &cleaned.spans {
                let ids: Vec<&str> = s.rules.iter().map(|&r| cleaner.rule_id(r)).collect();
                writeln!(
                    w,
                    "{}\t{}..{}\t{}\t{}\t{}",
                    path.display(),
                    s.start,
                    s.end,
                    kind_name(s.kind),
                    ids.join(","),
                    excerpt(&text[s.start..s.end])
                )?;
            }
        }
    }
    w.flush()?;
    let (t, r) = (total.load(Ordering::Relaxed), removed.load(Ordering::Relaxed));
    eprintln!(
        "cleaned {done} document(s) into {}: {:.1}% of {} bytes removed",
        out.display(),
        if t > 0 { 100.0 * r as f64 / t as f64 } else { 0.0 },
        t
    );
    let failed = failed.load(Ordering::Relaxed);
    if failed > 0 {
        eprintln!("chaff: {failed} file(s) failed; see the errors above");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn kind_name(kind: chaff::cleaning::SpanKind) -> &'static str {
    match kind {
        chaff::cleaning::SpanKind::Removed => "removed",
        chaff::cleaning::SpanKind::CutBefore => "cut-before",
        chaff::cleaning::SpanKind::CutAfter => "cut-after",
    }
}

fn excerpt(s: &str) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 80 { format!("{}…", flat.chars().take(80).collect::<String>()) } else { flat }
}

/// JSON Lines in, JSON Lines out, in order; batches are cleaned in parallel.
fn clean_jsonl(cleaner: &Cleaner, explain: bool, output: Output) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!("chaff: reading JSON Lines ({{\"id\": …, \"text\": …}} a line) from the terminal; Ctrl-D ends");
    }
    let stdout = std::io::stdout();
    let mut w = BufWriter::new(stdout.lock());
    let mut lines = stdin.lock().lines();
    let mut line_no = 0usize;
    let mut failed = 0usize;
    let bar = progress_bar(None, "documents cleaned");
    loop {
        let mut batch = Vec::with_capacity(512);
        for line in lines.by_ref() {
            line_no += 1;
            let line = line.context("stdin")?;
            if line.trim().is_empty() {
                continue;
            }
            batch.push((line_no, line));
            if batch.len() == 512 {
                break;
            }
        }
        if batch.is_empty() {
            break;
        }
        let outputs: Vec<Result<String, String>> = batch
            .par_iter()
            .map(|(n, line)| {
                let doc = parse_record(line).map_err(|(col, msg)| {
                    format!(
                        "stdin:{n}:{col}: bad JSON Lines record: {msg} (each line must be {{\"id\": …, \"text\": …}})"
                    )
                })?;
                let cleaned = cleaner.clean(&doc.text);
                let text = written(&doc.text, &cleaned, output);
                let mut v = json!({ "id": doc.id, "text": text, "removed_bytes": cleaned.removed_bytes });
                if explain {
                    v["spans"] = cleaned
                        .spans
                        .iter()
                        .map(|s| {
                            json!({
                                "start": s.start, "end": s.end, "kind": kind_name(s.kind),
                                "rules": s.rules.iter().map(|&r| cleaner.rule_id(r)).collect::<Vec<_>>(),
                            })
                        })
                        .collect();
                }
                Ok(v.to_string())
            })
            .collect();
        bar.inc(batch.len() as u64);
        for o in outputs {
            match o {
                Ok(line) => writeln!(w, "{line}")?,
                Err(msg) => {
                    eprintln!("chaff: error: {msg}; line skipped");
                    failed += 1;
                }
            }
        }
    }
    w.flush()?;
    bar.finish_and_clear();
    Ok(if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
