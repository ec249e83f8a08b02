//! From mined strings to regexes (thesis §3.4): literal tokens are escaped, a mutable token becomes its
//! pattern's regex as a group, and tokens are joined by the inverse of the tokenizer (`\s+` for `\S+`).
//!
//! A rule must match only at token boundaries. Rust's `regex` has no look-around, so the boundary is
//! checked by the cleaner on each match rather than written into the regex.

use crate::error::{Error, Result};
use crate::mutable::MutableSet;
use crate::symbol::Symbol;
use crate::tokens::Tokenizer;

/// Whether a mutable pattern stands for tags (html mode): decides the joiner next to it.
fn pattern_is_tag(regex: &str) -> bool {
    regex.starts_with('<')
}

/// The regex of a symbol string.
pub fn synthesize(symbols: &[Symbol], tokenizer: Tokenizer, mutable: &MutableSet) -> Result<String> {
    let mut out = String::new();
    let mut prev_tag = false;
    for (i, s) in symbols.iter().enumerate() {
        let (piece, is_tag) = match s {
            Symbol::Literal(t) => (regex::escape(t), s.is_tag()),
            Symbol::Mutable(name) => {
                let idx = mutable.index_of(name).ok_or_else(|| {
                    Error::Invalid(format!("rule uses mutable pattern «{name}», which the rules file does not define"))
                })?;
                let re = &mutable.patterns()[idx].regex;
                (format!("(?:{re})"), pattern_is_tag(re))
            }
        };
        if i > 0 {
            out.push_str(tokenizer.joiner(prev_tag, is_tag));
        }
        out.push_str(&piece);
        prev_tag = is_tag;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Symbol {
        Symbol::Literal(s.into())
    }

    #[test]
    fn literals_are_escaped_and_joined_by_the_inverse_tokenizer() {
        let m = MutableSet::defaults();
        let re = synthesize(
            &[lit("Permanent"), lit("link"), lit("|"), Symbol::Mutable("weekday".into())],
            Tokenizer::Text,
            &m,
        )
        .unwrap();
        assert!(re.starts_with(r"Permanent\s+link\s+\|\s+(?:(?:Monday|"), "{re}");
        let r = regex::Regex::new(&re).unwrap();
        assert!(r.is_match("Permanent  link |\nTuesday,"));
        // The regex alone stops inside a longer token; the cleaner's boundary check rejects such a match.
        let hay = "Permanent link | Tuesdays-best";
        assert!(r.find(hay).unwrap().end() < hay.len());
    }

    #[test]
    fn html_joins_tags_without_required_space() {
        let re =
            synthesize(&[lit("<p>"), lit("read"), lit("more"), lit("</p>")], Tokenizer::Html, &MutableSet::empty())
                .unwrap();
        assert_eq!(re, r"<p>\s*read\s+more\s*</p>");
    }

    #[test]
    fn unknown_pattern_is_an_error() {
        let err = synthesize(&[Symbol::Mutable("nope".into())], Tokenizer::Text, &MutableSet::empty()).unwrap_err();
        assert!(err.to_string().contains("«nope»"));
    }
}
