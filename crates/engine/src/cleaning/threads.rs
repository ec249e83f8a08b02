//! Stage `threads`: a kept run that starts in a comment thread is the article block only where no other
//! run has words. The block the stages after the cuts read is the largest kept run, and a short post (a
//! headline, a byline, two lines under a photo) weighs less than one reader's long comment under it:
//! the block then stood in the thread, and stage `short-runs` took the post itself as a run outside the
//! article with no sentence. A thread is a block named for comments inside another (`li.comment` in
//! `ol.commentlist`, `dd.comment` in `div#comments`), as stage `comments` reads it; one such block
//! alone may be a wrapper around post and thread (`div.has-comments`) and says nothing. It is a switch
//! the article block reads, as `list-items` is the cuts' block's; HTML pages only.

use super::Layout;
use super::block_names::comment_blocks_per_path;
use super::work;
use crate::view::Structure;

/// Per path of a page, whether it lies in a thread, and the page to read a run's first line from.
pub(super) struct Threads<'a> {
    doc: &'a Layout<'a>,
    structure: &'a Structure,
    in_thread: Vec<bool>,
}

impl<'a> Threads<'a> {
    /// The page's threads: one pass over its paths (a path's parent has a lower number). `None` where the
    /// page has none, or no elements for its lines.
    pub(super) fn of(doc: &'a Layout<'a>, structure: &'a Structure) -> Option<Threads<'a>> {
        if structure.lines() != doc.lines() {
            return None;
        }
        // blocks named for comments around each path, counted up to two
        let around = comment_blocks_per_path(structure, 2);
        let in_thread: Vec<bool> = around.into_iter().map(|n| n == 2).collect();
        in_thread.contains(&true).then_some(Threads { doc, structure, in_thread })
    }

    /// Whether kept run `start..end` starts in a thread: its first character's line (a run starts where a
    /// removal ended, often at the newline closing the removed line).
    pub(super) fn starts_in_one(&self, (start, end): (usize, usize)) -> bool {
        let text = self.doc.text();
        let Some(first) = text[start..end].find(|c: char| !c.is_whitespace()) else { return false };
        work::add(first);
        let line = self.doc.line_of(start + first);
        self.in_thread[self.structure.line_path(line) as usize]
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::{cleaned_html as cleaned, cleaner};
    use crate::rules::Action;

    /// A short post, its lines ending in no sentence, over a thread of long comments.
    fn page(thread: &str) -> String {
        let comments: String = (0..3)
            .map(|i| {
                format!(
                    "<li class=\"comment\"><p>Reader {i} July 15, 2012 at 1:24 am</p><p>I went to the shrine \
                     last spring with my mother and my two sisters, and we stayed for three days in the town \
                     below it. It was the most peaceful place I have ever seen, and I will go back next year \
                     with my husband.</p><p>Reply</p></li>"
                )
            })
            .collect();
        format!(
            "<html><head><title>Viva the shrine | Blog</title></head><body>\
             <div id=\"menu\">Home Archives Subscribe to the blog</div>\
             <div class=\"post\"><h2>Viva the shrine</h2><p>Posted by the author of the blog</p>\
             <p>Whenever you have time, and if you believe in miracles, visit the shrine in the hills of Italy</p>\
             <p>To find more information about the apparitions, please click here</p></div>\
             <div id=\"comments\"><h3>Comments so far</h3>{thread}</div></body></html>",
            thread = thread.replace("{comments}", &comments)
        )
    }

    fn cleaned_with(html: &str, on: bool) -> String {
        let rules = [
            ("Home Archives Subscribe to the blog", Action::Remove),
            ("Comments so far", Action::Remove),
            ("Reply", Action::Remove),
            ("Posted by the author of the blog", Action::Remove),
        ];
        let mut c = cleaner(&rules, 0).with_stage(Stage::Comments, false).with_stage(Stage::Threads, on);
        c.settings.short_runs.words = 20;
        cleaned(&c, html)
    }

    #[test]
    fn a_short_post_over_a_thread_stays_the_article_and_the_stage_off_loses_it() {
        let html = page("<ol class=\"commentlist\">{comments}</ol>");
        let on = cleaned_with(&html, true);
        assert!(on.contains("visit the shrine in the hills") && on.contains("please click here"), "{on}");
        let off = cleaned_with(&html, false);
        assert!(!off.contains("please click here"), "off, the block is a comment and the post goes: {off}");
    }

    #[test]
    fn one_block_named_for_comments_is_no_thread() {
        // a wrapper named for comments around the comments, none around each: it may hold the article
        let html = page("<ol class=\"entries\">{comments}</ol>").replace("<li class=\"comment\">", "<li>");
        assert_eq!(cleaned_with(&html, true), cleaned_with(&html, false));
    }
}
