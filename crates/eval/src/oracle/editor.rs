//! The oracle editor at work on one source: every rule of the source (mined, automatic, and the ones it
//! makes), which of them apply, the stages, and the training pages. A decision is tried by applying it to
//! a cleaner that holds every rule (re-cleaning only the pages it can change) and undoing it; the one
//! chosen is then made through the draft's actions, as the UI makes it, and its impact over the source
//! read before it stands (`judge.rs`). What is scored is what `chaff clean` of the draft's rules file does.

use std::collections::{HashMap, HashSet};

use crate::clean_settings::Stage;
use crate::cleaning::{Cleaner, Explanation, Match, Span};
use crate::draft::Draft;
use crate::error::Result;
use crate::impact::Baseline;
use crate::mutable::MutableSet;
use crate::rules::{Action, Rule, RulesFile};
use crate::verified::Verified;

use super::choices::{Choice, choices, narrowed};
use super::judge::{self, Refusal};
use super::page::{Stretch, TrainingPage};

/// Stretches the editor looks at over a source before she gives up (twelve a decision): those where no
/// decision on offer is shown to help are passed over, and the next decision is looked for further on.
const LOOKS: usize = 12 * super::MAX_DECISIONS;

/// What a decision changes: rules set, a stage turned off.
type ChoiceKey = (Vec<(usize, Option<Action>)>, Option<Stage>);

/// The least a decision must add to the training pages' summed F1 (a hundredth of a page): an editor
/// does not spend a decision on a word or two.
const MIN_GAIN: f64 = 0.01;

/// Tokens a rule the editor makes or trims keeps, at least: one word is no template ("after", "BY").
pub(super) const MIN_TOKENS: usize = 2;

/// Training pages a rule the editor makes must match on.
const MIN_PAGES: usize = 2;

/// Where a rule of the editor's list came from: how the draft makes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// The source's rules file (mined, automatic): the draft decides it.
    File,
    /// A span of a training page marked (as template, or kept).
    Mark { page: usize, start: usize, end: usize },
    /// Rule `of` trimmed.
    Trim { of: usize, front: usize, back: usize },
    /// A region rule of the rules file (its element): the draft decides it as a region rule.
    Region,
}

/// A decision tried on the training pages.
pub(super) struct Trial {
    /// What it adds to the pages' summed F1.
    pub gain: f64,
    /// The pages it changes: their removed words and F1 after it.
    after: Vec<(usize, Vec<bool>, f64)>,
    pub refusal: Option<Refusal>,
}

/// How the editor's checks went, for the trace and the tests.
#[derive(Debug, Clone, Default)]
pub(super) struct Counts {
    /// Decisions refused, by the kind of refusal.
    pub refused: HashMap<&'static str, usize>,
    /// Decisions refused after they were made in the draft (their impact read there).
    pub undone: usize,
    /// Pages where the draft's rules file cleaned otherwise than the editor's trial said.
    pub drift: usize,
    /// Whether each refusal is described in `refusals`.
    pub trace: bool,
    pub refusals: Vec<String>,
}

pub(super) struct Editor<'a> {
    /// Every rule below, inactive ones too: `state` says which apply and how.
    pub cleaner: Cleaner,
    mutable: MutableSet,
    pub rules: Vec<Rule>,
    origin: Vec<Origin>,
    index: HashMap<String, usize>,
    /// Each rule's action, `None` when it does not apply.
    pub state: Vec<Option<Action>>,
    pub pages: Vec<TrainingPage<'a>>,
    /// The pages each rule matches on: only those change when it is decided.
    pages_of: Vec<Vec<usize>>,
    /// Each page's removed words and F1 under the current decisions.
    removed: Vec<Vec<bool>>,
    f1: Vec<f64>,
    /// Stretches where no decision helped, by page.
    hopeless: Vec<Vec<Stretch>>,
    /// Stretches looked at so far.
    looks: usize,
    /// The decisions, made with the UI's actions.
    pub draft: Draft,
    /// The draft's rules file as it stands: what the evaluation cleans with.
    pub file: RulesFile,
    /// The training pages cleaned with `file`: a decision's impact is read against it.
    base: Baseline,
    /// Each page's article block under `file`, as the impact finds it: the words of the gold inside it
    /// are the article a decision must not take.
    blocks: Vec<Option<(usize, usize)>>,
    /// Pages the editor verified (those she made a decision on), when she keeps them.
    verified: Option<Verified>,
    /// Rules a cut check refused under the current decisions (the check reads every page).
    cut_refused: HashMap<usize, Option<Refusal>>,
    /// What each decision was, for the trace.
    pub log: Vec<String>,
    pub counts: Counts,
}

impl<'a> Editor<'a> {
    /// The editor of `draft` (its rules file: every rule compiled, the active ones on; cleaned with
    /// `settings`) on `pages` (the text the cleaner reads, and the gold), `base` its pages cleaned with
    /// the draft's rules file. With `verify`, each page the editor makes a decision on is verified, and
    /// a later decision made on another page that changes it is refused.
    pub fn new(
        draft: Draft,
        base: Baseline,
        pages: Vec<(&'a str, &'a crate::score::Gold)>,
        verify: bool,
    ) -> Result<Editor<'a>> {
        let file = draft.rules_file();
        let mutable = MutableSet::new(file.mutable.clone())?;
        let cleaner = Cleaner::with_patterns(file.tokenizer, &mutable, file.rules.iter(), file.merge_gap)?
            .with_settings(file.clean_settings());
        let mut cleaner = cleaner;
        let mut rules = file.rules.clone();
        let mut state: Vec<Option<Action>> =
            file.rules.iter().map(|r| file.is_active(r, true).then_some(r.action)).collect();
        let mut origin = vec![Origin::File; file.rules.len()];
        // the region candidates after the strings, each a rule whose matches are its lines
        for region in &file.regions {
            let rule = super::regions::stand_in(region);
            let r = cleaner.annex(&rule) as usize;
            debug_assert_eq!(r, rules.len());
            rules.push(rule);
            state.push(region.is_active(true).then_some(region.action));
            origin.push(Origin::Region);
        }
        let pages: Vec<TrainingPage<'a>> = pages
            .into_iter()
            .enumerate()
            .map(|(p, (text, gold))| {
                let mut matches = cleaner.raw_matches(text);
                matches.sort_unstable();
                let regions = super::regions::matches_on(&base, p, &file.regions, file.rules.len());
                let active = active(&cleaner, &state, text, &matches, &regions);
                let initial = cleaner.spans_on(text, &active, base.structure(p));
                TrainingPage::new(text, gold, matches, regions, &initial)
            })
            .collect();
        let mut pages_of = vec![Vec::new(); rules.len()];
        for (p, page) in pages.iter().enumerate() {
            for m in page.matches.iter().chain(&page.regions) {
                let of: &mut Vec<usize> = &mut pages_of[m.rule as usize];
                if of.last() != Some(&p) {
                    of.push(p);
                }
            }
        }
        let index = rules.iter().enumerate().map(|(i, r)| (r.id.clone(), i)).collect();
        let n = pages.len();
        let mut editor = Editor {
            cleaner,
            mutable,
            rules,
            origin,
            index,
            state,
            pages,
            pages_of,
            removed: Vec::new(),
            f1: Vec::new(),
            hopeless: vec![Vec::new(); n],
            looks: 0,
            draft,
            file,
            blocks: (0..n).map(|p| base.block(p)).collect(),
            base,
            verified: verify.then(Verified::default),
            cut_refused: HashMap::new(),
            log: Vec::new(),
            counts: Counts::default(),
        };
        editor.removed = (0..n).map(|p| editor.pages[p].removed(&editor.spans(p))).collect();
        editor.f1 = (0..n).map(|p| editor.pages[p].f1_of(&editor.removed[p])).collect();
        // the draft's rules file, before any decision, must clean as the rules file it was opened on
        editor.follow_engine(editor.engine_pages());
        Ok(editor)
    }

    /// The matches of page `p` that apply under the current decisions, after the stages that drop matches.
    fn active(&self, p: usize) -> Vec<Match> {
        let page = &self.pages[p];
        active(&self.cleaner, &self.state, page.text, &page.matches, &page.regions)
    }

    /// Whether rule `r` stands for a region rule.
    pub fn is_region(&self, r: usize) -> bool {
        self.origin[r] == Origin::Region
    }

    /// Page `p`'s removed spans under the current decisions.
    fn spans(&self, p: usize) -> Vec<Span> {
        self.cleaner.spans_on(self.pages[p].text, &self.active(p), self.base.structure(p))
    }

    pub fn explain(&self, p: usize) -> Explanation {
        self.cleaner.explain_on(self.pages[p].text, &self.active(p), self.base.structure(p))
    }

    /// Applies `choice` to the editor's state and returns what undoes it.
    fn apply(&mut self, choice: &Choice) -> Choice {
        let mut undo = Choice { what: choice.what, sets: Vec::new(), stage_off: None };
        for &(r, action) in &choice.sets {
            undo.sets.push((r, self.state[r]));
            self.state[r] = action;
            if let Some(a) = action {
                self.cleaner.set_action(r as u32, a);
            }
        }
        if let Some(stage) = choice.stage_off {
            self.cleaner.set_stage(stage, false);
        }
        undo
    }

    fn undo(&mut self, undo: Choice, stage_off: Option<Stage>) {
        for (r, action) in undo.sets.into_iter().rev() {
            self.state[r] = action;
            if let Some(a) = action {
                self.cleaner.set_action(r as u32, a);
            }
        }
        if let Some(stage) = stage_off {
            self.cleaner.set_stage(stage, true);
        }
    }

    /// The pages `choice` can change.
    fn touched(&self, choice: &Choice) -> Vec<usize> {
        if choice.stage_off.is_some() {
            return (0..self.pages.len()).collect();
        }
        let mut pages: Vec<usize> = choice.sets.iter().flat_map(|&(r, _)| self.pages_of[r].iter().copied()).collect();
        pages.sort_unstable();
        pages.dedup();
        pages
    }

    /// The evidence of rule `r` set to `action`, when that makes it remove more (see [`judge::widens`]):
    /// not a generic string, no match inside an article, no cut the cut check refuses.
    fn evidence(&mut self, r: usize, action: Option<Action>) -> Option<Refusal> {
        let rule = &self.rules[r];
        if judge::generic(rule) {
            return Some(Refusal::Generic { rule: rule.id.clone() });
        }
        let cut = action.is_some_and(Action::is_cut);
        if let Some(refusal) = judge::against_article(&self.pages, &self.blocks, &self.pages_of[r], r, &rule.id, cut) {
            return Some(refusal);
        }
        if cut {
            let base = &self.base;
            if let Some(refusal) = self.cut_refused.entry(r).or_insert_with(|| judge::cut_check(base, rule)) {
                return Some(refusal.clone());
            }
        }
        None
    }

    /// `choice` tried on the training pages: what it adds to their summed F1, and why it is refused, if
    /// it is: a rule it makes remove more has evidence against it (a stage turned off makes remove
    /// more every rule whose matches the stage dropped), it takes an article word from a page, or it
    /// lowers pages' scores more than it raises others' (see [`judge::outweighs`]).
    fn try_choice(&mut self, choice: &Choice) -> Trial {
        let refused = |refusal| Trial { gain: f64::NEG_INFINITY, after: Vec::new(), refusal: Some(refusal) };
        for &(r, action) in &choice.sets {
            if judge::widens(self.state[r], action)
                && let Some(refusal) = self.evidence(r, action)
            {
                return refused(refusal);
            }
            // a trim turns the rule off and its trimmed form on: that one goes on removing the rest
            if let [_] = choice.sets[..]
                && let Some((template, article)) =
                    judge::drops_template(&self.pages, &self.blocks, &self.pages_of[r], r, self.state[r], action)
            {
                return refused(Refusal::DropsTemplate { rule: self.rules[r].id.clone(), template, article });
            }
        }
        let pages = self.touched(choice);
        // the matches that apply before a stage is turned off (sorted), to find those it lets through
        let before: Vec<Vec<Match>> = match choice.stage_off {
            Some(_) => pages.iter().map(|&p| self.active(p)).collect(),
            None => Vec::new(),
        };
        let undo = self.apply(choice);
        let mut widened: Vec<usize> = Vec::new();
        let mut after: Vec<(usize, Vec<bool>, f64)> = Vec::with_capacity(pages.len());
        for (k, &p) in pages.iter().enumerate() {
            let active = self.active(p);
            if let Some(before) = before.get(k) {
                widened.extend(active.iter().filter(|m| before.binary_search(m).is_err()).map(|m| m.rule as usize));
            }
            let spans = self.cleaner.spans_on(self.pages[p].text, &active, self.base.structure(p));
            let removed = self.pages[p].removed(&spans);
            let f1 = self.pages[p].f1_of(&removed);
            after.push((p, removed, f1));
        }
        self.undo(undo, choice.stage_off);
        widened.sort_unstable();
        widened.dedup();
        for r in widened {
            let action = self.state[r];
            if action != Some(Action::Keep)
                && let Some(refusal) = self.evidence(r, action)
            {
                return refused(refusal);
            }
        }
        let mut refusal = None;
        let (mut hurt, mut helped, mut loss) = (Vec::new(), 0usize, 0.0f64);
        for (p, removed, f1) in &after {
            let lost = self.pages[*p].article_lost(&self.removed[*p], removed, self.blocks[*p]);
            if lost > 0 {
                refusal = Some(Refusal::TakesArticle { page: *p, words: lost });
                break;
            }
            if *f1 < self.f1[*p] - 1e-9 {
                hurt.push(*p);
                loss += self.f1[*p] - f1;
            } else if *f1 > self.f1[*p] + 1e-9 {
                helped += 1;
            }
            // a stage turned off changes every page: what it gives back must be article on each
            if choice.stage_off.is_some() {
                let words = self.pages[*p].template_back(&self.removed[*p], removed);
                if words > 0 {
                    refusal = Some(Refusal::GivesTemplate { page: *p, words });
                    break;
                }
            }
        }
        let gain: f64 = after.iter().map(|(p, _, f)| f - self.f1[*p]).sum();
        if refusal.is_none()
            && let Some(&page) = hurt.first()
            && !judge::outweighs(helped, hurt.len(), gain + loss, loss)
        {
            refusal = Some(Refusal::Hurts { page });
        }
        Trial { gain, after, refusal }
    }

    /// Makes the next decision: on the training page with the most wrong words, the largest wrong stretch,
    /// the decision that adds most to the training pages' F1 of those shown harmless on the other pages.
    /// Returns false when no decision helps.
    pub fn decide(&mut self) -> bool {
        let mut worst: Vec<(usize, usize)> =
            (0..self.pages.len()).map(|p| (self.pages[p].wrong_of(&self.removed[p]), p)).filter(|w| w.0 > 0).collect();
        worst.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        // a decision offered again (for another stretch: a stage off, a rule on many lines) is tried once:
        // had it helped, it would have been made
        let mut tried: HashSet<ChoiceKey> = HashSet::new();
        for (_, p) in worst {
            for stretch in self.pages[p].stretches_of(&self.removed[p]) {
                if self.hopeless[p].contains(&stretch) {
                    continue;
                }
                if self.looks == LOOKS {
                    return false;
                }
                self.looks += 1;
                let mut ranked: Vec<(f64, Choice, Trial)> = Vec::new();
                let mut offered = choices(self, p, stretch);
                let mut k = 0;
                while k < offered.len() {
                    let choice = offered[k].clone();
                    k += 1;
                    if !tried.insert((choice.sets.clone(), choice.stage_off)) {
                        continue;
                    }
                    let trial = self.try_choice(&choice);
                    match &trial.refusal {
                        Some(refusal) => {
                            *self.counts.refused.entry(refusal.kind()).or_default() += 1;
                            if self.counts.trace {
                                let what = self.describe(&choice);
                                self.counts.refusals.push(format!("page {p}: {what} ({:.3}): {refusal:?}", trial.gain));
                            }
                            // narrower decisions are tried too: a removal for a cut, fewer tokens, a
                            // smaller span
                            if refusal.narrowing_helps() {
                                offered.extend(narrowed(self, &choice));
                            }
                        }
                        None if trial.gain >= MIN_GAIN => ranked.push((trial.gain, choice, trial)),
                        None => {}
                    }
                }
                ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
                for (gain, choice, trial) in ranked {
                    if self.make(&choice, trial, p) {
                        self.log_decision(&choice, gain);
                        return true;
                    }
                }
                self.hopeless[p].push(stretch);
            }
        }
        false
    }

    /// Makes `choice` (tried as `trial`) in the draft, reads its impact over the training pages and
    /// keeps it unless the impact refuses it (then it is undone). Returns whether it stands.
    fn make(&mut self, choice: &Choice, trial: Trial, made_on: usize) -> bool {
        let steps = match super::act::make(self, choice) {
            Ok(steps) => steps,
            Err(_) => {
                *self.counts.refused.entry("not made by the draft").or_default() += 1;
                return false;
            }
        };
        let after = self.draft.rules_file();
        // the training pages as the engine cleans them after the decision, read once for its gain and kept
        let mut engine = Vec::new();
        let refusal = match self.base.advance(&after) {
            Ok(impact) => judge::impact_refusal(&self.pages, &self.blocks, &impact, made_on, self.verified.as_ref())
                .or_else(|| {
                    engine = self.engine_pages();
                    (!self.gains_in_engine(&engine)).then_some(Refusal::NoGain)
                }),
            Err(_) => Some(Refusal::NoImpact),
        };
        if let Some(refusal) = refusal {
            *self.counts.refused.entry(refusal.kind()).or_default() += 1;
            self.counts.undone += 1;
            for _ in 0..steps {
                self.draft.undo();
            }
            // best effort: the baseline goes back to the rules it had (they cleaned before)
            let _ = self.base.advance(&self.file);
            return false;
        }
        self.apply(choice);
        for (p, removed, f1) in trial.after {
            self.removed[p] = removed;
            self.f1[p] = f1;
        }
        self.file = after;
        self.follow_file();
        self.blocks = (0..self.pages.len()).map(|p| self.base.block(p)).collect();
        self.cut_refused.clear();
        self.follow_engine(engine);
        if let Some(verified) = self.verified.as_mut() {
            let id = self.base.docs()[made_on].id.clone();
            // the page as the new rules clean it is what the editor verified
            let _ = crate::verified::accept(&self.file, verified, self.base.docs(), Some(&[id]), true);
        }
        true
    }

    /// Where rule `r` came from, for the draft: a marked span, a trim of another rule, or the file.
    pub(super) fn made_as(&self, r: usize) -> Made<'a> {
        match self.origin[r] {
            Origin::File => Made::File,
            Origin::Mark { page, start, end } => Made::Mark { text: self.pages[page].text, start, end },
            Origin::Trim { of, front, back } => Made::Trim { of, front, back },
            Origin::Region => Made::Region,
        }
    }

    /// What `choice` does, for the trace.
    fn describe(&self, choice: &Choice) -> String {
        let mut what = vec![choice.what.to_string()];
        for &(r, action) in &choice.sets {
            let rule = &self.rules[r];
            // a region and a line rule have no tokens: their ids name them (`region:div.x`, `line:Text`)
            let named =
                if self.is_region(r) || rule.tokens.is_empty() { rule.id.clone() } else { rule.tokens.join(" ") };
            what.push(format!("{} `{named}`", action.map_or("off", |a| a.name())));
        }
        if let Some(stage) = choice.stage_off {
            what.push(stage.name().to_string());
        }
        what.join(" ")
    }

    fn log_decision(&mut self, choice: &Choice, gain: f64) {
        let what = self.describe(choice);
        self.log.push(format!("{what} (+{gain:.3})"));
    }
}

/// How the draft makes one of the editor's rules.
pub(super) enum Made<'t> {
    File,
    Mark { text: &'t str, start: usize, end: usize },
    Trim { of: usize, front: usize, back: usize },
    Region,
}

/// `start..end` of `text` less `front` tokens at its start and `back` at its end, if a token is left.
fn shrink(
    text: &str,
    start: usize,
    end: usize,
    front: usize,
    back: usize,
    tokenizer: crate::tokens::Tokenizer,
) -> Option<(usize, usize)> {
    let mut tokens = Vec::new();
    tokenizer.for_each(&text[start..end], |s, e| tokens.push((start + s, start + e)));
    let kept = tokens.get(front..tokens.len().checked_sub(back)?)?;
    Some((kept.first()?.0, kept.last()?.1))
}

/// Of `matches` on `text`, those of rules that apply under `state`, after the stages that drop matches,
/// and the lines of the region rules that apply (`regions`, which no filter drops) when stage `regions`
/// is on: what the engine's stages run on.
fn active(cleaner: &Cleaner, state: &[Option<Action>], text: &str, matches: &[Match], regions: &[Match]) -> Vec<Match> {
    let on: Vec<Match> = matches.iter().filter(|m| state[m.rule as usize].is_some()).copied().collect();
    let mut out = cleaner.stage_matches(text, on);
    if cleaner.settings().on(Stage::Regions) {
        let before = out.len();
        out.extend(regions.iter().filter(|m| state[m.rule as usize].is_some()));
        if out.len() > before {
            out.sort_unstable();
        }
    }
    out
}

mod follow;
mod making;
#[cfg(test)]
mod tests;
