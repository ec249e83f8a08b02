//! Frame cuts (issue 5): a footer string followed by page-specific comments. `cut-after` on the footer
//! removes every comment; no `remove` rule could, because no two pages share their comments.

use chaff::cleaning::{Cleaner, SpanKind};
use chaff::corpus::{Corpus, Document};
use chaff::frame::{CutParams, suggest_cuts};
use chaff::generate::{GeneratedSource, comments};
use chaff::mining::{MiningConfig, Quiet, mine};
use chaff::rules::{Action, MiningParams, RulesFile, Status};
use chaff::symbol::display;

fn mined() -> (GeneratedSource, Corpus, RulesFile) {
    let source = comments(60, 11);
    let docs = source.docs.iter().map(|d| Document { id: d.id.clone(), text: d.text.clone() }).collect();
    let corpus = Corpus::from_docs("comments", docs);
    let mining = mine(&corpus, &MiningConfig::default(), &Quiet).unwrap();
    let file = RulesFile::from_mining(&mining, MiningParams::default(), None);
    (source, corpus, file)
}

/// The editor's choice on this source: the strings found on at least 90% of the pages, and the
/// suggested cuts.
fn accept_template_mode(file: &mut RulesFile) {
    let docs = file.documents;
    for r in &mut file.rules {
        let keep = r.df * 10 >= docs * 9 || r.action != Action::Remove;
        r.status = if keep { Status::Accepted } else { Status::Rejected };
    }
}

/// Words 2 to 6 of a line: its first word may be a number or date that a rule removed with the line break.
fn middle_words(text: &str) -> String {
    text.split_whitespace().skip(1).take(5).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_responses_footer_is_suggested_as_cut_after_and_removes_every_comment() {
    let (source, corpus, mut file) = mined();
    let changed = suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
    assert!(changed > 0);
    let footer = file.rules.iter().find(|r| display(&r.symbols()) == "«number» responses").expect("mined");
    assert_eq!(footer.action, Action::CutAfter);
    // the header's last string, the "on <date> in" of "Posted by <name> on <date> in <section>"
    let header: Vec<String> =
        file.rules.iter().filter(|r| r.action == Action::CutBefore).map(|r| display(&r.symbols())).collect();
    assert!(header.iter().any(|h| h.starts_with("on «number» «month» «number»")), "{header:?}");

    accept_template_mode(&mut file);
    let cleaner = Cleaner::new(&file, false).unwrap();
    let mut cut_pages = 0;
    for (doc, generated) in corpus.docs.iter().zip(&source.docs) {
        if !doc.text.contains(" responses\n") {
            continue;
        }
        let out = cleaner.clean(&doc.text);
        assert!(!out.text.contains(" says: "), "{}: a comment survived:\n{}", doc.id, out.text);
        assert!(out.spans.iter().any(|s| s.kind == SpanKind::CutAfter), "{}", doc.id);
        // the article's last paragraph survives (template-mode rules such as "«month» «number»" may take a
        // word or two from it)
        let last = generated.body.lines().last().unwrap();
        assert!(out.text.contains(&middle_words(last)), "{}: lost {last:?}:\n{}", doc.id, out.text);
        cut_pages += 1;
    }
    assert!(cut_pages >= 40, "{cut_pages}");
}

#[test]
fn remove_rules_alone_leave_the_comments() {
    let (_, corpus, mut file) = mined();
    accept_template_mode(&mut file);
    let cleaner = Cleaner::new(&file, false).unwrap();
    for doc in corpus.docs.iter().filter(|d| d.text.contains(" responses\n")) {
        assert!(cleaner.clean(&doc.text).text.contains(" says: "), "{}", doc.id);
    }
}

#[test]
fn actions_round_trip_through_the_rules_file() {
    let (_, corpus, mut file) = mined();
    suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("comments.toml");
    file.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("action = \"cut-after\"") && text.contains("action = \"cut-before\""), "{text}");
    assert_eq!(RulesFile::load(&path).unwrap(), file);
}

#[test]
fn an_editors_decision_is_not_overridden() {
    let (_, corpus, mut file) = mined();
    let i = file.rules.iter().position(|r| display(&r.symbols()) == "«number» responses").unwrap();
    file.rules[i].status = Status::Accepted;
    suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
    assert_eq!(file.rules[i].action, Action::Remove);
}
