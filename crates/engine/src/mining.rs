//! Mining a source (thesis §3.2): corpus → tokens → suffix array → LCP → maximal repeats with tf/df →
//! histogram → automatic cutoff → candidate strings with their regexes.
//!
//! Large sources are mined on an evenly spread sample of their documents (`sample_bytes`, default 16 MiB
//! — the thesis found two weeks of a source "more than enough"), then the kept strings are counted again
//! on every document with the token matcher, so tf, df and coverage are exact for the whole corpus.

use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use crate::corpus::{Corpus, Document};
use crate::cutoff::{CutoffBin, Histogram, bin_of};
use crate::error::{Error, Result};
use crate::matcher::{Scratch, TokenMatcher};
use crate::mutable::{MutablePattern, MutableSet, default_patterns};
use crate::statistics::{RepeatFilter, maximal_repeats, new_coverage};
use crate::suffix_array::{self, SEPARATOR};
use crate::symbol::{Symbol, stable_id};
use crate::synthesis::synthesize;
use crate::tokens::Tokenizer;
use crate::view::DocKind;
use crate::vocabulary::{Encoded, encode};

/// What to mine and how.
#[derive(Debug, Clone)]
pub struct MiningConfig {
    pub tokenizer: Tokenizer,
    /// The kind of the source's documents. With `Html` and the text tokenizer, the corpus holds their
    /// page views ([`crate::page::viewed`] sets both).
    pub input: DocKind,
    pub patterns: Vec<MutablePattern>,
    /// Thesis step 7: shorter strings are dropped.
    pub min_tokens: u32,
    /// Thesis step 7: strings found in fewer documents are dropped.
    pub min_df: u32,
    /// Strings repeated more than this many times per document on average are dropped (idioms repeat
    /// within a page; template strings mostly stand once or twice).
    pub max_tf_per_df: Option<f64>,
    /// Mine on a sample of at most this many bytes of documents; count on all of them.
    pub sample_bytes: usize,
    /// Strings below the auto cutoff kept with their details (for an editor who lowers the cutoff).
    pub keep_below_cutoff: usize,
}

impl Default for MiningConfig {
    fn default() -> Self {
        MiningConfig {
            tokenizer: Tokenizer::Text,
            input: DocKind::Text,
            patterns: default_patterns(),
            min_tokens: 2,
            min_df: 2,
            max_tf_per_df: None,
            sample_bytes: 16 << 20,
            keep_below_cutoff: 5_000,
        }
    }
}

impl MiningConfig {
    pub fn for_tokenizer(tokenizer: Tokenizer) -> Self {
        MiningConfig { tokenizer, ..MiningConfig::default() }
    }
}

/// A maximal repeated string of the corpus, with what the editor needs to judge it.
#[derive(Debug, Clone, Serialize)]
pub struct MinedString {
    pub id: String,
    #[serde(serialize_with = "serialize_symbols")]
    pub symbols: Vec<Symbol>,
    pub tf: u64,
    pub df: u64,
    /// Histogram bin (df as a percentage of the mined documents).
    pub bin: CutoffBin,
    /// Bytes of text its occurrences span across the corpus.
    pub coverage: u64,
    /// New coverage: bytes of tokens its occurrences cover that no string of larger coverage covers,
    /// on the mined sample ([`new_coverage`]). The candidates' order for an editor.
    pub adds: u64,
    /// The text of one occurrence.
    pub example: String,
    pub regex: String,
    /// Flagged by the second-level filter: a candidate in many sources, so an idiom, not a template.
    pub idiom: bool,
    /// Mined in this template cluster of the source, not in the whole of it ([`crate::automatic`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<u32>,
    /// Most of its occurrences were a line of their own, one line each: as a cut it cuts only where it is
    /// one (stage `own-line`).
    pub own_line: bool,
}

fn serialize_symbols<S: serde::Serializer>(symbols: &[Symbol], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(symbols.iter().map(Symbol::encode))
}

/// The stages of mining, for progress and timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    Tokenize,
    SuffixArray,
    Lcp,
    Statistics,
    Synthesis,
    Verify,
}

impl Stage {
    pub const ALL: [Stage; 6] =
        [Stage::Tokenize, Stage::SuffixArray, Stage::Lcp, Stage::Statistics, Stage::Synthesis, Stage::Verify];

    pub fn name(self) -> &'static str {
        match self {
            Stage::Tokenize => "tokenize",
            Stage::SuffixArray => "suffix array",
            Stage::Lcp => "lcp",
            Stage::Statistics => "statistics",
            Stage::Synthesis => "synthesis",
            Stage::Verify => "verify",
        }
    }
}

/// Where mining reports progress, and how it learns it should stop (a newer request superseded it).
pub trait Progress: Sync {
    fn stage(&self, _stage: Stage) {}
    fn cancelled(&self) -> bool {
        false
    }
}

/// No progress reporting.
pub struct Quiet;
impl Progress for Quiet {}

/// The result of mining one source.
#[derive(Debug, Clone, Serialize)]
pub struct Mining {
    pub source: String,
    pub tokenizer: Tokenizer,
    /// The kind of the mined documents (see [`MiningConfig::input`]).
    pub input: DocKind,
    pub patterns: Vec<MutablePattern>,
    pub documents: usize,
    pub bytes: u64,
    pub tokens: u64,
    /// Documents the suffix array was built on (all of them unless the source is over `sample_bytes`).
    pub sampled_documents: usize,
    pub histogram: Histogram,
    pub auto_cutoff: CutoffBin,
    /// Kept strings, by df then length, descending. All strings at or above the auto cutoff, and the most
    /// frequent below it down to `min_kept_bin`.
    pub strings: Vec<MinedString>,
    pub min_kept_bin: CutoffBin,
    /// Tokens each mutable pattern normalized (in the mined documents).
    pub pattern_counts: Vec<u64>,
    pub timings: Vec<(Stage, Duration)>,
}

impl Mining {
    /// Strings at or above `cutoff`: the template candidates.
    pub fn candidates(&self, cutoff: CutoffBin) -> impl Iterator<Item = &MinedString> {
        self.strings.iter().filter(move |s| s.bin >= cutoff)
    }

    pub fn time(&self, stage: Stage) -> Duration {
        self.timings.iter().filter(|t| t.0 == stage).map(|t| t.1).sum()
    }
}

/// Documents to build the suffix array on: all, or an evenly spread subset of about `budget` bytes.
fn sample(docs: &[Document], budget: usize) -> Vec<&Document> {
    let total: usize = docs.iter().map(|d| d.text.len()).sum();
    if total <= budget {
        return docs.iter().collect();
    }
    let mut taken = 0f64;
    let mut seen = 0f64;
    let ratio = budget as f64 / total as f64;
    let mut out = Vec::new();
    for d in docs {
        seen += d.text.len() as f64;
        if taken <= seen * ratio {
            taken += d.text.len() as f64;
            out.push(d);
        }
    }
    out
}

/// Where lines start among the encoded tokens, for [`LineStarts::alone`]: one pass over the space between
/// tokens.
struct LineStarts {
    /// How many of the positions before each position start a line (a document's end counts as one).
    before: Vec<u32>,
}

impl LineStarts {
    fn new(docs: &[&Document], enc: &Encoded) -> LineStarts {
        let starts: Vec<bool> = (0..enc.ids.len())
            .into_par_iter()
            .map(|p| {
                let (d, start) = (enc.doc_of[p] as usize, enc.spans[p].0 as usize);
                // the end of the token before in the same document, if any
                let previous = (p > 0 && enc.doc_of[p - 1] as usize == d && enc.ids[p - 1] != SEPARATOR)
                    .then(|| enc.spans[p - 1].1 as usize);
                enc.ids[p] == SEPARATOR
                    || previous.is_none_or(|end| memchr::memchr(b'\n', &docs[d].text.as_bytes()[end..start]).is_some())
            })
            .collect();
        let before = std::iter::once(0)
            .chain(starts.iter().scan(0u32, |n, &s| {
                *n += u32::from(s);
                Some(*n)
            }))
            .collect();
        LineStarts { before }
    }

    fn starts(&self, p: usize) -> bool {
        self.before[p + 1] > self.before[p]
    }

    /// Whether the occurrence of `len` tokens at `p` is a line of its own: it starts a line, the token
    /// after it starts the next (or the document ends), and no token inside it starts one. A string over
    /// several lines is not: its last line may go on differently on another page ("Add a Comment" then
    /// "See all 18 Comments").
    fn alone(&self, p: usize, len: usize) -> bool {
        self.starts(p) && self.starts(p + len) && self.before[p + len] == self.before[p + 1]
    }
}

/// Mines `corpus`.
pub fn mine(corpus: &Corpus, config: &MiningConfig, progress: &dyn Progress) -> Result<Mining> {
    if corpus.docs.len() < 2 {
        return Err(Error::TooFewDocuments(format!(
            "{}: {} document(s); mining needs at least two documents of one source to tell template from article",
            corpus.name,
            corpus.docs.len()
        )));
    }
    let mutable = MutableSet::new(config.patterns.clone())?;
    let mut timings = Vec::new();
    let mut clock = Instant::now();
    let mut lap = |stage: Stage, timings: &mut Vec<(Stage, Duration)>| -> Result<()> {
        timings.push((stage, clock.elapsed()));
        clock = Instant::now();
        if progress.cancelled() { Err(Error::Cancelled) } else { Ok(()) }
    };

    progress.stage(Stage::Tokenize);
    let docs = sample(&corpus.docs, config.sample_bytes);
    let whole = docs.len() == corpus.docs.len();
    let enc = encode(&docs, config.tokenizer, &mutable);
    lap(Stage::Tokenize, &mut timings)?;

    progress.stage(Stage::SuffixArray);
    let sa = suffix_array::build(&enc.ids, enc.symbols.len() as u32);
    lap(Stage::SuffixArray, &mut timings)?;

    progress.stage(Stage::Lcp);
    let lcp = suffix_array::lcp(&enc.ids, &sa);
    lap(Stage::Lcp, &mut timings)?;

    progress.stage(Stage::Statistics);
    let filter = RepeatFilter { min_tokens: config.min_tokens.max(1), min_df: config.min_df.max(1) };
    let mut repeats = maximal_repeats(&enc.ids, &sa, &lcp, &enc.doc_of, filter);
    if let Some(max) = config.max_tf_per_df {
        repeats.retain(|r| f64::from(r.tf) <= max * f64::from(r.df));
    }
    let ndocs = docs.len() as u64;
    let mut histogram = Histogram::default();
    for r in &repeats {
        histogram.add(bin_of(u64::from(r.df), ndocs));
    }
    let auto_cutoff = histogram.auto_cutoff();
    repeats.sort_unstable_by(|a, b| b.df.cmp(&a.df).then(b.len.cmp(&a.len)).then(a.start.cmp(&b.start)));
    let above = repeats.iter().take_while(|r| bin_of(u64::from(r.df), ndocs) >= auto_cutoff).count();
    let mut keep = (above + config.keep_below_cutoff).min(repeats.len());
    let min_kept_bin = if keep == 0 { auto_cutoff } else { bin_of(u64::from(repeats[keep - 1].df), ndocs) };
    // keep whole bins, so "everything at or above min_kept_bin" is true
    while keep < repeats.len() && bin_of(u64::from(repeats[keep].df), ndocs) >= min_kept_bin {
        keep += 1;
    }
    repeats.truncate(keep);
    lap(Stage::Statistics, &mut timings)?;

    progress.stage(Stage::Synthesis);
    let line_starts = LineStarts::new(&docs, &enc);
    let mut strings = repeats
        .par_iter()
        .map(|r| {
            let symbols = enc.symbols_at(r.start, r.len);
            let d = enc.doc_of[r.start as usize] as usize;
            let (s, e) = enc.byte_range(r.start, r.len);
            let (mut coverage, mut alone) = (0, 0u64);
            for &p in &sa[r.lb as usize..=r.rb as usize] {
                let (s, e) = enc.byte_range(p, r.len);
                coverage += (e - s) as u64;
                alone += u64::from(line_starts.alone(p as usize, r.len as usize));
            }
            let regex = synthesize(&symbols, config.tokenizer, &mutable)?;
            Ok(MinedString {
                id: stable_id(&symbols),
                symbols,
                tf: u64::from(r.tf),
                df: u64::from(r.df),
                bin: bin_of(u64::from(r.df), ndocs),
                coverage,
                adds: 0,
                example: docs[d].text[s..e].to_string(),
                regex,
                idiom: false,
                cluster: None,
                own_line: 2 * alone > u64::from(r.tf),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let mut ranked: Vec<usize> = (0..strings.len()).collect();
    ranked.sort_by(|&a, &b| strings[b].coverage.cmp(&strings[a].coverage).then(a.cmp(&b)));
    let adds = new_coverage(
        enc.ids.len(),
        &ranked,
        |i| (&sa[repeats[i].lb as usize..=repeats[i].rb as usize], repeats[i].len),
        |p| u64::from(enc.spans[p].1 - enc.spans[p].0),
    );
    for (s, a) in strings.iter_mut().zip(adds) {
        s.adds = a;
    }
    lap(Stage::Synthesis, &mut timings)?;

    let tokens = if whole {
        enc.token_count() as u64
    } else {
        progress.stage(Stage::Verify);
        let tokens = recount(&corpus.docs, config.tokenizer, &mutable, &mut strings);
        lap(Stage::Verify, &mut timings)?;
        tokens
    };

    Ok(Mining {
        source: corpus.name.clone(),
        tokenizer: config.tokenizer,
        input: config.input,
        patterns: config.patterns.clone(),
        documents: corpus.docs.len(),
        bytes: corpus.bytes() as u64,
        tokens,
        sampled_documents: docs.len(),
        histogram,
        auto_cutoff,
        strings,
        min_kept_bin,
        pattern_counts: enc.pattern_counts,
        timings,
    })
}

/// Counts tf, df and coverage of `strings` on all `docs`; returns the number of tokens.
fn recount(docs: &[Document], tokenizer: Tokenizer, mutable: &MutableSet, strings: &mut [MinedString]) -> u64 {
    let refs: Vec<&[Symbol]> = strings.iter().map(|s| s.symbols.as_slice()).collect();
    let matcher = TokenMatcher::new(tokenizer, mutable.clone(), &refs);
    let n = strings.len();
    let (tf, df, cov, tokens) = docs
        .par_iter()
        .enumerate()
        .fold(
            || (vec![0u64; n], vec![0u64; n], vec![0u64; n], 0u64, Scratch::default(), vec![u32::MAX; n]),
            |(mut tf, mut df, mut cov, mut tokens, mut scratch, mut last), (d, doc)| {
                let stamp = d as u32;
                matcher.find_all(&doc.text, &mut scratch, |s, e, id| {
                    let id = id as usize;
                    tf[id] += 1;
                    cov[id] += (e - s) as u64;
                    if last[id] != stamp {
                        last[id] = stamp;
                        df[id] += 1;
                    }
                });
                tokenizer.for_each(&doc.text, |_, _| tokens += 1);
                (tf, df, cov, tokens, scratch, last)
            },
        )
        .map(|(tf, df, cov, tokens, _, _)| (tf, df, cov, tokens))
        .reduce(
            || (vec![0; n], vec![0; n], vec![0; n], 0),
            |mut a, b| {
                for i in 0..n {
                    a.0[i] += b.0[i];
                    a.1[i] += b.1[i];
                    a.2[i] += b.2[i];
                }
                (a.0, a.1, a.2, a.3 + b.3)
            },
        );
    for (i, s) in strings.iter_mut().enumerate() {
        s.tf = tf[i];
        s.df = df[i];
        s.coverage = cov[i];
    }
    tokens
}
