//! HTML to text: what is left of a page after cleaning its HTML, as a reader would see it. `html2text`
//! parses with html5ever, so the fragments cleaning leaves (unclosed tags, stray end tags) still parse
//! the way a browser would. The TUI's preview of HTML uses the same function.

use html2text::render::TrivialDecorator;

/// Lines are wrapped at this width; wide enough that wrapping never splits a paragraph in practice.
const WIDTH: usize = 400;

/// The text of `html`: literal text only (no link markers, footnotes or emphasis marks), one block a
/// line, without what the page's CSS hides. Markup html5ever cannot read at all falls back to the text
/// between the tags.
pub fn render_html(html: &str) -> String {
    html2text::config::with_decorator(TrivialDecorator::new())
        .allow_width_overflow()
        // what the page's own CSS hides (`display: none` in a <style> or a style attribute: templates
        // kept in hidden text areas, collapsed menus) is not what a reader sees
        .use_doc_css()
        .string_from_read(html.as_bytes(), WIDTH)
        .unwrap_or_else(|_| strip_tags(html))
}

/// The text between tags, tags replaced by spaces (a fallback, not a renderer).
fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_literal_text_without_markup() {
        let text = render_html(
            "<html><head><title>T</title><script>var x = 1;</script></head><body><h1>Head</h1>\
             <p>A <a href=\"/x\">link</a> and <b>bold</b>.</p><ul><li>one</li></ul></body></html>",
        );
        assert!(!text.contains('[') && !text.contains("var x") && !text.contains('*'), "{text}");
        assert!(text.contains("Head") && text.contains("A link and bold.") && text.contains("one"), "{text}");
    }

    #[test]
    fn what_the_pages_css_hides_is_not_rendered() {
        let text = render_html(
            "<html><head><style>.menu { display: none }</style></head><body>\
             <textarea style=\"display:none\"><div class=\"acHeadline\"></div></textarea>\
             <ul class=\"menu\"><li>Home</li></ul><p>The article.</p></body></html>",
        );
        assert!(text.contains("The article.") && !text.contains("acHeadline") && !text.contains("Home"), "{text}");
    }

    #[test]
    fn fragments_left_by_cleaning_still_render() {
        let text = render_html("</div></td> body text <p>more");
        assert!(text.contains("body text") && text.contains("more"), "{text}");
    }
}
