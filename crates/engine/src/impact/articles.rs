//! Where each page's article is, for the impact's "inside the article": the article block its accepted and
//! pending rules leave. A baseline of the accepted rules alone (the tuning UI's, `chaff clean` without
//! `--include-pending`) would know no article on a source nothing is accepted of yet: each page one run,
//! its footer "article". The pending rules are the engine's best knowledge of the template, so the
//! article is found with them counted, and found again on the pages a decision cleans again (on every
//! page when a decision moves a pending rule, which the accepted rules' cleaning does not show).

use rayon::prelude::*;

use super::{Baseline, changed_rules, state_of};
use crate::cleaning::Cleaner;
use crate::error::Result;
use crate::rules::region::RegionRule;
use crate::rules::{Rule, RulesFile};

impl Baseline {
    /// Where document `i`'s article is, to tell the words a change removes inside it from those outside:
    /// its article block as the accepted and the pending rules at or above the cutoff clean it, whether
    /// or not the baseline counts the pending ones (they are the engine's best knowledge of the template).
    pub fn article(&self, i: usize) -> Option<(usize, usize)> {
        self.articles.as_ref().map_or(self.states[i].block, |a| a[i])
    }

    /// The article blocks of pages `pages` as `file`'s accepted and pending rules clean them, kept as
    /// [`Baseline::article`]'s (nothing when the baseline counts the pending rules: its states' blocks are those).
    pub(super) fn refresh_articles(&mut self, file: &RulesFile, pages: &[usize]) -> Result<()> {
        if self.articles.is_none() || pages.is_empty() {
            return Ok(());
        }
        let blocks: Vec<(usize, Option<(usize, usize)>)> = match &self.cache {
            Some(cache) if cache.serves(file) && !self.raw_markup(file) => {
                let texts = self.all_texts();
                let plan = cache.plan(file, true, &texts)?;
                pages
                    .par_iter()
                    .map(|&i| {
                        let (layout, spans, _) = cache.clean(&plan, i, texts[i], self.structure(i), None);
                        (i, state_of(&layout, spans.unwrap_or_default()).block)
                    })
                    .collect()
            }
            _ => {
                let cleaner = Cleaner::new(file, true)?;
                pages.par_iter().map(|&i| (i, self.clean(&cleaner, i).block)).collect()
            }
        };
        let articles = self.articles.as_mut().expect("checked above");
        for (i, block) in blocks {
            articles[i] = block;
        }
        Ok(())
    }

    /// Whether the accepted and pending rules (and pending region rules) of `after` clean otherwise than
    /// the baseline's: a pending rule rejected, edited or moved over the cutoff.
    pub(super) fn pending_differ(&self, after: &RulesFile) -> bool {
        fn active(f: &RulesFile) -> (Vec<&Rule>, Vec<&RegionRule>) {
            (f.active_rules(true).collect(), f.regions.iter().filter(|r| r.is_active(true)).collect())
        }
        let ((before_rules, before_regions), (after_rules, after_regions)) = (active(&self.file), active(after));
        !changed_rules(&before_rules, &after_rules).is_empty()
            || before_regions.len() != after_regions.len()
            || before_regions.iter().zip(&after_regions).any(|(a, b)| a.element != b.element || a.action != b.action)
    }
}
