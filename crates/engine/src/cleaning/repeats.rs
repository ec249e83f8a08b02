//! Stage `repeats`: a short line printed three times or more on one page goes.
//!
//! A page's own furniture repeats inside it: the credit under every photo of a gallery ("Photo courtesy
//! of the Museum" under each of 25 pictures, "(A. Photographer/Agency)"), the button over every picture
//! ("Enlarge this image"), a video's format line. No rule sees them when the
//! site's other pages carry no such gallery, and they sit inside the article. An article's own words
//! seldom repeat a whole line three times; a line of a few words that does is a label, not prose. Lines
//! with no letter ("-", "*", "6") are separators the gold of some sites keeps, and are left alone; so
//! is a line repeating the page's title (a headline printed in the page, its breadcrumb and its share
//! box is still the headline).

use std::collections::HashMap;

use super::stage::{PageState, SpanStage};
use super::title::starts_a_title_line;
use super::{Cleaner, Layout, Span, by_stage, kept_runs, merge_spans, work};
use crate::clean_settings::Stage;

/// Copies of a line on a page that make it furniture.
pub const COPIES: usize = 3;

/// Lines of more words than this are prose, however often printed (a refrain, a pull quote).
pub const MAX_WORDS: usize = 10;

/// Adds to `spans` every kept line of at most [`MAX_WORDS`] words, with a letter, printed [`COPIES`]
/// times or more among the kept lines. One pass over the kept text.
pub(super) fn drop_repeats(doc: &Layout, spans: Vec<Span>) -> Vec<Span> {
    let text = doc.text();
    let mut lines: HashMap<&str, Vec<usize>> = HashMap::new();
    for (start, end) in kept_runs(text.len(), &spans) {
        work::add(end - start);
        let mut at = start;
        for line in text[start..end].split_inclusive('\n') {
            let t = line.trim();
            if t.contains(char::is_alphabetic) && !crate::words::at_least(t, MAX_WORDS + 1) {
                lines.entry(t).or_default().push(at + (line.len() - line.trim_start().len()));
            }
            at += line.len();
        }
    }
    let mut out: Vec<Span> = lines
        .into_iter()
        .filter(|(_, at)| at.len() >= COPIES && !starts_a_title_line(doc, at[0]))
        .flat_map(|(t, at)| at.into_iter().map(move |a| by_stage(a, a + t.len(), Stage::Repeats)))
        .collect();
    if out.is_empty() {
        return spans;
    }
    out.extend(spans);
    merge_spans(out)
}

pub(super) struct Repeats;

impl SpanStage for Repeats {
    fn run(&self, _: &Cleaner, page: &mut PageState) {
        page.spans = drop_repeats(page.doc, std::mem::take(&mut page.spans));
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::cleaner;
    use crate::rules::Action;

    const PROSE: &str = "The article tells its story in a line long enough to be read as prose by anyone.";

    #[test]
    fn a_credit_under_every_photo_goes() {
        let credit = "Photo courtesy of the Museum";
        let text = format!("Title line\n{PROSE}\n{credit}\nFirst front page\n{credit}\nSecond\n{credit}\n{PROSE}");
        let c = cleaner(&[("zzz qqq", Action::Remove)], 0).with_stage(Stage::Repeats, true);
        let on = c.clean(&text).text;
        assert_eq!(on, format!("Title line\n{PROSE}\nFirst front page\nSecond\n{PROSE}"));
        assert_eq!(c.with_stage(Stage::Repeats, false).clean(&text).text, text, "off: every copy stays");
    }

    #[test]
    fn the_headline_printed_three_times_stays() {
        let text = format!(
            "Storm hits the coast - Daily News\nStorm hits the coast\n{PROSE}\nStorm hits the coast\nShare\nStorm hits the coast"
        );
        let c = cleaner(&[("zzz qqq", Action::Remove)], 0).with_stage(Stage::Repeats, true);
        assert_eq!(c.clean(&text).text, text);
    }

    #[test]
    fn twice_printed_long_and_letterless_lines_stay() {
        let long = "A refrain of eleven words sung again and again by the choir";
        let text = format!("Title line\n{PROSE}\nTwice said\nTwice said\n{long}\n{long}\n{long}\n-\n-\n-\n{PROSE}");
        let c = cleaner(&[("zzz qqq", Action::Remove)], 0).with_stage(Stage::Repeats, true);
        assert_eq!(c.clean(&text).text, text);
    }
}
