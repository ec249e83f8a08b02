//! Stage `comments`: reader comments go. They are prose, often long, and differ on every page, so no
//! string rule holds them and the article block may take them in; a region rule sees them only when most
//! pages carry some. But blogs and news templates put them in blocks whose class or id names them
//! (`div.comment`, `ol#comments`, `div.comments-content`), whatever the page.
//!
//! A line goes when it lies inside a block element (one that breaks lines: a line merely starting in a
//! `<span class="comment-count">` says nothing about the rest of it) whose id or one of whose classes,
//! split at `-` and `_`, has a part `comment`, `comments` or `commentlist` (not `commentary`: an opinion
//! column is article). `<html>` and `<body>` do not count: a page's body class says what the page
//! allows (`no-comments`), not what a block holds. Nothing goes when the article block starts inside
//! such a block (a wrapper around post and thread, `div.has-comments`) with no kept line of prose outside
//! such blocks above it (a short post's thread is longer than the post, and the article block chose
//! it) and it is not a thread (a block so named inside another: `li.comment` in `ol.commentlist`, which
//! a post with no prose, a video's, leaves the article block to), or when every kept word lies in one
//! (the page is a comment): the stage takes comments from beside an article, never the article.
//!
//! Text documents have no structure: the stage leaves them alone. One pass over the page's paths (a
//! path's parent has a lower number) and one over its kept lines: linear in the page
//! ([`drop_named_blocks`], which stage `author-box` runs with its own names).

use super::block_names::{comment_blocks_around, is_comment_block};
use super::stage::{PageState, SpanStage};
use super::{LONG_LINE_WORDS, Span, by_stage, kept_runs, run_lines, work};
use crate::clean_settings::Stage;
use crate::view::Structure;

/// The stage.
pub(super) struct Comments;

/// Per path: whether it lies inside a block `named` says is one (paths are numbered after their parents).
fn named_paths(structure: &Structure, named: fn(&str) -> bool) -> Vec<bool> {
    let mut inside = vec![false; structure.paths()];
    for p in 1..inside.len() {
        let path = p as u32;
        let parent = structure.parent(path) as usize;
        inside[p] = (parent < p && inside[parent]) || (structure.breaks_line(path) && named(structure.label(path)));
    }
    work::add(inside.len());
    inside
}

/// Where the article block starts inside the blocks a stage takes, what that says of the article.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ArticleStart {
    /// It is in such a block (`div.has-comments` around post and thread): nothing goes.
    Inside,
    /// The same, unless a kept line of prose outside such blocks stands above the article block: a
    /// reader's thread under a short post holds more prose than the post, and the article block chose it.
    InsideUnlessProseAbove,
    /// Nothing: the stage weighed the article's words in such blocks itself. The article block's kept
    /// run can start with a block glued on top of the article's paragraphs (a related-links list under
    /// the byline, its heading taken by a rule).
    Weighed,
}

/// Removes what is kept of the lines of `page` that lie inside a block element whose label `named` accepts,
/// as `stage`: nothing when the article block starts inside such a block (as `start` says), or when every
/// kept word lies in one (the page is such a block). A biography can be a page's main text: stage
/// `author-box` does not ask for prose above. One pass over the page's paths and one over its kept lines.
pub(super) fn drop_named_blocks(page: &mut PageState, named: fn(&str) -> bool, stage: Stage, start: ArticleStart) {
    let Some(structure) = page.structure else { return };
    drop_blocks_inside(page, &named_paths(structure, named), stage, start);
}

/// As [`drop_named_blocks`], given per path whether it lies inside such a block (`inside`, indexed by
/// path): a stage that asks for several kinds of block reads each path's label once.
pub(super) fn drop_blocks_inside(page: &mut PageState, inside: &[bool], stage: Stage, start: ArticleStart) {
    let Some(structure) = page.structure else { return };
    let doc = page.doc;
    let lines = structure.lines().min(doc.lines());
    if lines == 0 {
        return;
    }
    let block_start = page.block().map(|(a, b)| first_kept(page.text(), a, b));
    let (mut out, mut words, mut kept_words): (Vec<Span>, usize, usize) = (Vec::new(), 0, 0);
    // a kept line of prose outside such blocks above the article block: the article is there, and the
    // block chose a longer thread below it
    let below_prose = start == ArticleStart::InsideUnlessProseAbove;
    let mut prose_above = false;
    for (start, end) in kept_runs(doc.text().len(), &page.spans) {
        for (k, a, b, _) in run_lines(doc, (start, end), lines) {
            let n = doc.line_words(k);
            kept_words += n;
            prose_above = prose_above
                || (below_prose
                    && block_start.is_some_and(|s| b <= s)
                    && n >= LONG_LINE_WORDS
                    && !inside.get(structure.line_path(k) as usize).copied().unwrap_or(false)
                    && doc.reads_as_prose(a.max(start), b.min(end)));
            // the line lies inside the block whole: what the rules left of it goes (a "More" link a
            // rule took from the end of a biography leaves the rest of it to this stage)
            if inside.get(structure.line_path(k) as usize).copied().unwrap_or(false) {
                words += n;
                let (a, b) = (a.max(start), b.min(end));
                match out.last_mut() {
                    Some(last) if doc.text()[last.end..a].trim().is_empty() => last.end = b,
                    _ => out.push(by_stage(a, b, stage)),
                }
            }
        }
    }
    // the article itself in such a block (`div.has-comments` around post and thread), or a page that is
    // all of it: nothing goes
    let article_inside = start != ArticleStart::Weighed
        && !prose_above
        && block_start.is_some_and(|a| {
            let k = doc.line_of(a).min(lines - 1);
            inside.get(structure.line_path(k) as usize).copied().unwrap_or(false)
        });
    if out.is_empty() || article_inside || words >= kept_words {
        return;
    }
    page.remove(out);
}

/// The first character of `text[start..end]` that is not white space (`start` if none): a kept run starts
/// where a removal ended, often at the newline closing the removed line.
fn first_kept(text: &str, start: usize, end: usize) -> usize {
    text[start..end].find(|c: char| !c.is_whitespace()).map_or(start, |i| start + i)
}

impl SpanStage for Comments {
    fn run(&self, _: &super::Cleaner, page: &mut PageState) {
        // an article block starting inside a thread (a comment inside a list of them, `dd.comment` in
        // `div#comments`) chose the thread under a post too short to outweigh it; one block named for
        // comments around the article may be its wrapper (`div.has-comments`)
        let in_thread = page.structure.zip(page.block()).is_some_and(|(structure, (start, end))| {
            let line = page.doc.line_of(first_kept(page.text(), start, end)).min(structure.lines().saturating_sub(1));
            comment_blocks_around(structure, structure.line_path(line), 2) == 2
        });
        let start = if in_thread { ArticleStart::Weighed } else { ArticleStart::InsideUnlessProseAbove };
        drop_named_blocks(page, is_comment_block, Stage::Comments, start);
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::{ARTICLE_HTML as ARTICLE, cleaned_html, cleaner};
    use crate::rules::Action;

    const THREAD: &str = "<h3>2 Comments</h3><ol class=\"commentlist\">\
        <li class=\"comment odd\"><p>I took the first ferry this morning and it was a delight, well done to all.</p></li>\
        <li class=\"comment even\"><p>Twice as many passengers sounds hopeful when the car park is already full.</p></li></ol>";

    fn page(body_class: &str, inner: &str) -> String {
        format!(
            "<html><body class=\"{body_class}\"><div class=\"post\">{ARTICLE}</div>{inner}\
             <div id=\"foot\">Contact the newsroom today</div></body></html>"
        )
    }

    fn cleaned(on: bool, html: &str) -> String {
        let c = cleaner(&[("Contact the newsroom today", Action::Remove)], 0).with_stage(Stage::Comments, on);
        cleaned_html(&c, html)
    }

    #[test]
    fn a_thread_of_reader_comments_goes_and_the_article_stays() {
        let html = page("single", THREAD);
        let off = cleaned(false, &html);
        assert!(off.contains("first ferry this morning"), "off, the thread stays: {off}");
        let on = cleaned(true, &html);
        assert!(!on.contains("first ferry") && !on.contains("car park"), "{on}");
        assert!(on.contains("The harbour opened") && on.contains("next year"), "{on}");
    }

    #[test]
    fn a_body_class_saying_comments_are_off_takes_nothing() {
        let html = page("single no-comments", "");
        assert_eq!(cleaned(true, &html), cleaned(false, &html));
    }

    #[test]
    fn an_article_inside_a_block_named_for_comments_stays() {
        let html = format!("<html><body><div class=\"comment-body\">{ARTICLE}</div></body></html>");
        assert!(cleaned(true, &html).contains("The harbour opened"));
    }

    #[test]
    fn an_article_whose_wrapper_is_named_for_its_comments_stays_whole() {
        let html = format!(
            "<html><body><div class=\"post has-comments\">{ARTICLE}{THREAD}</div>\
             <div id=\"side\"><p>Subscribe to the harbour newsletter for weekly news from the quay.</p></div></body></html>"
        );
        assert_eq!(cleaned(true, &html), cleaned(false, &html));
        // under a line a rule removed, the article block's run starts at that line's end: still inside
        let below = html.replace("<body>", "<body><p>Contact the newsroom today</p>");
        assert!(cleaned(true, &below).contains("The harbour opened"), "{}", cleaned(true, &below));
    }

    #[test]
    fn a_thread_longer_than_the_short_post_above_it_goes_though_the_article_block_chose_it() {
        let post = "<p>Three new ferries will serve the island from May, the harbour master said today.</p>";
        // a template line heading the thread: the article block is the post or the thread, the longer
        let thread: String = [
            "I took the first ferry this morning and it was a delight, well done to everyone involved.",
            "Twice as many passengers sounds hopeful when the car park by the pier is already full.",
            "Will the night crossing come back before the summer season, or do we wait another year?",
            "My grandmother worked on the old boats and would have loved to see these new ones sail.",
            "The fares went up again last winter and nobody on the council has explained why so far.",
            "Good news for the cafes on the quay, which have had a hard few years since the floods.",
        ]
        .iter()
        .map(|c| format!("<li class=\"comment\"><p>{c}</p></li>"))
        .collect();
        let html = format!(
            "<html><body><div class=\"post\">{post}</div>\
             <ol class=\"commentlist\"><li>Contact the newsroom today</li>{thread}</ol>\
             <div id=\"foot\">Contact the newsroom today</div></body></html>"
        );
        let on = cleaned(true, &html);
        assert!(on.contains("Three new ferries") && !on.contains("grandmother"), "{on}");
    }

    #[test]
    fn a_thread_under_a_post_with_no_prose_goes_though_the_article_block_starts_inside_it() {
        // a video post: its headline and byline, then, past a template line, a thread the article block
        // can only choose
        let thread: String = [
            "I watched the whole crossing from the upper deck and the light on the water was lovely.",
            "Twice as many passengers sounds hopeful when the car park by the pier is already full.",
            "My grandmother worked on the old boats and would have loved to see these new ones sail.",
        ]
        .iter()
        .map(|c| format!("<dd class=\"comment\"><div class=\"text\"><p>{c}</p></div></dd>"))
        .collect();
        let html = format!(
            "<html><body><div class=\"post\"><h2>The new ferries, on video</h2><p>by the harbour desk</p></div>\
             <div id=\"comments\"><p>Contact the newsroom today</p><dl class=\"thread\">{thread}</dl></div>\
             <div id=\"foot\">Contact the newsroom today</div></body></html>"
        );
        let (off, on) = (cleaned(false, &html), cleaned(true, &html));
        assert!(off.contains("grandmother"), "off, the thread stays: {off}");
        assert!(on.contains("The new ferries, on video") && !on.contains("grandmother"), "{on}");
        assert!(!on.contains("upper deck") && !on.contains("car park"), "{on}");
    }
}
