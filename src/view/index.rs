//! Lines and words of a text, counted once. Cleaning asks "how many words are on this line outside this
//! match" for every match; scanning the line each time is quadratic on one-line pages. [`LineIndex`]
//! answers from sorted line starts and word bounds: O(log n) to find the line or the words, no rescans.
//!
//! A word is what `str::split_whitespace` yields (a maximal run of non-whitespace characters), so
//! counts here equal `text[a..b].split_whitespace().count()` for any `a..b` on char boundaries.

use std::ops::Range;

/// Line starts and word bounds of one text. Offsets are bytes of that text, stored as `u32`: a text is
/// at most 4 GiB.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte where each line starts; lines are separated by `\n`, which belongs to no line.
    line_starts: Vec<u32>,
    /// Each word's start, in order.
    word_starts: Vec<u32>,
    /// Each word's end (exclusive), in order.
    word_ends: Vec<u32>,
    /// Index in `word_starts` of each line's first word, plus one past the last word: the words of line
    /// `i` are `first_word[i]..first_word[i + 1]`.
    first_word: Vec<u32>,
    len: u32,
}

/// Each character of `text`: its offset, its first byte, and whether it is whitespace (as
/// [`char::is_whitespace`] says). ASCII is read a byte at a time; other characters are decoded.
pub(crate) fn characters(text: &str) -> impl Iterator<Item = (usize, u8, bool)> + '_ {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        let b = *bytes.get(i)?;
        let (white, width) = if b < 0x80 {
            (b.is_ascii_whitespace() || b == 0x0b, 1)
        } else {
            let c = text[i..].chars().next().expect("i is a char boundary");
            (c.is_whitespace(), c.len_utf8())
        };
        let at = i;
        i += width;
        Some((at, b, white))
    })
}

impl LineIndex {
    /// Index `text` in one pass.
    ///
    /// # Panics
    /// If `text` is 4 GiB or longer.
    pub fn new(text: &str) -> LineIndex {
        let len = u32::try_from(text.len()).expect("a text shorter than 4 GiB");
        let mut ix = LineIndex { line_starts: vec![0], first_word: vec![0], len, ..LineIndex::default() };
        let mut in_word = false;
        for (i, b, white) in characters(text) {
            if white && in_word {
                ix.word_ends.push(i as u32);
                in_word = false;
            } else if !white && !in_word {
                ix.word_starts.push(i as u32);
                in_word = true;
            }
            if b == b'\n' {
                ix.line_starts.push(i as u32 + 1);
                ix.first_word.push(ix.word_starts.len() as u32);
            }
        }
        if in_word {
            ix.word_ends.push(len);
        }
        ix.first_word.push(ix.word_starts.len() as u32);
        ix
    }

    /// Number of lines (an empty text has one empty line, as a text ending in `\n` has an empty last
    /// line).
    pub fn lines(&self) -> usize {
        self.line_starts.len()
    }

    /// The line holding byte `at` (a `\n` belongs to the line it ends; `at` past the end is on the last).
    pub fn line_of(&self, at: usize) -> usize {
        self.line_starts.partition_point(|&s| s as usize <= at) - 1
    }

    /// Byte range of line `i`, without its `\n`.
    pub fn line_range(&self, i: usize) -> Range<usize> {
        let start = self.line_starts[i] as usize;
        let end = self.line_starts.get(i + 1).map_or(self.len as usize, |&s| s as usize - 1);
        start..end
    }

    /// Words on line `i`, O(1).
    pub fn line_words(&self, i: usize) -> usize {
        (self.first_word[i + 1] - self.first_word[i]) as usize
    }

    /// Words in the whole text.
    pub fn words(&self) -> usize {
        self.word_starts.len()
    }

    /// Words with a character in `range`, as `text[range].split_whitespace().count()`: a word the range
    /// cuts counts. O(log n).
    pub fn words_in(&self, range: Range<usize>) -> usize {
        if range.start >= range.end {
            return 0;
        }
        // words starting before the end, less those ending at or before the start
        let started = self.word_starts.partition_point(|&s| (s as usize) < range.end);
        let ended = self.word_ends.partition_point(|&e| (e as usize) <= range.start);
        started.saturating_sub(ended)
    }

    /// Words on the line of `span` that lie outside it, before and after (a word the span cuts counts on
    /// each side it shows on). `span` must lie on one line. O(log n).
    pub fn words_around(&self, span: Range<usize>) -> usize {
        let line = self.line_range(self.line_of(span.start));
        self.words_in(line.start..span.start) + self.words_in(span.end..line.end)
    }

    /// The word ranges of line `i`.
    pub fn line_word_ranges(&self, i: usize) -> impl Iterator<Item = Range<usize>> + '_ {
        let words = self.first_word[i] as usize..self.first_word[i + 1] as usize;
        words.map(|w| self.word_starts[w] as usize..self.word_ends[w] as usize)
    }
}
