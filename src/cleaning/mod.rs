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
//!
//! The steps after the union and the cuts each have a file: `block` chooses the article block, `head`
//! gives back the article's title, headline, dateline and byline that rules took, and `runs` judges the
//! kept runs around the block (islands, short runs, reprints). In HTML, `paragraphs` gives back the words
//! a removal took from a paragraph of prose (`</p><p>The`).

mod block;
mod compiled;
mod head;
mod layout;
mod paragraphs;
mod runs;
pub mod work;

use std::cell::RefCell;
use std::collections::HashMap;

use regex::Regex;
use serde::Serialize;

use crate::error::Result;
use crate::lines;
use crate::matcher::{Scratch, TokenMatcher};
use crate::mutable::{MutablePattern, MutableSet};
use crate::rules::{Action, Rule, RulesFile};
use crate::symbol::Symbol;
use crate::synthesis::synthesize;
use crate::tokens::Tokenizer;

pub use block::article_block;
pub use compiled::{RULE_CACHE_BYTES, RULE_REGEX_BYTES, RegexBudget, TOTAL_REGEX_BYTES};
pub use head::title_line;
pub use layout::Layout;

use head::{keep_title, lost_datelines, lost_headline, lost_html_datelines, lost_html_headline};
use runs::{drop_reprints, drop_short_runs, join_islands};

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
    /// See [`Rule::shows_fixed_text`]: in HTML, only such rules mark list items on the lines a reader sees.
    shows_fixed: bool,
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
    /// The page's title stays (see [`title_line`]), and the dateline and byline above the article; in
    /// HTML, the headline that repeats the `<title>`, and the dateline and byline above the article.
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
        let mut budget = RegexBudget::default();
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
                regex_rules.push((idx, budget.compile(&rule.id, &rule.regex)?));
            }
            active.push(ActiveRule {
                id: rule.id.clone(),
                action: rule.action,
                cluster: rule.cluster,
                // of the single-word lines, only labels ("Topics:") mark anything
                fixed: if lines::line_of(rule).is_some() { lines::is_label(rule) } else { rule.has_fixed_text() },
                shows_fixed: if lines::line_of(rule).is_some() {
                    lines::is_label(rule)
                } else {
                    rule.shows_fixed_text()
                },
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
        // the token matcher reads the text once
        work::add(text.len());
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
                loop {
                    let found = re.find_at(text, from);
                    // what the search read to find it (or to find nothing)
                    work::add(found.map_or(text.len(), |m| m.end()) - from);
                    let Some(m) = found else { break };
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
            let doc = Layout::new(text);
            // (a cut string is template wherever it stands)
            out.retain(|m| {
                doc.touches_line_boundary(m.start, m.end)
                    && (self.rules[m.rule as usize].action != Action::Remove || !opens_a_sentence(&doc, m))
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
        let html = self.tokenizer == Tokenizer::Html;
        // HTML's lines as a reader sees them, read once for the block, the head and the paragraphs
        let lines = if html { block::visible_lines(text) } else { String::new() };
        let doc = Layout::new(text);
        let seen = html.then(|| Layout::new(&lines));
        // the article block among all matches (cuts are placed around it); in HTML the head step needs it too
        let frame_block = if self.any_cut || (self.keep_title && html) {
            self.article_block_seen(&doc, seen.as_ref(), matches)
        } else {
            None
        };
        let mut spans = if self.any_cut {
            self.cut(&doc, matches, removed, frame_block)
        } else {
            join_islands(text, removed, self.islands)
        };
        // the article block of what is removed so far (if a step needs it), found again only when a step
        // changed it
        let text_title = self.keep_title && self.tokenizer == Tokenizer::Text;
        let mut block = if text_title || self.short_runs > 0 { article_block(text, &spans) } else { None };
        if text_title {
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
        let spans = if self.drop_reprints { drop_reprints(text, spans) } else { spans };
        let spans = match frame_block {
            Some((block_start, _)) if self.keep_title && html => give_back_html_head(text, &lines, spans, block_start),
            _ => spans,
        };
        match &seen {
            Some(seen) => paragraphs::give_back_paragraph_words(text, seen, spans),
            None => spans,
        }
    }

    /// `removed` with the cuts of the header and footer strings around the article block (of `matches`).
    fn cut(&self, doc: &Layout, matches: &[Match], removed: Vec<Span>, block: Option<(usize, usize)>) -> Vec<Span> {
        let text = doc.text();
        let Some((block_start, block_end)) = block else {
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
            Some(h) if self.keep_title && self.tokenizer == Tokenizer::Text => {
                keep_title(doc, spans, matches, self.merge_gap, h.end, footer.is_some())
            }
            _ => spans,
        }
    }

    pub fn clean(&self, text: &str) -> Cleaned {
        let spans = self.spans(text);
        let removed_bytes = spans.iter().map(|s| s.end - s.start).sum();
        Cleaned { text: render(text, &spans), spans, removed_bytes }
    }
}

/// HTML: `spans` less the headline, dateline and byline above the article block (see
/// `head::lost_html_headline` and `head::lost_html_datelines`).
fn give_back_html_head(text: &str, lines: &str, spans: Vec<Span>, block_start: usize) -> Vec<Span> {
    // they are above the block: only that part of the page is read
    let lines = &lines[..block_start];
    let mut spans = spans;
    for (start, end) in lost_html_datelines(lines, &spans) {
        spans = give_back(spans, start, end);
    }
    let Some(title) = block::title_element(text) else { return spans };
    let body = block::body_start(text).unwrap_or(0);
    match lost_html_headline(lines, &title, body, &spans, block_start) {
        Some((start, end)) => give_back(spans, start, end),
        None => spans,
    }
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

/// Whether a match bounds the runs the article block is chosen from: it is whole lines, or it has at
/// least [`SPLIT_WORDS`] words. A short match inside a line is most likely an idiom.
pub fn splits_runs(doc: &Layout, m: &Match) -> bool {
    doc.is_whole_lines(m.start, m.end) || doc.words(m.start, m.end) >= SPLIT_WORDS
}

/// Whether a short match starts a line of prose: a name at the head of a sentence ("Indianapolis Colts
/// rookie tight end ...") that the site's tag lists repeat, or an idiom ("You can ..."), not template.
fn opens_a_sentence(doc: &Layout, m: &Match) -> bool {
    // at the end of a line, a short match is a link ("Read More"), not a name
    let line_start = doc.line_start(m.start);
    if doc.words(m.start, m.end) >= SPLIT_WORDS
        || doc.newlines_in(m.start, m.end) > 0
        || !doc.is_blank(line_start, m.start)
    {
        return false;
    }
    let line_end = doc.line_end(m.end);
    // and a line of fields ("Posted by A. Writer on July 3 | Permalink") is no sentence
    doc.words(m.end, line_end) >= LONG_LINE_WORDS
        && doc.reads_as_prose(m.end, line_end)
        && !work::scan(&doc.text()[m.end..line_end]).contains(" | ")
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

/// Sorted, disjoint, non-empty byte ranges from any ranges.
pub fn normalize(spans: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = spans.iter().copied().filter(|s| s.1 > s.0).collect();
    v.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(v.len());
    for (s, e) in v {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
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

    fn rule(id: &str, tokens: &str, action: Action, mutable: &MutableSet) -> Rule {
        rule_for(Tokenizer::Text, id, tokens, action, mutable)
    }

    fn rule_for(tokenizer: Tokenizer, id: &str, tokens: &str, action: Action, mutable: &MutableSet) -> Rule {
        let symbols: Vec<Symbol> = tokens.split(' ').map(Symbol::decode).collect();
        Rule { bin: 99, ..Rule::accepted(id, &symbols, action, tokenizer, mutable).unwrap() }
    }

    /// A cleaner of `tokenizer` with `rules` (tokens separated by spaces, each rule numbered `r0`, `r1`…).
    pub(super) fn cleaner_for(tokenizer: Tokenizer, rules: &[(&str, Action)], gap: usize) -> Cleaner {
        let m = MutableSet::defaults();
        let rules: Vec<Rule> =
            rules.iter().enumerate().map(|(i, (t, a))| rule_for(tokenizer, &format!("r{i}"), t, *a, &m)).collect();
        Cleaner::from_rules(tokenizer, m.patterns(), &rules, gap).unwrap()
    }

    /// What a reader sees of HTML `text` once `c` has cleaned it.
    pub(super) fn read_cleaned(c: &Cleaner, text: &str) -> String {
        crate::render::html_text(text, &c.spans(text).iter().map(|s| (s.start, s.end)).collect::<Vec<_>>())
    }

    pub(super) fn cleaner(rules: &[(&str, Action)], gap: usize) -> Cleaner {
        cleaner_for(Tokenizer::Text, rules, gap)
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
