//! A source's corpus: the history of its documents (method.md §1).
//!
//! Read from a folder of `.txt` / `.html` files (one document each, ordered by file name) or from a JSON
//! Lines file of `{"id": …, "text": …}` records. Bad input never panics: invalid UTF-8 is decoded lossily
//! and counted, binary files are skipped, and both are reported as [`Warning`]s the caller shows.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

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
            return Err(Error::EmptyCorpus { path: path.to_path_buf() });
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

/// The tokenizer to mine a corpus with: as asked, else the one its rules file records, else what the
/// folder suggests ([`detect_tokenizer`]).
pub fn choose_tokenizer(
    asked: Option<crate::tokens::Tokenizer>,
    recorded: Option<crate::tokens::Tokenizer>,
    path: &Path,
) -> crate::tokens::Tokenizer {
    asked.or(recorded).unwrap_or_else(|| detect_tokenizer(path))
}

/// The tokenizer a corpus folder suggests: `html` when most of its documents are .html, else `text`.
pub fn detect_tokenizer(path: &Path) -> crate::tokens::Tokenizer {
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
    if html > txt { crate::tokens::Tokenizer::Html } else { crate::tokens::Tokenizer::Text }
}

/// Sub-folders of `root` that hold documents: the sources of a multi-source corpus (`mine --all`).
pub fn source_folders(root: &Path, opts: &LoadOptions) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(root).map_err(|e| Error::io(root, e))? {
        let path = entry.map_err(|e| Error::io(root, e))?.path();
        if path.is_dir() && !path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
            let has_docs = fs::read_dir(&path)
                .map_err(|e| Error::io(&path, e))?
                .filter_map(|e| e.ok())
                .any(|e| opts.wants(&e.path()));
            if has_docs {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Decodes bytes as UTF-8, lossily; `None` for binary (NUL bytes). The count is of replaced sequences.
pub fn decode(bytes: Vec<u8>) -> Option<(String, usize)> {
    if bytes.contains(&0) {
        return None;
    }
    match String::from_utf8(bytes) {
        Ok(s) => Some((s, 0)),
        Err(e) => {
            let bytes = e.into_bytes();
            let replaced = bytes.utf8_chunks().filter(|c| !c.invalid().is_empty()).count();
            Some((String::from_utf8_lossy(&bytes).into_owned(), replaced))
        }
    }
}

fn load_folder(dir: &Path, opts: &LoadOptions) -> Result<Corpus> {
    let mut paths: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| Error::io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && opts.wants(p))
        .collect();
    paths.sort();
    let mut docs = Vec::with_capacity(paths.len());
    let mut warnings = Vec::new();
    for path in paths {
        let bytes = fs::read(&path).map_err(|e| Error::io(&path, e))?;
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
    for (i, line) in text.lines().enumerate() {
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

/// One JSON Lines record; the error carries a 1-based column.
pub fn parse_record(line: &str) -> std::result::Result<Document, (usize, String)> {
    let value: serde_json::Value = serde_json::from_str(line).map_err(|e| {
        // serde_json ends with "at line 1 column N": the caller names line and column itself
        let msg = e.to_string();
        let msg = msg.rfind(" at line ").map_or(msg.as_str(), |i| &msg[..i]).to_string();
        (e.column().max(1), msg)
    })?;
    let obj = value.as_object().ok_or((1, "not an object".to_string()))?;
    let id = match obj.get("id") {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Number(n)) => n.to_string(),
        Some(_) => return Err((1, "\"id\" must be a string or a number".into())),
        None => return Err((1, "missing \"id\"".into())),
    };
    let text = match obj.get("text") {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(_) => return Err((1, "\"text\" must be a string".into())),
        None => return Err((1, "missing \"text\"".into())),
    };
    Ok(Document { id, text })
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
    }
}
