//! Pages as crawls serve them: cut off, with elements and comments never closed. The view reads them as a
//! reader expects (a `<title>` never closed ends at the next tag, a `<!--` never closed at its first `>`),
//! so the page's visible text survives. The mangled pages are made from the sample HTML source.

use std::fs;
use std::path::Path;

use chaff::view::PageView;

fn lines(html: &str) -> Vec<String> {
    PageView::of_html(html).text().split('\n').map(String::from).collect()
}

fn sample_pages() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora/html_news");
    let mut paths: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    paths.sort();
    let pages: Vec<String> = paths.iter().map(|p| fs::read_to_string(p).unwrap()).collect();
    assert!(pages.len() >= 20, "the sample HTML source has its pages");
    pages
}

#[test]
fn a_title_never_closed_ends_at_the_next_tag() {
    let html = "<html><head><title>Harbour news<meta charset=utf-8><script src=a.js></script></head>\
        <body><p>The article survives.</p></body></html>";
    assert_eq!(lines(html), ["Harbour news", "The article survives."]);
}

#[test]
fn a_script_or_style_never_closed_drops_its_code_up_to_the_next_tag() {
    let html = "<p>Before.</p><script>var a = 1; if (a) go();<p>After the script.</p><style>p { x: y }<p>And after the style.</p>";
    assert_eq!(lines(html), ["Before.", "After the script.", "And after the style."]);
}

#[test]
fn a_comment_never_closed_ends_at_its_first_gt() {
    let html = "<p>Before.</p><!-- cut off <p>After the comment.</p><p>More.</p>";
    assert_eq!(lines(html), ["Before.", "After the comment.", "More."]);
    // one closed later is a comment as the standard reads it
    let closed = "<p>Before.</p><!-- a <p>hidden</p> --><p>After.</p>";
    assert_eq!(lines(closed), ["Before.", "After."]);
}

#[test]
fn every_sample_page_reads_the_same_with_its_title_never_closed() {
    for page in sample_pages() {
        let broken = page.replacen("</title>", "", 1);
        assert_ne!(broken, page);
        assert_eq!(lines(&broken), lines(&page));
    }
}

#[test]
fn every_sample_page_reads_the_same_with_a_comment_cut_off_in_its_head() {
    for page in sample_pages() {
        // the comment swallows the next tag (a <link> or </head>), which shows nothing
        let broken = page.replacen("</title>", "</title><!-- cut off by the crawler ", 1);
        assert_eq!(lines(&broken), lines(&page));
    }
}

#[test]
fn every_sample_page_keeps_its_article_with_a_script_never_closed_before_it() {
    for page in sample_pages() {
        let broken = page.replacen("<article>", "<script>window.ads = [1, 2];<article>", 1);
        assert_eq!(lines(&broken), lines(&page));
    }
}

#[test]
fn every_sample_page_cut_off_anywhere_shows_the_lines_before_the_cut() {
    for page in sample_pages() {
        let whole = lines(&page);
        // cut points spread over the page, on character boundaries
        for k in 1..12 {
            let mut at = page.len() * k / 12;
            while !page.is_char_boundary(at) {
                at += 1;
            }
            let cut = lines(&page[..at]);
            // every line but the last (which may be cut in a word or a reference) is the whole page's
            let n = cut.len().saturating_sub(1);
            assert_eq!(cut[..n], whole[..n], "cut at byte {at}");
        }
    }
}

#[test]
fn a_reference_that_ends_the_page_maps_to_all_its_bytes() {
    for html in ["Tuesday,&amp;", "<p>a &lt;", "x &#233;"] {
        let v = PageView::of_html(html);
        let n = v.text().len();
        assert_eq!(v.map().to_source(0..n).last().map(|r| r.end), Some(html.len()), "{html:?}");
    }
}

#[test]
fn the_line_a_title_never_closed_ends_stands_for_the_tag_that_ends_it() {
    // the break after the title maps to the `<b>` that ends it, not to no bytes at all
    let html = "<title>Headline<b>bold</b> more";
    let v = PageView::of_html(html);
    assert_eq!(v.text(), "Headline\nbold more");
    for r in v.map().to_source(0..v.text().len()) {
        assert!(r.start < r.end && r.end <= html.len(), "{r:?}");
    }
    let newline = v.text().find('\n').unwrap();
    assert_eq!(v.map().to_source(newline..newline + 1), vec![15..18]);
}
