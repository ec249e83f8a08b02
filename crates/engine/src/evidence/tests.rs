use super::*;
use crate::automatic::automatic_rules;
use crate::corpus::{Corpus, Document};
use crate::mining::{MiningConfig, Quiet, mine};
use crate::rules::{MiningParams, RulesFile};
use crate::settings::Settings;
use chaff_generate::{bundled, sevendays};

fn mined(docs: Vec<Document>) -> (Vec<Document>, RulesFile) {
    let corpus = Corpus::from_docs("s", docs.clone());
    let config = MiningConfig::default();
    let mining = mine(&corpus, &config, &Quiet).unwrap();
    (docs, automatic_rules(&corpus, &mining, MiningParams::of(&config), None, &Settings::default()).unwrap())
}

fn rule(file: &RulesFile, tokens: &str, action: Action) -> Rule {
    let symbols: Vec<Symbol> = tokens.split(' ').map(Symbol::decode).collect();
    Rule::accepted("probe", &symbols, action, file.tokenizer, &MutableSet::new(file.mutable.clone()).unwrap()).unwrap()
}

const WORDS: &[&str] = &[
    "river", "council", "budget", "harbour", "teachers", "bridge", "market", "winter", "plans", "village", "farmers",
    "railway", "museum", "library", "storm", "school", "mayor", "hospital", "festival", "roads", "police", "garden",
    "airport", "factory", "church", "election", "workers", "housing", "tower", "ferry", "clinic", "stadium", "forest",
    "canal", "theatre", "prison", "vote", "tax", "fire", "water", "power",
];

/// Pages with a menu above the article and a footer below it; "Read more" on both sides.
fn framed() -> Vec<Document> {
    (0..12)
        .map(|i| {
            // each page's own words: no string of the story repeats across pages
            let w = |k: usize| WORDS[(i * 7 + k * 13) % WORDS.len()];
            let line = |k: usize| (0..12).map(|j| w(k * 12 + j)).collect::<Vec<_>>().join(" ");
            let text = format!(
                "Home | World | Sports | Read more\nStory {i}: {}.\n{}, she said.\n\
                 Read more\nCopyright Example News, all rights reserved",
                line(0),
                line(1)
            );
            Document { id: format!("{i:02}"), text }
        })
        .collect()
}

#[test]
fn a_generic_cut_is_refused_before_it_is_made() {
    let source = sevendays(40, 3);
    let docs = source.docs.iter().map(|d| Document { id: d.id.clone(), text: d.text.clone() }).collect();
    let (docs, file) = mined(docs);
    let base = Baseline::new(&file, docs, true).unwrap();
    let of_the = rule(&file, "of the", Action::CutAfter);
    let e = evidence(&base, &of_the).unwrap();
    assert!(e.generic && e.literal_tokens == 2 && e.pattern_tokens == 0, "{}", e.line());
    assert!(e.inside > 0 && e.in_prose > 0, "{}", e.line());
    let problems = check_cut(&base, &of_the).unwrap();
    assert!(problems.contains(&CutProblem::Generic), "{problems:?}");
    assert!(problems.iter().any(|p| matches!(p, CutProblem::InsideArticle { .. })), "{problems:?}");
}

#[test]
fn a_cut_whose_matches_sit_on_both_sides_of_the_article_is_refused() {
    let (docs, file) = mined(framed());
    let base = Baseline::new(&file, docs, true).unwrap();
    let e = evidence(&base, &rule(&file, "Read more", Action::CutAfter)).unwrap();
    assert_eq!((e.pages, e.both_sides, e.inside_pages), (12, 12, 0), "{}", e.line());
    assert_eq!(cut_problems(&e), vec![CutProblem::BothSides { pages: 12 }]);
    // the footer line is where the article ends, on every page, and never inside it
    let footer = evidence(&base, &rule(&file, "Copyright Example News,", Action::CutAfter)).unwrap();
    assert_eq!((footer.after, footer.before, footer.in_prose), (12, 0, 0), "{}", footer.line());
    assert!(cut_problems(&footer).is_empty(), "{}", footer.line());
}

#[test]
fn a_footer_strings_evidence_on_a_source_nothing_is_accepted_of_puts_it_after_the_article() {
    // the accepted rules alone leave each page whole: the article is where the pending rules leave it
    let (docs, file) = mined(framed());
    let base = Baseline::new(&file, docs, false).unwrap();
    let footer = evidence(&base, &rule(&file, "Copyright Example News,", Action::CutAfter)).unwrap();
    assert_eq!((footer.after, footer.inside, footer.inside_pages), (12, 0, 0), "{}", footer.line());
    assert!(cut_problems(&footer).is_empty(), "{}", footer.line());
}

#[test]
fn mining_proposes_no_cut_from_a_generic_string_nor_one_on_both_sides_of_the_article() {
    for source in bundled() {
        let docs: Vec<Document> =
            source.docs.iter().map(|d| Document { id: d.id.clone(), text: d.text.clone() }).collect();
        let kind = if source.extension == "html" { DocKind::Html } else { DocKind::Text };
        let mut config = MiningConfig::default();
        let corpus = crate::page::viewed(Corpus::from_docs(source.name.clone(), docs.clone()), kind, &mut config);
        let mining = mine(&corpus, &config, &Quiet).unwrap();
        let file = automatic_rules(&corpus, &mining, MiningParams::of(&config), None, &Settings::default()).unwrap();
        let base = Baseline::new(&file, docs, true).unwrap();
        for r in file.active_rules(true).filter(|r| r.action.is_cut()) {
            assert!(r.tokens.is_empty() || !is_generic(&r.tokens), "{}: {:?}", source.name, r.tokens);
            let e = evidence(&base, r).unwrap();
            assert_eq!(e.both_sides, 0, "{}: {} {:?} {:?}", source.name, e.line(), r.tokens, (r.action, r.cluster));
        }
    }
}

#[test]
fn a_cut_at_a_name_the_articles_use_in_sentences_is_refused() {
    // "Harbour Lions" closes a footer list on every page and is named in a sentence on two of them: a cut
    // there would take the rest of such an article on a page out of view
    let docs: Vec<Document> = framed()
        .into_iter()
        .enumerate()
        .map(|(i, mut d)| {
            if i % 6 == 0 {
                d.text =
                    d.text.replacen(", she said.", ", she said after the game against the Harbour Lions on Sunday.", 1);
            }
            d.text.push_str("\nTeams\nHarbour Lions");
            d
        })
        .collect();
    let (docs, file) = mined(docs);
    let base = Baseline::new(&file, docs, true).unwrap();
    let e = evidence(&base, &rule(&file, "Harbour Lions", Action::CutAfter)).unwrap();
    assert_eq!((e.pages, e.prose_pages), (12, 2), "{}", e.line());
    assert!(cut_problems(&e).contains(&CutProblem::InProse { pages: 2 }), "{:?}", cut_problems(&e));
    // a symbol no sentence writes marks a template's string wherever it stands
    let marked = Evidence { marked: true, ..e };
    assert!(!cut_problems(&marked).iter().any(|p| matches!(p, CutProblem::InProse { .. })));
}

#[test]
fn the_evidence_of_a_string_mined_as_a_line_of_its_own_says_it_cuts_only_there() {
    // a sidebar line between lines of the page's own words
    let docs = (0..10)
        .map(|i| {
            let w = |k: usize| WORDS[(i * 7 + k * 13) % WORDS.len()];
            let text = format!("{} {}\nFairhaven Harriers\n{} {} {}", w(0), w(1), w(2), w(3), w(4));
            Document { id: format!("{i:02}"), text }
        })
        .collect();
    let (docs, file) = mined(docs);
    let listed = file.rules.iter().find(|r| r.example == "Fairhaven Harriers").expect("the sidebar line mined");
    assert!(listed.own_line, "{listed:?}");
    let base = Baseline::new(&file, docs, true).unwrap();
    let note = evidence(&base, &Rule { action: Action::CutAfter, ..listed.clone() }).unwrap().own_line_note();
    assert!(note.is_some_and(|n| n.contains("cuts only where it is one")), "{note:?}");
    assert_eq!(evidence(&base, &Rule { own_line: false, ..listed.clone() }).unwrap().own_line_note(), None);
}
