//! Stage `cuts`: frame cuts. A `cut-before` match ending before the article block removes everything from
//! the document's start to its end (the last such match wins); a `cut-after` match starting after the
//! block removes everything from its start to the document's end (the first wins). A cut string inside
//! the block cuts nothing, nor does a footer string inside the article's element with more of its
//! paragraphs after it (stage `article-element`), nor one inside a `<pre>` in the article (stage
//! `preformatted`). Off, a cut string is removed as any template string is, and cuts nothing more.

use std::borrow::Cow;

use super::article_element::ArticleElement;
use super::preformatted::PreLines;
use super::stage::{PageState, SpanStage};
use super::{Cleaner, Match, Reason, Span, SpanKind, merge_spans};
use crate::clean_settings::Stage;
use crate::rules::Action;

/// What the cuts did: the removed spans with the cuts added, and the header and footer matches that cut.
pub(super) struct Cut {
    pub spans: Vec<Span>,
    pub header: Option<Match>,
    pub footer: Option<Match>,
}

impl Cleaner {
    /// `removed` with the cuts of the header and footer strings around the article `block` (of `matches`).
    pub(super) fn cut(&self, text: &str, matches: &[Match], removed: Vec<Span>, block: Option<(usize, usize)>) -> Cut {
        let Some(block) = block else {
            return Cut { spans: removed, header: None, footer: None };
        };
        let (header, footer) = self.frame(matches, block);
        let mut all: Vec<Span> = removed;
        if let Some(h) = header {
            all.push(Span::new(0, h.end, SpanKind::CutBefore, vec![h.rule]));
        }
        if let Some(f) = footer {
            all.push(Span::new(f.start, text.len(), SpanKind::CutAfter, vec![f.rule]));
        }
        Cut { spans: merge_spans(all), header, footer }
    }

    /// The header and footer matches the cuts cut at around the article block `(block_start, block_end)`:
    /// the last header string ending above it, the first footer string starting below it.
    fn frame(&self, matches: &[Match], (block_start, block_end): (usize, usize)) -> (Option<Match>, Option<Match>) {
        let header = matches
            .iter()
            .filter(|m| self.rules[m.rule as usize].action == Action::CutBefore && m.end <= block_start)
            .max_by_key(|m| (m.end, std::cmp::Reverse(m.rule)))
            .copied();
        let footer = matches
            .iter()
            .filter(|m| self.rules[m.rule as usize].action == Action::CutAfter && m.start >= block_end)
            .min_by_key(|m| (m.start, m.rule))
            .copied();
        (header, footer)
    }
}

/// The stage: only where a cut rule is active (else [`PageState::cuts`] is false and the driver removed
/// cut strings as plain template).
pub(super) struct Cuts;

impl SpanStage for Cuts {
    fn run(&self, cleaner: &Cleaner, page: &mut PageState) {
        if !page.cuts {
            return;
        }
        let mut block = cleaner.article_block_of(page.doc, &page.template);
        let mut places = Vec::new();
        if cleaner.settings.on(Stage::CutLines)
            && let Some(b) = block
        {
            let (header, footer) = cleaner.frame(&page.template, b);
            let frame = (header.map_or(0, |h| h.end), footer.map_or(page.text().len(), |f| f.start));
            let (b, found) = cleaner.cut_lines.places(cleaner, page.doc, &page.template, b, frame);
            (block, places) = (Some(b), found);
        }
        let mut matches: Cow<[Match]> = if places.is_empty() {
            Cow::Borrowed(&page.template)
        } else {
            places.extend_from_slice(&page.template);
            Cow::Owned(places)
        };
        let mut held_out: Vec<Span> = Vec::new();
        // a cut string in a `<pre>` is code or verse: it cuts nothing, and goes as any template string does
        if let Some(b) = block
            && cleaner.settings.on(Stage::Preformatted)
            && let Some(pre) = PreLines::of(page, b)
        {
            let is_cut = |m: &Match| cleaner.rules[m.rule as usize].action != Action::Remove;
            let (held, cutting): (Vec<Match>, Vec<Match>) =
                matches.iter().partition(|m| is_cut(m) && pre.holds(page.doc, m));
            let (header, footer) = cleaner.frame(&matches, b);
            let end = page.doc.text().len();
            for (m, would_cut, action) in [
                (header, header.map(|h| (0, h.start)), Action::CutBefore),
                (footer, footer.map(|f| (f.end, end)), Action::CutAfter),
            ] {
                if let (Some(m), Some((a, b))) = (m, would_cut)
                    && held.contains(&m)
                {
                    page.trace.kept(a, b, Reason::Rule { rule: m.rule, action });
                    page.trace.kept(a, b, Reason::Stage(Stage::Preformatted));
                }
            }
            held_out = held.iter().map(|m| Span::new(m.start, m.end, SpanKind::Removed, vec![m.rule])).collect();
            matches = Cow::Owned(cutting);
        }
        // the article's element is read only for a page with a footer string to weigh
        if let Some(b) = block
            && cleaner.settings.on(Stage::ArticleElement)
            && let (_, Some(m)) = cleaner.frame(&matches, b)
            && let Some(element) = ArticleElement::of(page, b)
        {
            let action = |m: &Match| cleaner.rules[m.rule as usize].action;
            if element.holds(&m, action(&m)) {
                // what it would have cut stays, and says why
                let end = page.doc.text().len();
                page.trace.kept(m.end, end, Reason::Rule { rule: m.rule, action: Action::CutAfter });
                page.trace.kept(m.end, end, Reason::Stage(Stage::ArticleElement));
                // a string held there cuts nothing, but goes as any template string does
                let (held, cutting): (Vec<Match>, Vec<Match>) =
                    matches.iter().partition(|m| element.holds(m, action(m)));
                held_out.extend(held.iter().map(|m| Span::new(m.start, m.end, SpanKind::Removed, vec![m.rule])));
                matches = Cow::Owned(cutting);
            }
        }
        let mut removed = std::mem::take(&mut page.spans);
        removed.append(&mut held_out);
        let cut = cleaner.cut(page.text(), &matches, removed, block);
        uncut(cleaner, page, (cut.header, cut.footer));
        (page.spans, page.header, page.footer) = (cut.spans, cut.header, cut.footer);
    }
}

/// Records, for `--explain`, each cut string's match that cut nothing: a header string not above the
/// article block or a footer string not below it stays where it is, and would otherwise be silent. A match
/// inside what was removed is dropped when the explanation is made.
fn uncut(cleaner: &Cleaner, page: &mut PageState, (header, footer): (Option<Match>, Option<Match>)) {
    for m in &page.template {
        let action = cleaner.rules[m.rule as usize].action;
        if action.is_cut() && Some(*m) != header && Some(*m) != footer {
            page.trace.kept(m.start, m.end, Reason::Rule { rule: m.rule, action });
            page.trace.kept(m.start, m.end, Reason::Stage(Stage::Cuts));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::clean_settings::Stage;
    use crate::cleaning::tests::cleaner;
    use crate::cleaning::{Reason, SpanKind};
    use crate::rules::Action;

    #[test]
    fn cut_after_removes_the_tail_outside_the_article_block() {
        let c = cleaner(&[("Leave a reply", Action::CutAfter), ("Menu Home", Action::CutBefore)], 0);
        let text = "Menu Home\nNews\nthe article has a long first line of many words here\nLeave a reply\nBob says hi";
        let out = c.clean(text);
        assert_eq!(out.text, "News\nthe article has a long first line of many words here");
        assert_eq!(out.spans.iter().map(|s| s.kind).collect::<Vec<_>>(), vec![SpanKind::CutBefore, SpanKind::CutAfter]);
        let off = c.with_stage(Stage::Cuts, false);
        assert_eq!(
            off.clean(text).text,
            "News\nthe article has a long first line of many words here\nBob says hi",
            "off: the strings go, nothing more"
        );
    }

    #[test]
    fn a_short_match_inside_a_line_does_not_split_the_article_block() {
        // "Menu Home" mid-line is no boundary: the block starts at the text's start, and nothing is cut.
        let c = cleaner(&[("Menu Home", Action::CutBefore)], 0);
        let text = "one two three Menu Home four five six seven eight nine ten";
        assert_eq!(c.clean(text).text, text);
    }

    #[test]
    fn cut_strings_on_the_wrong_side_of_the_article_block_cut_nothing() {
        let c = cleaner(&[("MUST WATCH", Action::CutBefore), ("Leave a reply", Action::CutAfter)], 0);
        // a header string after the article, a footer string before it
        let text = "Leave a reply\none two three four five six seven eight nine ten\nMUST WATCH\nshort";
        assert_eq!(
            c.clean(text).text,
            "Leave a reply\none two three four five six seven eight nine ten\nMUST WATCH\nshort"
        );
    }

    #[test]
    fn explain_names_a_cut_string_that_cut_nothing_with_its_rule_and_the_stage() {
        let c = cleaner(&[("MUST WATCH", Action::CutBefore), ("Leave a reply", Action::CutAfter)], 0);
        // a footer string above the article block, a header string below it: both stay, neither cuts
        let text = "Leave a reply\none two three four five six seven eight nine ten\nMUST WATCH\nshort";
        let e = c.explain(text);
        assert!(e.spans.is_empty(), "{:?}", e.spans);
        let kept: Vec<(&str, &[Reason])> =
            e.decisions.iter().filter(|d| !d.removed).map(|d| (&text[d.start..d.end], &d.reasons[..])).collect();
        let footer = [Reason::Rule { rule: 1, action: Action::CutAfter }, Reason::Stage(Stage::Cuts)];
        let header = [Reason::Rule { rule: 0, action: Action::CutBefore }, Reason::Stage(Stage::Cuts)];
        assert_eq!(kept, [("Leave a reply", &footer[..]), ("MUST WATCH", &header[..])]);
    }

    #[test]
    fn explain_says_nothing_of_a_cut_string_inside_what_a_cut_removed() {
        let c = cleaner(&[("Menu", Action::CutBefore), ("Reply", Action::CutAfter)], 0);
        let text = "Menu\na\nMenu\nb\none two three four five six seven eight nine\nReply\nc\nReply\nd";
        assert!(c.explain(text).decisions.iter().all(|d| d.removed), "the other matches went with the cuts");
    }

    #[test]
    fn the_last_header_and_the_first_footer_cut() {
        let c = cleaner(&[("Menu", Action::CutBefore), ("Reply", Action::CutAfter)], 0);
        let text = "Menu\na\nMenu\nb\none two three four five six seven eight nine\nReply\nc\nReply\nd";
        let out = c.clean(text);
        assert_eq!(out.text, "b\none two three four five six seven eight nine");
        assert_eq!((out.spans[0].start, out.spans[0].end, out.spans[0].kind), (0, 11, SpanKind::CutBefore));
        assert_eq!(out.spans[1].start, text.find("Reply").unwrap());
    }
}
