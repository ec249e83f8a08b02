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
    /// `117.txt`): the same pages twice, in two forms, mined as one source.
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
    /// Where each line of its HTML pages sits (their views' element paths), kept when the pages are
    /// replaced by their views' text for mining; region mining reads it. `None` for text.
    pub paths: Option<std::sync::Arc<crate::regions::SourcePaths>>,
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

/// How a document's bytes are text: UTF-8, UTF-16 announced by its byte order mark, or a legacy
/// encoding (windows-1251, Shift_JIS, …) that the page declares or the detector finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    /// UTF-8 after a byte order mark: the mark is no text, and a document written back keeps it.
    Utf8Bom,
    Utf16Le,
    Utf16Be,
    Legacy(&'static encoding_rs::Encoding),
}

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 | Encoding::Utf8Bom => "UTF-8",
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf16Be => "UTF-16BE",
            Encoding::Legacy(e) => e.name(),
        }
    }

    fn bom(self) -> &'static [u8] {
        match self {
            Encoding::Utf8 | Encoding::Legacy(_) => b"",
            Encoding::Utf8Bom => b"\xEF\xBB\xBF",
            Encoding::Utf16Le => b"\xFF\xFE",
            Encoding::Utf16Be => b"\xFE\xFF",
        }
    }

    /// What a replaced sequence is in this encoding, for messages.
    fn replaced_what(self) -> &'static str {
        match self {
            Encoding::Utf8 | Encoding::Utf8Bom => "invalid UTF-8 sequence(s)",
            Encoding::Utf16Le | Encoding::Utf16Be => "unpaired UTF-16 surrogate(s) or odd byte(s)",
            Encoding::Legacy(_) => "malformed byte sequence(s) of the encoding",
        }
    }
}

/// A document's bytes read as text, with where each of the text's bytes came from in the file.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The text, without a byte order mark; each sequence that could not be read is one U+FFFD.
    pub text: String,
    pub encoding: Encoding,
    /// How many sequences were replaced with U+FFFD.
    pub replaced: usize,
    /// A legacy encoding whose text, encoded again, is not the file's bytes (an encoding with two ways
    /// to write a character).
    unfaithful: bool,
    offsets: Offsets,
}

impl Decoded {
    /// Whether the text is the file's bytes exactly: encoding it again gives them back.
    pub fn exact(&self) -> bool {
        self.replaced == 0 && !self.unfaithful
    }

    /// `text` written as the document was: in its encoding, after its byte order mark if it had one.
    pub fn encode(&self, text: String) -> Vec<u8> {
        let bom = self.encoding.bom();
        match self.encoding {
            Encoding::Utf8 => text.into_bytes(),
            Encoding::Utf8Bom => [bom, text.as_bytes()].concat(),
            // what cleaning leaves is the page's own characters: each has its bytes in the encoding
            Encoding::Legacy(e) => e.encode(&text).0.into_owned(),
            Encoding::Utf16Le | Encoding::Utf16Be => {
                let mut out = Vec::with_capacity(bom.len() + 2 * text.len());
                out.extend_from_slice(bom);
                let be = self.encoding == Encoding::Utf16Be;
                for u in text.encode_utf16() {
                    out.extend_from_slice(&if be { u.to_be_bytes() } else { u.to_le_bytes() });
                }
                out
            }
        }
    }

    /// The file's byte offset of offset `i` (a char boundary) of the text: past the byte order mark, and a
    /// replaced sequence spans the bytes it replaced.
    pub fn file_offset(&self, i: usize) -> usize {
        self.offsets.file_offset(i)
    }

    /// Why the text is not the file's bytes exactly, for messages.
    pub fn inexact_message(&self) -> String {
        if self.replaced > 0 {
            format!("{} replaced with U+FFFD", self.replaced_message())
        } else {
            format!("read as {}, its text does not encode back to the same bytes", self.encoding.name())
        }
    }

    /// "N invalid UTF-8 sequence(s)" (or UTF-16's), for messages.
    pub fn replaced_message(&self) -> String {
        format!("{} {}", self.replaced, self.encoding.replaced_what())
    }
}

/// Text offsets to file offsets, as runs of characters that each take `text_step` bytes of the text and
/// `file_step` bytes of the file (an ASCII run of UTF-16: 1 and 2; a replaced sequence: 3 and its length).
/// No runs: the identity. Built in one pass; a lookup is a binary search.
#[derive(Debug, Clone, Default)]
struct Offsets {
    runs: Vec<Run>,
}

#[derive(Debug, Clone, Copy)]
struct Run {
    text: usize,
    file: usize,
    text_step: u32,
    file_step: u32,
}

impl Offsets {
    /// Characters from `text` (of the text) and `file` (of the file), each `text_step` and `file_step`
    /// bytes long; runs are pushed in order, and one of the same steps as the last extends it.
    fn push(&mut self, text: usize, file: usize, text_step: u32, file_step: u32) {
        if self.runs.last().is_some_and(|r| r.text_step == text_step && r.file_step == file_step) {
            return;
        }
        self.runs.push(Run { text, file, text_step, file_step });
    }

    fn file_offset(&self, i: usize) -> usize {
        let Some(k) = self.runs.partition_point(|r| r.text <= i).checked_sub(1) else {
            return i;
        };
        let r = self.runs[k];
        r.file + (i - r.text) / r.text_step as usize * r.file_step as usize
    }
}

/// Reads a document's bytes: UTF-16 after its byte order mark; else UTF-8 (after a byte order mark, if
/// one) when the bytes are UTF-8; else the legacy encoding the page declares in its first 1,024 bytes
/// (`<meta charset>`, `http-equiv` Content-Type, an XML declaration), else the one Mozilla's detector
/// finds; each sequence that cannot be read replaced with U+FFFD. `None` for binary (NUL bytes).
///
/// Bytes that are UTF-8 are read as UTF-8 whatever the page declares: a page saved again as UTF-8 keeps
/// its old declaration far more often than text in a legacy encoding is UTF-8 by chance. So are bytes
/// with at least as many UTF-8 characters beyond ASCII as invalid sequences (a UTF-8 page cut off in a
/// character, or with a stray byte): text in a legacy encoding almost never holds one.
pub fn read_text(bytes: Vec<u8>) -> Option<Decoded> {
    read_text_as(bytes, None)
}

/// [`read_text`], or with `forced` the bytes read in that encoding (a byte order mark still wins).
pub fn read_text_as(bytes: Vec<u8>, forced: Option<&'static encoding_rs::Encoding>) -> Option<Decoded> {
    let decoded = if bytes.starts_with(b"\xFF\xFE") {
        utf16(&bytes, Encoding::Utf16Le)
    } else if bytes.starts_with(b"\xFE\xFF") {
        utf16(&bytes, Encoding::Utf16Be)
    } else {
        if bytes.contains(&0) {
            return None;
        }
        let utf8_bom = bytes.starts_with(b"\xEF\xBB\xBF");
        let legacy = match forced {
            Some(e) if e == encoding_rs::UTF_8 => None,
            Some(e) => Some(e),
            None if utf8_bom || mostly_utf8(&bytes) => None,
            None => Some(declared(&bytes).unwrap_or_else(|| detected(&bytes))),
        };
        match legacy.filter(|e| !utf8_bom && *e != encoding_rs::UTF_8) {
            Some(e) => legacy_text(&bytes, e),
            None => utf8(bytes),
        }
    };
    (!decoded.text.contains('\0')).then_some(decoded)
}

/// Whether `bytes` are UTF-8, or UTF-8 with a few invalid sequences: at least as many characters beyond
/// ASCII as invalid sequences, and one of them.
fn mostly_utf8(bytes: &[u8]) -> bool {
    if std::str::from_utf8(bytes).is_ok() {
        return true;
    }
    let (mut wide, mut invalid) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        // a lead byte starts each character beyond ASCII
        wide += chunk.valid().bytes().filter(|&b| b >= 0xC0).count();
        invalid += usize::from(!chunk.invalid().is_empty());
    }
    wide > 0 && wide >= invalid
}

/// The encoding a page declares in its first 1,024 bytes, as a browser's prescan finds it (UTF-16 and
/// x-user-defined labels aside: bytes without a byte order mark and with no NUL are not UTF-16).
fn declared(bytes: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = &bytes[..bytes.len().min(1024)];
    let lower: Vec<u8> = head.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = find(&lower[from..], b"charset").map(|i| from + i) {
        from = at + 7;
        let rest = &lower[from..];
        let rest = &rest[rest.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(rest.len())..];
        let Some(rest) = rest.strip_prefix(b"=") else { continue };
        let rest = &rest[rest.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(rest.len())..];
        let rest = rest.strip_prefix(b"\"").or_else(|| rest.strip_prefix(b"'")).unwrap_or(rest);
        let end = rest.iter().position(|c| matches!(c, b'"' | b'\'' | b';' | b'>' | b' ' | b'/')).unwrap_or(rest.len());
        if let Some(e) = encoding_rs::Encoding::for_label(&rest[..end]) {
            return (e != encoding_rs::UTF_16LE && e != encoding_rs::UTF_16BE && e != encoding_rs::X_USER_DEFINED)
                .then_some(e);
        }
    }
    // an XML declaration: <?xml version="1.0" encoding="…"?>
    let decl = lower.strip_prefix(b"<?xml")?;
    let at = find(decl, b"encoding=")? + 9;
    let rest = &decl[at..];
    let rest = rest.strip_prefix(b"\"").or_else(|| rest.strip_prefix(b"'")).unwrap_or(rest);
    let end = rest.iter().position(|c| matches!(c, b'"' | b'\'' | b'?' | b' ')).unwrap_or(rest.len());
    encoding_rs::Encoding::for_label(&rest[..end])
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The encoding Mozilla's detector (chardetng, as Firefox uses it) finds for bytes that are not UTF-8.
fn detected(bytes: &[u8]) -> &'static encoding_rs::Encoding {
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(bytes, true);
    detector.guess(None, true)
}

/// `bytes` decoded in the legacy encoding `e`, with where each character came from. A single-byte
/// encoding maps each character to its byte; a multi-byte one is fed to the decoder a byte at a time, so
/// each character's bytes are known (still one pass).
fn legacy_text(bytes: &[u8], e: &'static encoding_rs::Encoding) -> Decoded {
    let mut decoder = e.new_decoder_without_bom_handling();
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 2);
    let mut offsets = Offsets::default();
    let mut replaced = 0;
    if e.is_single_byte() {
        let (decoded, malformed) = e.decode_without_bom_handling(bytes);
        for (file, c) in decoded.chars().enumerate() {
            offsets.push(text.len(), file, c.len_utf8() as u32, 1);
            text.push(c);
            replaced += usize::from(malformed && c == '\u{FFFD}');
        }
    } else {
        // `start`: the first byte of the character being decoded
        let mut start = 0;
        for i in 0..=bytes.len() {
            let (last, src) = if i == bytes.len() { (true, &bytes[i..]) } else { (false, &bytes[i..i + 1]) };
            text.reserve(decoder.max_utf8_buffer_length(src.len()).unwrap_or(16));
            let before = text.len();
            let (_, _, malformed) = decoder.decode_to_string(src, &mut text, last);
            replaced += usize::from(malformed);
            if text.len() > before {
                // one character a byte at most, but a decoder may hold a byte back and emit two
                let file = start;
                for (k, c) in text[before..].char_indices() {
                    let step = if k == 0 { (i + 1).min(bytes.len()) - file } else { 0 };
                    offsets.push(before + k, file, c.len_utf8() as u32, step as u32);
                }
                start = (i + 1).min(bytes.len());
            }
        }
    }
    let unfaithful = e.encode(&text).0.as_ref() != bytes;
    Decoded { text, encoding: Encoding::Legacy(e), replaced, unfaithful, offsets }
}

fn utf8(mut bytes: Vec<u8>) -> Decoded {
    let (encoding, skip) =
        if bytes.starts_with(b"\xEF\xBB\xBF") { (Encoding::Utf8Bom, 3) } else { (Encoding::Utf8, 0) };
    bytes.drain(..skip);
    let mut offsets = Offsets::default();
    if skip > 0 {
        offsets.push(0, skip, 1, 1);
    }
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return Decoded { text, encoding, replaced: 0, unfaithful: false, offsets },
        Err(e) => e.into_bytes(),
    };
    let mut text = String::with_capacity(bytes.len());
    let (mut file, mut replaced) = (skip, 0);
    for chunk in bytes.utf8_chunks() {
        if !chunk.valid().is_empty() {
            offsets.push(text.len(), file, 1, 1);
            text.push_str(chunk.valid());
            file += chunk.valid().len();
        }
        let invalid = chunk.invalid().len();
        if invalid > 0 {
            // a maximal invalid sequence is at most 3 bytes
            offsets.push(text.len(), file, 3, invalid as u32);
            text.push('\u{FFFD}');
            file += invalid;
            replaced += 1;
        }
    }
    Decoded { text, encoding, replaced, unfaithful: false, offsets }
}

fn utf16(bytes: &[u8], encoding: Encoding) -> Decoded {
    let body = &bytes[2..];
    let be = encoding == Encoding::Utf16Be;
    let units = body
        .chunks_exact(2)
        .map(|u| if be { u16::from_be_bytes([u[0], u[1]]) } else { u16::from_le_bytes([u[0], u[1]]) });
    let mut text = String::with_capacity(body.len() / 2);
    let mut offsets = Offsets::default();
    let (mut file, mut replaced) = (2, 0);
    for c in char::decode_utf16(units) {
        let (c, units) = match c {
            Ok(c) => (c, c.len_utf16()),
            Err(_) => {
                replaced += 1;
                ('\u{FFFD}', 1)
            }
        };
        offsets.push(text.len(), file, c.len_utf8() as u32, 2 * units as u32);
        text.push(c);
        file += 2 * units;
    }
    if body.len() % 2 == 1 {
        offsets.push(text.len(), file, 3, 1);
        text.push('\u{FFFD}');
        replaced += 1;
    }
    Decoded { text, encoding, replaced, unfaithful: false, offsets }
}

/// Decodes bytes as [`read_text`] does (a byte order mark skipped, UTF-16 by its mark), lossily; `None`
/// for binary (NUL bytes). The count is of replaced sequences.
pub fn decode(bytes: Vec<u8>) -> Option<(String, usize)> {
    read_text(bytes).map(|d| (d.text, d.replaced))
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
        let Some(decoded) = read_text(bytes) else {
            warnings.push(Warning::Binary { path });
            continue;
        };
        if !decoded.exact() {
            let (replaced, encoding) = (decoded.replaced, decoded.encoding);
            warnings.push(Warning::Lossy { path: path.clone(), replaced, encoding });
        }
        let id = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        docs.push(Document { id, text: decoded.text });
    }
    Ok(Corpus { name: String::new(), root: dir.to_path_buf(), docs, warnings, paths: None })
}

fn load_jsonl(path: &Path) -> Result<Corpus> {
    let bytes = fs::read(path).map_err(|e| Error::io(path, e))?;
    let decoded = read_text(bytes).ok_or_else(|| {
        Error::Invalid(format!(
            "{}: binary file (NUL bytes); expected a folder of documents or a .jsonl file",
            path.display()
        ))
    })?;
    let mut warnings = Vec::new();
    if !decoded.exact() {
        let (replaced, encoding) = (decoded.replaced, decoded.encoding);
        warnings.push(Warning::Lossy { path: path.to_path_buf(), replaced, encoding });
    }
    let (docs, more) = parse_jsonl_warned(&decoded.text, path)?;
    warnings.extend(more);
    Ok(Corpus { name: String::new(), root: path.to_path_buf(), docs, warnings, paths: None })
}

/// Parses JSON Lines of `{"id": …, "text": …}`; blank lines are skipped. `path` names the input in errors.
pub fn parse_jsonl(text: &str, path: &Path) -> Result<Vec<Document>> {
    parse_jsonl_warned(text, path).map(|(docs, _)| docs)
}

/// [`parse_jsonl`], and a warning for each line whose lone surrogate escapes were replaced.
pub fn parse_jsonl_warned(text: &str, path: &Path) -> Result<(Vec<Document>, Vec<Warning>)> {
    let (mut docs, mut warnings) = (Vec::new(), Vec::new());
    for (i, line) in strip_bom(text).lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record = parse_record_raw(line).map_err(|(column, message)| Error::JsonLine {
            path: path.to_path_buf(),
            line: i + 1,
            column,
            message,
        })?;
        if record.lone_surrogates > 0 {
            let replaced = record.lone_surrogates;
            warnings.push(Warning::LoneSurrogates { path: path.to_path_buf(), line: i + 1, replaced });
        }
        docs.push(record.doc);
    }
    Ok((docs, warnings))
}

/// Text without the UTF-8 byte order mark some editors put at its start (it is no JSON).
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{FEFF}').unwrap_or(text)
}

/// One JSON Lines record as read: the document, and every field exactly as written, to echo them
/// unchanged (`42` stays a number, `1e2` stays `1e2`, a 23-digit id keeps every digit, a pipeline's `url`
/// and metadata come back).
#[derive(Debug)]
pub struct Record<'a> {
    /// The document; its text without a byte order mark.
    pub doc: Document,
    pub raw_id: &'a RawValue,
    /// Every field of the record, in order, each value as written.
    pub fields: Vec<(String, &'a RawValue)>,
    /// Whether the text began with a byte order mark (left out of `doc.text`, as a file's is).
    pub bom: bool,
    /// Escapes of half a UTF-16 pair (`\ud800`) in the id or text, each replaced with U+FFFD.
    pub lone_surrogates: usize,
}

/// A JSON object's fields in their order, values unparsed.
struct Fields<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Fields<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Fields<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> std::result::Result<Self::Value, M::Error> {
                let mut fields = Vec::new();
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    fields.push(entry);
                }
                Ok(Fields(fields))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// One JSON Lines record; the error carries a 1-based column.
pub fn parse_record(line: &str) -> std::result::Result<Document, (usize, String)> {
    parse_record_raw(line).map(|r| r.doc)
}

/// One JSON Lines record with its fields as written; the error carries a 1-based column. A numeric id
/// becomes the document's id as written, digit for digit.
pub fn parse_record_raw(line: &str) -> std::result::Result<Record<'_>, (usize, String)> {
    let syntax = |e: serde_json::Error| {
        // serde_json ends with "at line 1 column N": the caller names line and column itself
        let msg = e.to_string();
        let msg = msg.rfind(" at line ").map_or(msg.as_str(), |i| &msg[..i]).to_string();
        (e.column().max(1), msg)
    };
    if !line.trim_start().starts_with('{') {
        // Anything but an object is either bad JSON or no record.
        serde_json::from_str::<serde::de::IgnoredAny>(line).map_err(syntax)?;
        return Err((1, "not an object".to_string()));
    }
    let Fields(fields) = serde_json::from_str(line).map_err(syntax)?;
    let field = |name: &str| -> std::result::Result<Option<&RawValue>, (usize, String)> {
        let mut found = fields.iter().filter(|(k, _)| k == name).map(|(_, v)| *v);
        let first = found.next();
        if found.next().is_some() {
            return Err((1, format!("\"{name}\" given twice")));
        }
        Ok(first.filter(|v| v.get() != "null"))
    };
    let raw_id = field("id")?.ok_or((1, "missing \"id\" (or null)".to_string()))?;
    let mut lone_surrogates = 0;
    let id = match raw_id.get().as_bytes().first() {
        Some(b'"') => {
            let (id, lone) = json_string(raw_id.get());
            lone_surrogates += lone;
            id
        }
        Some(b'-' | b'0'..=b'9') => raw_id.get().to_string(),
        _ => return Err((1, "\"id\" must be a string or a number".into())),
    };
    let raw_text = field("text")?.ok_or((1, "missing \"text\" (or null)".to_string()))?;
    if !raw_text.get().starts_with('"') {
        return Err((1, "\"text\" must be a string".into()));
    }
    let (mut text, lone) = json_string(raw_text.get());
    lone_surrogates += lone;
    let bom = text.starts_with('\u{FEFF}');
    if bom {
        text.drain(..3);
    }
    Ok(Record { doc: Document { id, text }, raw_id, fields, bom, lone_surrogates })
}

/// The value of a JSON string literal that serde_json has checked (escapes well formed); an escape of
/// half a UTF-16 pair (`\ud800` alone, as Python's `json.dumps` writes one) becomes U+FFFD, counted.
fn json_string(raw: &str) -> (String, usize) {
    let mut rest = &raw[1..raw.len() - 1];
    let mut out = String::with_capacity(rest.len());
    let mut lone = 0;
    let hex = |s: &str| u32::from_str_radix(&s[..4], 16).unwrap_or(0xFFFD);
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let escape = rest.as_bytes()[i + 1];
        rest = &rest[i + 2..];
        let c = match escape {
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = hex(rest);
                rest = &rest[4..];
                match unit {
                    0xD800..0xDC00 if rest.starts_with("\\u") && (0xDC00..0xE000).contains(&hex(&rest[2..])) => {
                        let low = hex(&rest[2..]);
                        rest = &rest[6..];
                        char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)).unwrap_or('\u{FFFD}')
                    }
                    0xD800..0xE000 => {
                        lone += 1;
                        '\u{FFFD}'
                    }
                    _ => char::from_u32(unit).unwrap_or('\u{FFFD}'),
                }
            }
            other => other as char,
        };
        out.push(c);
    }
    out.push_str(rest);
    (out, lone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lossy_counts_invalid_sequences() {
        // UTF-8 with invalid sequences ("é" three times): read as UTF-8, each replaced
        let (s, n) = decode("ééé ok ".bytes().chain(*b"\xff\xfe and \xc3").collect()).unwrap();
        assert_eq!(n, 3, "\\xff and \\xfe are invalid apart; a truncated \\xc3 is one more");
        assert!(s.starts_with("ééé ok \u{FFFD}"));
        assert!(decode(b"a\0b".to_vec()).is_none());
    }

    #[test]
    fn bytes_with_no_utf8_beyond_ascii_are_read_in_the_encoding_found() {
        let d = read_text(b"Caf\xe9 cr\xe8me, the article.".to_vec()).unwrap();
        assert_eq!((d.text.as_str(), d.encoding.name(), d.exact()), ("Café crème, the article.", "windows-1252", true));
        // a UTF-8 page cut off inside a character stays UTF-8
        let d = read_text("Café crème ".bytes().chain(*b"\xc3").collect()).unwrap();
        assert_eq!((d.encoding, d.replaced), (Encoding::Utf8, 1));
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

    #[test]
    fn file_offsets_count_the_byte_order_mark_utf16_and_replaced_bytes() {
        let d = read_text(b"\xEF\xBB\xBFab".to_vec()).unwrap();
        assert_eq!((d.text.as_str(), d.encoding, d.file_offset(0), d.file_offset(2)), ("ab", Encoding::Utf8Bom, 3, 5));
        // "a", then a truncated 4-byte sequence (one U+FFFD), then "é"
        let d = read_text(b"a\xf0\x9f\x98\xc3\xa9".to_vec()).unwrap();
        assert_eq!((d.text.as_str(), d.replaced, d.file_offset(4)), ("a\u{FFFD}\u{e9}", 1, 4));
        let d = read_text(b"a\xff\xfe\xc3\xa9\xc3\xa9".to_vec()).unwrap();
        assert_eq!((d.text.as_str(), d.replaced), ("a\u{FFFD}\u{FFFD}\u{e9}\u{e9}", 2));
        let offsets: Vec<usize> = [0, 1, 4, 7, 9].iter().map(|&i| d.file_offset(i)).collect();
        assert_eq!(offsets, [0, 1, 2, 3, 5]);
        // UTF-16LE: "a" (1 ↔ 2), "é" (2 ↔ 2), "𝄞" (4 ↔ 4)
        let bytes = b"\xFF\xFEa\x00\xe9\x00\x34\xd8\x1e\xdd".to_vec();
        let d = read_text(bytes.clone()).unwrap();
        assert_eq!((d.text.as_str(), d.encoding, d.exact()), ("a\u{e9}\u{1D11E}", Encoding::Utf16Le, true));
        let offsets: Vec<usize> = [0, 1, 3, 7].iter().map(|&i| d.file_offset(i)).collect();
        assert_eq!(offsets, [2, 4, 6, 10]);
        assert_eq!(d.encode(d.text.clone()), bytes, "written back as read");
        assert!(read_text(b"\xFE\xFF\x00\x00".to_vec()).is_none(), "a NUL character is binary in UTF-16 too");
    }

    #[test]
    fn a_record_keeps_its_fields_in_order_and_reads_lone_surrogates() {
        let r = parse_record_raw("{\"b\": [1, 2], \"id\": 3, \"text\": \"\\ufeffx\\ud800\\u00e9\\\"\"}").unwrap();
        let keys: Vec<&str> = r.fields.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["b", "id", "text"]);
        assert_eq!(r.fields[0].1.get(), "[1, 2]");
        assert_eq!((r.doc.text.as_str(), r.bom, r.lone_surrogates), ("x\u{FFFD}\u{e9}\"", true, 1));
        assert!(parse_record_raw("{\"id\": 1, \"id\": 2, \"text\": \"\"}").unwrap_err().1.contains("twice"));
        for text in ["", "a\"b\\c/\u{8}\u{c}\n\r\t", "\u{e9}\u{1F600}\u{1}\u{FFFF}"] {
            assert_eq!(json_string(&serde_json::to_string(text).unwrap()), (text.to_string(), 0));
        }
        assert_eq!(json_string(r#""\u00e9\ud83d\ude00\/\ud83d\u0041""#), ("\u{e9}\u{1F600}/\u{FFFD}A".into(), 1));
    }
}
