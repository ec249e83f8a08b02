//! Stage `islands`: kept text of fewer than `islands` words between two removed spans goes too (thesis
//! §6.1): a short island between two pieces of template is template too.

use super::stage::{PageState, SpanStage};
use super::{Cleaner, Span, absorb};
use crate::clean_settings::Stage;

/// Joins removed spans with fewer than `max_words` words of kept text between them (0: none).
pub(super) fn join_islands(text: &str, spans: Vec<Span>, max_words: usize) -> Vec<Span> {
    if max_words == 0 {
        return spans;
    }
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for s in spans {
        if let Some(last) = out.last_mut()
            && crate::words::count(&text[last.end..s.start]) < max_words
        {
            absorb(last, s);
            if !last.stages.contains(&Stage::Islands) {
                last.stages.push(Stage::Islands);
                last.stages.sort_unstable();
            }
            continue;
        }
        out.push(s);
    }
    out
}

/// The stage, with its settings ([`crate::clean_settings::IslandsSettings`]).
pub(super) struct Islands;

impl SpanStage for Islands {
    fn run(&self, cleaner: &Cleaner, page: &mut PageState) {
        page.spans = join_islands(page.text(), std::mem::take(&mut page.spans), cleaner.settings.islands.words);
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::{CleanSettings, IslandsSettings, Stage, Stages};
    use crate::cleaning::tests::cleaner;
    use crate::rules::Action;

    #[test]
    fn islands_of_few_words_between_removals_go_too() {
        let text = "read more a b read more one two three four read more";
        let c = cleaner(&[("read more", Action::Remove)], 0)
            .with_settings(CleanSettings { islands: IslandsSettings { words: 3 }, ..Default::default() });
        let out = c.clean(text);
        assert_eq!(out.text, "one two three four");
        assert_eq!(out.spans[0].stages, vec![Stage::Islands], "the join names its stage");
        let off = c.with_settings(CleanSettings {
            islands: IslandsSettings { words: 3 },
            stages: Stages::default().with(Stage::Islands, false),
            ..Default::default()
        });
        assert_eq!(off.clean(text).text, "a b one two three four");
    }
}
