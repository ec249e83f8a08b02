//! Deterministic generator of templated sample corpora.
//!
//! Each generator builds the documents of one invented news source: a template
//! (header, footer, boxes, dates, related links) wrapped around invented
//! article text, and records which byte ranges are template. That ground
//! truth lets tests and benchmarks measure how well the learned template
//! matches the real one.
//!
//! Everything is std-only and driven by an explicitly seeded SplitMix64, so a
//! given `(n_docs, seed)` produces byte-identical output on every machine.
//! All text is invented here (see `words`); nothing is copied from outside.

mod blocks;
pub mod crawl;
mod pages;
mod prose;
mod random;
mod redesign;
mod words;

pub use blocks::{block_page, block_words};
pub use pages::{comments, html_news, mixed_templates, optional_parts};
pub use redesign::redesigned;
pub use words::MONTHS;

use prose::{Writer, push_uint};
use random::{Date, Rng, random_date, sorted_dates};
use std::fmt::Write as _;
use words::*;

/// One generated document: its text and where the template lies in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedDoc {
    /// Document id, zero-padded so ids sort like the history, e.g. "0007".
    pub id: String,
    /// The full document as it would be stored.
    pub text: String,
    /// The article alone, as it appears in `text`. For HTML (whose article is
    /// split across elements) the title and paragraphs, one per line.
    pub body: String,
    /// Byte ranges of `text` that are template (sorted, disjoint, on char boundaries).
    pub template_spans: Vec<(usize, usize)>,
}

/// One source's history of documents, all sharing a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedSource {
    /// Folder name, e.g. "sevendays".
    pub name: String,
    /// File extension without the dot: "txt" or "html".
    pub extension: &'static str,
    /// The documents, oldest first.
    pub docs: Vec<GeneratedDoc>,
}

/// "27th", "1st", "22nd", "3rd", "11th".
fn push_ordinal(out: &mut String, day: u32) {
    push_uint(out, day as u64, false);
    out.push_str(match (day % 10, day % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    });
}

/// Ids are 1-based and zero-padded to at least 4 digits so they sort in history order.
fn doc_id(index: usize, n_docs: usize) -> String {
    let width = n_docs.to_string().len().max(4);
    format!("{:0width$}", index + 1)
}

/// Accumulates a document while recording which parts are template and which are article.
///
/// Everything appended is one of: template (`template_from`), article
/// (`body_from`), or a whitespace separator written directly. Template parts
/// separated only by whitespace merge into one span.
struct DocBuilder {
    text: String,
    spans: Vec<(usize, usize)>,
    body: Vec<(usize, usize)>,
    after_template: bool,
}

impl DocBuilder {
    fn new(capacity: usize) -> Self {
        DocBuilder { text: String::with_capacity(capacity), spans: Vec::new(), body: Vec::new(), after_template: false }
    }
    fn mark(&self) -> usize {
        self.text.len()
    }
    fn template_from(&mut self, start: usize) {
        let end = self.text.len();
        match self.spans.last_mut() {
            Some(last) if self.after_template => last.1 = end,
            _ => self.spans.push((start, end)),
        }
        self.after_template = true;
    }
    fn template(&mut self, part: &str) {
        let start = self.mark();
        self.text.push_str(part);
        self.template_from(start);
    }
    fn body_from(&mut self, start: usize) {
        self.body.push((start, self.text.len()));
        self.after_template = false;
    }
    fn writer<'a>(&'a mut self, rng: &'a mut Rng) -> Writer<'a> {
        Writer { rng, out: &mut self.text }
    }
    fn finish(self, id: String) -> GeneratedDoc {
        let pieces: Vec<&str> = self.body.iter().map(|&(s, e)| &self.text[s..e]).collect();
        GeneratedDoc { id, body: pieces.join("\n"), template_spans: self.spans, text: self.text }
    }
}

/// One sevendays-style document (also the unit of the benchmark corpus).
fn sevendays_doc(rng: &mut Rng, id: String, date: Date, headline: &str, words: usize) -> GeneratedDoc {
    let mut b = DocBuilder::new(words * 7 + 256);
    let start = b.mark();
    let t = &mut b.text;
    t.push_str("# Permanent link | no responses | Published on: ");
    t.push_str(date.weekday_name());
    t.push_str(", ");
    push_ordinal(t, date.day);
    t.push(' ');
    t.push_str(date.month_name());
    t.push_str(", ");
    push_uint(t, date.year as u64, false);
    b.template_from(start);

    b.text.push(' ');
    let start = b.mark();
    b.writer(rng).body(words, true);
    b.body_from(start);
    b.text.push(' ');

    let related = date.plus_days(-(rng.range(1, 12) as i64));
    let start = b.mark();
    let t = &mut b.text;
    t.push_str("Please login to leave a reply ");
    t.push_str(headline);
    t.push_str(" read more ");
    t.push_str(related.weekday_name());
    t.push(' ');
    push_ordinal(t, related.day);
    t.push(' ');
    t.push_str(related.month_name());
    t.push_str(" read more");
    b.template_from(start);
    b.finish(id)
}

/// Plain-text pages shaped like the thesis's sevendaysvt.com example, as a naive
/// parser leaves them: one line holding the head with a date, the article, and a
/// tail with a related headline (from a pool of 40) and its date, glued together.
/// Default size: 120 documents.
pub fn sevendays(n_docs: usize, seed: u64) -> GeneratedSource {
    let mut rng = Rng::new(seed, 1);
    let dates = sorted_dates(&mut rng, n_docs, 2006, 2008);
    let headlines = rng.deal(SEVENDAYS_HEADLINES.len(), n_docs);
    let docs = (0..n_docs)
        .map(|i| {
            let words = rng.range(60, 190);
            let headline = SEVENDAYS_HEADLINES[headlines[i]];
            sevendays_doc(&mut rng, doc_id(i, n_docs), dates[i], headline, words)
        })
        .collect();
    GeneratedSource { name: "sevendays".into(), extension: "txt", docs }
}

/// Fixed seed of the bundled corpora, so `sample-corpora/` can be regenerated exactly.
const BUNDLED_SEED: u64 = 20_070_227;

/// The sources bundled in `sample-corpora/`, with their default sizes.
pub fn bundled() -> Vec<GeneratedSource> {
    vec![
        sevendays(120, BUNDLED_SEED),
        html_news(60, BUNDLED_SEED),
        mixed_templates(80, BUNDLED_SEED),
        optional_parts(80, BUNDLED_SEED),
        comments(60, BUNDLED_SEED),
    ]
}

/// Template bytes of a sevendays document, used to size bench bodies.
const SEVENDAYS_TEMPLATE_BYTES: usize = 190;
/// Average bytes per body word (including its space), measured on this grammar.
const BODY_BYTES_PER_WORD: usize = 6;

/// A large templated corpus for benchmarks: documents of ~`doc_bytes` each until `total_bytes` is reached.
///
/// Sevendays-shaped documents (one template, random dates and related headlines)
/// whose bodies vary ±25% around the size implied by `doc_bytes`.
pub fn bench_corpus(total_bytes: usize, doc_bytes: usize, seed: u64) -> GeneratedSource {
    let mut rng = Rng::new(seed, 6);
    let words = (doc_bytes.saturating_sub(SEVENDAYS_TEMPLATE_BYTES) / BODY_BYTES_PER_WORD).max(20);
    let mut docs = Vec::with_capacity(total_bytes / doc_bytes.max(1) + 1);
    let mut total = 0;
    while total < total_bytes {
        let date = random_date(&mut rng, 2006, 2008);
        let headline = rng.pick(SEVENDAYS_HEADLINES);
        let doc_words = words * rng.range(75, 125) / 100;
        let doc = sevendays_doc(&mut rng, String::new(), date, headline, doc_words);
        total += doc.text.len();
        docs.push(doc);
    }
    let n = docs.len();
    for (i, doc) in docs.iter_mut().enumerate() {
        doc.id = doc_id(i, n);
    }
    GeneratedSource { name: "bench".into(), extension: "txt", docs }
}

/// `[[start,end],...]` written by hand: the crate's ground-truth format needs no serde.
fn spans_json(spans: &[(usize, usize)]) -> String {
    let mut json = String::with_capacity(spans.len() * 16 + 2);
    json.push('[');
    for (i, (s, e)) in spans.iter().enumerate() {
        let _ = write!(json, "{}[{s},{e}]", if i > 0 { "," } else { "" });
    }
    json.push_str("]\n");
    json
}

/// Write a source as `<dir>/<name>/<id>.<ext>` plus `<dir>/<name>/<id>.template.json`
/// (JSON array of `[start, end]` byte spans); creates folders; returns files written.
pub fn write_source(source: &GeneratedSource, dir: &std::path::Path) -> std::io::Result<usize> {
    let folder = dir.join(&source.name);
    std::fs::create_dir_all(&folder)?;
    let mut written = 0;
    for doc in &source.docs {
        std::fs::write(folder.join(format!("{}.{}", doc.id, source.extension)), &doc.text)?;
        std::fs::write(folder.join(format!("{}.template.json", doc.id)), spans_json(&doc.template_spans))?;
        written += 2;
    }
    Ok(written)
}

/// The article of the thesis's chapter 5 example, exactly as printed there.
const THESIS_TEXT: &str = "# Permanent link | no responses | Published on: Tuesday, 27th
February, 2007 Real Estate developers and mortgage financiers in
Dubai expect the housing market to keep growing through the year,
and the new rules will help a \"growth model to be replicated
elsewhere.\" he said. Please login to
leave a reply First budget hotel in Karama, another five planned
for emirate read more Thursday 22nd February read more";

/// The thesis's chapter-5 example article, exactly as printed there, with its body.
///
/// Template: the head (from `#` through the year) and the tail (from `Please`
/// to the final `more`); the body is what lies between, trimmed.
pub fn thesis_example() -> GeneratedDoc {
    let text = THESIS_TEXT.to_string();
    let head_end = text.find("2007").expect("year in head") + 4;
    let tail_start = text.find("Please").expect("tail");
    let body = text[head_end..tail_start].trim().to_string();
    GeneratedDoc { id: "thesis".into(), template_spans: vec![(0, head_end), (tail_start, text.len())], body, text }
}

#[cfg(test)]
mod tests;
