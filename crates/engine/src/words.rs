//! What the cleaner counts as a word: a run of non-whitespace, except in scripts written without spaces.
//!
//! Chinese and Japanese put no space between words, so a paragraph is one whitespace-delimited "word" and
//! every threshold in words (short runs, the article block, prose lines) misreads it. A run that holds a
//! Han or kana character is split by Unicode word segmentation (UAX #29, the `unicode-segmentation`
//! crate): each ideograph and each hiragana is a word, a katakana run is one, and Latin letters or digits
//! inside the run stay whole words. Thai, Lao, Khmer and Myanmar need a dictionary to find their words;
//! without one a run of them counts as one word, as before. Runs of other scripts are never segmented, so
//! counting stays a byte scan for them.

use unicode_segmentation::UnicodeSegmentation;

/// Whether `c` belongs to a script written without spaces that UAX #29 segments: Han, hiragana, katakana.
pub fn is_unspaced(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF     // hiragana, katakana
        | 0x31F0..=0x31FF   // katakana phonetic extensions
        | 0x3400..=0x4DBF   // CJK extension A
        | 0x4E00..=0x9FFF   // CJK unified ideographs
        | 0xF900..=0xFAFF   // CJK compatibility ideographs
        | 0xFF66..=0xFF9F   // halfwidth katakana
        | 0x20000..=0x3134F // CJK extensions B–G
    )
}

/// The words of `text` as byte ranges, in order. They tile each whitespace-delimited run: a run holding a
/// Han or kana character is cut where each of its UAX #29 words starts (punctuation stays with the word
/// before it), so "whitespace alone" still means no word at all.
pub fn bounds(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    runs(text).flat_map(move |(start, end)| {
        let cuts: Vec<usize> = splits(&text[start..end]).into_iter().map(|p| start + p).collect();
        let ends: Vec<usize> = cuts.iter().copied().chain([end]).collect();
        std::iter::once(start).chain(cuts).zip(ends)
    })
}

/// Where a whitespace-free run is cut into words (offsets inside it, ascending, never 0): nowhere unless
/// it holds a Han or kana character, else at the start of each UAX #29 word after the first (the first
/// word starts at the run's start: punctuation before it stays with it).
pub fn splits(run: &str) -> Vec<usize> {
    if !run.chars().any(is_unspaced) {
        return Vec::new();
    }
    run.split_word_bound_indices()
        .filter(|(_, w)| w.chars().any(char::is_alphanumeric))
        .map(|(i, _)| i)
        .skip(1)
        .collect()
}

/// How many words `text` has (see [`bounds`]); `split_whitespace().count()` for text without Han or kana.
pub fn count(text: &str) -> usize {
    if plain(text) {
        return text.split_whitespace().count();
    }
    runs(text).map(|(a, b)| 1 + splits(&text[a..b]).len()).sum()
}

/// Whether `text` has `n` words or more (`count(text) >= n`), read only up to its `n`th word when it has no
/// Han or kana: a stage asking whether a line is long reads no further than it must.
pub fn at_least(text: &str, n: usize) -> bool {
    if plain(text) {
        return n == 0 || text.split_whitespace().nth(n - 1).is_some();
    }
    count(text) >= n
}

/// The common case: no lead byte of the scripts written without spaces, so words are whitespace's runs.
fn plain(text: &str) -> bool {
    !text.bytes().any(|b| (0xE3..=0xEF).contains(&b) || b == 0xF0)
}

/// The whitespace-delimited runs of `text`, as byte ranges.
fn runs(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    text.split_whitespace().map(move |w| {
        let start = w.as_ptr() as usize - text.as_ptr() as usize;
        (start, start + w.len())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<&str> {
        bounds(text).map(|(a, b)| &text[a..b]).collect()
    }

    #[test]
    fn latin_text_is_split_at_whitespace() {
        assert_eq!(words("The harbour, opened 3.5 km"), ["The", "harbour,", "opened", "3.5", "km"]);
        assert_eq!(count("The harbour, opened 3.5 km"), 5);
    }

    #[test]
    fn each_ideograph_is_a_word() {
        assert_eq!(words("北京是中国的首都。"), ["北", "京", "是", "中", "国", "的", "首", "都。"]);
        assert_eq!(count("北京是中国的首都。 Beijing"), 9);
    }

    #[test]
    fn a_katakana_run_is_one_word_and_latin_inside_stays_whole() {
        assert_eq!(words("カタカナテスト"), ["カタカナテスト"]);
        assert_eq!(words("iPhoneは新しい"), ["iPhone", "は", "新", "し", "い"]);
    }

    #[test]
    fn korean_is_spaced_and_thai_runs_stay_whole() {
        assert_eq!(count("한국어 문장입니다"), 2);
        assert_eq!(count("ภาษาไทยเป็นภาษาที่สวยงาม"), 1);
    }

    #[test]
    fn punctuation_stays_with_a_word_so_the_words_tile_the_text() {
        assert_eq!(words("“引用”"), ["“引", "用”"]);
        assert_eq!(words("。"), ["。"]);
    }

    #[test]
    fn at_least_agrees_with_count() {
        for t in
            ["", "  ", "a", "a b", " a  b c ", "a\u{a0}b c", "中文 text 日本語です", "x。y z", "one two three four"]
        {
            for n in 0..=12 {
                assert_eq!(at_least(t, n), count(t) >= n, "{t:?} {n}");
            }
        }
    }

    #[test]
    fn count_agrees_with_bounds_on_mixed_text() {
        for t in ["", "  ", "a b", "a\u{a0}b", "中文 text 日本語です", "é ü", "x。y", "“引用”"] {
            assert_eq!(count(t), bounds(t).count(), "{t:?}");
        }
    }
}
