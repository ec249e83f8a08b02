//! The registry: every cleaning stage, in the order the pipeline runs them, one line each: its variant,
//! its name (the one used everywhere: `[clean] off`, `--off` and its help, `--explain`, the UI), its
//! one-line doc, and what runs (see `stage.rs`). The `Stage` enum, its names, docs and the pipeline's
//! order are all made from this list.
//!
//! Adding a stage: write its file (`src/cleaning/<stage>.rs`: a unit struct implementing
//! `MatchFilter` or `SpanStage`, with its tests), declare the module in `mod.rs`, and add its line here.

use super::stage::Step;
use super::{
    clusters, cuts, datelines, headline, islands, line_boundary, reprints, sentence_heads, sentence_tails, short_runs,
    slots, specks, title,
};

macro_rules! registry {
    ($($variant:ident $name:literal $doc:literal => $step:expr,)*) => {
        /// A named stage of the cleaning pipeline, in the order they run. Rules' matches are found first;
        /// each stage then filters the matches or changes what is removed. The name is the one used
        /// everywhere: `[clean] off = [...]` in a rules file, `--off` on the command line, `--explain`,
        /// the UI.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        pub enum Stage {
            $(#[serde(rename = $name)] $variant,)*
        }

        impl Stage {
            /// Every stage, in the order the pipeline runs them.
            pub const ALL: [Stage; [$($name),*].len()] = [$(Stage::$variant),*];

            pub fn name(self) -> &'static str {
                match self {
                    $(Stage::$variant => $name,)*
                }
            }

            /// One line: what the stage does.
            pub fn doc(self) -> &'static str {
                match self {
                    $(Stage::$variant => $doc,)*
                }
            }

            /// What the stage runs.
            pub(crate) fn step(self) -> Step {
                match self {
                    $(Stage::$variant => $step,)*
                }
            }
        }
    };
}

registry! {
    LineBoundary "line-boundary" "a match counts only where it starts or ends a line (idioms sit inside sentences)"
        => Step::Filter(&line_boundary::LineBoundary),
    SentenceHeads "sentence-heads" "a short match heading a line of prose is a name, not template"
        => Step::Filter(&sentence_heads::SentenceHeads),
    SentenceTails "sentence-tails" "a short match closing a sentence of prose is an idiom, not template"
        => Step::Filter(&sentence_tails::SentenceTails),
    Clusters "clusters" "a document gets the rules of the template cluster that covers it most"
        => Step::Filter(&clusters::Clusters),
    ListItems "list-items" "runs opened by list markers (a comment's name and date) are not the article"
        => Step::Switch,
    Cuts "cuts" "header strings cut everything before them, footer strings everything after"
        => Step::Spans(&cuts::Cuts),
    Islands "islands" "a few words kept between two removals go too"
        => Step::Spans(&islands::Islands),
    Title "title" "a header cut stops at the line repeating the page's title"
        => Step::Spans(&title::Title),
    Slots "slots" "a few words on a cut string's line, beside it, are its slots (a name, a date, a title)"
        => Step::Spans(&slots::Slots),
    Headline "headline" "the headline above the article is given back when a rule took it"
        => Step::Spans(&headline::Headline),
    Datelines "datelines" "the dateline and byline right above the article are given back"
        => Step::Spans(&datelines::Datelines),
    ShortRuns "short-runs" "kept runs outside the article with no sentence or few words go"
        => Step::Spans(&short_runs::ShortRuns),
    Reprints "reprints" "long lines printed a second time, two or more in a row, go"
        => Step::Spans(&reprints::Reprints),
    Specks "specks" "a few characters removed inside a line of kept text are given back"
        => Step::Spans(&specks::Specks),
}

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
        assert_eq!(kinds.iter().filter(|k| **k == 0).count(), 4, "line-boundary, sentence-heads, -tails, clusters");
        assert!(Stage::ALL.iter().all(|s| !s.doc().is_empty() && !s.name().is_empty()));
    }
}
