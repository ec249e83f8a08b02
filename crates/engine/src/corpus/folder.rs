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
    // the files read as documents: not the gold files beside the pages, one form of a page in two
    if let Ok((files, _)) = corpus_files(path, &LoadOptions::default()) {
        for file in files {
            match file.extension().and_then(|x| x.to_str()) {
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
/// symbolic link loop, a dangling link). Every file is listed, each a document to clean.
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
    Ok((paths, warnings))
}

/// The files of a folder read as a source's history: [`document_files`], with one form of each page
/// (`117.html` beside `117.txt` is one page, read as HTML) and a [`Warning::SameStems`] naming what was
/// left out. Mined twice, a page would count twice in every string's document frequency.
pub fn corpus_files(dir: &Path, opts: &LoadOptions) -> Result<(Vec<PathBuf>, Vec<Warning>)> {
    let (paths, mut warnings) = document_files(dir, opts)?;
    let (paths, twins) = one_form_per_page(dir, paths);
    warnings.extend(twins);
    Ok((paths, warnings))
}

/// Which form of a page is read when it comes in several: the HTML (its text form says less: no
/// structure, no hidden parts), then whatever sorts first.
fn form_rank(path: &Path) -> u8 {
    match path.extension().and_then(|x| x.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("html") => 0,
        Some("htm") => 1,
        _ => 2,
    }
}

/// `paths` with one file per stem (the same page as `117.html` and `117.txt` is one document, not two
/// with one id), sorted by name; and the warning naming the forms skipped, if any.
fn one_form_per_page(dir: &Path, mut paths: Vec<PathBuf>) -> (Vec<PathBuf>, Option<Warning>) {
    paths.sort_by(|a, b| a.file_stem().cmp(&b.file_stem()).then(form_rank(a).cmp(&form_rank(b))).then(a.cmp(b)));
    let name = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let (mut stems, mut example) = (0, None);
    let mut kept: Vec<PathBuf> = Vec::with_capacity(paths.len());
    // the form kept of the last page found in several, so a page in three forms counts once
    let mut twin: Option<PathBuf> = None;
    for path in paths {
        match kept.last() {
            Some(last) if last.file_stem() == path.file_stem() => {
                if twin.as_ref() != Some(last) {
                    stems += 1;
                    twin = Some(last.clone());
                }
                example.get_or_insert_with(|| (name(last), name(&path)));
            }
            _ => kept.push(path),
        }
    }
    kept.sort();
    let warning = example.map(|example| Warning::SameStems { dir: dir.to_path_buf(), stems, example });
    (kept, warning)
}

pub(super) fn load_folder(dir: &Path, opts: &LoadOptions) -> Result<Corpus> {
    let (paths, mut warnings) = corpus_files(dir, opts)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_in_several_forms_is_read_once_in_its_html_form_and_counted_once() {
        let paths: Vec<PathBuf> =
            ["b.txt", "a.txt", "a.htm", "a.html", "c.html", "b.html", "d.txt"].iter().map(PathBuf::from).collect();
        let (kept, warning) = one_form_per_page(Path::new("dir"), paths);
        let names: Vec<&str> = kept.iter().map(|p| p.to_str().unwrap()).collect();
        assert_eq!(names, ["a.html", "b.html", "c.html", "d.txt"]);
        let Some(Warning::SameStems { stems, example, .. }) = warning else { panic!("{warning:?}") };
        assert_eq!(stems, 2, "a (three forms) and b (two) are two pages");
        assert_eq!(example, ("a.html".to_string(), "a.htm".to_string()));
    }

    #[test]
    fn pages_in_one_form_each_are_all_read_with_no_warning() {
        let paths: Vec<PathBuf> = ["2.txt", "1.html", "10.txt"].iter().map(PathBuf::from).collect();
        let (kept, warning) = one_form_per_page(Path::new("dir"), paths);
        assert_eq!(kept, [PathBuf::from("1.html"), PathBuf::from("10.txt"), PathBuf::from("2.txt")]);
        assert!(warning.is_none());
    }
}
