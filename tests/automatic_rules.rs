//! The automatic rules' first decisions on fresh candidates: what starts rejected, and what an editor's
//! earlier decision keeps.

use chaff::automatic::automatic_rules;
use chaff::corpus::{Corpus, Document};
use chaff::generate::MONTHS;
use chaff::mining::{MiningConfig, Quiet, mine};
use chaff::rules::{MiningParams, RulesFile, Status};
use chaff::settings::Settings;
use chaff::symbol::display;

fn dated_pages() -> Corpus {
    let docs = (0..12)
        .map(|i| {
            let body = |part: usize| (0..15).map(|w| format!("word{i}x{part}x{w}")).collect::<Vec<_>>().join(" ");
            // the date stands between two paragraphs of the page's own
            let text = format!(
                "Home | News | Contact\n{}.\n{} {}, {}\n{}.\nContact us | Privacy policy\n",
                body(0),
                MONTHS[2 * (i % 6)],
                i + 1,
                2000 + i,
                body(1)
            );
            Document { id: format!("p{i}"), text }
        })
        .collect();
    Corpus::from_docs("dated", docs)
}

fn rules(opts: &Settings) -> RulesFile {
    let corpus = dated_pages();
    let mining = mine(&corpus, &MiningConfig::default(), &Quiet).unwrap();
    automatic_rules(&corpus, &mining, MiningParams::default(), None, opts).unwrap()
}

fn status_of(file: &RulesFile, text: &str) -> Status {
    let rule = file.rules.iter().find(|r| display(&r.symbols()) == text);
    rule.unwrap_or_else(|| {
        panic!("no rule {text:?} in {:?}", file.rules.iter().map(|r| display(&r.symbols())).collect::<Vec<_>>())
    })
    .status
}

#[test]
fn a_string_of_mutable_patterns_alone_starts_rejected() {
    let file = rules(&Settings::default());
    assert_eq!(status_of(&file, "«month» «number» «number»"), Status::Rejected, "a date is no template on its own");
    assert_eq!(status_of(&file, "Contact us | Privacy policy"), Status::Pending, "fixed text stays a candidate");

    let mut keep = Settings::default();
    keep.automatic.reject_patterns = false;
    let kept = rules(&keep);
    assert_eq!(status_of(&kept, "«month» «number» «number»"), Status::Pending);
}
