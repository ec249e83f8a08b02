//! A source's corpus: the history of its documents (method.md §1).
//!
//! Read from a folder of `.txt` / `.html` files (one document each, ordered by file name) or from a JSON
//! Lines file of `{"id": …, "text": …}` records. Bad input never panics: invalid UTF-8 is decoded lossily
//! and counted, binary files are skipped, and both are reported as [`Warning`]s the caller shows.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::error::{Error, Result};
use crate::view::DocKind;

#[derive(Debug, Clone)]
pub struct Document {
    pub id: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// Invalid UTF-8 sequences replaced by U+FFFD.
    LossyUtf8 { path: PathBuf, replaced: usize },
    /// A file with NUL bytes: not text, skipped.
    Binary { path: PathBuf },
    /// A document's name that cannot be read (a symbolic link loop, a dangling link, no permission): skipped.
    Unreadable { path: PathBuf, message: String },
    /// Documents of a folder that share their stem with another of its documents (`117.html` and
    /// `117.txt`): the same pages twice, in two forms, mined as one source.
    SameStems { dir: PathBuf, stems: usize, example: (String, String) },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::LossyUtf8 { path, replaced } => write!(
                f,
                "{}: {replaced} invalid UTF-8 sequence(s) replaced with U+FFFD (convert the file to UTF-8 to keep them)",
                path.display()
            ),
            Warning::Binary { path } => write!(f, "{}: binary file (NUL bytes), skipped", path.display()),
            Warning::Unreadable { path, message } => {
                write!(f, "{}: cannot be read, skipped: {message}", path.display())
            }
            Warning::SameStems { dir, stems, example: (a, b) } => write!(
                f,
                "{}: {stems} document(s) have a copy under another extension (e.g. {a} and {b}), and both are read as documents of one source; put each kind in a folder of its own and mine it with --preset text or --preset html",
                dir.display()
            ),
        }
    }
}

/// Which files of a folder are documents.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// File extensions read as documents (without dot).
    pub extensions: Vec<String>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions { extensions: vec!["txt".into(), "html".into(), "htm".into()] }
    }
}

impl LoadOptions {
    pub fn only(ext: &[&str]) -> Self {
        LoadOptions { extensions: ext.iter().map(|e| e.to_string()).collect() }
    }

    fn wants(&self, path: &Path) -> bool {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        // Gold files and generator side-files sit beside the pages; they are not documents.
        if name.starts_with('.') || name.ends_with(".gold.txt") || name.contains(".template.") {
            return false;
        }
        path.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| self.extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
    }
}

#[derive(Debug, Clone)]
pub struct Corpus {
    /// The source's name: the folder or file name, unless given.
    pub name: String,
    pub root: PathBuf,
    pub docs: Vec<Document>,
    pub warnings: Vec<Warning>,
}

impl Corpus {
    /// A corpus from documents in memory (tests, benchmarks, the generator).
    pub fn from_docs(name: impl Into<String>, docs: Vec<Document>) -> Self {
        Corpus { name: name.into(), root: PathBuf::new(), docs, warnings: Vec::new() }
    }

    pub fn load(path: &Path) -> Result<Corpus> {
        Corpus::load_with(path, &LoadOptions::default())
    }

    pub fn load_with(path: &Path, opts: &LoadOptions) -> Result<Corpus> {
        let meta = fs::metadata(path).map_err(|e| Error::io(path, e))?;
        let mut corpus = if meta.is_dir() { load_folder(path, opts)? } else { load_jsonl(path)? };
        if corpus.docs.is_empty() {
            // The files skipped are why there is nothing: say which, in the error itself.
            let skipped: Vec<&Warning> = corpus
                .warnings
                .iter()
                .filter(|w| matches!(w, Warning::Binary { .. } | Warning::Unreadable { .. }))
                .collect();
            return Err(match skipped.first() {
                Some(first) => Error::NothingReadable {
                    path: path.to_path_buf(),
                    skipped: skipped.len(),
                    first: first.to_string(),
                },
                None => Error::EmptyCorpus { path: path.to_path_buf() },
            });
        }
        corpus.name = source_name(path);
        Ok(corpus)
    }

    pub fn len(&self) -> usize {
        self.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    pub fn bytes(&self) -> usize {
        self.docs.iter().map(|d| d.text.len()).sum()
    }

    pub fn position(&self, id: &str) -> Option<usize> {
        self.docs.iter().position(|d| d.id == id)
    }
}

/// The source name of a corpus path: the folder's name, or the file's stem.
pub fn source_name(path: &Path) -> String {
    let path = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let name = if path.is_dir() { path.file_name() } else { path.file_stem() };
    name.and_then(|n| n.to_str()).unwrap_or("source").to_string()
}

/// The kind of a corpus's documents: as its rules file records, else HTML when most files of its folder
/// are .html, else what the documents look like (a .jsonl corpus: [`DocKind::sniff`]).
pub fn choose_kind(recorded: Option<DocKind>, path: &Path, docs: &[Document]) -> DocKind {
    if let Some(kind) = recorded {
        return kind;
    }
    let (mut html, mut txt) = (0, 0);
    if let Ok(entries) = fs::read_dir(path) {
        for e in entries.flatten() {
            match e.path().extension().and_then(|x| x.to_str()) {
                Some("html" | "htm") => html += 1,
                Some("txt") => txt += 1,
                _ => {}
            }
        }
    }
    match (html, txt) {
        (0, 0) => DocKind::sniff(docs.iter().map(|d| d.text.as_str())),
        _ if html > txt => DocKind::Html,
        _ => DocKind::Text,
    }
}

/// Sub-folders of `root` that hold documents: the sources of a multi-source corpus (`mine --all`).
pub fn source_folders(root: &Path, opts: &LoadOptions) -> Result<Vec<PathBuf>> {
    source_folders_checked(root, opts).map(|(found, _)| found)
}

/// [`source_folders`], and a warning for each entry that cannot be read (a symbolic link loop, a dangling
/// link, a folder without permission): skipped, but never in silence.
pub fn source_folders_checked(root: &Path, opts: &LoadOptions) -> Result<(Vec<PathBuf>, Vec<Warning>)> {
    let (mut out, mut warnings) = (Vec::new(), Vec::new());
    for entry in fs::read_dir(root).map_err(|e| Error::io(root, e))? {
        let path = entry.map_err(|e| Error::io(root, e))?.path();
        if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
            continue;
        }
        match fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => continue,
            Err(e) => {
                warnings.push(Warning::Unreadable { path, message: e.to_string() });
                continue;
            }
        }
        match fs::read_dir(&path) {
            Ok(entries) => {
                if entries.filter_map(|e| e.ok()).any(|e| opts.wants(&e.path())) {
                    out.push(path);
                }
            }
            Err(e) => warnings.push(Warning::Unreadable { path, message: e.to_string() }),
        }
    }
    out.sort();
    warnings.sort_by_key(|w| w.to_string());
    Ok((out, warnings))
}

/// Decodes bytes as UTF-8, lossily; `None` for binary (NUL bytes). The count is of replaced sequences.
pub fn decode(bytes: Vec<u8>) -> Option<(String, usize)> {
    if bytes.contains(&0) {
        return None;
    }
    Some(decode_lossy(bytes))
}

/// Decodes bytes as UTF-8, replacing each invalid sequence with U+FFFD; the count is of replaced sequences.
pub fn decode_lossy(bytes: Vec<u8>) -> (String, usize) {
    match String::from_utf8(bytes) {
        Ok(s) => (s, 0),
        Err(e) => {
            let bytes = e.into_bytes();
            let replaced = bytes.utf8_chunks().filter(|c| !c.invalid().is_empty()).count();
            (String::from_utf8_lossy(&bytes).into_owned(), replaced)
        }
    }
}

/// The document files of a folder, sorted by name, and what was skipped: names that cannot be read (a
/// symbolic link loop, a dangling link), and a [`Warning::SameStems`] when pages come in two forms.
pub fn document_files(dir: &Path, opts: &LoadOptions) -> Result<(Vec<PathBuf>, Vec<Warning>)> {
    let mut paths = Vec::new();
    let mut warnings = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let path = entry.map_err(|e| Error::io(dir, e))?.path();
        if !opts.wants(&path) {
            continue;
        }
        match fs::metadata(&path) {
            Ok(meta) if meta.is_file() => paths.push(path),
            Ok(_) => {}
            Err(e) => warnings.push(Warning::Unreadable { path, message: e.to_string() }),
        }
    }
    paths.sort();
    warnings.sort_by_key(|w| w.to_string());
    if let Some(w) = same_stems(dir, &paths) {
        warnings.push(w);
    }
    Ok((paths, warnings))
}

/// Whether documents of the sorted `paths` share a stem (`117.html`, `117.txt`): how many stems, and
/// the first such pair.
fn same_stems(dir: &Path, paths: &[PathBuf]) -> Option<Warning> {
    let mut by_stem: Vec<(&std::ffi::OsStr, &PathBuf)> =
        paths.iter().filter_map(|p| Some((p.file_stem()?, p))).collect();
    by_stem.sort();
    let mut stems = 0;
    let mut example = None;
    for (i, pair) in by_stem.windows(2).enumerate() {
        if pair[0].0 == pair[1].0 && (i == 0 || by_stem[i - 1].0 != pair[0].0) {
            stems += 1;
            let name = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            example.get_or_insert_with(|| (name(pair[0].1), name(pair[1].1)));
        }
    }
    example.map(|example| Warning::SameStems { dir: dir.to_path_buf(), stems, example })
}

fn load_folder(dir: &Path, opts: &LoadOptions) -> Result<Corpus> {
    let (paths, mut warnings) = document_files(dir, opts)?;
    let mut docs = Vec::with_capacity(paths.len());
    for path in paths {
        // One unreadable document (permission denied, a file gone since the folder was listed) is
        // reported and skipped: the rest of the history is still a corpus.
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                warnings.push(Warning::Unreadable { path, message: e.to_string() });
                continue;
            }
        };
        let Some((text, replaced)) = decode(bytes) else {
            warnings.push(Warning::Binary { path });
            continue;
        };
        if replaced > 0 {
            warnings.push(Warning::LossyUtf8 { path: path.clone(), replaced });
        }
        let id = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        docs.push(Document { id, text });
    }
    Ok(Corpus { name: String::new(), root: dir.to_path_buf(), docs, warnings })
}

fn load_jsonl(path: &Path) -> Result<Corpus> {
    let bytes = fs::read(path).map_err(|e| Error::io(path, e))?;
    let (text, replaced) = decode(bytes).ok_or_else(|| {
        Error::Invalid(format!(
            "{}: binary file (NUL bytes); expected a folder of documents or a .jsonl file",
            path.display()
        ))
    })?;
    let mut warnings = Vec::new();
    if replaced > 0 {
        warnings.push(Warning::LossyUtf8 { path: path.to_path_buf(), replaced });
    }
    let docs = parse_jsonl(&text, path)?;
    Ok(Corpus { name: String::new(), root: path.to_path_buf(), docs, warnings })
}

/// Parses JSON Lines of `{"id": …, "text": …}`; blank lines are skipped. `path` names the input in errors.
pub fn parse_jsonl(text: &str, path: &Path) -> Result<Vec<Document>> {
    let mut docs = Vec::new();
    for (i, line) in strip_bom(text).lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        docs.push(parse_record(line).map_err(|(column, message)| Error::JsonLine {
            path: path.to_path_buf(),
            line: i + 1,
            column,
            message,
        })?);
    }
    Ok(docs)
}

/// Text without the UTF-8 byte order mark some editors put at its start (it is no JSON).
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{FEFF}').unwrap_or(text)
}

/// One JSON Lines record as read: the document, and its `id` exactly as written, to echo it unchanged
/// (`42` stays a number, `1e2` stays `1e2`, a 23-digit id keeps every digit).
#[derive(Debug)]
pub struct Record<'a> {
    pub doc: Document,
    pub raw_id: &'a RawValue,
}

#[derive(Deserialize)]
struct Fields<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    text: Option<String>,
}

/// One JSON Lines record; the error carries a 1-based column.
pub fn parse_record(line: &str) -> std::result::Result<Document, (usize, String)> {
    parse_record_raw(line).map(|r| r.doc)
}

/// One JSON Lines record with its raw id; the error carries a 1-based column. A numeric id becomes the
/// document's id as written, digit for digit.
pub fn parse_record_raw(line: &str) -> std::result::Result<Record<'_>, (usize, String)> {
    let syntax = |e: serde_json::Error| {
        // serde_json ends with "at line 1 column N": the caller names line and column itself
        let msg = e.to_string();
        let msg = msg.rfind(" at line ").map_or(msg.as_str(), |i| &msg[..i]).to_string();
        (e.column().max(1), msg)
    };
    if !line.trim_start().starts_with('{') {
        // A struct would also read from an array: anything but an object is either bad JSON or no record.
        serde_json::from_str::<serde::de::IgnoredAny>(line).map_err(syntax)?;
        return Err((1, "not an object".to_string()));
    }
    let fields: Fields<'_> = serde_json::from_str(line).map_err(syntax)?;
    let raw_id = fields.id.ok_or((1, "missing \"id\" (or null)".to_string()))?;
    let id = match raw_id.get().as_bytes().first() {
        Some(b'"') => serde_json::from_str::<String>(raw_id.get()).map_err(syntax)?,
        Some(b'-' | b'0'..=b'9') => raw_id.get().to_string(),
        _ => return Err((1, "\"id\" must be a string or a number".into())),
    };
    let text = fields.text.ok_or((1, "missing \"text\" (or null)".to_string()))?;
    Ok(Record { doc: Document { id, text }, raw_id })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lossy_counts_invalid_sequences() {
        let (s, n) = decode(b"ok \xff\xfe and \xc3".to_vec()).unwrap();
        assert_eq!(n, 3, "\\xff and \\xfe are invalid apart; a truncated \\xc3 is one more");
        assert!(s.starts_with("ok \u{FFFD}"));
        assert!(decode(b"a\0b".to_vec()).is_none());
    }

    #[test]
    fn jsonl_error_names_line_and_column() {
        let err =
            parse_jsonl("{\"id\":1,\"text\":\"a\"}\n\n{\"id\": 2, \"text\": }\n", Path::new("x.jsonl")).unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("x.jsonl:3:"), "{msg}");
        let err = parse_jsonl("{\"id\":1}\n", Path::new("y.jsonl")).unwrap_err();
        assert!(err.to_string().contains("missing \"text\""), "{err}");
        let err = parse_jsonl("[\"a\", \"b\"]\n", Path::new("z.jsonl")).unwrap_err();
        assert!(
            err.to_string().contains("not an object"),
            "an array is no record, though a struct reads from one: {err}"
        );
    }

    #[test]
    fn a_raw_id_is_the_value_as_written_without_the_space_around_it() {
        let r = parse_record_raw("{\"id\" :  1.50e1 , \"text\": \"t\"}").unwrap();
        assert_eq!(r.raw_id.get(), "1.50e1");
        assert_eq!(r.doc.id, "1.50e1");
        let r = parse_record_raw("{\"text\": \"t\", \"id\": \"a\\u00e9\"}").unwrap();
        assert_eq!((r.raw_id.get(), r.doc.id.as_str()), ("\"a\\u00e9\"", "a\u{e9}"));
        assert!(parse_record_raw("{\"id\": true, \"text\": \"t\"}").unwrap_err().1.contains("string or a number"));
        let docs = parse_jsonl("\u{FEFF}{\"id\": 1, \"text\": \"a\"}\n", Path::new("bom.jsonl")).unwrap();
        assert_eq!(docs.len(), 1, "a byte order mark is skipped");
    }
}
