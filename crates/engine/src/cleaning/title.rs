//! Stage `title`: the page's title stays. The document's first line is the HTML `<title>` (the page view
//! puts it first); news pages print it again above the article, often with the byline and date between it
//! and the last header string, so a header cut would take it. With this stage the cut stops at the line
//! that repeats the title, and between the title and the header string only what rules match goes. Where
//! no line repeats the title (a `<title>` written for search engines), an HTML page's last `<h1>` line the
//! title does not hold (a logo's is the site's name, which the title ends with) is its headline. The
//! title helpers here are shared with stages `headline` and `short-runs`.

use super::datelines::on_byline;
use super::stage::{PageState, SpanStage};
use super::{Cleaner, Layout, Match, Span, SpanKind, merge_spans, union, work};
use crate::clean_settings::Stage;
use crate::view::{PathId, Structure};

/// The start of the line before `end` that repeats most of the page's title (of equal ones, the last): the
/// first line of the document holds it (the naive text of a page starts with the HTML `<title>`), it has at
/// least two words, and no rule matches it whole (the site's name is in the title too, but on every page).
/// News pages print the title again above the article, often with the byline and date between it and the
/// last header string, so a cut-before would take it.
pub fn title_line(doc: &Layout, start: usize, end: usize, matches: &[Match]) -> Option<usize> {
    let text = doc.text();
    // the site's name is a line a rule matches whole; a date in the title is no reason to lose it
    let whole = |ls: usize, line: &str| {
        let (a, b) = (ls + (line.len() - line.trim_start().len()), ls + line.trim_end().len());
        matches.iter().any(|m| m.start <= a && m.end >= b)
    };
    // whole lines only: the header string's own line, cut short at `end`, is not the title
    let complete = |ls: usize, line: &str| line.ends_with('\n') || ls + line.len() == text.len();
    // but a line that holds most of the title proper is the headline, even if a rule matches it whole:
    // this page's headline is listed on the site's other pages ("Top stories"). Most of the title proper,
    // not of the whole title: the site's name after a short headline ("Nook - A Writer's Blog") is most
    // of the title's words and none of the headline's
    let proper = title_proper(doc.title());
    let proper_words = crate::words::count(proper);
    let most = |line: &str| {
        let t = fold(line.trim());
        !proper.is_empty()
            && (t.contains(proper) || (proper.contains(&t) && 2 * crate::words::count(&t) > proper_words))
    };
    // the fullest repeat, the last of those: an author's name in the title is a repeat of it too
    title_lines(doc, start, end)
        .filter(|&(ls, line)| complete(ls, line) && (!whole(ls, line) || most(line)))
        .max_by_key(|&(ls, line)| (crate::words::count(line), ls))
        .map(|(ls, _)| ls)
}

/// The lines inside `start..end`, below the first line, that repeat the title (see [`is_title`]), with
/// their starts.
pub(super) fn title_lines<'a>(doc: &'a Layout, start: usize, end: usize) -> impl Iterator<Item = (usize, &'a str)> {
    let (text, first) = (doc.text(), doc.title());
    let below_first = (doc.line_end(0) + 1).min(text.len());
    let from = start.max(below_first).min(end);
    text[from..end]
        .split_inclusive('\n')
        .scan(from, |pos, line| {
            let at = *pos;
            *pos += line.len();
            Some((at, line))
        })
        // a line's tail (a removal took its head) is no repeat of the title
        .filter(move |&(at, line)| (at == 0 || text.as_bytes()[at - 1] == b'\n') && is_title(first, line))
}

/// Whether `pos` starts the document's first line or a line that repeats it (see [`is_title`]).
pub(super) fn starts_a_title_line(doc: &Layout, pos: usize) -> bool {
    let text = doc.text();
    if pos > 0 && text.as_bytes()[pos - 1] != b'\n' {
        return false;
    }
    let line = work::scan(&text[pos..doc.line_end(pos)]);
    pos == 0 || is_title(doc.title(), line)
}

/// Whether `pos` is on the document's first line or on a line that repeats it (see [`is_title`]), at
/// its start or inside it: the page's title or its headline.
pub(super) fn on_a_title_line(doc: &Layout, pos: usize) -> bool {
    let (start, end) = (doc.line_start(pos), doc.line_end(pos));
    // a title is a line of a few dozen words: a longer one is not read (it would be once per match)
    start == 0 || (end - start <= 2 * MAX_TITLE_BYTES && is_title(doc.title(), work::scan(&doc.text()[start..end])))
}

/// The document's first line, folded (see [`fold`]): the naive text of a page starts with the HTML
/// `<title>`.
pub(super) fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default().trim();
    // every line is compared with the title: a first line this long is a paragraph or a page whose
    // markup never closed its `<title>`, not a title, and reading it once per line would cost the
    // page's length squared
    if line.len() > MAX_TITLE_BYTES {
        return String::new();
    }
    fold(line)
}

/// The longest first line read as the page's title: a `<title>` is a line, a few dozen words at most.
const MAX_TITLE_BYTES: usize = 1000;

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
    let (Some(head), Some(second)) = (words.next(), words.next()) else {
        // one word: the title proper whole, where the title has more ("Nook - A Writer's Blog")
        return t.len() >= 3 && t.len() <= first.len() && one_word_title(first, t);
    };
    // most lines are not the title: their first two words are not both in it (cheaper than folding the
    // line). Both cases below need them there: the whole line is in the title, or it starts with the
    // title proper, which has a third word after them.
    if t.len() < 10 || !contains_folded(first, head) || !contains_folded(first, second) {
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

/// Whether `word` is the whole title proper of `first` (folded), which has more after it.
fn one_word_title(first: &str, word: &str) -> bool {
    // this runs on every one-word line: the title (trimmed, folded) must start with the word before its
    // title proper is looked for; an ASCII word needs only its case folded
    let len = if word.is_ascii() {
        if !first.as_bytes().get(..word.len()).is_some_and(|head| head.eq_ignore_ascii_case(word.as_bytes())) {
            return false;
        }
        word.len()
    } else {
        let folded = fold(word);
        if !first.starts_with(&folded) {
            return false;
        }
        folded.len()
    };
    let proper = title_proper(first);
    proper.len() < first.len() && proper.trim_end().len() == len
}

/// Whether `first` (folded) holds `word` folded; an ASCII word is folded without allocating (this runs
/// on every line of a page).
fn contains_folded(first: &str, word: &str) -> bool {
    let mut buf = [0u8; 32];
    match buf.get_mut(..word.len()) {
        Some(lower) if word.is_ascii() => {
            lower.copy_from_slice(word.as_bytes());
            lower.make_ascii_lowercase();
            first.contains(std::str::from_utf8(lower).expect("ASCII"))
        }
        _ => first.contains(&fold(word)),
    }
}

/// The title proper: the (folded) first line before " - Site". A title written without spaces (Chinese,
/// Japanese: "标题_网站") has its site's name after a bare `_`, `|`, `｜` or `-` (a dash is folded to `-`).
fn title_proper(first: &str) -> &str {
    let spaced = [" - ", " | ", " :: "].iter().filter_map(|sep| first.split(sep).next()).min_by_key(|p| p.len());
    match spaced.unwrap_or(first) {
        proper if proper.len() < first.len() || first.contains(char::is_whitespace) => proper,
        _ => first.split(['_', '|', '｜', '-']).next().unwrap_or(first),
    }
}

/// Gives back the title line inside the cut before `header_end` (the header string's end): the span
/// holding it stops there, and between the title and `header_end` only what rules match goes (the header
/// string itself among them), except on a byline ("By A. Writer, July 3"): the title and the byline are
/// the article's. What islands or the footer's cut joined to the span after `header_end` stays removed.
pub(super) fn keep_title(
    doc: &Layout,
    structure: Option<&Structure>,
    spans: Vec<Span>,
    matches: &[Match],
    gap: usize,
    header_end: usize,
    footer: bool,
) -> Vec<Span> {
    let text = doc.text();
    let Some(cut) = spans.iter().position(|s| s.kind == SpanKind::CutBefore && s.start == 0) else { return spans };
    let title = title_line(doc, 0, header_end, matches).or_else(|| headline_not_in_title(doc, structure?, header_end));
    let Some(title) = title else { return spans };
    let mut out = spans;
    let s = out.remove(cut);
    // the title line itself stays even if a rule matches it (the site's other pages list this headline)
    let title_end = doc.line_end(title);
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

/// The start of the last line before `end` that sits in an `<h1>` element, has two words or more and is
/// `usable` (asked of each such line's bounds, in order): the page's headline where its `<title>` words it
/// otherwise (news sites write one title for search engines and another for readers). One pass over the
/// page's elements and one over the lines before `end`.
pub(super) fn headline_element(
    doc: &Layout,
    structure: &Structure,
    end: usize,
    mut usable: impl FnMut(usize, usize) -> bool,
) -> Option<usize> {
    if structure.lines() != doc.lines() {
        return None;
    }
    let mut in_h1 = vec![false; structure.paths()];
    for p in 1..structure.paths() {
        in_h1[p] = in_h1[structure.parent(p as PathId) as usize] || structure.tag(p as PathId) == "h1";
    }
    work::add(structure.paths());
    let last = doc.line_of(end);
    let mut found = None;
    for k in 1..last {
        let (ls, le) = doc.line_range(k);
        if in_h1[structure.line_path(k) as usize] && doc.line_words(k) >= 2 && le < end && usable(ls, le) {
            found = Some(ls);
        }
    }
    work::add(last);
    found
}

/// [`headline_element`], a logo told from a headline as stages `title` and `headline` both tell them:
/// the site's name in a logo's `<h1>` is in the `<title>`, which ends with it; the story's headline,
/// where no line repeats the title, is not. A rule matching the line whole says nothing of it: the
/// site's other pages list the story's headline too.
pub(super) fn headline_not_in_title(doc: &Layout, structure: &Structure, end: usize) -> Option<usize> {
    let text = doc.text();
    let first = first_line(text);
    headline_element(doc, structure, end, |ls, le| !first.contains(&fold(text[ls..le].trim())))
}

/// The stage: only where a header string cut.
pub(super) struct Title;

impl SpanStage for Title {
    fn run(&self, cleaner: &Cleaner, page: &mut PageState) {
        if let Some(h) = page.header {
            let spans = std::mem::take(&mut page.spans);
            let after = keep_title(
                page.doc,
                page.structure,
                spans.clone(),
                &page.template,
                cleaner.settings.merge_gap,
                h.end,
                page.footer.is_some(),
            );
            page.spans = spans;
            page.replace(after, Stage::Title);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::{TITLED_PAGE, cleaner, titled};
    use crate::rules::Action;

    /// [`title_line`] of `text` up to where `end` starts, its second line (the site's name, `name`) matched
    /// whole by a rule.
    fn title_under_name(text: &str, name: &str, end: &str) -> Option<usize> {
        let at = text.find('\n').unwrap() + 1;
        let m = Match { start: at, end: at + name.len(), rule: 0 };
        title_line(&Layout::new(text), 0, text.find(end).unwrap(), &[m])
    }

    #[test]
    fn the_sites_name_after_a_short_headline_is_not_the_headline() {
        // the name is most of the title's words, and a rule matches its line whole on every page
        let name = "The BLT: The Blog of Legal Times";
        let text = format!("The Morning Wrap - {name}\n{name}\nMenu\nThe Morning Wrap\nBody");
        let headline = Some(text.find("The Morning Wrap\nBody").unwrap());
        assert_eq!(title_under_name(&text, name, "Body"), headline);
        assert_eq!(title_under_name(&text, name, "The Morning Wrap\nBody"), None, "the name is no headline");
    }

    #[test]
    fn a_one_word_headline_repeats_the_title_proper() {
        let text = "Nook — A Writer's Blog\nA Writer's Blog\nMenu\nNook\nby A. Writer\nBody";
        assert_eq!(title_under_name(text, "A Writer's Blog", "Body"), Some(text.find("Nook\nby").unwrap()));
        // a word of the title that is not all of its title proper is no headline, nor a title of one word
        assert!(!is_title(&first_line("Nook and cranny - Blog"), "Nook"));
        let paragraph = "words of a long first line ".repeat(40);
        assert_eq!(first_line(&format!("{paragraph}\nwords of a long first line")), "", "too long for a title");
        assert!(!is_title(&first_line(&paragraph), "words of a long first line"));
        assert!(!is_title(&first_line("Nook"), "Nook"));
        assert!(is_title(&first_line("Ñandú - Blog"), "ñandú") && !is_title(&first_line("Ñandúes - Blog"), "Ñandú"));
        // a title written without spaces has its site's name after a bare separator
        for title in
            ["港口明年开放_港口日报", "港口明年开放-港口日报", "港口明年开放｜港口日报", "港口明年开放|港口日报"]
        {
            assert!(is_title(&first_line(title), "港口明年开放"), "{title}");
            assert!(!is_title(&first_line(title), "港口明年"), "{title}: part of the headline");
        }
        assert!(!is_title(&first_line("港口明年开放"), "港口明年开放"), "no site's name after it");
    }

    #[test]
    fn the_title_line_is_the_last_repeat_of_the_first_line_that_is_not_the_sites_name() {
        let text = "Big news today | Site\nSite\nMenu\nBig news today\nby A. Writer\nShare\nBody text here.";
        let at = |s: &str| text.find(s).unwrap();
        let title = at("Big news today\nby");
        // "Site" is in the title too, but a single word; "Big news today" is the title line
        assert_eq!(title_line(&Layout::new(text), 0, at("Body"), &[]), Some(title));
        assert_eq!(title_line(&Layout::new(text), 0, title, &[]), None, "not inside the cut");
        // a line a rule matches whole is the site's name, not the page's title...
        let site = "Big news today for all | Site news daily\nSite news daily\nMenu\nBody";
        let name = site.find('\n').unwrap() + 1;
        let m = Match { start: name, end: name + "Site news daily".len(), rule: 0 };
        assert_eq!(title_line(&Layout::new(site), 0, site.find("Body").unwrap(), &[]), Some(name));
        assert_eq!(title_line(&Layout::new(site), 0, site.find("Body").unwrap(), &[m]), None);
        // ...unless it holds most of the title: the page's headline, which the site's other pages list
        let m = Match { start: title, end: title + "Big news today".len(), rule: 0 };
        assert_eq!(title_line(&Layout::new(text), 0, at("Body"), &[m]), Some(title));
        // the title proper with a dateline after it on its line is the title too
        let dated = "Big news today | Site\nMenu\nBig news today, posted on Nov 6\nBody";
        assert_eq!(title_line(&Layout::new(dated), 0, dated.find("Body").unwrap(), &[]), dated.find("Big news today,"));
        // a rule that matches part of it (a date, "today") does not make it the site's
        let part = Match { start: title + "Big news ".len(), end: title + "Big news today".len(), rule: 0 };
        assert_eq!(title_line(&Layout::new(text), 0, at("Body"), &[part]), Some(title));
    }

    #[test]
    fn the_title_is_the_fullest_repeat_of_the_first_line_not_the_authors_name_in_it() {
        let text = "Big news from the city | Jane Q. Doeman | Site\nMenu\nBig news from the city\n\
            Share this now\nJane Q. Doeman\nMonday\nBody";
        let spans = |end: usize| title_line(&Layout::new(text), 0, end, &[]).map(|at| &text[at..at + 5]);
        assert_eq!(spans(text.find("Monday").unwrap()), Some("Big n"));
        // the name alone, when the headline is not there
        let no_headline = text.replace("\nBig news from the city\n", "\nAn aside\n");
        let at = title_line(&Layout::new(&no_headline), 0, no_headline.find("Monday").unwrap(), &[]).unwrap();
        assert!(no_headline[at..].starts_with("Jane Q. Doeman"));
    }

    #[test]
    fn the_title_matches_its_headline_across_typographic_quotes_and_dashes() {
        let text = "Man's Best Friend - It's Back\nMenu\nMan\u{2019}s Best Friend \u{2014} It\u{2019}s Back\nBody";
        assert_eq!(title_line(&Layout::new(text), 0, text.find("Body").unwrap(), &[]), text.find("Man\u{2019}s"));
    }

    #[test]
    fn keep_title_stops_a_header_cut_at_the_title_and_removes_what_rules_match_below_it() {
        let text = TITLED_PAGE;
        let rules = [
            ("Menu one two", Action::Remove),
            ("Email this page", Action::Remove),
            ("July «number»", Action::Remove),
            ("Share this now", Action::CutBefore),
        ];
        let mut c = cleaner(&rules, 0);
        assert_eq!(c.clean(text).text, "Body text here, long enough to be the article block.");
        c = titled(c);
        // the byline stays whole, its date with it; what else rules match below the title goes
        assert_eq!(
            c.clean(text).text,
            "Big news today\nby A. Writer, July 3\nBody text here, long enough to be the article block."
        );
        let off = c.clone().with_stage(Stage::Title, false);
        assert!(
            !off.clean(text).text.contains("by A. Writer"),
            "off: the cut takes the byline: {}",
            off.clean(text).text
        );
    }

    #[test]
    fn a_headline_the_title_words_otherwise_is_found_in_its_h1() {
        // the <title> is written for search engines, the <h1> for readers; the site's name is an <h1> too
        let html = "<html><head><title>Pyramids rumour proves flimsy - The Paper</title></head><body>\
            <h1>The Paper</h1><div>Menu one two</div><h1>No date with the wrecking ball</h1>\
            <p>By A. Writer</p><p>Share this now</p>\
            <p>Body text here, long enough to be the article block.</p></body></html>";
        let view = crate::view::PageView::of_html(html);
        let rules =
            [("The Paper", Action::Remove), ("Menu one two", Action::Remove), ("Share this now", Action::CutBefore)];
        let cleaned = |c: &Cleaner, structure| {
            let matches = c.matches(view.text());
            crate::cleaning::render(view.text(), &c.spans_on(view.text(), &matches, structure))
        };
        let c = titled(cleaner(&rules, 0));
        let on = cleaned(&c, view.structure());
        assert_eq!(
            on,
            "No date with the wrecking ball\nBy A. Writer\nBody text here, long enough to be the article block."
        );
        // without the page's elements (a text page) no line repeats the title, and the cut takes the headline
        assert_eq!(cleaned(&c, None), "Body text here, long enough to be the article block.");
    }

    #[test]
    fn a_listed_headline_in_an_h1_stops_the_header_cut_though_a_rule_matches_it_whole() {
        // the site's other pages list this story, so a rule matches its <h1> whole; the logo's <h1> is
        // in the title and does not stop the cut
        let html = "<html><head><title>Leaders further their grip - The Paper</title></head><body>\
            <h1>The Paper</h1><div>Menu one two</div><h1>Elections and the old model</h1>\
            <p>By A. Writer</p><p>Share this now</p>\
            <p>Body text here, long enough to be the article block.</p></body></html>";
        let rules = [
            ("The Paper", Action::Remove),
            ("Menu one two", Action::Remove),
            ("Elections and the old model", Action::Remove),
            ("Share this now", Action::CutBefore),
        ];
        let c = titled(cleaner(&rules, 0));
        let view = crate::view::PageView::of_html(html);
        let matches = c.matches(view.text());
        let on = crate::cleaning::render(view.text(), &c.spans_on(view.text(), &matches, view.structure()));
        assert!(on.starts_with("Elections and the old model\nBy A. Writer\nBody text"), "{on}");
    }

    #[test]
    fn a_kept_title_gives_back_the_title_not_what_islands_joined_to_the_cut() {
        // no article: the header's and the footer's cuts meet over a short island, and the title stays
        let text = "A short note | Site\nA short note\nShare this now\nPrev and next post links go right here now\n\
            Comments follow below here\nA comment that is long enough to be a block of its own, really.";
        let rules = [("Share this now", Action::CutBefore), ("Comments follow below here", Action::CutAfter)];
        let mut c = cleaner(&rules, 0);
        c.settings.islands.words = 10;
        c = titled(c);
        let out = c.clean(text);
        assert_eq!(out.text, "A short note");
        assert_eq!(out.spans.last().map(|s| (s.kind, s.end)), Some((SpanKind::CutAfter, text.len())));
    }
}
