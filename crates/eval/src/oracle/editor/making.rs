//! The rules the editor makes as she works: a span of a page marked (as template, or kept), a rule
//! trimmed, a region named from the elements around a line. Each joins the editor's rules inactive, its
//! matches on every training page found once; a decision then turns it on.

use crate::cleaning::{Cleaner, Match};
use crate::editing;
use crate::rules::{Action, Rule};

use super::{Editor, MIN_PAGES, MIN_TOKENS, Origin, shrink};

impl Editor<'_> {
    /// The rule `rule` is (by id) among the editor's, adding it (inactive) if new: compiled apart, its
    /// matches on every page found once.
    fn adopt(&mut self, rule: Rule, origin: Origin) -> Option<usize> {
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
        self.origin.push(origin);
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
        let r = self.adopt(rule, Origin::Mark { page: p, start, end })?;
        (self.pages_of[r].len() >= MIN_PAGES.min(self.pages.len())).then_some(r)
    }

    /// The region rule of `element` among the editor's rules, adding it (inactive) if new, as an editor
    /// names it from a line of the page in view: its lines on every training page found once. `None`
    /// when it is on fewer than [`MIN_PAGES`] training pages (an element of one page is no template).
    pub fn region_of_element(&mut self, element: &str) -> Option<usize> {
        let region = crate::rules::region::RegionRule::accepted(element, Action::Remove);
        let r = match self.index.get(&region.id()) {
            Some(&r) => r,
            None => {
                let rule = super::super::regions::stand_in(&region);
                let r = self.cleaner.annex(&rule);
                let mut on = Vec::new();
                for (p, page) in self.pages.iter_mut().enumerate() {
                    let lines = self.base.region_lines(p, &region);
                    if !lines.is_empty() {
                        on.push(p);
                        page.regions.extend(lines.into_iter().map(|(start, end)| Match { start, end, rule: r }));
                        page.regions.sort_unstable();
                    }
                }
                self.pages_of.push(on);
                self.state.push(None);
                self.origin.push(Origin::Region);
                self.index.insert(rule.id.clone(), r as usize);
                self.rules.push(rule);
                r as usize
            }
        };
        (self.pages_of[r].len() >= MIN_PAGES.min(self.pages.len())).then_some(r)
    }

    /// The selectors an editor can name a region by from the line of page `p` starting at byte
    /// `line_start` (see [`crate::regions::named_elements`]); none on a page without structure (text).
    pub fn elements_at(&self, p: usize, line_start: usize) -> Vec<String> {
        let Some(structure) = self.base.structure(p) else { return Vec::new() };
        crate::regions::named_elements(structure, self.pages[p].line_of(line_start))
    }

    /// Rule `r` trimmed by `front` and `back` tokens (see [`editing::trim`]), among the editor's rules;
    /// a marked span is marked smaller instead (the draft trims only rules it holds).
    pub fn trimmed(&mut self, r: usize, front: usize, back: usize) -> Option<usize> {
        if self.is_region(r) {
            return None;
        }
        if let Origin::Mark { page, start, end } = self.origin[r] {
            let (start, end) = shrink(self.pages[page].text, start, end, front, back, self.cleaner.tokenizer())?;
            return self.rule_of_span(page, start, end, self.rules[r].action, usize::MAX);
        }
        let rule = editing::trim(&self.rules[r], front, back, self.cleaner.tokenizer(), &self.mutable).ok()?;
        (rule.tokens.len() >= MIN_TOKENS).then_some(())?;
        self.adopt(rule, Origin::Trim { of: r, front, back })
    }
}
