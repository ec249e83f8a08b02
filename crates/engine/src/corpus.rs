//! A source's corpus: the history of its documents (method.md §1).
//!
//! Read from a folder of `.txt` / `.html` files (one document each, ordered by file name) or from a JSON
//! Lines file of `{"id": …, "text": …}` records. Bad input never panics: invalid UTF-8 is decoded lossily
//! and counted, binary files are skipped, and both are reported as [`Warning`]s the caller shows.
//!
//! | concern | file |
//! |---|---|
//! | documents, warnings, a corpus and its name | `corpus.rs` |
//! | a folder of documents, its kind; the source folders of a folder of sources | `corpus/folder.rs` |
//! | a JSON Lines file of records | `corpus/jsonl.rs` |
//! | bytes to text: byte order marks, UTF-8, declared and detected legacy encodings | `corpus/encodings.rs` |

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

mod encodings;
mod folder;
mod jsonl;

pub use encodings::{Decoded, Encoding, decode, decode_lossy, read_text, read_text_as};
pub use folder::{choose_kind, corpus_files, document_files, source_folders, source_folders_checked};
pub use jsonl::{Record, parse_jsonl, parse_jsonl_warned, parse_record, parse_record_raw, strip_bom};

use folder::load_folder;
use jsonl::load_jsonl;

#[derive(Debug, Clone)]
pub struct Document {
    pub id: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// Sequences that could not be read (invalid UTF-8, unpaired UTF-16 surrogates) replaced by U+FFFD.
    Lossy { path: PathBuf, replaced: usize, encoding: Encoding },
    /// JSON Lines: `\ud800`-style escapes of half a character (Python's `json.dumps` writes them)
    /// replaced by U+FFFD.
    LoneSurrogates { path: PathBuf, line: usize, replaced: usize },
    /// A file with NUL bytes: not text, skipped.
    Binary { path: PathBuf },
    /// A document's name that cannot be read (a symbolic link loop, a dangling link, no permission): skipped.
    Unreadable { path: PathBuf, message: String },
    /// Documents of a folder that share their stem with another of its documents (`117.html` and
    /// `117.txt`): the same pages in two forms. One form of each is read (`example.0`, the HTML one) and
    /// the others skipped (`example.1`).
    SameStems { dir: PathBuf, stems: usize, example: (String, String) },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::Lossy { path, replaced, encoding } => write!(
                f,
                "{}: {replaced} {} replaced with U+FFFD (convert the file to UTF-8 to keep them)",
                path.display(),
                encoding.replaced_what()
            ),
            Warning::LoneSurrogates { path, line, replaced } => write!(
                f,
                "{}:{line}: {replaced} lone surrogate escape(s) (half a UTF-16 pair, as \\ud800) replaced with U+FFFD",
                path.display()
            ),
            Warning::Binary { path } => write!(f, "{}: binary file (NUL bytes), skipped", path.display()),
            Warning::Unreadable { path, message } => {
                write!(f, "{}: cannot be read, skipped: {message}", path.display())
            }
            Warning::SameStems { dir, stems, example: (a, b) } => write!(
                f,
                "{}: {stems} page(s) come in two forms (e.g. {a} and {b}): only the first form of each is read (HTML before text); to use the other, put it in a folder of its own",
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
    /// Where each line of its HTML pages sits (their views' element paths), kept when the pages are
    /// replaced by their views' text for mining; region mining reads it. `None` for text.
    pub paths: Option<std::sync::Arc<crate::view::paths::SourcePaths>>,
}

impl Corpus {
    /// A corpus from documents in memory (tests, benchmarks, the generator).
    pub fn from_docs(name: impl Into<String>, docs: Vec<Document>) -> Self {
        Corpus { name: name.into(), root: PathBuf::new(), docs, warnings: Vec::new(), paths: None }
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

/// The source name of a corpus path, as [`source_name`], or an error when the name is not UTF-8: it
/// would stand in as `source`, and every such folder would share one rules file.
pub fn source_name_checked(path: &Path) -> Result<String> {
    let real = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let name = if real.is_dir() { real.file_name() } else { real.file_stem() };
    if let Some(name) = name
        && name.to_str().is_none()
    {
        return Err(Error::Invalid(format!(
            "{}: the name {:?} is not UTF-8, so it cannot name the source's rules file <source>.toml; name the \
             source another way, or rename it",
            path.display(),
            name.to_string_lossy()
        )));
    }
    Ok(source_name(path))
}
