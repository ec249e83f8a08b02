//! Drift: whether a source's template is still the one its rules were mined from. New documents of the
//! source are matched against its rules, and each rule's share of documents now is set against its share
//! when it was mined (`df / documents` in the rules file). When a site changes its template, its rules
//! stop matching, and what they no longer remove stays in the cleaned text; a nightly check finds that
//! before readers do.
//!
//! **Drift** is the share of the template text the rules found per document that they no longer find:
//! `Σ max(0, then − now) / Σ then` over the checked rules, `then` and `now` being the bytes a rule's
//! matches span per document (`coverage / documents` in the rules file when mined; over the new
//! documents now). 0: every rule covers at least as much as when mined; 1: no rule matches any more.
//! Only losses count: a rule matching more removes no less. Bytes, not documents, weigh the rules: a long
//! header string that stopped matching is the template gone, a two-word idiom matching on fewer pages
//! is noise. A template that changed on half of the new documents drifts by up to a half (less where
//! phrases of the articles are among the rules: they still match).
//!
//! Matches are counted as mining counted them: anywhere in a document, without the line-boundary filter
//! the cleaner applies (template clusters aside: a document's matches are those of its cluster). The
//! text a rule covers is compared per document, in bytes: `coverage / documents` then, the bytes of its
//! matches over the new documents now. What cleaning removed in all (cuts and runs included) is measured
//! now only: the rules file does not record it for the mined documents.

use rayon::prelude::*;
use serde::Serialize;

use crate::cleaning::Cleaner;
use crate::corpus::Document;
use crate::error::{Error, Result};
use crate::rules::{Action, RulesFile, Status};

/// Default `--max-drift`: more than a quarter of the template text the rules found per document gone. A
/// template changed on half of the pages is near 0.5 (less where phrases of the articles are among the
/// rules); new pages of an unchanged generated source are under 0.1.
pub const DEFAULT_MAX_DRIFT: f64 = 0.25;

/// One rule, then and now.
#[derive(Debug, Clone, Serialize)]
pub struct RuleDrift {
    pub id: String,
    pub status: Status,
    pub action: Action,
    /// Share of the mined documents it matched (`df / documents`).
    pub then: f64,
    /// Share of the new documents it matches.
    pub now: f64,
    /// Bytes its matches spanned per mined document (`coverage / documents`).
    pub bytes_then: f64,
    /// Bytes its matches span per new document.
    pub bytes_now: f64,
    /// Matched when mined, on no new document.
    pub stopped: bool,
}

/// A source's rules against new documents.
#[derive(Debug, Clone, Serialize)]
pub struct Drift {
    pub source: String,
    /// Documents the rules were mined from.
    pub documents_then: u64,
    /// Documents checked.
    pub documents_now: usize,
    /// The checked rules: accepted ones, and with `include_pending` the pending ones at or above the
    /// cutoff. Largest loss of bytes per document first.
    pub rules: Vec<RuleDrift>,
    /// See the module's documentation: 0 (no loss) to 1 (no rule matches any more).
    pub drift: f64,
    /// Share of the new documents' bytes that cleaning removes.
    pub removed_now: f64,
}

impl Drift {
    /// The rules that matched when mined and match no new document.
    pub fn stopped(&self) -> impl Iterator<Item = &RuleDrift> {
        self.rules.iter().filter(|r| r.stopped)
    }

    /// The rules that match a smaller share of documents than when mined.
    pub fn fewer(&self) -> impl Iterator<Item = &RuleDrift> {
        self.rules.iter().filter(|r| r.now < r.then)
    }
}

/// Per-rule counts over a slice of documents: documents matched and bytes matched.
#[derive(Clone)]
struct Counts {
    docs: Vec<u64>,
    bytes: Vec<u64>,
    total_bytes: u64,
    removed_bytes: u64,
}

impl Counts {
    fn new(rules: usize) -> Self {
        Counts { docs: vec![0; rules], bytes: vec![0; rules], total_bytes: 0, removed_bytes: 0 }
    }

    fn add(mut self, other: Counts) -> Counts {
        self.docs.iter_mut().zip(other.docs).for_each(|(a, b)| *a += b);
        self.bytes.iter_mut().zip(other.bytes).for_each(|(a, b)| *a += b);
        self.total_bytes += other.total_bytes;
        self.removed_bytes += other.removed_bytes;
        self
    }
}

/// Checks `file`'s rules (accepted, and with `include_pending` the pending ones at or above the cutoff)
/// against `docs`, new documents of its source. Each document is read twice, in time linear in it: once
/// for every rule's matches, once cleaned.
pub fn drift(file: &RulesFile, docs: &[Document], include_pending: bool) -> Result<Drift> {
    let rules: Vec<_> = file.active_rules(include_pending).collect();
    if rules.is_empty() {
        return Err(Error::Invalid(format!(
            "{}: no accepted rules{} to check (accept rules with `chaff tune`, or add --include-pending)",
            file.source,
            if include_pending { " nor pending rules above the cutoff" } else { "" }
        )));
    }
    if docs.is_empty() {
        return Err(Error::Invalid("no documents to check".into()));
    }
    // matched as mining counted: anywhere, no line-boundary filter
    let matcher = Cleaner::from_rules(file.tokenizer, &file.mutable, rules.iter().copied(), 0)?;
    let cleaner = Cleaner::new(file, include_pending)?;
    let counts = docs
        .par_iter()
        .fold(
            || Counts::new(rules.len()),
            |mut c, doc| {
                let mut seen = vec![false; rules.len()];
                for m in matcher.matches(&doc.text) {
                    let r = m.rule as usize;
                    c.bytes[r] += (m.end - m.start) as u64;
                    if !std::mem::replace(&mut seen[r], true) {
                        c.docs[r] += 1;
                    }
                }
                c.total_bytes += doc.text.len() as u64;
                c.removed_bytes += cleaner.clean(&doc.text).removed_bytes as u64;
                c
            },
        )
        .reduce(|| Counts::new(rules.len()), Counts::add);
    let then_docs = file.documents.max(1) as f64;
    let now_docs = docs.len() as f64;
    let mut out: Vec<RuleDrift> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let then = (r.df as f64 / then_docs).min(1.0);
            let now = counts.docs[i] as f64 / now_docs;
            RuleDrift {
                id: r.id.clone(),
                status: r.status,
                action: r.action,
                then,
                now,
                bytes_then: r.coverage as f64 / then_docs,
                bytes_now: counts.bytes[i] as f64 / now_docs,
                stopped: r.df > 0 && counts.docs[i] == 0,
            }
        })
        .collect();
    let expected: f64 = out.iter().map(|r| r.bytes_then).sum();
    let lost: f64 = out.iter().map(|r| (r.bytes_then - r.bytes_now).max(0.0)).sum();
    out.sort_by(|a, b| {
        (b.bytes_then - b.bytes_now).total_cmp(&(a.bytes_then - a.bytes_now)).then_with(|| a.id.cmp(&b.id))
    });
    Ok(Drift {
        source: file.source.clone(),
        documents_then: file.documents,
        documents_now: docs.len(),
        rules: out,
        drift: if expected > 0.0 { lost / expected } else { 0.0 },
        removed_now: if counts.total_bytes > 0 { counts.removed_bytes as f64 / counts.total_bytes as f64 } else { 0.0 },
    })
}
