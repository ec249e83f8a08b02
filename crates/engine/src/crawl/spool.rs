//! A crawl read once and grouped into sources: its documents written, in the order read, to one
//! temporary file, and per source where its documents lie in it. Memory holds the index, never the
//! crawl; a source's documents are read back together when it is mined or checked.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::{CrawlDoc, Group, Item, open};
use crate::corpus::{Corpus, Document};
use crate::error::{Error, Result};
use crate::view::DocKind;

/// One source of a crawl: its name, how many documents and bytes it has, and where they lie.
#[derive(Debug, Clone)]
pub struct SourceDocs {
    pub name: String,
    pub documents: usize,
    pub bytes: u64,
    /// The kind every document of it has, when they all have one (WARC pages: HTML).
    pub kind: Option<DocKind>,
    mixed: bool,
    entries: Vec<(u64, u32)>,
}

/// A crawl grouped into sources (see [`gather`]).
#[derive(Debug)]
pub struct Crawl {
    file: Mutex<File>,
    /// The sources, in the order their first document was read.
    pub sources: Vec<SourceDocs>,
    /// Documents read and grouped, and their bytes of text.
    pub documents: usize,
    pub bytes: u64,
    /// Records that hold no page (requests, metadata, redirects, images): not errors.
    pub not_pages: usize,
    /// Bad records, unreadable inputs and documents with no source: each reported, skipped.
    pub bad: usize,
}

/// What [`gather`] tells as it reads.
#[derive(Debug)]
pub enum Event<'a> {
    /// A record, line or input reported and skipped (the run fails at its end).
    Bad(&'a str),
    /// A document read with its unreadable bytes replaced.
    Warn(&'a str),
    /// Another document read: the totals so far.
    Read { documents: usize, bytes: u64 },
}

/// Reads every input (WARC, WARC.gz, JSON Lines, folders of sources), groups its documents into sources
/// (their `source`, else their URL's host or domain under `group`), and spools them. Bad records and
/// unreadable inputs are told to `on` and skipped; only a failure of the spool file itself is an error.
pub fn gather(inputs: &[PathBuf], group: Group, on: &mut dyn FnMut(Event)) -> Result<Crawl> {
    let spool = tempfile::tempfile().map_err(|e| Error::io(std::env::temp_dir(), e))?;
    let mut w = BufWriter::with_capacity(1 << 20, spool);
    let mut at = 0u64;
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut sources: Vec<SourceDocs> = Vec::new();
    let (mut documents, mut bytes, mut not_pages, mut bad) = (0usize, 0u64, 0usize, 0usize);
    let spool_error = |e: std::io::Error| Error::io(std::env::temp_dir().join("(chaff's crawl spool)"), e);
    for input in inputs {
        let items = match open(input) {
            Ok(items) => items,
            Err(e) => {
                bad += 1;
                on(Event::Bad(&format!("{e}; skipped")));
                continue;
            }
        };
        for item in items {
            let doc = match item {
                Item::Doc(doc) => doc,
                Item::NotAPage => {
                    not_pages += 1;
                    continue;
                }
                Item::Bad(message) => {
                    bad += 1;
                    on(Event::Bad(&message));
                    continue;
                }
                Item::Warn(message) => {
                    on(Event::Warn(&message));
                    continue;
                }
            };
            let Some(name) = doc.source_under(group) else {
                bad += 1;
                on(Event::Bad(&format!(
                    "{}: document {}: names neither a source nor a URL with a host, so it belongs to no source; skipped (give it a \"source\" or a \"url\" field)",
                    input.display(),
                    doc.id
                )));
                continue;
            };
            if let Err(e) = doc.check_source_name(&name) {
                bad += 1;
                on(Event::Bad(&format!("{}: {e}", input.display())));
                continue;
            }
            let record = encode(&doc);
            w.write_all(&record).map_err(spool_error)?;
            let i = *index.entry(name.clone()).or_insert_with(|| {
                sources.push(SourceDocs {
                    name,
                    documents: 0,
                    bytes: 0,
                    kind: doc.kind,
                    mixed: false,
                    entries: Vec::new(),
                });
                sources.len() - 1
            });
            let s = &mut sources[i];
            s.documents += 1;
            s.bytes += doc.text.len() as u64;
            if s.kind != doc.kind && !s.mixed {
                s.mixed = true;
                s.kind = None;
            }
            s.entries.push((at, record.len() as u32));
            at += record.len() as u64;
            documents += 1;
            bytes += doc.text.len() as u64;
            on(Event::Read { documents, bytes });
        }
    }
    let file = w.into_inner().map_err(|e| spool_error(e.into_error()))?;
    Ok(Crawl { file: Mutex::new(file), sources, documents, bytes, not_pages, bad })
}

impl Crawl {
    /// A source by name.
    pub fn source(&self, name: &str) -> Option<&SourceDocs> {
        self.sources.iter().find(|s| s.name == name)
    }

    /// The documents of a source, in the order read.
    pub fn documents(&self, source: &SourceDocs) -> Result<Vec<CrawlDoc>> {
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let err = |e| Error::io(Path::new("(chaff's crawl spool)"), e);
        let mut docs = Vec::with_capacity(source.entries.len());
        let mut buf = Vec::new();
        for &(at, len) in &source.entries {
            file.seek(SeekFrom::Start(at)).map_err(err)?;
            buf.resize(len as usize, 0);
            file.read_exact(&mut buf).map_err(err)?;
            docs.push(
                decode(&buf).ok_or_else(|| Error::Invalid("the crawl's spool file was changed under chaff".into()))?,
            );
        }
        Ok(docs)
    }

    /// A source as a corpus to mine or check: named after it, its documents with their ids.
    pub fn corpus(&self, source: &SourceDocs) -> Result<Corpus> {
        let docs = self.documents(source)?;
        Ok(Corpus::from_docs(
            source.name.clone(),
            docs.into_iter().map(|d| Document { id: d.id, text: d.text }).collect(),
        ))
    }

    /// The kind of a source's documents: theirs when they agree, else what their text looks like.
    pub fn kind(&self, source: &SourceDocs, corpus: &Corpus) -> DocKind {
        source.kind.unwrap_or_else(|| DocKind::sniff(corpus.docs.iter().map(|d| d.text.as_str())))
    }
}

fn put(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn encode(doc: &CrawlDoc) -> Vec<u8> {
    let mut out = Vec::with_capacity(doc.text.len() + doc.id.len() * 2 + 64);
    put(&mut out, &doc.id);
    put(&mut out, &doc.id_json);
    put(&mut out, doc.url.as_deref().unwrap_or(""));
    put(&mut out, doc.source.as_deref().unwrap_or(""));
    out.push(match doc.kind {
        None => 0,
        Some(DocKind::Text) => 1,
        Some(DocKind::Html) => 2,
    });
    out.push(u8::from(doc.url.is_some()) | (u8::from(doc.source.is_some()) << 1));
    put(&mut out, &doc.text);
    out
}

fn decode(mut b: &[u8]) -> Option<CrawlDoc> {
    fn take(b: &mut &[u8]) -> Option<String> {
        let n = u64::from_le_bytes(b.get(..8)?.try_into().ok()?) as usize;
        let s = String::from_utf8(b.get(8..8 + n)?.to_vec()).ok()?;
        *b = &b[8 + n..];
        Some(s)
    }
    let (id, id_json, url, source) = (take(&mut b)?, take(&mut b)?, take(&mut b)?, take(&mut b)?);
    let (kind, has) = (*b.first()?, *b.get(1)?);
    b = &b[2..];
    let text = take(&mut b)?;
    Some(CrawlDoc {
        id,
        id_json,
        url: (has & 1 != 0).then_some(url),
        source: (has & 2 != 0).then_some(source),
        text,
        kind: match kind {
            1 => Some(DocKind::Text),
            2 => Some(DocKind::Html),
            _ => None,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spooled_document_reads_back_whole() {
        let doc = CrawlDoc {
            id: "urn:x".into(),
            id_json: "\"urn:x\"".into(),
            url: Some("https://a.example/".into()),
            source: None,
            text: "<p>é</p>".into(),
            kind: Some(DocKind::Html),
        };
        assert_eq!(decode(&encode(&doc)), Some(doc));
    }

    #[test]
    fn a_crawl_is_grouped_by_host_and_each_source_read_back_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.jsonl");
        let mut lines = String::new();
        for i in 0..6 {
            let host = ["a.example.com", "b.example.com"][i % 2];
            lines.push_str(&format!("{{\"id\": {i}, \"url\": \"https://{host}/{i}\", \"text\": \"page {i}\"}}\n"));
        }
        lines.push_str("{\"id\": 9, \"text\": \"nowhere\"}\nnot json\n");
        std::fs::write(&path, lines).unwrap();
        let mut bad = Vec::new();
        let crawl = gather(&[path], Group::Host, &mut |e| {
            if let Event::Bad(m) = e {
                bad.push(m.to_string())
            }
        })
        .unwrap();
        assert_eq!(
            crawl.sources.iter().map(|s| (s.name.as_str(), s.documents)).collect::<Vec<_>>(),
            [("a.example.com", 3), ("b.example.com", 3)]
        );
        assert_eq!((crawl.bad, bad.len()), (2, 2), "{bad:?}");
        assert!(bad[0].contains("document 9") && bad[1].contains("c.jsonl:8:"), "{bad:?}");
        let b = crawl.corpus(crawl.source("b.example.com").unwrap()).unwrap();
        assert_eq!(b.docs.iter().map(|d| d.text.as_str()).collect::<Vec<_>>(), ["page 1", "page 3", "page 5"]);
    }
}
