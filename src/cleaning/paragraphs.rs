//! HTML: a template string that ends in a paragraph's first words (`</p><p>The`, `</p><p>«number»`) or
//! starts with its last (`«number» billion</p>`) is mined because paragraphs open and close alike on
//! every page. The words belong to the paragraph: a reader would see sentences without their first word.
//! (Text has no such strings: its matches start or end a line, and a short one heading a sentence is
//! dropped outright.)

use super::{LONG_LINE_WORDS, Layout, SPLIT_WORDS, Span, SpanKind, work};

/// HTML: removed spans less the words at their edges that belong to a paragraph of prose (a rule's
/// "</p><p>The" or "«number» billion</p>"): a span's last few words shown after its last tag, when the
/// line a reader sees them start goes on as prose, and its first few words before its first tag, when the
/// line they end is prose. Cuts are left whole.
/// `shown` is the page's visible lines (`block::visible_lines`).
pub(super) fn give_back_paragraph_words(text: &str, seen: &Layout, spans: Vec<Span>) -> Vec<Span> {
    let shown = seen.text();
    // markup is what `shown` blanks: a byte that is not blank in the text but blank in `shown`
    let (t, v) = (text.as_bytes(), shown.as_bytes());
    let markup = |i: usize| v[i].is_ascii_whitespace() && !t[i].is_ascii_whitespace();
    let few = |a: usize, b: usize| (1..SPLIT_WORDS).contains(&seen.words(a, b));
    let prose = |a: usize, b: usize| seen.words(a, b) >= LONG_LINE_WORDS && seen.reads_as_prose(a, b);
    let mut out = Vec::with_capacity(spans.len());
    for mut s in spans {
        if s.kind == SpanKind::Removed {
            // a removal is read once, from each end to its first tag
            let first_tag = (s.start..s.end).find(|&i| markup(i));
            work::add(first_tag.map_or(s.end, |i| i + 1) - s.start);
            if let Some(first_tag) = first_tag {
                let last_tag_end = (s.start..s.end).rev().find(|&i| markup(i)).map_or(s.end, |i| i + 1);
                work::add(s.end - last_tag_end + 1);
                if last_tag_end < s.end && few(last_tag_end, s.end) && prose(last_tag_end, seen.line_end(s.end)) {
                    s.end = last_tag_end;
                }
                if first_tag > s.start && few(s.start, first_tag) && prose(seen.line_start(s.start), first_tag) {
                    s.start = first_tag;
                }
            }
        }
        out.push(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::cleaning::tests::{cleaner_for, read_cleaned};
    use crate::rules::Action;
    use crate::tokens::Tokenizer;

    #[test]
    fn in_html_the_words_a_rule_takes_from_a_paragraph_are_given_back() {
        // "</p> <p> The" is on every page, so it was mined; its "The" heads a sentence of the article
        let rules = [("</p> <p> The", Action::Remove), ("billion </p> <div> Share </div>", Action::Remove)];
        let c = cleaner_for(Tokenizer::Html, &rules, 0);
        let text = "<body><p>The council met on Friday to plan the new harbour for the town.</p>\n\
            <p>The nursery along Cannery Road is now the oldest one in the region, it said.</p>\n\
            <p>The harbour is the first in a century. It will cost 9.6 billion</p>\n<div>Share</div>\n</body>";
        let out = read_cleaned(&c, text);
        assert!(out.contains("The nursery along Cannery Road"), "a paragraph's first word stays: {out}");
        assert!(out.contains("It will cost 9.6 billion") && !out.contains("Share"), "and its last: {out}");
        // the markup and the words of no paragraph of prose still go
        let spans = c.spans(text);
        let removed: Vec<&str> = spans.iter().map(|s| &text[s.start..s.end]).collect();
        assert_eq!(removed, ["</p>\n<p>", "</p>\n<p>", "</p>\n<div>Share</div>"]);
    }
}
