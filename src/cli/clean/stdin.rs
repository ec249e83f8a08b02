//! `chaff clean` on JSON Lines: stdin to stdout, in order, records streamed through a bounded window and
//! cleaned in parallel. Lines are read as
//! bytes: invalid UTF-8 is replaced and reported with its line, as in files, and stops nothing.

use std::io::{BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use chaff::cleaning::Cleaner;
use chaff::corpus::{decode_lossy, parse_record_raw};
use chaff::page::Page;
use chaff::view::DocKind;

use super::explain::explained_page;
use super::{Output, window, written};
use crate::cli::output::progress_bar;

/// What a failed write of stdout was about (a full disk names it).
const WRITING: &str = "writing the cleaned JSON Lines to stdout";

/// The non-blank lines of the input, each numbered, read as they are taken. A read error ends the input
/// after the lines read before it, and is kept for the end of the run.
struct Records<R> {
    input: R,
    line_no: usize,
    error: Option<std::io::Error>,
}

impl<R: BufRead> Iterator for Records<R> {
    type Item = (usize, String);

    fn next(&mut self) -> Option<(usize, String)> {
        while self.error.is_none() {
            let mut bytes = Vec::new();
            match self.input.read_until(b'\n', &mut bytes) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.error = Some(e);
                    return None;
                }
            }
            self.line_no += 1;
            let line_no = self.line_no;
            if bytes.last() == Some(&b'\n') {
                bytes.pop();
                if bytes.last() == Some(&b'\r') {
                    bytes.pop();
                }
            }
            if line_no == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
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
                return Some((line_no, line));
            }
        }
        None
    }
}

/// A record cleaned: the output line, and how many lone surrogate escapes its input had.
struct Cleaned {
    line: String,
    lone_surrogates: usize,
}

fn clean_line(
    cleaner: &Cleaner,
    kind: DocKind,
    n: usize,
    line: &str,
    explain: bool,
    output: Output,
) -> Result<Cleaned, String> {
    let record = parse_record_raw(line).map_err(|(col, msg)| {
        format!("stdin:{n}:{col}: bad JSON Lines record: {msg} (each line must be {{\"id\": …, \"text\": …}})")
    })?;
    let doc = &record.doc;
    let page = Page::new(&doc.text, kind);
    // explained in the same run of the stages that cleans it
    let cleaned = if explain { cleaner.clean_page_explained(page) } else { cleaner.clean_page(page) };
    let mut text = written(&cleaned, output);
    // what the output lacks of its input, before the mark goes back on both
    let removed = (cleaned.input(output).len() - text.len()).to_string();
    // A byte order mark was read and skipped, as a file's is: it comes back, and offsets count it.
    let bom = if record.bom { '\u{FEFF}'.len_utf8() } else { 0 };
    if bom > 0 {
        text.insert(0, '\u{FEFF}');
    }
    let json = |v: &dyn Fn() -> serde_json::Result<String>| v().map_err(|e| format!("stdin:{n}: {e}"));
    let spans = match explain {
        true => {
            let spans = explained_page(cleaner, &cleaned, output, &|i| i + bom);
            Some(json(&|| serde_json::to_string(&spans))?)
        }
        false => None,
    };
    // Every field as read, in its place; `text` replaced, `removed_bytes` (and `spans`) set.
    let mut out = String::with_capacity(line.len());
    out.push('{');
    let (mut has_removed, mut has_spans) = (false, false);
    for (key, value) in &record.fields {
        let value: &str = match key.as_str() {
            "text" => &json(&|| serde_json::to_string(&text))?,
            "removed_bytes" => {
                has_removed = true;
                &removed
            }
            "spans" if spans.is_some() => {
                has_spans = true;
                spans.as_deref().unwrap_or_default()
            }
            _ => value.get(),
        };
        push_field(&mut out, &json(&|| serde_json::to_string(key))?, value);
    }
    if !has_removed {
        push_field(&mut out, "\"removed_bytes\"", &removed);
    }
    if let Some(spans) = spans.as_deref().filter(|_| !has_spans) {
        push_field(&mut out, "\"spans\"", spans);
    }
    out.push('}');
    Ok(Cleaned { line: out, lone_surrogates: record.lone_surrogates })
}

fn push_field(out: &mut String, key: &str, value: &str) {
    if out.len() > 1 {
        out.push(',');
    }
    out.push_str(key);
    out.push(':');
    out.push_str(value);
}

/// JSON Lines in, JSON Lines out, in order; a bad line is reported and skipped, and fails the run at the end.
pub fn clean_jsonl(cleaner: &Cleaner, kind: DocKind, explain: bool, output: Output) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!("chaff: reading JSON Lines ({{\"id\": …, \"text\": …}} a line) from the terminal; Ctrl-D ends");
    }
    // Stdin itself, not its lock: the lines are read on the thread that takes the next one.
    let mut records = Records { input: BufReader::new(stdin), line_no: 0, error: None };
    // Plain text or a page piped in is no JSON Lines: said once, not once a line.
    let first = records.next();
    if let Some((n, line)) = first.as_ref().filter(|(_, line)| !line.trim_start().starts_with('{')) {
        bail!(
            "stdin:{n}:1: not JSON Lines ({:?}…): without INPUT, chaff clean reads one {{\"id\": …, \"text\": …}} record a line; to clean one document from stdin to stdout, give `-` as the INPUT (chaff clean --rules R - < page.html)",
            line.trim().chars().take(24).collect::<String>()
        );
    }
    let stdout = std::io::stdout();
    let mut w = BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    let mut write_error = None;
    let bar = progress_bar(None, "documents cleaned");
    // Records stream through a bounded window, cleaned on every thread and written in input order:
    // memory holds the window's records, never the input.
    let threads = window::threads();
    window::ordered(
        first.into_iter().chain(&mut records),
        threads,
        threads * window::PER_THREAD,
        |(n, line)| {
            let cleaned = clean_line(cleaner, kind, n, &line, explain, output);
            bar.inc(1);
            (n, cleaned)
        },
        |(n, cleaned)| {
            match cleaned {
                Ok(cleaned) => {
                    if cleaned.lone_surrogates > 0 {
                        eprintln!(
                            "chaff: warning: stdin:{n}: {} lone surrogate escape(s) (half a UTF-16 pair, as \\ud800) replaced with U+FFFD",
                            cleaned.lone_surrogates
                        );
                    }
                    if let Err(e) = writeln!(w, "{}", cleaned.line) {
                        write_error = Some(e);
                        return ControlFlow::Break(());
                    }
                }
                Err(msg) => {
                    eprintln!("chaff: error: {msg}; line skipped");
                    failed += 1;
                }
            }
            ControlFlow::Continue(())
        },
    );
    if let Some(e) = write_error.map_or_else(|| w.flush(), Err).err() {
        // a reader gone (`| head`) ends the run quietly, but not the lines already said to have failed
        if e.kind() == std::io::ErrorKind::BrokenPipe && failed > 0 {
            return Ok(ExitCode::from(1));
        }
        return Err(e).context(WRITING);
    }
    bar.finish_and_clear();
    if let Some(e) = records.error {
        eprintln!("chaff: error: stdin:{}: reading failed: {e}; the lines before it were cleaned", records.line_no + 1);
        failed += 1;
    }
    Ok(if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
