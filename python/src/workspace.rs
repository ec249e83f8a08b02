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
use chaff::rules::RulesFile;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::{Rules, error, output_of};

/// A folder of rules files (`rules/<source>.toml`), each document cleaned with its source's.
#[pyclass(module = "chaff", name = "Workspace", frozen)]
pub struct Workspace {
    dir: PathBuf,
    group: Group,
    loaded: Mutex<RulesDir<Rules>>,
    /// Sources whose rules file is unusable, and why: said every time one is asked for.
    unusable: Mutex<HashMap<String, String>>,
}

fn load(path: &std::path::Path) -> Result<Rules, String> {
    let file = RulesFile::load(path).map_err(|e| e.to_string())?;
    Ok(Rules::new(file, path.display().to_string()))
}

impl Workspace {
    /// A source's rules, loaded once while kept; a malformed file is an error naming it (every time it
    /// is asked).
    fn rules(&self, source: &str) -> Result<Option<Arc<Rules>>, String> {
        Ok(self.rules_of(&[source])?.pop().flatten())
    }

    /// The rules of each of `sources`, those not kept loaded in parallel.
    fn rules_of(&self, sources: &[&str]) -> Result<Vec<Option<Arc<Rules>>>, String> {
        for s in sources {
            chaff::rules::check_source_name(s).map_err(|e| e.to_string())?;
        }
        let (found, errors) = self.loaded.lock().unwrap_or_else(|e| e.into_inner()).get_many(sources, |_, p| load(p));
        let mut unusable = self.unusable.lock().unwrap_or_else(|e| e.into_inner());
        unusable.extend(errors);
        found
            .into_iter()
            .zip(sources)
            .map(|(f, s)| match f {
                Found::Rules(r) => Ok(Some(r)),
                Found::Missing => Ok(None),
                Found::Unusable => {
                    Err(unusable.get(*s).cloned().unwrap_or_else(|| format!("{s}: unusable rules file")))
                }
            })
            .collect()
    }

    fn source(&self, source: Option<&str>, url: Option<&str>) -> PyResult<String> {
        source_of(source, url, self.group).ok_or_else(|| {
            error("a document needs source= (its source's name) or url= (a URL with a host) to find its rules")
        })
    }

    /// One document cleaned with its source's rules; `None` when the source has no rules and `unknown`
    /// is "skip", the document itself when "pass".
    fn clean_one(
        &self,
        doc: &str,
        source: &str,
        include_pending: bool,
        output: &str,
        unknown: Unknown,
    ) -> Result<Option<String>, String> {
        let rules = self.rules(source)?;
        self.clean_with(doc, rules, include_pending, output, unknown)
    }

    /// One document cleaned with `rules` (its source's), or passed through or skipped without.
    fn clean_with(
        &self,
        doc: &str,
        rules: Option<Arc<Rules>>,
        include_pending: bool,
        output: &str,
        unknown: Unknown,
    ) -> Result<Option<String>, String> {
        match rules {
            Some(rules) => {
                let out = output_of(output, rules.file.input()).map_err(|e| e.to_string())?;
                let cleaner = rules.cleaner(include_pending).map_err(|e| e.to_string())?;
                Ok(Some(rules.clean_one(cleaner, doc, out)))
            }
            None if unknown == Unknown::Pass => Ok(Some(doc.to_string())),
            None => Ok(None),
        }
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
        doc: &str,
        source: Option<&str>,
        url: Option<&str>,
        include_pending: bool,
        output: &str,
        unknown: &str,
    ) -> PyResult<Option<String>> {
        let unknown = unknown_of(unknown)?;
        let source = self.source(source, url)?;
        py.detach(|| self.clean_one(doc, &source, include_pending, output, unknown)).map_err(error)
    }

    /// Many documents, each with its source's rules, on all cores with the GIL released; the results in
    /// order. `sources` and `urls` are lists as long as `docs` (either, or both: a source given wins).
    #[pyo3(signature = (docs, *, sources = None, urls = None, include_pending = false, output = "cleaned", unknown = "pass"))]
    #[allow(clippy::too_many_arguments)]
    fn clean_many(
        &self,
        py: Python<'_>,
        docs: Vec<String>,
        sources: Option<Vec<Option<String>>>,
        urls: Option<Vec<Option<String>>>,
        include_pending: bool,
        output: &str,
        unknown: &str,
    ) -> PyResult<Vec<Option<String>>> {
        let unknown = unknown_of(unknown)?;
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
        let named: Vec<String> = (0..docs.len())
            .map(|i| {
                let s = sources.as_ref().and_then(|l| l[i].as_deref());
                let u = urls.as_ref().and_then(|l| l[i].as_deref());
                self.source(s, u).map_err(|e| error(format!("document {i}: {e}")))
            })
            .collect::<PyResult<_>>()?;
        py.detach(|| {
            // each source's rules loaded once (in parallel), before the documents are shared out, and
            // held for them whatever the bound forgets
            let mut distinct: Vec<&str> = named.iter().map(String::as_str).collect();
            distinct.sort_unstable();
            distinct.dedup();
            let rules = self.rules_of(&distinct)?;
            let by_source: HashMap<&str, Option<Arc<Rules>>> = distinct.into_iter().zip(rules).collect();
            docs.par_iter()
                .zip(&named)
                .map(|(d, s)| self.clean_with(d, by_source[s.as_str()].clone(), include_pending, output, unknown))
                .collect::<Result<Vec<_>, String>>()
        })
        .map_err(error)
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
