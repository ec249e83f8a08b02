//! Stage `list-items`: which matches mark list items (a comment's "name, date at time", a headline's
//! byline), so that the runs they open are not taken for the article block. A comment thread can
//! outweigh its article; what opens each comment is the site's marker, on every comment alike.

use std::collections::{HashMap, HashSet};

use super::{LONG_LINE_WORDS, Layout, Match, work};

/// A rule matched on this many lines of a page marks list items, and the runs it opens are not the
/// article block.
pub const LIST_ITEMS: usize = 3;

/// Which matches mark list items. Such a match shares its line with a few words that change (the
/// commenter's name), and its rule opens at least [`LIST_ITEMS`] pieces of text on the page (lines of
/// [`LONG_LINE_WORDS`] words before the next match). Whole lines that repeat are menus, matches across
/// lines are lists of links, and a rule whose other matches are followed by nothing (an archive list's
/// dates) marks no items. Only rules of fixed text (`fixed`) mark items; an item's text ends at the next
/// marker or at a match that `splits` the runs the article block is chosen from (the block's own test).
pub(super) fn list_items(
    doc: &Layout,
    matches: &[Match],
    fixed: impl Fn(u32) -> bool,
    splits: impl Fn(&Match) -> bool,
) -> Vec<bool> {
    let extents: Vec<Option<(usize, usize)>> =
        matches.iter().map(|m| fixed(m.rule).then_some((m.start, m.end))).collect();
    let (marks, opened) = item_rules(doc, matches, &extents, splits);
    matches.iter().zip(marks).map(|(m, mark)| mark && opened.contains(&m.rule)).collect()
}

/// Whether `start..end` of `counted` is words on a line with more: not empty, not across lines, not
/// whole lines.
fn on_its_line(counted: &Layout, start: usize, end: usize) -> bool {
    start < end && counted.newlines_in(start, end) == 0 && !counted.is_whole_lines(start, end)
}

/// Given the stretch of `counted` that each match marks (`None`: its rule marks nothing): which matches
/// are markers (a stretch sharing its line with fewer than [`LONG_LINE_WORDS`] other words), and the
/// rules whose markers open at least [`LIST_ITEMS`] pieces of text on the page (lines of
/// [`LONG_LINE_WORDS`] words before the next marker or match that `splits` the runs).
fn item_rules(
    counted: &Layout,
    matches: &[Match],
    extents: &[Option<(usize, usize)>],
    splits: impl Fn(&Match) -> bool,
) -> (Vec<bool>, HashSet<u32>) {
    let marks: Vec<bool> = extents
        .iter()
        .map(|at| {
            at.is_some_and(|(start, end)| {
                on_its_line(counted, start, end) && counted.rest_of_line_words(start, end) < LONG_LINE_WORDS
            })
        })
        .collect();
    // most pages have no list: what follows is read only if something marks one
    if !marks.contains(&true) {
        return (marks, HashSet::new());
    }
    let mut starts: Vec<usize> =
        matches.iter().zip(&marks).filter(|(m, mark)| **mark || splits(m)).map(|(m, _)| m.start).collect();
    starts.sort_unstable();
    let mut opened: HashMap<u32, usize> = HashMap::new();
    for ((m, at), _) in matches.iter().zip(extents).zip(&marks).filter(|(_, mark)| **mark) {
        let next = starts.get(starts.partition_point(|&s| s < m.end)).copied().unwrap_or(counted.text().len());
        // the item's text is on the lines below its marker; a dated headline list holds it on the line
        let from = at.map_or(next, |(_, end)| end.min(next));
        if has_long_line_below(counted, from, next) {
            *opened.entry(m.rule).or_insert(0) += 1;
        }
    }
    let opened = opened.into_iter().filter(|&(_, n)| n >= LIST_ITEMS).map(|(rule, _)| rule).collect();
    (marks, opened)
}

/// Whether a line of `start..end` below its first line has [`LONG_LINE_WORDS`] words (the last one cut
/// at `end`): lines are visited one by one, each answered by the layout.
fn has_long_line_below(counted: &Layout, start: usize, end: usize) -> bool {
    let mut at = counted.line_end(start);
    while at < end {
        let line_end = counted.line_end(at + 1).min(end);
        work::add(1);
        if counted.words(at + 1, line_end) >= LONG_LINE_WORDS {
            return true;
        }
        at = line_end;
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::cleaner;
    use crate::rules::Action;

    /// A comment that outweighs a short article on its own.
    const LONG_COMMENT: &str = "Thank you, it said more to me the second time I read it than the first time, and I \
        will read it again tomorrow with my family at breakfast.";

    #[test]
    fn a_comment_thread_marked_by_its_dates_is_not_the_article() {
        let comments: String = ["Ann", "Bo", "Cy"]
            .iter()
            .enumerate()
            .map(|(i, name)| format!("{name} on June {}, 2012 wrote\n{LONG_COMMENT}\n", i + 2))
            .collect();
        let text = format!(
            "Big news today\nHome\nThe article is short but it has enough words to be a long line.\n{comments}"
        );
        let c = cleaner(&[("on «month» «number» «number» wrote", Action::Remove), ("Home", Action::Remove)], 0);
        let matches = c.matches(&text);
        assert_eq!(matches.len(), 4, "three dates and the menu");
        let block = |c: &crate::cleaning::Cleaner| {
            let (s, e) = c.article_block(&text, &matches).unwrap();
            text[s..e].to_string()
        };
        assert!(block(&c).contains("The article is short"), "{}", block(&c));
        let off = c.with_stage(Stage::ListItems, false);
        assert!(block(&off).contains("Thank you"), "off: a comment outweighs the article: {}", block(&off));
    }
}
