//! What the document-frequency baselines share ([`super::df_lines`], [`super::table_chunks`]): a page is
//! split into fragments, a fragment is template when it occurs in more than a share of the training pages
//! and in at least two of them, so that in-sample (where the page itself is among the training pages) a
//! page's own text is never template by itself.

use std::collections::{HashMap, HashSet};

use super::Model;

/// Fewest training pages a fragment must occur in to be template.
pub const MIN_DF: usize = 2;

/// Fragments of a page: byte span and comparison key.
pub type Fragment = (usize, usize, String);

/// Fragments occurring in more than `threshold` of the documents (and in at least [`MIN_DF`]).
pub fn frequent(docs: &[(&str, &str)], threshold: f64, split: fn(&str) -> Vec<Fragment>) -> HashSet<String> {
    let mut df: HashMap<String, usize> = HashMap::new();
    for (_, text) in docs {
        let keys: HashSet<String> = split(text).into_iter().map(|f| f.2).collect();
        for k in keys {
            *df.entry(k).or_default() += 1;
        }
    }
    let n = docs.len() as f64;
    df.into_iter().filter(|&(_, d)| d >= MIN_DF && d as f64 > threshold * n).map(|(k, _)| k).collect()
}

pub struct FrequentFragments {
    pub template: HashSet<String>,
    pub split: fn(&str) -> Vec<Fragment>,
}

impl Model for FrequentFragments {
    fn removed(&self, text: &str) -> Vec<(usize, usize)> {
        (self.split)(text).into_iter().filter(|f| self.template.contains(&f.2)).map(|f| (f.0, f.1)).collect()
    }
}

pub fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::df_lines::lines;

    #[test]
    fn frequent_needs_two_pages_and_the_share() {
        let docs = [("1", "menu\nalpha"), ("2", "menu\nbeta"), ("3", "gamma\nalpha")];
        let t = frequent(&docs, 0.5, lines);
        assert!(t.contains("menu") && t.contains("alpha") && t.len() == 2);
        let t = frequent(&docs, 0.7, lines);
        assert!(t.is_empty());
    }
}
