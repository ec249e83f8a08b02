//! Stage `author-box`: the author's box goes. Columns and blogs print a short biography of the writer
//! next to the article ("Sharon is a fellow at the Woodrow Wilson Center…", "Joel oversees the site's
//! social media channels…"): prose, different for each writer, often right under the headline, where it
//! reads as the article's first paragraph. No string rule holds it (the writers change) and a region rule
//! does not either (it stands where the article starts). But templates put it in a block whose class or
//! id names it: `div#author-bio`, `div.author-profile`, `div.about-author`, `div.author-info`.
//!
//! A line goes when it lies inside a block element whose id or one of whose classes, split at `-` and
//! `_`, has a part `bio` (or `authorbio`), or the part `author` beside `profile`, `info`, `box`,
//! `details` or `about` (not `author` alone: a byline's `span.author` is the article's). As in stage
//! `comments` ([`super::comments::drop_named_blocks`]): what the rules left of each line inside it (a
//! line lies inside a block whole, so a "More" link a rule took from its end leaves the biography to
//! this stage), never `<html>` or `<body>`, and nothing when the article block starts inside such a
//! block or the page is all of it.
//! Text documents have no structure: the stage leaves them alone.

use super::block_names::is_named_block;
use super::comments::{ArticleStart, drop_named_blocks};
use super::stage::{PageState, SpanStage};
use crate::clean_settings::Stage;

/// The stage.
pub(super) struct AuthorBox;

/// Whether an id or class names the author's box: one pass over its parts.
fn names_author_box(name: &str) -> bool {
    let (mut bio, mut author, mut beside) = (false, false, false);
    for part in name.split(['-', '_']) {
        let is = |w: &str| part.eq_ignore_ascii_case(w);
        bio |= is("bio") || is("authorbio");
        author |= is("author");
        beside |= ["profile", "info", "box", "details", "about"].iter().any(|w| is(w));
    }
    bio || (author && beside)
}

/// Whether an element label (`tag#id.class…`) is an author's box.
fn is_author_box(label: &str) -> bool {
    // each name it looks for holds "bio" or "author", which most labels lack: those are refused at a scan
    let b = label.as_bytes();
    let holds = |w: &[u8]| b.windows(w.len()).any(|x| x.eq_ignore_ascii_case(w));
    (holds(b"bio") || holds(b"author")) && is_named_block(label, names_author_box)
}

impl SpanStage for AuthorBox {
    fn run(&self, _: &super::Cleaner, page: &mut PageState) {
        drop_named_blocks(page, is_author_box, Stage::AuthorBox, ArticleStart::Inside);
    }
}

#[cfg(test)]
mod tests {
    use super::{is_author_box, names_author_box};
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::{ARTICLE_HTML as ARTICLE, cleaned_html, cleaner};
    use crate::rules::Action;

    const BIO: &str = "<div id=\"author-bio\"><p>Leila Brandt covers transport for the paper and has written two \
        books about the coast.</p></div>";

    fn cleaned(on: bool, html: &str) -> String {
        let c = cleaner(&[("Contact the newsroom today", Action::Remove)], 0).with_stage(Stage::AuthorBox, on);
        cleaned_html(&c, html)
    }

    #[test]
    fn the_writers_biography_under_the_headline_goes_and_the_article_stays() {
        let html = format!(
            "<html><body><h1>Harbour opens</h1>{BIO}<div class=\"post\">{ARTICLE}</div>\
             <div id=\"foot\">Contact the newsroom today</div></body></html>"
        );
        let off = cleaned(false, &html);
        assert!(off.contains("Leila Brandt covers transport"), "off, the biography stays: {off}");
        let on = cleaned(true, &html);
        assert!(!on.contains("Leila Brandt"), "{on}");
        assert!(on.contains("Harbour opens") && on.contains("The harbour opened") && on.contains("next year"), "{on}");
    }

    #[test]
    fn a_biography_line_a_rule_cut_the_end_of_goes_with_its_box() {
        // the box's "More" link is a template string: the rule takes it, and the rest of the line,
        // the biography, is still the box's
        let bio = "<div id=\"author-bio\"><p>Leila Brandt covers transport for the paper and has written two \
            books about the coast... <a href=\"/leila\">Read her columns here</a></p></div>";
        let html = format!(
            "<html><body><h1>Harbour opens</h1>{bio}<div id=\"tools\">Share this story</div>\
             <div class=\"post\">{ARTICLE}</div></body></html>"
        );
        let rules = [("Read her columns here", Action::Remove), ("Share this story", Action::Remove)];
        let c = cleaner(&rules, 0).with_stage(Stage::AuthorBox, true);
        let on = cleaned_html(&c, &html);
        assert!(!on.contains("Leila Brandt") && !on.contains("columns"), "{on}");
        assert!(on.contains("Harbour opens") && on.contains("The harbour opened"), "{on}");
    }

    #[test]
    fn an_article_inside_a_block_named_for_its_author_stays() {
        let html = format!("<html><body><div class=\"author-info post\">{ARTICLE}</div></body></html>");
        assert!(cleaned(true, &html).contains("The harbour opened"));
    }

    #[test]
    fn names_are_read_by_their_parts() {
        for yes in ["bio", "author-bio", "author_profile", "about-author", "author-info", "AuthorBio", "sidebar-bio"] {
            assert!(names_author_box(yes), "{yes}");
        }
        for no in ["author", "post-author", "biology", "biography-list", "profile", "info", "about"] {
            assert!(!names_author_box(no), "{no}");
        }
        assert!(is_author_box("div#author-bio") && is_author_box("div.author-profile.toggle-content"));
        assert!(!is_author_box("span.author") && !is_author_box("body.author-bio"));
    }
}
