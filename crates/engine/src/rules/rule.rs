//! A rule of a rules file: its status (the editor's decision), its action, its regex and the statistics of
//! the mined string it was made from; line rules' ids and regexes.

use serde::{Deserialize, Serialize};

use crate::cutoff::CutoffBin;
use crate::error::Result;
use crate::mining::MinedString;
use crate::mutable::MutableSet;
use crate::symbol::{Symbol, SymbolRef};
use crate::synthesis::{synthesize, tokens_synthesize_to};
use crate::tokens::Tokenizer;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Accepted,
    Rejected,
    #[default]
    Pending,
}

impl Status {
    pub fn symbol(self) -> char {
        match self {
            Status::Accepted => '✓',
            Status::Rejected => '✗',
            Status::Pending => '·',
        }
    }
}

/// What a rule does to the text it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Remove the matches (the thesis).
    #[default]
    Remove,
    /// A header string: remove everything from the document's start to the end of the match.
    CutBefore,
    /// A footer string: remove everything from the start of the match to the document's end.
    CutAfter,
    /// Never remove what it matches, by any rule or stage: the editor's word that this is the article.
    Keep,
}

impl Action {
    /// Every action, in the order an editor cycles through them.
    pub const ALL: [Action; 4] = [Action::Remove, Action::CutBefore, Action::CutAfter, Action::Keep];

    pub fn is_remove(&self) -> bool {
        *self == Action::Remove
    }

    /// The action's name in rules files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Action::Remove => "remove",
            Action::CutBefore => "cut-before",
            Action::CutAfter => "cut-after",
            Action::Keep => "keep",
        }
    }

    /// The next action in [`Action::ALL`], round.
    pub fn next(self) -> Action {
        let i = Action::ALL.iter().position(|a| *a == self).unwrap_or(0);
        Action::ALL[(i + 1) % Action::ALL.len()]
    }

    /// A cut: a header or footer string.
    pub fn is_cut(self) -> bool {
        matches!(self, Action::CutBefore | Action::CutAfter)
    }
}

/// Reads one of a few words, and says which ones when given anything else (a number, a misspelling).
struct OneOf<T: 'static> {
    words: &'static [(&'static str, T)],
    expected: &'static str,
}

impl<T: Copy> serde::de::Visitor<'_> for OneOf<T> {
    type Value = T;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.expected)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<T, E> {
        self.words
            .iter()
            .find(|(w, _)| *w == v)
            .map(|(_, t)| *t)
            .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(v), &self))
    }
}

impl<'de> Deserialize<'de> for Status {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_str(OneOf {
            words: &[("accepted", Status::Accepted), ("rejected", Status::Rejected), ("pending", Status::Pending)],
            expected: "a status: \"accepted\", \"rejected\" or \"pending\"",
        })
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_str(OneOf {
            words: &[
                ("remove", Action::Remove),
                ("cut-before", Action::CutBefore),
                ("cut-after", Action::CutAfter),
                ("keep", Action::Keep),
            ],
            expected: "an action: \"remove\", \"cut-before\", \"cut-after\" or \"keep\"",
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    pub id: String,
    #[serde(default)]
    pub status: Status,
    #[serde(default, skip_serializing_if = "Action::is_remove")]
    pub action: Action,
    pub regex: String,
    /// The mined token string, mutable tokens as `«name»`. Empty for a hand-written rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<String>,
    #[serde(default)]
    pub tf: u64,
    #[serde(default)]
    pub df: u64,
    /// Histogram bin of its df (percent of the mined documents).
    #[serde(default)]
    pub bin: CutoffBin,
    #[serde(default)]
    pub coverage: u64,
    /// New coverage: what it covers beyond the strings of larger coverage ([`MinedString::adds`]).
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub adds: u64,
    #[serde(default)]
    pub example: String,
    /// Flagged by the second-level filter (found in many sources).
    #[serde(default, skip_serializing_if = "is_false")]
    pub idiom: bool,
    /// Not found when the source was last mined; kept because an editor decided on it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub stale: bool,
    /// Made by an editor's hand (a span marked as template or kept in the UI), even where a mined string has
    /// the same tokens: her explicit decision, which no cleaning stage overrules.
    #[serde(default, skip_serializing_if = "is_false")]
    pub editor: bool,
    /// Mined in one template cluster of the source: applied only to documents of that cluster (the one
    /// whose cluster rules cover most of a document).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<u32>,
    /// Mining found most of its occurrences as lines of their own: as a cut it cuts only where it is one
    /// (stage `own-line`; a team's name listed in a sidebar, not the same name opening a sentence).
    #[serde(default, skip_serializing_if = "is_false")]
    pub own_line: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}

impl Rule {
    pub fn symbols(&self) -> Vec<Symbol> {
        self.tokens.iter().map(|t| Symbol::decode(t)).collect()
    }

    /// Whether the rule holds fixed text: a string made only of mutable patterns ("«upcase»
    /// «upcase»") is a shape that turns up anywhere, not a place in the template. A hand-written
    /// regex counts as fixed.
    pub fn has_fixed_text(&self) -> bool {
        self.tokens.is_empty() || self.tokens.iter().any(|t| matches!(SymbolRef::decode(t), SymbolRef::Literal(_)))
    }

    /// Whether the rule holds fixed text a reader sees: as [`Rule::has_fixed_text`], where HTML tags
    /// are not text (`«upcase» </a>` is any linked name, not a place in the template).
    pub fn shows_fixed_text(&self) -> bool {
        self.tokens.is_empty()
            || self
                .tokens
                .iter()
                .map(|t| SymbolRef::decode(t))
                .any(|s| matches!(s, SymbolRef::Literal(_)) && !s.is_tag())
    }

    /// Whether a token of the rule is symbols alone ("©", "|", "{"): a template's mark no sentence writes,
    /// so the rule's string is the template's wherever it stands, in a line of prose too.
    pub fn is_marked(&self) -> bool {
        // decoded: a literal "«" (a link's arrow) is a mark, `«number»` a pattern
        self.tokens
            .iter()
            .any(|t| matches!(SymbolRef::decode(t), SymbolRef::Literal(l) if !l.chars().any(char::is_alphanumeric)))
    }

    /// A rule an editor wrote: `symbols`, synthesized as the miner would, accepted with `action`; no
    /// statistics.
    pub fn accepted(
        id: impl Into<String>,
        symbols: &[Symbol],
        action: Action,
        tokenizer: Tokenizer,
        mutable: &MutableSet,
    ) -> Result<Rule> {
        Ok(Rule {
            tokens: symbols.iter().map(Symbol::encode).collect(),
            ..Rule::with_regex(id, synthesize(symbols, tokenizer, mutable)?, action)
        })
    }

    /// A rule of a regex alone (no mined tokens), accepted with `action`; no statistics.
    pub fn with_regex(id: impl Into<String>, regex: impl Into<String>, action: Action) -> Rule {
        Rule {
            id: id.into(),
            status: Status::Accepted,
            action,
            regex: regex.into(),
            tokens: Vec::new(),
            tf: 0,
            df: 0,
            bin: 0,
            coverage: 0,
            adds: 0,
            example: String::new(),
            idiom: false,
            stale: false,
            editor: false,
            cluster: None,
            own_line: false,
        }
    }

    /// The line a line rule matches, if this is one whose regex is still the one it was made with (an
    /// edited regex makes it a regex rule like any other).
    pub fn line(&self) -> Option<&str> {
        let line = self.id.strip_prefix(LINE_PREFIX)?;
        (self.tokens.is_empty() && is_line_regex(&self.regex, line)).then_some(line)
    }

    /// Whether the rule's regex is the one made from its tokens (a line rule's: from its line). A
    /// hand-written rule (no tokens) is not.
    pub fn is_synthesized(&self, tokenizer: Tokenizer, mutable: &MutableSet) -> bool {
        if self.id.starts_with(LINE_PREFIX) && self.tokens.is_empty() {
            return self.line().is_some();
        }
        !self.tokens.is_empty() && tokens_synthesize_to(&self.tokens, tokenizer, mutable, &self.regex)
    }

    /// Whether the rule holds a decision: its status or action differ from what mining gives it (idioms
    /// start rejected). The one test of "decided" for drafts, their journal, merges and the rules files
    /// they save.
    pub fn is_decided(&self) -> bool {
        let default = if self.idiom { Status::Rejected } else { Status::Pending };
        self.status != default || self.action != Action::Remove
    }

    /// The mined string behind a rule (for rules that do not come from this mining: cluster rules).
    pub fn to_mined(&self) -> MinedString {
        MinedString {
            id: self.id.clone(),
            symbols: self.symbols(),
            tf: self.tf,
            df: self.df,
            bin: self.bin,
            coverage: self.coverage,
            adds: self.adds,
            example: self.example.clone(),
            regex: self.regex.clone(),
            idiom: self.idiom,
            cluster: self.cluster,
            own_line: self.own_line,
        }
    }

    pub fn from_mined(s: &MinedString) -> Rule {
        Rule {
            id: s.id.clone(),
            status: if s.idiom { Status::Rejected } else { Status::Pending },
            action: Action::Remove,
            regex: s.regex.clone(),
            tokens: s.symbols.iter().map(Symbol::encode).collect(),
            tf: s.tf,
            df: s.df,
            bin: s.bin,
            coverage: s.coverage,
            adds: s.adds,
            example: s.example.clone(),
            idiom: s.idiom,
            stale: false,
            editor: false,
            cluster: s.cluster,
            own_line: s.own_line,
        }
    }
}

/// The id prefix of line rules: a single-word line found on many documents (see `crate::lines`).
pub const LINE_PREFIX: &str = "line:";

/// A line rule's regex: the line, whole.
pub fn line_regex(line: &str) -> String {
    format!("(?m)^{}$", regex::escape(line))
}

/// Whether `regex` is [`line_regex`] of `line`, compared as it would be written: nothing built (every
/// rule of a file loaded is asked).
fn is_line_regex(regex: &str, line: &str) -> bool {
    let Some(mut rest) = regex.strip_prefix("(?m)^").and_then(|r| r.strip_suffix('$')) else { return false };
    for c in line.chars() {
        if regex_syntax::is_meta_character(c) {
            let Some(r) = rest.strip_prefix('\\') else { return false };
            rest = r;
        }
        let Some(r) = rest.strip_prefix(c) else { return false };
        rest = r;
    }
    rest.is_empty()
}
