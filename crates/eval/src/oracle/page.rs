//! A training page as the oracle editor sees it: its words, which of them are the article (aligned with
//! the gold once), and every match of every rule. It scores a cleaning by counting words, and lists the
//! stretches of words a cleaning gets wrong.

use crate::cleaning::{Match, Span};
use crate::score::{Gold, word_spans};

pub(super) struct TrainingPage<'a> {
    pub text: &'a str,
    /// Each word's byte range, as the score counts words.
    pub words: Vec<(usize, usize)>,
    /// Whether each word is the article's (used by a longest common subsequence with the gold).
    pub article: Vec<bool>,
    /// Words of the gold.
    gold_len: usize,
    /// Every match of every rule the editor may turn on, sorted.
    pub matches: Vec<Match>,
    /// The lines of every region rule (a run of lines under its element), sorted.
    pub regions: Vec<Match>,
    /// Where each line starts: a stretch's line is found without reading the page again.
    line_starts: Vec<usize>,
}

/// A run of consecutive words a cleaning gets wrong the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Stretch {
    pub start: usize,
    pub end: usize,
    pub words: usize,
    /// Article removed (else template kept).
    pub lost: bool,
}

impl<'a> TrainingPage<'a> {
    /// The page `text` with its `gold` and `matches`; `initial` (the automatic rules' removals) says
    /// which copy of an article printed twice is the article: the one they keep.
    pub fn new(
        text: &'a str,
        gold: &Gold,
        matches: Vec<Match>,
        regions: Vec<Match>,
        initial: &[Span],
    ) -> TrainingPage<'a> {
        let words = word_spans(text);
        let kept: Vec<bool> = removed(&words, initial).into_iter().map(|r| !r).collect();
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        TrainingPage {
            text,
            article: gold.align(text, &kept),
            words,
            gold_len: gold.len(),
            matches,
            regions,
            line_starts,
        }
    }

    /// The line (0-based) holding byte `pos`.
    pub fn line_of(&self, pos: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= pos).saturating_sub(1)
    }

    /// Whether each word is removed by `spans`.
    pub fn removed(&self, spans: &[Span]) -> Vec<bool> {
        removed(&self.words, spans)
    }

    /// Word F1 of what `spans` leave, counted against the aligned gold: the score's F1 when what is kept
    /// reads in the gold's order, as it nearly always does.
    #[cfg(test)]
    pub fn f1(&self, spans: &[Span]) -> f64 {
        self.f1_of(&self.removed(spans))
    }

    /// [`TrainingPage::f1`] of the words `removed` says are removed.
    pub fn f1_of(&self, removed: &[bool]) -> f64 {
        let (mut kept, mut right) = (0usize, 0usize);
        for (r, a) in removed.iter().zip(&self.article) {
            if !r {
                kept += 1;
                right += usize::from(*a);
            }
        }
        if kept + self.gold_len == 0 { 1.0 } else { 2.0 * right as f64 / (kept + self.gold_len) as f64 }
    }

    /// Article words inside `block` (the page's article block) kept under `before` and removed under
    /// `after` (each word's removal, as [`TrainingPage::removed`] says it). Words of the gold outside the
    /// article block (a label, a comment thread the gold keeps) are the page's furniture to an editor:
    /// what they cost is in the score.
    pub fn article_lost(&self, before: &[bool], after: &[bool], block: Option<(usize, usize)>) -> usize {
        let Some((from, to)) = self.word_range(block) else { return 0 };
        (from..to).filter(|&i| self.article[i] && !before[i] && after[i]).count()
    }

    /// Template words (not the gold's) removed under `before` and kept under `after`.
    pub fn template_back(&self, before: &[bool], after: &[bool]) -> usize {
        (0..self.article.len()).filter(|&i| !self.article[i] && before[i] && !after[i]).count()
    }

    /// Article words inside `block` starting in bytes `start..end` (binary searches).
    pub fn article_in(&self, start: usize, end: usize, block: Option<(usize, usize)>) -> usize {
        let Some((a, b)) = block else { return 0 };
        let (start, end) = (start.max(a), end.min(b));
        if start >= end {
            return 0;
        }
        let from = self.words.partition_point(|w| w.0 < start);
        let to = self.words.partition_point(|w| w.0 < end);
        self.article[from..to.max(from)].iter().filter(|a| **a).count()
    }

    /// The first and last byte of the article words inside `block` (`None`: there are none).
    pub fn article_extent(&self, block: Option<(usize, usize)>) -> Option<(usize, usize)> {
        let (from, to) = self.word_range(block)?;
        let first = (from..to).find(|&i| self.article[i])?;
        let last = (from..to).rev().find(|&i| self.article[i])?;
        Some((self.words[first].0, self.words[last].1))
    }

    /// The words starting inside `block`, as a range of word indices.
    fn word_range(&self, block: Option<(usize, usize)>) -> Option<(usize, usize)> {
        let (a, b) = block?;
        Some((self.words.partition_point(|w| w.0 < a), self.words.partition_point(|w| w.0 < b)))
    }

    /// Words `spans` get wrong: article removed, or template kept.
    #[cfg(test)]
    pub fn wrong(&self, spans: &[Span]) -> usize {
        self.wrong_of(&self.removed(spans))
    }

    /// Words wrong when `removed` says which are removed.
    pub fn wrong_of(&self, removed: &[bool]) -> usize {
        removed.iter().zip(&self.article).filter(|(r, a)| r == a).count()
    }

    /// The stretches `spans` get wrong, largest first.
    #[cfg(test)]
    pub fn stretches(&self, spans: &[Span]) -> Vec<Stretch> {
        self.stretches_of(&self.removed(spans))
    }

    /// The stretches wrong when `removed` says which words are removed, largest first.
    pub fn stretches_of(&self, removed: &[bool]) -> Vec<Stretch> {
        let mut out: Vec<Stretch> = Vec::new();
        let mut open: Option<Stretch> = None;
        for (i, (&r, &a)) in removed.iter().zip(&self.article).enumerate() {
            let (start, end) = self.words[i];
            match open.as_mut() {
                Some(s) if r == a && s.lost == r => {
                    s.end = end;
                    s.words += 1;
                }
                _ => {
                    out.extend(open.take());
                    if r == a {
                        open = Some(Stretch { start, end, words: 1, lost: r });
                    }
                }
            }
        }
        out.extend(open);
        out.sort_by(|a, b| b.words.cmp(&a.words).then(a.start.cmp(&b.start)));
        out
    }
}

/// Whether each word of `words` is removed by `spans` (sorted, disjoint): its first byte is. One pass.
fn removed(words: &[(usize, usize)], spans: &[Span]) -> Vec<bool> {
    let mut i = 0;
    words
        .iter()
        .map(|&(start, _)| {
            while i < spans.len() && spans[i].end <= start {
                i += 1;
            }
            i < spans.len() && spans[i].start <= start
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cleaning::SpanKind;

    #[test]
    fn stretches_are_runs_of_words_wrong_the_same_way_largest_first() {
        let text = "Home News\nThe story is here today\nShare this";
        let page = TrainingPage::new(text, &Gold::new("The story is here today"), Vec::new(), Vec::new(), &[]);
        let share = text.find("Share").unwrap();
        // the menu is kept, "The story" and the share line removed
        let spans = [
            Span::new(text.find("The").unwrap(), text.find(" is").unwrap(), SpanKind::Removed, vec![]),
            Span::new(share, text.len(), SpanKind::Removed, vec![]),
        ];
        let s = page.stretches(&spans);
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!((s[0].words, s[0].lost), (2, false), "Home News kept");
        assert_eq!((s[1].words, s[1].lost), (2, true), "The story lost");
        assert_eq!(page.wrong(&spans), 4);
        // kept: Home News is here today (5 words, 3 right) against 5 gold words
        assert!((page.f1(&spans) - 0.6).abs() < 1e-9);
        let all = [Span::new(0, text.find("The").unwrap(), SpanKind::Removed, vec![]), spans[1].clone()];
        assert_eq!(page.f1(&all), 1.0);
        assert!(page.stretches(&all).is_empty());
    }

    #[test]
    fn line_of_finds_the_line_holding_a_byte() {
        let text = "Home News\nThe story\n\nShare";
        let page = TrainingPage::new(text, &Gold::new("The story"), Vec::new(), Vec::new(), &[]);
        let lines: Vec<usize> = [0, 9, 10, 19, 20, 21, text.len()].iter().map(|&p| page.line_of(p)).collect();
        assert_eq!(lines, [0, 0, 1, 1, 2, 3, 3], "a newline ends its line; an empty line is a line");
    }
}
