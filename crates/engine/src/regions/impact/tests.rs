//! A region rule's impact against what cleaning every page with it does (the brute-force reference).

use super::*;
use crate::automatic::automatic_rules;
use crate::cleaning::Cleaner;
use crate::corpus::{Corpus, Document};
use crate::impact::word_changes;
use crate::mining::{MiningConfig, Quiet, mine};
use crate::page::Page;
use crate::page::viewed;
use crate::rules::Action;
use crate::rules::{MiningParams, RulesFile, Status};
use crate::settings::Settings;
use crate::view::DocKind;
use chaff_generate::block_page;

/// The pages as the source holds them, their views (with where their lines sit) and the automatic rules
/// with every region rule rejected: the rules the impact is measured against.
fn source() -> (Vec<Document>, Corpus, RulesFile) {
    let docs: Vec<Document> = (0..12).map(|i| Document { id: format!("p{i}"), text: block_page(i) }).collect();
    let mut config = MiningConfig::default();
    let views = viewed(Corpus::from_docs("regions", docs.clone()), DocKind::Html, &mut config);
    let mining = mine(&views, &config, &Quiet).unwrap();
    let mut file = automatic_rules(&views, &mining, MiningParams::default(), None, &Settings::default()).unwrap();
    assert!(file.regions.iter().any(|r| r.element == "ul.story-links"), "{:?}", file.regions);
    for r in &mut file.regions {
        r.status = Status::Rejected;
    }
    (docs, views, file)
}

fn with(file: &RulesFile, element: &str, action: Action) -> (RulesFile, RegionRule) {
    let mut after = file.clone();
    let r = after.regions.iter_mut().find(|r| r.element == element).unwrap();
    (r.status, r.action) = (Status::Accepted, action);
    let rule = r.clone();
    (after, rule)
}

/// What cleaning every page as the command line does (its HTML, so region rules apply) with `after`
/// instead of `before` changes: words removed and given back, and the pages changed, most first.
fn cleaning_every_page(docs: &[Document], before: &RulesFile, after: &RulesFile) -> (usize, usize, Vec<usize>) {
    let (b, a) = (Cleaner::new(before, true).unwrap(), Cleaner::new(after, true).unwrap());
    let (mut removed, mut given_back, mut changed) = (0, 0, Vec::new());
    for (i, d) in docs.iter().enumerate() {
        let (pb, pa) =
            (b.clean_page(Page::new(&d.text, DocKind::Html)), a.clean_page(Page::new(&d.text, DocKind::Html)));
        let view = pb.page.text().to_string();
        let spans = |c: &crate::page::CleanedPage| c.spans.iter().map(|s| (s.start, s.end)).collect::<Vec<_>>();
        let (r, g) = word_changes(&view, &spans(&pb), &spans(&pa));
        let words: usize = r.iter().chain(&g).map(|w| w.words).sum();
        removed += r.iter().map(|w| w.words).sum::<usize>();
        given_back += g.iter().map(|w| w.words).sum::<usize>();
        if words > 0 {
            changed.push((words, i));
        }
    }
    changed.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    (removed, given_back, changed.into_iter().map(|c| c.1).collect())
}

#[test]
fn a_region_rules_impact_is_what_cleaning_every_page_with_it_does() {
    let (docs, _, file) = source();
    let base = Baseline::new(&file, docs.clone(), true).unwrap();
    for element in ["ul.story-links", "div#reactions"] {
        let Some(_) = file.regions.iter().find(|r| r.element == element) else { continue };
        let (after, rule) = with(&file, element, Action::Remove);
        let (removed, given_back, most) = cleaning_every_page(&docs, &file, &after);
        let got = region_impact(&base, &rule).unwrap();
        assert_eq!(got.pages, 12, "{element} is on every page");
        assert_eq!(
            (got.removed_inside + got.removed_outside, got.given_back_inside + got.given_back_outside),
            (removed, given_back),
            "{element}"
        );
        assert!(removed >= 12 * 9, "{element}: {got:?}");
        let got_most: Vec<usize> = got.most_changed.iter().map(|m| m.0).collect();
        assert_eq!(got_most, most, "{element}: the pages it changes most, in order");
    }
}

#[test]
fn a_cut_after_region_takes_the_rest_of_the_page_and_a_keep_region_takes_nothing_here() {
    let (docs, _, file) = source();
    let base = Baseline::new(&file, docs, true).unwrap();
    let (_, remove) = with(&file, "ul.story-links", Action::Remove);
    let (_, cut) = with(&file, "ul.story-links", Action::CutAfter);
    let (removed, cut_off) = (region_impact(&base, &remove).unwrap(), region_impact(&base, &cut).unwrap());
    let total = |m: &RegionImpact| m.removed_inside + m.removed_outside;
    assert!(total(&cut_off) > total(&removed), "the comments after the strip go too: {cut_off:?} against {removed:?}");
    let (_, keep) = with(&file, "ul.story-links", Action::Keep);
    let kept = region_impact(&base, &keep).unwrap();
    assert_eq!((kept.removed_inside + kept.removed_outside, kept.pages), (0, 12), "{kept:?}");
}

#[test]
fn a_region_that_holds_the_article_on_a_page_takes_nothing_from_it_as_the_stage_leaves_it() {
    // on a page after those mined the site wraps the article in the reactions' container: the stage
    // leaves that match alone (it holds the headline and most of the prose), and so does the impact
    let (mut docs, _, file) = source();
    let text = block_page(12).replace("<div class=\"article\">", "<div id=\"reactions\" class=\"article\">");
    docs.push(Document { id: "p12".into(), text });
    let base = Baseline::new(&file, docs.clone(), true).unwrap();
    let (after, rule) = with(&file, "div#reactions", Action::Remove);
    let (removed, given_back, most) = cleaning_every_page(&docs, &file, &after);
    let got = region_impact(&base, &rule).unwrap();
    assert_eq!(got.pages, 13);
    assert_eq!(
        (got.removed_inside + got.removed_outside, got.given_back_inside + got.given_back_outside),
        (removed, given_back)
    );
    assert_eq!(got.most_changed.iter().map(|m| m.0).collect::<Vec<_>>(), most);
    let article = Cleaner::new(&after, true).unwrap().clean_page(Page::new(&docs[12].text, DocKind::Html)).text();
    assert!(article.contains("Headline 12"), "the page keeps its article: {article}");
    let words = |doc: usize| got.most_changed.iter().find(|m| m.0 == doc).map(|m| m.2);
    assert_eq!(words(12), words(0), "only the thread goes there, as on every page: {got:?}");
}
