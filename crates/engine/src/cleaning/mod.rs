//! Cleaning a document with a source's rules, order-invariantly (thesis §3.4.1), as a pipeline of named
//! stages over the document's text (for HTML, the page view's text: no stage looks at markup).
//!
//! Every match of every rule is found on the original text (`matching.rs`). Then the stages run, each in
//! its file with its doc and tests, in the order of the registry (`registry.rs`), under one contract
//! (`stage.rs`): match filters (`line-boundary`, `sentence-heads`, `sentence-tails`, `own-line`,
//! `clusters`) drop matches; what `remove` rules match is removed (the union of their matches, intervals
//! closer than the merge gap joined, `spans.rs`); span stages (`cuts` … `specks`) change what is removed,
//! reading and writing one per-page state. Last, what a `keep` rule matches is given back, whatever removed it
//! (`keep.rs`). Every stage can be turned off ([`CleanSettings::stages`]); every removed or given-back
//! range names the rules that matched it and the stages that decided ([`Cleaner::explain`]), from the
//! trace the same run records. A stage reads the document's lines and words through [`Layout`], built
//! once, so no stage rescans a line per match.

mod article_element;
mod author_box;
mod block;
mod block_names;
mod clusters;
mod comments;
mod compiled;
mod cut_lines;
mod cuts;
mod datelines;
mod explain;
mod furniture;
mod headline;
mod islands;
mod keep;
mod layout;
mod line_boundary;
mod line_slots;
mod link_boxes;
mod link_density;
mod list_items;
mod matching;
mod own_line;
mod preformatted;
mod regions;
mod registry;
mod repeats;
mod reprints;
mod sentence_heads;
mod sentence_tails;
mod short_runs;
mod slots;
mod spans;
mod specks;
mod stage;
mod threads;
mod title;
pub mod work;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use regex::Regex;
use serde::Serialize;

use crate::error::Result;
use crate::lines;
use crate::matcher::TokenMatcher;
use crate::mutable::{MutablePattern, MutableSet};
use crate::rules::{Action, Rule, RulesFile};
use crate::synthesis::tokens_synthesize_to;
use crate::tokens::Tokenizer;
use crate::view::Structure;

pub use crate::clean_settings::{CleanSettings, Stage, Stages};
use block::article_block_passing;
pub use block::{article_block, splits_runs};
pub use compiled::{RULE_CACHE_BYTES, RULE_REGEX_BYTES, RegexBudget, TOTAL_REGEX_BYTES};
pub use explain::{Decision, Explanation, Reason};
pub use layout::Layout;
pub use list_items::LIST_ITEMS;
pub use spans::{normalize, render};
pub use title::title_line;

use explain::Trace;
use spans::{absorb, by_stage, kept_runs, merge_spans, run_lines, union};
use stage::{PageState, Step};

/// Lines with at least this many words count toward choosing the article block.
pub const LONG_LINE_WORDS: usize = 8;

/// A match inside a line splits the text into runs (for choosing the article block) only if it has at
/// least this many words.
pub const SPLIT_WORDS: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpanKind {
    /// Matches of `remove` rules (and what the merge gap joined to them), or what a stage removed.
    Removed,
    /// From the document's start to the end of a header string.
    CutBefore,
    /// From a footer string to the document's end.
    CutAfter,
}

/// A removed span of the text: every rule that matched inside it (indices into [`Cleaner::rule_ids`])
/// and the stages that removed it or joined it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub kind: SpanKind,
    pub rules: Vec<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<Stage>,
}

impl Span {
    pub fn new(start: usize, end: usize, kind: SpanKind, rules: Vec<u32>) -> Span {
        Span { start, end, kind, rules, stages: Vec::new() }
    }
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
    /// Holds fixed text a reader sees (see [`Rule::shows_fixed_text`]): only such rules mark list items
    /// and frame edges.
    fixed: bool,
    /// Made by an editor (see [`editor_made`]): no stage gives back what it removes.
    editor: bool,
    /// Mined as a line of its own ([`Rule::own_line`]): stage `own-line` reads it.
    own_line: bool,
}

/// Whether an editor made `rule`: marked by her hand (a span marked as template or kept, [`Rule::editor`],
/// even where a mined string has its tokens), or carrying no statistics because no mining counted it (a
/// trim, a hand-written regex; no cluster's nor single-word line's rule). Its removals are her explicit
/// decision: stages that give text back leave them removed.
pub fn editor_made(rule: &Rule) -> bool {
    rule.editor || (rule.df == 0 && rule.tf == 0 && rule.cluster.is_none() && !lines::is_line_id(&rule.id))
}

impl ActiveRule {
    fn of(rule: &Rule) -> ActiveRule {
        ActiveRule {
            id: rule.id.clone(),
            action: rule.action,
            cluster: rule.cluster,
            // of the single-word lines, only labels ("Topics:") mark anything; tags are no text a reader
            // sees (`«upcase» </a>` is any linked name)
            fixed: if lines::line_of(rule).is_some() { lines::is_label(rule) } else { rule.shows_fixed_text() },
            editor: editor_made(rule),
            own_line: rule.own_line,
        }
    }
}

/// A compiled set of rules, with the settings of the stages.
#[derive(Debug, Clone)]
pub struct Cleaner {
    tokenizer: Tokenizer,
    settings: CleanSettings,
    rules: Vec<ActiveRule>,
    matcher: TokenMatcher,
    /// Rule index of each string of the matcher.
    token_rules: Vec<u32>,
    regex_rules: Vec<(u32, Regex)>,
    /// Line rules by their line (see [`crate::lines`]).
    line_rules: HashMap<String, u32>,
    /// The lines of the rules' examples (stage `cut-lines`).
    cut_lines: cut_lines::CutLines,
    /// The lines of annexed line rules ([`Cleaner::annex`]): what `line_rules` would hold had they been
    /// compiled.
    annexed_lines: HashSet<String>,
    any_cut: bool,
    any_cluster: bool,
    any_editor: bool,
    /// Region rules (stage `regions`), among `rules`.
    regions: regions::RegionRules,
}

impl Cleaner {
    /// The cleaner of a rules file: its accepted rules, and with `include_pending` the pending ones at or
    /// above the chosen cutoff; its region rules the same way.
    pub fn new(file: &RulesFile, include_pending: bool) -> Result<Cleaner> {
        Ok(Cleaner::from_rules(file.tokenizer, &file.mutable, file.active_rules(include_pending), file.merge_gap)?
            .with_regions(file.regions.iter().filter(|r| r.is_active(include_pending)))
            .with_settings(file.clean_settings()))
    }

    pub fn with_settings(mut self, settings: CleanSettings) -> Self {
        self.settings = settings;
        self
    }

    /// The tokenizer its rules were mined with.
    pub fn tokenizer(&self) -> Tokenizer {
        self.tokenizer
    }

    /// The settings the cleaner runs with.
    pub fn settings(&self) -> &CleanSettings {
        &self.settings
    }

    /// Turns `stage` on or off in place.
    pub fn set_stage(&mut self, stage: Stage, on: bool) {
        self.settings.stages.set(stage, on);
    }

    /// Turns `stage` on or off.
    pub fn with_stage(mut self, stage: Stage, on: bool) -> Self {
        self.settings.stages.set(stage, on);
        self
    }

    /// Stages `line-boundary` and `sentence-heads` on or off, as a rules file's `line_boundary` switches
    /// them (see [`RulesFile::line_boundary`]).
    pub fn with_line_boundary(self, on: bool) -> Self {
        self.with_stage(Stage::LineBoundary, on)
            .with_stage(Stage::SentenceHeads, on)
            .with_stage(Stage::SentenceTails, on)
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
        let mut token_strings: Vec<&[String]> = Vec::new();
        let mut token_rules = Vec::new();
        let mut regex_rules = Vec::new();
        let mut line_rules = HashMap::new();
        let mut cut_lines = cut_lines::CutLines::default();
        let mut budget = RegexBudget::default();
        for rule in rules {
            let idx = active.len() as u32;
            let synthesized =
                !rule.tokens.is_empty() && tokens_synthesize_to(&rule.tokens, tokenizer, mutable, &rule.regex);
            let line = lines::line_of(rule).filter(|l| !line_rules.contains_key(*l));
            if let Some(line) = line {
                line_rules.insert(line.to_string(), idx);
            } else {
                if synthesized {
                    token_strings.push(&rule.tokens);
                    token_rules.push(idx);
                } else {
                    regex_rules.push((idx, budget.compile(&rule.id, &rule.regex)?));
                }
                cut_lines.add(idx, rule);
            }
            active.push(ActiveRule::of(rule));
        }
        let matcher = TokenMatcher::of_tokens(tokenizer, mutable.clone(), &token_strings);
        let any_cut = active.iter().any(|r| r.action.is_cut());
        let any_cluster = active.iter().any(|r| r.cluster.is_some());
        let any_editor = active.iter().any(|r| r.editor);
        Ok(Cleaner {
            tokenizer,
            settings: CleanSettings { merge_gap, ..CleanSettings::default() },
            rules: active,
            matcher,
            token_rules,
            regex_rules,
            line_rules,
            cut_lines,
            annexed_lines: HashSet::new(),
            any_cut,
            any_cluster,
            any_editor,
            regions: Default::default(),
        })
    }

    /// Sets rule `rule`'s action without compiling the rules again: the oracle editor tries each string
    /// as a plain removal and as a cut, and the UI's preview shows a pending suggested cut as a cut.
    pub fn set_action(&mut self, rule: u32, action: Action) {
        self.rules[rule as usize].action = action;
        self.any_cut = self.rules.iter().any(|r| r.action.is_cut());
    }

    /// Adds `rule` to the cleaner's rules without compiling it into its matchers, and returns its index:
    /// [`Cleaner::matches`] never finds it; its matches come from a cleaner of its own, renumbered. The
    /// oracle editor tries an editor's new rule on its training pages this way without compiling the
    /// source's thousands of rules again.
    pub fn annex(&mut self, rule: &Rule) -> u32 {
        let idx = self.rules.len() as u32;
        // as compiling it would: a line rule's example is its line; another rule's example lines may cut
        let line = lines::line_of(rule).filter(|l| !self.line_rules.contains_key(*l));
        if line.is_none_or(|l| !self.annexed_lines.insert(l.to_string())) {
            self.cut_lines.add(idx, rule);
        }
        self.rules.push(ActiveRule::of(rule));
        self.any_cut |= rule.action.is_cut();
        self.any_cluster |= rule.cluster.is_some();
        self.any_editor |= editor_made(rule);
        (self.rules.len() - 1) as u32
    }

    /// The source's mutable patterns, as its rules' slots read them.
    pub(crate) fn patterns(&self) -> &MutableSet {
        self.matcher.mutable()
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

    /// The removed spans of `text`.
    pub fn spans(&self, text: &str) -> Vec<Span> {
        self.spans_of(text, &self.matches(text))
    }

    /// The removed spans of `text`, given its [`Cleaner::matches`].
    pub fn spans_of(&self, text: &str, matches: &[Match]) -> Vec<Span> {
        self.run(&Layout::new(text), matches).0
    }

    /// [`Cleaner::spans_of`] for a page whose lines sit in `structure` (an HTML page's view): the stages
    /// that read a page's elements (`regions`, `comments`, `link-density`) run as `chaff clean` runs them.
    pub fn spans_on(&self, text: &str, matches: &[Match], structure: Option<&Structure>) -> Vec<Span> {
        self.run_on(&Layout::new(text), matches, structure).0
    }

    pub fn clean(&self, text: &str) -> Cleaned {
        let spans = self.spans(text);
        let removed_bytes = spans.iter().map(|s| s.end - s.start).sum();
        Cleaned { text: render(text, &spans), spans, removed_bytes }
    }

    /// The pipeline: the rules' removals, then each span stage of the registry that is on, in order, and
    /// the keep rules last. Returns the removed spans and the trace of what stages and keep rules gave
    /// back (what `--explain` reads; recorded as the stages run, so explaining costs no second run).
    pub(crate) fn run(&self, doc: &Layout, matches: &[Match]) -> (Vec<Span>, Trace) {
        self.run_on(doc, matches, None)
    }

    /// [`Cleaner::run`] on a page whose lines sit in `structure` (an HTML page's view): stage `regions`
    /// reads it.
    pub(crate) fn run_on(&self, doc: &Layout, matches: &[Match], structure: Option<&Structure>) -> (Vec<Span>, Trace) {
        let text = doc.text();
        // no rule, no cleaning: the stages refine what rules find, they do not clean alone
        if self.rules.is_empty() {
            return (Vec::new(), Trace::default());
        }
        let (keeps, template): (Vec<Match>, Vec<Match>) =
            matches.iter().partition(|m| self.rules[m.rule as usize].action == Action::Keep);
        let cuts = self.any_cut && self.settings.on(Stage::Cuts);
        // with the cuts off, a cut string is removed as any template string is
        let removes = |m: &&Match| {
            let action = self.rules[m.rule as usize].action;
            action == Action::Remove || (!cuts && action.is_cut())
        };
        let removed = union(text, template.iter().filter(removes), self.settings.merge_gap, SpanKind::Removed);
        // what editor-made rules remove stays removed, whatever a stage would give back
        let editor: Vec<(usize, usize)> = if self.any_editor {
            let ranges: Vec<(usize, usize)> = template
                .iter()
                .filter(|m| self.rules[m.rule as usize].editor && removes(m))
                .map(|m| (m.start, m.end))
                .collect();
            normalize(&ranges)
        } else {
            Vec::new()
        };
        let mut page = PageState::new(doc, template, removed, editor);
        (page.cuts, page.threads) = (cuts, self.settings.on(Stage::Threads));
        (page.structure, page.keeps) = (structure, keeps);
        for stage in Stage::ALL {
            if let Step::Spans(step) = stage.step()
                && self.settings.on(stage)
            {
                step.run(self, &mut page);
            }
        }
        let mut trace = page.trace;
        let mut spans = keep::keep_matches(page.spans, &page.keeps, &mut trace);
        explain::every_rule(&mut spans, &page.template);
        (spans, trace)
    }
}

#[cfg(test)]
mod tests;
