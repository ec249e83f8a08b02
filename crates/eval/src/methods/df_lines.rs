//! `df-lines`, Gottron's baseline: a line is template when it occurs in more than a share of the
//! training pages (a third in the paper). Lines are compared with whitespace collapsed.

use crate::error::Result;

use super::fragments::{Fragment, FrequentFragments, collapse, frequent};
use super::{Method, Model, Source};

/// Frequent lines.
pub struct DfLines {
    pub threshold: f64,
}

impl Method for DfLines {
    fn name(&self) -> String {
        format!("df-lines (> {:.2} of pages)", self.threshold)
    }

    fn train(&self, source: &Source<'_>) -> Result<Box<dyn Model>> {
        Ok(Box::new(FrequentFragments { template: frequent(&source.docs, self.threshold, lines), split: lines }))
    }
}

/// The non-blank lines of `text`, keyed by their words.
pub fn lines(text: &str) -> Vec<Fragment> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let key = collapse(line);
        if !key.is_empty() {
            out.push((start, start + line.len(), key));
        }
        start += line.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_spans_and_collapse_whitespace() {
        let l = lines("a  b\n\n c\n");
        assert_eq!(l, vec![(0, 5, "a b".to_string()), (6, 9, "c".to_string())]);
    }
}
