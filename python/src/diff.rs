//! `Rules.diff`: what a rules change does to a source's documents, the numbers `chaff diff --json` prints,
//! from the same library call (`chaff::impact`), as a dict.

use chaff::corpus::Document;
use chaff::impact::{Baseline, Impact, Totals, WordRange};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::{Rules, error};

/// What changing `before`'s rules into `after`'s does to `docs` (see `Rules.diff`).
pub fn diff<'py>(
    py: Python<'py>,
    before: &Rules,
    after: &Rules,
    docs: Vec<String>,
    include_pending: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let impact = py
        .detach(|| {
            let docs = docs.into_iter().enumerate().map(|(i, text)| Document { id: i.to_string(), text }).collect();
            Baseline::new(&before.file, docs, include_pending)?.impact(&after.file)
        })
        .map_err(error)?;
    as_dict(py, &impact)
}

fn as_dict<'py>(py: Python<'py>, impact: &Impact) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("documents", impact.documents)?;
    d.set_item("changed_documents", impact.changed.len())?;
    totals(&d, &impact.totals())?;
    let changed = PyList::empty(py);
    for doc in &impact.changed {
        let c = PyDict::new(py);
        c.set_item("index", doc.index)?;
        c.set_item("removed_inside", doc.removed_inside)?;
        c.set_item("removed_outside", doc.removed_outside)?;
        c.set_item("given_back_inside", doc.given_back_inside)?;
        c.set_item("given_back_outside", doc.given_back_outside)?;
        c.set_item("removed", runs(py, &doc.removed)?)?;
        c.set_item("given_back", runs(py, &doc.given_back)?)?;
        changed.append(c)?;
    }
    d.set_item("changed", changed)?;
    if let Some(split) = &impact.stages_start {
        let s = PyDict::new(py);
        for (key, part) in [("stages", &split.stages), ("change", &split.change)] {
            let t = PyDict::new(py);
            t.set_item("documents", part.documents)?;
            totals(&t, part)?;
            s.set_item(key, t)?;
        }
        d.set_item("stages_start", s)?;
    }
    Ok(d)
}

fn totals(d: &Bound<'_, PyDict>, t: &Totals) -> PyResult<()> {
    d.set_item("removed_inside", t.removed_inside)?;
    d.set_item("removed_outside", t.removed_outside)?;
    d.set_item("given_back_inside", t.given_back_inside)?;
    d.set_item("given_back_outside", t.given_back_outside)
}

/// Runs of words as dicts: `start`, `end` (byte offsets into the text the cleaner reads: the document, or
/// an HTML page's view), `words`, `inside` (the article block).
fn runs<'py>(py: Python<'py>, runs: &[WordRange]) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for r in runs {
        let d = PyDict::new(py);
        d.set_item("start", r.start)?;
        d.set_item("end", r.end)?;
        d.set_item("words", r.words)?;
        d.set_item("inside", r.inside)?;
        out.append(d)?;
    }
    Ok(out)
}
