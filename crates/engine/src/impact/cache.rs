//! Every page's matches, found once: a change of rules re-runs only the stages on the pages it touches.
//!
//! A rule's matches on a page depend on the rule alone (every rule matches the original text, whatever the
//! others do), so the baseline keeps each page's raw matches of every rule it has met (the "universe": the
//! rules file's rules, whatever their status, and the rules later changes brought). The cleaner of another
//! set of rules is then the stages over those matches, the active ones renumbered: no matcher is compiled and
//! no page is read again, except by a rule new to the universe (found once, on every page). A page whose
//! filtered matches, with their rules' actions, are those the stages ran on before comes out as it did:
//! the stages do not run again.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::cleaning::{Cleaner, Layout, Match, editor_made};
use crate::error::Result;
use crate::mutable::MutableSet;
use crate::rules::{Action, Rule, RulesFile};
use crate::tokens::Tokenizer;

/// What a rule's matches depend on: its id (line rules match by it), regex and tokens.
type Key = (String, String, Vec<String>);

fn key(r: &Rule) -> Key {
    (r.id.clone(), r.regex.clone(), r.tokens.clone())
}

/// What the stages read of a matched rule, besides where it matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Props {
    action: Action,
    editor: bool,
    cluster: Option<u32>,
}

impl Props {
    fn of(r: &Rule) -> Props {
        Props { action: r.action, editor: editor_made(r), cluster: r.cluster }
    }
}

/// Every page's raw matches of every rule met, and the matches the stages ran on under the baseline's rules.
#[derive(Debug, Clone)]
pub(super) struct MatchCache {
    tokenizer: Tokenizer,
    mutable: MutableSet,
    universe: Vec<Rule>,
    keys: HashMap<Key, u32>,
    /// Per page, rule = index into `universe`, in no particular order.
    raw: Vec<Vec<Match>>,
    /// Per page, the filtered matches the baseline's stages ran on (rule = index into `universe`), sorted as
    /// the cleaner sorted them.
    filtered: Vec<Vec<Match>>,
}

/// A rules file's active rules as the cached cleaning runs them: the stages' cleaner (rules annexed, no
/// matcher compiled) and each rule's index both ways, with the raw matches of the rules the universe lacks.
pub(super) struct Plan {
    cleaner: Cleaner,
    /// Universe index (the new rules after the universe's) → the cleaner's rule, if active.
    to_cleaner: Vec<Option<u32>>,
    /// The cleaner's rule → universe index.
    to_universe: Vec<u32>,
    /// Props of every active rule, by universe index.
    props: Vec<Option<Props>>,
    /// Rules new to the universe and their raw matches per page (rule = universe index, counted on from the
    /// universe's length).
    fresh: Vec<Rule>,
    fresh_raw: Vec<Vec<Match>>,
}

impl Plan {
    /// Universe indices (new rules included) of `rules`.
    pub(super) fn indices(&self, cache: &MatchCache, rules: &[&Rule]) -> Vec<u32> {
        rules
            .iter()
            .filter_map(|r| {
                let k = key(r);
                cache
                    .keys
                    .get(&k)
                    .copied()
                    .or_else(|| self.fresh.iter().position(|f| key(f) == k).map(|p| (cache.universe.len() + p) as u32))
            })
            .collect()
    }
}

impl MatchCache {
    /// Every page of `texts` matched by every rule of `file`, and cleaned with its active rules: the cache
    /// and each page's removed spans' state, as [`super::Baseline`] keeps them.
    pub(super) fn build(file: &RulesFile, texts: &[&str]) -> Result<MatchCache> {
        let mutable = MutableSet::new(file.mutable.clone())?;
        let universe: Vec<Rule> = file.rules.clone();
        let keys = universe.iter().enumerate().map(|(i, r)| (key(r), i as u32)).collect();
        let all = Cleaner::with_patterns(file.tokenizer, &mutable, &universe, 0)?;
        let raw = texts.par_iter().map(|t| all.raw_matches(t)).collect();
        Ok(MatchCache {
            tokenizer: file.tokenizer,
            mutable,
            universe,
            keys,
            raw,
            filtered: vec![Vec::new(); texts.len()],
        })
    }

    /// Whether the cached matches hold for `file`: same tokenizer and mutable patterns.
    pub(super) fn serves(&self, file: &RulesFile) -> bool {
        self.tokenizer == file.tokenizer && self.mutable.patterns() == file.mutable.as_slice()
    }

    /// The plan of `file`'s active rules; the rules the universe lacks are matched on every page of `texts`.
    pub(super) fn plan(&self, file: &RulesFile, include_pending: bool, texts: &[&str]) -> Result<Plan> {
        let active: Vec<&Rule> = file.active_rules(include_pending).collect();
        let mut fresh: Vec<Rule> = Vec::new();
        let mut fresh_keys: HashMap<Key, u32> = HashMap::new();
        let mut to_universe = Vec::with_capacity(active.len());
        for r in &active {
            let k = key(r);
            let u = match self.keys.get(&k).or_else(|| fresh_keys.get(&k)) {
                Some(&u) => u,
                None => {
                    let u = (self.universe.len() + fresh.len()) as u32;
                    fresh_keys.insert(k, u);
                    fresh.push((*r).clone());
                    u
                }
            };
            to_universe.push(u);
        }
        let n = self.universe.len() + fresh.len();
        let mut to_cleaner = vec![None; n];
        let mut props = vec![None; n];
        for (c, (&u, r)) in to_universe.iter().zip(&active).enumerate() {
            to_cleaner[u as usize] = Some(c as u32);
            props[u as usize] = Some(Props::of(r));
        }
        let fresh_raw = if fresh.is_empty() {
            Vec::new()
        } else {
            let probe = Cleaner::with_patterns(file.tokenizer, &self.mutable, &fresh, 0)?;
            let base = self.universe.len() as u32;
            texts
                .par_iter()
                .map(|t| {
                    let mut ms = probe.raw_matches(t);
                    ms.iter_mut().for_each(|m| m.rule += base);
                    ms
                })
                .collect()
        };
        let mut cleaner =
            Cleaner::with_patterns(file.tokenizer, &self.mutable, std::iter::empty::<&Rule>(), file.merge_gap)?
                .with_settings(file.clean_settings());
        for r in &active {
            cleaner.annex(r);
        }
        // region rules after the string rules: the string rules' indices stay those above
        let cleaner = cleaner.with_regions(file.regions.iter().filter(|r| r.is_active(include_pending)));
        Ok(Plan { cleaner, to_cleaner, to_universe, props, fresh, fresh_raw })
    }

    /// Pages on which a rule of `rules` (universe indices, new rules included) matches.
    pub(super) fn pages_matching(&self, plan: &Plan, rules: &[u32]) -> Vec<usize> {
        let n = self.universe.len() + plan.fresh.len();
        let mut wanted = vec![false; n];
        for &u in rules {
            wanted[u as usize] = true;
        }
        (0..self.raw.len())
            .into_par_iter()
            .filter(|&i| {
                let fresh = plan.fresh_raw.get(i).map_or(&[][..], Vec::as_slice);
                self.raw[i].iter().chain(fresh).any(|m| wanted[m.rule as usize])
            })
            .collect()
    }

    /// Page `i` cleaned with `plan`'s rules (its region rules reading `structure`, where the page's lines
    /// sit): its removed spans with its layout (for the article block), and
    /// the filtered matches the stages ran on (rule = universe index). `before`: the props of the baseline's
    /// active rules; when the filtered matches and their props are those of the baseline, the stages are not
    /// run again and `None` is returned for the spans.
    pub(super) fn clean<'t>(
        &self,
        plan: &Plan,
        i: usize,
        text: &'t str,
        structure: Option<&crate::view::Structure>,
        before: Option<&[Option<Props>]>,
    ) -> (Layout<'t>, Option<Vec<crate::cleaning::Span>>, Vec<Match>) {
        let fresh = plan.fresh_raw.get(i).map_or(&[][..], Vec::as_slice);
        let raw: Vec<Match> = self.raw[i]
            .iter()
            .chain(fresh)
            .filter_map(|m| plan.to_cleaner[m.rule as usize].map(|rule| Match { rule, ..*m }))
            .collect();
        let layout = Layout::new(text);
        let filtered = plan.cleaner.stage_matches_in(&layout, raw);
        let universal: Vec<Match> =
            filtered.iter().map(|m| Match { rule: plan.to_universe[m.rule as usize], ..*m }).collect();
        if let Some(before) = before {
            let same = universal.len() == self.filtered[i].len()
                && universal.iter().zip(&self.filtered[i]).all(|(a, b)| {
                    a == b && before.get(a.rule as usize).copied().flatten() == plan.props[a.rule as usize]
                });
            if same {
                return (layout, None, universal);
            }
        }
        let (spans, _) = plan.cleaner.run_on(&layout, &filtered, structure);
        (layout, Some(spans), universal)
    }

    /// The props of `file`'s active rules by universe index (for [`MatchCache::clean`]'s comparison).
    pub(super) fn props_of(&self, file: &RulesFile, include_pending: bool) -> Vec<Option<Props>> {
        let mut props = vec![None; self.universe.len()];
        for r in file.active_rules(include_pending) {
            if let Some(&u) = self.keys.get(&key(r)) {
                props[u as usize] = Some(Props::of(r));
            }
        }
        props
    }

    /// Takes `plan`'s new rules into the universe (their matches kept) and sets the filtered matches of the
    /// pages cleaned with it.
    pub(super) fn take(&mut self, plan: Plan, filtered: Vec<(usize, Vec<Match>)>) {
        let Plan { fresh, fresh_raw, .. } = plan;
        for r in fresh {
            self.keys.insert(key(&r), self.universe.len() as u32);
            self.universe.push(r);
        }
        for (raw, more) in self.raw.iter_mut().zip(fresh_raw) {
            raw.extend(more);
        }
        for (i, f) in filtered {
            self.filtered[i] = f;
        }
    }
}
