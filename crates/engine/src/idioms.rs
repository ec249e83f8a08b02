//! Idioms of a source mined alone. A string on many of a source's pages is its template, or the language
//! its articles are written in ("of the", "in «month»", "since «number»"). Without other sources to tell
//! them apart (the cross-source filter of `mine --all`), the string's own neighbours do: a template string
//! sits in the same place of the page each time, so on at least one side its neighbour is the same (the
//! page's start, a fixed label, a date); an idiom is written into sentences, between whatever words they
//! hold, so its neighbours on both sides are different nearly every time.
//!
//! A template string also sits in one place of its pages (a header, a footer); an idiom anywhere in
//! their articles. A pending candidate whose matches are spread over its pages, inside lines of prose, is
//! an idiom, and starts rejected, when it is common words and patterns (a background any prose holds), or
//! a few tokens that stand inside sentences nearly every time, or its neighbours differ on both sides
//! nearly every time.
//!
//! A few common words are also a piece of the template's longer strings: "will be" of a notice "you will
//! be able to view the content…", "the «upcase»" of a footer's "About the HBC". On the pages those
//! strings are found it adds nothing to them; everywhere else it stands inside the articles' sentences.
//! Such a candidate, short or common, most of whose matches lie inside longer candidates' and the rest
//! inside lines of prose, is an idiom too: what it adds to the template is its articles' words.

use std::hash::{BuildHasher, Hasher};

use rayon::prelude::*;

use crate::cleaning::{Cleaner, LONG_LINE_WORDS, Layout};
use crate::corpus::Corpus;
use crate::error::Result;
use crate::mutable::MutableSet;
use crate::rules::{Action, Rule, RulesFile, Status};

/// How a candidate is judged.
#[derive(Debug, Clone, Copy)]
pub struct IdiomParams {
    /// Fewest matches to judge a candidate on.
    pub min_matches: usize,
    /// An idiom's matches are spread over its pages: the standard deviation of their positions (0 at a
    /// page's start, 1 at its end) is at least this. A template string sits in one place: headers and
    /// footers spread far less than idioms (measured on the sample sources, docs/results.md).
    pub min_spread: f64,
    /// Strings of at most this many tokens whose words are all common ([`is_common_phrase`]) are idioms
    /// when spread: "by «number» per cent in «month», the" as much as "of the". A template string this
    /// long holds words of its own (a label, a name).
    pub max_common_tokens: usize,
    /// Strings of at most this many tokens, whatever their words ("cost «number»"), are idioms when
    /// spread and inside lines of prose on at least `min_prose_short` of their matches: a template frames
    /// its lines or stands on a line of its own, and a few words written inside sentences on page after
    /// page are the articles' language.
    pub max_short_tokens: usize,
    pub min_prose_short: f64,
    /// An idiom stands inside lines of prose: on at least this share of its matches (a comment's
    /// "«number» at «number»" line down a thread is spread too, but is a line of its own).
    pub min_prose: f64,
    /// Other strings are idioms when spread and their neighbours differ on both sides on at least this
    /// share of their matches. Off by default (above 1): a site's "Read more" between headlines has
    /// different neighbours on both sides too, and the shared datasets were not measured with it.
    pub min_diversity: f64,
    /// Fewest matches on which a string the cross-source filter flagged is given back as a template
    /// when it stands on lines of its own ([`restore_shared_templates`]): fewer than an idiom is judged
    /// on. A blogging platform's footer is on every page of a source of five pages, a line of its own
    /// each time; with eight needed, such a source kept it (docs/results.md).
    pub min_shared_matches: usize,
    /// A short or common string that is the template only as part of longer candidates is an idiom when
    /// at least this many of its matches lie outside them ([`Neighbours::free`]), inside lines of prose on
    /// at least `min_prose_short` of those, and at least `min_covered` of its matches lie inside them.
    pub min_free: usize,
    pub min_covered: f64,
}

impl Default for IdiomParams {
    fn default() -> Self {
        IdiomParams {
            min_matches: 8,
            min_spread: 0.15,
            min_prose: 0.5,
            max_common_tokens: 8,
            max_short_tokens: 3,
            min_prose_short: 0.9,
            min_diversity: 1.01,
            min_shared_matches: 3,
            min_free: 3,
            min_covered: 0.5,
        }
    }
}

/// Words so common that any article holds them, in any order: a string of these and mutable patterns
/// alone ("of the", "The «upcase»", "«number» in the") says nothing about where a page's template is.
pub const COMMON_WORDS: &[&str] = &[
    "a", "about", "after", "all", "an", "and", "are", "as", "at", "be", "been", "but", "by", "for", "from", "had",
    "has", "have", "he", "her", "his", "i", "if", "in", "is", "it", "its", "more", "my", "no", "not", "of", "on",
    "one", "or", "our", "out", "she", "so", "than", "that", "the", "their", "them", "there", "they", "this", "to",
    "up", "was", "we", "were", "what", "when", "which", "who", "will", "with", "you", "your",
];

/// The commonest function words of the languages whose dates mining reads (German, French, Spanish,
/// Italian, Portuguese, Dutch, Russian, Polish, Swedish, Danish, Norwegian, Czech, Turkish, Indonesian,
/// Greek, Hungarian, Finnish, Romanian, Ukrainian, Arabic):
/// articles, prepositions, conjunctions, pronouns. "Die «upcase»" opens a German article as "The
/// «upcase»" an English one. Words that are English content words too ("son", "war", "plus") are left out.
#[rustfmt::skip]
const COMMON_WORDS_ABROAD: &[&str] = &[
    // German
    "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "und", "oder", "im", "auf",
    "mit", "von", "zu", "zum", "zur", "für", "bei", "nach", "aus", "über", "ist", "sind", "wird", "wurde", "es", "er",
    "sie", "wir", "ich", "nicht", "auch", "als", "wie", "dass", "sich", // French
    "le", "la", "les", "un", "une", "des", "du", "de", "et", "ou", "en", "dans", "sur", "avec", "pour", "par", "au",
    "aux", "est", "sont", "il", "elle", "ils", "nous", "que", "qui", "ne", "se", "ce", "cette", "sa", "ses", "leur",
    // Spanish
    "el", "los", "las", "una", "unos", "del", "y", "con", "por", "para", "al", "su", "sus", "lo", "como", "más", "pero",
    // Italian
    "il", "gli", "di", "della", "delle", "dei", "nel", "nella", "per", "da", "che", "non", "è", "sono",
    // Portuguese
    "o", "os", "um", "uma", "do", "dos", "das", "em", "na", "nos", "nas", "ao", "com", "é", "não", "mais",
    // Dutch
    "het", "een", "op", "met", "voor", "zijn", "dat", "niet", "ook", "aan", "bij", "naar", "werd", "wordt", "van",
    // Russian
    "и", "в", "во", "не", "на", "с", "со", "что", "как", "по", "к", "из", "за", "от", "об", "для", "это", "он", "она",
    "они", "а", "но", "же", "бы", "у", // Polish
    "w", "we", "z", "ze", "się", "nie", "że", "jak", "od", "dla", "jest", "są", "ale",
    // Swedish, Danish and Norwegian
    "och", "og", "att", "det", "som", "på", "är", "av", "af", "för", "med", "ett", "inte", "ikke", "jag", "jeg", "vi",
    "til", "om", "har", // Czech
    "je", "jsou", "jako", "ve", "že", "po", // Turkish
    "bir", "bu", "ile", "için", "olarak", "çok", "daha", "gibi", "ama", // Indonesian
    "yang", "dan", "ini", "itu", "dengan", "untuk", "dari", "dalam", "tidak", "akan", "pada", "juga", "ke", "oleh",
    // Greek
    "και", "το", "η", "ο", "οι", "τα", "του", "της", "των", "τον", "την", "τη", "σε", "στο", "στη", "στην", "στον",
    "με", "για", "από", "που", "να", "θα", "δεν", "είναι", "ένα", "μια", "ότι", // Hungarian
    "az", "és", "hogy", "nem", "egy", "de", "volt", "már", "csak", "még", "ez", "azt", "vagy", "után", "szerint",
    // Finnish
    "ja", "ei", "että", "oli", "se", "hän", "joka", "mutta", "kun", "myös", "ovat", "tai", "sekä", "kuin", "jo",
    // Romanian
    "și", "şi", "în", "la", "cu", "pe", "nu", "să", "este", "sunt", "pentru", "mai", "ca", "dar", "lui",
    // Ukrainian
    "і", "й", "та", "у", "з", "із", "до", "що", "як", "від", "це", "він", "вона", "вони", "але", "про", // Arabic
    "في", "من", "على", "إلى", "الى", "عن", "مع", "أن", "ان", "التي", "الذي", "هذا", "هذه", "و", "أو", "لا", "ما", "قد",
];

/// Whether `word` (in small letters) is one any article holds: [`COMMON_WORDS`] or its counterparts in
/// the other languages whose dates mining reads.
pub fn is_common_word(word: &str) -> bool {
    COMMON_WORDS.contains(&word) || COMMON_WORDS_ABROAD.contains(&word)
}

/// Whether `start..end` stands inside a line of prose: it neither starts nor ends its line, and the
/// line is long and reads as a sentence. Template strings a page is framed by do not.
pub fn inside_prose(layout: &Layout, start: usize, end: usize) -> bool {
    let line = layout.line_of(start);
    let (ls, le) = layout.line_range(line);
    !layout.touches_line_boundary(start, end)
        && layout.line_words(line) >= LONG_LINE_WORDS
        && layout.reads_as_prose(ls, le)
}

/// [`inside_prose`] for a page's many matches: whether a line is long and reads as a sentence is found
/// once a line, and a match's own edges only where its line is.
pub struct ProseLines<'l, 'a> {
    layout: &'l Layout<'a>,
    lines: Vec<Option<bool>>,
}

impl<'l, 'a> ProseLines<'l, 'a> {
    pub fn new(layout: &'l Layout<'a>) -> Self {
        ProseLines { layout, lines: vec![None; layout.lines()] }
    }

    /// [`inside_prose`]`(layout, start, end)`.
    pub fn inside(&mut self, start: usize, end: usize) -> bool {
        let layout = self.layout;
        let line = layout.line_of(start);
        let prose = *self.lines[line].get_or_insert_with(|| {
            let (ls, le) = layout.line_range(line);
            layout.line_words(line) >= LONG_LINE_WORDS && layout.reads_as_prose(ls, le)
        });
        prose && !layout.touches_line_boundary(start, end)
    }
}

/// Words of any article: [`COMMON_WORDS`] and more function words and reporting verbs. A
/// background any prose holds; a site's template holds its own words (names, labels).
const BACKGROUND: &[&str] = &[
    "since", "until", "during", "into", "over", "under", "between", "before", "after", "said", "says", "would",
    "could", "should", "also", "then", "now", "new", "last", "next", "first", "two", "year", "years", "per", "cent",
    "million", "billion", "these", "those", "some", "any", "each", "most", "many", "such", "only", "just", "very",
    "can", "may", "must", "do", "does", "did", "being", "how", "where", "while", "because", "through", "against",
    "within", "without", "across", "among", "around", "near", "off", "down", "is",
];

/// Whether a string is made of common words and mutable patterns only, with at least one word, and short.
pub fn is_common_phrase(tokens: &[String], max_tokens: usize) -> bool {
    if tokens.len() > max_tokens {
        return false;
    }
    let mut words = tokens
        .iter()
        .filter(|t| !t.starts_with('«'))
        .map(|t| t.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .filter(|w| !w.is_empty())
        .peekable();
    let common = |w: &String| is_common_word(w) || BACKGROUND.contains(&w.as_str());
    words.peek().is_some() && words.all(|w| common(&w))
}

/// Whether a candidate with these tokens and neighbours is an idiom of its source's articles: spread over
/// its pages inside sentences, or a piece of longer template strings that elsewhere stands inside
/// sentences ([`is_subsumed_idiom`]).
pub fn is_idiom(tokens: &[String], nb: &Neighbours, params: &IdiomParams) -> bool {
    is_spread_idiom(tokens, nb, params) || is_subsumed_idiom(tokens, nb, params)
}

/// A short or common string ("will be", "the «upcase»") most of whose matches lie inside longer
/// candidates' (the template's sentence "you will be able to view…", its "About the HBC") and the rest
/// inside lines of prose: what it adds to the template is its articles' words.
pub fn is_subsumed_idiom(tokens: &[String], nb: &Neighbours, params: &IdiomParams) -> bool {
    let covered = nb.matches - nb.free;
    nb.free >= params.min_free
        && nb.free_prose as f64 >= params.min_prose_short * nb.free as f64
        && covered as f64 >= params.min_covered * nb.matches as f64
        && (is_common_phrase(tokens, params.max_common_tokens) || tokens.len() <= params.max_short_tokens)
}

fn is_spread_idiom(tokens: &[String], nb: &Neighbours, params: &IdiomParams) -> bool {
    nb.matches >= params.min_matches
        && nb.spread() >= params.min_spread
        && nb.in_prose as f64 >= params.min_prose * nb.matches as f64
        && (is_common_phrase(tokens, params.max_common_tokens)
            || (tokens.len() <= params.max_short_tokens
                && nb.in_prose as f64 >= params.min_prose_short * nb.matches as f64)
            || nb.diversity() >= params.min_diversity)
}

/// A candidate's neighbours: how many matches, and how many distinct tokens on each side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Neighbours {
    pub matches: usize,
    pub left: usize,
    pub right: usize,
    /// Matches with the most frequent neighbour, on each side.
    pub top_left: usize,
    pub top_right: usize,
    /// Sum and sum of squares of the matches' positions in their documents (0: start, 1: end), in
    /// millionths, for their spread.
    pub pos_sum: u64,
    pub pos_sq: u64,
    /// Matches standing inside a line of prose ([`inside_prose`]).
    pub in_prose: usize,
    /// Matches inside no longer match of another candidate in force, and of those, inside a line of prose.
    pub free: usize,
    pub free_prose: usize,
}

impl Neighbours {
    /// The lower of the two sides' shares of distinct neighbours.
    pub fn diversity(&self) -> f64 {
        if self.matches == 0 {
            return 0.0;
        }
        self.left.min(self.right) as f64 / self.matches as f64
    }

    /// The larger of the two sides' shares of matches with their most frequent neighbour.
    pub fn dominant(&self) -> f64 {
        if self.matches == 0 {
            return 1.0;
        }
        self.top_left.max(self.top_right) as f64 / self.matches as f64
    }

    /// Standard deviation of the matches' positions in their documents (0 at the start, 1 at the end).
    pub fn spread(&self) -> f64 {
        if self.matches == 0 {
            return 0.0;
        }
        let n = self.matches as f64;
        let mean = self.pos_sum as f64 / 1e6 / n;
        (self.pos_sq as f64 / 1e12 / n - mean * mean).max(0.0).sqrt()
    }
}

/// Whether `rule` is judged: pending, made of mined tokens, a plain removal, in no cluster.
fn judged(rule: &Rule) -> bool {
    rule.status == Status::Pending
        && rule.action == Action::Remove
        && !rule.tokens.is_empty()
        && rule.cluster.is_none()
        && !rule.editor
}

/// The neighbours of each of `rules` (indices into `file.rules`) over `corpus`'s documents (as mined:
/// an HTML page's view), and which of its matches lie inside a longer match of another candidate in
/// force. One pass of the rules' matcher and of the tokenizer per document, and a sort of its matches.
pub fn neighbours(corpus: &Corpus, file: &RulesFile, rules: &[usize]) -> Result<Vec<Neighbours>> {
    let mutable = MutableSet::new(file.mutable.clone())?;
    // the other candidates in force, after the judged ones: their matches cover, they are not counted
    let chosen = file.cutoff.chosen;
    let judged: std::collections::HashSet<usize> = rules.iter().copied().collect();
    let others = (0..file.rules.len()).filter(|i| {
        let r = &file.rules[*i];
        !judged.contains(i) && r.status != Status::Rejected && r.bin >= chosen && !r.tokens.is_empty()
    });
    let all: Vec<&Rule> = rules.iter().copied().chain(others).map(|i| &file.rules[i]).collect();
    let cleaner = Cleaner::with_patterns(file.tokenizer, &mutable, all, 0)?;
    let tokenizer = file.tokenizer;
    // A neighbour is its hash (a token lowercased, or its pattern, or the document's edge): only how many
    // differ and the most frequent's count are read. Each match's pair is pushed to its rule's lists, and
    // the lists are counted once every page is read: no map is updated per match.
    let empty = || -> Vec<Sides> { (0..rules.len()).map(|_| Sides::default()).collect() };
    let hasher = foldhash::fast::FixedState::with_seed(0x6e65_6967_6862);
    let key = |text: &str, span: Option<&(usize, usize)>, edge: u8| -> u64 {
        let mut h = hasher.build_hasher();
        match span {
            None => h.write_u8(edge),
            Some(&(a, b)) => {
                let token = &text[a..b];
                match mutable.classify(token) {
                    Some(p) => {
                        h.write_u8(2);
                        h.write_usize(p);
                    }
                    None if token.is_ascii() => {
                        h.write_u8(3);
                        token.bytes().for_each(|c| h.write_u8(c.to_ascii_lowercase()));
                    }
                    // as `str::to_lowercase` writes it (a final sigma is not a sigma)
                    None => {
                        h.write_u8(3);
                        token.to_lowercase().bytes().for_each(|c| h.write_u8(c));
                    }
                }
            }
        }
        h.finish()
    };
    let edges = [key("", None, 0), key("", None, 1)];
    let sides = corpus
        .docs
        .par_iter()
        .fold(empty, |mut acc, doc| {
            let text = doc.text.as_str();
            let mut matches = cleaner.raw_matches(text);
            if matches.is_empty() {
                return acc;
            }
            matches.sort_unstable_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
            // the furthest end of the matches read so far, and the first start that reached it: a match
            // ending before it, or at it from a later start, lies inside a longer one
            let (mut reach, mut reach_from) = (0usize, 0usize);
            let spans = tokenizer.spans(text);
            let layout = Layout::new(text);
            let mut prose = ProseLines::new(&layout);
            // overlapping matches share neighbours: each token's key is found once a page
            let mut keys: Vec<Option<u64>> = vec![None; spans.len()];
            let mut key_at = |k: usize| *keys[k].get_or_insert_with(|| key(text, Some(&spans[k]), 0));
            for m in matches {
                let covered = reach > m.end || (reach == m.end && reach_from < m.start);
                if m.end > reach {
                    (reach, reach_from) = (m.end, m.start);
                }
                if m.rule as usize >= rules.len() {
                    continue;
                }
                let first = spans.partition_point(|s| s.0 < m.start);
                let last = spans.partition_point(|s| s.1 <= m.end);
                let left = if first == 0 { edges[0] } else { key_at(first - 1) };
                let right = if last < spans.len() { key_at(last) } else { edges[1] };
                let side = &mut acc[m.rule as usize];
                let in_prose = prose.inside(m.start, m.end);
                side.prose += usize::from(in_prose);
                if !covered {
                    side.free += 1;
                    side.free_prose += usize::from(in_prose);
                }
                side.left.push(left);
                side.right.push(right);
                let pos = (m.start as u64 * 1_000_000) / text.len().max(1) as u64;
                side.pos_sum += pos;
                side.pos_sq += pos * pos;
            }
            acc
        })
        .reduce(empty, |mut a, b| {
            for (a, b) in a.iter_mut().zip(b) {
                a.add(b);
            }
            a
        });
    Ok(sides.into_par_iter().map(Sides::count).collect())
}

/// A rule's matches as [`neighbours`] gathers them: each match's neighbour keys, and its position sums.
#[derive(Default)]
struct Sides {
    left: Vec<u64>,
    right: Vec<u64>,
    pos_sum: u64,
    pos_sq: u64,
    prose: usize,
    free: usize,
    free_prose: usize,
}

impl Sides {
    fn add(&mut self, other: Sides) {
        self.left.extend(other.left);
        self.right.extend(other.right);
        self.pos_sum += other.pos_sum;
        self.pos_sq += other.pos_sq;
        self.prose += other.prose;
        self.free += other.free;
        self.free_prose += other.free_prose;
    }

    fn count(mut self) -> Neighbours {
        let (left, top_left) = distinct_and_top(&mut self.left);
        let (right, top_right) = distinct_and_top(&mut self.right);
        Neighbours {
            matches: self.left.len(),
            left,
            right,
            top_left,
            top_right,
            pos_sum: self.pos_sum,
            pos_sq: self.pos_sq,
            in_prose: self.prose,
            free: self.free,
            free_prose: self.free_prose,
        }
    }
}

/// How many distinct keys, and how often the most frequent occurs.
fn distinct_and_top(keys: &mut [u64]) -> (usize, usize) {
    keys.sort_unstable();
    let (mut distinct, mut top) = (0, 0);
    for run in keys.chunk_by(|a, b| a == b) {
        distinct += 1;
        top = top.max(run.len());
    }
    (distinct, top)
}

/// Rejects the pending candidates (at or above the chosen cutoff) of a source mined alone whose
/// neighbours differ on both sides nearly every time: idioms of its articles. Marks them `idiom`.
/// Returns how many.
pub fn reject_idioms(corpus: &Corpus, file: &mut RulesFile, params: &IdiomParams) -> Result<usize> {
    let chosen = file.cutoff.chosen;
    let rules: Vec<usize> =
        (0..file.rules.len()).filter(|&i| file.rules[i].bin >= chosen && judged(&file.rules[i])).collect();
    if rules.is_empty() {
        return Ok(0);
    }
    let found = neighbours(corpus, file, &rules)?;
    let mut n = 0;
    for (&i, nb) in rules.iter().zip(&found) {
        if is_idiom(&file.rules[i].tokens, nb, params) {
            let r = &mut file.rules[i];
            r.status = Status::Rejected;
            r.idiom = true;
            n += 1;
        }
    }
    Ok(n)
}

/// Strings the cross-source filter flagged (candidates in several sources mined together) that stand on
/// lines of their own here, not inside sentences: a template several sites share (a blogging platform's
/// "Posted by", "Leave a comment"), not their articles' language. They are given back to the candidates
/// (pending, not idioms). Only new rules: a decision carried over from `previous` stays. Returns how
/// many were given back.
pub fn restore_shared_templates(
    corpus: &Corpus,
    file: &mut RulesFile,
    previous: Option<&RulesFile>,
    params: &IdiomParams,
) -> Result<usize> {
    let decided: std::collections::HashSet<&str> =
        previous.map(|p| p.rules.iter().map(|r| r.id.as_str()).collect()).unwrap_or_default();
    let chosen = file.cutoff.chosen;
    let rules: Vec<usize> = (0..file.rules.len())
        .filter(|&i| {
            let r = &file.rules[i];
            r.idiom
                && r.status == Status::Rejected
                && r.bin >= chosen
                && r.action == Action::Remove
                && !r.tokens.is_empty()
                && r.cluster.is_none()
                && !r.editor
                && !decided.contains(r.id.as_str())
        })
        .collect();
    if rules.is_empty() {
        return Ok(0);
    }
    let found = neighbours(corpus, file, &rules)?;
    let mut n = 0;
    for (&i, nb) in rules.iter().zip(&found) {
        if nb.matches >= params.min_shared_matches && (nb.in_prose as f64) < params.min_prose * nb.matches as f64 {
            let r = &mut file.rules[i];
            r.status = Status::Pending;
            r.idiom = false;
            n += 1;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests;
