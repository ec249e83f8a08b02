//! Mutable patterns (thesis §3.3): named regexes for what varies between otherwise identical template
//! instances — dates, numbers, weekdays, URLs. A token matched *whole* by a pattern is replaced by that
//! pattern's token before mining (first pattern in the list wins), so the suffix array sees
//! "Tuesday," and "Thursday," as one symbol.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use regex::{Regex, RegexSet};
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::{Anchored, Input, MatchKind, PatternSet};
use regex_syntax::hir::{Hir, Look};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

mod automaton;
pub mod date_names;
#[cfg(test)]
mod tests;

use automaton::Automaton;

/// The thesis's list (chapter 5) in Rust regex syntax; the same file editors find in `rules/`.
pub const DEFAULT_PATTERNS_TOML: &str = include_str!("../../../rules/mutable-patterns.toml");

/// At most this many patterns: a token's matches are kept as a bit mask.
pub const MAX_PATTERNS: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    bundled().to_vec()
}

/// The default patterns, parsed once a process: every default `Settings` (the command line's help
/// builds a dozen) asks.
fn bundled() -> &'static [MutablePattern] {
    #[derive(Deserialize)]
    struct File {
        pattern: Vec<MutablePattern>,
    }
    static PARSED: OnceLock<Vec<MutablePattern>> = OnceLock::new();
    PARSED.get_or_init(|| {
        let file: File = toml::from_str(DEFAULT_PATTERNS_TOML).expect("bundled mutable-patterns.toml parses");
        file.pattern
    })
}

/// The default patterns as a set, once a process. Its automaton is the one the build determinized, loaded
/// the first time a token is asked of it; where there is none (a big-endian target) it is built then,
/// not with the set: checking a rules file and building its cleaner read the patterns' names and regexes
/// only, so [`compile_defaults_early`] can build it on another thread meanwhile, and a caller that needs
/// it before it is done waits for that build rather than starting another.
static DEFAULTS: OnceLock<MutableSet> = OnceLock::new();

#[cfg(test)]
static DEFAULT_COMPILES: AtomicU64 = AtomicU64::new(0);

fn default_set() -> MutableSet {
    DEFAULTS
        .get_or_init(|| MutableSet {
            inner: Arc::new(Compiled {
                patterns: bundled().to_vec(),
                dfa: OnceLock::new(),
                fallback: OnceLock::new(),
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            }),
        })
        .clone()
}

/// Starts building the default patterns' automaton on another thread, once a process, and returns at
/// once. For a command about to read a rules file: most files carry the defaults, and building it is as
/// long as reading the file, so on a second core the two overlap instead of following each other. A file
/// with patterns of its own compiles those as before, and the early build is wasted work on the other
/// core.
pub fn compile_defaults_early() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let set = default_set();
        // the build's automaton loads at once: no thread is worth starting for it
        if set.inner.dfa.get().is_none() && !automaton::BUNDLED_BUILT {
            // a thread that cannot start leaves the build to the first token asked, as without this
            let _ = std::thread::Builder::new().name("mutable-defaults".into()).spawn(move || {
                set.inner.dfa();
            });
        }
    });
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
/// would close the wrapper's group and match where it should not. Its parse, on success, is what the
/// set is compiled from (wrapped by [`anchored`]), so each pattern is parsed once.
fn check_alone(p: &MutablePattern) -> Result<Hir> {
    let invalid = |message: String| Error::InvalidPattern { name: p.name.clone(), message };
    if p.regex.len() > MAX_REGEX_BYTES {
        return Err(invalid(format!(
            "it is {} bytes long, past the {} KiB a regex may be: shorten it",
            p.regex.len(),
            MAX_REGEX_BYTES >> 10
        )));
    }
    let e = match regex_syntax::Parser::new().parse(&p.regex) {
        Ok(hir) => return Ok(hir),
        Err(e) => e,
    };
    let why = one_line(&e.to_string());
    // wrapped, it parses: its parentheses close the wrapper's group, the injection this check is for
    if regex_syntax::Parser::new().parse(&format!("^(?:{})$", p.regex)).is_ok() {
        return Err(invalid(format!(
            "{why} (a pattern must be a regex on its own, its parentheses balanced: escape a literal one as `\\(` or `\\)`)"
        )));
    }
    Err(invalid(why))
}

/// A pattern's parse as `^(?:…)$` parses: the same language, without parsing it again.
fn anchored(hir: Hir) -> Hir {
    Hir::concat(vec![Hir::look(Look::Start), hir, Hir::look(Look::End)])
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

/// A compiled, ordered list of mutable patterns. Cloning shares the compiled set (and its matching
/// caches).
#[derive(Debug, Clone)]
pub struct MutableSet {
    inner: Arc<Compiled>,
}

#[derive(Debug)]
struct Compiled {
    patterns: Vec<MutablePattern>,
    /// The patterns, each `^(?:…)$`, as one forward DFA matching every pattern at once: a lazy one built
    /// with the set, or for the default list the build's, loaded when first asked (see [`DEFAULTS`]).
    dfa: OnceLock<Automaton>,
    /// What a pattern the lazy DFA gives up on is asked of (a Unicode word boundary on a non-ASCII
    /// token): the same patterns as the regex crate's set, built the first time it is needed.
    fallback: OnceLock<RegexSet>,
    /// Names this compiled set in a thread's [`MEMO`] (an address could be reused by a later set).
    id: u64,
}

/// The regex crate's own limits for a set: its automaton, and a lazy DFA's cache.
const SET_NFA_BYTES: usize = 10 << 20;
const SET_CACHE_BYTES: usize = 2 << 20;

fn wrapped(patterns: &[MutablePattern]) -> Vec<String> {
    patterns.iter().map(|p| format!("^(?:{})$", p.regex)).collect()
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// What a thread's last-used set said of each token it was asked about. A token's cache in the matcher
/// lives as long as one source's cleaner; this one lives across every source that shares the set, so a
/// crawl's thousands of cleaners do not each run the regex set again on the same words.
#[derive(Default)]
struct Memo {
    set: u64,
    masks: foldhash::HashMap<Box<str>, u64>,
    /// The set's lazy DFA's cache on this thread (none for the build's DFA).
    cache: Option<Cache>,
    /// The patterns one ask found, reused: a token's ask allocates nothing.
    found: Option<PatternSet>,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

/// Tokens a thread remembers before it forgets them all.
const MEMO_TOKENS: usize = 1 << 16;
/// Longer tokens (URLs, mostly) are seldom seen twice: asked of the set each time.
const MEMO_TOKEN_BYTES: usize = 48;

/// Compiled sets by their list of patterns: the rules files of a crawl's sources nearly all carry the
/// same list, and compiling it is most of what building a source's cleaner costs. Bounded: past
/// [`SHARED_SETS`] distinct lists it starts again, empty.
static SHARED: Mutex<Option<Shared>> = Mutex::new(None);

type Shared = HashMap<Vec<MutablePattern>, MutableSet>;

/// The most distinct pattern lists kept compiled at once.
pub const SHARED_SETS: usize = 64;

impl MutableSet {
    /// The compiled set of `patterns`, in their order: the one already compiled for an equal list when
    /// there is one (names and regexes alike), else compiled now and kept for the next. The default list
    /// is one set a process, its automaton built when a token is first asked.
    pub fn new(patterns: Vec<MutablePattern>) -> Result<Self> {
        if patterns == bundled() {
            return Ok(default_set());
        }
        let shared = |f: &mut dyn FnMut(&mut Shared)| {
            let mut guard = SHARED.lock().unwrap_or_else(|e| e.into_inner());
            f(guard.get_or_insert_with(HashMap::new))
        };
        let mut found = None;
        shared(&mut |map| found = map.get(&patterns).cloned());
        if let Some(set) = found {
            return Ok(set);
        }
        // compiled outside the lock: two threads may compile one list at once, and the first kept is
        // the one both use
        let mut set = MutableSet::compile(patterns)?;
        shared(&mut |map| {
            if map.len() >= SHARED_SETS {
                map.clear();
            }
            set = map.entry(set.inner.patterns.clone()).or_insert_with(|| set.clone()).clone();
        });
        Ok(set)
    }

    fn compile(patterns: Vec<MutablePattern>) -> Result<Self> {
        let dfa = build(&patterns)?;
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        Ok(MutableSet {
            inner: Arc::new(Compiled {
                patterns,
                dfa: OnceLock::from(Automaton::Lazy(dfa)),
                fallback: OnceLock::new(),
                id,
            }),
        })
    }
}

/// The automaton of `patterns`, or the error naming the pattern at fault.
fn build(patterns: &[MutablePattern]) -> Result<DFA> {
    if patterns.len() > MAX_PATTERNS {
        return Err(Error::Invalid(format!("at most {MAX_PATTERNS} mutable patterns are supported; remove some")));
    }
    let mut hirs = Vec::with_capacity(patterns.len());
    for (i, p) in patterns.iter().enumerate() {
        if patterns[..i].iter().any(|q| q.name == p.name) {
            return Err(Error::InvalidPattern { name: p.name.clone(), message: "the name is used twice".into() });
        }
        hirs.push(anchored(check_alone(p)?));
    }
    // compiled from the parses the check made; a DFA has no captures
    let thompson = thompson::Config::new().nfa_size_limit(Some(SET_NFA_BYTES)).which_captures(WhichCaptures::None);
    let built =
        thompson::Compiler::new().configure(thompson).build_many_from_hir(&hirs).map_err(|e| e.to_string()).and_then(
            |nfa| {
                DFA::builder()
                    .configure(
                        DFA::config()
                            .match_kind(MatchKind::All)
                            .cache_capacity(SET_CACHE_BYTES)
                            .unicode_word_boundary(true),
                    )
                    .build_from_nfa(nfa)
                    .map_err(|e| e.to_string())
            },
        );
    match built {
        Ok(dfa) => {
            // names are checked here; the regexes compiled as a set
            for p in patterns {
                check_name(p)?;
            }
            Ok(dfa)
        }
        Err(e) => {
            // find the pattern at fault, to name it
            for p in patterns {
                compile_whole(p)?;
            }
            Err(Error::Invalid(one_line(&e)))
        }
    }
}

impl Compiled {
    fn dfa(&self) -> &Automaton {
        // only the default list's is made here (see `DEFAULTS`): every other is built with its set
        self.dfa.get_or_init(|| {
            #[cfg(test)]
            DEFAULT_COMPILES.fetch_add(1, Ordering::Relaxed);
            automaton::bundled()
                .unwrap_or_else(|| Automaton::Lazy(build(&self.patterns).expect("the bundled patterns compile")))
        })
    }
}

impl MutableSet {
    /// Whether `self` and `other` are one compiled set (equal lists share it).
    pub fn shares_compiled(&self, other: &MutableSet) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    pub fn defaults() -> Self {
        default_set()
    }

    pub fn empty() -> Self {
        MutableSet::new(Vec::new()).expect("empty set compiles")
    }

    pub fn patterns(&self) -> &[MutablePattern] {
        &self.inner.patterns
    }

    pub fn len(&self) -> usize {
        self.inner.patterns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.inner.patterns.is_empty()
    }

    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.inner.patterns.iter().position(|p| p.name == name)
    }

    /// Every pattern that matches `token` whole, as a bit mask (bit i = pattern i).
    #[inline]
    pub fn matches(&self, token: &str) -> u64 {
        if self.inner.patterns.is_empty() {
            return 0;
        }
        MEMO.with(|memo| {
            let mut memo = memo.borrow_mut();
            if memo.set != self.inner.id {
                memo.masks.clear();
                memo.set = self.inner.id;
                memo.cache = self.inner.dfa().create_cache();
                memo.found = None;
            }
            if token.len() <= MEMO_TOKEN_BYTES
                && let Some(&mask) = memo.masks.get(token)
            {
                return mask;
            }
            let Memo { masks, cache, found, .. } = &mut *memo;
            let found = found.get_or_insert_with(|| PatternSet::new(self.inner.patterns.len()));
            let mask = self.ask_with(cache, found, token);
            if token.len() <= MEMO_TOKEN_BYTES {
                if masks.len() >= MEMO_TOKENS {
                    masks.clear();
                }
                masks.insert(token.into(), mask);
            }
            mask
        })
    }

    /// Every pattern that matches `token` whole, asked of the DFA (with this thread's `cache` if it is a
    /// lazy one, into `found`), else of the regex crate's set when the DFA gives up.
    fn ask_with(&self, cache: &mut Option<Cache>, found: &mut PatternSet, token: &str) -> u64 {
        found.clear();
        let input = Input::new(token).anchored(Anchored::Yes);
        match self.inner.dfa().which(cache, &input, found) {
            Ok(()) => found.iter().fold(0u64, |m, p| m | (1 << p.as_usize())),
            Err(_) => {
                let set = self.inner.fallback.get_or_init(|| {
                    RegexSet::new(wrapped(&self.inner.patterns)).expect("patterns the lazy DFA was built from compile")
                });
                set.matches(token).iter().fold(0u64, |m, i| m | (1 << i))
            }
        }
    }

    #[cfg(test)]
    fn ask(&self, token: &str) -> u64 {
        self.ask_with(&mut None, &mut PatternSet::new(self.inner.patterns.len()), token)
    }

    /// The pattern a token is normalized to when mining: the first that matches it whole.
    #[inline]
    pub fn classify(&self, token: &str) -> Option<usize> {
        let m = self.matches(token);
        (m != 0).then(|| m.trailing_zeros() as usize)
    }
}
