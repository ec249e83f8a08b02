//! Python bindings of chaff: load or mine a source's rules, and clean documents with them, with the same
//! library calls as the command line (`chaff mine`, `chaff clean`), so the same rules file gives the same
//! output byte for byte. Cleaning many documents runs on all cores with the GIL released.

use std::path::PathBuf;
use std::sync::OnceLock;

use chaff::automatic::read_as_kind;
use chaff::cleaning::Cleaner;
use chaff::corpus::{Corpus, Document};
use chaff::draft::Draft;
use chaff::mining::{Quiet, mine as mine_corpus};
use chaff::page::{CleanedPage, Output, Page, explained_page};
use chaff::rules::RulesFile;
use chaff::settings::Settings;
use chaff::tokens::Tokenizer;
use chaff::view::DocKind;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;

mod diff;
mod docs;
mod workspace;

create_exception!(
    chaff,
    ChaffError,
    PyValueError,
    "Bad input to chaff: a malformed rules file (its message names file, line and column), an invalid rule, too few documents to mine. The message is the command line's."
);

create_exception!(
    chaff,
    BatchError,
    ChaffError,
    "Some documents of a batch could not be cleaned (`clean_many`): the others were. `results` holds every result in order, None where a document failed; `errors` the failures as (index, message)."
);

pub(crate) fn error(message: impl std::fmt::Display) -> PyErr {
    ChaffError::new_err(message.to_string())
}

/// Each of a rules file's warnings (keys chaff does not read) as a `UserWarning`.
pub(crate) fn warn_all(py: Python<'_>, warnings: &[String]) -> PyResult<()> {
    for w in warnings {
        let message = std::ffi::CString::new(w.replace('\0', "\\0")).expect("no NUL");
        PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), &message, 1)?;
    }
    Ok(())
}

fn output_of(name: &str, kind: DocKind) -> PyResult<Output> {
    let html = kind == DocKind::Html;
    match name {
        "cleaned" => Ok(Output::Cleaned),
        // as the command line: with text rules, --text and --keep-tags change nothing
        "text" => Ok(if html { Output::Text } else { Output::Cleaned }),
        "keep-tags" => Ok(if html { Output::KeepTags } else { Output::Cleaned }),
        other => Err(error(format!("output {other:?}: expected \"cleaned\", \"text\" or \"keep-tags\""))),
    }
}

fn written(cleaned: CleanedPage, output: Output) -> String {
    cleaned.write(output)
}

/// A source's rules file, loaded or mined, and the cleaners built from it (on first use).
#[pyclass(module = "chaff", name = "Rules", frozen)]
struct Rules {
    file: RulesFile,
    /// Names the rules in error messages: the file's path, or `<mined SOURCE>`.
    origin: String,
    accepted: OnceLock<Result<Cleaner, String>>,
    with_pending: OnceLock<Result<Cleaner, String>>,
}

impl Rules {
    fn new(file: RulesFile, origin: String) -> Self {
        Rules { file, origin, accepted: OnceLock::new(), with_pending: OnceLock::new() }
    }

    /// The cleaner `chaff clean --rules FILE [--include-pending]` builds.
    fn cleaner(&self, include_pending: bool) -> PyResult<&Cleaner> {
        let cell = if include_pending { &self.with_pending } else { &self.accepted };
        cell.get_or_init(|| Cleaner::new(&self.file, include_pending).map_err(|e| format!("{}: {e}", self.origin)))
            .as_ref()
            .map_err(error)
    }
}

#[pymethods]
impl Rules {
    /// Loads a rules file (`rules/<source>.toml`), as `chaff clean --rules PATH` does.
    ///
    /// Raises ChaffError naming file, line and column when the file is malformed.
    /// Keys chaff does not read (a misspelled `stauts = "accepted"` leaves a rule pending) are each a
    /// `UserWarning` naming file, line and column, as the command line's warnings.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Rules> {
        let (file, warnings) = py.detach(|| RulesFile::load_checked(&path)).map_err(error)?;
        warn_all(py, &warnings)?;
        Ok(Rules::new(file, path.display().to_string()))
    }

    /// Rules from the text of a rules file; `name` stands for the file in error messages and warnings.
    #[staticmethod]
    #[pyo3(signature = (text, name = "<string>"))]
    fn from_toml(py: Python<'_>, text: &str, name: &str) -> PyResult<Rules> {
        let (file, warnings) = RulesFile::parse_checked(text, std::path::Path::new(name)).map_err(error)?;
        warn_all(py, &warnings)?;
        Ok(Rules::new(file, name.to_string()))
    }

    /// The rules file's text, as `save` writes it and `chaff mine` would.
    fn to_toml(&self) -> String {
        self.file.to_toml()
    }

    /// Writes the rules file atomically (a temporary file beside it, then a rename).
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| self.file.save(&path)).map_err(error)
    }

    /// The source's name.
    #[getter]
    fn source(&self) -> &str {
        &self.file.source
    }

    /// "text" or "html".
    #[getter]
    fn tokenizer(&self) -> &'static str {
        match self.file.tokenizer {
            Tokenizer::Text => "text",
            Tokenizer::Html => "html",
        }
    }

    /// The kind of the source's documents, "text" or "html" (HTML is cleaned on its page view).
    #[getter]
    fn input(&self) -> &'static str {
        self.file.input().name()
    }

    /// Documents the rules were mined from.
    #[getter]
    fn documents(&self) -> u64 {
        self.file.documents
    }

    /// Ids of the rules that clean: the accepted ones, and with `include_pending` the pending ones at or
    /// above the chosen cutoff.
    #[pyo3(signature = (*, include_pending = false))]
    fn rule_ids(&self, include_pending: bool) -> Vec<String> {
        self.file.active_rules(include_pending).map(|r| r.id.clone()).collect()
    }

    /// Every rule in the file, whatever its status.
    fn __len__(&self) -> usize {
        self.file.rules.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<chaff.Rules source={:?} tokenizer={} rules={} documents={}>",
            self.file.source,
            self.tokenizer(),
            self.file.rules.len(),
            self.file.documents
        )
    }

    /// Pickled as the rules file's text (Spark ships rules to executors this way).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let this = slf.get();
        let from_toml = slf.get_type().getattr("from_toml")?;
        Ok((from_toml, (this.file.to_toml(), this.origin.clone())))
    }

    /// What changing these rules into `other` does to `docs` (the source's documents): the numbers
    /// `chaff diff --rules THIS --rules OTHER --json` prints, from the same library call. A dict:
    /// `documents`, `changed_documents`, `removed_inside`, `removed_outside`, `given_back_inside`,
    /// `given_back_outside` (words; inside or outside each page's article), `changed` (each changed
    /// document, most changed first: its `index` in `docs`, its word counts, and its `removed` and
    /// `given_back` runs of words), and where no rule was in force before, `stages_start` (the words of
    /// the cleaning stages that start, and of the change itself).
    #[pyo3(signature = (other, docs, *, include_pending = false))]
    fn diff<'py>(
        &self,
        py: Python<'py>,
        other: &Rules,
        docs: Vec<String>,
        include_pending: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        diff::diff(py, self, other, docs, include_pending)
    }

    /// One document without its template: what `chaff clean --rules FILE` writes for it.
    ///
    /// `include_pending` applies the pending rules at or above the cutoff too (`--include-pending`);
    /// `output` is "cleaned", or for HTML rules "text" (`--text`) or "keep-tags" (`--keep-tags`).
    /// A `str` gives a `str`; `bytes` are read as the command line reads a file and give the bytes it
    /// writes.
    #[pyo3(signature = (doc, *, include_pending = false, output = "cleaned"))]
    fn clean(
        &self,
        py: Python<'_>,
        doc: &Bound<'_, PyAny>,
        include_pending: bool,
        output: &str,
    ) -> PyResult<Py<PyAny>> {
        let output = output_of(output, self.file.input())?;
        let doc = docs::take_one(py, doc)?;
        // building a cleaner (compiling a large file's regexes) runs without the GIL too
        let cleaner = py.detach(|| self.cleaner(include_pending))?;
        let cleaned = py.detach(|| guarded(|| self.clean_one(cleaner, doc.text(), output))).map_err(error)?;
        Ok(doc.give_back(py, cleaned, output))
    }

    /// Many documents, cleaned on all cores with the GIL released; the results in order. A document that
    /// cannot be cleaned (None, binary bytes) fails alone: the batch raises `BatchError` at its end, with
    /// every result.
    #[pyo3(signature = (docs, *, include_pending = false, output = "cleaned"))]
    fn clean_many<'py>(
        &self,
        py: Python<'py>,
        docs: &Bound<'py, PyAny>,
        include_pending: bool,
        output: &str,
    ) -> PyResult<Bound<'py, PyList>> {
        let output = output_of(output, self.file.input())?;
        let (_, docs) = docs::take_all(py, docs)?;
        // building a cleaner (compiling a large file's regexes) runs without the GIL too
        let cleaner = py.detach(|| self.cleaner(include_pending))?;
        let cleaned: Vec<Result<String, String>> = py.detach(|| {
            docs.par_iter()
                .map(|d| {
                    let d = d.as_ref().map_err(Clone::clone)?;
                    guarded(|| self.clean_one(cleaner, d.text(), output))
                })
                .collect()
        });
        let results = docs
            .iter()
            .zip(cleaned)
            .map(|(d, c)| Ok(Some(d.as_ref().map_err(Clone::clone)?.give_back(py, c?, output))))
            .collect();
        docs::finish(py, results)
    }

    /// The ranges of a document removed or given back, and why, exactly as `chaff clean --explain` names
    /// them: a list of dicts with `start` and `end` (UTF-8 byte offsets into the document: the output of
    /// `clean` is the document less every removed range), `taken` (for an HTML range that keeps tags
    /// inside it, the `[start, end]` pieces it took; else absent), `char_start` and `char_end` (offsets into
    /// the Python string), `kind` ("removed", "cut-before", "cut-after", or "kept": given back by a stage
    /// or a keep rule, or a cut string's match a stage left in place, stage `cuts` where it cut nothing),
    /// `rules` (the ids of every rule that matched it) and `stages` (the cleaning stages that decided).
    #[pyo3(signature = (doc, *, include_pending = false))]
    fn explain<'py>(&self, py: Python<'py>, doc: &str, include_pending: bool) -> PyResult<Bound<'py, PyList>> {
        // building a cleaner (compiling a large file's regexes) runs without the GIL too
        let cleaner = py.detach(|| self.cleaner(include_pending))?;
        let (bom, text) = without_bom(doc);
        let spans = py.detach(|| {
            let cleaned = cleaner.clean_page_explained(Page::for_rules(text, &self.file));
            explained_page(cleaner, &cleaned, Output::Cleaned, &|i| i + bom)
        });
        // every offset, sorted: one pass over the document turns them into character offsets
        let mut bytes: Vec<usize> = spans.iter().flat_map(|s| [s.start, s.end]).collect();
        bytes.sort_unstable();
        bytes.dedup();
        let mut chars = Vec::with_capacity(bytes.len());
        let (mut at, mut count) = (0usize, 0usize);
        for &b in &bytes {
            count += doc[at..b].chars().count();
            at = b;
            chars.push(count);
        }
        let char_of = |byte: usize| chars[bytes.binary_search(&byte).expect("an offset of a span")];
        let out = PyList::empty(py);
        for s in &spans {
            let d = PyDict::new(py);
            d.set_item("start", s.start)?;
            d.set_item("end", s.end)?;
            d.set_item("char_start", char_of(s.start))?;
            d.set_item("char_end", char_of(s.end))?;
            if let Some(taken) = &s.taken {
                d.set_item("taken", taken.clone())?;
            }
            d.set_item("kind", s.kind)?;
            d.set_item("rules", &s.rules)?;
            d.set_item("stages", &s.stages)?;
            out.append(d)?;
        }
        Ok(out)
    }
}

impl Rules {
    /// One document cleaned as `chaff clean` cleans a file: a byte order mark is skipped (it would change
    /// what the stages see) and kept in the output.
    fn clean_one(&self, cleaner: &Cleaner, doc: &str, output: Output) -> String {
        let (bom, text) = without_bom(doc);
        let cleaned = written(cleaner.clean_page(Page::for_rules(text, &self.file)), output);
        if bom > 0 { format!("\u{FEFF}{cleaned}") } else { cleaned }
    }
}

/// `clean`, or a panic of the engine on this document as its error (the batch's other documents are
/// cleaned all the same).
pub(crate) fn guarded(clean: impl FnOnce() -> String) -> Result<String, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(clean)).map_err(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        format!("chaff failed on this document ({what}); please report it")
    })
}

/// The length of `doc`'s byte order mark (0 or 3 bytes) and the text after it.
fn without_bom(doc: &str) -> (usize, &str) {
    match doc.strip_prefix('\u{FEFF}') {
        Some(text) => ('\u{FEFF}'.len_utf8(), text),
        None => (0, doc),
    }
}

/// Mines a source's documents into its automatic rules: what `chaff mine` writes for a folder holding
/// `docs` (in this order) as a new source, with no options. The rules are pending until an editor decides;
/// clean with `include_pending=True` to apply them.
#[pyfunction]
#[pyo3(signature = (docs, source, preset = "text"))]
fn mine(py: Python<'_>, docs: Vec<String>, source: &str, preset: &str) -> PyResult<Rules> {
    let tokenizer = match preset {
        "text" => Tokenizer::Text,
        "html" => Tokenizer::Html,
        other => return Err(error(format!("preset {other:?}: expected \"text\" or \"html\""))),
    };
    let file = py
        .detach(|| {
            let width = docs.len().to_string().len();
            let docs =
                docs.into_iter().enumerate().map(|(i, text)| Document { id: format!("{i:0width$}"), text }).collect();
            let corpus = Corpus::from_docs(source, docs);
            // chaff's automatic configuration, as `chaff mine` with no flags
            let mut settings = Settings::default();
            settings.mining.tokenizer = tokenizer;
            // as `chaff mine`: HTML pages are mined on their views' text, unless preset is "html"
            let corpus = read_as_kind(corpus, None, None, &mut settings.mining);
            let mining = mine_corpus(&corpus, &settings.mining, &Quiet)?;
            // the draft `chaff mine` saves for a new source
            Draft::of_mining(std::sync::Arc::new(corpus), mining, None, &settings).map(|d| d.rules_file())
        })
        .map_err(error)?;
    Ok(Rules::new(file, format!("<mined {source}>")))
}

#[pymodule]
fn _chaff(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Rules>()?;
    m.add_class::<workspace::Workspace>()?;
    m.add_function(wrap_pyfunction!(workspace::source_of_py, m)?)?;
    m.add_function(wrap_pyfunction!(mine, m)?)?;
    m.add("ChaffError", m.py().get_type::<ChaffError>())?;
    m.add("BatchError", m.py().get_type::<BatchError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
