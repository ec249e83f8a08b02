//! The thesis's own example (chapter 5): a sevendaysvt-like source mines the rules of chapter 5, and
//! cleaning the chapter's example article leaves exactly its body.

use chaff::cleaning::Cleaner;
use chaff::corpus::{Corpus, Document};
use chaff::generate::{sevendays, thesis_example};
use chaff::mining::{MiningConfig, Quiet, mine};
use chaff::rules::{Action, MiningParams, RulesFile, Status};
use chaff::symbol::display;

fn mined() -> RulesFile {
    let source = sevendays(120, 7);
    let docs = source.docs.iter().map(|d| Document { id: d.id.clone(), text: d.text.clone() }).collect();
    let corpus = Corpus::from_docs("sevendays", docs);
    let mining = mine(&corpus, &MiningConfig::default(), &Quiet).unwrap();
    chaff::merge::from_mining(&mining, MiningParams::default(), None)
}

fn texts(file: &RulesFile) -> Vec<String> {
    file.rules.iter().map(|r| display(&r.symbols())).collect()
}

#[test]
fn mines_the_rules_of_chapter_5() {
    let file = mined();
    let texts = texts(&file);
    // The head: "Permanent link | no responses | Published on: <weekday> <ordinal> <month>, <year>"
    assert!(
        texts
            .iter()
            .any(|t| t.contains("Permanent link | no responses | Published on: «weekday» «ordinal» «month» «number»")),
        "{texts:#?}"
    );
    // The tail pieces: "read more" and "<weekday> <ordinal>" (the thesis's last two expressions).
    assert!(texts.iter().any(|t| t.contains("read more")), "{texts:#?}");
    assert!(texts.iter().any(|t| t.contains("«weekday» «ordinal»")), "{texts:#?}");
    assert!(texts.iter().any(|t| t == "Please login to leave a reply"), "{texts:#?}");
    // The regexes are the thesis's: escaped literals, patterns as groups, joined by \s+.
    let head = file.rules.iter().find(|r| display(&r.symbols()).contains("Permanent link")).unwrap();
    assert!(
        head.regex.contains(r"Permanent\s+link\s+\|\s+no\s+responses\s+\|\s+Published\s+on:\s+(?:(?:Monday|"),
        "{}",
        head.regex
    );
    assert_eq!(head.df, 120);
    // Every rule's regex matches its example, and the whole of it.
    for r in &file.rules {
        let re = regex::Regex::new(&r.regex).unwrap();
        let m = re.find(&r.example).unwrap_or_else(|| panic!("{} does not match {:?}", r.regex, r.example));
        assert_eq!((m.start(), m.end()), (0, r.example.len()), "{}", r.regex);
    }
}

/// The editor accepts the template mode (strings in every document) and nothing else.
fn accept_template_mode(file: &mut RulesFile) {
    for r in &mut file.rules {
        r.status = if r.df == file.documents { Status::Accepted } else { Status::Rejected };
    }
}

#[test]
fn cleaning_the_chapter_example_leaves_exactly_its_body_with_the_merge_gap() {
    let mut file = mined();
    accept_template_mode(&mut file);
    // The thesis's interval heuristic: the related headline between "leave a reply" and "read more" goes
    // with them when the merge gap spans it.
    file.merge_gap = 80;
    let example = thesis_example();
    let cleaned = Cleaner::new(&file, false).unwrap().clean(&example.text);
    assert_eq!(cleaned.text, example.body);
}

#[test]
fn cleaning_the_chapter_example_leaves_exactly_its_body_with_a_frame_cut() {
    let mut file = mined();
    accept_template_mode(&mut file);
    let login = file.rules.iter_mut().find(|r| display(&r.symbols()) == "Please login to leave a reply").unwrap();
    login.action = Action::CutAfter;
    let example = thesis_example();
    let cleaned = Cleaner::new(&file, false).unwrap().clean(&example.text);
    assert_eq!(cleaned.text, example.body);
}

#[test]
fn without_the_gap_or_cut_only_the_headline_remains() {
    let mut file = mined();
    accept_template_mode(&mut file);
    let example = thesis_example();
    let cleaned = Cleaner::new(&file, false).unwrap().clean(&example.text);
    assert_eq!(
        cleaned.text,
        // the removed "Please login to\nleave a reply" held a line break: the seam keeps it
        format!("{}\nFirst budget hotel in Karama, another five planned\nfor emirate", example.body)
    );
}
