//! The view's tokenizer against html5gum, the tokenizer it replaces: the same events (text runs, tags with
//! their spans, names, self-closing flags, `id` and `class`) on generated markup full of the cases the
//! standard's states tell apart, and on every page of the shared corpora, whole and cut short.

use std::ops::Range;

use proptest::prelude::*;

use super::{Handler, Raw, Tag, reference, tokenize};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Event {
    Text(Range<usize>),
    Start { span: Range<usize>, name: Vec<u8>, self_closing: bool, id: Option<Vec<u8>>, class: Option<Vec<u8>> },
    End { span: Range<usize>, name: Vec<u8> },
}

/// Records every event; reads an element's content as text as the view does (by name), except where
/// its `id` is `markup` (the view reads a title never closed as markup).
#[derive(Default)]
struct Record(Vec<Event>);

impl Handler for Record {
    fn text(&mut self, span: Range<usize>) {
        self.0.push(Event::Text(span));
    }

    fn start_tag(&mut self, tag: &Tag) -> Option<Raw> {
        self.0.push(Event::Start {
            span: tag.span.clone(),
            name: tag.name.to_vec(),
            self_closing: tag.self_closing,
            id: tag.id.map(<[u8]>::to_vec),
            class: tag.class.map(<[u8]>::to_vec),
        });
        if tag.id == Some(b"markup") {
            return None;
        }
        match tag.name {
            b"title" | b"textarea" | b"rc" => Some(Raw::RcData),
            b"script" | b"sc" => Some(Raw::ScriptData),
            b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" | b"raw" => Some(Raw::Text),
            _ => None,
        }
    }

    fn end_tag(&mut self, tag: &Tag) {
        self.0.push(Event::End { span: tag.span.clone(), name: tag.name.to_vec() });
    }
}

/// Our events and html5gum's. html5gum ends a text run that closes the input after a character
/// reference a byte short (`a&amp;` spans `a&amp`); the view read such a run to the end (no tag follows
/// it), which is where ours ends: html5gum's are compared as the view read them.
fn events(html: &str) -> (Vec<Event>, Vec<Event>) {
    let mut ours = Record::default();
    tokenize(html.as_bytes(), &mut ours);
    let mut theirs = Record::default();
    reference::tokenize(html, &mut theirs);
    for e in &mut theirs.0 {
        if let Event::Text(span) = e
            && !html.as_bytes()[span.end..].contains(&b'<')
        {
            span.end = html.len();
        }
    }
    (ours.0, theirs.0)
}

fn assert_same(html: &str) {
    let (ours, theirs) = events(html);
    assert!(ours == theirs, "on {html:?}: {}", first_difference(&ours, &theirs));
}

/// The first event where two readings part, for a failure's message.
fn first_difference(ours: &[Event], theirs: &[Event]) -> String {
    let i = ours.iter().zip(theirs).take_while(|(a, b)| a == b).count();
    format!("event {i}: ours {:?}, html5gum's {:?}", ours.get(i), theirs.get(i))
}

/// Pieces of markup the tokenizer's states tell apart.
const PIECES: &[&str] = &[
    "<p>",
    "</p>",
    "<P CLASS=x>",
    "<div id=\"main\" class=\"a  b\">",
    "<div class='x' id=y>",
    "<div id=a id=b class=c class=d>",
    "<span id=\"a&amp;b\" class=\"&notit; &not=x &amp &#38; &#x26 &#0; &#128; &#x81; &#55296; &#99999999;\">",
    "<a href=\"x>y\" title='a\"b'>",
    "<a b=c/d e='f'g>",
    "<img src=x />",
    "<br/>",
    "<a/b>",
    "<a =b>",
    "<a b = c>",
    "<a b= >",
    "<a\rid=\"c\r\nd\" class=\"\0\">",
    "<x\0y>",
    "</p x=y>",
    "</p/>",
    "</>",
    "</ p>",
    "</3>",
    "<3",
    "< p",
    "<?xml version=\"1.0\"?>",
    "<!DOCTYPE html>",
    "<!doctype html public \"a>b\">",
    "<!DOCTYP>",
    "<![CDATA[ x ]]>",
    "<!-->",
    "<!--->",
    "<!---->",
    "<!-- a -->",
    "<!-- a --!>",
    "<!-- <!-- b -->",
    "<!--!>",
    "<!-- a <!--> b",
    "<!-- a --!-->",
    "<!-- a -- b - -->",
    "<!>",
    "<!",
    "<!-",
    "<title>",
    "</title>",
    "</TITLE >",
    "</titlex>",
    "<textarea>",
    "</textarea>",
    "<script>",
    "<script type=\"x\">",
    "</script>",
    "</script",
    "</SCRIPT/>",
    "<!--",
    "-->",
    "--!>",
    "<!-- <script>",
    "<script>",
    "</script> -->",
    "<style>",
    "</style>",
    "<xmp>",
    "</xmp>",
    "<rc id=markup>",
    "<sc>",
    "</sc>",
    "<raw>",
    "</raw>",
    "&amp;",
    "&amp",
    "&ampx",
    "&#38;",
    "&#x26",
    "&",
    "&#",
    "&#x",
    "a b",
    "text",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\0",
    "é",
    "—",
    "<",
    ">",
    "/",
    "!",
    "-",
    "--",
    "=",
    "\"",
    "'",
    "?",
    "x",
    "S",
];

fn markup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("TOKENIZER_CASES").map_or(4000, |v| v.parse().unwrap()), ..ProptestConfig::default() })]

    #[test]
    fn the_tokenizer_reads_markup_as_html5gum_does(html in markup()) {
        let (ours, theirs) = events(&html);
        prop_assert!(ours == theirs, "on {:?}: {}", html, first_difference(&ours, &theirs));
    }
}

#[test]
fn text_runs_and_tags_have_html5gum_spans() {
    for html in [
        "a</>b<p>c",
        "</>b",
        "x <p id=a class=b>y</p> z",
        "<p>a&amp;<b>c</b>",
        "<p>a&amp<b>c",
        "<title>T &amp; U</title>rest",
        "<p>xy<script>var a = '<p>';</script>after",
        "<script><!-- <script> </script> x --></script>tail",
        "a <!-- c --> b",
        "a\r\n<p>\r\nb",
        "<div id=\"  a\r\n\">x",
        "a&amp;",
        "tail<",
        "tail</",
        "<p id=\"never closed",
    ] {
        assert_same(html);
    }
}

/// Every page of the shared corpora, whole and cut at a few places: skipped without `../shared`.
#[test]
fn the_tokenizer_reads_every_corpus_page_as_html5gum_does() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora");
    let Ok(datasets) = std::fs::read_dir(&root) else { return };
    let mut pages = 0;
    for site in datasets.flatten().flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten()) {
        for file in std::fs::read_dir(site.path()).into_iter().flatten().flatten() {
            if file.path().extension().is_none_or(|e| e != "html") {
                continue;
            }
            let html = String::from_utf8_lossy(&std::fs::read(file.path()).expect("readable")).into_owned();
            for cut in [html.len(), html.len() / 2, html.len() / 7] {
                let cut = (0..=cut).rev().find(|&c| html.is_char_boundary(c)).expect("a boundary");
                let (ours, theirs) = events(&html[..cut]);
                assert!(ours == theirs, "{} cut at {cut}: {}", file.path().display(), first_difference(&ours, &theirs));
            }
            pages += 1;
        }
    }
    assert!(pages > 0);
}
