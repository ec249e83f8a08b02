//! Documents as pipelines hand them over: `str` (an unpaired surrogate, which `json.loads` makes of
//! `"\ud800"`, read as U+FFFD, as `chaff clean` reads such a JSON line), or `bytes` read as `chaff clean`
//! reads a file (a byte order mark, UTF-8, the encoding the page declares, else a detector's guess) and
//! given back in that encoding. In a batch a bad document (`None`, a number, binary bytes) is its own
//! error: the others are cleaned, and the batch raises `BatchError` at its end with every result.

use std::ffi::CString;

use chaff::corpus::{Decoded, Encoding, read_text};
use chaff::page::Output;
use pyo3::exceptions::PyUserWarning;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString};

use crate::BatchError;

/// A document read from Python.
pub enum Doc {
    Text(String),
    Bytes(Decoded),
}

/// A document read, and what reading it replaced ("" when it was read exactly).
pub struct Taken {
    pub doc: Doc,
    pub inexact: String,
}

impl Doc {
    pub fn text(&self) -> &str {
        match self {
            Doc::Text(t) => t,
            Doc::Bytes(d) => &d.text,
        }
    }

    /// The cleaned text given back as the document came: `str`, or bytes as `chaff clean --out` writes
    /// the file (in its encoding; a legacy page's reader text in UTF-8).
    pub fn give_back(&self, py: Python<'_>, cleaned: String, output: Output) -> Py<PyAny> {
        match self {
            Doc::Text(_) => cleaned.into_pyobject(py).expect("a str").into_any().unbind(),
            Doc::Bytes(d) => {
                let bytes = match d.encoding {
                    Encoding::Legacy(_) if output == Output::Text => cleaned.into_bytes(),
                    _ => d.encode(cleaned),
                };
                PyBytes::new(py, &bytes).into_any().unbind()
            }
        }
    }
}

/// Reads one document; the error says what it is instead.
pub fn take(obj: &Bound<'_, PyAny>) -> Result<Taken, String> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(match s.to_str() {
            Ok(text) => Taken { doc: Doc::Text(text.to_string()), inexact: String::new() },
            Err(_) => {
                let (text, replaced) = with_surrogates_replaced(s).map_err(|e| e.to_string())?;
                Taken {
                    doc: Doc::Text(text),
                    inexact: format!("{replaced} unpaired surrogate(s) replaced with U+FFFD"),
                }
            }
        });
    }
    // a Spark binary column's value is a bytearray
    let bytes = match (obj.cast::<PyBytes>(), obj.cast::<PyByteArray>()) {
        (Ok(b), _) => Some(b.as_bytes().to_vec()),
        (_, Ok(b)) => Some(b.to_vec()),
        _ => None,
    };
    if let Some(bytes) = bytes {
        let decoded = read_text(bytes).ok_or("binary (NUL bytes): not a text document")?;
        let inexact = if decoded.exact() { String::new() } else { decoded.inexact_message() };
        return Ok(Taken { doc: Doc::Bytes(decoded), inexact });
    }
    let kind = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
    Err(format!("expected str or bytes, got {kind}"))
}

/// A `str` that is not valid Unicode (an unpaired surrogate): each unpaired surrogate becomes one U+FFFD.
fn with_surrogates_replaced(s: &Bound<'_, PyString>) -> PyResult<(String, usize)> {
    let units = s.call_method1("encode", ("utf-16-le", "surrogatepass"))?;
    let units = units.cast::<PyBytes>()?.as_bytes();
    let mut replaced = 0;
    let text = char::decode_utf16(units.chunks_exact(2).map(|u| u16::from_le_bytes([u[0], u[1]])))
        .map(|c| {
            c.unwrap_or_else(|_| {
                replaced += 1;
                '\u{FFFD}'
            })
        })
        .collect();
    Ok((text, replaced))
}

/// Reads a document given alone: neither str nor bytes is a TypeError, binary bytes a ChaffError.
pub fn take_one(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Doc> {
    if !obj.is_instance_of::<PyString>() && !obj.is_instance_of::<PyBytes>() && !obj.is_instance_of::<PyByteArray>() {
        let kind = obj.get_type().name()?;
        return Err(pyo3::exceptions::PyTypeError::new_err(format!("doc: expected str or bytes, got {kind}")));
    }
    let taken = take(obj).map_err(crate::error)?;
    if !taken.inexact.is_empty() {
        warn_inexact(py, &[format!("the document: {}", taken.inexact)])?;
    }
    Ok(taken.doc)
}

/// Reads the documents of a batch: each read, or why it cannot be. Documents read inexactly are said in
/// one warning.
#[allow(clippy::type_complexity)]
pub fn take_all(py: Python<'_>, docs: &Bound<'_, PyAny>) -> PyResult<(Vec<Py<PyAny>>, Vec<Result<Doc, String>>)> {
    if docs.is_instance_of::<PyString>() || docs.is_instance_of::<PyBytes>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "docs: expected a sequence of documents, got one document (a str or bytes)",
        ));
    }
    let mut objs = Vec::with_capacity(docs.len().unwrap_or(0));
    let mut out = Vec::with_capacity(objs.capacity());
    let mut inexact = Vec::new();
    for (i, item) in docs.try_iter()?.enumerate() {
        let item = item?;
        out.push(take(&item).map(|t| {
            if !t.inexact.is_empty() {
                inexact.push(format!("document {i}: {}", t.inexact));
            }
            t.doc
        }));
        objs.push(item.unbind());
    }
    warn_inexact(py, &inexact)?;
    Ok((objs, out))
}

/// One warning for the documents read inexactly (the first few named).
pub fn warn_inexact(py: Python<'_>, inexact: &[String]) -> PyResult<()> {
    if inexact.is_empty() {
        return Ok(());
    }
    let named: Vec<&str> = inexact.iter().take(5).map(String::as_str).collect();
    let more =
        if inexact.len() > named.len() { format!("; {} more", inexact.len() - named.len()) } else { String::new() };
    let message = format!("{} document(s) not read exactly: {}{more}", inexact.len(), named.join("; "));
    let message = CString::new(message.replace('\0', "\\0")).expect("no NUL");
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 1)
}

/// A batch's results: the list, or when some documents failed, `BatchError` carrying it (`None` where a
/// document failed) and the failures as `(index, message)`.
pub fn finish<'py>(py: Python<'py>, results: Vec<Result<Option<Py<PyAny>>, String>>) -> PyResult<Bound<'py, PyList>> {
    let mut errors = Vec::new();
    let list = PyList::empty(py);
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Ok(out) => list.append(out)?,
            Err(e) => {
                errors.push((i, e));
                list.append(py.None())?;
            }
        }
    }
    if errors.is_empty() {
        return Ok(list);
    }
    let first: Vec<String> = errors.iter().take(3).map(|(i, e)| format!("document {i}: {e}")).collect();
    let more =
        if errors.len() > first.len() { format!("; {} more", errors.len() - first.len()) } else { String::new() };
    let message = format!(
        "{} of {} document(s) not cleaned (None in .results, each in .errors): {}{more}",
        errors.len(),
        list.len(),
        first.join("; ")
    );
    let err = BatchError::new_err(message);
    let value = err.value(py);
    value.setattr("results", list)?;
    value.setattr("errors", errors)?;
    Err(err)
}
