//! What `--explain` names is exactly what was taken: for every input kind (text, HTML) and output mode
//! (default, `--keep-tags`, `--text`), the output is its input less the explained spans, and
//! `removed_bytes` is the input's length less the output's. A document no rule touches passes through
//! byte for byte.

use std::path::{Path, PathBuf};

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use chaff::cleaning::Cleaner;
use chaff::mutable::MutableSet;
use chaff::page::{Output, Page};
use chaff::rules::{Action, Rule};
use chaff::symbol::Symbol;
use chaff::tokens::Tokenizer;
use chaff::view::{DocKind, PageView};
use proptest::prelude::*;

const WORDS: [&str; 6] = ["a", "b", "read", "more", "Tuesday,", "22nd"];
const SYMBOLS: [&str; 7] = ["a", "b", "read", "more", "«weekday»", "«ordinal»", "x"];
const SPACES: [&str; 6] = [" ", "  ", "\n", " \n ", "\t", ""];
const MARKUP: [&str; 27] = [
    "<noscript>",
    "</noscript>",
    "<template>",
    "<svg><title>t</title></svg>",
    "<span style=\"display:none\">",
    "</span>",
    "<plaintext>",
    "<video>v</video>",
    "<textarea>",
    "<!--",
    "<xmp>",
    "<p>",
    "</p>",
    "<div>",
    "</div>",
    "<b>",
    "</b>",
    "<br>",
    "<li>",
    "<title>",
    "</title>",
    "&amp;",
    "<!-- c -->",
    "<script>if (a<b) x()</script>",
    "<style>p{}</style>",
    "<meta charset=\"utf-8\">",
    "<div hidden>h</div>",
];

fn patterns() -> &'static MutableSet {
    static SET: std::sync::OnceLock<MutableSet> = std::sync::OnceLock::new();
    SET.get_or_init(MutableSet::defaults)
}

fn cleaner(spec: &[(Vec<&str>, u8)]) -> Cleaner {
    let rules: Vec<Rule> = spec
        .iter()
        .enumerate()
        .map(|(i, (tokens, a))| {
            let action = match a {
                4 => Action::CutBefore,
                5 => Action::CutAfter,
                _ => Action::Remove,
            };
            let symbols: Vec<Symbol> = tokens.iter().map(|t| Symbol::decode(t)).collect();
            let rule = Rule::accepted(format!("r{i}"), &symbols, action, Tokenizer::Text, patterns()).unwrap();
            Rule { bin: 99, ..rule }
        })
        .collect();
    Cleaner::with_patterns(Tokenizer::Text, patterns(), &rules, 0).unwrap()
}

fn rules() -> impl Strategy<Value = Vec<(Vec<&'static str>, u8)>> {
    prop::collection::vec((prop::collection::vec(prop::sample::select(&SYMBOLS[..]), 1..4), 0u8..6), 0..6)
}

fn text_doc() -> impl Strategy<Value = String> {
    let space = prop::sample::select(&SPACES[..]);
    (space.clone(), prop::collection::vec((prop::sample::select(&WORDS[..]), space), 0..30))
        .prop_map(|(lead, ws)| lead.to_string() + &ws.into_iter().map(|(w, s)| format!("{w}{s}")).collect::<String>())
}

fn html_doc() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(&WORDS[..]),
        2 => prop::sample::select(&SPACES[..]),
        2 => prop::sample::select(&MARKUP[..]),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|p| p.concat())
}

fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `input` less `taken`, rebuilt here from the explained pieces alone.
fn less(input: &str, taken: &[Vec<(usize, usize)>]) -> String {
    let mut pieces: Vec<(usize, usize)> = taken.iter().flatten().copied().collect();
    pieces.sort_unstable();
    let mut out = String::new();
    let mut pos = 0;
    for (a, b) in pieces {
        assert!(pos <= a && a <= b, "pieces overlap: {pieces:?}", pieces = taken);
        out.push_str(&input[pos..a]);
        pos = b;
    }
    out + &input[pos..]
}

fn check(c: &Cleaner, doc: &str, kind: DocKind) -> Result<(), TestCaseError> {
    let cleaned = c.clean_page(Page::new(doc, kind));
    // the explanation is of the spans that were cut
    let e = c.explain_page(&cleaned.page);
    let explained: Vec<(usize, usize)> = e.spans.iter().map(|s| (s.start, s.end)).collect();
    let cut: Vec<(usize, usize)> = cleaned.spans.iter().map(|s| (s.start, s.end)).collect();
    prop_assert_eq!(explained, cut);
    // explained in the run that cleans it: the same decisions
    let once = c.clean_page_explained(Page::new(doc, kind));
    prop_assert_eq!(once.explanation(), Some(&e));
    prop_assert_eq!(&once.spans, &cleaned.spans);
    for output in [Output::Cleaned, Output::KeepTags, Output::Text] {
        let input = cleaned.input(output);
        let written = cleaned.write(output);
        let taken = cleaned.taken_by_span(output);
        prop_assert_eq!(taken.len(), cleaned.spans.len());
        prop_assert_eq!(&less(input, &taken), &written, "{:?} of {:?}", output, doc);
        let removed: usize = taken.iter().flatten().map(|(a, b)| b - a).sum();
        prop_assert_eq!(removed, input.len() - written.len());
        if cleaned.spans.is_empty() && (kind == DocKind::Text || output != Output::Text) {
            prop_assert_eq!(&written, doc, "passes through byte for byte");
        }
    }
    if kind == DocKind::Html {
        let seen = PageView::of_html(&cleaned.cleaned());
        prop_assert_eq!(words(seen.text()), words(&cleaned.text()), "cleaned HTML of {:?}", doc);
        let kept = PageView::of_html(&cleaned.write(Output::KeepTags));
        prop_assert_eq!(words(kept.text()), words(&cleaned.text()), "--keep-tags of {:?}", doc);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn text_output_is_its_input_less_the_explained_spans(spec in rules(), doc in text_doc()) {
        check(&cleaner(&spec), &doc, DocKind::Text)?;
    }

    #[test]
    fn html_output_is_its_input_less_the_explained_spans(spec in rules(), doc in html_doc()) {
        check(&cleaner(&spec), &doc, DocKind::Html)?;
    }
}

#[test]
fn a_document_passing_through_unchanged_keeps_its_trailing_whitespace() {
    let c = cleaner(&[]);
    for doc in ["The article.\n", "  Two lines\nof text.\n\n  ", "\n"] {
        let cleaned = c.clean_page(Page::new(doc, DocKind::Text));
        assert_eq!(cleaned.cleaned(), doc);
        assert!(cleaned.taken(Output::Cleaned).is_empty());
    }
}

#[test]
fn a_span_inside_a_line_leaves_one_separator_of_the_documents_own() {
    let c = cleaner(&[(vec!["read", "more"], 0)]);
    let doc = "a read more b\nread more\n b \n";
    let cleaned = c.clean_page(Page::new(doc, DocKind::Text));
    assert_eq!(cleaned.cleaned(), "a b\nb \n");
    assert_eq!(less(doc, &cleaned.taken_by_span(Output::Cleaned)), cleaned.cleaned());
}

/// `--explain` costs no second cleaning: a page cleaned explained reads its text as often as a page
/// cleaned alone, and names what explaining it apart names.
#[test]
fn a_page_is_cleaned_and_explained_in_one_run_of_the_stages() {
    let c = cleaner(&[(vec!["read", "more"], 0), (vec!["a", "b"], 0)]);
    let doc = "title line\nread more\nthe article has a b many words read more of its own here\na b\n".repeat(50);
    let page = || Page::new(&doc, DocKind::Text);
    let (plain, alone) = chaff::cleaning::work::measure(|| c.clean_page(page()));
    let (explained, once) = chaff::cleaning::work::measure(|| c.clean_page_explained(page()));
    assert_eq!(once, alone, "the text is read as often explained as not");
    assert!(plain.explanation().is_none());
    assert_eq!(explained.explanation(), Some(&c.explain_page(&page())));
    assert_eq!(explained.spans, plain.spans);
}

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora")
}

/// `chaff clean --explain` on the sample pages, in every mode: each record's text is its input less the
/// spans it lists (`taken` pieces where a span keeps bytes inside it), and `removed_bytes` adds up.
#[test]
fn explain_adds_up_to_the_output_in_every_mode() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = samples().join("html_news");
    let o = run::chaff(&["mine", corpus.to_str().unwrap(), "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "{}", run::stderr(&o));
    let rules = dir.path().join("rules/html_news.toml");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    pages.truncate(6);
    let docs: Vec<String> = pages.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    let input: String =
        docs.iter().enumerate().map(|(i, d)| serde_json::json!({"id": i, "text": d}).to_string() + "\n").collect();
    for mode in [None, Some("--keep-tags"), Some("--text")] {
        let mut args = vec!["clean", "--rules", rules.to_str().unwrap(), "--include-pending", "--explain"];
        args.extend(mode);
        let o = run::chaff_stdin(&args, dir.path(), input.as_bytes());
        assert!(o.status.success(), "{}", run::stderr(&o));
        for (line, doc) in String::from_utf8(o.stdout).unwrap().lines().zip(&docs) {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            let view;
            let from: &str = if mode == Some("--text") {
                view = PageView::of_html(doc);
                view.text()
            } else {
                doc
            };
            let mut taken: Vec<Vec<(usize, usize)>> = Vec::new();
            for s in record["spans"].as_array().unwrap() {
                if s["kind"] == "kept" {
                    continue;
                }
                let at = |v: &serde_json::Value| v.as_u64().unwrap() as usize;
                taken.push(match s.get("taken") {
                    Some(pieces) => pieces.as_array().unwrap().iter().map(|p| (at(&p[0]), at(&p[1]))).collect(),
                    None => vec![(at(&s["start"]), at(&s["end"]))],
                });
            }
            let text = record["text"].as_str().unwrap();
            assert!(!taken.is_empty(), "{mode:?}: nothing explained");
            assert_eq!(less(from, &taken), text, "{mode:?}");
            assert_eq!(record["removed_bytes"].as_u64().unwrap() as usize, from.len() - text.len(), "{mode:?}");
        }
    }
}

/// The tab-separated `--explain` lines of files say the same: each removed line's range (or its pieces)
/// taken from the page, or from its view with `--text` (`view:`), leaves exactly the file written.
#[test]
fn explain_lines_of_files_add_up_to_the_files_written() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = samples().join("html_news");
    let o = run::chaff(&["mine", corpus.to_str().unwrap(), "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "{}", run::stderr(&o));
    let page = corpus.join("0001.html");
    let doc = std::fs::read_to_string(&page).unwrap();
    for (mode, written) in [(None, "0001.html"), (Some("--keep-tags"), "0001.html"), (Some("--text"), "0001.txt")] {
        let out = dir.path().join(format!("out{}", mode.unwrap_or("")));
        let mut args = vec!["clean", "--rules", "rules/html_news.toml", "--include-pending", "--explain"];
        args.extend(mode);
        args.extend([page.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        let o = run::chaff(&args, dir.path());
        assert!(o.status.success(), "{}", run::stderr(&o));
        let view = PageView::of_html(&doc);
        let from = if mode == Some("--text") { view.text() } else { &doc };
        let mut taken = Vec::new();
        for line in String::from_utf8(o.stdout).unwrap().lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            if fields[2] == "kept" {
                continue;
            }
            let range = fields[1].strip_prefix("view:");
            assert_eq!(range.is_some(), mode == Some("--text"), "{line}");
            let pieces = range.unwrap_or(fields[1]).split(',').map(|r| {
                let (a, b) = r.split_once("..").unwrap();
                (a.parse::<usize>().unwrap(), b.parse::<usize>().unwrap())
            });
            taken.push(pieces.collect::<Vec<_>>());
        }
        assert!(!taken.is_empty());
        assert_eq!(less(from, &taken), std::fs::read_to_string(out.join(written)).unwrap(), "{mode:?}");
    }
}

#[test]
fn cleaned_html_of_a_title_never_closed_is_cut_as_the_view_reads_it() {
    // the view ends the title at `<script>`; the cut must not read the script's start tag as title text
    let c = cleaner(&[(vec!["«weekday»"], 0)]);
    for doc in
        ["<title>Tuesday,<script>if (a<b) x()</script>Tuesday, ", "<title>Tuesday,<style>p{}</style><p>Tuesday, x"]
    {
        check(&c, doc, DocKind::Html).unwrap();
    }
}

#[test]
fn the_tag_that_ends_a_title_never_closed_stays_when_the_text_around_it_goes() {
    // without that tag the output's title, still never closed, would end at a later tag and take the
    // text before it onto the title's line
    let c = cleaner(&[(vec!["a"], 0)]);
    check(&c, "<title>a<div hidden>h</div>a a<script>if (a<b) x()</script>a", DocKind::Html).unwrap();
    check(&c, "<title>a<p>a b<script>if (a<b) x()</script>b", DocKind::Html).unwrap();
    // the tag is the start of a hidden element: its end tag stays with it, or the rest would be hidden
    let c = cleaner(&[(vec!["«weekday»"], 0)]);
    check(&c, "Tuesday,<div><title><div hidden>h</div>Tuesday, a", DocKind::Html).unwrap();
    check(&c, "Tuesday,<section><title><div hidden>h</section>Tuesday, a", DocKind::Html).unwrap();
}

#[test]
fn cleaned_html_of_a_comment_never_closed_is_cut_as_the_view_reads_it() {
    // the view ends such a comment at the next `>`: the tags after it are tags to the cut too, or a
    // script start tag standing for a line break goes and the script's code becomes the page's text
    let c = cleaner(&[(vec!["b", "«ordinal»"], 0)]);
    check(&c, "<!--<xmp><title>b<script>if (a<b) x()</script>22nd ", DocKind::Html).unwrap();
    // and the comment itself stays, as a tag does: a `<!--` inside a title read as text would take the
    // title on to its end tag
    let c = cleaner(&[(vec!["more", "a"], 0)]);
    check(&c, "more<title><!--<xmp><textarea>a </title>", DocKind::Html).unwrap();
}

#[test]
fn the_last_end_tag_of_a_title_stays_when_the_element_it_closes_goes() {
    // it says that every title before it is closed: without it an earlier title is read as never
    // closed, and its text as markup
    let c = cleaner(&[(vec!["«weekday»", "b"], 0)]);
    check(&c, "<title><xmp><!--<xmp> Tuesday,<title></title>b ", DocKind::Html).unwrap();
}

#[test]
fn keep_tags_reads_markup_as_the_view_does() {
    // the text after a comment never closed is text (the comment ends at its `>`), not the comment's
    let c = cleaner(&[(vec!["read"], 0)]);
    check(&c, "<!--<xmp>read ", DocKind::Html).unwrap();
    // a `>` inside an attribute's value ends no tag, and an iframe's content is no text
    let html = "<meta content=\"<p>Summary</p>\"><p>Body</p><iframe> x </iframe>";
    let markup = chaff::render::markup_ranges(html);
    let text = less(html, &[markup]);
    assert_eq!(text, "Body");
}
