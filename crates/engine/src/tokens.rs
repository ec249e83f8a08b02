//! Tokenization (thesis §3.2 step 1): a document becomes a sequence of tokens, each a byte span of its text.
//!
//! Two presets. `text` is the thesis's `\S+`. `html` splits tags apart from the text runs between them
//! (`<[^>]*>|[^<\s]+`), so a template's markup and its words are separate tokens. Both are hand-written
//! scanners equivalent to those regexes: tokenizing is on the hot path of mining and cleaning.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Tokenizer {
    /// `\S+`: runs of non-whitespace (the thesis).
    #[default]
    Text,
    /// `<[^>]*>|[^<\s]+`: tags, and text runs between them.
    Html,
}

impl Tokenizer {
    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::Text => "text",
            Tokenizer::Html => "html",
        }
    }

    pub fn parse(name: &str) -> Option<Tokenizer> {
        match name {
            "text" => Some(Tokenizer::Text),
            "html" => Some(Tokenizer::Html),
            _ => None,
        }
    }

    /// The regex this tokenizer is equivalent to (shown to the editor, and used by tests as the oracle).
    pub fn regex(self) -> &'static str {
        match self {
            Tokenizer::Text => r"\S+",
            Tokenizer::Html => r"<[^>]*>|[^<\s]+",
        }
    }

    /// Calls `f(start, end)` for every token of `text`, in order.
    #[inline]
    pub fn for_each(self, text: &str, mut f: impl FnMut(usize, usize)) {
        let bytes = text.as_bytes();
        let n = bytes.len();
        let mut i = 0;
        match self {
            Tokenizer::Text => {
                while i < n {
                    let w = whitespace_len(text, i);
                    if w > 0 {
                        i += w;
                        continue;
                    }
                    let start = i;
                    while i < n && whitespace_len(text, i) == 0 {
                        i += utf8_len(bytes[i]);
                    }
                    f(start, i);
                }
            }
            Tokenizer::Html => {
                while i < n {
                    if bytes[i] == b'<' {
                        if let Some(close) = memchr(b'>', &bytes[i + 1..]) {
                            let end = i + 1 + close + 1;
                            f(i, end);
                            i = end;
                        } else {
                            // A `<` that never closes is no token: `[^<\s]+` cannot start with it.
                            i += 1;
                        }
                        continue;
                    }
                    let w = whitespace_len(text, i);
                    if w > 0 {
                        i += w;
                        continue;
                    }
                    let start = i;
                    while i < n && bytes[i] != b'<' && whitespace_len(text, i) == 0 {
                        i += utf8_len(bytes[i]);
                    }
                    f(start, i);
                }
            }
        }
    }

    /// All token spans of `text`.
    pub fn spans(self, text: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::with_capacity(text.len() / 6);
        self.for_each(text, |s, e| out.push((s, e)));
        out
    }

    /// The inverse of the tokenizer between two tokens, as a regex (thesis §3.4): what may separate them.
    /// In html mode two text runs must be apart (else they were one token); a tag may touch anything.
    pub fn joiner(self, left_is_tag: bool, right_is_tag: bool) -> &'static str {
        match self {
            Tokenizer::Text => r"\s+",
            Tokenizer::Html if left_is_tag || right_is_tag => r"\s*",
            Tokenizer::Html => r"\s+",
        }
    }
}

#[inline]
fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// Length in bytes of the whitespace character at `i`, or 0. Matches regex's `\s` (Unicode White_Space).
#[inline]
fn whitespace_len(text: &str, i: usize) -> usize {
    let b = text.as_bytes()[i];
    if b < 0x80 {
        return usize::from(matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C));
    }
    let c = text[i..].chars().next().expect("char boundary");
    if c.is_whitespace() { c.len_utf8() } else { 0 }
}

#[inline]
fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| b == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn oracle(t: Tokenizer, text: &str) -> Vec<(usize, usize)> {
        regex::Regex::new(t.regex()).unwrap().find_iter(text).map(|m| (m.start(), m.end())).collect()
    }

    #[test]
    fn html_splits_tags_from_text() {
        let text = "<p class=\"a b\">Hello  world</p>\n<br/>x<y";
        let toks: Vec<&str> = Tokenizer::Html.spans(text).iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(toks, ["<p class=\"a b\">", "Hello", "world", "</p>", "<br/>", "x", "y"]);
    }

    proptest! {
        #[test]
        fn scanners_equal_their_regexes(text in "[a <>\t\n\u{a0}\u{2003}é\u{3000}b]{0,40}") {
            for t in [Tokenizer::Text, Tokenizer::Html] {
                prop_assert_eq!(t.spans(&text), oracle(t, &text));
            }
        }
    }
}
