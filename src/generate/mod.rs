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

pub mod crawl;
mod pages;
mod prose;
mod redesign;
mod words;

pub use pages::{comments, html_news, mixed_templates, optional_parts};
pub use redesign::redesigned;
pub use words::MONTHS;

use prose::{Writer, push_uint};
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

/// SplitMix64: tiny, fast and fully specified, so a seed yields the same corpus everywhere.
struct Rng(u64);

impl Rng {
    /// `salt` separates the streams of different generators given the same seed.
    fn new(seed: u64, salt: u64) -> Self {
        Rng(seed ^ salt.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (multiply-shift; `n` > 0).
    fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
    /// `n` indices into a pool of `len`, dealt from reshuffled decks so every
    /// item appears at most `ceil(n / len)` times.
    fn deal(&mut self, len: usize, n: usize) -> Vec<usize> {
        let mut out = Vec::with_capacity(n);
        let mut deck: Vec<usize> = (0..len).collect();
        while out.len() < n {
            for i in (1..len).rev() {
                deck.swap(i, self.below(i + 1));
            }
            out.extend(deck.iter().take(n - out.len()));
        }
        out
    }
}

/// A calendar date with its real weekday (dates in the thesis example are real too).
#[derive(Debug, Clone, Copy)]
struct Date {
    days: i64,
    year: i64,
    month: usize,
    day: u32,
    weekday: usize,
}

/// Days since 1970-01-01 (proleptic Gregorian; Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((month as i64 + 9) % 12) + 2) / 5 + day as i64 - 1;
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
}

impl Date {
    fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as usize;
        let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
        Date { days, year, month, day, weekday: (days + 3).rem_euclid(7) as usize }
    }
    fn weekday_name(self) -> &'static str {
        WEEKDAYS[self.weekday]
    }
    fn month_name(self) -> &'static str {
        MONTHS[self.month - 1]
    }
    fn plus_days(self, n: i64) -> Date {
        Date::from_days(self.days + n)
    }
}

fn random_date(rng: &mut Rng, first_year: i64, last_year: i64) -> Date {
    let lo = days_from_civil(first_year, 1, 1);
    let hi = days_from_civil(last_year, 12, 31);
    Date::from_days(lo + rng.below((hi - lo + 1) as usize) as i64)
}

/// `n` random dates, oldest first: the documents form a history.
fn sorted_dates(rng: &mut Rng, n: usize, first_year: i64, last_year: i64) -> Vec<Date> {
    let mut dates: Vec<Date> = (0..n).map(|_| random_date(rng, first_year, last_year)).collect();
    dates.sort_by_key(|d| d.days);
    dates
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
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    fn all_small(seed: u64) -> Vec<GeneratedSource> {
        vec![
            sevendays(30, seed),
            html_news(20, seed),
            mixed_templates(30, seed),
            optional_parts(30, seed),
            comments(20, seed),
            bench_corpus(40_000, 2_000, seed),
        ]
    }

    /// The non-template pieces of `doc.text`, trimmed, non-empty.
    fn gaps(doc: &GeneratedDoc) -> Vec<&str> {
        let mut out = Vec::new();
        let mut pos = 0;
        for &(s, e) in doc.template_spans.iter().chain([(doc.text.len(), doc.text.len())].iter()) {
            let piece = doc.text[pos..s].trim();
            if !piece.is_empty() {
                out.push(piece);
            }
            pos = e;
        }
        out
    }

    fn check_doc(doc: &GeneratedDoc, html: bool) {
        let text = &doc.text;
        let mut prev_end = 0;
        for (i, &(s, e)) in doc.template_spans.iter().enumerate() {
            assert!(s < e, "{}: empty span {i}", doc.id);
            assert!(i == 0 || s > prev_end, "{}: spans not sorted/disjoint", doc.id);
            assert!(e <= text.len(), "{}: span past end", doc.id);
            assert!(text.is_char_boundary(s) && text.is_char_boundary(e), "{}: char boundary", doc.id);
            prev_end = e;
        }
        assert!(!doc.body.trim().is_empty(), "{}: empty body", doc.id);
        // The article is exactly what the template spans leave out.
        assert_eq!(gaps(doc).join("\n"), doc.body, "{}", doc.id);
        let pieces: Vec<&str> = if html { doc.body.lines().collect() } else { vec![&doc.body] };
        for piece in pieces {
            // Some occurrence lies outside every span (for HTML the headline's
            // first occurrence is its template copy in `<title>`).
            let outside = text.match_indices(piece).any(|(at, _)| {
                let end = at + piece.len();
                doc.template_spans.iter().all(|&(s, e)| end <= s || at >= e)
            });
            assert!(outside, "{}: body not in text outside the template", doc.id);
        }
    }

    #[test]
    fn same_seed_same_output_and_different_seed_differs() {
        assert_eq!(all_small(7), all_small(7));
        for (a, b) in all_small(7).iter().zip(all_small(8).iter()) {
            assert_ne!(a, b, "{}", a.name);
        }
        assert_eq!(bundled(), bundled());
    }

    #[test]
    fn stable_across_machines() {
        // Pins the PRNG and grammar: a change here changes the bundled corpora.
        let mut rng = Rng::new(0, 0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        let doc = &sevendays(1, 1).docs[0];
        let head = "# Permanent link | no responses | Published on: Monday, 6th November, \
                    2006 The shopping centre outside Port Alden has been reviewed twice ";
        assert!(doc.text.starts_with(head));
    }

    #[test]
    fn any_size_works() {
        for n in [0, 1, 2] {
            assert_eq!(sevendays(n, 1).docs.len(), n);
            assert_eq!(html_news(n, 1).docs.len(), n);
            assert_eq!(mixed_templates(n, 1).docs.len(), n);
            assert_eq!(optional_parts(n, 1).docs.len(), n);
            assert_eq!(comments(n, 1).docs.len(), n);
        }
        assert_eq!(sevendays(10_000, 1).docs[9_999].id, "10000");
    }

    #[test]
    fn spans_and_bodies_are_consistent() {
        for seed in [1, 2, 3] {
            for source in all_small(seed) {
                assert!(!source.docs.is_empty());
                for doc in &source.docs {
                    check_doc(doc, source.extension == "html");
                }
                let ids: BTreeSet<&str> = source.docs.iter().map(|d| d.id.as_str()).collect();
                assert_eq!(ids.len(), source.docs.len(), "{}: duplicate ids", source.name);
            }
        }
        for source in bundled() {
            for doc in &source.docs {
                check_doc(doc, source.extension == "html");
            }
        }
        check_doc(&thesis_example(), false);
    }

    #[test]
    fn thesis_example_is_exact() {
        let doc = thesis_example();
        assert!(!doc.text.ends_with('\n'));
        assert_eq!(doc.text.lines().count(), 7);
        assert_eq!(doc.template_spans, vec![(0, 76), (275, 410)]);
        assert_eq!(&doc.text[..76], "# Permanent link | no responses | Published on: Tuesday, 27th\nFebruary, 2007");
        assert_eq!(
            &doc.text[275..],
            "Please login to\nleave a reply First budget hotel in Karama, another five planned\n\
             for emirate read more Thursday 22nd February read more"
        );
        assert_eq!(
            doc.body,
            "Real Estate developers and mortgage financiers in\n\
             Dubai expect the housing market to keep growing through the year,\n\
             and the new rules will help a \"growth model to be replicated\n\
             elsewhere.\" he said."
        );
        assert_eq!(SEVENDAYS_HEADLINES[0], "First budget hotel in Karama, another five planned for emirate");
    }

    #[test]
    fn dates_are_real() {
        // The thesis example's dates: Tuesday 27th February 2007, Thursday 22nd February.
        let d = Date::from_days(days_from_civil(2007, 2, 27));
        assert_eq!((d.year, d.month, d.day, d.weekday_name()), (2007, 2, 27, "Tuesday"));
        assert_eq!(d.plus_days(-5).weekday_name(), "Thursday");
        let mut s = String::new();
        for day in [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31] {
            push_ordinal(&mut s, day);
            s.push(' ');
        }
        assert_eq!(s, "1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 23rd 31st ");
    }

    #[test]
    fn sevendays_shape() {
        let source = sevendays(120, BUNDLED_SEED);
        assert_eq!(source.docs.len(), 120);
        let mut headline_uses = BTreeMap::new();
        for doc in &source.docs {
            assert_eq!(doc.text.lines().count(), 1, "{}: one line, template glued to the article", doc.id);
            assert!(!doc.text.contains("  ") && !doc.text.contains(" \n"));
            let words = doc.body.split_whitespace().count();
            assert!((60..=250).contains(&words), "{}: {words} body words", doc.id);
            assert!(doc.body.replace('\n', " ").contains(".\" "), "{}: quote", doc.id);
            assert_eq!(doc.template_spans.len(), 2);
            let head = &doc.text[doc.template_spans[0].0..doc.template_spans[0].1];
            assert!(head.starts_with("# Permanent link") && head.ends_with(|c: char| c.is_ascii_digit()));
            let tail = &doc.text[doc.template_spans[1].0..doc.template_spans[1].1];
            let flat = tail.replace('\n', " ");
            assert!(flat.starts_with("Please login to leave a reply ") && flat.ends_with(" read more"));
            let headline = SEVENDAYS_HEADLINES.iter().find(|h| flat.contains(*h)).expect("headline");
            *headline_uses.entry(*headline).or_insert(0) += 1;
        }
        assert!(headline_uses.values().all(|&n| n <= 3));
        for h in SEVENDAYS_HEADLINES {
            assert!((6..=12).contains(&h.split_whitespace().count()), "{h}");
        }
    }

    /// Sentences of a body: split after ". " (a quote's `." he said.` stays whole).
    fn sentences(body: &str) -> Vec<String> {
        let flat = body.replace('\n', " ");
        flat.split_inclusive(". ").map(|s| s.trim().to_string()).collect()
    }

    #[test]
    fn sevendays_sentences_are_not_shared() {
        for seed in [BUNDLED_SEED, 1, 2] {
            let source = sevendays(120, seed);
            let mut docs_of: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
            for (i, doc) in source.docs.iter().enumerate() {
                for s in sentences(&doc.body) {
                    docs_of.entry(s).or_default().insert(i);
                }
            }
            for (s, docs) in &docs_of {
                assert!(docs.len() <= 2, "seed {seed}: {s:?} in {} docs", docs.len());
            }
            assert!(docs_of.len() > 120 * 6);
        }
    }

    #[test]
    fn html_news_shape() {
        let source = html_news(60, BUNDLED_SEED);
        assert_eq!(source.extension, "html");
        for doc in &source.docs {
            let title = doc.body.lines().next().unwrap();
            assert!(doc.text.contains(&format!("<title>{title} | The Harbour Gazette</title>")));
            assert!(doc.text.contains(&format!("<h1>{title}</h1>")));
            assert_eq!(doc.text.matches("</li>").count(), 8 + 3 + 4);
            let paragraphs = doc.body.lines().count() - 1;
            assert!((3..=8).contains(&paragraphs), "{}", doc.id);
            assert!(doc.text.contains("<span class=\"date\">"));
            assert!(!doc.body.contains('<') && !doc.body.contains('&'));
        }
    }

    #[test]
    fn mixed_templates_has_both_kinds() {
        let source = mixed_templates(80, BUNDLED_SEED);
        let galleries = source.docs.iter().filter(|d| d.text.contains("Photo gallery | Image ")).count();
        assert!((20..=45).contains(&galleries), "{galleries} galleries");
        for doc in &source.docs {
            let is_gallery = doc.text.contains("Photo gallery");
            assert_eq!(is_gallery, !doc.text.starts_with("Valley Courier | News"));
            if is_gallery {
                assert!(doc.body.split_whitespace().count() < 60);
            }
        }
    }

    fn in_template(doc: &GeneratedDoc, needle: &str) -> bool {
        let at = doc.text.find(needle).unwrap();
        doc.template_spans.iter().any(|&(s, e)| s <= at && at + needle.len() <= e)
    }

    #[test]
    fn optional_parts_vary_and_are_template() {
        let source = optional_parts(80, BUNDLED_SEED);
        let mut banners = 0;
        let mut sponsored = 0;
        for doc in &source.docs {
            assert!(in_template(doc, "RIVERSIDE DAILY") && in_template(doc, "Riverside Daily Ltd"));
            if doc.text.contains("Breaking news: ") {
                banners += 1;
                assert!(in_template(doc, "Breaking news: "));
            }
            if doc.text.contains("Sponsored | ") {
                sponsored += 1;
                assert!(in_template(doc, "Sponsored | "));
            }
        }
        assert!((12..=40).contains(&banners), "{banners} banners");
        assert!((25..=55).contains(&sponsored), "{sponsored} sponsored");
    }

    #[test]
    fn comments_shape() {
        let source = comments(60, BUNDLED_SEED);
        for doc in &source.docs {
            for line in doc.body.lines() {
                assert!(line.split_whitespace().count() >= 8, "{}: short line {line:?}", doc.id);
            }
            let lines: Vec<&str> = doc.text.lines().collect();
            assert_eq!(*lines.last().unwrap(), "Leave a reply | Powered by Quillpress");
            let says = lines.iter().filter(|l| l.contains(" says: ")).count();
            assert!((1..=6).contains(&says));
            let count_line = if says == 1 { "1 response".to_string() } else { format!("{says} responses") };
            let footer = doc.template_spans.last().unwrap();
            assert!(doc.text[footer.0..].trim_start().starts_with(&count_line), "{}", doc.id);
        }
    }

    #[test]
    fn bench_corpus_sizes() {
        let source = bench_corpus(300_000, 3_000, 9);
        let total: usize = source.docs.iter().map(|d| d.text.len()).sum();
        assert!((300_000..310_000).contains(&total));
        let avg = total / source.docs.len();
        assert!((2_400..=3_600).contains(&avg), "average {avg} bytes");
        assert_eq!(source.docs[0].id, "0001");
        assert!(bench_corpus(0, 1000, 1).docs.is_empty());
    }

    #[test]
    fn write_source_round_trips_spans() {
        let dir = std::env::temp_dir().join(format!("chaff-generate-test-{}", std::process::id()));
        let source = mixed_templates(5, 3);
        assert_eq!(write_source(&source, &dir).unwrap(), 10);
        for doc in &source.docs {
            let folder = dir.join("mixed_templates");
            let text = std::fs::read_to_string(folder.join(format!("{}.txt", doc.id))).unwrap();
            assert_eq!(text, doc.text);
            let json = std::fs::read_to_string(folder.join(format!("{}.template.json", doc.id))).unwrap();
            let inner = json.trim().strip_prefix("[[").unwrap().strip_suffix("]]").unwrap();
            let spans: Vec<(usize, usize)> = inner
                .split("],[")
                .map(|pair| {
                    let (s, e) = pair.split_once(',').unwrap();
                    (s.parse().unwrap(), e.parse().unwrap())
                })
                .collect();
            assert_eq!(spans, doc.template_spans);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `cargo test --release --lib generate -- --ignored --nocapture` prints the speed.
    #[test]
    #[ignore]
    fn bench_corpus_speed() {
        let t = std::time::Instant::now();
        let source = bench_corpus(100 << 20, 4096, 1);
        let secs = t.elapsed().as_secs_f64();
        let total: usize = source.docs.iter().map(|d| d.text.len()).sum();
        println!("{} docs, {:.1} MB/s", source.docs.len(), total as f64 / secs / 1e6);
    }
}
