//! The editor on small hand-made sources: what it decides, and that the draft makes it.

use super::*;
use crate::clean_settings::ShortRunsSettings;
use crate::corpus::{Corpus, Document};
use crate::mining::{MiningConfig, Quiet, mine};
use crate::mutable::MutableSet;
use crate::rules::{RulesFile, Status};
use crate::score::Gold;
use crate::tokens::Tokenizer;
use chaff_generate::{block_page, block_words};

/// A text source's rules file holding `rules` (token strings, each accepted with its action), mined on
/// `texts` with a document frequency no string reaches (the editor sees no candidate), and its draft.
fn drafted(rules: &[(&str, Action)], texts: &[String]) -> (RulesFile, Draft, Baseline) {
    drafted_with(rules, texts, |_| {})
}

/// [`drafted`], with `settle` applied to the rules file before it is drafted (a stage's setting).
fn drafted_with(
    rules: &[(&str, Action)],
    texts: &[String],
    settle: impl Fn(&mut RulesFile),
) -> (RulesFile, Draft, Baseline) {
    let docs: Vec<Document> =
        texts.iter().enumerate().map(|(i, t)| Document { id: i.to_string(), text: t.clone() }).collect();
    let corpus = Corpus::from_docs("t", docs.clone());
    let mut config = MiningConfig::for_tokenizer(Tokenizer::Text);
    config.min_df = texts.len() as u32 + 1;
    let mining = mine(&corpus, &config, &Quiet).unwrap();
    let mut file = chaff_engine::merge::from_mining(&mining, crate::rules::MiningParams::of(&config), None);
    let mutable = MutableSet::new(file.mutable.clone()).unwrap();
    for (tokens, action) in rules {
        let symbols: Vec<_> = tokens.split(' ').map(crate::symbol::Symbol::decode).collect();
        let id = crate::symbol::stable_id(&symbols);
        file.rules.push(Rule::accepted(id, &symbols, *action, file.tokenizer, &mutable).unwrap());
    }
    settle(&mut file);
    let base = Baseline::new(&file, docs, true).unwrap();
    let draft = super::super::open_draft(corpus, mining, &file);
    (file, draft, base)
}

const BODIES: [&str; 4] = [
    "The council voted on the new bridge after a long debate about its cost.",
    "Heavy rain flooded the market square and traders moved their stalls uphill.",
    "A local school won the regional chess final with a late checkmate.",
    "The museum opened a wing of old maps drawn by sailors and merchants.",
];

fn pages() -> (Vec<String>, Vec<Gold>) {
    let texts = BODIES.iter().map(|b| format!("{b}\nShare this story with your friends on every network\n")).collect();
    (texts, BODIES.iter().map(|b| Gold::new(b)).collect())
}

fn editor<'a>(rules: &[(&str, Action)], texts: &'a [String], golds: &'a [Gold]) -> Editor<'a> {
    let (_, draft, base) = drafted(rules, texts);
    let pages = texts.iter().map(String::as_str).zip(golds).collect();
    Editor::new(draft, base, pages, false).unwrap()
}

#[test]
fn an_article_printed_twice_is_scored_on_the_copy_the_rules_keep() {
    // each page prints its article, the share line, and a printable copy the cut takes
    let texts: Vec<String> = BODIES
        .iter()
        .map(|b| format!("{b}\nShare this story with your friends on every network\nPrintable copy\n{b}\n"))
        .collect();
    let golds: Vec<Gold> = BODIES.iter().map(|b| Gold::new(b)).collect();
    let mut e = editor(&[("Share this story with your friends on every network", Action::CutAfter)], &texts, &golds);
    assert!(e.f1.iter().all(|&f| f == 1.0), "the kept copy is the article: {:?}", e.f1);
    assert!(!e.decide(), "nothing is wrong, nothing to decide: {:?}", e.log);
}

#[test]
fn a_footer_no_candidate_covers_is_marked_as_template() {
    let (texts, golds) = pages();
    let mut e = editor(&[], &texts, &golds);
    assert!(e.f1.iter().all(|&f| f < 0.8), "{:?}", e.f1);
    assert!(e.decide(), "a decision helps");
    assert!(e.log[0].starts_with("mark as template"), "{:?}", e.log);
    assert!(e.f1.iter().all(|&f| f == 1.0), "{:?}", e.f1);
    let rule = e.file.rules.iter().find(|r| r.status == Status::Accepted).expect("the marked rule is saved");
    assert_eq!(rule.tokens.join(" "), "Share this story with your friends on every network");
    assert!(!e.decide(), "nothing is left wrong");
}

#[test]
fn a_rule_eating_the_article_is_trimmed_or_rejected() {
    let (texts, golds) = pages();
    // the footer, and a string that also takes "The" of every article that starts with it
    let rules = [("Share this story with your friends on every network", Action::Remove), ("The", Action::Remove)];
    let mut e = editor(&rules, &texts, &golds);
    let before: f64 = e.f1.iter().sum();
    assert!(e.decide());
    assert!(e.log[0].starts_with("reject"), "{:?}", e.log);
    assert!(e.f1.iter().sum::<f64>() > before);
    let the = e.file.rules.iter().find(|r| r.tokens == ["The"]).unwrap();
    assert_eq!(the.status, Status::Rejected);
}

#[test]
fn a_marked_span_on_one_page_only_is_not_offered() {
    let (mut texts, golds) = pages();
    for t in &mut texts[1..] {
        *t = t.replace("Share this story with your friends on every network\n", "");
    }
    let mut e = editor(&[], &texts, &golds);
    assert!(!e.decide(), "the footer of one page makes no rule: {:?}", e.log);
}

#[test]
fn a_decision_whose_impact_takes_another_pages_article_is_undone() {
    let (mut texts, mut golds) = pages();
    // page 1 quotes the share line in its article, and has no share line of its own
    let quote = "Share this story with your friends on every network";
    texts[1] = format!("{}\n{quote}\nsaid the mayor as the bridge opened.\n", BODIES[1]);
    golds[1] = Gold::new(&texts[1]);
    let mut e = editor(&[], &texts, &golds);
    let before = e.draft.rules_file();
    let start = texts[0].find(quote).unwrap();
    let r = e.rule_of_span(0, start, start + quote.len(), Action::Remove, 80).unwrap();
    let choice = Choice { what: "mark as template", sets: vec![(r, Some(Action::Remove))], stage_off: None };
    let refusal = e.try_choice(&choice).refusal;
    assert!(matches!(refusal, Some(Refusal::MatchesArticle { page: 1, .. })), "{refusal:?}");
    // made in the draft all the same, its impact names the article words it takes from page 1
    let trial = Trial { gain: 1.0, after: Vec::new(), refusal: None };
    assert!(!e.make(&choice, trial, 0), "the decision does not stand");
    assert_eq!((e.counts.undone, e.counts.refused.get("takes article words")), (1, Some(&1)));
    assert_eq!(e.draft.rules_file(), before, "undone in the draft");
    assert_eq!(e.file, before);
    assert!(e.state[r].is_none());
    // and the baseline is back at the rules before it: the same decision reads the same impact again
    let trial = Trial { gain: 1.0, after: Vec::new(), refusal: None };
    assert!(!e.make(&choice, trial, 0));
    assert_eq!(e.counts.refused.get("takes article words"), Some(&2));
}

/// The generator's HTML pages whose comments and related strip change on every page, mined with the
/// automatic rules (region candidates pending) and `decide` applied to their region rules; the pages as
/// the cleaner reads them and the drafted rules.
fn blocks(decide: impl Fn(&mut crate::rules::region::RegionRule)) -> (Vec<String>, Vec<Gold>, Draft, Baseline) {
    let (texts, golds, draft, base) = blocks_of(block_page, decide);
    assert!(draft.regions().iter().any(|r| r.element == "div#reactions"), "{:?}", draft.regions());
    (texts, golds, draft, base)
}

/// The gold of block page `i`: its headline and article, and with `comments` its reader comments too.
fn block_gold(i: usize, comments: bool) -> Gold {
    let mut lines = vec![format!("Headline {i}")];
    lines.extend((0..4).map(|p| format!("{}.", block_words(i, &format!("art{p}x"), 18))));
    if comments {
        lines.extend((0..3).map(|c| format!("{}.", block_words(i, &format!("com{c}x"), 9))));
    }
    Gold::new(&lines.join("\n"))
}

/// Mined region rules renamed to elements no page has, and rejected: mining proposed none.
fn gone(r: &mut crate::rules::region::RegionRule) {
    r.element = format!("div#gone-{}", r.element.len());
    r.status = Status::Rejected;
}

/// The editor's next decisions, `n` at most (fewer when none helps).
fn decide_up_to(e: &mut Editor<'_>, n: usize) {
    for _ in 0..n {
        if !e.decide() {
            break;
        }
    }
}

/// The index of the first word of page `p` at or after the first `text` on it.
fn word_at(e: &Editor<'_>, p: usize, text: &str) -> usize {
    let page = &e.pages[p];
    let at = page.text.find(text).unwrap_or_else(|| panic!("page {p} holds {text}"));
    page.words.iter().position(|w| w.0 >= at).unwrap()
}

/// [`blocks`] on the pages `page` writes.
fn blocks_of(
    page: impl Fn(usize) -> String,
    decide: impl Fn(&mut crate::rules::region::RegionRule),
) -> (Vec<String>, Vec<Gold>, Draft, Baseline) {
    let docs: Vec<Document> = (0..8).map(|i| Document { id: format!("p{i}"), text: page(i) }).collect();
    let mut config = MiningConfig::default();
    let corpus =
        crate::page::viewed(Corpus::from_docs("blocks", docs.clone()), crate::view::DocKind::Html, &mut config);
    let mining = mine(&corpus, &config, &Quiet).unwrap();
    let settings = crate::settings::Settings::default();
    let mut file =
        crate::automatic::automatic_rules(&corpus, &mining, crate::rules::MiningParams::of(&config), None, &settings)
            .unwrap();
    file.regions.iter_mut().for_each(decide);
    let texts: Vec<String> = corpus.docs.iter().map(|d| d.text.clone()).collect();
    let golds = (0..8).map(|i| block_gold(i, false)).collect();
    let base = Baseline::new(&file, docs, true).unwrap();
    let draft = super::super::open_draft(corpus, mining, &file);
    (texts, golds, draft, base)
}

#[test]
fn region_lines_are_trialled_as_the_engine_cleans_them() {
    // the candidates pending, so applied: the editor's own cleaning of each page is the engine's
    let (texts, golds, draft, base) = blocks(|_| {});
    let pages = texts.iter().map(String::as_str).zip(&golds).collect();
    let e = Editor::new(draft, base, pages, false).unwrap();
    assert!(e.origin.contains(&Origin::Region));
    assert_eq!(e.counts.drift, 0, "the editor's trial and the engine clean every page alike");
    assert!(e.f1.iter().all(|&f| f > 0.9), "{:?}", e.f1);
}

#[test]
fn the_editor_accepts_a_region_rule_for_comments_no_string_finds() {
    let (texts, golds, draft, base) = blocks(|r| r.status = Status::Rejected);
    let pages = texts.iter().map(String::as_str).zip(&golds).collect();
    let mut e = Editor::new(draft, base, pages, false).unwrap();
    let before: f64 = e.f1.iter().sum();
    decide_up_to(&mut e, 4);
    let accepted: Vec<String> = (e.draft.rules_file().regions.iter())
        .filter(|r| r.status == Status::Accepted)
        .map(|r| r.element.clone())
        .collect();
    assert!(!accepted.is_empty() && e.log.iter().any(|d| d.contains("region:")), "{:?} {accepted:?}", e.log);
    assert!(e.f1.iter().sum::<f64>() > before + 0.5, "{before} → {:?}", e.f1);
    assert_eq!(e.counts.drift, 0, "made as tried: {:?}", e.log);
    // no article word lost on any page
    for (p, page) in e.pages.iter().enumerate() {
        assert_eq!(page.article_lost(&vec![false; page.words.len()], &e.removed[p], None), 0, "page {p}");
    }
}

#[test]
fn the_editor_names_a_region_from_a_line_when_mining_proposed_none_there() {
    // mining's region candidates gone (renamed to elements no page has): the comment thread is named
    // from one of its lines, as `B` names it in the tuning UI
    let (texts, golds, draft, base) = blocks_of(block_page, gone);
    let pages = texts.iter().map(String::as_str).zip(&golds).collect();
    let mut e = Editor::new(draft, base, pages, false).unwrap();
    let before: f64 = e.f1.iter().sum();
    decide_up_to(&mut e, 8);
    let named: Vec<String> = (e.draft.rules_file().regions.iter())
        .filter(|r| r.status == Status::Accepted && !r.element.contains("gone"))
        .map(|r| r.element.clone())
        .collect();
    assert!(e.log.iter().any(|d| d.starts_with("name region")), "{:?}", e.log);
    assert!(!named.is_empty(), "{:?}", e.log);
    for p in 0..e.pages.len() {
        assert!(e.removed[p][word_at(&e, p, "com0x")], "page {p}: the thread is removed by the region named {named:?}");
    }
    assert!(e.f1.iter().sum::<f64>() > before + 0.5, "{before} → {:?}", e.f1);
    assert_eq!(e.counts.drift, 0, "made as tried: {:?}", e.log);
    for (p, page) in e.pages.iter().enumerate() {
        assert_eq!(page.article_lost(&vec![false; page.words.len()], &e.removed[p], None), 0, "page {p}");
    }
}

#[test]
fn the_editor_names_a_region_to_keep_when_its_gold_holds_a_block_a_stage_takes() {
    // a gold that counts the reader comments as article: stage `comments` takes the thread (named for
    // them), no string holds it (its words change), and the mined region rules are gone; the editor
    // keeps it by its element
    let page = |i| block_page(i).replace("id=\"reactions\"", "id=\"comments\"");
    let (texts, _, draft, base) = blocks_of(page, gone);
    let golds: Vec<Gold> = (0..8).map(|i| block_gold(i, true)).collect();
    let pages = texts.iter().map(String::as_str).zip(&golds).collect();
    let mut e = Editor::new(draft, base, pages, false).unwrap();
    let thread = |e: &Editor<'_>, p: usize| word_at(e, p, "com1x");
    assert!((0..8).all(|p| e.removed[p][thread(&e, p)]), "stage comments takes the thread");
    decide_up_to(&mut e, 8);
    assert!(e.log.iter().any(|d| d.starts_with("name region keep")), "{:?}", e.log);
    assert!((0..8).all(|p| !e.removed[p][thread(&e, p)]), "the thread is kept: {:?}", e.log);
    assert_eq!(e.counts.drift, 0, "made as tried: {:?}", e.log);
}

#[test]
fn a_trial_cleans_a_page_with_its_elements_as_the_engine_does() {
    // the thread named for comments, its region rules rejected: stage `comments` alone removes it, and
    // it reads the page's elements
    let page = |i| block_page(i).replace("id=\"reactions\"", "id=\"comments\"");
    let (texts, golds, draft, base) = blocks_of(page, |r| r.status = Status::Rejected);
    let pages = texts.iter().map(String::as_str).zip(&golds).collect();
    let e = Editor::new(draft, base, pages, false).unwrap();
    assert_eq!(e.counts.drift, 0, "the editor's trial and the engine clean every page alike");
    for p in 0..e.pages.len() {
        assert!(e.removed[p][word_at(&e, p, "com0x")], "page {p}: the thread is removed in the trial");
    }
}

#[test]
fn a_decision_that_gains_nothing_as_the_engine_cleans_does_not_stand() {
    let (texts, golds) = pages();
    // a rule that matches no page: turning it off changes nothing, whatever its trial said
    let mut e = editor(&[("Nowhere to be found on any page", Action::Remove)], &texts, &golds);
    let r = e.rules.iter().position(|rule| rule.tokens.join(" ") == "Nowhere to be found on any page").unwrap();
    let choice = Choice { what: "reject", sets: vec![(r, None)], stage_off: None };
    let trial = Trial { gain: 1.0, after: Vec::new(), refusal: None };
    assert!(!e.make(&choice, trial, 0), "a promised gain the engine does not give is not taken");
    assert_eq!(e.counts.refused.get("gains nothing as the engine cleans"), Some(&1));
    assert!(e.state[r].is_some(), "the rule stays as it was");
}

/// The editor on `texts` mined as they are (the share line a candidate of the draft's), and the index of
/// the share line's rule among its rules.
fn mined<'a>(texts: &'a [String], golds: &'a [Gold]) -> (Editor<'a>, usize) {
    let docs: Vec<Document> =
        texts.iter().enumerate().map(|(i, t)| Document { id: i.to_string(), text: t.clone() }).collect();
    let corpus = Corpus::from_docs("t", docs.clone());
    let mut config = MiningConfig::for_tokenizer(Tokenizer::Text);
    config.min_df = 2;
    let mining = mine(&corpus, &config, &Quiet).unwrap();
    let file = chaff_engine::merge::from_mining(&mining, crate::rules::MiningParams::of(&config), None);
    let base = Baseline::new(&file, docs, true).unwrap();
    let draft = super::super::open_draft(corpus, mining, &file);
    let pages = texts.iter().map(String::as_str).zip(golds).collect();
    let e = Editor::new(draft, base, pages, false).unwrap();
    let share = e.rules.iter().position(|r| r.tokens.first().is_some_and(|t| t == "Share")).expect("mined");
    (e, share)
}

#[test]
fn a_marked_span_is_made_as_an_editors_rule_where_a_mined_string_has_its_text() {
    let (texts, golds) = pages();
    let (mut e, share) = mined(&texts, &golds);
    // the editor marked the share line, and tried it as the UI makes a mark: an editor's rule, which no
    // stage overrules; accepting the mined string of the same text instead would leave it to the stages
    let quote = "Share this story with your friends on every network";
    let start = texts[0].find(quote).unwrap();
    e.origin[share] = Origin::Mark { page: 0, start, end: start + quote.len() };
    let choice = Choice { what: "mark as template", sets: vec![(share, Some(Action::Remove))], stage_off: None };
    super::super::act::make(&mut e, &choice).unwrap();
    let file = e.draft.rules_file();
    let made = file.rules.iter().filter(|r| r.tokens.join(" ") == quote && r.status == Status::Accepted);
    assert!(made.clone().any(|r| r.editor), "{:?}", made.map(|r| (&r.id, r.editor)).collect::<Vec<_>>());
}

#[test]
fn after_a_decision_every_rule_is_as_the_drafts_file_holds_it() {
    // the share line mined as a candidate of the draft's (not one of the editor's decisions)
    let (texts, golds) = pages();
    let (mut e, share) = mined(&texts, &golds);
    let was = e.state[share];
    // the draft changes the rule beside the editor's decisions (as its merge with the mining can)
    let i = e.draft.position(&e.rules[share].id).unwrap();
    match was {
        Some(_) => e.draft.decide(&[i], Some(Status::Rejected), None),
        None => e.draft.decide(&[i], Some(Status::Accepted), Some(Action::Remove)),
    };
    e.file = e.draft.rules_file();
    e.follow_file();
    let now = if was.is_some() { None } else { Some(Action::Remove) };
    assert_eq!(e.state[share], now, "the editor's trials start from the rules the engine runs");
}

/// The editor of `texts` with `template` removed and stage `short-runs` set to take runs under 20 words.
fn short_runs_editor<'a>(template: &str, texts: &'a [String], golds: &'a [Gold]) -> Editor<'a> {
    let (_, draft, base) = drafted_with(&[(template, Action::Remove)], texts, |file| {
        file.clean.short_runs = ShortRunsSettings { words: 20 };
    });
    let pages = texts.iter().map(String::as_str).zip(golds).collect();
    Editor::new(draft, base, pages, false).unwrap()
}

fn short_runs_off() -> Choice {
    Choice { what: "stage off", sets: Vec::new(), stage_off: Some(Stage::ShortRuns) }
}

#[test]
fn a_stage_turned_off_that_gives_template_back_on_a_page_is_refused_though_the_page_gains() {
    let share = "Share this story with your friends on every network";
    // each page: a caption the gold keeps and a sign-up line it does not, each alone between template
    // lines, outside the article: stage `short-runs` removes both
    let texts: Vec<String> = BODIES
        .iter()
        .map(|b| format!("{share}\nPhoto by the staff of the paper\n{share}\n{b} {b}\n{share}\nSign up\n{share}\n"))
        .collect();
    let golds: Vec<Gold> =
        BODIES.iter().map(|b| Gold::new(&format!("Photo by the staff of the paper\n{b} {b}"))).collect();
    let mut e = short_runs_editor(share, &texts, &golds);
    let trial = e.try_choice(&short_runs_off());
    assert!(trial.gain > 0.0, "each page gains its caption back: {}", trial.gain);
    assert!(matches!(trial.refusal, Some(Refusal::GivesTemplate { words: 2, .. })), "{:?}", trial.refusal);
}

/// Nine pages, each an archive line and a body of two sentences; the gold keeps the archive line on
/// `kept` of them.
fn archived(kept: usize) -> (Vec<String>, Vec<Gold>) {
    let line = "Printed from the weekly paper archive";
    let bodies: Vec<String> = (0..9).map(|i| format!("{} {}", BODIES[i % 4], BODIES[(i / 4 + i + 1) % 4])).collect();
    let texts = bodies.iter().map(|b| format!("{line}\n{b}\n")).collect();
    let golds =
        bodies.iter().enumerate().map(|(i, b)| Gold::new(&if i < kept { format!("{line}\n{b}") } else { b.clone() }));
    (texts, golds.collect())
}

#[test]
fn a_decision_right_on_nearly_every_page_is_made_though_it_lowers_one() {
    let line = "Printed from the weekly paper archive";
    let trial = |kept: usize| {
        let (texts, golds) = archived(kept);
        let mut e = editor(&[(line, Action::Remove)], &texts, &golds);
        let r = e.rules.iter().position(|rule| rule.tokens.join(" ") == line).unwrap();
        e.try_choice(&Choice { what: "keep", sets: vec![(r, Some(Action::Keep))], stage_off: None })
    };
    // the gold keeps the line on eight pages of nine: keeping it lowers one page and raises eight
    let most = trial(8);
    assert!(most.refusal.is_none() && most.gain > 0.0, "{:?} {}", most.refusal, most.gain);
    // on six of nine it lowers three pages for six raised: too many to bet a page out of view on
    let some = trial(6);
    assert!(matches!(some.refusal, Some(Refusal::Hurts { .. })), "{:?}", some.refusal);
}

#[test]
fn the_articles_last_line_a_footer_cut_starts_at_is_kept_and_the_cut_stays_for_pages_out_of_view() {
    // each article ends in a sign-off line the gold keeps; a cut-after at it takes the comments below,
    // which rules of their own also remove on these pages: rejected, it would give back only the sign-off
    // here, and the comments on pages out of view that those rules miss. Kept, the sign-off is a keep
    // rule beside the cut, which goes on cutting
    let sign_off = "Follow us for updates on every network we use";
    let tail = "Comments and replies from readers below\nMore stories from our newsroom today\n";
    let texts: Vec<String> = BODIES.iter().map(|b| format!("{b}\n{sign_off}\n{tail}")).collect();
    let golds: Vec<Gold> = BODIES.iter().map(|b| Gold::new(&format!("{b}\n{sign_off}"))).collect();
    let rules = [
        (sign_off, Action::CutAfter),
        ("Comments and replies from readers below", Action::Remove),
        ("More stories from our newsroom today", Action::Remove),
    ];
    let mut e = editor(&rules, &texts, &golds);
    assert!(e.f1.iter().all(|&f| f < 1.0), "the cut takes the sign-off: {:?}", e.f1);
    decide_up_to(&mut e, 3);
    assert!(e.f1.iter().all(|&f| f == 1.0), "the sign-off kept: {:?} {:?}", e.f1, e.log);
    assert!(e.log[0].starts_with("keep"), "{:?}", e.log);
    let cut = e.file.rules.iter().find(|r| r.tokens.join(" ") == sign_off && r.action.is_cut()).unwrap();
    assert_eq!((cut.status, cut.action), (Status::Accepted, Action::CutAfter), "{:?}", e.log);
}

#[test]
fn the_editor_leaves_a_safety_net_on_though_it_takes_a_caption_the_gold_keeps() {
    let share = "Share this story with your friends on every network";
    // each page: its own caption, which the gold keeps, alone between template lines outside the
    // article: stage `short-runs` removes it, and turning it off gives back nothing else in view
    let captions = ["Rain over the hills", "Old maps on the wall", "Chess pieces at dawn", "Stalls by the river"];
    let texts: Vec<String> =
        BODIES.iter().zip(captions).map(|(b, c)| format!("{share}\n{c}\n{share}\n{b} {b}\n{share}\n")).collect();
    let golds: Vec<Gold> = BODIES.iter().zip(captions).map(|(b, c)| Gold::new(&format!("{c}\n{b} {b}"))).collect();
    let mut e = short_runs_editor(share, &texts, &golds);
    let trial = e.try_choice(&short_runs_off());
    assert!(trial.gain > 0.0 && trial.refusal.is_none(), "a gain on every page in view: {:?}", trial.refusal);
    decide_up_to(&mut e, 3);
    assert!(e.cleaner.settings().on(Stage::ShortRuns), "decided: {:?}", e.log);
}
