//! Folder corpora: a source's folder of `.txt` / `.html` documents (one a file, ordered by name), the kind
//! of documents it holds, and the source folders of a folder of sources (`mine --all`).

use std::fs;
use std::path::{Path, PathBuf};

use super::{Corpus, Document, LoadOptions, Warning, read_text};
use crate::error::{Error, Result};
use crate::view::DocKind;

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

pub(super) fn load_folder(dir: &Path, opts: &LoadOptions) -> Result<Corpus> {
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
