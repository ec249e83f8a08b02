//! `gibson`: the text-based template detector of Gibson, Punera and Tomkins ("The Volume and Evolution
//! of Web Page Templates"), as the "novel approach" paper retells it. It never looks at markup: a page is
//! its detagged text (tags, comments and script/style content dropped; `--input txt` is that already),
//! cut into words.
//!
//! - **First pass.** A window of `W` words slides over the text of `P` sample pages (an even spread of
//!   the training pages when there are more); at each offset the counter of the fragment in the window
//!   goes up. A fragment is counted only if its hash is 0 modulo `D`, so that a fragment counted on one
//!   page is counted on every page (`D = 0`: every fragment). Fragments counted at least `F` times are
//!   template.
//! - **Second pass.** A page is scanned for those fragments by hash lookup, and overlapping or adjacent
//!   ones are coalesced into one template span, which is removed. Coalescing on each page covers exactly
//!   the union of its fragments, which is what looking up the coalesced templates' hashes would find on
//!   the pages where they were coalesced, and more robustly on a new page.
//!
//! The seeds name the four parameters without their values. Ours: `W = 8` words (a menu line of a few
//! words between two changing headlines spans no window whole, but a sentence of a footer does), `F = 3`
//! occurrences (a third of a 9-page training fold, as the seed-001 baseline's share), `D = 0` (the
//! seed's only stated value: with sites of 10 to 30 pages there is nothing to save by sampling) and
//! `P = 64` pages. Each is a flag of `chaff eval` (`--gibson-window`, `--gibson-frequency`,
//! `--gibson-density`, `--gibson-pages`).

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::error::Result;

use super::html_tokens::{Kind, html_tokens, words_in};
use super::{Input, Method, Model, Source};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct GibsonParams {
    /// W: words in a window.
    pub window: usize,
    /// F: fewest times a fragment is counted in the sample to be template.
    pub frequency: usize,
    /// D: only fragments whose hash is 0 modulo D are counted (0 or 1: all).
    pub density: u64,
    /// P: pages sampled for the first pass.
    pub pages: usize,
}

impl Default for GibsonParams {
    fn default() -> Self {
        GibsonParams { window: 8, frequency: 3, density: 0, pages: 64 }
    }
}

pub struct Gibson {
    pub params: GibsonParams,
}

impl Method for Gibson {
    fn name(&self) -> String {
        let p = self.params;
        format!("gibson (W {}, F {}, D {}, P {})", p.window, p.frequency, p.density, p.pages)
    }

    fn train(&self, source: &Source<'_>) -> Result<Box<dyn Model>> {
        let p = self.params;
        let step = source.docs.len().div_ceil(p.pages.max(1)).max(1);
        let mut counts: HashMap<u64, usize> = HashMap::new();
        for (_, text) in source.docs.iter().step_by(step) {
            let words = words(text, source.input);
            for h in fragments(text, &words, p.window) {
                if sampled(h, p.density) {
                    *counts.entry(h).or_default() += 1;
                }
            }
        }
        let template = counts.into_iter().filter(|&(_, c)| c >= p.frequency.max(1)).map(|(h, _)| h).collect();
        Ok(Box::new(TemplateFragments { template, input: source.input, window: p.window }))
    }
}

fn sampled(hash: u64, density: u64) -> bool {
    density <= 1 || hash.is_multiple_of(density)
}

/// The hashes of a source's template fragments.
pub struct TemplateFragments {
    pub template: HashSet<u64>,
    input: Input,
    window: usize,
}

impl Model for TemplateFragments {
    fn removed(&self, text: &str) -> Vec<(usize, usize)> {
        let words = words(text, self.input);
        let hashes = fragments(text, &words, self.window);
        // words covered by a template fragment; overlapping and adjacent fragments make one run
        let mut covered = vec![false; words.len()];
        for (i, h) in hashes.iter().enumerate() {
            if self.template.contains(h) {
                covered[i..i + self.window].iter_mut().for_each(|c| *c = true);
            }
        }
        let mut spans = Vec::new();
        let mut run: Option<(usize, usize)> = None;
        for (w, &c) in words.iter().zip(&covered) {
            run = match (c, run) {
                (true, Some((s, _))) => Some((s, w.1)),
                (true, None) => Some(*w),
                (false, Some(r)) => {
                    spans.push(r);
                    None
                }
                (false, None) => None,
            };
        }
        spans.extend(run);
        spans
    }
}

/// The byte spans of the words of a page: of its text, or of the text between its tags.
pub fn words(text: &str, input: Input) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    match input {
        Input::Txt => words_in(text, 0, text.len(), &mut out),
        Input::Html => {
            for t in html_tokens(text).iter().filter(|t| t.kind == Kind::Text) {
                words_in(text, t.start, t.end, &mut out);
            }
        }
    }
    out
}

const BASE: u64 = 0x0100_0000_01b3;

/// The hash of every window of `window` words, by its first word: a rolling polynomial hash of the
/// words' own hashes, one step per word.
pub fn fragments(text: &str, words: &[(usize, usize)], window: usize) -> Vec<u64> {
    if window == 0 || words.len() < window {
        return Vec::new();
    }
    let word_hash: Vec<u64> = words.iter().map(|&(s, e)| fnv1a(&text.as_bytes()[s..e])).collect();
    let top = (1..window).fold(1u64, |p, _| p.wrapping_mul(BASE)); // BASE^(window-1)
    let mut h = word_hash[..window].iter().fold(0u64, |h, &w| h.wrapping_mul(BASE).wrapping_add(w));
    let mut out = Vec::with_capacity(words.len() - window + 1);
    out.push(finish(h));
    for i in window..words.len() {
        h = h.wrapping_sub(word_hash[i - window].wrapping_mul(top)).wrapping_mul(BASE).wrapping_add(word_hash[i]);
        out.push(finish(h));
    }
    out
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Mixes the rolling hash so that its low bits (the ones `D` samples by) depend on every word.
fn finish(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rolling_hash_is_the_hash_of_the_window() {
        let text = "a b c a b c d";
        let w = words(text, Input::Txt);
        let f = fragments(text, &w, 3);
        assert_eq!(f.len(), 5);
        assert_eq!(f[0], f[3], "a b c twice");
        assert_ne!(f[0], f[1]);
    }

    #[test]
    fn adjacent_fragments_coalesce_into_one_span() {
        let docs: Vec<String> = (0..4).map(|i| format!("home news sport weather\narticle number {i} here\n")).collect();
        let source =
            Source { name: "s", site: 0, input: Input::Txt, docs: docs.iter().map(|d| ("x", d.as_str())).collect() };
        let params = GibsonParams { window: 2, frequency: 3, density: 0, pages: 64 };
        let model = Gibson { params }.train(&source).unwrap();
        let page = "home news sport weather\nsomething else entirely\n";
        // the page's own words are in no fragment: the run stops at "weather"
        assert_eq!(model.removed(page), vec![(0, 23)]);
    }
}
