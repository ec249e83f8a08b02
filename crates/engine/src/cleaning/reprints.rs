//! Stage `reprints`: a page that prints its article twice (a preview, then the article) keeps one print.
//! Kept long lines printed a second time, two or more in a row, go; long lines between them that are new
//! end the row, short ones do not. A lone repeat is a pull quote or a teaser, and stays. A print cut short
//! with an ellipsis ("… because ...") is the same line: pages that print a preview cut its last line so.

use std::collections::HashSet;

use super::stage::{PageState, SpanStage};
use super::{Cleaner, LONG_LINE_WORDS, Span, by_stage, kept_runs, merge_spans};
use crate::clean_settings::Stage;

/// Adds to `spans` the kept long lines printed a second time on the page, two or more in a row.
pub(super) fn drop_reprints(text: &str, spans: Vec<Span>) -> Vec<Span> {
    let mut seen: HashSet<&str> = HashSet::new();
    // the reprinted long lines, in order
    let mut reprinted: Vec<(usize, usize)> = Vec::new();
    let mut out = Vec::new();
    let mut flush = |group: &mut Vec<(usize, usize)>| {
        if group.len() >= 2 {
            out.extend(group.iter().map(|&(start, end)| by_stage(start, end, Stage::Reprints)));
        }
        group.clear();
    };
    for (start, end) in kept_runs(text.len(), &spans) {
        let mut at = start;
        for line in text[start..end].split_inclusive('\n') {
            let t = line.trim();
            if crate::words::at_least(t, LONG_LINE_WORDS) {
                if seen.insert(without_ellipsis(t)) {
                    flush(&mut reprinted);
                } else {
                    reprinted.push((at, at + line.trim_end().len()));
                }
            }
            at += line.len();
        }
    }
    flush(&mut reprinted);
    if out.is_empty() {
        return spans;
    }
    out.extend(spans);
    merge_spans(out)
}

/// `line` less an ellipsis (`…` or `...`) at its end.
fn without_ellipsis(line: &str) -> &str {
    let cut = line.strip_suffix('…').or_else(|| line.strip_suffix("...")).unwrap_or(line);
    cut.trim_end()
}

pub(super) struct Reprints;

impl SpanStage for Reprints {
    fn run(&self, _: &Cleaner, page: &mut PageState) {
        page.spans = drop_reprints(page.text(), std::mem::take(&mut page.spans));
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::cleaner;
    use crate::rules::Action;

    #[test]
    fn an_article_printed_twice_keeps_one_print_and_its_pull_quote() {
        let a = "The first paragraph of the article is long enough to count as a line.";
        let b = "The second paragraph of the article is long enough to count as well.";
        let c = "A third paragraph that only the full print of the article carries along.";
        let text = format!("Title line\n{a}\n{b}\nSubscribe now\n{a}\n{b}\n{c}\n{b}\nEnd");
        // a rule that matches nothing here: with no rule at all, nothing is cleaned
        let mut cl = cleaner(&[("zzz qqq", Action::Remove)], 0);
        assert_eq!(cl.clean(&text).text, text, "off: everything stays");
        cl = cl.with_stage(Stage::Reprints, true);
        // the second print of a and b goes; b alone again later (a pull quote) stays
        assert_eq!(cl.clean(&text).text, format!("Title line\n{a}\n{b}\nSubscribe now\n{c}\n{b}\nEnd"));
    }

    #[test]
    fn a_print_whose_last_line_is_cut_with_an_ellipsis_is_a_reprint() {
        let a = "The first paragraph of the article is long enough to count as a line.";
        let b = "The second paragraph of the article is long enough to count as well, because";
        for cut in [format!("{b} ..."), format!("{b}…")] {
            let text = format!("Title line\n{a}\n{b}\nBY A WRITER\n{a}\n{cut}\nEnd");
            let cl = cleaner(&[("zzz qqq", Action::Remove)], 0).with_stage(Stage::Reprints, true);
            assert_eq!(cl.clean(&text).text, format!("Title line\n{a}\n{b}\nBY A WRITER\nEnd"), "{cut}");
        }
        // a lone line cut so is a teaser sentence, and stays
        let text = format!("Title line\n{b}\nBY A WRITER\n{a}\n{b} ...\nEnd");
        let cl = cleaner(&[("zzz qqq", Action::Remove)], 0).with_stage(Stage::Reprints, true);
        assert_eq!(cl.clean(&text).text, text);
    }
}
