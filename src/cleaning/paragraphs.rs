//! HTML: a template string that ends in a paragraph's first words (`</p><p>The`, `</p><p>«number»`) or
//! starts with its last (`«number» billion</p>`) is mined because paragraphs open and close alike on
//! every page. The words belong to the paragraph: a reader would see sentences without their first word.
//! (Text has no such strings: its matches start or end a line, and a short one heading a sentence is
//! dropped outright.)

use super::runs::reads_as_prose;
use super::{LONG_LINE_WORDS, SPLIT_WORDS, Span, SpanKind};

/// HTML: removed spans less the words at their edges that belong to a paragraph of prose (a rule's
/// "</p><p>The" or "«number» billion</p>"): a span's last few words shown after its last tag, when the
/// line a reader sees them start goes on as prose, and its first few words before its first tag, when the
/// line they end is prose. Cuts are left whole.
/// `shown` is the page's visible lines (`block::visible_lines`).
pub(super) fn give_back_paragraph_words(text: &str, shown: &str, spans: Vec<Span>) -> Vec<Span> {
    // markup is what `shown` blanks: a byte that is not blank in the text but blank in `shown`
    let (t, v) = (text.as_bytes(), shown.as_bytes());
    let markup = |i: usize| v[i].is_ascii_whitespace() && !t[i].is_ascii_whitespace();
    let few = |s: &str| (1..SPLIT_WORDS).contains(&s.split_whitespace().count());
    let prose = |s: &str| s.split_whitespace().nth(LONG_LINE_WORDS - 1).is_some() && reads_as_prose(s);
    let mut out = Vec::with_capacity(spans.len());
    for mut s in spans {
        if s.kind == SpanKind::Removed
            && let Some(first_tag) = (s.start..s.end).find(|&i| markup(i))
        {
            let last_tag_end = (s.start..s.end).rev().find(|&i| markup(i)).map_or(s.end, |i| i + 1);
            if last_tag_end < s.end && few(&shown[last_tag_end..s.end]) {
                let line_end = shown[s.end..].find('\n').map_or(shown.len(), |i| s.end + i);
                if prose(&shown[last_tag_end..line_end]) {
                    s.end = last_tag_end;
                }
            }
            if first_tag > s.start && few(&shown[s.start..first_tag]) {
                let line_start = shown[..s.start].rfind('\n').map_or(0, |i| i + 1);
                if prose(&shown[line_start..first_tag]) {
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
