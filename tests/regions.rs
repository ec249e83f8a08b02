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
