//! `chaff clean --rules-dir DIR [INPUT…]`: each document of a crawl (WARC, WARC.gz, JSON Lines with
//! `url` or `source`), of folders of sources, or of JSON Lines on stdin, cleaned with its own source's
//! rules file, `DIR/<source>.toml`, loaded the first time the source is met and kept while it is used
//! (`chaff::crawl::RulesDir`: a bounded number of sources' rules, the least recently used forgotten).
//! Documents stream through in batches, in input order, a batch's documents of one source cleaned
//! together: memory holds a batch and the kept rules, never the crawl. A document
//! of a source with no rules file passes through or is skipped (`--unknown`), counted; a bad record or a
//! source whose rules file is unusable is reported, skipped, and fails the run at its end.

use std::collections::{HashMap, HashSet};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use chaff::atomic::{check_writable, prepare_folder, sync_folder, write_unsynced};
use chaff::cleaning::Cleaner;
use chaff::crawl::rules_dir::DEFAULT_KEPT;
use chaff::crawl::{CrawlDoc, Found, Group, Item, RulesDir};
use chaff::page::{Output, Page};
use chaff::view::DocKind;
use rayon::prelude::*;

use crate::cli::args::{CleanArgs, Unknown};
use crate::cli::output::{is_broken_pipe, one_line, progress_bar};

const BATCH: usize = 512;
const WRITING: &str = "writing the cleaned JSON Lines to stdout";

/// A source's cleaner and the kind of documents its rules were mined on.
struct Rules {
    cleaner: Cleaner,
    kind: DocKind,
}

/// A source's rules file loaded and compiled, with the run's stage switches.
fn load(path: &Path, args: &CleanArgs) -> Result<Rules> {
    let file = crate::cli::load_rules(path)?;
    let mut settings = file.clean_settings();
    for s in crate::cli::args::stages_off(&args.off) {
        settings.stages.set(s, false);
    }
    let cleaner = Cleaner::new(&file, args.include_pending)
        .with_context(|| format!("{}", path.display()))?
        .with_settings(settings);
    Ok(Rules { cleaner, kind: file.input() })
}

/// The rules of the folder, each source's loaded with the run's switches; at most
/// [`DEFAULT_KEPT`] sources' kept at once.
struct Cache<'a> {
    rules: RulesDir<Rules>,
    args: &'a CleanArgs,
}

/// A document's fate: cleaned (its output, bytes removed, file extension), passed through (its JSON
/// line when written as one, else its own text), or not written.
enum Done {
    Cleaned { out: Option<String>, removed: usize, ext: &'static str },
    Passed { out: Option<String>, ext: &'static str },
    Skipped,
    Failed,
}

#[derive(Default)]
struct Counts {
    cleaned: usize,
    /// Documents written per source: a document taken back (its output name met again) is uncounted.
    sources: HashMap<String, usize>,
    bytes: usize,
    removed: usize,
    unknown: usize,
    unknown_sources: HashMap<String, usize>,
    not_pages: usize,
    failed: usize,
}

/// What a document counted: cleaned (its bytes and the bytes removed), or of a source without rules
/// (passed through, or skipped by `--unknown skip`).
#[derive(Clone, Copy)]
enum Counted {
    Cleaned { bytes: usize, removed: usize },
    Passed,
}

impl Counts {
    /// Counts a document written (or, passed, left out by `--unknown skip`).
    fn add(&mut self, source: &str, counted: Counted) {
        let per_source = match counted {
            Counted::Cleaned { bytes, removed } => {
                (self.cleaned, self.bytes, self.removed) =
                    (self.cleaned + 1, self.bytes + bytes, self.removed + removed);
                &mut self.sources
            }
            Counted::Passed => {
                self.unknown += 1;
                &mut self.unknown_sources
            }
        };
        match per_source.get_mut(source) {
            Some(n) => *n += 1,
            None => {
                per_source.insert(source.to_string(), 1);
            }
        }
    }

    /// Uncounts a document counted by [`Counts::add`].
    fn take_back(&mut self, source: &str, counted: Counted) {
        let per_source = match counted {
            Counted::Cleaned { bytes, removed } => {
                (self.cleaned, self.bytes, self.removed) =
                    (self.cleaned - 1, self.bytes - bytes, self.removed - removed);
                &mut self.sources
            }
            Counted::Passed => {
                self.unknown -= 1;
                &mut self.unknown_sources
            }
        };
        if let Some(n) = per_source.get_mut(source) {
            *n -= 1;
            if *n == 0 {
                per_source.remove(source);
            }
        }
    }
}

/// A document written into the output folder under a name, or the name shared by documents that met
/// there (each skipped).
enum Written {
    One { path: PathBuf, id: String, source: String, counted: Counted },
    Shared,
}

/// Where cleaned documents go.
enum Sink {
    Stdout(BufWriter<std::io::StdoutLock<'static>>),
    Folder {
        root: PathBuf,
        prepared: HashSet<String>,
        /// The documents written, by output name (folded to lower case where the file system folds case:
        /// `a.txt` is `A.txt` there).
        written: HashMap<String, Written>,
        folds_case: bool,
    },
}

pub(super) fn clean_routed(args: &CleanArgs) -> Result<ExitCode> {
    let Some(dir) = args.rules_dir.as_deref() else {
        // as clap says a missing argument: a usage error
        eprintln!(
            "error: give --rules FILE (one source's rules file) or --rules-dir DIR (each document cleaned with its source's rules, DIR/<source>.toml)"
        );
        return Ok(ExitCode::from(2));
    };
    if !dir.is_dir() {
        bail!(
            "--rules-dir {}: not a folder of rules files (`chaff mine --all CRAWL --rules-dir DIR` writes one)",
            dir.display()
        );
    }
    let output = match (args.text, args.keep_tags) {
        (true, _) => Output::Text,
        (_, true) => Output::KeepTags,
        _ => Output::Cleaned,
    };
    let mut sink = match &args.out {
        Some(out) => {
            refuse_out_inside_inputs(out, &args.inputs)?;
            prepare_folder(out).with_context(|| format!("{}: cannot create the output folder", out.display()))?;
            if let Err(e) = check_writable(out) {
                bail!(
                    "{}: cannot write into the output folder ({e}); nothing was cleaned: make it writable, or choose another --out",
                    out.display()
                );
            }
            let folds_case = chaff::atomic::folds_case(out).unwrap_or(false);
            Sink::Folder { root: out.clone(), prepared: HashSet::new(), written: HashMap::new(), folds_case }
        }
        None => Sink::Stdout(BufWriter::new(std::io::stdout().lock())),
    };
    let mut cache = Cache { rules: RulesDir::new(dir, DEFAULT_KEPT), args };
    let mut counts = Counts::default();
    let bar = progress_bar(None, "documents cleaned");
    let group = args.group.group();
    let mut ran = Ok(());
    if args.inputs.is_empty() {
        let stdin: Box<dyn std::io::BufRead + Send> = Box::new(std::io::BufReader::new(std::io::stdin()));
        let items = chaff::crawl::json_lines(stdin, Path::new("stdin"));
        ran = run(items, group, output, args.unknown, &mut cache, &mut sink, &mut counts, &bar);
    }
    for input in &args.inputs {
        if ran.is_err() {
            break;
        }
        match chaff::crawl::open(input) {
            Ok(items) => ran = run(items, group, output, args.unknown, &mut cache, &mut sink, &mut counts, &bar),
            Err(e) => {
                eprintln!("chaff: error: {e}; skipped");
                counts.failed += 1;
            }
        }
    }
    bar.finish_and_clear();
    if let Sink::Stdout(w) = &mut sink {
        ran = ran.and_then(|()| w.flush().context(WRITING));
    }
    match ran {
        // a reader gone (`| head`) ends the run quietly, but not the failures already said: they fail it
        Err(e) if is_broken_pipe(&e) && counts.failed > 0 => return Ok(ExitCode::from(1)),
        Err(e) => return Err(e),
        Ok(()) => {}
    }
    match &mut sink {
        Sink::Stdout(_) => {}
        Sink::Folder { root, written, .. } => {
            if !written.is_empty()
                && let Err(e) = sync_folder(root)
            {
                eprintln!("chaff: error: {e}: the cleaned files may not all be on disk; run again");
                counts.failed += 1;
            }
        }
    }
    let Counts { cleaned, bytes, removed, unknown, failed, not_pages, .. } = counts;
    eprintln!(
        "cleaned {cleaned} document(s) of {} source(s): {:.1}% of {bytes} bytes removed; {unknown} document(s) of {} source(s) without rules {}{}",
        counts.sources.len(),
        if bytes > 0 { 100.0 * removed as f64 / bytes as f64 } else { 0.0 },
        counts.unknown_sources.len(),
        if args.unknown == Unknown::Pass { "passed through unchanged" } else { "skipped (--unknown skip)" },
        if not_pages > 0 { format!("; {not_pages} record(s) held no page") } else { String::new() },
    );
    if failed > 0 {
        eprintln!("chaff: {failed} document(s), record(s) or input(s) failed and were skipped; see the errors above");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// An output folder inside an input folder would be read as input by the next run: refused.
fn refuse_out_inside_inputs(out: &Path, inputs: &[PathBuf]) -> Result<()> {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let out_abs = std::fs::canonicalize(out).unwrap_or_else(|_| absolute(out));
    for input in inputs.iter().filter(|i| i.is_dir()) {
        let input_abs = std::fs::canonicalize(input).unwrap_or_else(|_| absolute(input));
        if out_abs.starts_with(&input_abs) {
            bail!(
                "--out {} is inside the input folder {}: the cleaned files would be read as documents next time; give a folder outside it",
                out.display(),
                input.display()
            );
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn run(
    mut items: impl Iterator<Item = Item> + Send,
    group: Group,
    output: Output,
    unknown: Unknown,
    cache: &mut Cache,
    sink: &mut Sink,
    counts: &mut Counts,
    bar: &indicatif::ProgressBar,
) -> Result<()> {
    let lines = matches!(sink, Sink::Stdout(_));
    let mut docs = read_batch(&mut items, group, counts, bar);
    while !docs.is_empty() {
        let sources: Vec<&str> = docs.iter().map(|(_, s)| s.as_str()).collect();
        let args = cache.args;
        let (found, errors) = cache.rules.get_many(&sources, |_, path| load(path, args));
        for (source, e) in errors {
            bar.suspend(|| {
                eprintln!(
                    "chaff: error: {}; the documents of source `{source}` are skipped (fix the file, or move it away to pass them through)",
                    one_line(&e)
                )
            });
        }
        let batch: Vec<(CrawlDoc, String, Found<Rules>)> =
            docs.into_iter().zip(found).map(|((doc, source), rules)| (doc, source, rules)).collect();
        // the next batch is read (and its JSON or WARC records parsed) while this one is cleaned
        let (next, done) =
            rayon::join(|| read_batch(&mut items, group, counts, bar), || clean_batch(&batch, output, unknown, lines));
        bar.inc(batch.len() as u64);
        for ((doc, source, _), done) in batch.iter().zip(done) {
            // `None`: passed through
            let (out, ext, removed) = match done {
                Done::Cleaned { out, removed, ext } => (out, ext, Some(removed)),
                Done::Passed { out, ext } => (out, ext, None),
                Done::Skipped => {
                    counts.add(source, Counted::Passed);
                    continue;
                }
                Done::Failed => {
                    counts.failed += 1;
                    continue;
                }
            };
            let counted = match removed {
                Some(removed) => Counted::Cleaned { bytes: doc.text.len(), removed },
                None => Counted::Passed,
            };
            // counted as written only once it is
            if let Err(e) = write(sink, doc, source, out.as_deref().unwrap_or(&doc.text), ext, counted, counts) {
                if matches!(sink, Sink::Stdout(_)) {
                    return Err(e);
                }
                eprintln!("chaff: error: {}; skipped", one_line(&e));
                counts.failed += 1;
            }
        }
        docs = next;
    }
    Ok(())
}

/// Up to [`BATCH`] documents of `items`, each with its source; what is no document is counted and said.
fn read_batch(
    items: &mut impl Iterator<Item = Item>,
    group: Group,
    counts: &mut Counts,
    bar: &indicatif::ProgressBar,
) -> Vec<(CrawlDoc, String)> {
    let mut docs: Vec<(CrawlDoc, String)> = Vec::with_capacity(BATCH);
    for item in items.by_ref() {
        match item {
            Item::Doc(doc) => match doc.source_under(group) {
                Some(source) => {
                    // a source's name names its rules file and its output folder: `../x` would leave both
                    if let Err(e) = doc.check_source_name(&source) {
                        bar.suspend(|| eprintln!("chaff: error: {e}"));
                        counts.failed += 1;
                        continue;
                    }
                    docs.push((doc, source));
                    if docs.len() == BATCH {
                        break;
                    }
                }
                None => {
                    bar.suspend(|| {
                        eprintln!(
                            "chaff: error: document {}: names neither a source nor a URL with a host; skipped (give it a \"source\" or a \"url\" field)",
                            doc.id
                        )
                    });
                    counts.failed += 1;
                }
            },
            Item::NotAPage => counts.not_pages += 1,
            Item::Bad(m) => {
                bar.suspend(|| eprintln!("chaff: error: {m}"));
                counts.failed += 1;
            }
            Item::Warn(m) => bar.suspend(|| eprintln!("chaff: warning: {m}")),
        }
    }
    docs
}

/// A batch cleaned in parallel, a source's documents one after another on one thread (its words'
/// classifications cached from its first page on); with `lines`, each output rendered as its JSON line
/// there too. In the batch's order.
fn clean_batch(batch: &[(CrawlDoc, String, Found<Rules>)], output: Output, unknown: Unknown, lines: bool) -> Vec<Done> {
    let mut order: Vec<usize> = (0..batch.len()).collect();
    order.sort_by(|&a, &b| batch[a].1.cmp(&batch[b].1));
    let groups: Vec<&[usize]> = order.chunk_by(|&a, &b| batch[a].1 == batch[b].1).collect();
    let cleaned: Vec<Vec<(usize, Done)>> = groups
        .par_iter()
        .map(|group| {
            group
                .iter()
                .map(|&i| {
                    let (doc, source, rules) = &batch[i];
                    (i, clean_one(doc, source, rules, output, unknown, lines))
                })
                .collect()
        })
        .collect();
    let mut done: Vec<Option<Done>> = (0..batch.len()).map(|_| None).collect();
    for (i, d) in cleaned.into_iter().flatten() {
        done[i] = Some(d);
    }
    done.into_iter().map(|d| d.unwrap_or(Done::Failed)).collect()
}

/// One document cleaned with its source's rules, passed through or skipped.
fn clean_one(
    doc: &CrawlDoc,
    source: &str,
    rules: &Found<Rules>,
    output: Output,
    unknown: Unknown,
    lines: bool,
) -> Done {
    let ext = |html: bool| if html { "html" } else { "txt" };
    match rules {
        Found::Rules(r) => {
            let cleaned = r.cleaner.clean_page(Page::new(&doc.text, r.kind));
            let output = if r.kind == DocKind::Html { output } else { Output::Cleaned };
            let text = cleaned.write(output);
            let removed = cleaned.input(output).len() - text.len();
            let out = if lines { json_line(doc, source, &text, removed) } else { text };
            Done::Cleaned { out: Some(out), removed, ext: ext(r.kind == DocKind::Html && output != Output::Text) }
        }
        Found::Missing if unknown == Unknown::Pass => Done::Passed {
            out: lines.then(|| json_line(doc, source, &doc.text, 0)),
            ext: ext(doc.kind == Some(DocKind::Html)),
        },
        Found::Missing => Done::Skipped,
        Found::Unusable => Done::Failed,
    }
}

/// A cleaned document as its line of the JSON Lines output.
fn json_line(doc: &CrawlDoc, source: &str, text: &str, removed: usize) -> String {
    let string = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let url = doc.url.as_deref().map_or_else(|| "null".to_string(), string);
    format!(
        "{{\"id\":{},\"source\":{},\"url\":{url},\"text\":{},\"removed_bytes\":{removed}}}",
        doc.id_json,
        string(source),
        string(text),
    )
}

/// Writes a document's output: its JSON line (`out`, rendered already) to stdout, or its text to its
/// source's folder; counts it in `counts` once written (`counted`).
fn write(
    sink: &mut Sink,
    doc: &CrawlDoc,
    source: &str,
    out: &str,
    ext: &str,
    counted: Counted,
    counts: &mut Counts,
) -> Result<()> {
    match sink {
        Sink::Stdout(w) => {
            writeln!(w, "{out}").context(WRITING)?;
            counts.add(source, counted);
            Ok(())
        }
        Sink::Folder { root, prepared, written, folds_case } => {
            let folder = root.join(source);
            let name = format!("{}.{ext}", file_stem(&doc.id));
            let path = folder.join(&name);
            let key = format!("{source}/{name}");
            let key = if *folds_case { key.to_lowercase() } else { key };
            if let Some(first) = written.get_mut(&key) {
                share_name(first, &path, doc, source, counts);
                return Ok(());
            }
            if !prepared.contains(source) {
                prepare_folder(&folder)
                    .with_context(|| format!("{}: cannot create the output folder", folder.display()))?;
                prepared.insert(source.to_string());
            }
            write_unsynced(&path, out.as_bytes())?;
            counts.add(source, counted);
            written.insert(key, Written::One { path, id: doc.id_json.clone(), source: source.to_string(), counted });
            Ok(())
        }
    }
}

/// A document whose output name another one has (ids that become one file name, `a:1` and `a_1`, or
/// names that differ only in case where the file system folds case): neither is kept, as neither could be
/// told from the other, and each is named; the one written first is removed and uncounted. Each fails
/// the run at its end, as a bad document does.
fn share_name(first: &mut Written, path: &Path, doc: &CrawlDoc, source: &str, counts: &mut Counts) {
    let why = "ids must give different file names within a source (letters, digits, `.`, `-` and `_` are kept, \
               anything else becomes `_`)";
    if let Written::One { path: first_path, id, source: first_source, counted } = &*first {
        let removed = std::fs::remove_file(first_path).map_err(|e| format!(" (could not remove it: {e})"));
        eprintln!(
            "chaff: error: documents {id} and {} of source `{source}` would both be written to {}: both skipped, {} removed{}; {why}",
            doc.id_json,
            path.display(),
            first_path.display(),
            removed.err().unwrap_or_default()
        );
        counts.take_back(first_source, *counted);
        counts.failed += 2;
        *first = Written::Shared;
        return;
    }
    eprintln!(
        "chaff: error: document {} of source `{source}` would be written to {}, as others were: skipped; {why}",
        doc.id_json,
        path.display()
    );
    counts.failed += 1;
}

/// A file name for an id: letters, digits, `.`, `-` and `_` kept, anything else `_` (a WARC record's
/// `urn:uuid:…` becomes `urn_uuid_…`); never empty, never hidden, at most 200 bytes.
fn file_stem(id: &str) -> String {
    let mut s: String =
        id.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' }).collect();
    if s.is_empty() || s.starts_with('.') {
        s.insert(0, '_');
    }
    s.truncate(200);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(id: &str) -> CrawlDoc {
        let id_json = serde_json::to_string(id).unwrap();
        CrawlDoc { id: id.into(), id_json, url: None, source: Some("x".into()), text: id.into(), kind: None }
    }

    /// Writes documents `ids` of source `x` into a folder sink that folds case or not: the files written
    /// and the counts.
    fn written(ids: &[&str], folds_case: bool) -> (Vec<String>, Counts) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        let mut sink =
            Sink::Folder { root: root.clone(), prepared: HashSet::new(), written: HashMap::new(), folds_case };
        let mut counts = Counts::default();
        for id in ids {
            let counted = Counted::Cleaned { bytes: id.len(), removed: 0 };
            write(&mut sink, &doc(id), "x", id, "txt", counted, &mut counts).unwrap();
        }
        let mut files: Vec<String> =
            std::fs::read_dir(root.join("x")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        files.sort();
        (files, counts)
    }

    #[test]
    fn names_that_differ_only_in_case_meet_only_where_the_folder_folds_case() {
        let (files, counts) = written(&["Ab", "aB", "c"], true);
        assert_eq!(files, ["c.txt"], "neither of the two is kept");
        assert_eq!((counts.cleaned, counts.bytes, counts.failed, counts.sources.len()), (1, 1, 2, 1));
        if chaff::atomic::folds_case(&std::env::temp_dir()).unwrap_or(true) {
            // both kept is what a file system that tells cases apart does, not this one
            return;
        }
        let (files, counts) = written(&["Ab", "aB", "c"], false);
        assert_eq!(files, ["Ab.txt", "aB.txt", "c.txt"]);
        assert_eq!((counts.cleaned, counts.failed), (3, 0));
    }

    #[test]
    fn an_id_becomes_a_safe_file_name() {
        assert_eq!(file_stem("urn:uuid:ab-12"), "urn_uuid_ab-12");
        assert_eq!(file_stem("../etc/passwd"), "_.._etc_passwd");
        assert_eq!(file_stem(""), "_");
    }
}
