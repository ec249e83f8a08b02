//! The editor following the engine once a decision stands: every rule's state from the draft's rules
//! file, and each page's removed words from the baseline (what `chaff clean` of that file does).

use crate::cleaning::Span;
use crate::rules::Action;

use super::{Editor, MIN_GAIN};

impl Editor<'_> {
    /// Takes each rule's state (on, and with which action) from the draft's rules file. A decision made
    /// through the draft can change rules besides those it names (its rules file is merged again with the
    /// mining: a kept span has left a suggested cut rejected), and every later trial has to
    /// start from the rules the engine cleans with: otherwise a trial counts a rule the engine no longer
    /// runs, and the same decision is offered again and again for a gain that never comes.
    pub(super) fn follow_file(&mut self) {
        let index = &self.index;
        let rules = self
            .file
            .rules
            .iter()
            .filter_map(|r| Some((*index.get(&r.id)?, self.file.is_active(r, true).then_some(r.action))));
        let regions = self
            .file
            .regions
            .iter()
            .filter_map(|r| Some((*index.get(&r.id())?, r.is_active(true).then_some(r.action))));
        let states: Vec<(usize, Option<Action>)> = rules.chain(regions).collect();
        for (r, state) in states {
            self.state[r] = state;
            if let Some(a) = state {
                self.cleaner.set_action(r as u32, a);
            }
        }
    }

    /// Each training page's removed words and F1 as the baseline (the draft's rules file cleaned by the
    /// engine) has them.
    pub(super) fn engine_pages(&self) -> Vec<(Vec<bool>, f64)> {
        (0..self.pages.len())
            .map(|p| {
                let spans: Vec<Span> = self
                    .base
                    .removed(p)
                    .iter()
                    .map(|&(s, e)| Span::new(s, e, crate::cleaning::SpanKind::Removed, Vec::new()))
                    .collect();
                let removed = self.pages[p].removed(&spans);
                let f1 = self.pages[p].f1_of(&removed);
                (removed, f1)
            })
            .collect()
    }

    /// Whether the decision just made in the draft, its pages now `engine` ([`Editor::engine_pages`]), adds
    /// at least [`MIN_GAIN`] to the training pages' summed F1 as the engine cleans them. A decision can do
    /// less there than its trial said: the draft may change other rules with it (see
    /// [`Editor::follow_file`]), and an editor who reads the impact after a decision undoes one that did
    /// not help.
    pub(super) fn gains_in_engine(&self, engine: &[(Vec<bool>, f64)]) -> bool {
        let gain: f64 = engine.iter().zip(&self.f1).map(|((_, after), before)| after - before).sum();
        gain >= MIN_GAIN
    }

    /// Takes each page's removed words from the baseline, `engine` ([`Editor::engine_pages`]), where they
    /// differ from the editor's: its scores follow what is evaluated.
    pub(super) fn follow_engine(&mut self, engine: Vec<(Vec<bool>, f64)>) {
        for (p, (removed, f1)) in engine.into_iter().enumerate() {
            if removed != self.removed[p] {
                self.counts.drift += 1;
                self.f1[p] = f1;
                self.removed[p] = removed;
            }
        }
    }
}
