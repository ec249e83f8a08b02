//! HTML to text: what is left of a page after cleaning its HTML, as a reader would see it. The UI's preview
//! of a cleaned HTML page reads it through [`html_text`]. `html2text` parses with html5ever, so the
//! fragments cleaning leaves (unclosed tags, stray end tags) still parse the way a browser would. The binary's
//! and not the engine's, so that the engine has no renderer among its dependencies.

use html2text::render::{TextDecorator, TrivialDecorator};

use crate::render::remove_text_keep_tags;

/// The text a reader sees of `html` once the `removed` byte spans are taken out. Only the text inside
/// them goes: their tags stay, so what is left parses as the page did (a removed `</script>` or `-->`
/// would otherwise turn the rest of the page into script or comment).
pub fn html_text(html: &str, removed: &[(usize, usize)]) -> String {
    render_html(&remove_text_keep_tags(html, removed))
}

/// Lines are wrapped at this width; wide enough that wrapping never splits a paragraph in practice.
const WIDTH: usize = 400;

/// The text of `html`: literal text only (no link markers, footnotes, emphasis marks or images' alt
/// text), one block a line, without what the page's CSS hides or an iframe's fallback. Markup html5ever
/// cannot read at all falls back to the text between the tags.
pub fn render_html(html: &str) -> String {
    html2text::config::with_decorator(Literal(TrivialDecorator::new()))
        .allow_width_overflow()
        // what the page's own CSS hides (`display: none` in a <style> or a style attribute: templates
        // kept in hidden text areas, collapsed menus) is not what a reader sees
        .use_doc_css()
        // an iframe's content is the fallback of browsers without frames (often an ad's script, which
        // html5ever reads as text): a reader sees the framed page instead
        .add_agent_css("iframe { display: none }")
        .expect("the agent CSS parses")
        .string_from_read(html.as_bytes(), WIDTH)
        .unwrap_or_else(|_| strip_tags(html))
}

/// [`TrivialDecorator`] without images' text: a reader sees the picture, not its alt text. Templates are
/// full of it ("Image" on every bullet, "close" on a hidden layer's button, an ad's name), and text
/// extractors leave it out.
#[derive(Clone, Debug)]
struct Literal(TrivialDecorator);

// Every method but `decorate_image` is the trivial decorator's.
impl TextDecorator for Literal {
    type Annotation = ();

    fn decorate_link_start(&mut self, url: &str) -> (String, ()) {
        self.0.decorate_link_start(url)
    }
    fn decorate_link_end(&mut self) -> String {
        self.0.decorate_link_end()
    }
    fn decorate_em_start(&self) -> (String, ()) {
        self.0.decorate_em_start()
    }
    fn decorate_em_end(&self) -> String {
        self.0.decorate_em_end()
    }
    fn decorate_strong_start(&self) -> (String, ()) {
        self.0.decorate_strong_start()
    }
    fn decorate_strong_end(&self) -> String {
        self.0.decorate_strong_end()
    }
    fn decorate_strikeout_start(&self) -> (String, ()) {
        self.0.decorate_strikeout_start()
    }
    fn decorate_strikeout_end(&self) -> String {
        self.0.decorate_strikeout_end()
    }
    fn decorate_code_start(&self) -> (String, ()) {
        self.0.decorate_code_start()
    }
    fn decorate_code_end(&self) -> String {
        self.0.decorate_code_end()
    }
    fn decorate_preformat_first(&self) {}
    fn decorate_preformat_cont(&self) {}
    fn decorate_image(&mut self, _src: &str, _title: &str) -> (String, ()) {
        (String::new(), ())
    }
    fn header_prefix(&self, level: usize) -> String {
        self.0.header_prefix(level)
    }
    fn quote_prefix(&self) -> String {
        self.0.quote_prefix()
    }
    fn unordered_item_prefix(&self) -> String {
        self.0.unordered_item_prefix()
    }
    fn ordered_item_prefix(&self, i: i64) -> String {
        self.0.ordered_item_prefix(i)
    }
    fn make_subblock_decorator(&self) -> Self {
        Literal(self.0.make_subblock_decorator())
    }
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
    use crate::render::{element_cuts, markup_ranges, text_cuts, without};

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
    fn images_show_no_text() {
        let text = render_html(
            "<p><img alt=\"Image\" src=\"bullet.gif\"> Read the <a href=\"/x\"><img alt=\"close\" title=\"close\" \
             src=\"x.gif\">article</a>.</p>",
        );
        assert!(text.contains("Read the article.") && !text.contains("Image") && !text.contains("close"), "{text}");
    }

    #[test]
    fn an_iframes_fallback_is_not_rendered() {
        let text = render_html(
            "<p>The article.</p><iframe src=\"ad.html\"><script>document.write('<a href=x>ad</a>');</script>\
             Your browser does not support frames.</iframe><p>More of it.</p>",
        );
        assert!(text.contains("The article.") && text.contains("More of it."), "{text}");
        assert!(!text.contains("document.write") && !text.contains("support frames"), "{text}");
    }

    #[test]
    fn fragments_left_by_cleaning_still_render() {
        let text = render_html("</div></td> body text <p>more");
        assert!(text.contains("body text") && text.contains("more"), "{text}");
    }

    #[test]
    fn removing_html_text_keeps_comments_scripts_and_tags_whole() {
        let html = "<p>keep</p><!-- a <b> comment\n-->\n<script>if (a<b) x()</script><div>drop me</div><p>end</p>";
        let ranges = markup_ranges(html);
        let text_of = |r: &(usize, usize)| &html[r.0..r.1];
        assert!(ranges.iter().any(|r| text_of(r).contains("<!-- a <b> comment\n-->")), "{ranges:?}");
        assert!(ranges.iter().any(|r| text_of(r).contains("<script>if (a<b) x()</script>")), "{ranges:?}");
        // remove everything from the comment to the end of "drop me"
        let start = html.find("<!--").unwrap();
        let end = html.find("</div>").unwrap();
        let kept = remove_text_keep_tags(html, &[(start, end)]);
        assert!(!kept.contains("drop me") && kept.contains("-->") && kept.contains("</script>"), "{kept}");
        let out = html_text(html, &[(start, end)]);
        assert!(out.contains("keep") && out.contains("end") && !out.contains("drop"), "{out}");
    }

    #[test]
    fn a_cut_from_the_title_into_the_body_keeps_the_tags_that_close_and_open_elements_outside_it() {
        let html = "<html><head><title>Site | Big news</title><meta charset=\"utf-8\"><script>x()</script>\
            <style>p{}</style></head><body><nav><a href=\"/\">Home</a> <b>News</b></nav><p>Menu</p><p>The article.</p>\
            </body></html>";
        let (start, end) = (html.find("Site").unwrap(), html.find("Menu").unwrap() + 4);
        let taken = element_cuts(html, &[(start, end)]);
        let out = without(html, &taken);
        assert_eq!(
            out,
            "<html><head><title></title><meta charset=\"utf-8\"><style>p{}</style></head><body><p></p>\
             <p>The article.</p></body></html>"
        );
        assert_eq!(render_html(&out).trim(), "The article.");
        // --keep-tags takes the text alone
        let kept = without(html, &text_cuts(html, &[(start, end)]));
        assert!(kept.contains("<title></title>") && kept.contains("<nav><a href=\"/\"></a><b></b></nav>"), "{kept}");
    }
}
