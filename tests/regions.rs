//! Region rules end to end: a source whose comment thread and story-links strip change on every page
//! (no string rule can see them) gets region rules for them, never for the article's container, and the
//! cleaner removes the blocks and keeps every article word.

use chaff::automatic::automatic_rules;
use chaff::cleaning::Cleaner;
use chaff::corpus::{Corpus, Document};
use chaff::generate::{block_page, block_words};
use chaff::mining::{MiningConfig, Quiet, mine};
use chaff::page::{Page, viewed};
use chaff::regions::RegionRule;
use chaff::rules::{Action, MiningParams, RulesFile, Status};
use chaff::settings::Settings;
use chaff::view::DocKind;

fn source() -> (Corpus, Vec<String>) {
    let html: Vec<String> = (0..12).map(block_page).collect();
    let docs = html.iter().enumerate().map(|(i, h)| Document { id: format!("p{i}"), text: h.clone() }).collect();
    (Corpus::from_docs("regions", docs), html)
}

fn rules() -> (RulesFile, Vec<String>) {
    let (corpus, html) = source();
    let mut config = MiningConfig::default();
    let corpus = viewed(corpus, DocKind::Html, &mut config);
    let mining = mine(&corpus, &config, &Quiet).unwrap();
    (automatic_rules(&corpus, &mining, MiningParams::default(), None, &Settings::default()).unwrap(), html)
}

#[test]
fn blocks_that_change_per_page_under_a_fixed_container_become_region_rules_and_go() {
    let (file, html) = rules();
    let elements: Vec<&str> = file.regions.iter().map(|r| r.element.as_str()).collect();
    assert!(elements.iter().any(|e| e.contains("reactions")), "the reactions region: {elements:?}");
    assert!(elements.contains(&"ul.story-links"), "the related strip: {elements:?}");
    assert!(file.regions.iter().all(|r| r.status == Status::Pending && r.df >= 6), "{:?}", file.regions);
    let cleaner = Cleaner::new(&file, true).unwrap();
    for (i, h) in html.iter().enumerate() {
        let out = cleaner.clean_page(Page::new(h, DocKind::Html)).text();
        for p in 0..4 {
            let article = block_words(i, &format!("art{p}x"), 18);
            assert!(out.contains(&article), "page {i} lost article words: {out}");
        }
        assert!(!out.contains(&format!("com0x{i}w0")) && !out.contains(&format!("rel0x{i}w0")), "page {i}: {out}");
    }
}

#[test]
fn the_articles_container_is_never_proposed_for_removal() {
    let (file, _) = rules();
    for r in &file.regions {
        assert!(!r.element.contains("article"), "the article's container proposed: {r:?}");
        assert_ne!(r.element, "body.0", "{r:?}");
    }
}

#[test]
fn pending_region_rules_apply_only_with_include_pending() {
    let (file, html) = rules();
    let out = Cleaner::new(&file, false).unwrap().clean_page(Page::new(&html[0], DocKind::Html)).text();
    assert!(out.contains("com0x0w0"), "pending regions stay for an editor: {out}");
}

#[test]
fn explain_names_the_region_rule_that_removed_a_range() {
    let (_, html) = rules();
    let file =
        RulesFile { regions: vec![RegionRule::accepted("div#reactions", Action::Remove)], ..RulesFile::default() };
    let cleaner = Cleaner::new(&file, false).unwrap();
    let page = Page::new(&html[3], DocKind::Html);
    let e = cleaner.explain_page(&page);
    let text = page.text();
    let d = e.decisions.iter().find(|d| text[d.start..d.end].contains("com1x3w0")).expect("a decision on the comments");
    assert!(d.removed);
    assert!(format!("{:?}", d.reasons).contains("Rule"), "{:?}", d.reasons);
    assert!(cleaner.rule_ids().any(|id| id == "region:div#reactions"));
}

#[test]
fn a_rules_file_keeps_its_region_table_through_save_and_load() {
    let mut file = RulesFile::default();
    file.regions.push(RegionRule::accepted("div#reactions", Action::Remove));
    file.regions.push(RegionRule {
        df: 9,
        words: 40,
        kept: 30,
        ..RegionRule::accepted("ul.story-links", Action::CutAfter)
    });
    let toml = file.to_toml();
    assert!(toml.contains("[[region]]") && toml.contains("element = \"div#reactions\""), "{toml}");
    let back = RulesFile::parse(&toml, std::path::Path::new("rules.toml")).unwrap();
    assert_eq!(back.regions, file.regions);
}

#[test]
fn many_region_rules_on_a_long_page_remove_only_the_lines_under_their_elements() {
    // each element's selectors are looked up once per page, whatever the number of rules
    let many: Vec<RegionRule> = (0..200)
        .map(|i| RegionRule::accepted(format!("div.r{i}"), Action::Remove))
        .chain([RegionRule::accepted("div#reactions", Action::Remove)])
        .collect();
    let file = RulesFile { regions: many, ..RulesFile::default() };
    let cleaner = Cleaner::new(&file, false).unwrap();
    let body: String =
        (0..2000).map(|i| format!("<div class=\"x{}\"><p>line {i} of the page</p></div>", i % 300)).collect();
    let html = format!("<html><body>{body}<div id=\"comments\"><p>gone</p></div></body></html>");
    let out = cleaner.clean_page(Page::new(&html, DocKind::Html)).text();
    assert!(
        !out.contains("gone") && out.contains("line 1999 of the page"),
        "{}",
        &out[out.len().saturating_sub(200)..]
    );
}

/// A sentence of `n` words, different on every page `i` and paragraph `p`.
fn sentence(i: usize, p: usize, n: usize) -> String {
    const WORDS: [&str; 16] = [
        "the", "council", "said", "boats", "harbour", "would", "open", "after", "years", "of", "work", "and", "many",
        "people", "were", "glad",
    ];
    let words: Vec<&str> = (0..n).map(|k| WORDS[(i * 7 + p * 5 + k * 3 + k * k) % WORDS.len()]).collect();
    format!("{} {} {i}{p}.", capitalized(words[0]), words[1..].join(" "))
}

fn capitalized(w: &str) -> String {
    w[..1].to_uppercase() + &w[1..]
}

/// A blog post whose start is in `div.entry-body` and whose rest, on every page, is in `div.entry-more`
/// beside it (as a fold leaves it), then its footer and a comment.
fn split_post(i: usize) -> String {
    post_with(i, &format!("<div class=\"entry-more\">{}</div>", paragraphs(i, 2..5)))
}

fn paragraphs(i: usize, range: std::ops::Range<usize>) -> String {
    range.map(|p| format!("<p>{}</p>", sentence(i, p, 22))).collect()
}

/// A post of two paragraphs in `div.entry-body` and the markup `beside` after it, in their container.
fn post_with(i: usize, beside: &str) -> String {
    format!(
        "<html><head><title>Post {i} | The Blog</title></head><body><div id=\"nav\">Home Archives About</div>\
         <div class=\"entry\"><h2>Post {i}</h2><div class=\"entry-content\">\
         <div class=\"entry-body\">{}</div>{beside}</div>\
         <p class=\"posted\">Posted by Ann at {i} PM</p></div>\
         <div id=\"feedback\"><p>Reader {i} wrote:</p><p>{}</p></div></body></html>",
        paragraphs(i, 0..2),
        sentence(i, 9, 12),
    )
}

/// The element names of the region candidates mined from `pages` of a source of `page`s.
fn regions_of(pages: usize, page: impl Fn(usize) -> String) -> (RulesFile, Vec<String>) {
    let html: Vec<String> = (0..pages).map(page).collect();
    let docs = html.iter().enumerate().map(|(i, h)| Document { id: format!("p{i}"), text: h.clone() }).collect();
    let mut config = MiningConfig::default();
    let corpus = viewed(Corpus::from_docs("blog", docs), DocKind::Html, &mut config);
    let mining = mine(&corpus, &config, &Quiet).unwrap();
    (automatic_rules(&corpus, &mining, MiningParams::default(), None, &Settings::default()).unwrap(), html)
}

#[test]
fn the_rest_of_a_post_beside_its_start_is_the_articles_not_a_region() {
    // the article's container is `div.entry-body`, where it starts; its paragraphs go on in the element
    // beside it, which holds changing prose on every page as a thread would
    for pages in [3, 12] {
        let (file, html) = regions_of(pages, split_post);
        let elements: Vec<&str> = file.regions.iter().map(|r| r.element.as_str()).collect();
        assert!(!elements.iter().any(|e| e.contains("entry")), "{pages} pages: {elements:?}");
        let cleaner = Cleaner::new(&file, true).unwrap();
        for (i, h) in html.iter().enumerate() {
            let out = cleaner.clean_page(Page::new(h, DocKind::Html)).text();
            assert!(out.contains(&sentence(i, 4, 22)), "{pages} pages, page {i} lost the post's end: {out}");
        }
    }
}

#[test]
fn one_line_prose_deep_in_a_rail_or_another_column_is_no_rest_of_the_post() {
    // a promotion's line of prose, different on each page, under the post's start: still a region
    let (file, _) = regions_of(3, |i| post_with(i, &format!("<div class=\"promo\">{}</div>", paragraphs(i, 2..3))));
    let elements: Vec<&str> = file.regions.iter().map(|r| r.element.as_str()).collect();
    assert!(elements.contains(&"div.promo"), "{elements:?}");
    // paragraphs of a video's caption, deeper in a rail than the post's own
    let rail = |i| {
        format!(
            "<div class=\"rail\"><div class=\"video\"><div class=\"caption\">{}</div></div></div>",
            paragraphs(i, 2..4)
        )
    };
    let (file, _) = regions_of(3, |i| post_with(i, &rail(i)));
    let elements: Vec<&str> = file.regions.iter().map(|r| r.element.as_str()).collect();
    // (its three elements hold the same lines: one of them is named)
    assert!(elements.iter().any(|e| ["div.rail", "div.video", "div.caption"].contains(e)), "{elements:?}");
    // a second column's blurbs right after the post, outside the post's container's parent
    let column = |i| {
        format!(
            "<html><head><title>Post {i} | The Blog</title></head><body><div class=\"entry\"><h2>Post {i}</h2>\
             <div class=\"entry-content\"><div class=\"entry-body\">{}</div></div></div>\
             <div class=\"side\"><div class=\"blurbs\">{}</div></div></body></html>",
            paragraphs(i, 0..2),
            paragraphs(i, 2..4),
        )
    };
    let (file, _) = regions_of(3, column);
    let elements: Vec<&str> = file.regions.iter().map(|r| r.element.as_str()).collect();
    assert!(elements.iter().any(|e| ["div.side", "div.blurbs"].contains(e)), "{elements:?}");
}
