//! JSON Lines corpora: a file of `{"id": …, "text": …}` records, one a line; each record's fields kept in
//! order with its id as written, so a cleaned record is written back with only its text changed.

use std::fmt;
use std::fs;
use std::path::Path;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{Corpus, Document, Warning, read_text};
use crate::error::{Error, Result};

pub(super) fn load_jsonl(path: &Path) -> Result<Corpus> {
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
