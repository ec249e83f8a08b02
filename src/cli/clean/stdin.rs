//! `chaff clean` on JSON Lines: stdin to stdout, in order, batches cleaned in parallel. Lines are read as
//! bytes: invalid UTF-8 is replaced and reported with its line, as in files, and stops nothing.

use std::io::{BufRead, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Result;
use chaff::cleaning::Cleaner;
use chaff::corpus::{decode_lossy, parse_record_raw};
use chaff::page::Page;
use chaff::view::DocKind;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::value::RawValue;

use super::explain::{ExplainedSpan, explained};
use super::{Output, written};
use crate::cli::output::progress_bar;

const BATCH: usize = 512;

/// A cleaned record: the id exactly as it came in (a number stays that number, digit for digit).
#[derive(Serialize)]
struct CleanedRecord<'a> {
    id: &'a RawValue,
    text: &'a str,
    removed_bytes: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    spans: Option<Vec<ExplainedSpan<'a>>>,
}

/// Reads up to [`BATCH`] non-blank lines, each numbered; `None` at the end of the input. A read error
/// ends the input after the lines read before it.
fn read_batch(
    input: &mut impl BufRead,
    line_no: &mut usize,
    error: &mut Option<std::io::Error>,
) -> Vec<(usize, String)> {
    let mut batch = Vec::with_capacity(BATCH);
    while batch.len() < BATCH && error.is_none() {
        let mut bytes = Vec::new();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                *error = Some(e);
                break;
            }
        }
        *line_no += 1;
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
        }
        if *line_no == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
            // a byte order mark is no JSON; some editors and Windows tools start a file with one
            bytes.drain(..3);
        }
        let (line, replaced) = decode_lossy(bytes);
        if replaced > 0 {
            eprintln!(
                "chaff: warning: stdin:{line_no}: {replaced} invalid UTF-8 sequence(s) replaced with U+FFFD (send UTF-8 to keep them)"
            );
        }
        if !line.trim().is_empty() {
            batch.push((*line_no, line));
        }
    }
    batch
}

fn clean_line(
    cleaner: &Cleaner,
    kind: DocKind,
    n: usize,
    line: &str,
    explain: bool,
    output: Output,
) -> Result<String, String> {
    let record = parse_record_raw(line).map_err(|(col, msg)| {
        format!("stdin:{n}:{col}: bad JSON Lines record: {msg} (each line must be {{\"id\": …, \"text\": …}})")
    })?;
    let doc = &record.doc;
    let cleaned = cleaner.clean_page(Page::new(&doc.text, kind));
    let text = written(&cleaned, output);
    let spans = explain.then(|| explained(cleaner, &cleaned.page, output, &cleaner.explain_page(&cleaned.page)));
    let removed_bytes = cleaned.input(output).len() - text.len();
    let out = CleanedRecord { id: record.raw_id, text: &text, removed_bytes, spans };
    serde_json::to_string(&out).map_err(|e| format!("stdin:{n}: {e}"))
}

/// JSON Lines in, JSON Lines out, in order; a bad line is reported and skipped, and fails the run at the end.
pub fn clean_jsonl(cleaner: &Cleaner, kind: DocKind, explain: bool, output: Output) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!("chaff: reading JSON Lines ({{\"id\": …, \"text\": …}} a line) from the terminal; Ctrl-D ends");
    }
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut w = BufWriter::new(stdout.lock());
    let mut line_no = 0usize;
    let mut failed = 0usize;
    let mut read_error = None;
    let bar = progress_bar(None, "documents cleaned");
    loop {
        let batch = read_batch(&mut input, &mut line_no, &mut read_error);
        if batch.is_empty() {
            break;
        }
        let outputs: Vec<Result<String, String>> =
            batch.par_iter().map(|(n, line)| clean_line(cleaner, kind, *n, line, explain, output)).collect();
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
    if let Some(e) = read_error {
        eprintln!("chaff: error: stdin:{}: reading failed: {e}; the lines before it were cleaned", line_no + 1);
        failed += 1;
    }
    Ok(if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
