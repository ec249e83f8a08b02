//! The article block: the kept run with the most words on long lines, the part of the page that the cuts
//! and the later steps are measured against. The cleaner's own matches bound the runs (cut strings, list
//! items' markers); in HTML only the words a reader sees count, on the lines a reader sees.

use std::collections::{HashMap, HashSet};

use super::head::{first_line, fold, starts_a_title_line};
use super::{
    Cleaner, LIST_ITEMS, LONG_LINE_WORDS, Layout, Match, Span, SpanKind, kept_runs, merge_spans, splits_runs, union,
    work,
};
use crate::rules::Action;
use crate::tokens::Tokenizer;

impl Cleaner {
    /// The article block of `text`: the largest run between the matches of all rules. Cut strings are
    /// template too: they bound the runs the block is chosen from. Runs after the first footer string
    /// are chosen only if none before it has a long line: a comment thread can outweigh its article, and
    /// it is exactly what the footer string announces. A footer string on the page's own title line is
    /// not its footer (the site lists this page among its headlines); in HTML, neither is one of markup
    /// alone (an empty share bar's `<div>`s, above the article on some of a site's blogs). Runs that open
    /// list items (a comment's "name, date at time") are chosen only if no other run carries words. In
    /// HTML, only the words a reader sees count (not tags, scripts or styles), on the lines a reader sees
    /// (block elements break lines, source line breaks do not), a match of markup alone bounds no run, and
    /// the page's `<title>` stands for its first line.
    pub fn article_block(&self, text: &str, matches: &[Match]) -> Option<(usize, usize)> {
        let lines = if self.tokenizer == Tokenizer::Html { visible_lines(text) } else { String::new() };
        let seen = (self.tokenizer == Tokenizer::Html).then(|| Layout::new(&lines));
        self.article_block_seen(&Layout::new(text), seen.as_ref(), matches)
    }

    /// As [`Cleaner::article_block`], given the layout of the text and, in HTML, of its
    /// [`visible_lines`]: the cleaner reads a page's lines once for all its steps.
    pub(super) fn article_block_seen(
        &self,
        doc: &Layout,
        seen_lines: Option<&Layout>,
        matches: &[Match],
    ) -> Option<(usize, usize)> {
        let text = doc.text();
        let mut items = list_items(doc, matches, |rule| self.rules[rule as usize].fixed);
        let seen = match seen_lines {
            Some(lines) if self.tokenizer == Tokenizer::Html => seen_list_items(
                lines,
                matches,
                |rule| self.rules[rule as usize].shows_fixed,
                || headline_zones(text, lines.text()),
            ),
            _ => Vec::new(),
        };
        items.iter_mut().zip(&seen).for_each(|(a, b)| *a |= b);
        // A short match that is not a line of its own (an idiom, most likely) does not break the article;
        // a list item's marker does.
        // In HTML, what blanks to nothing (markup alone: `</p><p>`, an embedded widget's code) does not
        // break the article either; only template text a reader sees does. Its long lines are those a
        // reader sees: a paragraph wrapped over ten source lines is one.
        let counted_lines = match seen_lines {
            Some(lines) if self.tokenizer == Tokenizer::Html => lines,
            _ => doc,
        };
        let counted = counted_lines.text();
        let splitting = matches
            .iter()
            .enumerate()
            .filter(|&(i, m)| items[i] || (splits_runs(doc, m) && shows_words(counted_lines, m)))
            .map(|(_, m)| m);
        let mut all = union(text, splitting, self.merge_gap, SpanKind::Removed);
        if self.tokenizer == Tokenizer::Html
            && let Some(body) = body_start(text)
        {
            // nothing in the head is the article: a long <meta> description must not win
            all.push(Span { start: 0, end: body, kind: SpanKind::Removed, rules: Vec::new() });
            all = merge_spans(all);
        }
        // a run starting where an item's marker ends is that item
        let mut item_ends: HashSet<usize> =
            matches.iter().zip(&items).filter(|(_, is)| **is).map(|(m, _)| m.end).collect();
        item_ends.extend(removals_ending_items(counted, matches, &seen, &all));
        let opens_item = |run_start: usize| item_ends.contains(&run_start);
        // a footer string that is this page's own title (the site lists its headlines, this one among
        // them) is no footer here
        let first = first_line(text);
        let html_title = if self.tokenizer == Tokenizer::Html { title_element(text) } else { None };
        let first_footer = matches
            .iter()
            .filter(|m| self.rules[m.rule as usize].action == Action::CutAfter)
            .filter(|m| match self.tokenizer {
                Tokenizer::Text => !starts_a_title_line(doc, &first, m.start),
                // and, like a run's bound, a footer string of markup alone is too weak a sign to choose by
                Tokenizer::Html => {
                    !html_title.as_deref().is_some_and(|t| shows_title(work::scan(&counted[m.start..m.end]), t))
                        && shows_words(counted_lines, m)
                }
            })
            .map(|m| m.start)
            .min();
        if let Some(f) = first_footer
            && let Some(block) = article_block_where(
                &counted[..f],
                &all.iter().filter(|s| s.start < f).cloned().collect::<Vec<_>>(),
                opens_item,
            )
            // and it has a line of prose: a footer string that matched early (the site's name under a
            // long <title>) does not make a menu the article
            && self.has_long_line(counted, block)
        {
            return Some(block);
        }
        article_block_where(counted, &all, opens_item)
    }

    /// Whether `block` of `counted` has a long line; in text, not counting the document's first line (the
    /// `<title>`).
    fn has_long_line(&self, counted: &str, (start, end): (usize, usize)) -> bool {
        let from = match self.tokenizer {
            Tokenizer::Text if start == 0 => counted.find('\n').map_or(end, |i| (i + 1).min(end)),
            _ => start,
        };
        long_line_words(&counted[from..end]) > 0
    }
}

/// The article block: the kept run with the most words on long lines (≥ [`LONG_LINE_WORDS`] words),
/// or with the most words if no line is that long. `None` when nothing is kept.
pub fn article_block(text: &str, removed: &[Span]) -> Option<(usize, usize)> {
    article_block_where(text, removed, |_| false)
}

/// As [`article_block`], passing over runs whose start `opens_item` says is a list item's, unless no
/// other run carries words.
fn article_block_where(text: &str, removed: &[Span], opens_item: impl Fn(usize) -> bool) -> Option<(usize, usize)> {
    let (items, runs): (Vec<_>, Vec<_>) =
        kept_runs(text, removed).into_iter().partition(|&(start, _)| opens_item(start));
    largest_run(text, runs).or_else(|| largest_run(text, items))
}

fn largest_run(text: &str, runs: Vec<(usize, usize)>) -> Option<(usize, usize)> {
    let scored: Vec<((usize, usize), usize, usize)> = runs
        .into_iter()
        .map(|(a, b)| ((a, b), long_line_words(&text[a..b]), text[a..b].split_whitespace().count()))
        .filter(|r| r.2 > 0)
        .collect();
    let any_long = scored.iter().any(|r| r.1 > 0);
    // ties go to the earliest run
    scored.iter().rev().max_by_key(|r| if any_long { r.1 } else { r.2 }).map(|r| r.0)
}

/// Whether match `m` shows a reader a word in `counted` (the text, or HTML's [`visible_text`]).
fn shows_words(counted: &Layout, m: &Match) -> bool {
    !counted.is_blank(m.start, m.end)
}

/// Bytes of a page searched for its `<title>`: the head is near the top, and a stray "<title" further down
/// (an SVG's) is not the page's.
const HEAD_BYTES: usize = 32 * 1024;

/// The folded text of an HTML page's `<title>` element (of two words or more), if it has one.
pub(super) fn title_element(html: &str) -> Option<String> {
    let bytes = &html.as_bytes()[..html.len().min(HEAD_BYTES)];
    let open = find_ascii_ci(bytes, b"<title", 0)?;
    let start = open + bytes[open..].iter().position(|&b| b == b'>')? + 1;
    let end = find_ascii_ci(bytes, b"</title", start)?;
    let t = fold(&html[start..end].split_whitespace().collect::<Vec<_>>().join(" "));
    (t.split_whitespace().count() >= 2).then_some(t)
}

/// Where `needle` (ASCII) first occurs in `hay` at or after `from`, ASCII case ignored.
fn find_ascii_ci(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle)).map(|i| from + i)
}

/// Whether the visible text of a match (`shown`, blanked as [`visible_text`]) is two words or more of the
/// page's title.
fn shows_title(shown: &str, title: &str) -> bool {
    let words: Vec<&str> = shown.split_whitespace().collect();
    words.len() >= 2 && title.contains(&fold(&words.join(" ")))
}

/// `html` with what a reader does not see (tags, scripts, styles) blanked out byte for byte: offsets and
/// line breaks stay, so the runs of the document count the words of this text. Blanking the whole
/// document, not each run, matters: a rule that took a script's opening leaves a run that starts inside
/// the script, and its code is no article.
pub(super) fn visible_text(html: &str) -> String {
    // byte by byte: the markup that switches what is shown ('<', '>') is ASCII, so every byte of a
    // character gets the same fate and what is blanked stays valid UTF-8
    let mut out = html.as_bytes().to_vec();
    let mut in_tag = false;
    let mut tag = [0u8; 8];
    let mut tag_len = 0;
    let mut hidden: Option<&[u8]> = None; // inside <script> or <style>: the closing tag awaited
    for b in out.iter_mut() {
        let shown = if in_tag {
            if *b == b'>' {
                in_tag = false;
                let t = &tag[..tag_len];
                let starts = |p: &[u8]| t.len() >= p.len() && t[..p.len()].eq_ignore_ascii_case(p);
                match hidden {
                    Some(end) if starts(end) => hidden = None,
                    None if starts(b"script") => hidden = Some(b"/script"),
                    None if starts(b"style") => hidden = Some(b"/style"),
                    _ => {}
                }
            } else if tag_len < tag.len() {
                tag[tag_len] = *b;
                tag_len += 1;
            }
            false
        } else if *b == b'<' {
            in_tag = true;
            tag_len = 0;
            false
        } else {
            hidden.is_none()
        };
        if !shown && *b != b'\n' {
            *b = b' ';
        }
    }
    String::from_utf8(out).expect("only whole characters are blanked")
}

/// Block-level elements: where a reader sees a new line.
const BLOCK_TAGS: [&[u8]; 38] = [
    b"p",
    b"div",
    b"br",
    b"li",
    b"ul",
    b"ol",
    b"dl",
    b"dt",
    b"dd",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"tr",
    b"table",
    b"section",
    b"article",
    b"header",
    b"footer",
    b"nav",
    b"aside",
    b"blockquote",
    b"pre",
    b"hr",
    b"form",
    b"fieldset",
    b"address",
    b"figure",
    b"figcaption",
    b"main",
    b"option",
    b"title",
    b"body",
    b"head",
    b"html",
    b"center",
];

/// As [`visible_text`], with the lines a reader sees: source line breaks are blanks (HTML collapses
/// them), and each block-level tag starts a line (its `<` becomes a line break).
pub(super) fn visible_lines(html: &str) -> String {
    let mut out = visible_text(html).into_bytes();
    for b in out.iter_mut() {
        if *b == b'\n' {
            *b = b' ';
        }
    }
    let bytes = html.as_bytes();
    let mut i = 0;
    while let Some(k) = bytes[i..].iter().position(|&b| b == b'<') {
        let at = i + k;
        let name_start = at + 1 + usize::from(bytes.get(at + 1) == Some(&b'/'));
        let name_end =
            bytes[name_start..].iter().position(|b| !b.is_ascii_alphanumeric()).map_or(bytes.len(), |e| name_start + e);
        let name = &bytes[name_start..name_end];
        if !name.is_empty() && BLOCK_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name)) && out[at] == b' ' {
            out[at] = b'\n';
        }
        i = at + 1;
    }
    String::from_utf8(out).expect("only ASCII bytes are changed")
}

/// Words on the lines of `run` that have at least [`LONG_LINE_WORDS`].
pub(super) fn long_line_words(run: &str) -> usize {
    run.split('\n').map(|l| l.split_whitespace().count()).filter(|&w| w >= LONG_LINE_WORDS).sum()
}

/// Where an HTML document's `<body` tag starts (ASCII case ignored), if it has one.
pub(super) fn body_start(html: &str) -> Option<usize> {
    find_ascii_ci(html.as_bytes(), b"<body", 0)
}

/// Which matches mark list items: a comment's "name, date at time", a headline's byline. Such a match
/// shares its line with a few words that change (the commenter's name), and its rule opens at least
/// [`LIST_ITEMS`] pieces of text on the page (lines of [`LONG_LINE_WORDS`] words before the next
/// match). Whole lines that repeat are menus, matches across lines are lists of links, and a rule
/// whose other matches are followed by nothing (an archive list's dates) marks no items.
fn list_items(doc: &Layout, matches: &[Match], fixed: impl Fn(u32) -> bool) -> Vec<bool> {
    let extents: Vec<Option<(usize, usize)>> =
        matches.iter().map(|m| fixed(m.rule).then_some((m.start, m.end))).collect();
    let (marks, opened) = item_rules(doc, matches, &extents, |m| splits_runs(doc, m));
    matches.iter().zip(marks).map(|(m, mark)| mark && opened.contains(&m.rule)).collect()
}

/// HTML: as [`list_items`], on the lines a reader sees (`lines`, see [`visible_lines`]), where a
/// comment's marker is mined with the markup around it (`</span> <span class="comment_time">June 27,
/// 2012 at 6:47 pm</span> </dt> <dd …>`): only what a reader sees of a match counts, and only its date
/// shares the commenter's line. Once a rule marks items on the page, all its matches on a line of their
/// own do (a commenter's "name" can be a sentence), except in `zones` (see [`headline_zones`]): the
/// article's own dateline can share the comments' rule.
fn seen_list_items(
    seen: &Layout,
    matches: &[Match],
    fixed: impl Fn(u32) -> bool,
    zones: impl FnOnce() -> Vec<(usize, usize)>,
) -> Vec<bool> {
    // what a reader sees of each match of fixed text (only those mark items), read once: a match of
    // markup can be kilobytes of blanks
    let lines = seen.text();
    let shown: Vec<Option<(usize, usize)>> = matches
        .iter()
        .map(|m| {
            fixed(m.rule).then(|| {
                // bytes, not chars: what markup blanked is ASCII spaces and line breaks
                work::add(m.end - m.start);
                let b = &lines.as_bytes()[m.start..m.end];
                let start = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
                let end = b.iter().rposition(|c| !c.is_ascii_whitespace()).map_or(start, |e| e + 1);
                (m.start + start, m.start + end.max(start))
            })
        })
        .collect();
    let (_, opened) = item_rules(seen, matches, &shown, |m| splits_runs(seen, m) && shows_words(seen, m));
    if opened.is_empty() {
        return vec![false; matches.len()];
    }
    let zones = zones();
    matches
        .iter()
        .zip(&shown)
        .map(|(m, at)| {
            let dated = zones.iter().any(|&(a, b)| m.start >= a && m.start < b);
            opened.contains(&m.rule) && !dated && at.is_some_and(|(start, end)| on_its_line(seen, start, end))
        })
        .collect()
}

/// Whether `start..end` of `counted` is words on a line with more: not empty, not across lines, not
/// whole lines.
fn on_its_line(counted: &Layout, start: usize, end: usize) -> bool {
    start < end && counted.newlines_in(start, end) == 0 && !counted.is_whole_lines(start, end)
}

/// For [`list_items`] and [`seen_list_items`], given the stretch of `counted` that each match shows
/// (`None`: its rule marks nothing): which matches are markers (a stretch sharing its line with fewer
/// than [`LONG_LINE_WORDS`] other words), and the rules whose markers open at least [`LIST_ITEMS`] pieces
/// of text on the page (lines of [`LONG_LINE_WORDS`] words before the next marker or match that
/// `splits` the runs).
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

/// Lines with words below a headline that are still its dateline's and byline's.
const HEADLINE_ZONE_LINES: usize = 2;

/// HTML: the lines a reader sees that repeat the page's `<title>` (its headline, printed once or more)
/// and the few lines below each, where the article's own dateline and byline are.
fn headline_zones(html: &str, lines: &str) -> Vec<(usize, usize)> {
    let Some(title) = title_element(html) else { return Vec::new() };
    let body = body_start(html).unwrap_or(0);
    let mut zones: Vec<(usize, usize)> = Vec::new();
    let mut at = body;
    let mut after = 0;
    for line in lines[body..].split_inclusive('\n') {
        let start = at;
        at += line.len();
        if super::head::is_title(&title, line) {
            zones.push((start, at));
            after = 0;
        } else if let Some(z) = zones.last_mut()
            && after < HEADLINE_ZONE_LINES
            && !line.trim().is_empty()
        {
            z.1 = at;
            after += 1;
        }
    }
    zones
}

/// HTML: the ends of the removals (`all`) that hold an item's marker (`items`, of `matches`) with no
/// more than the rest of the marker's line after it: the marker's rule is also mined with more markup
/// ("… 4:51 am</span></dt><dd>"), and the longer match bounds the run the item opens.
fn removals_ending_items(lines: &str, matches: &[Match], items: &[bool], all: &[Span]) -> Vec<usize> {
    let mut ends: Vec<usize> = matches.iter().zip(items).filter(|(_, is)| **is).map(|(m, _)| m.end).collect();
    ends.sort_unstable();
    all.iter()
        .filter(|s| {
            let i = ends.partition_point(|&e| e < s.start);
            let last = ends[i..].iter().take_while(|&&e| e <= s.end).last();
            last.is_some_and(|&e| !lines[e..s.end].trim_end().contains('\n'))
        })
        .map(|s| s.end)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cleaning::tests::{cleaner, cleaner_for};

    #[test]
    fn a_footer_string_matching_above_the_article_does_not_make_a_menu_the_article() {
        // "Talks resume today" is a headline list's entry on other pages, a footer string there; here it
        // is the page's own title, above the article
        let text = "Home\nScores\nTeams\nTalks resume today\nFriday, 11.06.2012\n\
            The talks between the league and the players resumed on Friday in the city.\n\
            Both sides said the meeting was a first step, and more would follow soon.\n\
            Top headlines\nTalks resume today\nAnother story";
        let rules = [("Talks resume today", Action::CutAfter), ("Top headlines", Action::Remove)];
        let c = cleaner(&rules, 0);
        let out = c.clean(text).text;
        assert!(out.contains("The talks between") && out.contains("more would follow soon."), "{out}");
        assert!(!out.contains("Another story"), "{out}");
    }

    #[test]
    fn a_long_title_above_the_sites_name_is_not_the_article() {
        // the site's name is a line of its own at the top and at the foot; an editor made the foot's a
        // footer string. A <title> of eight words or more above the name is no article either.
        let text = "Biscuit Home Decor and Bedding for Everyone at Home\nMenu\nDailyCandy\nBiscuit Home\n\
            Sheets shopping can be a snooze, but this new shop makes it fun again.\n\
            The decorator launched the site with the help of two friends this week.\n\
            DailyCandy\nAbout us\nContact";
        let rules = [("DailyCandy", Action::CutAfter), ("Menu", Action::Remove)];
        let c = cleaner(&rules, 0).with_line_boundary(true);
        let out = c.clean(text).text;
        assert!(out.contains("Sheets shopping") && out.contains("this week."), "{out}");
        assert!(!out.contains("About us"), "{out}");
    }

    #[test]
    fn a_footer_string_that_is_the_pages_own_title_does_not_make_a_comment_the_article() {
        // the site's sidebar links this page ("Aleph: comments") on every other page, after the article:
        // an editor made it a footer string. Here it is the <title> and the headline, and the comments
        // below the real footer outweigh the article.
        let comment = "I read this twice and it said more to me the second time than the first, thank you.";
        let text = format!(
            "Aleph: comments\nHome\nAleph: comments\n\
             This space is moderated but not censored, and you can post your comments in any language.\n\
             To read the comments in another language please click on a flag in the sidebar.\n\
             Previous post\n{comment}\n{comment}\n{comment}\nLeave a reply"
        );
        let rules =
            [("Aleph: comments", Action::CutAfter), ("Previous post", Action::CutAfter), ("Home", Action::Remove)];
        let out = cleaner(&rules, 0).with_line_boundary(true).clean(&text).text;
        assert!(out.contains("This space is moderated") && out.contains("in the sidebar."), "{out}");
        assert!(!out.contains("I read this twice"), "{out}");
    }

    #[test]
    fn in_html_a_run_that_starts_inside_a_script_counts_none_of_its_code() {
        // a rule took the menu and the script's opening tag: the run after it starts inside the script,
        // where its code looks like long lines of words
        let c = html_cleaner(&[
            ("<nav> Home </nav> <script>", Action::Remove),
            ("</script> <nav> Menu </nav>", Action::Remove),
        ]);
        let text = "<html><head></head><body>\n<nav> Home </nav>\n<script>\n\
            var settings = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8 };\n\
            var more = { nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14 };\n</script>\n\
            <nav> Menu </nav>\n<p>The article text has enough words to be the block of this page.</p>\n</body></html>";
        let matches = c.matches(text);
        assert_eq!(matches.len(), 2, "the menus with the script's tags are matched");
        let (s, e) = c.article_block(text, &matches).unwrap();
        assert!(text[s..e].contains("The article text") && !text[s..e].contains("var settings"), "{:?}", &text[s..e]);
    }

    fn html_cleaner(rules: &[(&str, Action)]) -> Cleaner {
        cleaner_for(Tokenizer::Html, rules, 0)
    }

    #[test]
    fn in_html_markup_alone_does_not_break_the_article() {
        // the site's template puts an empty ad slot between the article's paragraphs
        let c = html_cleaner(&[("</p> <aside> </aside> <p>", Action::Remove), ("<nav> Home </nav>", Action::Remove)]);
        let text = "<html><body><nav> Home </nav>\n<p>The first paragraph has enough words to be a long line.</p>\n\
            <aside> </aside>\n<p>The second paragraph is longer still, with more than enough words to win alone.</p>\n\
            </body></html>";
        let matches = c.matches(text);
        assert_eq!(matches.len(), 2, "the ad slot and the menu are matched");
        let (s, e) = c.article_block(text, &matches).unwrap();
        assert!(text[s..e].contains("The first paragraph") && text[s..e].contains("win alone."), "{:?}", &text[s..e]);
    }

    #[test]
    fn in_html_a_footer_string_that_shows_the_pages_title_is_not_its_footer() {
        // the sidebar links this page on every other page, after the article: a footer string there
        let comment = "<p>I read this twice and it said more to me the second time than the first, thank you.</p>";
        let text = format!(
            "<html><head><title>Big news today</title></head><body>\n<h1> <a> Big news today </a> </h1>\n\
             <p>The article text has enough words to be the block of this page, really it does.</p>\n\
             <p> Leave a reply </p>\n{comment}\n{comment}\n{comment}\n</body></html>"
        );
        let c = html_cleaner(&[
            ("<a> Big news today </a>", Action::CutAfter),
            ("<p> Leave a reply </p>", Action::CutAfter),
        ]);
        let matches = c.matches(&text);
        assert_eq!(matches.len(), 2, "the headline link and the reply box are matched");
        let (s, e) = c.article_block(&text, &matches).unwrap();
        assert!(text[s..e].contains("The article text") && !text[s..e].contains("I read this"), "{:?}", &text[s..e]);
    }

    /// A comment that outweighs a short article on its own.
    const LONG_COMMENT: &str = "Thank you, it said more to me the second time I read it than the first time, and I \
        will read it again tomorrow with my family at breakfast";

    fn assert_short_article_is_the_block(c: &Cleaner, text: &str, matches: &[Match]) {
        let (s, e) = c.article_block(text, matches).unwrap();
        assert!(text[s..e].contains("The article is short"), "{:?}", &text[s..e]);
    }

    #[test]
    fn in_html_a_comment_thread_marked_by_its_dates_is_not_the_article() {
        // the comments' date rule is mined with the markup around it, over source lines; a reader sees
        // "name date" on one line and the comment below it. One comment alone outweighs the article,
        // one commenter's "name" is a sentence, and the article's own byline shares the comments' rule.
        let dated = |name: &str, day: u32, words: &str| {
            format!("<dt><b>{name}</b>\n<i>on June {day}, 2012</i>\n</dt>\n<dd><p>{words}.</p></dd>\n")
        };
        let thread = [
            dated("You are going to hold on to something your whole life long", 2, LONG_COMMENT),
            dated("Ann", 3, "Thank you for this post, I liked it a lot"),
            dated("Bo", 4, LONG_COMMENT),
            dated("Cy", 5, LONG_COMMENT),
        ]
        .concat();
        let article = dated("By Desk", 1, "The article is short but it has enough words to be a long line")
            .replace("</p>", "</p><p>And a second paragraph</p>");
        let text = format!(
            "<html><head><title>Big news today</title></head><body>\n<nav>Home</nav>\n<h1>Big news today</h1>\n\
             <dl>\n{article}</dl>\n<dl>\n{thread}</dl>\n</body></html>"
        );
        let rule = "</b> <i> on «month» «number» «number» </i> </dt> <dd> <p>";
        let c = html_cleaner(&[(rule, Action::Remove), ("<nav> Home </nav>", Action::Remove)]);
        let matches = c.matches(&text);
        assert_eq!(matches.len(), 6, "the byline's and the four comments' dates and the menu are matched");
        assert_short_article_is_the_block(&c, &text, &matches);
    }

    #[test]
    fn in_html_a_comment_opens_where_the_longer_match_around_its_date_ends() {
        // the date's rule marks the items; a longer rule mined around it ends later, and the comment's run
        // starts there
        // the longer rule matches two of the three: the third comment's markup differs
        let thread: String = [("Ann", "<p>"), ("Bo", "<p>"), ("Cy", "<div><p>")]
            .iter()
            .map(|(name, open)| {
                format!("<dt><b>{name}</b>\n<i>on June 2, 2012</i>\n</dt>\n<dd>{open}{LONG_COMMENT}.</p></dd>\n")
            })
            .collect();
        let text = format!(
            "<html><body>\n<nav>Home</nav>\n<p>The article is short but it has enough words to be a long line.</p>\n\
             <dl>\n{thread}</dl>\n</body></html>"
        );
        let c = html_cleaner(&[
            ("</b> <i> on «month» «number»", Action::Remove),
            ("on «month» «number» «number» </i> </dt> <dd> <p>", Action::Remove),
            ("<nav> Home </nav>", Action::Remove),
        ]);
        let matches = c.matches(&text);
        assert_eq!(matches.len(), 6, "three dates, two of them with the markup around, and the menu are matched");
        assert_short_article_is_the_block(&c, &text, &matches);
    }

    #[test]
    fn in_html_a_paragraph_wrapped_over_source_lines_is_one_long_line() {
        // the article's source wraps every five words; the sidebar's does not
        let c = html_cleaner(&[("<nav> Menu </nav>", Action::Remove)]);
        let text = "<html><body><p>The council met on Friday\nto plan the new harbour\nfor the town, and it\n\
            said work would start\nin the spring of next\nyear at the earliest.</p>\n<nav> Menu </nav>\n\
            <div>Sign up for our weekly newsletter and get every story first</div>\n</body></html>";
        let matches = c.matches(text);
        assert_eq!(matches.len(), 1, "the menu is matched");
        let (s, e) = c.article_block(text, &matches).unwrap();
        assert!(text[s..e].contains("The council") && !text[s..e].contains("newsletter"), "{:?}", &text[s..e]);
    }

    #[test]
    fn visible_lines_are_a_readers_lines() {
        let html = "<div>One two\nthree <b>four</b></div><p>five<br>six</p><script>a\nb</script>";
        let lines = visible_lines(html);
        assert_eq!(lines.len(), html.len(), "offsets stay");
        let words: Vec<Vec<&str>> = lines.split('\n').map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(words, [vec![], vec!["One", "two", "three", "four"], vec![], vec!["five"], vec!["six"], vec![]]);
    }

    #[test]
    fn in_html_a_footer_string_of_markup_alone_does_not_choose_the_block() {
        // the share bar's empty markup ends the article on most of the site's pages; on this blog it
        // stands above the article, under a promo box
        let c = html_cleaner(&[("<aside> </aside>", Action::CutAfter)]);
        let text = "<html><body>\n<div><p>Photos of the week and the best stories from around the world today</p></div>\n\
            <aside> </aside>\n<p>The article text has enough words to be the block of this page, and more.</p>\n\
            <p>Its second paragraph is longer still, with more than enough words to be a long line.</p>\n</body></html>";
        let matches = c.matches(text);
        assert_eq!(matches.len(), 1, "the share bar is matched");
        let (s, e) = c.article_block(text, &matches).unwrap();
        assert!(
            text[s..e].contains("The article text") && text[s..e].contains("second paragraph"),
            "{:?}",
            &text[s..e]
        );
    }

    #[test]
    fn in_html_the_head_is_never_the_article_block() {
        let c = html_cleaner(&[("<p> Menu </p>", Action::Remove)]);
        let text = "<html><head>\n<meta name=\"description\" content=\"one two three four five six seven eight \
            nine ten eleven twelve thirteen\">\n</head><BODY>\n<p> Menu </p>\n\
            <p>The article text has enough words to be the block of this page.</p>\n</body></html>";
        let matches = c.matches(text);
        assert_eq!(matches.len(), 1, "the menu is matched");
        let (s, e) = c.article_block(text, &matches).unwrap();
        assert!(text[s..e].contains("The article text") && !text[s..e].contains("<meta"), "{:?}", &text[s..e]);
    }
    fn words_per_line(html: &str) -> Vec<usize> {
        let shown = visible_text(html);
        assert_eq!(shown.len(), html.len(), "offsets stay");
        shown.split('\n').map(|l| l.split_whitespace().count()).collect()
    }

    #[test]
    fn visible_words_leave_out_tags_scripts_and_styles() {
        let html =
            "<p class=\"a b c\">One two\nthree</p><script>var x = 1;\nvar y = 2;</script>\n<a\n href=\"x y\">four</a>";
        assert_eq!(words_per_line(html), vec![2, 1, 0, 0, 1]);
        let css = "<style>p { color: red; }</style>Five six «é»";
        assert_eq!(words_per_line(css), vec![3]);
    }
}
