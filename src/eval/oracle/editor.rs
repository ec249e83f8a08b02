//! The oracle editor at work on one source: every rule of the source (mined, automatic, and the ones it
//! makes), which of them apply, the stages, and the training pages. A decision is tried by applying it,
//! re-cleaning the pages it can change and undoing it; the one kept is also written to the rules file
//! the evaluation cleans with, so what is scored is what `chaff clean` of that file does.

use std::collections::{HashMap, HashSet};

use crate::clean_settings::Stage;
use crate::cleaning::{Cleaner, Explanation, Match, Span};
use crate::editing;
use crate::error::Result;
use crate::mutable::MutableSet;
use crate::rules::{Action, Rule, RulesFile, Status};

use super::choices::{Choice, choices};
use super::page::{Stretch, TrainingPage};

/// Stretches looked at for one decision before the editor gives up: none of the decisions on offer for
/// any of them helps the training pages.
const LOOKS: usize = 12;

/// What a decision changes: rules set, a stage turned off.
type ChoiceKey = (Vec<(usize, Option<Action>)>, Option<Stage>);

/// Pages and their F1 under a decision tried.
type PageScores = Vec<(usize, f64)>;

/// The least a decision must add to the training pages' summed F1 (a hundredth of a page): an editor
/// does not spend a decision on a word or two.
const MIN_GAIN: f64 = 0.01;

/// Tokens a rule the editor makes or trims keeps, at least: one word is no template ("after", "BY").
pub(super) const MIN_TOKENS: usize = 2;

/// A decision lowering any training page's F1 by more than this is not made.
const HARM: f64 = 0.005;

/// Training pages a rule the editor makes must match on.
const MIN_PAGES: usize = 2;

pub(super) struct Editor<'a> {
    /// Every rule below, inactive ones too: `state` says which apply and how.
    pub cleaner: Cleaner,
    mutable: MutableSet,
    pub rules: Vec<Rule>,
    index: HashMap<String, usize>,
    /// Each rule's action, `None` when it does not apply.
    pub state: Vec<Option<Action>>,
    pub pages: Vec<TrainingPage<'a>>,
    /// The pages each rule matches on: only those change when it is decided.
    pages_of: Vec<Vec<usize>>,
    /// Each page's F1 under the current decisions.
    f1: Vec<f64>,
    /// Stretches where no decision helped, by page.
    hopeless: Vec<Vec<Stretch>>,
    /// The rules file as decided so far.
    pub decided: RulesFile,
    /// What each decision was, for the trace.
    pub log: Vec<String>,
}

impl<'a> Editor<'a> {
    /// The editor of `file` (every rule of it compiled, the active ones on) on `pages` (text and gold).
    pub fn new(
        file: &RulesFile,
        settings: crate::cleaning::CleanSettings,
        pages: Vec<(&'a str, &'a crate::eval::score::Gold)>,
    ) -> Result<Editor<'a>> {
        let mutable = MutableSet::new(file.mutable.clone())?;
        let cleaner = Cleaner::with_patterns(file.tokenizer, &mutable, file.rules.iter(), file.merge_gap)?
            .with_settings(settings);
        let state: Vec<Option<Action>> =
            file.rules.iter().map(|r| file.is_active(r, true).then_some(r.action)).collect();
        let pages: Vec<TrainingPage<'a>> = pages
            .into_iter()
            .map(|(text, gold)| {
                let mut matches = cleaner.raw_matches(text);
                matches.sort_unstable();
                let initial = cleaner.spans_of(text, &active(&cleaner, &state, text, &matches));
                TrainingPage::new(text, gold, matches, &initial)
            })
            .collect();
        let mut pages_of = vec![Vec::new(); file.rules.len()];
        for (p, page) in pages.iter().enumerate() {
            for m in &page.matches {
                let of: &mut Vec<usize> = &mut pages_of[m.rule as usize];
                if of.last() != Some(&p) {
                    of.push(p);
                }
            }
        }
        let index = file.rules.iter().enumerate().map(|(i, r)| (r.id.clone(), i)).collect();
        let n = pages.len();
        let mut editor = Editor {
            cleaner,
            mutable,
            rules: file.rules.clone(),
            index,
            state,
            pages,
            pages_of,
            f1: Vec::new(),
            hopeless: vec![Vec::new(); n],
            decided: file.clone(),
            log: Vec::new(),
        };
        editor.f1 = (0..n).map(|p| editor.pages[p].f1(&editor.spans(p))).collect();
        Ok(editor)
    }

    pub fn f1_of(&self, p: usize) -> f64 {
        self.f1[p]
    }

    /// The matches of page `p` that apply under the current decisions, after the stages that drop matches.
    fn active(&self, p: usize) -> Vec<Match> {
        let page = &self.pages[p];
        active(&self.cleaner, &self.state, page.text, &page.matches)
    }

    /// Page `p`'s removed spans under the current decisions.
    fn spans(&self, p: usize) -> Vec<Span> {
        self.cleaner.spans_of(self.pages[p].text, &self.active(p))
    }

    pub fn explain(&self, p: usize) -> Explanation {
        self.cleaner.explain_matches(self.pages[p].text, &self.active(p))
    }

    /// The rule `rule` is (by id) among the editor's, adding it (inactive) if new: compiled apart, its
    /// matches on every page found once.
    pub fn adopt(&mut self, rule: Rule) -> Option<usize> {
        if let Some(&i) = self.index.get(&rule.id) {
            return Some(i);
        }
        let alone = Cleaner::with_patterns(self.cleaner.tokenizer(), &self.mutable, [&rule], 0).ok()?;
        let r = self.cleaner.annex(&rule);
        let mut on = Vec::new();
        for (p, page) in self.pages.iter_mut().enumerate() {
            let found = alone.raw_matches(page.text);
            if !found.is_empty() {
                on.push(p);
                page.matches.extend(found.into_iter().map(|m| Match { rule: r, ..m }));
                page.matches.sort_unstable();
            }
        }
        self.pages_of.push(on);
        self.state.push(None);
        self.index.insert(rule.id.clone(), r as usize);
        self.rules.push(rule);
        Some(r as usize)
    }

    /// The rule an editor makes of `start..end` of page `p` with `action`, if it has at most `max_tokens`.
    pub fn rule_of_span(
        &mut self,
        p: usize,
        start: usize,
        end: usize,
        action: Action,
        max_tokens: usize,
    ) -> Option<usize> {
        let text = self.pages[p].text;
        let rule = editing::rule_from_span(text, start, end, action, self.cleaner.tokenizer(), &self.mutable).ok()?;
        if rule.tokens.len() > max_tokens || rule.tokens.len() < MIN_TOKENS {
            return None;
        }
        // the UI shows on how many documents a marked span matches: one that matches only the page it was
        // marked on teaches nothing about the next page
        let r = self.adopt(rule)?;
        (self.pages_of[r].len() >= MIN_PAGES.min(self.pages.len())).then_some(r)
    }

    /// Rule `r` trimmed (see [`editing::trim`]).
    pub fn trimmed(&self, r: usize, front: usize, back: usize) -> Option<Rule> {
        editing::trim(&self.rules[r], front, back, self.cleaner.tokenizer(), &self.mutable).ok()
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

    /// What `choice` would add to the training pages' summed F1, and their new F1s.
    fn try_choice(&mut self, choice: &Choice) -> (f64, PageScores) {
        let pages = self.touched(choice);
        let undo = self.apply(choice);
        let after: Vec<(usize, f64)> = pages.iter().map(|&p| (p, self.pages[p].f1(&self.spans(p)))).collect();
        self.undo(undo, choice.stage_off);
        // an editor previews a rule on other pages too: one that costs any page article words is not made
        if after.iter().any(|&(p, f)| f < self.f1[p] - HARM) {
            return (f64::NEG_INFINITY, after);
        }
        let gain = after.iter().map(|&(p, f)| f - self.f1[p]).sum();
        (gain, after)
    }

    /// Makes the next decision: on the training page with the most wrong words, the largest wrong stretch,
    /// the decision that adds most to the training pages' F1. Returns false when no decision helps.
    pub fn decide(&mut self) -> bool {
        let spans: Vec<Vec<Span>> = (0..self.pages.len()).map(|p| self.spans(p)).collect();
        let mut worst: Vec<(usize, usize)> =
            spans.iter().enumerate().map(|(p, s)| (self.pages[p].wrong(s), p)).filter(|w| w.0 > 0).collect();
        worst.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut looks = 0;
        // a decision offered again (for another stretch: a stage off, a rule on many lines) is tried once:
        // had it helped, it would have been made
        let mut tried: HashSet<ChoiceKey> = HashSet::new();
        for (_, p) in worst {
            for stretch in self.pages[p].stretches(&spans[p]) {
                if self.hopeless[p].contains(&stretch) {
                    continue;
                }
                if looks == LOOKS {
                    return false;
                }
                looks += 1;
                let mut best: Option<(f64, Choice, PageScores)> = None;
                for choice in choices(self, p, stretch) {
                    if !tried.insert((choice.sets.clone(), choice.stage_off)) {
                        continue;
                    }
                    let (gain, after) = self.try_choice(&choice);
                    if gain > best.as_ref().map_or(MIN_GAIN, |b| b.0 + 1e-9) {
                        best = Some((gain, choice, after));
                    }
                }
                match best {
                    Some((gain, choice, after)) => {
                        self.apply(&choice);
                        for (p, f) in after {
                            self.f1[p] = f;
                        }
                        self.record(&choice, gain);
                        return true;
                    }
                    None => self.hopeless[p].push(stretch),
                }
            }
        }
        false
    }

    /// Writes `choice` into the decided rules file, as the UI would save it.
    fn record(&mut self, choice: &Choice, gain: f64) {
        let mut what = vec![choice.what.to_string()];
        for &(r, action) in &choice.sets {
            let rule = &self.rules[r];
            let at = match self.decided.rules.iter().position(|d| d.id == rule.id) {
                Some(i) => i,
                None => {
                    self.decided.rules.push(rule.clone());
                    self.decided.rules.len() - 1
                }
            };
            let d = &mut self.decided.rules[at];
            match action {
                Some(a) => {
                    d.status = Status::Accepted;
                    d.action = a;
                }
                None => d.status = Status::Rejected,
            }
            what.push(format!("{} `{}`", action.map_or("off", |a| a.name()), rule.tokens.join(" ")));
        }
        if let Some(stage) = choice.stage_off {
            self.decided.set_stage(stage, false);
            what.push(stage.name().to_string());
        }
        self.log.push(format!("{} (+{gain:.3})", what.join(" ")));
    }
}

/// Of `matches` on `text`, those of rules that apply under `state`, after the stages that drop matches.
fn active(cleaner: &Cleaner, state: &[Option<Action>], text: &str, matches: &[Match]) -> Vec<Match> {
    let on: Vec<Match> = matches.iter().filter(|m| state[m.rule as usize].is_some()).copied().collect();
    cleaner.stage_matches(text, on)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::score::Gold;
    use crate::mutable::MutableSet;
    use crate::rules::RulesFile;

    /// A text source's rules file holding `rules` (token strings, each accepted with its action).
    fn file(rules: &[(&str, Action)]) -> RulesFile {
        let mut file =
            RulesFile::parse("source = \"t\"\n[cutoff]\nauto = 50\nchosen = 50\n", std::path::Path::new("t.toml"))
                .unwrap();
        let mutable = MutableSet::defaults();
        file.mutable = mutable.patterns().to_vec();
        for (tokens, action) in rules {
            let symbols: Vec<_> = tokens.split(' ').map(crate::symbol::Symbol::decode).collect();
            let id = crate::symbol::stable_id(&symbols);
            file.rules.push(Rule::accepted(id, &symbols, *action, file.tokenizer, &mutable).unwrap());
        }
        file
    }

    const BODIES: [&str; 4] = [
        "The council voted on the new bridge after a long debate about its cost.",
        "Heavy rain flooded the market square and traders moved their stalls uphill.",
        "A local school won the regional chess final with a late checkmate.",
        "The museum opened a wing of old maps drawn by sailors and merchants.",
    ];

    fn pages() -> (Vec<String>, Vec<Gold>) {
        let texts =
            BODIES.iter().map(|b| format!("{b}\nShare this story with your friends on every network\n")).collect();
        (texts, BODIES.iter().map(|b| Gold::new(b)).collect())
    }

    fn editor<'a>(file: &RulesFile, texts: &'a [String], golds: &'a [Gold]) -> Editor<'a> {
        let pages = texts.iter().map(String::as_str).zip(golds).collect();
        Editor::new(file, file.clean_settings(), pages).unwrap()
    }

    #[test]
    fn an_article_printed_twice_is_scored_on_the_copy_the_rules_keep() {
        // each page prints its article, the share line, and a printable copy the cut takes
        let texts: Vec<String> = BODIES
            .iter()
            .map(|b| format!("{b}\nShare this story with your friends on every network\nPrintable copy\n{b}\n"))
            .collect();
        let golds: Vec<Gold> = BODIES.iter().map(|b| Gold::new(b)).collect();
        let file = file(&[("Share this story with your friends on every network", Action::CutAfter)]);
        let mut e = editor(&file, &texts, &golds);
        assert!(e.f1.iter().all(|&f| f == 1.0), "the kept copy is the article: {:?}", e.f1);
        assert!(!e.decide(), "nothing is wrong, nothing to decide: {:?}", e.log);
    }

    #[test]
    fn a_footer_no_candidate_covers_is_marked_as_template() {
        let (texts, golds) = pages();
        let file = file(&[]);
        let mut e = editor(&file, &texts, &golds);
        assert!(e.f1.iter().all(|&f| f < 0.8), "{:?}", e.f1);
        assert!(e.decide(), "a decision helps");
        assert!(e.log[0].starts_with("mark as template"), "{:?}", e.log);
        assert!(e.f1.iter().all(|&f| f == 1.0), "{:?}", e.f1);
        let rule = e.decided.rules.iter().find(|r| r.status == Status::Accepted).expect("the marked rule is saved");
        assert_eq!(rule.tokens.join(" "), "Share this story with your friends on every network");
        assert!(!e.decide(), "nothing is left wrong");
    }

    #[test]
    fn a_rule_eating_the_article_is_trimmed_or_rejected() {
        let (texts, golds) = pages();
        // the footer, and a string that also takes "The" of every article that starts with it
        let file =
            file(&[("Share this story with your friends on every network", Action::Remove), ("The", Action::Remove)]);
        let mut e = editor(&file, &texts, &golds);
        let before: f64 = e.f1.iter().sum();
        assert!(e.decide());
        assert!(e.log[0].starts_with("reject"), "{:?}", e.log);
        assert!(e.f1.iter().sum::<f64>() > before);
        let the = e.decided.rules.iter().find(|r| r.tokens == ["The"]).unwrap();
        assert_eq!(the.status, Status::Rejected);
    }

    #[test]
    fn a_marked_span_on_one_page_only_is_not_offered() {
        let (mut texts, golds) = pages();
        for t in &mut texts[1..] {
            *t = t.replace("Share this story with your friends on every network\n", "");
        }
        let mut e = editor(&file(&[]), &texts, &golds);
        assert!(!e.decide(), "the footer of one page makes no rule: {:?}", e.log);
    }
}
