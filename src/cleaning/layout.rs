//! Where a document's lines and words are, found once per document: the cleaner asks of every match
//! what is on its line around it ("the words on this line outside this match", "is this match whole
//! lines"), and reading the line for each match is quadratic on a page printed as one long line (minified
//! HTML, a glued text). With the line breaks and the word starts at hand each answer is a binary search.

use super::work;
use crate::view::characters;

/// The line breaks and word starts of a text (words as [`str::split_whitespace`] splits them).
#[derive(Debug, Clone)]
pub struct Layout<'a> {
    text: &'a str,
    /// Byte offsets of the `\n`s.
    newlines: Vec<usize>,
    /// Byte offsets where a word starts: a non-whitespace character at the text's start or after
    /// whitespace.
    word_starts: Vec<usize>,
    /// Where each word ends (the byte after its last character), beside `word_starts`.
    word_ends: Vec<usize>,
    /// Byte offsets of a sentence's end followed by a space (`. `, `? `, `! `).
    sentence_ends: Vec<usize>,
}

impl<'a> Layout<'a> {
    pub fn new(text: &'a str) -> Layout<'a> {
        work::add(text.len());
        let mut newlines = Vec::new();
        let mut word_starts = Vec::new();
        let mut word_ends = Vec::new();
        let mut sentence_ends = Vec::new();
        let mut in_word = false;
        let mut prev = b' ';
        for (i, b, ws) in characters(text) {
            if b == b'\n' {
                newlines.push(i);
            }
            if b == b' ' && matches!(prev, b'.' | b'?' | b'!') {
                sentence_ends.push(i - 1);
            }
            if !ws && !in_word {
                word_starts.push(i);
            } else if ws && in_word {
                word_ends.push(i);
            }
            in_word = !ws;
            prev = b;
        }
        if in_word {
            word_ends.push(text.len());
        }
        Layout { text, newlines, word_starts, word_ends, sentence_ends }
    }

    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The start of the line holding `pos` (after the last `\n` before it).
    pub fn line_start(&self, pos: usize) -> usize {
        let k = self.newlines.partition_point(|&n| n < pos);
        if k == 0 { 0 } else { self.newlines[k - 1] + 1 }
    }

    /// The end of the line holding `pos`: its `\n` (the first at or after `pos`), or the text's end.
    pub fn line_end(&self, pos: usize) -> usize {
        let k = self.newlines.partition_point(|&n| n < pos);
        self.newlines.get(k).copied().unwrap_or(self.text.len())
    }

    /// How many `\n`s `start..end` holds.
    pub fn newlines_in(&self, start: usize, end: usize) -> usize {
        if end <= start {
            return 0;
        }
        self.newlines.partition_point(|&n| n < end) - self.newlines.partition_point(|&n| n < start)
    }

    /// How many words `text[start..end]` splits into (`split_whitespace().count()`).
    pub fn words(&self, start: usize, end: usize) -> usize {
        if end <= start {
            return 0;
        }
        // words starting inside, plus the one cut at `start`
        let inside = self.word_starts.partition_point(|&w| w < end) - self.word_starts.partition_point(|&w| w <= start);
        let first = self.text[start..].chars().next().is_some_and(|c| !c.is_whitespace());
        inside + usize::from(first)
    }

    /// Whether `text[start..end]` is whitespace alone (`trim().is_empty()`).
    pub fn is_blank(&self, start: usize, end: usize) -> bool {
        self.words(start, end) == 0
    }

    /// Whether `text[start..end]` reads as prose, as `runs::reads_as_prose` says: it ends with a
    /// sentence's end, or holds one followed by more.
    pub fn reads_as_prose(&self, start: usize, end: usize) -> bool {
        // the last word ending after `start`, of those starting before `end`
        let k = self.word_starts.partition_point(|&w| w < end);
        let Some(last_end) = k.checked_sub(1).map(|k| self.word_ends[k].min(end)).filter(|&e| e > start) else {
            return false;
        };
        if self.text[..last_end].ends_with(['.', '!', '?', '"', '\u{201d}']) {
            return true;
        }
        // a sentence's end with its space before the last character
        let i = self.sentence_ends.partition_point(|&p| p < start);
        self.sentence_ends.get(i).is_some_and(|&p| p + 1 < last_end)
    }

    /// The text on the line of `start` before it, and on the line of `end` after it, as ranges.
    pub fn line_edges(&self, start: usize, end: usize) -> ((usize, usize), (usize, usize)) {
        ((self.line_start(start), start), (end, self.line_end(end)))
    }

    /// Words on the lines of `start..end` outside it.
    pub fn rest_of_line_words(&self, start: usize, end: usize) -> usize {
        let ((a, b), (c, d)) = self.line_edges(start, end);
        self.words(a, b) + self.words(c, d)
    }

    /// Whether `start..end` begins a line or ends one, whitespace aside.
    pub fn touches_line_boundary(&self, start: usize, end: usize) -> bool {
        let ((a, b), (c, d)) = self.line_edges(start, end);
        self.is_blank(a, b) || self.is_blank(c, d)
    }

    /// Whether `start..end` is whole lines: it starts a line and ends one, whitespace aside.
    pub fn is_whole_lines(&self, start: usize, end: usize) -> bool {
        let ((a, b), (c, d)) = self.line_edges(start, end);
        self.is_blank(a, b) && self.is_blank(c, d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_as_scanning_the_text_would() {
        let text = "  one two.\n\nthree. four? five\u{a0}six! \n seven é\u{2003}x.  \u{201d}";
        let l = Layout::new(text);
        let cuts: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        for &a in &cuts {
            let line_start = text[..a].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[a..].find('\n').map_or(text.len(), |i| a + i);
            assert_eq!((l.line_start(a), l.line_end(a)), (line_start, line_end), "at {a}");
            for &b in cuts.iter().filter(|&&b| b >= a) {
                let s = &text[a..b];
                assert_eq!(l.words(a, b), s.split_whitespace().count(), "{s:?}");
                assert_eq!(l.is_blank(a, b), s.trim().is_empty(), "{s:?}");
                assert_eq!(l.newlines_in(a, b), s.matches('\n').count(), "{s:?}");
                assert_eq!(l.reads_as_prose(a, b), crate::cleaning::short_runs::reads_as_prose(s), "{s:?}");
            }
        }
    }
}
