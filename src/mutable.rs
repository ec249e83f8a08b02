//! Mutable patterns (thesis §3.3): named regexes for what varies between otherwise identical template
//! instances — dates, numbers, weekdays, URLs. A token matched *whole* by a pattern is replaced by that
//! pattern's token before mining (first pattern in the list wins), so the suffix array sees
//! "Tuesday," and "Thursday," as one symbol.

use regex::{Regex, RegexSet};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The thesis's list (chapter 5) in Rust regex syntax; the same file editors find in `rules/`.
pub const DEFAULT_PATTERNS_TOML: &str = include_str!("../rules/mutable-patterns.toml");

/// At most this many patterns: a token's matches are kept as a bit mask.
pub const MAX_PATTERNS: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MutablePattern {
    pub name: String,
    pub regex: String,
}

impl MutablePattern {
    pub fn new(name: impl Into<String>, regex: impl Into<String>) -> Self {
        MutablePattern { name: name.into(), regex: regex.into() }
    }

    /// Checks the regex alone, for inline errors while an editor types.
    pub fn validate(&self) -> Result<()> {
        compile_whole(self).map(|_| ())
    }
}

/// The default patterns (from [`DEFAULT_PATTERNS_TOML`]).
pub fn default_patterns() -> Vec<MutablePattern> {
    #[derive(Deserialize)]
    struct File {
        pattern: Vec<MutablePattern>,
    }
    let file: File = toml::from_str(DEFAULT_PATTERNS_TOML).expect("bundled mutable-patterns.toml parses");
    file.pattern
}

fn check_name(p: &MutablePattern) -> Result<()> {
    if p.name.is_empty() || !p.name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        return Err(Error::InvalidPatternName { name: p.name.clone() });
    }
    Ok(())
}

/// The longest regex chaff parses, a mutable pattern's or a rule's, in bytes: parsing costs over a
/// hundred bytes of memory per byte of pattern (a 10 MB regex took 1.26 GB), and a real one is far
/// shorter.
pub const MAX_REGEX_BYTES: usize = 256 << 10;

/// A pattern is matched wrapped, `^(?:…)$`: it must stand alone as one regex, or text such as `a)|(.`
/// would close the wrapper's group and match where it should not.
fn check_alone(p: &MutablePattern) -> Result<()> {
    let invalid = |message: String| Error::InvalidPattern { name: p.name.clone(), message };
    if p.regex.len() > MAX_REGEX_BYTES {
        return Err(invalid(format!(
            "it is {} bytes long, past the {} KiB a regex may be: shorten it",
            p.regex.len(),
            MAX_REGEX_BYTES >> 10
        )));
    }
    let Err(e) = regex_syntax::Parser::new().parse(&p.regex) else { return Ok(()) };
    let why = one_line(&e.to_string());
    // wrapped, it parses: its parentheses close the wrapper's group, the injection this check is for
    if regex_syntax::Parser::new().parse(&format!("^(?:{})$", p.regex)).is_ok() {
        return Err(invalid(format!(
            "{why} (a pattern must be a regex on its own, its parentheses balanced: escape a literal one as `\\(` or `\\)`)"
        )));
    }
    Err(invalid(why))
}

fn compile_whole(p: &MutablePattern) -> Result<Regex> {
    check_name(p)?;
    check_alone(p)?;
    Regex::new(&format!("^(?:{})$", p.regex))
        .map_err(|e| Error::InvalidPattern { name: p.name.clone(), message: one_line(&e.to_string()) })
}

/// regex's errors span several lines with a caret diagram; keep the last, which says what is wrong.
fn one_line(message: &str) -> String {
    message
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(message)
        .trim()
        .trim_start_matches("error: ")
        .to_string()
}

/// A compiled, ordered list of mutable patterns.
#[derive(Debug, Clone)]
pub struct MutableSet {
    patterns: Vec<MutablePattern>,
    set: RegexSet,
}

impl MutableSet {
    pub fn new(patterns: Vec<MutablePattern>) -> Result<Self> {
        if patterns.len() > MAX_PATTERNS {
            return Err(Error::Invalid(format!("at most {MAX_PATTERNS} mutable patterns are supported; remove some")));
        }
        for (i, p) in patterns.iter().enumerate() {
            if patterns[..i].iter().any(|q| q.name == p.name) {
                return Err(Error::InvalidPattern { name: p.name.clone(), message: "the name is used twice".into() });
            }
            check_alone(p)?;
        }
        match RegexSet::new(patterns.iter().map(|p| format!("^(?:{})$", p.regex))) {
            Ok(set) => {
                // names are checked here; the regexes compiled as a set
                for p in &patterns {
                    check_name(p)?;
                }
                Ok(MutableSet { patterns, set })
            }
            Err(e) => {
                // find the pattern at fault, to name it
                for p in &patterns {
                    compile_whole(p)?;
                }
                Err(Error::Invalid(one_line(&e.to_string())))
            }
        }
    }

    pub fn defaults() -> Self {
        MutableSet::new(default_patterns()).expect("bundled patterns compile")
    }

    pub fn empty() -> Self {
        MutableSet::new(Vec::new()).expect("empty set compiles")
    }

    pub fn patterns(&self) -> &[MutablePattern] {
        &self.patterns
    }

    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.patterns.iter().position(|p| p.name == name)
    }

    /// Every pattern that matches `token` whole, as a bit mask (bit i = pattern i).
    #[inline]
    pub fn matches(&self, token: &str) -> u64 {
        if self.patterns.is_empty() {
            return 0;
        }
        self.set.matches(token).iter().fold(0u64, |m, i| m | (1 << i))
    }

    /// The pattern a token is normalized to when mining: the first that matches it whole.
    #[inline]
    pub fn classify(&self, token: &str) -> Option<usize> {
        let m = self.matches(token);
        (m != 0).then(|| m.trailing_zeros() as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thesis_tokens_normalize_as_in_chapter_5() {
        let set = MutableSet::defaults();
        let name = |t: &str| set.classify(t).map(|i| set.patterns()[i].name.as_str());
        assert_eq!(name("Tuesday,"), Some("weekday"));
        assert_eq!(name("Thursday"), Some("weekday"));
        assert_eq!(name("27th"), Some("ordinal"));
        assert_eq!(name("22nd"), Some("ordinal"));
        assert_eq!(name("February,"), Some("month"));
        assert_eq!(name("2007"), Some("number"));
        assert_eq!(name("http://example.com/a?b"), Some("url"));
        assert_eq!(name("news@example.com"), Some("email"));
        assert_eq!(name("U.S."), Some("initials"));
        assert_eq!(name("NASA"), Some("upcase"));
        assert_eq!(name("By"), Some("by"));
        // Whole-token only: a word that merely contains a weekday stays itself.
        assert_eq!(name("Sundays-best"), None);
        assert_eq!(name("read"), None);
        assert_eq!(name("|"), None);
        assert_eq!(name(","), None);
    }

    #[test]
    fn invalid_pattern_names_itself() {
        let err = MutableSet::new(vec![MutablePattern::new("broken", "(unclosed")]).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("broken") && msg.contains("unclosed"), "{msg}");
        assert!(!msg.contains('\n'), "{msg}");
    }

    #[test]
    fn duplicate_names_are_refused() {
        let p = MutablePattern::new("n", r"\d+");
        assert!(MutableSet::new(vec![p.clone(), p]).is_err());
    }
}
