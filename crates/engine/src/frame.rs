//! Frame cuts, suggested automatically. Frequency alone leaves page-specific text — menus,
//! related headlines, comments — because it is on few pages each. But the template strings around it mark
//! where the article starts and ends: a candidate that lies before the article block on nearly every page
//! where it occurs is a header string, one after it a footer string. Cutting before the last header
//! string and after the first footer string removes what no frequency method sees.
//!
//! Idioms of a comment thread ("I have lived in", "Good to see") also lie after the article on nearly
//! every page they occur on; a footer string is also the *first* frame string (one outside the block on
//! nearly all its pages) after the block on at least `min_adjacent` of its pages (a header string the
//! last before it), which idioms inside a thread never are.
//!
//! A footer's **notice** (a copyright line, a disclaimer: a string of several lines, one of them of
//! [`NOTICE_WORDS`] words or more in which a sentence ends) is a footer string though another footer
//! string stands between it and the block: on a page of another layout (a gallery, a video) that one is
//! missing and the notice is the footer left. It must be on nearly every page judged, after the block,
//! never inside a line of prose (a thread's idioms are), and is only ever a footer: a share bar, a menu
//! or the day's headline list has no sentence, and may stand above some article.
//!
//! The block is chosen by [`Cleaner::article_block`], which passes over list items such as comments:
//! a thread that outweighs its post is not taken for the article.

use foldhash::{HashMap, HashMapExt, HashSet};

use rayon::prelude::*;

use crate::cleaning::{Cleaner, LIST_ITEMS, Layout, Match, splits_runs, work};
use crate::corpus::{Corpus, Document};
use crate::error::Result;
use crate::idioms::{IdiomParams, ProseLines, is_common_word, neighbours};
use crate::lines::is_label;
use crate::rules::{Action, RulesFile, Status};

/// A nearest frame string of at most this many line breaks lends its nearness to the strings inside it.
const NEAR_LINES: usize = 2;

/// A line of a notice has at least this many words: a sentence, not a menu's or a share bar's entry.
pub const NOTICE_WORDS: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CutParams {
    /// Share of a candidate's pages on which it must lie outside the article block.
    pub min_share: f64,
    /// Share of its pages on which it must lie on its side (before the block for a header string), or
    /// of the pages on which it is next to the block, where it is on that side on at least half.
    pub min_side: f64,
    /// Share of a candidate's pages on which it must be the nearest frame string to the block.
    pub min_adjacent: f64,
    /// Share of the pages judged a footer's notice must be on to be a footer string not next to the block.
    pub min_notice: f64,
    /// Fewest pages a candidate must occur on to be judged.
    pub min_pages: usize,
    /// Pages judged at most (an even spread of larger sources): shares need no more, and every page
    /// costs a pass of the cleaner, twice.
    pub max_pages: usize,
}

impl Default for CutParams {
    fn default() -> Self {
        CutParams { min_share: 0.8, min_side: 0.7, min_adjacent: 0.5, min_notice: 0.8, min_pages: 2, max_pages: 2000 }
    }
}

#[derive(Debug, Default, Clone, Copy)]
struct Sides {
    pages: usize,
    before: usize,
    after: usize,
    /// Pages on which it is the last frame string before the block / the first after it.
    last_before: usize,
    first_after: usize,
    /// Pages on which it lies both before and after the block: cutting at it takes the article there.
    both: usize,
    /// Pages on which it stands inside a line of prose ([`crate::idioms::inside_prose`]).
    prose: usize,
}

impl Sides {
    fn add(&mut self, o: Sides) {
        self.pages += o.pages;
        self.before += o.before;
        self.after += o.after;
        self.last_before += o.last_before;
        self.first_after += o.first_after;
        self.both += o.both;
        self.prose += o.prose;
    }
}

/// Sets `action` to cut-before / cut-after on the pending `remove` rules (at or above the chosen cutoff)
/// that lie outside the article block on at least `min_share` of their pages, next to it on at least
/// `min_adjacent` (or, after it, a footer's notice: see the module doc), before / after it on at least
/// `min_side`, and on both sides of it on none. A generic
/// string ([`is_generic`]) is never a cut: on a page not mined it may sit in the article. Rules an editor
/// decided on are left alone. Returns how many rules were changed.
pub fn suggest_cuts(corpus: &Corpus, file: &mut RulesFile, params: &CutParams) -> Result<usize> {
    let judged: Vec<usize> = file
        .rules
        .iter()
        .enumerate()
        .filter(|(_, r)| r.status == Status::Pending && r.action == Action::Remove && r.bin >= file.cutoff.chosen)
        // of the single-word lines only labels ("Topics:"): "Video" or "Photo" turn up inside articles
        .filter(|(_, r)| !r.tokens.is_empty() || is_label(r))
        // a cut takes all before or after it: a string any article may hold is never one
        .filter(|(_, r)| r.tokens.is_empty() || !is_generic(&r.tokens))
        .map(|(i, _)| i)
        .collect();
    if judged.is_empty() {
        return Ok(0);
    }
    // Every candidate that would be applied (accepted, and pending above the cutoff) bounds the block.
    let cleaner = Cleaner::new(file, true)?;
    let by_id: HashMap<&str, u32> = cleaner.rule_ids().enumerate().map(|(i, id)| (id, i as u32)).collect();
    // Which strings lie outside the block nearly everywhere: the frame. Nearness to the block is then
    // judged among them only, so that a stray match inside the article (a widget's label on a few
    // pages) does not stand between the block and its footer string.
    let step = corpus.docs.len().div_ceil(params.max_pages.max(1)).max(1);
    let pages: Vec<&Document> = corpus.docs.iter().step_by(step).collect();
    let seen = see(&pages, &cleaner);
    let lined = crate::lines::is_lined(corpus);
    let all = tally(&seen, &cleaner, None);
    let frame: HashSet<u32> = all
        .iter()
        .filter(|(_, s)| (s.before + s.after) as f64 >= params.min_share * s.pages as f64)
        .filter(|(rule, _)| cleaner.is_fixed(**rule))
        .map(|(&rule, _)| rule)
        .collect();
    let sides = tally(&seen, &cleaner, Some(&frame));
    let mut changed = 0;
    // cuts whose matches stand inside prose lines, judged by where they sit once the others are known
    let mut suspects: Vec<(usize, Action)> = Vec::new();
    for i in judged {
        let Some(s) = by_id.get(file.rules[i].id.as_str()).and_then(|r| sides.get(r)) else { continue };
        if s.pages < params.min_pages {
            continue;
        }
        let share = |n: usize| n as f64 / s.pages as f64;
        let adjacent = share(s.last_before + s.first_after) >= params.min_adjacent;
        let notice = s.prose == 0
            && s.pages as f64 >= params.min_notice * seen.len() as f64
            && is_notice(&file.rules[i].example);
        if share(s.before + s.after) < params.min_share || !(adjacent || notice) {
            continue;
        }
        // a string on both sides of the article on some page is not where the article starts or ends
        if s.both > 0 {
            continue;
        }
        // where pages are laid out in lines, a frame string has a line of its own or starts or ends one:
        // one standing inside a sentence on a fifth of its pages may be the articles' own wording ("There
        // are now «number»"), a cut there taking the rest of an article; judged below by where it sits
        // A token of symbols alone ("©", "|", "·") is a template's mark no sentence writes.
        let marked = file.rules[i].is_marked();
        let in_prose = lined && !marked && s.prose * 5 >= s.pages.max(1);
        // Its side is where it mostly is, or where it mostly is when next to the block: where a comment
        // thread outweighs a short article the block is a comment on some pages, and the footer string
        // that opens the thread lies before it there.
        let next_to = (s.last_before + s.first_after) as f64;
        let on_side = |on: usize, adjacent: usize| {
            share(on) >= params.min_side || (share(on) >= 0.5 && adjacent as f64 >= params.min_side * next_to)
        };
        let action = if on_side(s.before, s.last_before) {
            // a notice is a footer's only
            if !adjacent {
                continue;
            }
            Action::CutBefore
        } else if on_side(s.after, s.first_after) {
            Action::CutAfter
        } else {
            continue;
        };
        if in_prose {
            suspects.push((i, action));
            continue;
        }
        file.rules[i].action = action;
        changed += 1;
    }
    // A footer's legal prose ("© «number» … All rights reserved") sits in one place of every page; the
    // articles' wording is spread over them (see [`crate::idioms`]): refusing every cut in prose cost a
    // footer's site most of its cleaning (docs/results.md).
    if !suspects.is_empty() {
        let rules: Vec<usize> = suspects.iter().map(|s| s.0).collect();
        let found = neighbours(corpus, file, &rules)?;
        let min_spread = IdiomParams::default().min_spread;
        for ((i, action), nb) in suspects.into_iter().zip(found) {
            if nb.spread() < min_spread {
                file.rules[i].action = action;
                changed += 1;
            }
        }
    }
    Ok(changed)
}

/// Whether a rule's example (the text of one of its matches) is a footer's notice: more than one line,
/// one of them of [`NOTICE_WORDS`] words or more holding a sentence's end (a small letter's word ending
/// in `.`, `!` or `?`: "… for reference purposes. ABC News is not …"). A headline list has long lines
/// too, but no sentence ends in them ("U.S. Personal Spending Rises" is an abbreviation's).
fn is_notice(example: &str) -> bool {
    let example = example.trim();
    let sentence_end = |line: &str| {
        let b = line.as_bytes();
        (1..b.len()).any(|i| {
            matches!(b[i], b'.' | b'!' | b'?')
                && b[i - 1].is_ascii_lowercase()
                && b.get(i + 1).is_none_or(|c| c.is_ascii_whitespace())
        })
    };
    example.contains('\n')
        && example.lines().any(|l| l.split_whitespace().nth(NOTICE_WORDS - 1).is_some() && sentence_end(l))
}

/// The longest string [`is_generic`] can find generic.
pub const GENERIC_TOKENS: usize = 3;

/// Whether a rule's tokens make a generic string: at most [`GENERIC_TOKENS`] tokens, whose words (tokens
/// with a letter or digit, mutable patterns `«name»` aside) are all common ([`is_common_word`]) as prose
/// writes them. A word in capitals ("BY", "MORE") is a label's styling, not prose; patterns and symbols
/// alone (a dateline, "© «number»") are left to the evidence of where they sit, and so is a longer string
/// ("on «number» «month» «number» in" of a byline), whose odds of turning up in prose fall with each token.
pub fn is_generic(tokens: &[String]) -> bool {
    if tokens.len() > GENERIC_TOKENS {
        return false;
    }
    let mut words = tokens
        .iter()
        .filter(|t| !t.starts_with('«'))
        .map(|t| t.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .peekable();
    let common = |w: &str| {
        let capitals = w.chars().count() > 1 && w.chars().all(|c| !c.is_lowercase());
        !capitals && is_common_word(&w.to_lowercase())
    };
    words.peek().is_some() && words.all(common)
}

/// What the cleaner sees of a page: its matches, and its article block; of each match, whether it
/// bounds the runs the block is chosen from ([`splits_runs`]), whether it spans at most
/// [`NEAR_LINES`] line breaks, and whether it stands inside a line of prose.
struct Seen {
    matches: Vec<Match>,
    block: Option<(usize, usize)>,
    splits: Vec<bool>,
    few_lines: Vec<bool>,
    /// Rules with a match inside a line of prose, before any stage dropped it: a cut string is not
    /// dropped where a string removed is.
    prose: Vec<u32>,
}

/// Each page's matches and article block, found once for both tallies (the page's layout once for both).
fn see(pages: &[&Document], cleaner: &Cleaner) -> Vec<Seen> {
    // each page's work is counted where it runs and carried back to the caller's count
    let (seen, counted): (Vec<Seen>, Vec<usize>) = pages
        .par_iter()
        .map(|doc| {
            work::measure(|| {
                let layout = Layout::new(&doc.text);
                let raw = cleaner.raw_matches(&doc.text);
                let mut lines = ProseLines::new(&layout);
                let mut prose: Vec<u32> = raw.iter().filter(|m| lines.inside(m.start, m.end)).map(|m| m.rule).collect();
                prose.sort_unstable();
                prose.dedup();
                let matches = cleaner.stage_matches_in(&layout, raw);
                let block = cleaner.article_block_of(&layout, &matches);
                let splits = matches.iter().map(|m| splits_runs(&layout, m)).collect();
                let few_lines = matches.iter().map(|m| layout.newlines_in(m.start, m.end) <= NEAR_LINES).collect();
                Seen { matches, block, splits, few_lines, prose }
            })
        })
        .unzip();
    work::add(counted.iter().sum());
    seen
}

/// Per rule of `cleaner`: on how many pages it occurs and lies wholly before / after the article block;
/// with `near`, also on how many it is the last before / first after it among the matches of those rules.
fn tally(seen: &[Seen], cleaner: &Cleaner, near: Option<&HashSet<u32>>) -> HashMap<u32, Sides> {
    let (sides, counted) = seen
        .par_iter()
        .fold(
            || (HashMap::<u32, Sides>::new(), 0),
            |(acc, counted), seen| {
                let (acc, page) = work::measure(|| tally_page(acc, seen, cleaner, near));
                (acc, counted + page)
            },
        )
        .reduce(
            || (HashMap::new(), 0),
            |(mut a, n), (b, m)| {
                for (k, v) in b {
                    a.entry(k).or_default().add(v);
                }
                (a, n + m)
            },
        );
    work::add(counted);
    sides
}

/// [`tally`]'s count of one page, added to `acc`.
fn tally_page(
    mut acc: HashMap<u32, Sides>,
    seen: &Seen,
    cleaner: &Cleaner,
    near: Option<&HashSet<u32>>,
) -> HashMap<u32, Sides> {
    let matches = &seen.matches;
    for &rule in &seen.prose {
        acc.entry(rule).or_default().prose += 1;
    }
    let Some((start, end)) = seen.block else { return acc };
    // per rule on this page: all before, all after
    let mut page: HashMap<u32, Sides> = HashMap::new();
    for m in matches {
        let e = page.entry(m.rule).or_insert(Sides { pages: 1, before: 1, after: 1, ..Sides::default() });
        e.before &= usize::from(m.end <= start);
        e.after &= usize::from(m.start >= end);
        // `both` holds "some match before" until the page is tallied, then both sides
        e.both |= usize::from(m.end <= start) << 1 | usize::from(m.start >= end);
    }
    for s in page.values_mut() {
        s.both = usize::from(s.both == 3);
    }
    let Some(near) = near else {
        for (rule, s) in page {
            acc.entry(rule).or_default().add(s);
        }
        return acc;
    };
    // a string repeated down the page (a comment's date line) marks items, not the frame's edge
    let mut counts: HashMap<u32, usize> = HashMap::new();
    for m in matches {
        *counts.entry(m.rule).or_default() += 1;
    }
    let single = |m: &Match| counts[&m.rule] < LIST_ITEMS;
    // matches by index: whether each splits runs and spans a few lines was found with the block
    let bounds: Vec<usize> = (0..matches.len())
        .filter(|&i| near.contains(&matches[i].rule) && single(&matches[i]) && seen.splits[i])
        .collect();
    let bound = |i: &usize| &matches[*i];
    let last_end = bounds.iter().map(bound).filter(|m| m.end <= start).map(|m| m.end).max();
    let first_start = bounds.iter().map(bound).filter(|m| m.start >= end).map(|m| m.start).min();
    // the nearest bound's stretch, when it is a few lines: a shorter string inside it is next to
    // the block too ("{ 7 comments… }" inside "07.13.12 at 08:07 { 7 comments… }")
    let near_bounds = || bounds.iter().filter(|&&i| seen.few_lines[i]).map(bound);
    let last = last_end.map(|e| (near_bounds().filter(|m| m.end == e).map(|m| m.start).min().unwrap_or(e), e));
    let first = first_start.map(|s| (s, near_bounds().filter(|m| m.start == s).map(|m| m.end).max().unwrap_or(s)));
    let within = |i: usize, (s, e): (usize, usize)| {
        let m = &matches[i];
        m.start >= s && m.end <= e && cleaner.is_fixed(m.rule) && single(m) && seen.splits[i]
    };
    for (i, m) in matches.iter().enumerate() {
        let e = page.get_mut(&m.rule).expect("entry made above");
        e.last_before |= usize::from(Some(m.end) == last_end || last.is_some_and(|l| within(i, l)));
        e.first_after |= usize::from(Some(m.start) == first_start || first.is_some_and(|f| within(i, f)));
    }
    for (rule, s) in page {
        acc.entry(rule).or_default().add(s);
    }
    acc
}
