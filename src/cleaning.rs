//! Cleaning a document with a source's rules, order-invariantly (thesis §3.4.1).
//!
//! Every match of every active rule is found on the original text (none on text another rule already
//! changed), so rule order cannot matter. `remove` rules: the union of their matches, intervals closer than
//! the merge gap joined. Cut rules (frame cuts): the *article block* is the largest run of text left after
//! the removals, counting only words on lines of at least 8 words (any words, if no line is that long). A
//! `cut-before` match ending before the block removes everything from the document's start to its end
//! (the last such match wins); a `cut-after` match starting after the block removes everything from its
//! start to the document's end (the first wins). A cut string inside the block cuts nothing.
//!
//! A rule whose regex is the one synthesized from its tokens is matched at token level ([`TokenMatcher`]);
//! a hand-edited regex is run as a regex, and kept only where it starts and ends on token boundaries.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::lines;
use crate::matcher::{Scratch, TokenMatcher};
use crate::mutable::{MutablePattern, MutableSet};
use crate::rules::{Action, Rule, RulesFile};
use crate::symbol::Symbol;
use crate::synthesis::synthesize;
use crate::tokens::Tokenizer;

/// Lines with at least this many words count toward choosing the article block.
pub const LONG_LINE_WORDS: usize = 8;

/// A match inside a line splits the text into runs (for choosing the article block) only if it has at
/// least this many words.
pub const SPLIT_WORDS: usize = 4;

/// A rule matched on this many lines of a page marks list items, and the runs it opens are not the
/// article block.
pub const LIST_ITEMS: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpanKind {
    /// Matches of `remove` rules (and what the merge gap joined to them).
    Removed,
    /// From the document's start to the end of a header string.
    CutBefore,
    /// From a footer string to the document's end.
    CutAfter,
}

/// A removed span of the original text and the rules behind it (indices into [`Cleaner::rule_ids`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub kind: SpanKind,
    pub rules: Vec<u32>,
}

/// A cleaned document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cleaned {
    pub text: String,
    /// Removed spans, sorted and disjoint.
    pub spans: Vec<Span>,
    pub removed_bytes: usize,
}

/// One match of one rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Match {
    pub start: usize,
    pub end: usize,
    pub rule: u32,
}

#[derive(Debug, Clone)]
struct ActiveRule {
    id: String,
    action: Action,
    cluster: Option<u32>,
    /// See [`Rule::has_fixed_text`]: only such rules mark list items and frame edges.
    fixed: bool,
}

/// A compiled set of rules.
#[derive(Debug, Clone)]
pub struct Cleaner {
    tokenizer: Tokenizer,
    merge_gap: usize,
    rules: Vec<ActiveRule>,
    matcher: TokenMatcher,
    /// Rule index of each string of the matcher.
    token_rules: Vec<u32>,
    regex_rules: Vec<(u32, Regex)>,
    /// Line rules by their line (see [`crate::lines`]).
    line_rules: HashMap<String, u32>,
    any_cut: bool,
    any_cluster: bool,
    line_boundary: bool,
    islands: usize,
    keep_title: bool,
    short_runs: usize,
    drop_reprints: bool,
}

/// A rules file's settings for cleaning, beside its rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CleanSettings {
    /// Removed intervals fewer than this many characters apart are joined.
    pub merge_gap: usize,
    /// Only matches that start or end a line count.
    pub line_boundary: bool,
    /// Kept text of fewer than this many words between two removed spans goes too (thesis §6.1).
    pub islands: usize,
    /// The page's title stays (see [`title_line`]), and the dateline and byline above the article.
    pub keep_title: bool,
    /// Kept runs outside the article block with fewer than this many words on long lines go too (0:
    /// off); the title's run stays.
    pub short_runs: usize,
    /// Long lines printed a second time, two or more in a row, go (see [`RulesFile::drop_reprints`]).
    pub drop_reprints: bool,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Cleaner {
    /// The cleaner of a rules file: its accepted rules, and with `include_pending` the pending ones at or
    /// above the chosen cutoff.
    pub fn new(file: &RulesFile, include_pending: bool) -> Result<Cleaner> {
        Ok(Cleaner::from_rules(file.tokenizer, &file.mutable, file.active_rules(include_pending), file.merge_gap)?
            .with_settings(file.clean_settings()))
    }

    pub fn with_settings(mut self, settings: CleanSettings) -> Self {
        self.merge_gap = settings.merge_gap;
        self.line_boundary = settings.line_boundary;
        self.islands = settings.islands;
        self.keep_title = settings.keep_title;
        self.short_runs = settings.short_runs;
        self.drop_reprints = settings.drop_reprints;
        self
    }

    /// Keep only matches that touch a line boundary (see [`RulesFile::line_boundary`]).
    pub fn with_line_boundary(mut self, on: bool) -> Self {
        self.line_boundary = on;
        self
    }

    pub fn from_rules<'a>(
        tokenizer: Tokenizer,
        patterns: &[MutablePattern],
        rules: impl IntoIterator<Item = &'a Rule>,
        merge_gap: usize,
    ) -> Result<Cleaner> {
        Cleaner::with_patterns(tokenizer, &MutableSet::new(patterns.to_vec())?, rules, merge_gap)
    }

    /// As [`Cleaner::from_rules`], with the patterns already compiled (cheap to call on every edit).
    pub fn with_patterns<'a>(
        tokenizer: Tokenizer,
        mutable: &MutableSet,
        rules: impl IntoIterator<Item = &'a Rule>,
        merge_gap: usize,
    ) -> Result<Cleaner> {
        let mut active = Vec::new();
        let mut token_strings: Vec<Vec<Symbol>> = Vec::new();
        let mut token_rules = Vec::new();
        let mut regex_rules = Vec::new();
        let mut line_rules = HashMap::new();
        for rule in rules {
            let idx = active.len() as u32;
            let symbols = rule.symbols();
            let synthesized = if symbols.is_empty() { None } else { synthesize(&symbols, tokenizer, mutable).ok() };
            let line = lines::line_of(rule).filter(|l| !line_rules.contains_key(*l));
            if let Some(line) = line {
                line_rules.insert(line.to_string(), idx);
            } else if synthesized.as_deref() == Some(rule.regex.as_str()) {
                token_strings.push(symbols);
                token_rules.push(idx);
            } else {
                let re = Regex::new(&rule.regex).map_err(|e| Error::InvalidRule {
                    id: rule.id.clone(),
                    message: e.to_string().lines().last().unwrap_or_default().trim().to_string(),
                })?;
                regex_rules.push((idx, re));
            }
            active.push(ActiveRule {
                id: rule.id.clone(),
                action: rule.action,
                cluster: rule.cluster,
                // of the single-word lines, only labels ("Topics:") mark anything
                fixed: if lines::line_of(rule).is_some() { lines::is_label(rule) } else { rule.has_fixed_text() },
            });
        }
        let refs: Vec<&[Symbol]> = token_strings.iter().map(|s| s.as_slice()).collect();
        let matcher = TokenMatcher::new(tokenizer, mutable.clone(), &refs);
        let any_cut = active.iter().any(|r| r.action != Action::Remove);
        let any_cluster = active.iter().any(|r| r.cluster.is_some());
        Ok(Cleaner {
            tokenizer,
            merge_gap,
            rules: active,
            matcher,
            token_rules,
            regex_rules,
            line_rules,
            any_cut,
            any_cluster,
            line_boundary: false,
            islands: 0,
            keep_title: false,
            short_runs: 0,
            drop_reprints: false,
        })
    }

    /// Sets rule `rule`'s action without compiling the rules again: the oracle editor tries each string
    /// as a plain removal and as a cut, and the UI's preview shows a pending suggested cut as a cut.
    pub fn set_action(&mut self, rule: u32, action: Action) {
        let was = std::mem::replace(&mut self.rules[rule as usize].action, action);
        if action != Action::Remove {
            self.any_cut = true;
        } else if was != Action::Remove {
            self.any_cut = self.rules.iter().any(|r| r.action != Action::Remove);
        }
    }

    /// Rule `rule`'s action.
    pub fn action(&self, rule: u32) -> Action {
        self.rules[rule as usize].action
    }

    pub fn len(&self) -> usize {
        self.rules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    pub fn rule_id(&self, rule: u32) -> &str {
        &self.rules[rule as usize].id
    }

    /// Whether rule `rule` holds fixed text (see [`Rule::has_fixed_text`]).
    pub fn is_fixed(&self, rule: u32) -> bool {
        self.rules[rule as usize].fixed
    }

    pub fn rule_ids(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().map(|r| r.id.as_str())
    }

    /// Every match of every rule, sorted.
    pub fn matches(&self, text: &str) -> Vec<Match> {
        let mut out = Vec::new();
        SCRATCH.with_borrow_mut(|scratch| {
            self.matcher.find_all(text, scratch, |start, end, s| {
                out.push(Match { start, end, rule: self.token_rules[s as usize] });
            });
        });
        if !self.regex_rules.is_empty() {
            let spans = self.tokenizer.spans(text);
            let starts: Vec<usize> = spans.iter().map(|s| s.0).collect();
            let is_end = |e: usize| spans.binary_search_by_key(&e, |s| s.1).is_ok();
            for (rule, re) in &self.regex_rules {
                let mut from = 0;
                while let Some(m) = re.find_at(text, from) {
                    if m.end() > m.start() && starts.binary_search(&m.start()).is_ok() && is_end(m.end()) {
                        out.push(Match { start: m.start(), end: m.end(), rule: *rule });
                    }
                    // next token start after this match's start: overlapping matches are found too
                    let k = starts.partition_point(|&s| s <= m.start());
                    match starts.get(k) {
                        Some(&s) => from = s,
                        None => break,
                    }
                }
            }
        }
        if !self.line_rules.is_empty() {
            lines::find_lines(text, &self.line_rules, |start, end, rule| out.push(Match { start, end, rule }));
        }
        if self.line_boundary {
            // (a cut string is template wherever it stands)
            out.retain(|m| {
                touches_line_boundary(text, m.start, m.end)
                    && (self.rules[m.rule as usize].action != Action::Remove || !opens_a_sentence(text, m))
            });
        }
        out.sort_unstable();
        out.dedup();
        if self.any_cluster {
            self.keep_one_cluster(&mut out);
        }
        out
    }

    /// A document belongs to the template cluster whose own rules cover most of it (ties: the lower
    /// cluster); the other clusters' matches are dropped. Rules of the whole source always apply.
    fn keep_one_cluster(&self, matches: &mut Vec<Match>) {
        let mut cover: Vec<(u32, usize)> = Vec::new();
        for m in matches.iter() {
            if let Some(k) = self.rules[m.rule as usize].cluster {
                match cover.iter_mut().find(|c| c.0 == k) {
                    Some(c) => c.1 += m.end - m.start,
                    None => cover.push((k, m.end - m.start)),
                }
            }
        }
        let best = cover.iter().max_by_key(|c| (c.1, std::cmp::Reverse(c.0))).map(|c| c.0);
        matches.retain(|m| self.rules[m.rule as usize].cluster.is_none_or(|k| Some(k) == best));
    }

    /// The removed spans of `text`.
    pub fn spans(&self, text: &str) -> Vec<Span> {
        self.spans_of(text, &self.matches(text))
    }

    /// The removed spans of `text`, given its [`Cleaner::matches`].
    pub fn spans_of(&self, text: &str, matches: &[Match]) -> Vec<Span> {
        let removed = union(
            text,
            matches.iter().filter(|m| self.rules[m.rule as usize].action == Action::Remove),
            self.merge_gap,
            SpanKind::Removed,
        );
        let mut spans =
            if self.any_cut { self.cut(text, matches, removed) } else { join_islands(text, removed, self.islands) };
        // the article block of what is removed so far (if a step needs it), found again only when a step
        // changed it
        let mut block = if self.keep_title || self.short_runs > 0 { article_block(text, &spans) } else { None };
        if self.keep_title {
            if let Some(b) = block
                && let Some((start, end)) = lost_headline(text, &spans, matches, b)
            {
                spans = give_back(spans, start, end);
                block = article_block(text, &spans);
            }
            if let Some(b) = block {
                let lines = lost_datelines(text, &spans, b);
                if !lines.is_empty() {
                    for (start, end) in lines {
                        spans = give_back(spans, start, end);
                    }
                    block = article_block(text, &spans);
                }
            }
        }
        let spans = match block {
            Some(b) if self.short_runs > 0 => drop_short_runs(text, spans, self.short_runs, b),
            _ => spans,
        };
        if self.drop_reprints { drop_reprints(text, spans) } else { spans }
    }

    /// `removed` with the cuts of the header and footer strings around the article block.
    fn cut(&self, text: &str, matches: &[Match], removed: Vec<Span>) -> Vec<Span> {
        let Some((block_start, block_end)) = self.article_block(text, matches) else {
            return join_islands(text, removed, self.islands);
        };
        let header = matches
            .iter()
            .filter(|m| self.rules[m.rule as usize].action == Action::CutBefore && m.end <= block_start)
            .max_by_key(|m| (m.end, std::cmp::Reverse(m.rule)));
        let footer = matches
            .iter()
            .filter(|m| self.rules[m.rule as usize].action == Action::CutAfter && m.start >= block_end)
            .min_by_key(|m| (m.start, m.rule));
        let mut all: Vec<Span> = removed;
        if let Some(h) = header {
            all.push(Span { start: 0, end: h.end, kind: SpanKind::CutBefore, rules: vec![h.rule] });
        }
        if let Some(f) = footer {
            all.push(Span { start: f.start, end: text.len(), kind: SpanKind::CutAfter, rules: vec![f.rule] });
        }
        let spans = join_islands(text, merge_spans(all), self.islands);
        match header {
            Some(h) if self.keep_title => keep_title(text, spans, matches, self.merge_gap, h.end, footer.is_some()),
            _ => spans,
        }
    }

    /// The article block of `text`: the largest run between the matches of all rules. Cut strings are
    /// template too: they bound the runs the block is chosen from. Runs after the first footer string
    /// are chosen only if none before it has a long line: a comment thread can outweigh its article, and
    /// it is exactly what the footer string announces. A footer string on the page's own title line is
    /// not its footer (the site lists this page among its headlines). Runs that open list items (see [`list_items`])
    /// are chosen only if no other run carries words.
    pub fn article_block(&self, text: &str, matches: &[Match]) -> Option<(usize, usize)> {
        let items = list_items(text, matches, |rule| self.rules[rule as usize].fixed);
        // A short match that is not a line of its own (an idiom, most likely) does not break the article;
        // a list item's marker does.
        let splitting = matches.iter().enumerate().filter(|&(i, m)| items[i] || splits_runs(text, m)).map(|(_, m)| m);
        let mut all = union(text, splitting, self.merge_gap, SpanKind::Removed);
        if self.tokenizer == Tokenizer::Html
            && let Some(body) = body_start(text)
        {
            // nothing in the head is the article: a long <meta> description must not win
            all.push(Span { start: 0, end: body, kind: SpanKind::Removed, rules: Vec::new() });
            all = merge_spans(all);
        }
        // a run starting where an item's marker ends is that item
        let item_ends: HashSet<usize> = matches.iter().zip(&items).filter(|(_, is)| **is).map(|(m, _)| m.end).collect();
        let opens_item = |run_start: usize| item_ends.contains(&run_start);
        // a footer string that is this page's own title (the site lists its headlines, this one among
        // them) is no footer here
        let first = first_line(text);
        let first_footer = matches
            .iter()
            .filter(|m| self.rules[m.rule as usize].action == Action::CutAfter)
            .filter(|m| !starts_a_title_line(text, &first, m.start))
            .map(|m| m.start)
            .min();
        if let Some(f) = first_footer
            && let Some(block) = article_block_where(
                self.words(),
                &text[..f],
                &all.iter().filter(|s| s.start < f).cloned().collect::<Vec<_>>(),
                opens_item,
            )
            // and it has a line of prose: a footer string that matched early (the site's name under a
            // long <title>) does not make a menu the article
            && self.has_long_line(text, block)
        {
            return Some(block);
        }
        article_block_where(self.words(), text, &all, opens_item)
    }

    /// Whether `block` has a long line; in text, not counting the document's first line (the `<title>`).
    fn has_long_line(&self, text: &str, (start, end): (usize, usize)) -> bool {
        let from = match self.words() {
            Words::All if start == 0 => text.find('\n').map_or(end, |i| (i + 1).min(end)),
            _ => start,
        };
        self.words().long_line_words(&text[from..end]) > 0
    }

    /// How words are counted on this cleaner's documents.
    fn words(&self) -> Words {
        if self.tokenizer == Tokenizer::Html { Words::Visible } else { Words::All }
    }

    pub fn clean(&self, text: &str) -> Cleaned {
        let spans = self.spans(text);
        let removed_bytes = spans.iter().map(|s| s.end - s.start).sum();
        Cleaned { text: render(text, &spans), spans, removed_bytes }
    }
}

/// The start of the line before `end` that repeats most of the page's title (of equal ones, the last): the
/// first line of the document holds it (the naive text of a page starts with the HTML `<title>`), it has at
/// least two words, and no rule matches it whole (the site's name is in the title too, but on every page).
/// News pages print the title again above the article, often with the byline and date between it and the
/// last header string, so a cut-before would take it.
pub fn title_line(text: &str, start: usize, end: usize, matches: &[Match]) -> Option<usize> {
    // the site's name is a line a rule matches whole; a date in the title is no reason to lose it
    let whole = |ls: usize, line: &str| {
        let (a, b) = (ls + (line.len() - line.trim_start().len()), ls + line.trim_end().len());
        matches.iter().any(|m| m.start <= a && m.end >= b)
    };
    // whole lines only: the header string's own line, cut short at `end`, is not the title
    let complete = |ls: usize, line: &str| line.ends_with('\n') || ls + line.len() == text.len();
    // but a line that holds most of the title is the headline, even if a rule matches it whole: this
    // page's headline is listed on the site's other pages ("Top stories")
    let first_words = first_line(text).split_whitespace().count();
    let most = |line: &str| 2 * line.split_whitespace().count() > first_words;
    // the fullest repeat, the last of those: an author's name in the title is a repeat of it too
    title_lines(text, start, end)
        .filter(|&(ls, line)| complete(ls, line) && (!whole(ls, line) || most(line)))
        .max_by_key(|&(ls, line)| (line.split_whitespace().count(), ls))
        .map(|(ls, _)| ls)
}

/// The lines inside `start..end`, below the first line, that repeat the title (see [`is_title`]), with
/// their starts.
fn title_lines(text: &str, start: usize, end: usize) -> impl Iterator<Item = (usize, &str)> {
    let first = first_line(text);
    let below_first = text.find('\n').map_or(text.len(), |i| i + 1);
    let from = start.max(below_first).min(end);
    text[from..end]
        .split_inclusive('\n')
        .scan(from, |pos, line| {
            let at = *pos;
            *pos += line.len();
            Some((at, line))
        })
        // a line's tail (a removal took its head) is no repeat of the title
        .filter(move |&(at, line)| (at == 0 || text.as_bytes()[at - 1] == b'\n') && is_title(&first, line))
}

/// Whether `pos` starts the document's first line or a line that repeats it (see [`is_title`]).
fn starts_a_title_line(text: &str, first: &str, pos: usize) -> bool {
    if pos > 0 && text.as_bytes()[pos - 1] != b'\n' {
        return false;
    }
    let line = text[pos..].lines().next().unwrap_or_default();
    pos == 0 || is_title(first, line)
}

/// Adds to `spans` the kept runs outside the article `block` with fewer than `min_words` words on long
/// lines, or with no long line that reads as prose: menus, headline lists, related links and share
/// widgets that no rule matched and no cut reached. The run that holds the title (the block's copy, else
/// the last kept copy above the block) stays from the title on; what is above the title in it goes,
/// unless a sentence is there.
fn drop_short_runs(text: &str, spans: Vec<Span>, min_words: usize, block: (usize, usize)) -> Vec<Span> {
    let mut out = spans.clone();
    // the title kept above the block is its last kept copy there (earlier ones are headline lists), and
    // none if the block holds it
    let kept = |at: usize| !spans.iter().any(|s| s.start <= at && at < s.end);
    let title_at = match title_lines(text, block.0, block.1).next() {
        Some((at, _)) => Some(at),
        None => title_lines(text, 0, block.0)
            .map(|(at, line)| at + (line.len() - line.trim_start().len()))
            .filter(|&at| kept(at))
            .last(),
    };
    let is_prose = |l: &str| l.split_whitespace().count() >= LONG_LINE_WORDS && reads_as_prose(l);
    for (start, end) in kept_runs(text, &spans) {
        let run = &text[start..end];
        let title = title_at.filter(|&at| start <= at && at < end);
        // the article starts at its title: menus and breadcrumbs above it in its run go (if no prose does)
        if let Some(at) = title
            && !text[start..at].split('\n').any(is_prose)
            && text[start..at].split_whitespace().next().is_some()
        {
            out.push(Span { start, end: at, kind: SpanKind::Removed, rules: Vec::new() });
        }
        // a headline list has long lines too, but no sentence; the title's run stays from the title on
        let short = (long_line_words(run) < min_words || !run.split('\n').any(is_prose))
            && run.split_whitespace().next().is_some();
        if (start, end) != block && title.is_none() && short {
            out.push(Span { start, end, kind: SpanKind::Removed, rules: Vec::new() });
        }
    }
    merge_spans(out)
}

/// Where an HTML document's `<body` tag starts (ASCII case ignored), if it has one.
fn body_start(html: &str) -> Option<usize> {
    let bytes = html.as_bytes();
    (0..bytes.len().saturating_sub(4)).find(|&i| bytes[i] == b'<' && bytes[i + 1..i + 5].eq_ignore_ascii_case(b"body"))
}

/// Whether a line holds a sentence's end: it ends with one, or one is followed by more. Headlines and
/// link text have none; a run cut by a match inside a sentence may have lost its final period.
fn reads_as_prose(line: &str) -> bool {
    let l = line.trim_end();
    l.ends_with(['.', '!', '?', '"', '\u{201d}']) || [". ", "? ", "! "].iter().any(|end| l.contains(end))
}

/// The stretches of `text` between `removed` spans (sorted), empty ones left out.
fn kept_runs(text: &str, removed: &[Span]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut pos = 0;
    for s in removed {
        if s.start > pos {
            runs.push((pos, s.start));
        }
        pos = pos.max(s.end);
    }
    if pos < text.len() {
        runs.push((pos, text.len()));
    }
    runs
}

/// How the article block counts words: all of them (text), or those a reader sees (HTML: not tags, not
/// scripts or styles).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Words {
    All,
    Visible,
}

impl Words {
    /// Words on the lines of `run` that have at least [`LONG_LINE_WORDS`].
    fn long_line_words(self, run: &str) -> usize {
        match self {
            Words::All => long_line_words(run),
            Words::Visible => visible_words_per_line(run).into_iter().filter(|&w| w >= LONG_LINE_WORDS).sum(),
        }
    }

    fn count(self, run: &str) -> usize {
        match self {
            Words::All => run.split_whitespace().count(),
            Words::Visible => visible_words_per_line(run).into_iter().sum(),
        }
    }
}

/// Words a reader sees on each line of an HTML fragment: text outside tags (which may span lines),
/// scripts and styles.
fn visible_words_per_line(html: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let (mut words, mut in_word, mut in_tag) = (0, false, false);
    let mut tag = String::new();
    let mut hidden: Option<&str> = None; // inside <script> or <style>: the closing tag awaited
    for c in html.chars() {
        if in_tag {
            if c == '>' {
                in_tag = false;
                let t = tag.to_ascii_lowercase();
                match hidden {
                    Some(end) if t.starts_with(end) => hidden = None,
                    None if t.starts_with("script") => hidden = Some("/script"),
                    None if t.starts_with("style") => hidden = Some("/style"),
                    _ => {}
                }
            } else if tag.len() < 8 {
                tag.push(c);
            }
        } else if c == '<' {
            in_tag = true;
            in_word = false;
            tag.clear();
        } else if c.is_whitespace() {
            in_word = false;
        } else if hidden.is_none() && !in_word {
            in_word = true;
            words += 1;
        }
        if c == '\n' {
            out.push(words);
            words = 0;
        }
    }
    out.push(words);
    out
}

/// Words on the lines of `run` that have at least [`LONG_LINE_WORDS`].
fn long_line_words(run: &str) -> usize {
    run.split('\n').map(|l| l.split_whitespace().count()).filter(|&w| w >= LONG_LINE_WORDS).sum()
}

/// The document's first line, folded (see [`fold`]): the naive text of a page starts with the HTML
/// `<title>`.
fn first_line(text: &str) -> String {
    fold(text.lines().next().unwrap_or_default().trim())
}

/// Lowercase, with typographic quotes and dashes as their ASCII kin: a page's `<title>` often says
/// "Wife's" where its headline says "Wife’s".
fn fold(s: &str) -> String {
    s.chars()
        .filter_map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{2032}' => Some('\''),
            '\u{201C}' | '\u{201D}' | '\u{2033}' => Some('"'),
            '\u{2013}' | '\u{2014}' | '\u{2212}' => Some('-'),
            '\u{00A0}' => Some(' '),
            // "Stats… Impressive!" in the headline, "Stats Impressive!" in the <title>
            '\u{2026}' => None,
            c => Some(c),
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `line` repeats the title (`first`, see [`first_line`]): two words or more, in the first line;
/// or it starts with the title proper (the first line before a " - Site" suffix, three words or more).
fn is_title(first: &str, line: &str) -> bool {
    let t = line.trim();
    let mut words = t.split_whitespace();
    let Some(head) = words.next() else { return false };
    // most lines are not the title: their first word is not in it (cheaper than folding the line)
    if t.len() < 10 || words.next().is_none() || !first.contains(&fold(head)) {
        return false;
    }
    let t = fold(t);
    if first.contains(&t) {
        return true;
    }
    // the title proper, followed on its line by a dateline
    let proper = title_proper(first);
    proper.len() >= 10 && proper.split_whitespace().count() >= 3 && t.starts_with(proper)
}

/// The title proper: the (folded) first line before " - Site".
fn title_proper(first: &str) -> &str {
    [" - ", " | ", " :: "].iter().filter_map(|sep| first.split(sep).next()).min_by_key(|p| p.len()).unwrap_or(first)
}

/// Gives back the title line inside the cut before `header_end` (the header string's end): the span
/// holding it stops there, and between the title and `header_end` only what rules match goes (the header
/// string itself among them), except on a byline ("By A. Writer, July 3"): the title and the byline are
/// the article's. What islands or the footer's cut joined to the span after `header_end` stays removed.
fn keep_title(
    text: &str,
    spans: Vec<Span>,
    matches: &[Match],
    gap: usize,
    header_end: usize,
    footer: bool,
) -> Vec<Span> {
    let Some(cut) = spans.iter().position(|s| s.kind == SpanKind::CutBefore && s.start == 0) else { return spans };
    let Some(title) = title_line(text, 0, header_end, matches) else { return spans };
    let mut out = spans;
    let s = out.remove(cut);
    // the title line itself stays even if a rule matches it (the site's other pages list this headline)
    let title_end = text[title..].find('\n').map_or(text.len(), |i| title + i);
    let below = matches
        .iter()
        .filter(|m| m.start >= title && m.end <= header_end && m.end > title_end && !on_byline(text, m.start));
    out.extend(union(text, below, gap, SpanKind::Removed));
    out.push(Span { end: title, ..s.clone() });
    if s.end > header_end {
        let kind = if s.end == text.len() && footer { SpanKind::CutAfter } else { SpanKind::Removed };
        out.push(Span { start: header_end, kind, ..s });
    }
    merge_spans(out)
}

/// The headline above the article block, when a removal took it: the site's other pages list this
/// page's headline ("Most popular"), so a rule matches it whole. It is given back.
fn lost_headline(text: &str, spans: &[Span], matches: &[Match], block: (usize, usize)) -> Option<(usize, usize)> {
    let (block_start, block_end) = block;
    if title_lines(text, block_start, block_end).next().is_some() {
        return None;
    }
    // the removal ends before the title's newline, where the block starts; or it took the headline's head
    // only (the site's lists print it without its "…"), and the block starts inside the headline
    let end = text[block_start..].find('\n').map_or(text.len(), |i| block_start + i + 1);
    let title = title_line(text, 0, end, matches)?;
    let title_end = text[title..].find('\n').map_or(text.len(), |i| title + i);
    spans.iter().any(|s| s.start < title_end && s.end > title).then_some((title, title_end))
}

/// Adds to `spans` the kept long lines printed a second time on the page, two or more in a row: a page
/// that prints its article twice (a preview, then the article). Long lines between them that are new end
/// the row; short ones do not.
fn drop_reprints(text: &str, spans: Vec<Span>) -> Vec<Span> {
    let mut seen: HashSet<&str> = HashSet::new();
    // the reprinted long lines, in order; a lone one is a pull quote or a teaser, and stays
    let mut reprinted: Vec<(usize, usize)> = Vec::new();
    let mut out = Vec::new();
    let mut flush = |group: &mut Vec<(usize, usize)>| {
        if group.len() >= 2 {
            out.extend(group.iter().map(|&(start, end)| Span {
                start,
                end,
                kind: SpanKind::Removed,
                rules: Vec::new(),
            }));
        }
        group.clear();
    };
    for (start, end) in kept_runs(text, &spans) {
        let mut at = start;
        for line in text[start..end].split_inclusive('\n') {
            let t = line.trim();
            if t.split_whitespace().nth(LONG_LINE_WORDS - 1).is_some() {
                if seen.insert(t) {
                    flush(&mut reprinted);
                } else {
                    reprinted.push((at, at + line.trim_end().len()));
                }
            }
            at += line.len();
        }
    }
    flush(&mut reprinted);
    if out.is_empty() {
        return spans;
    }
    out.extend(spans);
    merge_spans(out)
}

/// `spans` less `start..end`: a span across it is split in two.
fn give_back(spans: Vec<Span>, start: usize, end: usize) -> Vec<Span> {
    let mut out = Vec::with_capacity(spans.len() + 1);
    for s in spans {
        if s.end <= start || s.start >= end {
            out.push(s);
            continue;
        }
        if s.start < start {
            out.push(Span { end: start, ..s.clone() });
        }
        if s.end > end {
            out.push(Span { start: end, ..s });
        }
    }
    out
}

/// The lines right above the article block that a removal took whole and that read as its dateline or
/// byline ("November 6, 2012 | 11:00 AM", "By A. Writer"): they are the article's, though the site
/// prints the same pattern on every page. They are given back.
fn lost_datelines(text: &str, spans: &[Span], (block_start, _): (usize, usize)) -> Vec<(usize, usize)> {
    let mut lines = Vec::new();
    let mut end = text[..block_start].trim_end_matches('\n').len();
    for _ in 0..2 {
        let start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        let whole = spans.iter().any(|s| s.kind != SpanKind::CutAfter && s.start <= start && s.end >= end);
        if start == 0 || !whole || !is_dateline(&text[start..end]) {
            break;
        }
        lines.push((start, end));
        end = start - 1;
    }
    lines
}

/// A short line with a date (a year, or a month's name) or starting with "By ".
fn is_dateline(line: &str) -> bool {
    // the month names of the default mutable patterns ("month", "month_abbr")
    static PATTERNS: LazyLock<MutableSet> = LazyLock::new(MutableSet::defaults);
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() || words.len() > 14 {
        return false;
    }
    let year = |w: &str| {
        let dated = w.contains(['.', '/', '•']);
        w.split(|c: char| !c.is_ascii_digit())
            .any(|d| d.len() == 4 && (d.starts_with("19") || d.starts_with("20")) || d.len() == 2 && dated)
    };
    // "Nov•" too: the patterns allow ASCII punctuation after the name only
    let month = |w: &str| {
        PATTERNS
            .classify(w.trim_end_matches(|c: char| !c.is_alphanumeric()))
            .is_some_and(|p| PATTERNS.patterns()[p].name.starts_with("month"))
    };
    words[0].eq_ignore_ascii_case("by") || words.iter().any(|w| year(w) || month(w))
}

/// Whether the line holding `pos` starts with "By ".
fn on_byline(text: &str, pos: usize) -> bool {
    let (before, _) = line_edges(text, pos, pos);
    text[pos - before.len()..].trim_start().get(..3).is_some_and(|p| p.eq_ignore_ascii_case("by "))
}

/// Joins removed spans with fewer than `max_words` words of kept text between them (0: none): a short
/// island between two pieces of template is template too (thesis §6.1).
fn join_islands(text: &str, spans: Vec<Span>, max_words: usize) -> Vec<Span> {
    if max_words == 0 {
        return spans;
    }
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for s in spans {
        if let Some(last) = out.last_mut()
            && text[last.end..s.start].split_whitespace().count() < max_words
        {
            absorb(last, s);
            continue;
        }
        out.push(s);
    }
    out
}

/// Whether `start..end` begins a line or ends one, whitespace aside.
pub fn touches_line_boundary(text: &str, start: usize, end: usize) -> bool {
    let (before, after) = line_edges(text, start, end);
    before.trim().is_empty() || after.trim().is_empty()
}

/// The text on the line of `start` before it, and on the line of `end` after it.
fn line_edges(text: &str, start: usize, end: usize) -> (&str, &str) {
    let before = &text[..start];
    let after = &text[end..];
    (&before[before.rfind('\n').map_or(0, |i| i + 1)..], &after[..after.find('\n').unwrap_or(after.len())])
}

/// Whether a match bounds the runs the article block is chosen from: it is whole lines, or it has at
/// least [`SPLIT_WORDS`] words. A short match inside a line is most likely an idiom.
pub fn splits_runs(text: &str, m: &Match) -> bool {
    is_whole_lines(text, m.start, m.end) || text[m.start..m.end].split_whitespace().count() >= SPLIT_WORDS
}

/// Which matches mark list items: a comment's "name, date at time", a headline's byline. Such a match
/// shares its line with a few words that change (the commenter's name), and its rule opens at least
/// [`LIST_ITEMS`] pieces of text on the page (lines of [`LONG_LINE_WORDS`] words before the next
/// match). Whole lines that repeat are menus, matches across lines are lists of links, and a rule
/// whose other matches are followed by nothing (an archive list's dates) marks no items.
fn list_items(text: &str, matches: &[Match], fixed: impl Fn(u32) -> bool) -> Vec<bool> {
    let marks: Vec<bool> = matches
        .iter()
        .map(|m| {
            fixed(m.rule)
                && !text[m.start..m.end].contains('\n')
                && !is_whole_lines(text, m.start, m.end)
                && rest_of_line_words(text, m.start, m.end) < LONG_LINE_WORDS
        })
        .collect();
    let mut starts: Vec<usize> =
        matches.iter().zip(&marks).filter(|(m, mark)| **mark || splits_runs(text, m)).map(|(m, _)| m.start).collect();
    starts.sort_unstable();
    let mut opened: HashMap<u32, usize> = HashMap::new();
    for (m, _) in matches.iter().zip(&marks).filter(|(_, mark)| **mark) {
        let next = starts.get(starts.partition_point(|&s| s < m.end)).copied().unwrap_or(text.len());
        // the item's text is on the lines below its marker; a dated headline list holds it on the line
        let below = text[m.end..next].split_once('\n').map_or("", |(_, rest)| rest);
        if below.lines().any(|l| l.split_whitespace().count() >= LONG_LINE_WORDS) {
            *opened.entry(m.rule).or_insert(0) += 1;
        }
    }
    matches.iter().zip(marks).map(|(m, mark)| mark && opened.get(&m.rule).is_some_and(|&n| n >= LIST_ITEMS)).collect()
}

/// Words on the lines of `start..end` outside it.
fn rest_of_line_words(text: &str, start: usize, end: usize) -> usize {
    let (before, after) = line_edges(text, start, end);
    before.split_whitespace().count() + after.split_whitespace().count()
}

/// Whether a short match starts a line of prose: a name at the head of a sentence ("Indianapolis Colts
/// rookie tight end ...") that the site's tag lists repeat, or an idiom ("You can ..."), not template.
fn opens_a_sentence(text: &str, m: &Match) -> bool {
    let matched = &text[m.start..m.end];
    // at the end of a line, a short match is a link ("Read More"), not a name
    let line_start = text[..m.start].rfind('\n').map_or(0, |i| i + 1);
    if matched.split_whitespace().nth(SPLIT_WORDS - 1).is_some()
        || matched.contains('\n')
        || !text[line_start..m.start].trim().is_empty()
    {
        return false;
    }
    let after = &text[m.end..text[m.end..].find('\n').map_or(text.len(), |i| m.end + i)];
    // and a line of fields ("Posted by A. Writer on July 3 | Permalink") is no sentence
    after.split_whitespace().nth(LONG_LINE_WORDS - 1).is_some() && reads_as_prose(after) && !after.contains(" | ")
}

/// Whether `start..end` is whole lines: it starts a line and ends one, whitespace aside.
fn is_whole_lines(text: &str, start: usize, end: usize) -> bool {
    let (before, after) = line_edges(text, start, end);
    before.trim().is_empty() && after.trim().is_empty()
}

/// Union of matches as spans; intervals fewer than `gap` characters apart are joined.
fn union<'a>(text: &str, matches: impl Iterator<Item = &'a Match>, gap: usize, kind: SpanKind) -> Vec<Span> {
    let mut ms: Vec<&Match> = matches.collect();
    ms.sort_unstable();
    let mut out: Vec<Span> = Vec::new();
    for m in ms {
        if let Some(last) = out.last_mut()
            && (m.start <= last.end || joinable(&text[last.end..m.start], gap))
        {
            last.end = last.end.max(m.end);
            if !last.rules.contains(&m.rule) {
                last.rules.push(m.rule);
            }
            continue;
        }
        out.push(Span { start: m.start, end: m.end, kind, rules: vec![m.rule] });
    }
    for s in &mut out {
        s.rules.sort_unstable();
    }
    out
}

/// Whether the text between two removed intervals goes with them: only whitespace (nothing would be
/// left of it), or fewer than `gap` characters.
fn joinable(between: &str, gap: usize) -> bool {
    between.trim().is_empty() || (gap > 0 && between.chars().count() < gap)
}

/// Extends `last` over `s` (which starts within or after it): a cut absorbs the removals it covers, and
/// the rules of both are kept.
fn absorb(last: &mut Span, s: Span) {
    last.end = last.end.max(s.end);
    if last.kind == SpanKind::Removed {
        last.kind = s.kind;
    }
    for r in s.rules {
        if !last.rules.contains(&r) {
            last.rules.push(r);
        }
    }
    last.rules.sort_unstable();
}

/// Merges overlapping spans of different kinds; a cut absorbs the removals it covers.
fn merge_spans(mut spans: Vec<Span>) -> Vec<Span> {
    spans.sort_by_key(|s| (s.start, s.end));
    let mut out: Vec<Span> = Vec::new();
    for s in spans {
        if let Some(last) = out.last_mut()
            && s.start <= last.end
        {
            absorb(last, s);
            continue;
        }
        out.push(s);
    }
    out
}

/// The article block: the kept run with the most words on long lines (≥ [`LONG_LINE_WORDS`] words),
/// or with the most words if no line is that long. `None` when nothing is kept.
pub fn article_block(text: &str, removed: &[Span]) -> Option<(usize, usize)> {
    article_block_where(Words::All, text, removed, |_| false)
}

/// As [`article_block`], passing over runs whose start `opens_item` says is a list item's, unless no
/// other run carries words.
fn article_block_where(
    words: Words,
    text: &str,
    removed: &[Span],
    opens_item: impl Fn(usize) -> bool,
) -> Option<(usize, usize)> {
    let (items, runs): (Vec<_>, Vec<_>) =
        kept_runs(text, removed).into_iter().partition(|&(start, _)| opens_item(start));
    largest_run(words, text, runs).or_else(|| largest_run(words, text, items))
}

fn largest_run(words: Words, text: &str, runs: Vec<(usize, usize)>) -> Option<(usize, usize)> {
    let scored: Vec<((usize, usize), usize, usize)> = runs
        .into_iter()
        .map(|(a, b)| ((a, b), words.long_line_words(&text[a..b]), words.count(&text[a..b])))
        .filter(|r| r.2 > 0)
        .collect();
    let any_long = scored.iter().any(|r| r.1 > 0);
    // ties go to the earliest run
    scored.iter().rev().max_by_key(|r| if any_long { r.1 } else { r.2 }).map(|r| r.0)
}

/// The text with `spans` removed. At each seam the whitespace around the removed text collapses to one
/// separator: a newline if any was there, else a space. The result is trimmed.
pub fn render(text: &str, spans: &[Span]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut newline = false;
    let mut pos = 0;
    let keep = |kept: &str, out: &mut String, newline: &mut bool| {
        let t = kept.trim();
        if t.is_empty() {
            *newline |= kept.contains('\n');
            return;
        }
        let lead = &kept[..kept.len() - kept.trim_start().len()];
        *newline |= lead.contains('\n');
        if !out.is_empty() {
            out.push(if *newline { '\n' } else { ' ' });
        }
        out.push_str(t);
        *newline = kept[kept.trim_end().len()..].contains('\n');
    };
    if spans.is_empty() {
        return text.trim().to_string();
    }
    for s in spans {
        keep(&text[pos..s.start], &mut out, &mut newline);
        newline |= text[s.start..s.end].contains('\n');
        pos = s.end;
    }
    keep(&text[pos..], &mut out, &mut newline);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Status;

    pub(crate) fn rule(id: &str, tokens: &str, action: Action, mutable: &MutableSet) -> Rule {
        let tokens: Vec<String> = tokens.split(' ').map(String::from).collect();
        let symbols: Vec<Symbol> = tokens.iter().map(|t| Symbol::decode(t)).collect();
        Rule {
            id: id.into(),
            status: Status::Accepted,
            action,
            regex: synthesize(&symbols, Tokenizer::Text, mutable).unwrap(),
            tokens,
            tf: 0,
            df: 0,
            bin: 99,
            coverage: 0,
            adds: 0,
            example: String::new(),
            idiom: false,
            stale: false,
            cluster: None,
        }
    }

    fn cleaner(rules: &[(&str, Action)], gap: usize) -> Cleaner {
        let m = MutableSet::defaults();
        let rules: Vec<Rule> = rules.iter().enumerate().map(|(i, (t, a))| rule(&format!("r{i}"), t, *a, &m)).collect();
        Cleaner::from_rules(Tokenizer::Text, m.patterns(), &rules, gap).unwrap()
    }

    #[test]
    fn removes_the_union_of_overlapping_and_adjacent_matches() {
        let c = cleaner(&[("a a b", Action::Remove), ("b c", Action::Remove), ("d", Action::Remove)], 0);
        let out = c.clean("x a a b c d y");
        assert_eq!(out.text, "x y");
        assert_eq!(out.spans.len(), 1, "{:?}", out.spans);
        assert_eq!(out.spans[0].rules, vec![0, 1, 2]);
    }

    #[test]
    fn merge_gap_joins_close_intervals_only() {
        let c = cleaner(&[("read more", Action::Remove)], 0);
        assert_eq!(c.clean("read more xx read more body").text, "xx body");
        let c = cleaner(&[("read more", Action::Remove)], 5);
        assert_eq!(c.clean("read more xx read more body").text, "body", "4 characters apart, gap 5: joined");
        let c = cleaner(&[("read more", Action::Remove)], 4);
        assert_eq!(c.clean("read more xx read more body").text, "xx body", "4 characters apart, gap 4: not joined");
    }

    #[test]
    fn hand_edited_regex_matches_at_token_boundaries_only() {
        let m = MutableSet::defaults();
        let mut r = rule("h", "read more", Action::Remove, &m);
        r.regex = r"read\s+mor".into();
        let c = Cleaner::from_rules(Tokenizer::Text, m.patterns(), &[r.clone()], 0).unwrap();
        assert_eq!(c.clean("read more read mor x").text, "read more x");
        r.regex = "(unclosed".into();
        let err = Cleaner::from_rules(Tokenizer::Text, m.patterns(), &[r], 0).unwrap_err().to_string();
        assert!(err.contains("rule h") && err.contains("unclosed"), "{err}");
    }

    #[test]
    fn line_boundary_keeps_only_matches_that_touch_a_line_edge() {
        let c = cleaner(&[("of the", Action::Remove)], 0).with_line_boundary(true);
        assert_eq!(c.clean("one of the best\nof the week\nend of the").text, "one of the best\nweek\nend");
    }

    #[test]
    fn a_short_match_that_opens_a_sentence_is_a_name_not_template() {
        let rules =
            [("Indianapolis Colts", Action::Remove), ("Read More", Action::Remove), ("Posted by", Action::Remove)];
        let c = cleaner(&rules, 0).with_line_boundary(true);
        let sentence = "Indianapolis Colts rookie tight end Dwayne Allen caught the pass on Sunday.";
        assert_eq!(c.clean(sentence).text, sentence, "the team's name heads a sentence of the article");
        // on a line of its own (a tag list), or heading a line that is no sentence, it goes
        assert_eq!(c.clean("Indianapolis Colts\nNew York Giants").text, "New York Giants");
        assert_eq!(c.clean("Indianapolis Colts rookie tight end").text, "rookie tight end");
        // at the end of a line, a short match is a link
        assert_eq!(
            c.clean("The storm reshaped communities across the coast last week... Read More").text,
            "The storm reshaped communities across the coast last week..."
        );
        // a line of fields is no sentence
        assert_eq!(
            c.clean("Posted by Zoe Tillman on November 06, 2012 in D.C. Courts | Permalink").text,
            "Zoe Tillman on November 06, 2012 in D.C. Courts | Permalink"
        );
    }

    #[test]
    fn islands_of_few_words_between_removals_go_too() {
        let text = "read more a b read more one two three four read more";
        let c = cleaner(&[("read more", Action::Remove)], 0)
            .with_settings(CleanSettings { islands: 3, ..Default::default() });
        assert_eq!(c.clean(text).text, "one two three four");
    }

    #[test]
    fn a_document_gets_the_rules_of_the_cluster_that_covers_it_most() {
        let m = MutableSet::defaults();
        let mut gallery = rule("g", "Photo gallery", Action::Remove, &m);
        gallery.cluster = Some(1);
        let mut image = rule("i", "Image", Action::Remove, &m);
        image.cluster = Some(1);
        let mut article = rule("a", "Article page", Action::Remove, &m);
        article.cluster = Some(0);
        let whole = rule("r", "read more", Action::Remove, &m);
        let rules = [gallery, image, article, whole];
        let c = Cleaner::from_rules(Tokenizer::Text, m.patterns(), &rules, 0).unwrap();
        // cluster 1 covers more of this page: its rules apply, cluster 0's do not
        assert_eq!(c.clean("Photo gallery Image one Article page read more").text, "one Article page");
        assert_eq!(c.clean("Article page Image two read more").text, "Image two");
    }

    #[test]
    fn seams_keep_newlines() {
        let c = cleaner(&[("read more", Action::Remove)], 0);
        assert_eq!(c.clean("first line\nread more\nsecond line").text, "first line\nsecond line");
        assert_eq!(c.clean("  nothing here  ").text, "nothing here");
    }

    #[test]
    fn the_title_line_is_the_last_repeat_of_the_first_line_that_is_not_the_sites_name() {
        let text = "Big news today | Site\nSite\nMenu\nBig news today\nby A. Writer\nShare\nBody text here.";
        let at = |s: &str| text.find(s).unwrap();
        let title = at("Big news today\nby");
        // "Site" is in the title too, but a single word; "Big news today" is the title line
        assert_eq!(title_line(text, 0, at("Body"), &[]), Some(title));
        assert_eq!(title_line(text, 0, title, &[]), None, "not inside the cut");
        // a line a rule matches whole is the site's name, not the page's title...
        let site = "Big news today for all | Site news daily\nSite news daily\nMenu\nBody";
        let name = site.find('\n').unwrap() + 1;
        let m = Match { start: name, end: name + "Site news daily".len(), rule: 0 };
        assert_eq!(title_line(site, 0, site.find("Body").unwrap(), &[]), Some(name));
        assert_eq!(title_line(site, 0, site.find("Body").unwrap(), &[m]), None);
        // ...unless it holds most of the title: the page's headline, which the site's other pages list
        let m = Match { start: title, end: title + "Big news today".len(), rule: 0 };
        assert_eq!(title_line(text, 0, at("Body"), &[m]), Some(title));
        // the title proper with a dateline after it on its line is the title too
        let dated = "Big news today | Site\nMenu\nBig news today, posted on Nov 6\nBody";
        assert_eq!(title_line(dated, 0, dated.find("Body").unwrap(), &[]), dated.find("Big news today,"));
        // a rule that matches part of it (a date, "today") does not make it the site's
        let part = Match { start: title + "Big news ".len(), end: title + "Big news today".len(), rule: 0 };
        assert_eq!(title_line(text, 0, at("Body"), &[part]), Some(title));
    }

    #[test]
    fn the_title_is_the_fullest_repeat_of_the_first_line_not_the_authors_name_in_it() {
        let text = "Big news from the city | Jane Q. Doeman | Site\nMenu\nBig news from the city\n\
            Share this now\nJane Q. Doeman\nMonday\nBody";
        let spans = |end: usize| title_line(text, 0, end, &[]).map(|at| &text[at..at + 5]);
        assert_eq!(spans(text.find("Monday").unwrap()), Some("Big n"));
        // the name alone, when the headline is not there
        let no_headline = text.replace("\nBig news from the city\n", "\nAn aside\n");
        let at = title_line(&no_headline, 0, no_headline.find("Monday").unwrap(), &[]).unwrap();
        assert!(no_headline[at..].starts_with("Jane Q. Doeman"));
    }

    #[test]
    fn the_title_matches_its_headline_across_typographic_quotes_and_dashes() {
        let text = "Man's Best Friend - It's Back\nMenu\nMan\u{2019}s Best Friend \u{2014} It\u{2019}s Back\nBody";
        assert_eq!(title_line(text, 0, text.find("Body").unwrap(), &[]), text.find("Man\u{2019}s"));
    }

    #[test]
    fn keep_title_stops_a_header_cut_at_the_title_and_removes_what_rules_match_below_it() {
        let text = "Big news today | Site\nMenu one two\nBig news today\nby A. Writer, July 3\nEmail this page\n\
            Share this now\nBody text here, long enough to be the article block.";
        let rules = [
            ("Menu one two", Action::Remove),
            ("Email this page", Action::Remove),
            ("July «number»", Action::Remove),
            ("Share this now", Action::CutBefore),
        ];
        let mut c = cleaner(&rules, 0);
        assert_eq!(c.clean(text).text, "Body text here, long enough to be the article block.");
        c.keep_title = true;
        // the byline stays whole, its date with it; what else rules match below the title goes
        assert_eq!(
            c.clean(text).text,
            "Big news today\nby A. Writer, July 3\nBody text here, long enough to be the article block."
        );
    }

    #[test]
    fn keep_title_keeps_a_title_that_a_rule_matches_whole() {
        // the site lists its headlines on every page, so a rule matches this page's headline too
        let text = "Big news today | Site\nMenu one two\nBig news today\nShare this now\n\
            Body text here, long enough to be the article block.\nTop stories\nBig news today";
        let rules = [
            ("Menu one two", Action::Remove),
            ("Big news today", Action::Remove),
            ("Share this now", Action::CutBefore),
        ];
        let mut c = cleaner(&rules, 0);
        c.keep_title = true;
        assert_eq!(
            c.clean(text).text,
            "Big news today\nBody text here, long enough to be the article block.\nTop stories",
            "the headline stays above the article, and goes from the list"
        );
    }

    #[test]
    fn a_headline_listed_on_other_pages_is_given_back_without_a_header_cut() {
        // no header string: the headline goes by a plain removal (the site lists it under "Most popular")
        let text = "Big news today | Site\nMenu one two\nBig news today\n\
            Body text here, long enough to be the article block.\nMost popular\nBig news today";
        let rules = [("Menu one two", Action::Remove), ("Big news today", Action::Remove)];
        let mut c = cleaner(&rules, 0);
        assert_eq!(c.clean(text).text, "| Site\nBody text here, long enough to be the article block.\nMost popular");
        c.keep_title = true;
        assert_eq!(
            c.clean(text).text,
            "| Site\nBig news today\nBody text here, long enough to be the article block.\nMost popular",
            "the copy above the article is given back, the listed one after it is not"
        );
    }

    #[test]
    fn a_headline_whose_head_a_rule_took_is_given_back_whole() {
        // the site's lists print the headline without its "…", so a rule matches only its head
        let text = "Big news from the Stats Impressive - Blog\nMenu one two\n\
            Big news from the Stats\u{2026} Impressive\n\
            Body text here, long enough to be the article block.";
        let rules = [("Menu one two", Action::Remove), ("Big news from the", Action::Remove)];
        let mut c = cleaner(&rules, 0).with_line_boundary(true);
        c.keep_title = true;
        let kept = c.clean(text).text;
        assert!(kept.contains("\nBig news from the Stats\u{2026} Impressive\nBody"), "{kept}");
    }

    #[test]
    fn a_headline_list_above_the_article_keeps_no_copy_of_the_title() {
        // the sidebar above the article lists this page's headline; the last copy before the article is its own
        let text = "Big news today | Site\nRecent posts\nBig news today\nOther story\nThe archive of the site\n\
            Big news today\nBody text here, long enough to be the article block, and one more line.\n\
            And a second line that is long enough to count as well, surely.";
        let rules = [("The archive of the site", Action::Remove)];
        let mut c = cleaner(&rules, 0);
        c.short_runs = 20;
        assert_eq!(
            c.clean(text).text,
            "Big news today\nBody text here, long enough to be the article block, and one more line.\n\
            And a second line that is long enough to count as well, surely."
        );
    }

    #[test]
    fn the_dateline_and_byline_above_the_article_stay_though_a_rule_matches_them() {
        // the site prints "«weekday», «month» «number», «number»" and "By «name»" on every page
        let text = "Big news today | Site\nMenu one two\nBy Jane Doe\nTuesday, November 6, 2012\n\
            Body text here, long enough to be the article block.\nFooter line here";
        let rules = [
            ("Menu one two", Action::Remove),
            ("By Jane Doe", Action::Remove),
            ("«weekday» «month» «number» «number»", Action::Remove),
            ("Footer line here", Action::Remove),
        ];
        let mut c = cleaner(&rules, 0);
        let body = "Body text here, long enough to be the article block.";
        assert_eq!(c.clean(text).text, format!("Big news today | Site\n{body}"));
        c.keep_title = true;
        assert_eq!(
            c.clean(text).text,
            format!("Big news today | Site\nBy Jane Doe\nTuesday, November 6, 2012\n{body}")
        );
        // only the lines right above the article: a menu line between them and the byline ends the search
        let menu_between = text.replace("Menu one two\nBy Jane Doe", "By Jane Doe\nMenu one two");
        assert_eq!(c.clean(&menu_between).text, format!("Big news today | Site\nTuesday, November 6, 2012\n{body}"));
        // and a dateline after the article is the footer's
        let below = format!("Big news today | Site\n{body}\nTuesday, November 6, 2012");
        assert_eq!(c.clean(&below).text, format!("Big news today | Site\n{body}"));
    }

    #[test]
    fn an_article_printed_twice_keeps_one_print_and_its_pull_quote() {
        let a = "The first paragraph of the article is long enough to count as a line.";
        let b = "The second paragraph of the article is long enough to count as well.";
        let c = "A third paragraph that only the full print of the article carries along.";
        let text = format!("Title line\n{a}\n{b}\nSubscribe now\n{a}\n{b}\n{c}\n{b}\nEnd");
        let mut cl = cleaner(&[], 0);
        assert_eq!(cl.clean(&text).text, text, "off: everything stays");
        cl.drop_reprints = true;
        // the second print of a and b goes; b alone again later (a pull quote) stays
        assert_eq!(cl.clean(&text).text, format!("Title line\n{a}\n{b}\nSubscribe now\n{c}\n{b}\nEnd"));
    }

    #[test]
    fn datelines_are_short_lines_with_a_year_a_month_or_a_byline() {
        for line in
            ["November 06, 2012", "Monday, 11.05.2012 / 12:34 AM / News", "By SVEN GRUNDBERG", "Nov• 01•12", "Sept 27"]
        {
            assert!(is_dateline(line), "{line}");
        }
        for line in [
            "The Washington Post",
            "Maybe later",
            "Marching orders",
            "",
            "In 2012 the council approved the budget for the coming year after a long debate",
        ] {
            assert!(!is_dateline(line), "{line}");
        }
    }

    #[test]
    fn short_runs_outside_the_article_block_go_but_the_title_stays() {
        let text = "Big news today | Site\nHome\nNews\nSection menu here\nBig news today\nBy A. Writer\n\
            Posted on the site today\n\
            The article has a first line that is long enough to count here.\n\
            And a second line that is long enough to count as well, surely.\n\
            Share this story\nRelated\nOther story one\nOther story two\nLeave a comment on the site";
        let rules = [
            ("Section menu here", Action::Remove),
            ("Posted on the site today", Action::Remove),
            ("Share this story", Action::Remove),
            ("Leave a comment on the site", Action::Remove),
        ];
        let mut c = cleaner(&rules, 0);
        let kept = c.clean(text).text;
        assert!(kept.starts_with("Big news today | Site\nHome") && kept.contains("Other story two"), "{kept}");
        c.short_runs = 20;
        let article = "The article has a first line that is long enough to count here.\n\
            And a second line that is long enough to count as well, surely.";
        assert_eq!(c.clean(text).text, format!("Big news today\nBy A. Writer\n{article}"));
        // menu lines in the title's run, above the title, go too
        let one_run = text.replace("Section menu here\n", "");
        assert_eq!(c.clean(&one_run).text, format!("Big news today\nBy A. Writer\n{article}"));
        // the title inside the article block: the menu above it in the block goes too
        let in_block = one_run.replace("Posted on the site today\n", "");
        assert_eq!(c.clean(&in_block).text, format!("Big news today\nBy A. Writer\n{article}"));
        // a run above the article that holds a sentence is no short run, but its menu above the title goes
        let lead = "The lead paragraph is a sentence that is long enough to count.\n\
            Its second sentence is also long enough to count as a line.";
        let with_lead = one_run.replace("By A. Writer\n", &format!("By A. Writer\n{lead}\n"));
        assert_eq!(c.clean(&with_lead).text, format!("Big news today\nBy A. Writer\n{lead}\n{article}"));
        // without a line repeating the title, the run above the article is a short run like any other
        assert_eq!(c.clean(&text.replace("\nBig news today\n", "\nAn aside\n")).text, article);
        // long lines that read as no sentence are a headline list; a second part of the article stays
        let headlines = "Scientists discover a new species of frog in the rainforest\n\
            City council approves the budget for the coming year";
        let second = "The story goes on after the box, with a third line of text.\n\
            And a fourth line that ends the story, as stories tend to end.";
        assert_eq!(
            c.clean(&text.replace("Other story one\nOther story two", headlines)).text,
            format!("Big news today\nBy A. Writer\n{article}")
        );
        let kept = c.clean(&text.replace("Other story one\nOther story two", second)).text;
        assert!(kept.ends_with(second), "{kept}");
    }

    #[test]
    fn a_kept_title_gives_back_the_title_not_what_islands_joined_to_the_cut() {
        // no article: the header's and the footer's cuts meet over a short island, and the title stays
        let text = "A short note | Site\nA short note\nShare this now\nPrev and next post links go right here now\n\
            Comments follow below here\nA comment that is long enough to be a block of its own, really.";
        let rules = [("Share this now", Action::CutBefore), ("Comments follow below here", Action::CutAfter)];
        let mut c = cleaner(&rules, 0);
        c.islands = 10;
        c.keep_title = true;
        let out = c.clean(text);
        assert_eq!(out.text, "A short note");
        assert_eq!(out.spans.last().map(|s| (s.kind, s.end)), Some((SpanKind::CutAfter, text.len())));
    }

    #[test]
    fn a_footer_string_matching_above_the_article_does_not_make_a_menu_the_article() {
        // "Talks resume today" is a headline list's entry on other pages, a footer string there; here it
        // is the page's own title, above the article
        let text = "Home\nScores\nTeams\nTalks resume today\nFriday, 11.06.2012\n\
            The talks between the league and the players resumed on Friday in the city.\n\
            Both sides said the meeting was a first step, and more would follow soon.\n\
            Top headlines\nTalks resume today\nAnother story";
        let rules = [("Talks resume today", Action::CutAfter), ("Top headlines", Action::Remove)];
        let c = cleaner(&rules, 0);
        let out = c.clean(text).text;
        assert!(out.contains("The talks between") && out.contains("more would follow soon."), "{out}");
        assert!(!out.contains("Another story"), "{out}");
    }

    #[test]
    fn a_long_title_above_the_sites_name_is_not_the_article() {
        // the site's name is a line of its own at the top and at the foot; an editor made the foot's a
        // footer string. A <title> of eight words or more above the name is no article either.
        let text = "Biscuit Home Decor and Bedding for Everyone at Home\nMenu\nDailyCandy\nBiscuit Home\n\
            Sheets shopping can be a snooze, but this new shop makes it fun again.\n\
            The decorator launched the site with the help of two friends this week.\n\
            DailyCandy\nAbout us\nContact";
        let rules = [("DailyCandy", Action::CutAfter), ("Menu", Action::Remove)];
        let c = cleaner(&rules, 0).with_line_boundary(true);
        let out = c.clean(text).text;
        assert!(out.contains("Sheets shopping") && out.contains("this week."), "{out}");
        assert!(!out.contains("About us"), "{out}");
    }

    #[test]
    fn a_footer_string_that_is_the_pages_own_title_does_not_make_a_comment_the_article() {
        // the site's sidebar links this page ("Aleph: comments") on every other page, after the article:
        // an editor made it a footer string. Here it is the <title> and the headline, and the comments
        // below the real footer outweigh the article.
        let comment = "I read this twice and it said more to me the second time than the first, thank you.";
        let text = format!(
            "Aleph: comments\nHome\nAleph: comments\n\
             This space is moderated but not censored, and you can post your comments in any language.\n\
             To read the comments in another language please click on a flag in the sidebar.\n\
             Previous post\n{comment}\n{comment}\n{comment}\nLeave a reply"
        );
        let rules =
            [("Aleph: comments", Action::CutAfter), ("Previous post", Action::CutAfter), ("Home", Action::Remove)];
        let out = cleaner(&rules, 0).with_line_boundary(true).clean(&text).text;
        assert!(out.contains("This space is moderated") && out.contains("in the sidebar."), "{out}");
        assert!(!out.contains("I read this twice"), "{out}");
    }

    #[test]
    fn in_html_the_head_is_never_the_article_block() {
        let m = MutableSet::defaults();
        let rules = vec![rule("r0", "<p> Menu </p>", Action::Remove, &m)];
        let c = Cleaner::from_rules(Tokenizer::Html, m.patterns(), &rules, 0).unwrap();
        let text = "<html><head>\n<meta name=\"description\" content=\"one two three four five six seven eight \
            nine ten eleven twelve thirteen\">\n</head><BODY>\n<p> Menu </p>\n\
            <p>The article text has enough words to be the block of this page.</p>\n</body></html>";
        let matches = c.matches(text);
        assert_eq!(matches.len(), 1, "the menu is matched");
        let (s, e) = c.article_block(text, &matches).unwrap();
        assert!(text[s..e].contains("The article text") && !text[s..e].contains("<meta"), "{:?}", &text[s..e]);
    }

    #[test]
    fn visible_words_leave_out_tags_scripts_and_styles() {
        let html =
            "<p class=\"a b c\">One two\nthree</p><script>var x = 1;\nvar y = 2;</script>\n<a\n href=\"x y\">four</a>";
        assert_eq!(visible_words_per_line(html), vec![2, 1, 0, 0, 1]);
        let css = "<style>p { color: red; }</style>Five six";
        assert_eq!(visible_words_per_line(css), vec![2]);
    }

    #[test]
    fn cut_after_removes_the_tail_outside_the_article_block() {
        let c = cleaner(&[("Leave a reply", Action::CutAfter), ("Menu Home", Action::CutBefore)], 0);
        let text = "Menu Home\nNews\nthe article has a long first line of many words here\nLeave a reply\nBob says hi";
        let out = c.clean(text);
        assert_eq!(out.text, "News\nthe article has a long first line of many words here");
        assert_eq!(out.spans.iter().map(|s| s.kind).collect::<Vec<_>>(), vec![SpanKind::CutBefore, SpanKind::CutAfter]);
    }

    #[test]
    fn a_short_match_inside_a_line_does_not_split_the_article_block() {
        // "Menu Home" mid-line is no boundary: the block starts at the text's start, and nothing is cut.
        let c = cleaner(&[("Menu Home", Action::CutBefore)], 0);
        let text = "one two three Menu Home four five six seven eight nine ten";
        assert_eq!(c.clean(text).text, text);
    }

    #[test]
    fn cut_strings_on_the_wrong_side_of_the_article_block_cut_nothing() {
        let c = cleaner(&[("MUST WATCH", Action::CutBefore), ("Leave a reply", Action::CutAfter)], 0);
        // a header string after the article, a footer string before it
        let text = "Leave a reply\none two three four five six seven eight nine ten\nMUST WATCH\nshort";
        assert_eq!(
            c.clean(text).text,
            "Leave a reply\none two three four five six seven eight nine ten\nMUST WATCH\nshort"
        );
    }

    #[test]
    fn the_last_header_and_the_first_footer_cut() {
        let c = cleaner(&[("Menu", Action::CutBefore), ("Reply", Action::CutAfter)], 0);
        let text = "Menu\na\nMenu\nb\none two three four five six seven eight nine\nReply\nc\nReply\nd";
        let out = c.clean(text);
        assert_eq!(out.text, "b\none two three four five six seven eight nine");
        assert_eq!(out.spans[0], Span { start: 0, end: 11, kind: SpanKind::CutBefore, rules: vec![0] });
        assert_eq!(out.spans[1].start, text.find("Reply").unwrap());
    }
}
