//! Span-level scoring of removal against injected templates (thesis §6.1): the generator records which
//! byte spans of each document are template, the method reports which spans it removed. Precision = share
//! of the removed text that is template, recall = share of the template that was removed. Only
//! non-whitespace characters count: whether a span takes the blank before it along is no decision.

use serde::Serialize;

use crate::cleaning::normalize;

/// Counts behind a span score, in non-whitespace characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct SpanCounts {
    /// Removed and template.
    pub hit: usize,
    pub removed: usize,
    pub template: usize,
}

impl SpanCounts {
    /// Precision of removal; 1 when nothing was removed.
    pub fn precision(&self) -> f64 {
        if self.removed == 0 { 1.0 } else { self.hit as f64 / self.removed as f64 }
    }

    /// Recall of removal; 1 when the document has no template.
    pub fn recall(&self) -> f64 {
        if self.template == 0 { 1.0 } else { self.hit as f64 / self.template as f64 }
    }
}

/// Scores `removed` against `template`, both byte spans of `text` (any order, may overlap).
pub fn score_spans(text: &str, removed: &[(usize, usize)], template: &[(usize, usize)]) -> SpanCounts {
    let clamp = |v: &[(usize, usize)]| -> Vec<(usize, usize)> {
        normalize(&v.iter().map(|&(s, e)| (s.min(text.len()), e.min(text.len()))).collect::<Vec<_>>())
    };
    let (removed, template) = (clamp(removed), clamp(template));
    let count = |spans: &[(usize, usize)]| spans.iter().map(|&(s, e)| solid(&text.as_bytes()[s..e])).sum();
    let mut both = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < removed.len() && j < template.len() {
        let (s, e) = (removed[i].0.max(template[j].0), removed[i].1.min(template[j].1));
        if s < e {
            both.push((s, e));
        }
        if removed[i].1 < template[j].1 { i += 1 } else { j += 1 }
    }
    SpanCounts { hit: count(&both), removed: count(&removed), template: count(&template) }
}

/// Non-whitespace characters of a byte slice (UTF-8 continuation bytes do not count; Unicode blanks
/// other than ASCII ones count as text, which is rare enough not to matter).
fn solid(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| !b.is_ascii_whitespace() && (b & 0xC0) != 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_does_not_count() {
        let text = "head  body text  foot";
        let c = score_spans(text, &[(0, 6)], &[(0, 4), (17, 21)]);
        assert_eq!(c, SpanCounts { hit: 4, removed: 4, template: 8 });
        assert_eq!(c.precision(), 1.0);
        assert_eq!(c.recall(), 0.5);
    }
}
