//! Token ids (thesis §3.2 steps 1–2): every document is tokenized, mutable tokens are normalized to
//! their pattern, each distinct symbol gets an id, and the documents' id sequences are concatenated into
//! one corpus, each ended by the separator.
//!
//! Ids go by descending frequency (1 = most frequent), so the suffix array's char encoding stays short.

// every token is looked up twice (classified, then interned): a fast hasher, as ids go by first sight
// and counts, never by the map's order
use foldhash::{HashMap, HashMapExt};
use rayon::prelude::*;

use crate::corpus::Document;
use crate::mutable::MutableSet;
use crate::suffix_array::SEPARATOR;
use crate::symbol::Symbol;
use crate::tokens::Tokenizer;

/// The encoded corpus the suffix array is built on.
#[derive(Debug, Default)]
pub struct Encoded {
    /// All tokens' ids; [`SEPARATOR`] after each document.
    pub ids: Vec<u32>,
    /// Document (index into the encoded documents) of each position.
    pub doc_of: Vec<u32>,
    /// Byte span in its document's text of each position (a separator gets an empty span at the end).
    pub spans: Vec<(u32, u32)>,
    /// Index of the first position of each document, and the total length last.
    pub doc_start: Vec<u32>,
    /// Symbol of each id; index 0 (the separator) is a placeholder.
    pub symbols: Vec<Symbol>,
    /// Tokens normalized by each mutable pattern.
    pub pattern_counts: Vec<u64>,
}

impl Encoded {
    /// Tokens, separators excluded.
    pub fn token_count(&self) -> usize {
        self.ids.len() - self.doc_start.len().saturating_sub(1)
    }

    /// Symbols of positions `start..start+len`.
    pub fn symbols_at(&self, start: u32, len: u32) -> Vec<Symbol> {
        self.ids[start as usize..(start + len) as usize].iter().map(|&id| self.symbols[id as usize].clone()).collect()
    }

    /// Byte range in its document of the string at `start..start+len`.
    pub fn byte_range(&self, start: u32, len: u32) -> (usize, usize) {
        (self.spans[start as usize].0 as usize, self.spans[(start + len - 1) as usize].1 as usize)
    }
}

#[derive(Clone, Copy)]
enum Raw {
    Pattern(u8),
    Literal,
}

/// Tokenizes and encodes `docs`. `cancel` is polled between documents.
pub fn encode(docs: &[&Document], tokenizer: Tokenizer, mutable: &MutableSet) -> Encoded {
    // Tokenize and classify in parallel; a per-worker cache keeps the regex set off repeated tokens.
    let per_doc: Vec<Vec<(u32, u32, Raw)>> = docs
        .par_iter()
        .map_init(HashMap::<&str, Option<usize>>::new, |cache, doc| {
            let text = doc.text.as_str();
            let mut toks = Vec::with_capacity(text.len() / 5);
            tokenizer.for_each(text, |s, e| {
                let tok = &text[s..e];
                let class = match cache.get(tok) {
                    Some(&c) => c,
                    None => {
                        let c = mutable.classify(tok);
                        cache.insert(tok, c);
                        c
                    }
                };
                toks.push((s as u32, e as u32, class.map_or(Raw::Literal, |c| Raw::Pattern(c as u8))));
            });
            toks
        })
        .collect();

    // Intern symbols in first-seen order, counting, then renumber by descending count.
    let npat = mutable.len();
    let mut literal_ids: HashMap<&str, u32> = HashMap::new();
    let mut counts: Vec<u64> = vec![0; npat];
    let mut temp_symbols: Vec<Symbol> = mutable.patterns().iter().map(|p| Symbol::Mutable(p.name.clone())).collect();
    let total: usize = per_doc.iter().map(|d| d.len() + 1).sum();
    let mut temp_ids: Vec<u32> = Vec::with_capacity(total);
    let mut doc_of = Vec::with_capacity(total);
    let mut spans = Vec::with_capacity(total);
    let mut doc_start = Vec::with_capacity(docs.len() + 1);
    for (d, (doc, toks)) in docs.iter().zip(&per_doc).enumerate() {
        doc_start.push(temp_ids.len() as u32);
        for &(s, e, raw) in toks {
            let id = match raw {
                Raw::Pattern(p) => p as u32,
                Raw::Literal => {
                    let tok = &doc.text[s as usize..e as usize];
                    *literal_ids.entry(tok).or_insert_with(|| {
                        temp_symbols.push(Symbol::Literal(tok.to_string()));
                        counts.push(0);
                        (temp_symbols.len() - 1) as u32
                    })
                }
            };
            counts[id as usize] += 1;
            temp_ids.push(id);
            doc_of.push(d as u32);
            spans.push((s, e));
        }
        temp_ids.push(u32::MAX);
        doc_of.push(d as u32);
        let end = doc.text.len() as u32;
        spans.push((end, end));
    }
    doc_start.push(temp_ids.len() as u32);

    let mut order: Vec<u32> = (0..temp_symbols.len() as u32).collect();
    order.sort_by_key(|&t| std::cmp::Reverse(counts[t as usize]));
    let mut new_id = vec![0u32; temp_symbols.len()];
    let mut symbols = Vec::with_capacity(temp_symbols.len() + 1);
    symbols.push(Symbol::Literal(String::new()));
    for (rank, &t) in order.iter().enumerate() {
        new_id[t as usize] = rank as u32 + 1;
        symbols.push(std::mem::replace(&mut temp_symbols[t as usize], Symbol::Literal(String::new())));
    }
    let ids = temp_ids.into_iter().map(|t| if t == u32::MAX { SEPARATOR } else { new_id[t as usize] }).collect();
    Encoded { ids, doc_of, spans, doc_start, symbols, pattern_counts: counts[..npat].to_vec() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutable_tokens_share_an_id_and_frequent_ids_are_small() {
        let docs = [
            Document { id: "a".into(), text: "on Tuesday, read more".into() },
            Document { id: "b".into(), text: "on Thursday read more more".into() },
        ];
        let refs: Vec<&Document> = docs.iter().collect();
        let enc = encode(&refs, Tokenizer::Text, &MutableSet::defaults());
        assert_eq!(enc.ids.len(), 4 + 1 + 5 + 1);
        assert_eq!(enc.ids[1], enc.ids[6], "weekdays normalize to one symbol");
        assert_eq!(enc.symbols[enc.ids[1] as usize], Symbol::Mutable("weekday".into()));
        assert_eq!(enc.ids[3], 1, "`more` is the most frequent token");
        assert_eq!(enc.ids[4], SEPARATOR);
        assert_eq!(enc.token_count(), 9);
        assert_eq!(enc.byte_range(2, 2), (12, 21));
        let weekday = MutableSet::defaults().index_of("weekday").unwrap();
        assert_eq!(enc.pattern_counts[weekday], 2);
    }
}
