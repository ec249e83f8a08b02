//! Crawls: many sources in one input. WARC and WARC.gz files (the HTML pages of their `response`
//! records), JSON Lines of `{"id", "text"}` records with a `url` or a `source` field, and folders of
//! sources, read as one stream of documents, each with the source it belongs to ([`group`]).
//!
//! [`gather`] reads every input once and spools its documents to one temporary file, so a crawl of
//! thousands of sources is never in memory: only the source being mined or checked is
//! ([`Crawl::corpus`]). The routed cleaner reads documents one batch at a time ([`open`]).

pub mod group;
mod http;
pub mod rules_dir;
pub mod spill;
mod spool;
pub mod warc;

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

pub use group::{Group, host_of, source_of};
pub use rules_dir::{Found, RulesDir};
pub use spool::{Crawl, Event, SourceDocs, gather};

use crate::corpus::{
    Corpus, LoadOptions, decode_lossy, document_files, parse_record_raw, read_text_as, source_folders,
};
use crate::error::{Error, Result};
use crate::view::DocKind;

/// A document of a crawl.
#[derive(Debug, Clone, PartialEq)]
pub struct CrawlDoc {
    /// Its id: a WARC record's `WARC-Record-ID` (without `<>`), a JSON Lines record's `id`, a file's stem.
    pub id: String,
    /// The id as a JSON value, as written in the input (`42` stays a number).
    pub id_json: String,
    pub url: Option<String>,
    /// The source it names itself: a record's `source` field, or the folder it lies in.
    pub source: Option<String>,
    pub text: String,
    /// HTML for a WARC page or an `.html` file, text for a `.txt` file; `None` when only its text tells.
    pub kind: Option<DocKind>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(path: &Path) -> Vec<Item> {
        open(path).unwrap().collect()
    }

    #[test]
    fn a_line_with_invalid_utf8_is_read_with_a_warning_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.jsonl");
        std::fs::write(&path, b"{\"id\": 1, \"source\": \"s\", \"text\": \"caf\xE9\"}\n").unwrap();
        let got = items(&path);
        assert!(matches!(&got[0], Item::Warn(m) if m.contains("c.jsonl:1: 1 invalid UTF-8")), "{got:?}");
        assert!(matches!(&got[1], Item::Doc(d) if d.text == "caf\u{FFFD}"), "{got:?}");
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn a_page_in_the_charset_its_headers_name_is_read_in_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.warc");
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1251\r\n\r\n<p>".to_vec();
        block.extend(encoding_rs::WINDOWS_1251.encode("Привет").0.iter());
        block.extend(b"</p>");
        let mut warc = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://a.example/\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        warc.extend(&block);
        warc.extend(b"\r\n\r\n");
        std::fs::write(&path, warc).unwrap();
        let got = items(&path);
        assert!(matches!(&got[..], [Item::Doc(d)] if d.text == "<p>Привет</p>" && d.id == "record-1"), "{got:?}");
    }
}

impl CrawlDoc {
    /// The source it belongs to under `group`; `None` when it names neither a source nor a URL with a host.
    pub fn source_under(&self, group: Group) -> Option<String> {
        source_of(self.source.as_deref(), self.url.as_deref(), group)
    }

    /// Checks `name`, its source, for naming the source's rules file `<name>.toml` in a rules folder (and
    /// its folder of cleaned files): a name that is a path (`../x`) would reach outside them. The error
    /// names the document and what to fix; whoever reads the crawl reports it and skips the document.
    pub fn check_source_name(&self, name: &str) -> std::result::Result<(), String> {
        if crate::rules::check_source_name(name).is_ok() {
            return Ok(());
        }
        let fix = match self.source {
            Some(_) => "fix its \"source\" field, or its folder's name",
            None => "give it a \"source\" field",
        };
        Err(format!(
            "document {}: {name:?} is not a usable source name: it names the rules file <source>.toml and the \
             folder of cleaned files, so it must be non-empty, at most {} bytes, not start with `.`, and hold no \
             `/`, `\\`, `:` or control characters; skipped ({fix})",
            self.id,
            crate::rules::MAX_SOURCE_NAME_BYTES
        ))
    }
}

/// One item of an input: a document, a record that holds no page (a request, metadata, a redirect, an
/// image: counted, not an error), or a bad record reported (its file, record or line, and what is wrong).
#[derive(Debug)]
pub enum Item {
    Doc(CrawlDoc),
    NotAPage,
    Bad(String),
    /// A document read, but not exactly (its bad bytes replaced): said, not an error.
    Warn(String),
}

/// The kind of input a path is, from its name, else its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    Warc { gzip: bool },
    JsonLines { gzip: bool },
    Folder,
}

/// What kind of input `path` is. A file that is none of them is an error saying what is read.
pub fn input_kind(path: &Path) -> Result<InputKind> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if meta.is_dir() {
        return Ok(InputKind::Folder);
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("").to_ascii_lowercase();
    let gzip = name.ends_with(".gz");
    let stem = name.trim_end_matches(".gz");
    if stem.ends_with(".warc") || stem.ends_with(".arc") {
        return Ok(InputKind::Warc { gzip });
    }
    if stem.ends_with(".jsonl") || stem.ends_with(".json") || stem.ends_with(".ndjson") {
        return Ok(InputKind::JsonLines { gzip });
    }
    // no telling name: the first bytes say
    let mut head = Vec::new();
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let gzip = {
        let mut r = BufReader::new(file);
        let buf = r.fill_buf().map_err(|e| Error::io(path, e))?;
        let gz = buf.starts_with(&[0x1f, 0x8b]);
        if gz {
            let mut d = flate2::bufread::MultiGzDecoder::new(r);
            let _ = std::io::Read::read_to_end(&mut std::io::Read::take(&mut d, 16), &mut head);
        } else {
            head.extend_from_slice(&buf[..buf.len().min(16)]);
        }
        gz
    };
    if head.starts_with(b"WARC/") {
        Ok(InputKind::Warc { gzip })
    } else if head.trim_ascii_start().starts_with(b"{") {
        Ok(InputKind::JsonLines { gzip })
    } else {
        Err(Error::Invalid(format!(
            "{}: neither a WARC file (`WARC/1.x` first), JSON Lines (`{{` first) nor a folder; give a .warc, .warc.gz, .jsonl or a folder of sources",
            path.display()
        )))
    }
}

fn reader(path: &Path, gzip: bool) -> Result<Box<dyn BufRead + Send>> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let file = BufReader::with_capacity(1 << 16, file);
    Ok(if gzip {
        Box::new(BufReader::with_capacity(1 << 16, flate2::bufread::MultiGzDecoder::new(file)))
    } else {
        Box::new(file)
    })
}

/// The documents of one input, read as a stream.
pub fn open(path: &Path) -> Result<Box<dyn Iterator<Item = Item> + Send>> {
    Ok(match input_kind(path)? {
        InputKind::Warc { gzip } => {
            let records = warc::Reader::new(reader(path, gzip)?, path);
            let path = path.to_path_buf();
            Box::new(records.flat_map(move |r| match r {
                Ok(record) => page_of(&record, &path),
                Err(message) => vec![Item::Bad(message)],
            }))
        }
        InputKind::JsonLines { gzip } => Box::new(json_lines(reader(path, gzip)?, path)),
        InputKind::Folder => folder(path)?,
    })
}

/// The HTML page of a WARC record, if it holds one: a `response` with a 2xx HTTP status and an HTML
/// media type (or none, and markup), or a `resource` record of HTML.
fn page_of(record: &warc::Record, path: &Path) -> Vec<Item> {
    match page_item(record, path) {
        Ok((doc, None)) => vec![Item::Doc(doc)],
        Ok((doc, Some(warning))) => vec![Item::Warn(warning), Item::Doc(doc)],
        Err(None) => vec![Item::NotAPage],
        Err(Some(message)) => vec![Item::Bad(message)],
    }
}

/// A record's page, and a warning when its bytes could not all be read; else `None` for a record that
/// holds no page, or what is wrong with it.
fn page_item(record: &warc::Record, path: &Path) -> Result<(CrawlDoc, Option<String>), Option<String>> {
    let kind = record.header("WARC-Type").unwrap_or_default().to_ascii_lowercase();
    let (body, charset) = match kind.as_str() {
        "response" => {
            let block_type = record.header("Content-Type").unwrap_or("application/http").to_ascii_lowercase();
            if !block_type.starts_with("application/http") {
                return Err(None);
            }
            let response = match http::parse(&record.block) {
                Ok(r) => r,
                Err(e) => return Err(Some(bad(record, path, &e))),
            };
            if !(200..300).contains(&response.status) || !html_type(&response.media_type, &response.body) {
                return Err(None);
            }
            (response.body, response.charset)
        }
        "resource" => {
            let media = record.header("Content-Type").unwrap_or_default().to_ascii_lowercase();
            let media = media.split(';').next().unwrap_or_default().trim().to_string();
            if !html_type(&media, &record.block) {
                return Err(None);
            }
            (record.block.clone(), None)
        }
        _ => return Err(None),
    };
    // bytes that are UTF-8 are read so whatever the headers say, as a page file is; else the HTTP
    // charset, else the page's own declaration or the detector
    let forced = charset.filter(|_| std::str::from_utf8(&body).is_err());
    let Some(decoded) = read_text_as(body, forced) else {
        return Err(Some(bad(record, path, "its payload holds NUL bytes: not a text page")));
    };
    let id = record.header("WARC-Record-ID").unwrap_or_default().trim_matches(['<', '>']).to_string();
    let id = if id.is_empty() { format!("record-{}", record.number) } else { id };
    let url = record.header("WARC-Target-URI").map(|u| u.trim_matches(['<', '>']).to_string());
    let warning = (decoded.replaced > 0).then(|| {
        format!(
            "{}: WARC record {} (at byte {}): {} replaced with U+FFFD",
            path.display(),
            record.number,
            record.offset,
            decoded.replaced_message()
        )
    });
    let doc = CrawlDoc {
        id_json: serde_json::to_string(&id).unwrap_or_default(),
        id,
        url,
        source: None,
        text: decoded.text,
        kind: Some(DocKind::Html),
    };
    Ok((doc, warning))
}

fn html_type(media: &str, body: &[u8]) -> bool {
    match media {
        "text/html" | "application/xhtml+xml" => true,
        "" => {
            DocKind::sniff(std::iter::once(String::from_utf8_lossy(&body[..body.len().min(1024)]).as_ref()))
                == DocKind::Html
        }
        _ => false,
    }
}

fn bad(record: &warc::Record, path: &Path, what: &str) -> String {
    format!("{}: WARC record {} (at byte {}): {what}; skipped", path.display(), record.number, record.offset)
}

/// JSON Lines records read from `input` (stdin, say), named `name` in messages.
pub fn json_lines(input: Box<dyn BufRead + Send>, name: &Path) -> impl Iterator<Item = Item> + Send + use<> {
    JsonLines { input, path: name.to_path_buf(), line: 0, pending: None }
}

/// JSON Lines records with a `url` or a `source` field beside `id` and `text`.
struct JsonLines {
    input: Box<dyn BufRead + Send>,
    path: PathBuf,
    line: usize,
    /// A document read after the warning about its line was given.
    pending: Option<Item>,
}

impl Iterator for JsonLines {
    type Item = Item;
    fn next(&mut self) -> Option<Item> {
        if let Some(item) = self.pending.take() {
            return Some(item);
        }
        loop {
            let mut bytes = Vec::new();
            match self.input.read_until(b'\n', &mut bytes) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => {
                    let at = self.line + 1;
                    // nothing can be read past a damaged stream
                    self.input = Box::new(std::io::empty());
                    return Some(Item::Bad(format!(
                        "{}:{at}: the file cannot be read further: {e}",
                        self.path.display()
                    )));
                }
            }
            self.line += 1;
            if self.line == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
                bytes.drain(..3);
            }
            let (line, replaced) = decode_lossy(bytes);
            if line.trim().is_empty() {
                continue;
            }
            let (path, n) = (self.path.display(), self.line);
            let record = match parse_record_raw(line.trim_end_matches(['\r', '\n'])) {
                Ok(r) => r,
                Err((col, msg)) => {
                    return Some(Item::Bad(format!("{path}:{n}:{col}: bad JSON Lines record: {msg}; skipped")));
                }
            };
            let string = |name: &str| {
                record
                    .fields
                    .iter()
                    .find(|(k, _)| k == name)
                    .and_then(|(_, v)| serde_json::from_str::<String>(v.get()).ok())
            };
            let doc = Item::Doc(CrawlDoc {
                id_json: record.raw_id.get().to_string(),
                url: string("url"),
                source: string("source"),
                id: record.doc.id,
                text: record.doc.text,
                kind: None,
            });
            let lone = record.lone_surrogates;
            if replaced == 0 && lone == 0 {
                return Some(doc);
            }
            self.pending = Some(doc);
            return Some(Item::Warn(format!(
                "{path}:{n}: {replaced} invalid UTF-8 sequence(s) and {lone} lone surrogate escape(s) replaced with U+FFFD"
            )));
        }
    }
}

/// A folder of sources (sub-folders of documents), or one source's folder: each document with its
/// folder's name as its source. One source's documents are in memory at a time.
fn folder(path: &Path) -> Result<Box<dyn Iterator<Item = Item> + Send>> {
    let opts = LoadOptions::default();
    let mut folders = source_folders(path, &opts)?;
    // A source's folder that holds a folder too (older pages, a stray copy) is still a source: its own
    // documents are read beside its sub-folders', never left out unsaid.
    if folders.is_empty() || !document_files(path, &opts)?.0.is_empty() {
        folders.insert(0, path.to_path_buf());
    }
    Ok(Box::new(folders.into_iter().flat_map(|dir| -> Box<dyn Iterator<Item = Item> + Send> {
        match Corpus::load(&dir) {
            Ok(corpus) => {
                let kind = crate::corpus::choose_kind(None, &dir, &corpus.docs);
                use crate::corpus::Warning;
                let mut items: Vec<Item> = corpus
                    .warnings
                    .iter()
                    .map(|w| match w {
                        Warning::Binary { .. } | Warning::Unreadable { .. } => Item::Bad(w.to_string()),
                        _ => Item::Warn(w.to_string()),
                    })
                    .collect();
                let name = corpus.name.clone();
                items.extend(corpus.docs.into_iter().map(|d| {
                    Item::Doc(CrawlDoc {
                        id_json: serde_json::to_string(&d.id).unwrap_or_default(),
                        id: d.id,
                        url: None,
                        source: Some(name.clone()),
                        text: d.text,
                        kind: Some(kind),
                    })
                }));
                Box::new(items.into_iter())
            }
            Err(e) => Box::new(std::iter::once(Item::Bad(format!("{e}; skipped")))),
        }
    })))
}
