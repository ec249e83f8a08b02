//! Regressions of cost: work bounded by counting on long lines and many matches; limits that give clear errors.
//!
//! The cleaner and the frame-cut suggestion count the bytes they read (`chaff::cleaning::work`): a step
//! that reads the line or the document once per match shows up as a count that grows with the matches,
//! far above a few times the document's length.
//!
//! `CHAFF_COST_DUMP=DIR cargo test --test regression cost::` also writes the generated inputs to DIR, to
//! time the release CLI on them.

use std::path::Path;

use chaff::automatic::automatic_rules;
use chaff::cleaning::{CleanSettings, Cleaner, Stage, Stages, work};
use chaff::corpus::{Corpus, Document};
use chaff::mining::{MiningConfig, Quiet, mine};
use chaff::mutable::MutableSet;
use chaff::page::Page;
use chaff::rules::{Action, MiningParams, Rule, RulesFile};
use chaff::settings::Settings;
use chaff::symbol::Symbol;
use chaff::tokens::Tokenizer;
use chaff::view::{DocKind, PageView, Reading};

/// Bytes read per byte of input, at most: each step reads the document a few times (tokens, layout,
/// visible lines, kept runs), and mining judges every page twice.
const READS_PER_BYTE: usize = 40;

fn dump(name: &str, docs: &[Document], extension: &str) {
    let Some(dir) = std::env::var_os("CHAFF_COST_DUMP") else { return };
    let dir = Path::new(&dir).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    for d in docs {
        std::fs::write(dir.join(format!("{}.{extension}", d.id)), &d.text).unwrap();
    }
}

/// A sevendays-shaped source's documents glued into lines of `bytes` each: a page as a naive parser
/// leaves it, at any length.
fn one_line_documents(n: usize, bytes: usize) -> Vec<Document> {
    let source = chaff::generate::bench_corpus(n * bytes, 4_000, 11);
    let mut docs: Vec<Document> = Vec::new();
    let mut line = String::new();
    for d in source.docs {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&d.text.replace('\n', " "));
        if line.len() >= bytes {
            docs.push(Document { id: format!("{:02}", docs.len()), text: std::mem::take(&mut line) });
        }
    }
    if !line.is_empty() {
        docs.push(Document { id: format!("{:02}", docs.len()), text: line });
    }
    docs
}

/// Every stage of cleaning on, as a mined source would have it.
pub(crate) fn all_settings() -> CleanSettings {
    CleanSettings {
        merge_gap: 0,
        islands: chaff::clean_settings::IslandsSettings { words: 10 },
        short_runs: chaff::clean_settings::ShortRunsSettings { words: 20 },
        link_density: chaff::clean_settings::LinkDensitySettings { share: 50 },
        specks: chaff::clean_settings::SpecksSettings { chars: 6 },
        stages: Stages::all(),
    }
}

fn rule(tokenizer: Tokenizer, id: &str, tokens: &str, action: Action) -> Rule {
    let m = MutableSet::defaults();
    let symbols: Vec<Symbol> = tokens.split(' ').map(Symbol::decode).collect();
    Rule { bin: 99, ..Rule::accepted(id, &symbols, action, tokenizer, &m).unwrap() }
}

fn cleaner(tokenizer: Tokenizer, rules: &[(&str, Action)], settings: CleanSettings) -> Cleaner {
    let rules: Vec<Rule> =
        rules.iter().enumerate().map(|(i, (t, a))| rule(tokenizer, &format!("r{i}"), t, *a)).collect();
    Cleaner::from_rules(tokenizer, MutableSet::defaults().patterns(), &rules, 0).unwrap().with_settings(settings)
}

/// Bytes read by `f`, on this thread and on those it handed work to.
fn counted<R>(f: impl FnOnce() -> R) -> (R, usize) {
    work::measure(f)
}

fn assert_linear(what: &str, reads: usize, bytes: usize) {
    assert!(
        reads <= READS_PER_BYTE * bytes,
        "{what}: read {reads} bytes for {bytes} of input ({:.1} per byte, at most {READS_PER_BYTE})",
        reads as f64 / bytes as f64
    );
}

#[test]
fn a_long_one_line_text_document_is_mined_and_cleaned_in_linear_work() {
    // 2 MB on one line, in two documents (mining needs two): over three times the longest lines of real
    // pages, and long enough that work growing with the square of a line would exceed the bound many times
    let docs = one_line_documents(2, 1_000_000);
    dump("one-line-text", &docs, "txt");
    let bytes: usize = docs.iter().map(|d| d.text.len()).sum();
    let corpus = Corpus::from_docs("glued", docs);
    let mining = mine(&corpus, &MiningConfig::default(), &Quiet).unwrap();
    let (file, reads) =
        counted(|| automatic_rules(&corpus, &mining, MiningParams::default(), None, &Settings::default()).unwrap());
    assert_linear("mining's automatic rules", reads, bytes);
    let mut file: RulesFile = file;
    // every stage on, line boundaries too: the glued source would have them off
    file.set_clean_settings(all_settings());
    let c = Cleaner::new(&file, true).unwrap();
    let (_, reads) = counted(|| corpus.docs.iter().map(|d| c.clean(&d.text).spans.len()).sum::<usize>());
    assert_linear("cleaning", reads, bytes);
}

/// An HTML page whose body is one line of `n` short paragraphs, each in its own `<div>`.
fn divs_on_one_line(n: usize, seed: usize) -> String {
    let mut body = String::new();
    for i in 0..n {
        let k = (i * 7 + seed) % 13;
        body.push_str(&format!("<div><p>Item {k} by Ann</p><span>read more</span></div>"));
    }
    format!(
        "<html><head><title>A page of many parts</title></head><body><nav><a href=\"/\">Home</a></nav>\
         <h1>A page of many parts</h1><p>The article starts here and it has enough words to be a long line.</p>\
         {body}<footer>Leave a reply</footer></body></html>"
    )
}

#[test]
fn an_html_page_with_20000_divs_on_one_line_is_cleaned_in_linear_work() {
    let page = divs_on_one_line(20_000, 0);
    dump("divs", &[Document { id: "page".into(), text: page.clone() }], "html");
    let c = cleaner(
        Tokenizer::Html,
        &[
            ("</div> <div> <p> Item", Action::Remove),
            ("by Ann </p>", Action::Remove),
            ("<span> read more </span> </div>", Action::Remove),
            ("Home </a> </nav>", Action::CutBefore),
            ("<footer> Leave a reply </footer>", Action::CutAfter),
        ],
        // line boundaries are text's
        CleanSettings {
            stages: Stages::all().with(Stage::LineBoundary, false).with(Stage::SentenceHeads, false),
            ..all_settings()
        },
    );
    let (out, reads) = counted(|| c.clean(&page));
    assert!(out.removed_bytes > 0 && c.matches(&page).len() >= 3 * 20_000, "the template is matched and removed");
    assert_linear("cleaning 20,000 divs on one line", reads, page.len());
}

#[test]
fn a_text_line_with_100000_matches_is_cleaned_in_linear_work() {
    let mut text = String::from("A page of many links\nMenu Home\n");
    for i in 0..100_000 {
        text.push_str(&format!("Read more {} ", i % 10));
    }
    text.push_str("\nThe article starts here and it has enough words to be a long line of prose.\nLeave a reply\n");
    let c = cleaner(
        Tokenizer::Text,
        &[("Read more", Action::Remove), ("Menu Home", Action::CutBefore), ("Leave a reply", Action::CutAfter)],
        all_settings(),
    );
    let (out, reads) = counted(|| c.clean(&text));
    assert!(out.text.contains("The article starts here"), "{}", &out.text[..out.text.len().min(200)]);
    assert_linear("cleaning 100,000 matches on one line", reads, text.len());
    // and without line boundaries, every match counts
    let c = c.with_line_boundary(false);
    let (out, reads) = counted(|| c.clean(&text));
    assert!(!out.text.contains("Read more"), "the links are removed");
    assert_linear("cleaning 100,000 matches on one line, no line boundaries", reads, text.len());
}

/// Pages of a source that prints its HTML minified, on one line: each page is copies of the source's
/// page with words changed, about `bytes` long.
fn mutated_minified_pages(n: usize, bytes: usize) -> Vec<Document> {
    let source = chaff::generate::html_news(n, 5);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    source
        .docs
        .iter()
        .map(|d| {
            let minified: String = d.text.lines().map(str::trim).collect();
            let mut text = String::new();
            while text.len() < bytes {
                // a mutated copy: one word in twelve changed
                for (i, w) in minified.split(' ').enumerate() {
                    if i > 0 {
                        text.push(' ');
                    }
                    if next() % 12 == 0 && !w.contains(['<', '>']) {
                        text.push_str(&format!("w{}", next() % 1000));
                    } else {
                        text.push_str(w);
                    }
                }
            }
            Document { id: d.id.clone(), text }
        })
        .collect()
}

#[test]
fn mining_minified_pages_of_mutated_copies_suggests_cuts_in_linear_work() {
    let docs = mutated_minified_pages(7, 117_000);
    dump("minified", &docs, "html");
    let bytes: usize = docs.iter().map(|d| d.text.len()).sum();
    let corpus = Corpus::from_docs("minified", docs);
    let config = MiningConfig { tokenizer: Tokenizer::Html, ..MiningConfig::default() };
    let mining = mine(&corpus, &config, &Quiet).unwrap();
    let params = MiningParams::of(&config);
    let (file, reads) = counted(|| automatic_rules(&corpus, &mining, params, None, &Settings::default()).unwrap());
    assert!(file.rules.len() > 10, "the template is mined: {} rules", file.rules.len());
    assert_linear("mining's automatic rules on minified pages", reads, bytes);
    let c = Cleaner::new(&file, true).unwrap();
    let (_, reads) = counted(|| corpus.docs.iter().map(|d| c.clean(&d.text).spans.len()).sum::<usize>());
    assert_linear("cleaning minified pages", reads, bytes);
}

/// The process's peak resident memory, in MiB (Linux), if known.
fn peak_mib() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<usize>().ok()? / 1024)
}

#[test]
fn three_hundred_counted_repetition_rules_are_an_error_not_gigabytes() {
    // legal rules, each compiling to megabytes: together they ran a cleaner to 5.3 GB
    let rules: Vec<Rule> = (0..300)
        .map(|i| {
            let mut r = rule(Tokenizer::Text, &format!("wide{i}"), "Read more", Action::Remove);
            r.regex = format!(r"\w{{1,200}}\s+read{i}\s+\w{{1,200}}");
            r
        })
        .collect();
    let err = Cleaner::from_rules(Tokenizer::Text, MutableSet::defaults().patterns(), &rules, 0)
        .expect_err("the rules exceed the regex memory budget")
        .to_string();
    assert!(err.starts_with("rule wide") && err.contains("simplify") && err.contains("reject"), "{err}");
    if let Some(peak) = peak_mib() {
        assert!(peak < 2048, "peak memory {peak} MiB");
    }
}

/// Bytes the page view examines to read `html`, plus what the cleaner reads cleaning it through the page.
fn page_work(c: &Cleaner, html: &str) -> (chaff::page::CleanedPage<'static>, usize) {
    let html: &'static str = Box::leak(html.to_string().into_boxed_str());
    let (_, viewing) = PageView::of_html_reading(html, Reading::default());
    let (out, reads) = counted(|| c.clean_page(Page::new(html, DocKind::Html)));
    (out, reads + viewing as usize)
}

#[test]
fn a_5_mb_html_page_on_one_line_is_viewed_and_cleaned_in_linear_work() {
    // 80,000 parts on one source line: the view has a line per part, the cleaner a match per line
    let page = divs_on_one_line(80_000, 3);
    assert!(page.len() > 4_000_000, "{} bytes", page.len());
    let c = cleaner(
        Tokenizer::Text,
        &[("by Ann", Action::Remove), ("read more", Action::Remove), ("Leave a reply", Action::CutAfter)],
        all_settings(),
    );
    let (out, work) = page_work(&c, &page);
    let text = out.text();
    assert!(
        text.contains("The article starts here") && !text.contains("read more"),
        "{}",
        &text[..text.len().min(300)]
    );
    assert_linear("viewing and cleaning a 5 MB one-line page", work, page.len());
}

#[test]
fn an_html_paragraph_with_100000_matches_is_cleaned_through_its_view_in_linear_work() {
    let mut links = String::new();
    for i in 0..100_000 {
        links.push_str(&format!("Read more {} ", i % 10));
    }
    let page = format!(
        "<html><head><title>A page of many links</title></head><body><nav>Menu Home</nav><p>{links}</p>\
         <p>The article starts here and it has enough words to be a long line of prose.</p>\
         <footer>Leave a reply</footer></body></html>"
    );
    let c = cleaner(
        Tokenizer::Text,
        &[("Read more", Action::Remove), ("Menu Home", Action::CutBefore), ("Leave a reply", Action::CutAfter)],
        CleanSettings { stages: Stages::all().with(Stage::LineBoundary, false), ..all_settings() },
    );
    let (out, work) = page_work(&c, &page);
    assert!(out.text().contains("The article starts here") && !out.text().contains("Read more"), "matched and removed");
    assert_linear("cleaning 100,000 matches on one view line", work, page.len());
}

#[test]
fn link_boxes_nested_thousands_deep_between_paragraphs_are_cleaned_in_linear_work() {
    // each part opens inside the last one: a paragraph, then its box of links; a stretch's box is looked
    // for by walking up from its lines, which must not walk the whole depth per box
    let (n, mut body) = (3_000, String::new());
    for i in 0..n {
        body.push_str(&format!(
            "<div class=\"part{}\"><p>The article goes on here with a long sentence of prose, part {i}.</p>\
             <div class=\"links\"><a href=\"/{i}\">Other story {i}</a><br><a href=\"/{i}b\">Another story {i}</a><br>\
             <a href=\"/{i}c\">A third story {i}</a></div>",
            i % 7
        ));
    }
    body.push_str(&"</div>".repeat(n));
    let page = format!(
        "<html><head><title>A deep page</title></head><body><nav>Menu Home</nav>\
         <p>The article starts here and it has enough words to be a long line of prose.</p>{body}\
         <footer>Leave a reply</footer></body></html>"
    );
    let c = cleaner(
        Tokenizer::Text,
        &[("Menu Home", Action::CutBefore), ("Leave a reply", Action::CutAfter)],
        all_settings(),
    );
    let (out, work) = page_work(&c, &page);
    let text = out.text();
    assert!(text.contains("part 2999") && text.contains("The article starts here"), "the prose stays");
    assert!(!text.contains("Another story 1500"), "the boxes between paragraphs go");
    assert_linear("cleaning 3,000 nested link boxes", work, page.len());
}
