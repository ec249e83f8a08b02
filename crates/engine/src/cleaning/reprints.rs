//! Stage `reprints`: a page that prints its article twice (a preview, then the article) keeps one print.
//! Kept long lines printed a second time, two or more in a row, go; long lines between them that are new
//! end the row, short ones do not. A lone repeat is a pull quote or a teaser, and stays. A print cut short
//! with an ellipsis ("… because ...") is the same line: pages that print a preview cut its last line so.
//!
//! A kept line cut short with an ellipsis whose words begin a longer kept line is that line's teaser
//! and goes, alone too: the summary a page prints over its article ("We have driven the car for a month
//! and it offers a lot for not a lot of money..."), a `<title>` shortened for the window over the
//! headline. Its words are the other line's, so nothing of the article is lost.

use std::collections::{HashMap, HashSet};

use super::stage::{PageState, SpanStage};
use super::{Cleaner, LONG_LINE_WORDS, Span, by_stage, kept_runs, merge_spans, work};
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

/// Words a teaser has at least: fewer begin too many lines.
pub const TEASER_WORDS: usize = 7;

/// Adds to `spans` the kept lines ending in an ellipsis whose text (less it) begins a longer kept line
/// that is no copy of it. Each kept line is read once, byte by byte, with a running hash of its start
/// looked up among the teasers' hashes; a hit is compared byte for byte, once per teaser found: linear
/// in the page however many lines open alike.
pub(super) fn drop_teasers(text: &str, spans: Vec<Span>) -> Vec<Span> {
    let mut lines: Vec<(usize, &str)> = Vec::new();
    for (start, end) in kept_runs(text.len(), &spans) {
        let mut at = start;
        for line in text[start..end].split_inclusive('\n') {
            let t = line.trim();
            if !t.is_empty() {
                lines.push((at + (line.len() - line.trim_start().len()), t));
            }
            at += line.len();
        }
    }
    // each teaser's text less its ellipsis, by its hash; whether a longer line starts with it
    let mut teasers: HashMap<u64, Vec<(&str, usize, bool)>> = HashMap::new();
    let mut shortest = usize::MAX;
    for (i, &(_, t)) in lines.iter().enumerate() {
        let cut = without_ellipsis(t);
        if cut.len() < t.len() && crate::words::at_least(cut, TEASER_WORDS) {
            teasers.entry(hash(cut.as_bytes())).or_default().push((cut, i, false));
            shortest = shortest.min(cut.len());
        }
    }
    if teasers.is_empty() {
        return spans;
    }
    for &(_, line) in &lines {
        let bytes = line.as_bytes();
        // a copy of a teaser is not the line it stands for
        let own = without_ellipsis(line).len();
        work::add(bytes.len());
        let mut h = hash(&bytes[..shortest.min(bytes.len())]);
        for end in shortest..bytes.len() {
            if end != own
                && let Some(found) = teasers.get_mut(&h)
            {
                for (cut, _, seen) in found.iter_mut().filter(|(_, _, seen)| !*seen) {
                    work::add(cut.len());
                    *seen = cut.as_bytes() == &bytes[..end];
                }
            }
            h = step(h, bytes[end]);
        }
    }
    let mut out: Vec<Span> = teasers
        .values()
        .flatten()
        .filter(|(_, _, seen)| *seen)
        .map(|&(_, i, _)| by_stage(lines[i].0, lines[i].0 + lines[i].1.len(), Stage::Reprints))
        .collect();
    if out.is_empty() {
        return spans;
    }
    out.extend(spans);
    merge_spans(out)
}

/// A running hash of bytes (FNV-1a's step): `hash(b + [x]) == step(hash(b), x)`.
fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| step(h, b))
}

fn step(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
}

/// `line` less an ellipsis (`…` or `...`) at its end.
fn without_ellipsis(line: &str) -> &str {
    let cut = line.strip_suffix('…').or_else(|| line.strip_suffix("...")).unwrap_or(line);
    cut.trim_end()
}

pub(super) struct Reprints;

impl SpanStage for Reprints {
    fn run(&self, _: &Cleaner, page: &mut PageState) {
        let spans = drop_reprints(page.text(), std::mem::take(&mut page.spans));
        page.spans = drop_teasers(page.text(), spans);
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

    #[test]
    fn a_teaser_cut_short_over_its_article_goes() {
        let teaser = "We have mentioned before how the car offers a lot of technology for not a lot of money...";
        let lead = "We have mentioned before how the car offers a lot of technology for not a lot of money. \
                    While we have been driving it, the screen has grown on us.";
        let text = format!("Title line\n{teaser}\nBY A WRITER\n{lead}\nEnd");
        let cl = cleaner(&[("zzz qqq", Action::Remove)], 0);
        assert_eq!(cl.clean(&text).text, text, "off: the teaser stays");
        let cl = cl.with_stage(Stage::Reprints, true);
        assert_eq!(cl.clean(&text).text, format!("Title line\nBY A WRITER\n{lead}\nEnd"));
        // a line cut with an ellipsis that begins no other line stays, and so does one of few words
        let text = format!("Title line\nWe have mentioned before how the bus...\nIt was...\nIt was late.\n{lead}");
        assert_eq!(cl.clean(&text).text, text);
    }

    #[test]
    fn teasers_are_looked_up_in_work_linear_in_the_page() {
        let cost = |n: usize| {
            let lines: Vec<String> = (0..n)
                .flat_map(|i| {
                    let head = format!("Posted by A. Writer on the day number {i}");
                    [format!("{head} and more..."), format!("{head} and more words, and the rest of it.")]
                })
                .collect();
            let text = lines.join("\n");
            let (spans, work) = super::work::measure(|| super::drop_teasers(&text, Vec::new()));
            assert_eq!(spans.len(), n, "each teaser goes");
            (work, text.len())
        };
        let ((small, small_len), (large, large_len)) = (cost(100), cost(2000));
        assert!(
            small > 0 && large <= 2 * small * large_len / small_len,
            "{small} for {small_len}, {large} for {large_len}"
        );
    }
}
