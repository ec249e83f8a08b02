//! Where a document's lines and words are, found once per document: the cleaner asks of every match
//! what is on its line around it ("the words on this line outside this match", "is this match whole
//! lines"), and reading the line for each match is quadratic on a page printed as one long line (minified
//! HTML, a glued text). With the line breaks and the word starts at hand each answer is a binary search;
//! per-line prefix sums (words, words on long lines, long lines of prose) answer the article block's and
//! the short runs' questions about a whole run the same way, without reading it.

use std::cell::OnceCell;

use super::{LONG_LINE_WORDS, title, work};

/// The line breaks and word starts of a text (words as [`crate::words`] finds them: whitespace-delimited,
/// Chinese and Japanese cut into their words).
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
    /// Per line, prefix sums: the words before line `k` are `first_word[k]` (an index into `word_starts`);
    /// the words on long lines (at least [`LONG_LINE_WORDS`]) before it, `long_words[k]`; the long lines
    /// that read as prose before it, `prose_lines[k]`. One entry more than there are lines.
    first_word: Vec<usize>,
    long_words: Vec<usize>,
    prose_lines: Vec<usize>,
    /// The first line folded ([`title::first_line`]), found when a stage first asks.
    title: OnceCell<String>,
}

impl<'a> Layout<'a> {
    pub fn new(text: &'a str) -> Layout<'a> {
        work::add(text.len());
        // a word and its space take six bytes or more in most prose: room for most pages without regrowing
        let words = text.len() / 6 + 1;
        let mut newlines = Vec::new();
        let mut word_starts = Vec::with_capacity(words);
        let mut word_ends = Vec::with_capacity(words);
        let mut sentence_ends = Vec::new();
        let mut first_word = vec![0];
        let mut in_word = false;
        // the run being read holds a byte that may start a Han or kana character: it may hold more words
        let mut wide = false;
        let mut prev = b' ';
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if in_word && printable_ascii(bytes[i]) {
                // inside a word such a byte changes nothing but which byte came last: the run is skipped
                i += bytes[i..].iter().position(|&c| !printable_ascii(c)).unwrap_or(bytes.len() - i);
                prev = bytes[i - 1];
                continue;
            }
            let (b, ws, width) = character(text, i);
            if ws && in_word {
                end_run(text, i, wide, &mut word_starts, &mut word_ends);
            }
            if b == b'\n' {
                newlines.push(i);
                first_word.push(word_starts.len());
            }
            // a period before a lowercase word is an abbreviation's ("vs. shine", "e.g. the"), no sentence's end
            if b == b' ' && matches!(prev, b'.' | b'?' | b'!') && !bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase)
            {
                sentence_ends.push(i - 1);
            }
            // Chinese and Japanese end sentences with full-width stops and no space after them
            if (b == 0xE3 || b == 0xEF) && text[i..].starts_with(FULL_STOPS) {
                sentence_ends.push(i);
            }
            if !ws && !in_word {
                word_starts.push(i);
                wide = false;
            }
            wide |= b >= 0xE3;
            in_word = !ws;
            prev = b;
            i += width;
        }
        if in_word {
            end_run(text, text.len(), wide, &mut word_starts, &mut word_ends);
        }
        first_word.push(word_starts.len());
        let mut doc = Layout {
            text,
            newlines,
            word_starts,
            word_ends,
            sentence_ends,
            first_word,
            long_words: Vec::new(),
            prose_lines: Vec::new(),
            title: OnceCell::new(),
        };
        doc.sum_long_lines();
        doc
    }

    /// Fills `long_words` and `prose_lines`, a line at a time.
    fn sum_long_lines(&mut self) {
        let lines = self.newlines.len() + 1;
        let (mut long, mut prose) = (Vec::with_capacity(lines + 1), Vec::with_capacity(lines + 1));
        let (mut l, mut p) = (0, 0);
        for k in 0..lines {
            long.push(l);
            prose.push(p);
            let words = self.line_words(k);
            if words >= LONG_LINE_WORDS {
                l += words;
                let (start, end) = self.line_range(k);
                p += usize::from(self.reads_as_prose(start, end));
            }
        }
        long.push(l);
        prose.push(p);
        self.long_words = long;
        self.prose_lines = prose;
    }

    /// How many lines the text has (a text ending in `\n` has an empty last line).
    pub fn lines(&self) -> usize {
        self.newlines.len() + 1
    }

    /// Words on line `k`, O(1).
    pub fn line_words(&self, k: usize) -> usize {
        self.first_word[k + 1] - self.first_word[k]
    }

    /// The line holding `pos` (a `\n` belongs to the line it ends).
    pub fn line_of(&self, pos: usize) -> usize {
        self.newlines.partition_point(|&n| n < pos)
    }

    /// Line `k`'s bytes, without its `\n`.
    pub fn line_range(&self, k: usize) -> (usize, usize) {
        let start = if k == 0 { 0 } else { self.newlines[k - 1] + 1 };
        (start, self.newlines.get(k).copied().unwrap_or(self.text.len()))
    }

    /// The pieces `text[start..end].split('\n')` yields, as a first and a last partial line and the
    /// whole lines between them (line indices `lines.0..lines.1`); one piece when `start..end` is on one
    /// line.
    fn pieces(&self, start: usize, end: usize) -> Pieces {
        let (ka, kb) = (self.line_of(start), self.line_of(end));
        if ka == kb {
            return Pieces { first: (start, end), lines: (0, 0), last: None };
        }
        Pieces { first: (start, self.newlines[ka]), lines: (ka + 1, kb), last: Some((self.newlines[kb - 1] + 1, end)) }
    }

    /// Words on the lines of `text[start..end]` with at least [`LONG_LINE_WORDS`] words (a line cut at
    /// `start` or `end` counted as the part inside), and all its words. O(log n).
    pub fn run_words(&self, start: usize, end: usize) -> (usize, usize) {
        if end <= start {
            return (0, 0);
        }
        let long = |(a, b)| {
            let w = self.words(a, b);
            if w >= LONG_LINE_WORDS { w } else { 0 }
        };
        let p = self.pieces(start, end);
        let whole = self.long_words[p.lines.1] - self.long_words[p.lines.0];
        (long(p.first) + whole + p.last.map_or(0, long), self.words(start, end))
    }

    /// Whether a line of `text[start..end]` (a line cut at `start` or `end`: the part inside) has at least
    /// [`LONG_LINE_WORDS`] words and reads as prose ([`Layout::reads_as_prose`]). O(log n).
    pub fn has_prose_line(&self, start: usize, end: usize) -> bool {
        if end <= start {
            return false;
        }
        let prose = |(a, b)| self.words(a, b) >= LONG_LINE_WORDS && self.reads_as_prose(a, b);
        let p = self.pieces(start, end);
        prose(p.first) || self.prose_lines[p.lines.1] > self.prose_lines[p.lines.0] || p.last.is_some_and(prose)
    }

    /// Whether a line of `text[start..end]` (a line cut at `start` or `end`: the part inside) has at least
    /// [`LONG_LINE_WORDS`] words and reads as running text, not as a headline
    /// ([`Layout::reads_as_headline`]). O(log n) where a long line reads as prose; else the words of the
    /// long lines: the article block asks it of disjoint runs, at most once each.
    pub fn has_running_line(&self, start: usize, end: usize) -> bool {
        if self.has_prose_line(start, end) {
            return true;
        }
        let running = |(a, b)| self.words(a, b) >= LONG_LINE_WORDS && !self.capitalized(a, b);
        let p = self.pieces(start, end);
        running(p.first)
            || (p.lines.0..p.lines.1).any(|k| self.line_words(k) >= LONG_LINE_WORDS && running(self.line_range(k)))
            || p.last.is_some_and(running)
    }

    /// Whether `text[start..end]` reads as a headline: no sentence ends in it ([`Layout::reads_as_prose`])
    /// and more of its words start with a capital than with a small letter ("Council Votes on the Budget
    /// for Schools", not "the council votes on the budget, its report says"). Words of scripts without
    /// case count as neither. O(words).
    pub fn reads_as_headline(&self, start: usize, end: usize) -> bool {
        !self.reads_as_prose(start, end) && self.capitalized(start, end)
    }

    /// Whether more of the words in `text[start..end]` (a word cut at `start`: its part inside) start with
    /// a capital than with a small letter.
    fn capitalized(&self, start: usize, end: usize) -> bool {
        work::add(end.saturating_sub(start));
        let from = self.word_starts.partition_point(|&w| w < start);
        let cut = (start < end && self.word_starts.get(from) != Some(&start))
            .then_some(start)
            .filter(|&s| self.text[s..].starts_with(|c: char| !c.is_whitespace()));
        let (mut upper, mut lower) = (0usize, 0usize);
        for w in cut.into_iter().chain(self.word_starts[from..].iter().copied().take_while(|&w| w < end)) {
            match self.text[w..].chars().next() {
                Some(c) if c.is_uppercase() => upper += 1,
                Some(c) if c.is_lowercase() => lower += 1,
                _ => {}
            }
        }
        upper > lower
    }

    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The document's first line, folded: the page's `<title>`, as the title stages compare lines with it.
    pub fn title(&self) -> &str {
        self.title.get_or_init(|| title::first_line(self.text))
    }

    /// The start of the line holding `pos` (after the last `\n` before it).
    pub fn line_start(&self, pos: usize) -> usize {
        self.line_range(self.line_of(pos)).0
    }

    /// The end of the line holding `pos`: its `\n` (the first at or after `pos`), or the text's end.
    pub fn line_end(&self, pos: usize) -> usize {
        self.line_range(self.line_of(pos)).1
    }

    /// How many `\n`s `start..end` holds.
    pub fn newlines_in(&self, start: usize, end: usize) -> usize {
        if end <= start {
            return 0;
        }
        self.newlines.partition_point(|&n| n < end) - self.newlines.partition_point(|&n| n < start)
    }

    /// How many words `text[start..end]` splits into ([`crate::words::count`]; `split_whitespace().count()`
    /// without Han or kana).
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
        if end <= start {
            return true;
        }
        // no word cut at `start`, and none starting inside: one search where counting takes two
        let first = self.text[start..].chars().next().is_some_and(|c| !c.is_whitespace());
        let k = self.word_starts.partition_point(|&w| w <= start);
        !first && self.word_starts.get(k).is_none_or(|&w| w >= end)
    }

    /// Whether `text[start..end]` reads as prose: it holds a sentence's end (headlines and link text
    /// have none; a run cut by a match inside a sentence may have lost its final period). It ends with a
    /// sentence's end, or holds one followed by more.
    pub fn reads_as_prose(&self, start: usize, end: usize) -> bool {
        // the last word ending after `start`, of those starting before `end`
        let k = self.word_starts.partition_point(|&w| w < end);
        let Some(last_end) = k.checked_sub(1).map(|k| self.word_ends[k].min(end)).filter(|&e| e > start) else {
            return false;
        };
        let head = &self.text[..last_end];
        if head.ends_with(['.', '!', '?', '"', '\u{201d}']) || head.ends_with(FULL_STOPS) {
            return true;
        }
        // a sentence's end inside closing quotes, a space between them aside (French "port. »")
        let inner = head.trim_end_matches(CLOSERS);
        let inner = inner.trim_end_matches([' ', '\u{a0}', '\u{202f}']);
        if inner.len() < head.len() && inner.len() > start && inner.ends_with(['.', '!', '?']) {
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

/// Quotes that close a sentence in other languages than English ("… im Mai.“", "… le port. »"): German
/// closes with `“`, French, Swedish and Danish with `»` or `«`. Not English single quotes or brackets
/// ("… in May.’", "(… land.)"): the datasets' comment lines end so, and their golds leave comments out.
const CLOSERS: [char; 5] = ['"', '\u{201d}', '\u{201c}', '\u{bb}', '\u{ab}'];

/// The sentence ends of scripts written without spaces: the ideographic full stop, full-width `!` and `?`.
const FULL_STOPS: [char; 3] = ['\u{3002}', '\u{ff01}', '\u{ff1f}'];

/// The whitespace-free run that started at the last of `starts` ends at `end`: cut into its words when it
/// may hold Han or kana ([`crate::words::splits`]).
fn end_run(text: &str, end: usize, wide: bool, starts: &mut Vec<usize>, ends: &mut Vec<usize>) {
    if wide {
        let start = *starts.last().expect("a run has a start");
        for cut in crate::words::splits(&text[start..end]) {
            ends.push(start + cut);
            starts.push(start + cut);
        }
    }
    ends.push(end);
}

/// The character of `text` at `i`: its first byte, whether it is whitespace (as [`char::is_whitespace`]
/// says), and its length. ASCII is read as a byte; other characters are decoded.
fn character(text: &str, i: usize) -> (u8, bool, usize) {
    let b = text.as_bytes()[i];
    if b < 0x80 {
        (b, b.is_ascii_whitespace() || b == 0x0b, 1)
    } else {
        let c = text[i..].chars().next().expect("i is a char boundary");
        (b, c.is_whitespace(), c.len_utf8())
    }
}

/// `!` to `~`: ASCII that is neither whitespace nor a control character.
fn printable_ascii(b: u8) -> bool {
    b.wrapping_sub(b'!') <= b'~' - b'!'
}

/// `text[start..end]` by lines: see [`Layout::pieces`].
struct Pieces {
    first: (usize, usize),
    lines: (usize, usize),
    last: Option<(usize, usize)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`Layout::reads_as_prose`] answers, by reading the line: it ends with a sentence's end, or
    /// one is followed by more (not by a lowercase word: "vs. shine" is an abbreviation's period).
    fn reads_as_prose(line: &str) -> bool {
        let l = line.trim_end();
        let lower = |rest: &str| rest.starts_with(|c: char| c.is_ascii_lowercase());
        let closed = l.trim_end_matches(CLOSERS);
        l.ends_with(['.', '!', '?', '"', '\u{201d}'])
            || closed.len() < l.len() && closed.trim_end_matches([' ', '\u{a0}', '\u{202f}']).ends_with(['.', '!', '?'])
            || l.contains(FULL_STOPS)
            || [". ", "? ", "! "].iter().any(|end| l.match_indices(end).any(|(i, _)| !lower(&l[i + 2..])))
    }

    /// What [`Layout::reads_as_headline`] answers, by reading the line: no sentence's end, and more words
    /// starting with a capital than with a small letter.
    fn reads_as_headline(line: &str) -> bool {
        let first = line.split_whitespace().filter_map(|w| w.chars().next());
        let upper = first.clone().filter(|c| c.is_uppercase()).count();
        let lower = first.filter(|c| c.is_lowercase()).count();
        !reads_as_prose(line) && upper > lower
    }

    #[test]
    fn answers_as_scanning_the_text_would() {
        answers_as_scanning("  one two.\n\nthree. four? five\u{a0}six! \n seven é\u{2003}x.  \u{201d}");
        // long lines (eight words or more), prose or not, cut anywhere
        answers_as_scanning(
            "a b c d e f g h.\nmenu one two three four five six seven\n\nshort line\n\
             one two three. four five six seven eight\nx y z w v u t s r\u{2003}q.",
        );
        // runs of printable ASCII skipped inside words: what ends them, and the byte before a space
        answers_as_scanning("e.g. u.s.a. end.\x0bnext\x01word. x\u{3002} Done!\r\nx?y? z\tq.\u{201d} a\u{3000}b.");
        // an abbreviation's period before a lowercase word ends no sentence; before a capital, two spaces
        // or a digit it does
        answers_as_scanning("Patina vs. shine | Home\nOne. Two vs.  three\nsee p. 4 now\nwhy? no");
        // headlines and running text without a sentence's end, cut anywhere; case-less words count as neither
        answers_as_scanning(
            "Mayor Opens the New Bridge Over the River Today\nwhenever you have time, visit the shrine in Italy\n\
             Élan Vital and the Crowd at the Hall of Fame 2012\nשלום Tokyo עולם osaka x Y z W v",
        );
    }

    #[test]
    fn a_sentence_closed_by_a_german_or_french_quote_reads_as_prose() {
        for line in [
            "Er sagte: „Wir öffnen den Hafen im Mai.“",
            "Il a dit : « Nous ouvrons le port. »",
            "Han sade: »Vi öppnar hamnen i maj.»",
            "Er fragte: „Wann öffnet der Hafen?“",
        ] {
            assert!(Layout::new(line).reads_as_prose(0, line.len()), "{line}");
        }
        for line in ["Das Hafenblatt „Extra“", "Le «Journal»", "»", "(See the full report.)"] {
            assert!(!Layout::new(line).reads_as_prose(0, line.len()), "{line}");
        }
        answers_as_scanning("im Mai.“ Der\nport. »\na (b.) c\u{a0}d.\u{202f}\u{bb} x.’) «y» z!\u{201c}");
    }

    #[test]
    fn a_period_before_a_lowercase_word_is_no_sentences_end() {
        let text = "Patina vs. shine | Blog Home | Superman »";
        assert!(!Layout::new(text).reads_as_prose(0, text.len()));
        let text = "It rained. Then it stopped | Blog Home";
        assert!(Layout::new(text).reads_as_prose(0, text.len()));
    }

    fn answers_as_scanning(text: &str) {
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
                assert_eq!(l.reads_as_prose(a, b), reads_as_prose(s), "{s:?}");
                let words = |l: &str| l.split_whitespace().count();
                let long: usize = s.split('\n').map(words).filter(|&w| w >= LONG_LINE_WORDS).sum();
                assert_eq!(l.run_words(a, b), (long, words(s)), "{s:?}");
                let prose = s.split('\n').any(|l| words(l) >= LONG_LINE_WORDS && reads_as_prose(l));
                assert_eq!(l.has_prose_line(a, b), prose, "{s:?}");
                assert_eq!(l.reads_as_headline(a, b), reads_as_headline(s), "{s:?}");
                let running = s.split('\n').any(|l| words(l) >= LONG_LINE_WORDS && !reads_as_headline(l));
                assert_eq!(l.has_running_line(a, b), running, "{s:?}");
            }
        }
    }
}
