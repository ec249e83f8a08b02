//! The symbols a mined string is made of: literal tokens, and mutable-pattern tokens by name.
//!
//! On disk and on screen a mutable token is written `«name»` (e.g. `«weekday»`); any other text is a
//! literal token. A literal that itself looks like `«…»` is written with a leading backslash.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symbol {
    Literal(String),
    Mutable(String),
}

impl Symbol {
    /// The display / storage form: `«name»` for mutable tokens.
    pub fn encode(&self) -> String {
        match self {
            Symbol::Mutable(name) => format!("«{name}»"),
            Symbol::Literal(text) if is_placeholder(text) || text.starts_with('\\') && is_placeholder(&text[1..]) => {
                format!("\\{text}")
            }
            Symbol::Literal(text) => text.clone(),
        }
    }

    pub fn decode(s: &str) -> Symbol {
        match SymbolRef::decode(s) {
            SymbolRef::Literal(text) => Symbol::Literal(text.to_string()),
            SymbolRef::Mutable(name) => Symbol::Mutable(name.to_string()),
        }
    }

    /// The symbol borrowed.
    pub fn borrowed(&self) -> SymbolRef<'_> {
        match self {
            Symbol::Literal(text) => SymbolRef::Literal(text),
            Symbol::Mutable(name) => SymbolRef::Mutable(name),
        }
    }

    pub fn is_tag(&self) -> bool {
        matches!(self, Symbol::Literal(t) if t.starts_with('<'))
    }
}

/// A symbol borrowed from its stored form: what [`Symbol::decode`] reads, nothing copied (loading a rules
/// file reads every rule's tokens so).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolRef<'a> {
    Literal(&'a str),
    Mutable(&'a str),
}

impl<'a> SymbolRef<'a> {
    /// The symbol a stored token `s` is (see [`Symbol::encode`]).
    #[inline]
    pub fn decode(s: &'a str) -> SymbolRef<'a> {
        if let Some(rest) = s.strip_prefix('\\')
            && (is_placeholder(rest) || rest.starts_with('\\') && is_placeholder(&rest[1..]))
        {
            return SymbolRef::Literal(rest);
        }
        if is_placeholder(s) {
            return SymbolRef::Mutable(&s['«'.len_utf8()..s.len() - '»'.len_utf8()]);
        }
        SymbolRef::Literal(s)
    }

    pub fn is_tag(&self) -> bool {
        matches!(self, SymbolRef::Literal(t) if t.starts_with('<'))
    }
}

fn is_placeholder(s: &str) -> bool {
    s.len() > '«'.len_utf8() + '»'.len_utf8() && s.starts_with('«') && s.ends_with('»')
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.encode())
    }
}

/// Readable text of a symbol string: symbols joined by single spaces.
pub fn display(symbols: &[Symbol]) -> String {
    let mut out = String::new();
    for (i, s) in symbols.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&s.encode());
    }
    out
}

/// A stable id for a symbol string (FNV-1a, 64 bits): the same string mined again gets the same id,
/// which is how re-mining keeps an editor's decisions.
pub fn stable_id(symbols: &[Symbol]) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for s in symbols {
        for b in s.encode().bytes().chain([0u8]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    format!("r{:012x}", h >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_decode_round_trips() {
        for s in [
            Symbol::Mutable("weekday".into()),
            Symbol::Literal("read".into()),
            Symbol::Literal("«weekday»".into()),
            Symbol::Literal("\\«x»".into()),
            Symbol::Literal("«".into()),
            Symbol::Literal("\\".into()),
        ] {
            assert_eq!(Symbol::decode(&s.encode()), s, "{s:?}");
        }
    }

    #[test]
    fn ids_are_stable_and_distinct() {
        let a = [Symbol::Literal("read".into()), Symbol::Literal("more".into())];
        let b = [Symbol::Literal("read more".into())];
        assert_eq!(stable_id(&a), stable_id(&a.clone()));
        assert_ne!(stable_id(&a), stable_id(&b));
    }
}
