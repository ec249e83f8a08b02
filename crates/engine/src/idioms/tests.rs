use super::*;
use crate::automatic::automatic_rules;
use crate::corpus::Document;
use crate::mining::{MiningConfig, Quiet, mine};
use crate::rules::MiningParams;
use crate::settings::Settings;
use chaff_generate::sevendays;

fn mined_sevendays() -> RulesFile {
    let source = sevendays(120, 20_070_227);
    let docs: Vec<Document> = source.docs.iter().map(|d| Document { id: d.id.clone(), text: d.text.clone() }).collect();
    let corpus = Corpus::from_docs("sevendays", docs);
    let config = MiningConfig::default();
    let mining = mine(&corpus, &config, &Quiet).unwrap();
    automatic_rules(&corpus, &mining, MiningParams::of(&config), None, &Settings::default()).unwrap()
}

#[test]
fn sevendays_mined_alone_proposes_none_of_its_articles_idioms() {
    let file = mined_sevendays();
    for idiom in [&["of", "the"][..], &["in", "«month»"], &["since", "«number»"], &["«number»", "The"]] {
        let r = file.rules.iter().find(|r| r.tokens == idiom).unwrap_or_else(|| panic!("{idiom:?} not mined"));
        assert!(!file.is_active(r, true) && r.idiom, "{idiom:?}: {:?}", r.status);
    }
    // the template stays: header, footer, related headline strings
    for template in [&["Please", "login", "to", "leave", "a", "reply"][..], &["read", "more"]] {
        let r = file.rules.iter().find(|r| r.tokens == template).unwrap();
        assert!(file.is_active(r, true) && !r.idiom, "{template:?}");
    }
}

#[test]
fn common_phrases_are_short_strings_of_common_words_and_patterns() {
    let t = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    assert!(is_common_phrase(&t("since «number»"), 3));
    assert!(is_common_phrase(&t("«number» The"), 3));
    assert!(!is_common_phrase(&t("read more"), 3), "read is a label's word");
    assert!(!is_common_phrase(&t("«number» «month»"), 3), "patterns alone are left to reject_patterns");
    assert!(!is_common_phrase(&t("of the of the"), 3), "too long");
}

#[test]
fn a_common_phrase_in_one_place_of_its_pages_is_no_idiom() {
    let t = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    let p = IdiomParams::default();
    // a byline "by «upcase»" under every headline: same place, same neighbours
    let placed = Neighbours {
        matches: 100,
        left: 1,
        right: 40,
        top_left: 100,
        top_right: 5,
        pos_sum: 5_000_000,
        pos_sq: 260_000_000_000,
        in_prose: 100,
    };
    assert!(placed.spread() < 0.05, "{}", placed.spread());
    assert!(!is_idiom(&t("by «upcase»"), &placed, &p));
    let spread = Neighbours { pos_sum: 50_000_000, pos_sq: 33_000_000_000_000, ..placed };
    assert!(spread.spread() > 0.2, "{}", spread.spread());
    assert!(is_idiom(&t("by «upcase»"), &spread, &p));
    // spread down the page, but each a line of its own (a comment's date line): a list, no idiom
    let lines = Neighbours { in_prose: 10, ..spread };
    assert!(!is_idiom(&t("by «upcase»"), &lines, &p));
}
