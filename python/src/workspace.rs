//! `chaff.Workspace`: a folder of rules files, one a source, and each document cleaned with its own
//! source's rules: named (`source=`), or found from its URL's host (`url=`), exactly as
//! `chaff clean --rules-dir DIR` routes it. Rules files are loaded when their source is first met and kept
//! while used (`chaff::crawl::RulesDir`: a bounded number of sources' rules, the least recently used
//! forgotten), so a workspace over a crawl of any number of sources holds a bounded amount of rules.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use chaff::crawl::rules_dir::DEFAULT_KEPT;
use chaff::crawl::{Found, Group, RulesDir, source_of};
use chaff::page::Output;
use chaff::rules::RulesFile;
use chaff::view::DocKind;
use pyo3::prelude::*;
use pyo3::types::PyList;
use rayon::prelude::*;

use crate::docs::{self, Doc};
use crate::{Rules, error, guarded, output_of, warn_all};

/// A folder of rules files (`rules/<source>.toml`), each document cleaned with its source's.
#[pyclass(module = "chaff", name = "Workspace", frozen)]
pub struct Workspace {
    dir: PathBuf,
    group: Group,
    loaded: Mutex<RulesDir<Rules>>,
    /// Sources whose rules file is unusable, and why: said every time one is asked for.
    unusable: Mutex<HashMap<String, String>>,
    /// Warnings of the rules files loaded since they were last said (a file's said each time it loads).
    warnings: Mutex<Vec<String>>,
}

/// A source's rules file, loaded; its warnings (keys chaff does not read) are kept for the caller to
/// say, with the GIL.
fn load(path: &std::path::Path, warnings: &Mutex<Vec<String>>) -> Result<Rules, String> {
    let (file, w) = RulesFile::load_checked(path).map_err(|e| e.to_string())?;
    warnings.lock().unwrap_or_else(|e| e.into_inner()).extend(w);
    Ok(Rules::new(file, path.display().to_string()))
}

const NO_SOURCE: &str = "a document needs source= (its source's name) or url= (a URL with a host) to find its rules";

/// What became of a document with its source's rules.
enum Fate {
    /// Cleaned, written as `Output`.
    Cleaned(String, Output),
    /// Its source has no rules file: given back as it came.
    Passed,
    /// Its source has no rules file: `None`.
    Skipped,
}

impl Workspace {
    /// The rules of each of `sources`, those not kept loaded in parallel: a source's rules, `None` when
    /// it has no rules file, or why it has none usable (a name that cannot be a rules file's, a malformed
    /// file: said every time it is asked).
    fn rules_of(&self, sources: &[&str]) -> Vec<Result<Option<Arc<Rules>>, String>> {
        let named: Vec<&str> = sources.iter().copied().filter(|s| chaff::rules::check_source_name(s).is_ok()).collect();
        let (found, errors) =
            self.loaded.lock().unwrap_or_else(|e| e.into_inner()).get_many(&named, |_, p| load(p, &self.warnings));
        let mut found: HashMap<&str, Found<Rules>> = named.into_iter().zip(found).collect();
        let mut unusable = self.unusable.lock().unwrap_or_else(|e| e.into_inner());
        unusable.extend(errors);
        sources
            .iter()
            .map(|s| {
                chaff::rules::check_source_name(s).map_err(|e| e.to_string())?;
                match found.remove(s).expect("each source looked up") {
                    Found::Rules(r) => Ok(Some(r)),
                    Found::Missing => Ok(None),
                    Found::Unusable => {
                        Err(unusable.get(*s).cloned().unwrap_or_else(|| format!("{s}: unusable rules file")))
                    }
                }
            })
            .collect()
    }

    /// Says the warnings of the rules files loaded lately, as `UserWarning`s.
    fn warn(&self, py: Python<'_>) -> PyResult<()> {
        let warnings = std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|e| e.into_inner()));
        warn_all(py, &warnings)
    }

    fn source(&self, source: Option<&str>, url: Option<&str>) -> PyResult<String> {
        source_of(source, url, self.group).ok_or_else(|| error(NO_SOURCE))
    }

    /// One document cleaned with `rules` (its source's), or passed through or skipped without.
    fn clean_with(
        &self,
        doc: &str,
        rules: Option<Arc<Rules>>,
        include_pending: bool,
        output: &str,
        unknown: Unknown,
    ) -> Result<Fate, String> {
        match rules {
            Some(rules) => {
                let out = output_of(output, rules.file.input()).map_err(|e| e.to_string())?;
                let cleaner = rules.cleaner(include_pending).map_err(|e| e.to_string())?;
                Ok(Fate::Cleaned(guarded(|| rules.clean_one(cleaner, doc, out))?, out))
            }
            None if unknown == Unknown::Pass => Ok(Fate::Passed),
            None => Ok(Fate::Skipped),
        }
    }
}

/// A document's result as Python sees it: the cleaned text as the document came, the document itself,
/// or `None`.
fn given_back(py: Python<'_>, obj: &Py<PyAny>, doc: &Doc, fate: Fate) -> Option<Py<PyAny>> {
    match fate {
        Fate::Cleaned(text, output) => Some(doc.give_back(py, text, output)),
        Fate::Passed => Some(obj.clone_ref(py)),
        Fate::Skipped => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Unknown {
    Pass,
    Skip,
}

fn unknown_of(name: &str) -> PyResult<Unknown> {
    match name {
        "pass" => Ok(Unknown::Pass),
        "skip" => Ok(Unknown::Skip),
        other => Err(error(format!("unknown {other:?}: expected \"pass\" or \"skip\""))),
    }
}

fn group_of(name: &str) -> PyResult<Group> {
    match name {
        "host" => Ok(Group::Host),
        "domain" => Ok(Group::Domain),
        other => Err(error(format!("group {other:?}: expected \"host\" or \"domain\""))),
    }
}

/// The source a document belongs to, as `chaff mine --all` and `chaff clean --rules-dir` find it:
/// `source` when given, else its URL's host (without port or `www.`) or, with group="domain", its
/// registrable domain; `None` when neither names one.
#[pyfunction(name = "source_of")]
#[pyo3(signature = (*, source = None, url = None, group = "host"))]
pub fn source_of_py(source: Option<&str>, url: Option<&str>, group: &str) -> PyResult<Option<String>> {
    Ok(source_of(source, url, group_of(group)?))
}

#[pymethods]
impl Workspace {
    /// A folder of rules files, as `chaff mine --all CRAWL --rules-dir DIR` writes it. `group` says how a
    /// URL names its source: "host" (without port or `www.`) or "domain" (its registrable domain), as
    /// `--group`. Nothing is read until a source is met.
    #[staticmethod]
    #[pyo3(signature = (dir, group = "host"))]
    fn load(dir: PathBuf, group: &str) -> PyResult<Workspace> {
        if !dir.is_dir() {
            return Err(error(format!(
                "{}: not a folder of rules files (chaff mine --all CRAWL --rules-dir DIR writes one)",
                dir.display()
            )));
        }
        Ok(Workspace {
            loaded: Mutex::new(RulesDir::new(&dir, DEFAULT_KEPT)),
            dir,
            group: group_of(group)?,
            unusable: Mutex::new(HashMap::new()),
            warnings: Mutex::new(Vec::new()),
        })
    }

    /// The source a document belongs to: `source` when given, else its URL's host (or domain).
    #[pyo3(signature = (*, source = None, url = None))]
    fn source_of(&self, source: Option<&str>, url: Option<&str>) -> PyResult<String> {
        self.source(source, url)
    }

    /// The sources that have a rules file in the folder, sorted.
    #[getter]
    fn sources(&self) -> PyResult<Vec<String>> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&self.dir).map_err(|e| error(format!("{}: {e}", self.dir.display())))? {
            let name = entry.map_err(|e| error(e.to_string()))?.file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".toml")
                && !stem.starts_with('.')
                && !stem.ends_with(".accepted")
            {
                out.push(stem.to_string());
            }
        }
        out.sort();
        Ok(out)
    }

    /// One document without its source's template, as `chaff clean --rules-dir DIR` writes it. Its source
    /// is `source`, else its `url`'s host. A source without a rules file: the document comes back as it is
    /// (`unknown="pass"`) or `None` (`unknown="skip"`).
    #[pyo3(signature = (doc, *, source = None, url = None, include_pending = false, output = "cleaned", unknown = "pass"))]
    #[allow(clippy::too_many_arguments)]
    fn clean(
        &self,
        py: Python<'_>,
        doc: &Bound<'_, PyAny>,
        source: Option<&str>,
        url: Option<&str>,
        include_pending: bool,
        output: &str,
        unknown: &str,
    ) -> PyResult<Option<Py<PyAny>>> {
        let unknown = unknown_of(unknown)?;
        output_of(output, DocKind::Html)?;
        let source = self.source(source, url)?;
        let taken = docs::take_one(py, doc)?;
        let fate = py
            .detach(|| {
                let rules = self.rules_of(&[source.as_str()]).pop().expect("one source")?;
                self.clean_with(taken.text(), rules, include_pending, output, unknown)
            })
            .map_err(error);
        self.warn(py)?;
        Ok(given_back(py, &doc.clone().unbind(), &taken, fate?))
    }

    /// Many documents, each with its source's rules, on all cores with the GIL released; the results in
    /// order. `sources` and `urls` are lists as long as `docs` (either, or both: a source given wins). A
    /// document that cannot be cleaned (no source, an unusable rules file, None) fails alone: the batch
    /// raises `BatchError` at its end, with every result.
    #[pyo3(signature = (docs, *, sources = None, urls = None, include_pending = false, output = "cleaned", unknown = "pass"))]
    #[allow(clippy::too_many_arguments)]
    fn clean_many<'py>(
        &self,
        py: Python<'py>,
        docs: &Bound<'py, PyAny>,
        sources: Option<Vec<Option<String>>>,
        urls: Option<Vec<Option<String>>>,
        include_pending: bool,
        output: &str,
        unknown: &str,
    ) -> PyResult<Bound<'py, PyList>> {
        let unknown = unknown_of(unknown)?;
        output_of(output, DocKind::Html)?;
        let (objs, docs) = docs::take_all(py, docs)?;
        for (name, list) in [("sources", &sources), ("urls", &urls)] {
            if let Some(l) = list
                && l.len() != docs.len()
            {
                return Err(error(format!(
                    "{name} has {} items for {} docs: give one a document",
                    l.len(),
                    docs.len()
                )));
            }
        }
        let named: Vec<Result<String, String>> = (0..docs.len())
            .map(|i| {
                let s = sources.as_ref().and_then(|l| l[i].as_deref());
                let u = urls.as_ref().and_then(|l| l[i].as_deref());
                source_of(s, u, self.group).ok_or_else(|| NO_SOURCE.to_string())
            })
            .collect();
        let cleaned: Vec<Result<Fate, String>> = py.detach(|| {
            // each source's rules loaded once (in parallel), before the documents are shared out, and
            // held for them whatever the bound forgets; a source that cannot name a rules file, or whose
            // file is unusable, fails its documents alone
            let mut distinct: Vec<&str> = named.iter().filter_map(|s| s.as_deref().ok()).collect();
            distinct.sort_unstable();
            distinct.dedup();
            let rules = self.rules_of(&distinct);
            let by_source: HashMap<&str, Result<Option<Arc<Rules>>, String>> =
                distinct.into_iter().zip(rules).collect();
            docs.par_iter()
                .zip(&named)
                .map(|(d, s)| {
                    let d = d.as_ref().map_err(Clone::clone)?;
                    let rules = by_source[s.as_deref().map_err(Clone::clone)?].clone()?;
                    self.clean_with(d.text(), rules, include_pending, output, unknown)
                })
                .collect()
        });
        let results = objs
            .iter()
            .zip(&docs)
            .zip(cleaned)
            .map(|((obj, d), fate)| Ok(given_back(py, obj, d.as_ref().map_err(Clone::clone)?, fate?)))
            .collect();
        self.warn(py)?;
        docs::finish(py, results)
    }

    fn __repr__(&self) -> String {
        format!("<chaff.Workspace {:?}>", self.dir.display().to_string())
    }

    /// Pickled as its folder and grouping (Spark ships it to executors this way: the folder must be
    /// reachable there, as a shared path or through SparkContext.addFile).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (PathBuf, &'static str))> {
        let this = slf.get();
        let load = slf.get_type().getattr("load")?;
        let group = if this.group == Group::Domain { "domain" } else { "host" };
        Ok((load, (this.dir.clone(), group)))
    }
}
