//! From mined strings to regexes (thesis §3.4): literal tokens are escaped, a mutable token becomes its
//! pattern's regex as a group, and tokens are joined by the inverse of the tokenizer (`\s+` for `\S+`).
//!
//! A rule must match only at token boundaries. Rust's `regex` has no look-around, so the boundary is
//! checked by the cleaner on each match rather than written into the regex.

use crate::error::{Error, Result};
use crate::mutable::MutableSet;
use crate::symbol::{Symbol, SymbolRef};
use crate::tokens::Tokenizer;

/// Whether a mutable pattern stands for tags (html mode): decides the joiner next to it.
fn pattern_is_tag(regex: &str) -> bool {
    regex.starts_with('<')
}

/// The regex of a symbol string.
pub fn synthesize(symbols: &[Symbol], tokenizer: Tokenizer, mutable: &MutableSet) -> Result<String> {
    let mut out = String::new();
    walk(symbols.iter().map(Symbol::borrowed), tokenizer, mutable, |piece| {
        out.push_str(piece);
        true
    })?;
    Ok(out)
}

/// Whether `regex` is the one [`synthesize`] makes of `symbols`: compared piece by piece as the synthesis
/// walks, nothing built, and given up at the first piece that differs. Loading a rules file asks this of
/// every rule (a synthesized rule is matched at token level, any other compiled as a regex), so it costs
/// no allocation. False where `symbols` name a pattern `mutable` lacks.
pub fn synthesizes_to(symbols: &[Symbol], tokenizer: Tokenizer, mutable: &MutableSet, regex: &str) -> bool {
    same_as(symbols.iter().map(Symbol::borrowed), tokenizer, mutable, regex)
}

/// [`synthesizes_to`] of a rule's tokens as stored (each `«name»` a mutable pattern's), read where they
/// lie: a rules file's check asks it of every rule, without decoding each token into a symbol first.
pub fn tokens_synthesize_to(tokens: &[String], tokenizer: Tokenizer, mutable: &MutableSet, regex: &str) -> bool {
    same_as(tokens.iter().map(|t| SymbolRef::decode(t)), tokenizer, mutable, regex)
}

fn same_as<'a>(
    symbols: impl Iterator<Item = SymbolRef<'a>>,
    tokenizer: Tokenizer,
    mutable: &MutableSet,
    regex: &str,
) -> bool {
    let mut rest = regex;
    let same = walk(symbols, tokenizer, mutable, |piece| match rest.strip_prefix(piece) {
        Some(r) => {
            rest = r;
            true
        }
        None => false,
    });
    same.unwrap_or(false) && rest.is_empty()
}

/// The synthesis of `symbols`, handed to `emit` a piece at a time, in order (the two functions above
/// share it, so what is compared is what is written). Stops when `emit` returns false: `Ok(false)`.
fn walk<'a>(
    symbols: impl Iterator<Item = SymbolRef<'a>>,
    tokenizer: Tokenizer,
    mutable: &MutableSet,
    mut emit: impl FnMut(&str) -> bool,
) -> Result<bool> {
    let mut prev_tag = false;
    for (i, s) in symbols.enumerate() {
        let pattern = match s {
            SymbolRef::Literal(_) => None,
            SymbolRef::Mutable(name) => {
                let idx = mutable.index_of(name).ok_or_else(|| {
                    Error::Invalid(format!("rule uses mutable pattern «{name}», which the rules file does not define"))
                })?;
                Some(mutable.patterns()[idx].regex.as_str())
            }
        };
        let is_tag = pattern.map_or_else(|| s.is_tag(), pattern_is_tag);
        if i > 0 && !emit(tokenizer.joiner(prev_tag, is_tag)) {
            return Ok(false);
        }
        let whole = match (s, pattern) {
            (SymbolRef::Literal(t), _) => escaped(t, &mut emit),
            (_, Some(re)) => emit("(?:") && emit(re) && emit(")"),
            (SymbolRef::Mutable(_), None) => unreachable!("a mutable symbol's pattern was found above"),
        };
        if !whole {
            return Ok(false);
        }
        prev_tag = is_tag;
    }
    Ok(true)
}

/// `text` escaped as `regex::escape` escapes it (a backslash before each meta character), handed to
/// `emit` a run at a time: the runs between meta characters whole, so a literal costs a comparison a run.
fn escaped(text: &str, emit: &mut impl FnMut(&str) -> bool) -> bool {
    let mut start = 0;
    // meta characters are ASCII, so a byte that is one is a whole character
    for (i, b) in text.bytes().enumerate() {
        if b.is_ascii() && regex_syntax::is_meta_character(char::from(b)) {
            if !(text[start..i].is_empty() || emit(&text[start..i])) || !emit("\\") {
                return false;
            }
            start = i;
        }
    }
    text[start..].is_empty() || emit(&text[start..])
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

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

    fn symbol() -> impl Strategy<Value = Symbol> {
        prop_oneof![
            "[a-z<>/.|()*+?\\\\é-]{1,4}".prop_map(Symbol::Literal),
            // literals stored escaped, as they look like a pattern's token
            "\\\\?«[a-z]{1,3}»".prop_map(Symbol::Literal),
            prop::sample::select(vec!["weekday", "url", "nope"]).prop_map(|n| Symbol::Mutable(n.into())),
        ]
    }

    proptest! {
        #[test]
        fn literals_are_escaped_as_the_regex_crate_escapes(text in "\\PC{0,12}") {
            let mut out = String::new();
            escaped(&text, &mut |piece: &str| {
                out.push_str(piece);
                true
            });
            prop_assert_eq!(out, regex::escape(&text));
        }

        /// The comparison agrees with building the regex and comparing: on the regex itself, on every
        /// prefix and one byte longer, and on another string's regex.
        #[test]
        fn comparing_as_it_walks_agrees_with_building(
            a in prop::collection::vec(symbol(), 0..6),
            b in prop::collection::vec(symbol(), 0..6),
            html in any::<bool>(),
        ) {
            let m = MutableSet::defaults();
            let tokenizer = if html { Tokenizer::Html } else { Tokenizer::Text };
            let built = synthesize(&a, tokenizer, &m);
            let other = synthesize(&b, tokenizer, &m).unwrap_or_default();
            let mut candidates = vec![other, format!("{}x", built.as_deref().unwrap_or(""))];
            if let Ok(re) = &built {
                candidates.extend((0..=re.len()).filter(|&i| re.is_char_boundary(i)).map(|i| re[..i].to_string()));
            }
            for re in candidates {
                let expected = built.as_deref().is_ok_and(|b| b == re);
                prop_assert_eq!(synthesizes_to(&a, tokenizer, &m, &re), expected, "{:?} against {:?}", a, re);
                // the same read from the tokens as a rules file stores them
                let tokens: Vec<String> = a.iter().map(Symbol::encode).collect();
                prop_assert_eq!(tokens_synthesize_to(&tokens, tokenizer, &m, &re), expected, "{:?} against {:?}", tokens, re);
            }
        }
    }

    #[test]
    fn unknown_pattern_is_an_error() {
        let err = synthesize(&[Symbol::Mutable("nope".into())], Tokenizer::Text, &MutableSet::empty()).unwrap_err();
        assert!(err.to_string().contains("«nope»"));
    }
}
