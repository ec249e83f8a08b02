//! What each stage runs, in the pipeline's order: made from the one list of stages
//! (`crate::clean_settings::stage_list!`, where a stage's name, doc and settings are), whose lines name
//! the stage struct here that runs it (see `stage.rs`).
//!
//! Adding a stage: write its file (`src/cleaning/<stage>.rs`: a unit struct implementing `MatchFilter`
//! or `SpanStage`, with its tests), declare the module in `mod.rs`, and add its line to the list. Nothing
//! here changes: the list's lines name the stage modules, all in scope below.

use super::stage::Step;
use super::*; // the list's lines name the stage modules
use crate::clean_settings::{Stage, stage_list};

macro_rules! stage_steps {
    ($($variant:ident $name:literal $doc:literal $([$field:ident: $ty:ty])? => $step:expr,)*) => {
        impl Stage {
            /// What the stage runs.
            pub(crate) fn step(self) -> Step {
                match self {
                    $(Stage::$variant => $step,)*
                }
            }
        }
    };
}

stage_list!(stage_steps);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_runs_the_match_filters_before_every_span_stage() {
        let kinds: Vec<u8> = Stage::ALL
            .iter()
            .map(|s| match s.step() {
                Step::Filter(_) => 0,
                Step::Switch | Step::Spans(_) => 1,
            })
            .collect();
        assert!(kinds.windows(2).all(|w| w[0] <= w[1]), "filters first: {kinds:?}");
        assert_eq!(
            kinds.iter().filter(|k| **k == 0).count(),
            5,
            "line-boundary, sentence-heads, -tails, own-line, clusters"
        );
        assert!(Stage::ALL.iter().all(|s| !s.doc().is_empty() && !s.name().is_empty()));
    }
}
