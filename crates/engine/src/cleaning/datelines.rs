//! Stage `datelines`: the dateline and byline right above the article block ("November 6, 2012 | 11:00
//! AM", "By A. Writer") are the article's, though the site prints the same pattern on every page and a
//! rule took them. They are given back. Not a date the template prints in its masthead: one string
//! with the site's menu above it, on every page ("Home | World | Local" then "Friday 3 January 2025 |
//! Updated 06:13"); that is the page's date, and it stays removed.

use std::sync::LazyLock;

use super::stage::{PageState, SpanStage};
use super::{Cleaner, Layout, Match, Span, SpanKind, work};
use crate::clean_settings::Stage;
use crate::mutable::MutableSet;

/// The lines right above the article block that a removal took whole and that read as its dateline or
/// byline ("November 6, 2012 | 11:00 AM", "By A. Writer"): they are the article's, though the site
/// prints the same pattern on every page. They are given back, unless a match of `matches` (sorted)
/// took the line together with a whole line above it that is no dateline: a masthead's date. `patterns`
/// are the source's mutable patterns: their month names are a date's too.
pub(super) fn lost_datelines(
    doc: &Layout,
    spans: &[Span],
    matches: &[Match],
    (block_start, _): (usize, usize),
    patterns: &MutableSet,
) -> Vec<(usize, usize)> {
    let text = doc.text();
    let mut lines = Vec::new();
    let mut end = text[..block_start].trim_end_matches('\n').len();
    for _ in 0..2 {
        let start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        let whole = spans.iter().any(|s| s.kind != SpanKind::CutAfter && s.start <= start && s.end >= end);
        if start == 0
            || !whole
            || !is_dateline(&text[start..end], patterns)
            || in_masthead(doc, matches, start, patterns)
        {
            break;
        }
        lines.push((start, end));
        end = start - 1;
    }
    lines
}

/// Whether a match reaches into the line starting at `line_start` from above it and holds a whole line
/// there that reads as no dateline (the site's menu): the template prints this date with its masthead.
/// The matches that start before the line are looked at once, and the lines above it read once.
fn in_masthead(doc: &Layout, matches: &[Match], line_start: usize, patterns: &MutableSet) -> bool {
    let before = &matches[..matches.partition_point(|m| m.start < line_start)];
    // of the matches reaching into the line, the first whole line any holds (the earliest holds the most)
    let first = before
        .iter()
        .filter(|m| m.end > line_start)
        .map(|m| {
            let ls = doc.line_start(m.start);
            if doc.is_blank(ls, m.start) { ls } else { doc.line_end(m.start) + 1 }
        })
        .min();
    first.is_some_and(|first| {
        first < line_start
            && work::scan(&doc.text()[first..line_start - 1])
                .split('\n')
                .any(|line| !line.trim().is_empty() && !is_dateline(line, patterns))
    })
}

/// Whether `start..end` (a line) reads as a dateline or a byline ([`is_dateline`]): counted by the
/// layout's word starts first, so a long line is never read.
pub(super) fn reads_as_dateline(doc: &Layout, start: usize, end: usize, patterns: &MutableSet) -> bool {
    doc.words(start, end) <= DATELINE_WORDS && is_dateline(work::scan(&doc.text()[start..end]), patterns)
}

/// The most words a dateline or byline holds.
const DATELINE_WORDS: usize = 14;

/// A short line with a date (a year, or a month's name: the bundled patterns' or the source's `patterns`,
/// which read the names of the languages its pages write dates in), a time of day ("03:06 PM") or opening
/// a byline ([`opens_byline`]).
fn is_dateline(line: &str, patterns: &MutableSet) -> bool {
    // the month names of the default mutable patterns ("month", "month_abbr"), whatever an editor made of
    // the source's
    static PATTERNS: LazyLock<MutableSet> = LazyLock::new(MutableSet::defaults);
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() || words.len() > DATELINE_WORDS {
        return false;
    }
    let year = |w: &str| {
        let dated = w.contains(['.', '/', '•']);
        w.split(|c: char| !c.is_ascii_digit())
            .any(|d| d.len() == 4 && (d.starts_with("19") || d.starts_with("20")) || d.len() == 2 && dated)
    };
    // "Nov•" too: the patterns allow ASCII punctuation after the name only
    let month = |w: &str| {
        let w = w.trim_end_matches(|c: char| !c.is_alphanumeric());
        [&*PATTERNS, patterns]
            .iter()
            .any(|set| set.classify(w).is_some_and(|p| set.patterns()[p].name.starts_with("month")))
    };
    // "03:06", "11:00am": an hour (up to 23), a colon, two digits of minutes (a dateline's second line)
    let time = |w: &str| {
        let (h, m) = w.split_once(':').unwrap_or_default();
        let m = m.as_bytes();
        let two = |d: &[u8]| d.iter().fold(0, |n, b| n * 10 + u32::from(b - b'0'));
        (1..=2).contains(&h.len())
            && h.bytes().all(|b| b.is_ascii_digit())
            && two(h.as_bytes()) < 24
            && m.len() >= 2
            && m[..2].iter().all(u8::is_ascii_digit)
            && m.get(2).is_none_or(|b| !b.is_ascii_digit())
            && two(&m[..2]) < 60
    };
    opens_byline(words[0], words.get(1).copied()) || words.iter().any(|w| year(w) || month(w) || time(w))
}

/// "By" in the languages whose month and weekday names mining reads: a byline's first word ("Von A.
/// Writer", "Par A. Writer", "di A. Writer", Arabic "بقلم"). Not where "by" is an article ("Του", "Της"
/// in Greek) or a word any line may open with ("de" in Romanian).
const BY: &[&str] = &["by", "von", "par", "por", "di", "door", "av", "af", "oleh", "بقلم"];

/// "Author" in those languages: a byline's first word when a colon follows it ("Autor: A. Writer",
/// "Auteur : A. Writer", "Szerző: A. Writer").
const AUTHOR: &[&str] = &["author", "autor", "auteur", "autore", "автор", "szerző", "kirjoittaja", "συντάκτης"];

/// Whether a line whose first words are `first` and `second` opens a byline: "By A. Writer" (or "By" in
/// another language), "Author: A. Writer", and the blogs' "Posted by: A. Writer", "Written By: A. Writer".
fn opens_byline(first: &str, second: Option<&str>) -> bool {
    let colon = first.ends_with(':') || second == Some(":");
    is_word(first, BY)
        || colon && is_word(first, AUTHOR)
        || ["posted", "written"].iter().any(|p| first.eq_ignore_ascii_case(p))
            && second.is_some_and(|w| is_word(w, &["by"]))
}

/// Whether `word`, a colon after it aside, is one of `list` (small letters) in any case.
fn is_word(word: &str, list: &[&str]) -> bool {
    let w = word.trim_end_matches(':');
    list.iter().any(|x| w.eq_ignore_ascii_case(x) || !w.is_ascii() && w.to_lowercase() == *x)
}

/// Whether the line holding `pos` opens with "By" ([`BY`], in any of its languages). Not "Posted by" nor
/// "Author:": the datasets' golds disagree on whether such a line under the title is the article's.
pub(super) fn on_byline(doc: &Layout, pos: usize) -> bool {
    let start = doc.line_start(pos);
    // the line's first two words open it (whitespace aside): read those, not the line
    let text = doc.text();
    let line_end = doc.line_end(pos);
    let first = start + (text[start..line_end].len() - text[start..line_end].trim_start().len());
    let end = (first + BYLINE_HEAD).min(line_end);
    let end = (end..=line_end).find(|&e| text.is_char_boundary(e)).unwrap_or(line_end);
    work::add(end - start);
    let mut words = text[first..end].split_whitespace();
    let head = words.next().unwrap_or_default();
    // the name follows on the line (a line of "By" alone, the name a link below it, is the template's)
    words.next().is_some() && is_word(head, BY)
}

/// The bytes of a line read for its first two words: a byline's ("Written By:") are shorter.
const BYLINE_HEAD: usize = 24;

pub(super) struct Datelines;

impl SpanStage for Datelines {
    fn run(&self, cleaner: &Cleaner, page: &mut PageState) {
        if let Some(block) = page.block() {
            let lines = lost_datelines(page.doc, &page.spans, &page.template, block, cleaner.patterns());
            if !lines.is_empty() {
                page.give_back(lines, Stage::Datelines);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::{BYLINE_PAGE, cleaner, titled};
    use crate::rules::Action;

    #[test]
    fn the_dateline_and_byline_above_the_article_stay_though_a_rule_matches_them() {
        // the site prints "«weekday», «month» «number», «number»" and "By «name»" on every page
        let text = BYLINE_PAGE;
        let rules = [
            ("Menu one two", Action::Remove),
            ("By Jane Doe", Action::Remove),
            ("«weekday» «month» «number» «number»", Action::Remove),
            ("Footer line here", Action::Remove),
        ];
        let mut c = cleaner(&rules, 0);
        let body = "Body text here, long enough to be the article block.";
        assert_eq!(c.clean(text).text, format!("Big news today | Site\n{body}"));
        c = titled(c);
        assert_eq!(
            c.clean(text).text,
            format!("Big news today | Site\nBy Jane Doe\nTuesday, November 6, 2012\n{body}")
        );
        let off = c.clone().with_stage(Stage::Datelines, false);
        assert_eq!(off.clean(text).text, format!("Big news today | Site\n{body}"), "off: they go");
        // only the lines right above the article: a menu line between them and the byline ends the search
        let menu_between = text.replace("Menu one two\nBy Jane Doe", "By Jane Doe\nMenu one two");
        assert_eq!(c.clean(&menu_between).text, format!("Big news today | Site\nTuesday, November 6, 2012\n{body}"));
        // and a dateline after the article is the footer's
        let below = format!("Big news today | Site\n{body}\nTuesday, November 6, 2012");
        assert_eq!(c.clean(&below).text, format!("Big news today | Site\n{body}"));
    }

    #[test]
    fn a_dateline_with_a_month_named_in_the_sources_language_is_given_back() {
        use crate::cleaning::tests::rule_for;
        use crate::mutable::date_names::{LANGUAGES, with_languages};
        use crate::mutable::default_patterns;
        use crate::tokens::Tokenizer;
        // a French source's patterns read its month names; a dateline without a year or a time is one
        let french = with_languages(&default_patterns(), &[&LANGUAGES[1]]);
        let set = MutableSet::new(french.clone()).unwrap();
        let mined = [("Accueil Politique Sport", Action::Remove), ("«weekday» «number» «month»", Action::Remove)];
        let rules: Vec<_> = (mined.iter().enumerate())
            .map(|(i, (t, a))| rule_for(Tokenizer::Text, &format!("r{i}"), t, *a, &set))
            .collect();
        let c = titled(Cleaner::from_rules(Tokenizer::Text, &french, &rules, 0).unwrap());
        let body = "Le conseil a annoncé lundi que le nouveau port ouvrira l'année prochaine.";
        let text = format!("Le port ouvre | Journal\nAccueil Politique Sport\nMercredi 15 mars\n{body}");
        assert_eq!(c.clean(&text).text, format!("Le port ouvre | Journal\nMercredi 15 mars\n{body}"));
        assert!(is_dateline("15 mars", &set) && !is_dateline("15 mars", &MutableSet::defaults()));
        assert!(is_dateline("15 March", &set), "English names still");
    }

    #[test]
    fn a_date_mined_in_one_string_with_the_menu_above_it_is_the_mastheads_and_stays_removed() {
        let body = "Body text here, long enough to be the article block.";
        let text =
            format!("Big news today | Site\nHome | World | Local\nFriday 3 January 2025\n{body}\nFooter line here");
        let rules =
            [("Home | World | Local Friday 3 January 2025", Action::Remove), ("Footer line here", Action::Remove)];
        let c = titled(cleaner(&rules, 0));
        assert_eq!(c.clean(&text).text, format!("Big news today | Site\n{body}"));
        // the same date taken by a rule of its own is the article's dateline, given back
        let alone = [("Home | World | Local", Action::Remove), ("Friday 3 January 2025", Action::Remove)];
        let c = titled(cleaner(&alone, 0));
        assert_eq!(
            c.clean(&text).text,
            format!("Big news today | Site\nFriday 3 January 2025\n{body}\nFooter line here")
        );
    }

    #[test]
    fn datelines_are_short_lines_with_a_year_a_month_a_time_or_a_byline() {
        for line in [
            "November 06, 2012",
            "Monday, 11.05.2012 / 12:34 AM / News",
            "By SVEN GRUNDBERG",
            "Nov• 01•12",
            "Sept 27",
            // a dateline's second line
            "03:06 PM EDT",
            "Posted by: Erin Molnar, Marketing Coordinator,",
            "Written By: A. Writer -",
            "Updated 9:30",
            // "By" and "Author:" in the languages whose dates mining reads
            "Von Anna Schmidt",
            "Par Jean Dupont",
            "di Mario Rossi",
            "Por Ana García",
            "Door Jan de Vries",
            "Av Karin Berg",
            "Oleh Budi Santoso",
            "Autor: Jan Kowalski",
            "Auteur : Jean Dupont",
            "АВТОР: Иван Петров",
            "Author: Jane Doe",
        ] {
            assert!(is_dateline(line, &MutableSet::defaults()), "{line}");
        }
        for line in [
            "The Washington Post",
            "Maybe later",
            "Marching orders",
            "Score 2:1",
            "Posted on the board",
            "Bypass closed",
            "Vonnegut returns",
            "Parking closed",
            "Author of the week",
            "Ratio 10:100",
            "Stand 31:05",
            "",
            "In 2012 the council approved the budget for the coming year after a long debate",
        ] {
            assert!(!is_dateline(line, &MutableSet::defaults()), "{line}");
        }
    }

    #[test]
    fn a_byline_is_read_from_its_lines_first_two_words() {
        let text = format!("Von Anna Schmidt\n\nVonnegut returns\nPosted by: A. Writer\n{}\nby", "x".repeat(300_000));
        let doc = Layout::new(&text);
        let at = |needle: &str| text.find(needle).unwrap() + 2;
        assert!(on_byline(&doc, at("Von")));
        assert!(!on_byline(&doc, at("Vonnegut")));
        assert!(!on_byline(&doc, at("Posted")), "by itself only");
        assert!(!on_byline(&doc, text.len()), "a line of one word");
        assert!(!on_byline(&doc, text.find("\n\n").unwrap() + 1), "a blank line");
        // a line of one long word: its first bytes are read, not the line
        let (byline, read) = work::measure(|| on_byline(&doc, at("xxx") + 1000));
        assert!(!byline);
        assert!(read <= BYLINE_HEAD, "work bounded by the head read: {read}");
    }
}
