//! The article's head: the title (the document's first line, printed again above the article), the
//! headline, the dateline and the byline. Rules match these too (the site's other pages list this
//! headline, every page prints a dateline), so with `keep_title` the cleaner finds them by their shape, not
//! by rules, and gives them back.

use std::sync::LazyLock;

use super::{Layout, Match, Span, SpanKind, merge_spans, union, work};
use crate::mutable::MutableSet;

/// The start of the line before `end` that repeats most of the page's title (of equal ones, the last): the
/// first line of the document holds it (the naive text of a page starts with the HTML `<title>`), it has at
/// least two words, and no rule matches it whole (the site's name is in the title too, but on every page).
/// News pages print the title again above the article, often with the byline and date between it and the
/// last header string, so a cut-before would take it.
pub fn title_line(text: &str, start: usize, end: usize, matches: &[Match]) -> Option<usize> {
    // the site's name is a line a rule matches whole; a date in the title is no reason to lose it
    let whole = |ls: usize, line: &str| {
        let (a, b) = (ls + (line.len() - line.trim_start().len()), ls + line.trim_end().len());
        matches.iter().any(|m| m.start <= a && m.end >= b)
    };
    // whole lines only: the header string's own line, cut short at `end`, is not the title
    let complete = |ls: usize, line: &str| line.ends_with('\n') || ls + line.len() == text.len();
    // but a line that holds most of the title is the headline, even if a rule matches it whole: this
    // page's headline is listed on the site's other pages ("Top stories")
    let first_words = first_line(text).split_whitespace().count();
    let most = |line: &str| 2 * line.split_whitespace().count() > first_words;
    // the fullest repeat, the last of those: an author's name in the title is a repeat of it too
    title_lines(text, start, end)
        .filter(|&(ls, line)| complete(ls, line) && (!whole(ls, line) || most(line)))
        .max_by_key(|&(ls, line)| (line.split_whitespace().count(), ls))
        .map(|(ls, _)| ls)
}

/// The lines inside `start..end`, below the first line, that repeat the title (see [`is_title`]), with
/// their starts.
pub(super) fn title_lines(text: &str, start: usize, end: usize) -> impl Iterator<Item = (usize, &str)> {
    let first = first_line(text);
    let below_first = text.find('\n').map_or(text.len(), |i| i + 1);
    let from = start.max(below_first).min(end);
    text[from..end]
        .split_inclusive('\n')
        .scan(from, |pos, line| {
            let at = *pos;
            *pos += line.len();
            Some((at, line))
        })
        // a line's tail (a removal took its head) is no repeat of the title
        .filter(move |&(at, line)| (at == 0 || text.as_bytes()[at - 1] == b'\n') && is_title(&first, line))
}

/// Whether `pos` starts the document's first line or a line that repeats it (see [`is_title`]).
pub(super) fn starts_a_title_line(doc: &Layout, first: &str, pos: usize) -> bool {
    let text = doc.text();
    if pos > 0 && text.as_bytes()[pos - 1] != b'\n' {
        return false;
    }
    let line = work::scan(&text[pos..doc.line_end(pos)]);
    pos == 0 || is_title(first, line)
}

/// The document's first line, folded (see [`fold`]): the naive text of a page starts with the HTML
/// `<title>`.
pub(super) fn first_line(text: &str) -> String {
    fold(text.lines().next().unwrap_or_default().trim())
}

/// Lowercase, with typographic quotes and dashes as their ASCII kin: a page's `<title>` often says
/// "Wife's" where its headline says "Wife’s".
pub(super) fn fold(s: &str) -> String {
    s.chars()
        .filter_map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{2032}' => Some('\''),
            '\u{201C}' | '\u{201D}' | '\u{2033}' => Some('"'),
            '\u{2013}' | '\u{2014}' | '\u{2212}' => Some('-'),
            '\u{00A0}' => Some(' '),
            // "Stats… Impressive!" in the headline, "Stats Impressive!" in the <title>
            '\u{2026}' => None,
            c => Some(c),
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `line` repeats the title (`first`, see [`first_line`]): two words or more, in the first line;
/// or it starts with the title proper (the first line before a " - Site" suffix, three words or more).
pub(super) fn is_title(first: &str, line: &str) -> bool {
    let t = line.trim();
    let mut words = t.split_whitespace();
    let Some(head) = words.next() else { return false };
    // most lines are not the title: their first word is not in it (cheaper than folding the line)
    if t.len() < 10 || words.next().is_none() || !first.contains(&fold(head)) {
        return false;
    }
    let t = fold(t);
    if first.contains(&t) {
        return true;
    }
    // the title proper, followed on its line by a dateline
    let proper = title_proper(first);
    proper.len() >= 10 && proper.split_whitespace().count() >= 3 && t.starts_with(proper)
}

/// The title proper: the (folded) first line before " - Site".
fn title_proper(first: &str) -> &str {
    [" - ", " | ", " :: "].iter().filter_map(|sep| first.split(sep).next()).min_by_key(|p| p.len()).unwrap_or(first)
}

/// Gives back the title line inside the cut before `header_end` (the header string's end): the span
/// holding it stops there, and between the title and `header_end` only what rules match goes (the header
/// string itself among them), except on a byline ("By A. Writer, July 3"): the title and the byline are
/// the article's. What islands or the footer's cut joined to the span after `header_end` stays removed.
pub(super) fn keep_title(
    doc: &Layout,
    spans: Vec<Span>,
    matches: &[Match],
    gap: usize,
    header_end: usize,
    footer: bool,
) -> Vec<Span> {
    let text = doc.text();
    let Some(cut) = spans.iter().position(|s| s.kind == SpanKind::CutBefore && s.start == 0) else { return spans };
    let Some(title) = title_line(text, 0, header_end, matches) else { return spans };
    let mut out = spans;
    let s = out.remove(cut);
    // the title line itself stays even if a rule matches it (the site's other pages list this headline)
    let title_end = text[title..].find('\n').map_or(text.len(), |i| title + i);
    let below = matches
        .iter()
        .filter(|m| m.start >= title && m.end <= header_end && m.end > title_end && !on_byline(doc, m.start));
    out.extend(union(text, below, gap, SpanKind::Removed));
    out.push(Span { end: title, ..s.clone() });
    if s.end > header_end {
        let kind = if s.end == text.len() && footer { SpanKind::CutAfter } else { SpanKind::Removed };
        out.push(Span { start: header_end, kind, ..s });
    }
    merge_spans(out)
}

/// The headline above the article block, when a removal took it: the site's other pages list this
/// page's headline ("Most popular"), so a rule matches it whole. It is given back.
pub(super) fn lost_headline(
    text: &str,
    spans: &[Span],
    matches: &[Match],
    block: (usize, usize),
) -> Option<(usize, usize)> {
    let (block_start, block_end) = block;
    if title_lines(text, block_start, block_end).next().is_some() {
        return None;
    }
    // the removal ends before the title's newline, where the block starts; or it took the headline's head
    // only (the site's lists print it without its "…"), and the block starts inside the headline
    let end = text[block_start..].find('\n').map_or(text.len(), |i| block_start + i + 1);
    let title = title_line(text, 0, end, matches)?;
    let title_end = text[title..].find('\n').map_or(text.len(), |i| title + i);
    spans.iter().any(|s| s.start < title_end && s.end > title).then_some((title, title_end))
}

/// HTML: the headline above the article block, when a removal or the header cut took it: the last line
/// a reader sees (`lines`, see `visible_lines`) between `<body>` and the block that repeats the page's
/// `<title>` (`title`, folded). Its words are given back; markup around them stays removed.
pub(super) fn lost_html_headline(
    lines: &str,
    title: &str,
    body: usize,
    spans: &[Span],
    block_start: usize,
) -> Option<(usize, usize)> {
    let from = body.min(block_start);
    let (at, line) = lines[from..block_start]
        .split_inclusive('\n')
        .scan(from, |pos, line| {
            let at = *pos;
            *pos += line.len();
            Some((at, line))
        })
        .filter(|&(_, line)| is_title(title, line))
        .last()?;
    let start = at + (line.len() - line.trim_start().len());
    let end = at + line.trim_end().len();
    spans.iter().any(|s| s.start < end && s.end > start).then_some((start, end))
}

/// HTML: as [`lost_datelines`], on the lines a reader sees (`lines`, the page up to the block): the
/// last two lines with words above the block, when a removal took them whole and they read as a dateline
/// or byline. Their words are given back.
pub(super) fn lost_html_datelines(lines: &str, spans: &[Span]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut end = lines.len();
    while out.len() < 2 {
        let shown = lines[..end].trim_end();
        if shown.is_empty() {
            break;
        }
        let line_start = shown.rfind('\n').map_or(0, |i| i + 1);
        let line = &shown[line_start..];
        let start = line_start + (line.len() - line.trim_start().len());
        let stop = shown.len();
        let whole = spans.iter().any(|s| s.kind != SpanKind::CutAfter && s.start <= start && s.end >= stop);
        if !whole || !is_dateline(line) {
            break;
        }
        out.push((start, stop));
        end = line_start;
    }
    out
}

/// The lines right above the article block that a removal took whole and that read as its dateline or
/// byline ("November 6, 2012 | 11:00 AM", "By A. Writer"): they are the article's, though the site
/// prints the same pattern on every page. They are given back.
pub(super) fn lost_datelines(text: &str, spans: &[Span], (block_start, _): (usize, usize)) -> Vec<(usize, usize)> {
    let mut lines = Vec::new();
    let mut end = text[..block_start].trim_end_matches('\n').len();
    for _ in 0..2 {
        let start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        let whole = spans.iter().any(|s| s.kind != SpanKind::CutAfter && s.start <= start && s.end >= end);
        if start == 0 || !whole || !is_dateline(&text[start..end]) {
            break;
        }
        lines.push((start, end));
        end = start - 1;
    }
    lines
}

/// A short line with a date (a year, or a month's name) or starting with "By ".
fn is_dateline(line: &str) -> bool {
    // the month names of the default mutable patterns ("month", "month_abbr")
    static PATTERNS: LazyLock<MutableSet> = LazyLock::new(MutableSet::defaults);
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() || words.len() > 14 {
        return false;
    }
    let year = |w: &str| {
        let dated = w.contains(['.', '/', '•']);
        w.split(|c: char| !c.is_ascii_digit())
            .any(|d| d.len() == 4 && (d.starts_with("19") || d.starts_with("20")) || d.len() == 2 && dated)
    };
    // "Nov•" too: the patterns allow ASCII punctuation after the name only
    let month = |w: &str| {
        PATTERNS
            .classify(w.trim_end_matches(|c: char| !c.is_alphanumeric()))
            .is_some_and(|p| PATTERNS.patterns()[p].name.starts_with("month"))
    };
    words[0].eq_ignore_ascii_case("by") || words.iter().any(|w| year(w) || month(w))
}

/// Whether the line holding `pos` starts with "By ".
fn on_byline(doc: &Layout, pos: usize) -> bool {
    let start = doc.line_start(pos);
    // the line's first word starts it (whitespace aside): read from there, not the line
    let text = doc.text();
    let first = start + (text[start..].len() - text[start..].trim_start().len());
    work::add(first - start);
    text[first..].get(..3).is_some_and(|p| p.eq_ignore_ascii_case("by "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cleaning::tests::{cleaner, cleaner_for, read_cleaned};
    use crate::rules::Action;
    use crate::tokens::Tokenizer;

    #[test]
    fn in_html_the_headline_that_repeats_the_title_is_given_back() {
        // the share bar under the headline is a header string: its cut took the headline, and the site's
        // "most read" box above it repeats the title too (the last repeat above the article is the one)
        let text = "<html><head><title>Big news today | Site</title></head><body>\n\
            <ul><li>Big news today</li><li>Other story</li></ul>\n<h1>Big news today</h1>\n\
            <div> Share this </div>\n<p>The article text has enough words to be the block of this page.</p>\n\
            </body></html>";
        let mut c = cleaner_for(Tokenizer::Html, &[("<div> Share this </div>", Action::CutBefore)], 0);
        assert!(!read_cleaned(&c, text).contains("Big news"), "{}", read_cleaned(&c, text));
        c.keep_title = true;
        let out = read_cleaned(&c, text);
        assert_eq!(out.matches("Big news today").count(), 1, "{out}");
        assert!(!out.contains("Other story") && !out.contains("Share") && out.contains("The article text"), "{out}");
    }

    #[test]
    fn in_html_the_dateline_above_the_article_is_given_back() {
        // the site prints "Posted on «month» «number», «number»" on every page: a rule took it whole
        let text = "<html><body>\n<div>Menu</div>\n<p>Posted on July 3, 2012</p>\n\
            <p>The article text has enough words to be the block of this page.</p>\n</body></html>";
        let rules = [("<div> Menu </div> <p> Posted on «month» «number» «number» </p>", Action::Remove)];
        let mut c = cleaner_for(Tokenizer::Html, &rules, 0);
        assert!(!read_cleaned(&c, text).contains("Posted on"), "{}", read_cleaned(&c, text));
        c.keep_title = true;
        let out = read_cleaned(&c, text);
        assert!(out.contains("Posted on July 3, 2012") && !out.contains("Menu"), "{out}");
    }
    #[test]
    fn the_title_line_is_the_last_repeat_of_the_first_line_that_is_not_the_sites_name() {
        let text = "Big news today | Site\nSite\nMenu\nBig news today\nby A. Writer\nShare\nBody text here.";
        let at = |s: &str| text.find(s).unwrap();
        let title = at("Big news today\nby");
        // "Site" is in the title too, but a single word; "Big news today" is the title line
        assert_eq!(title_line(text, 0, at("Body"), &[]), Some(title));
        assert_eq!(title_line(text, 0, title, &[]), None, "not inside the cut");
        // a line a rule matches whole is the site's name, not the page's title...
        let site = "Big news today for all | Site news daily\nSite news daily\nMenu\nBody";
        let name = site.find('\n').unwrap() + 1;
        let m = Match { start: name, end: name + "Site news daily".len(), rule: 0 };
        assert_eq!(title_line(site, 0, site.find("Body").unwrap(), &[]), Some(name));
        assert_eq!(title_line(site, 0, site.find("Body").unwrap(), &[m]), None);
        // ...unless it holds most of the title: the page's headline, which the site's other pages list
        let m = Match { start: title, end: title + "Big news today".len(), rule: 0 };
        assert_eq!(title_line(text, 0, at("Body"), &[m]), Some(title));
        // the title proper with a dateline after it on its line is the title too
        let dated = "Big news today | Site\nMenu\nBig news today, posted on Nov 6\nBody";
        assert_eq!(title_line(dated, 0, dated.find("Body").unwrap(), &[]), dated.find("Big news today,"));
        // a rule that matches part of it (a date, "today") does not make it the site's
        let part = Match { start: title + "Big news ".len(), end: title + "Big news today".len(), rule: 0 };
        assert_eq!(title_line(text, 0, at("Body"), &[part]), Some(title));
    }

    #[test]
    fn the_title_is_the_fullest_repeat_of_the_first_line_not_the_authors_name_in_it() {
        let text = "Big news from the city | Jane Q. Doeman | Site\nMenu\nBig news from the city\n\
            Share this now\nJane Q. Doeman\nMonday\nBody";
        let spans = |end: usize| title_line(text, 0, end, &[]).map(|at| &text[at..at + 5]);
        assert_eq!(spans(text.find("Monday").unwrap()), Some("Big n"));
        // the name alone, when the headline is not there
        let no_headline = text.replace("\nBig news from the city\n", "\nAn aside\n");
        let at = title_line(&no_headline, 0, no_headline.find("Monday").unwrap(), &[]).unwrap();
        assert!(no_headline[at..].starts_with("Jane Q. Doeman"));
    }

    #[test]
    fn the_title_matches_its_headline_across_typographic_quotes_and_dashes() {
        let text = "Man's Best Friend - It's Back\nMenu\nMan\u{2019}s Best Friend \u{2014} It\u{2019}s Back\nBody";
        assert_eq!(title_line(text, 0, text.find("Body").unwrap(), &[]), text.find("Man\u{2019}s"));
    }

    #[test]
    fn keep_title_stops_a_header_cut_at_the_title_and_removes_what_rules_match_below_it() {
        let text = "Big news today | Site\nMenu one two\nBig news today\nby A. Writer, July 3\nEmail this page\n\
            Share this now\nBody text here, long enough to be the article block.";
        let rules = [
            ("Menu one two", Action::Remove),
            ("Email this page", Action::Remove),
            ("July «number»", Action::Remove),
            ("Share this now", Action::CutBefore),
        ];
        let mut c = cleaner(&rules, 0);
        assert_eq!(c.clean(text).text, "Body text here, long enough to be the article block.");
        c.keep_title = true;
        // the byline stays whole, its date with it; what else rules match below the title goes
        assert_eq!(
            c.clean(text).text,
            "Big news today\nby A. Writer, July 3\nBody text here, long enough to be the article block."
        );
    }

    #[test]
    fn keep_title_keeps_a_title_that_a_rule_matches_whole() {
        // the site lists its headlines on every page, so a rule matches this page's headline too
        let text = "Big news today | Site\nMenu one two\nBig news today\nShare this now\n\
            Body text here, long enough to be the article block.\nTop stories\nBig news today";
        let rules = [
            ("Menu one two", Action::Remove),
            ("Big news today", Action::Remove),
            ("Share this now", Action::CutBefore),
        ];
        let mut c = cleaner(&rules, 0);
        c.keep_title = true;
        assert_eq!(
            c.clean(text).text,
            "Big news today\nBody text here, long enough to be the article block.\nTop stories",
            "the headline stays above the article, and goes from the list"
        );
    }

    #[test]
    fn a_kept_title_gives_back_the_title_not_what_islands_joined_to_the_cut() {
        // no article: the header's and the footer's cuts meet over a short island, and the title stays
        let text = "A short note | Site\nA short note\nShare this now\nPrev and next post links go right here now\n\
            Comments follow below here\nA comment that is long enough to be a block of its own, really.";
        let rules = [("Share this now", Action::CutBefore), ("Comments follow below here", Action::CutAfter)];
        let mut c = cleaner(&rules, 0);
        c.islands = 10;
        c.keep_title = true;
        let out = c.clean(text);
        assert_eq!(out.text, "A short note");
        assert_eq!(out.spans.last().map(|s| (s.kind, s.end)), Some((SpanKind::CutAfter, text.len())));
    }

    #[test]
    fn a_headline_listed_on_other_pages_is_given_back_without_a_header_cut() {
        // no header string: the headline goes by a plain removal (the site lists it under "Most popular")
        let text = "Big news today | Site\nMenu one two\nBig news today\n\
            Body text here, long enough to be the article block.\nMost popular\nBig news today";
        let rules = [("Menu one two", Action::Remove), ("Big news today", Action::Remove)];
        let mut c = cleaner(&rules, 0);
        assert_eq!(c.clean(text).text, "| Site\nBody text here, long enough to be the article block.\nMost popular");
        c.keep_title = true;
        assert_eq!(
            c.clean(text).text,
            "| Site\nBig news today\nBody text here, long enough to be the article block.\nMost popular",
            "the copy above the article is given back, the listed one after it is not"
        );
    }

    #[test]
    fn a_headline_whose_head_a_rule_took_is_given_back_whole() {
        // the site's lists print the headline without its "…", so a rule matches only its head
        let text = "Big news from the Stats Impressive - Blog\nMenu one two\n\
            Big news from the Stats\u{2026} Impressive\n\
            Body text here, long enough to be the article block.";
        let rules = [("Menu one two", Action::Remove), ("Big news from the", Action::Remove)];
        let mut c = cleaner(&rules, 0).with_line_boundary(true);
        c.keep_title = true;
        let kept = c.clean(text).text;
        assert!(kept.contains("\nBig news from the Stats\u{2026} Impressive\nBody"), "{kept}");
    }

    #[test]
    fn the_dateline_and_byline_above_the_article_stay_though_a_rule_matches_them() {
        // the site prints "«weekday», «month» «number», «number»" and "By «name»" on every page
        let text = "Big news today | Site\nMenu one two\nBy Jane Doe\nTuesday, November 6, 2012\n\
            Body text here, long enough to be the article block.\nFooter line here";
        let rules = [
            ("Menu one two", Action::Remove),
            ("By Jane Doe", Action::Remove),
            ("«weekday» «month» «number» «number»", Action::Remove),
            ("Footer line here", Action::Remove),
        ];
        let mut c = cleaner(&rules, 0);
        let body = "Body text here, long enough to be the article block.";
        assert_eq!(c.clean(text).text, format!("Big news today | Site\n{body}"));
        c.keep_title = true;
        assert_eq!(
            c.clean(text).text,
            format!("Big news today | Site\nBy Jane Doe\nTuesday, November 6, 2012\n{body}")
        );
        // only the lines right above the article: a menu line between them and the byline ends the search
        let menu_between = text.replace("Menu one two\nBy Jane Doe", "By Jane Doe\nMenu one two");
        assert_eq!(c.clean(&menu_between).text, format!("Big news today | Site\nTuesday, November 6, 2012\n{body}"));
        // and a dateline after the article is the footer's
        let below = format!("Big news today | Site\n{body}\nTuesday, November 6, 2012");
        assert_eq!(c.clean(&below).text, format!("Big news today | Site\n{body}"));
    }

    #[test]
    fn datelines_are_short_lines_with_a_year_a_month_or_a_byline() {
        for line in
            ["November 06, 2012", "Monday, 11.05.2012 / 12:34 AM / News", "By SVEN GRUNDBERG", "Nov• 01•12", "Sept 27"]
        {
            assert!(is_dateline(line), "{line}");
        }
        for line in [
            "The Washington Post",
            "Maybe later",
            "Marching orders",
            "",
            "In 2012 the council approved the budget for the coming year after a long debate",
        ] {
            assert!(!is_dateline(line), "{line}");
        }
    }
}
