use std::sync::OnceLock;

use proptest::prelude::*;

use super::*;
use crate::automatic::automatic_rules;
use crate::clean_settings::Stage;
use crate::corpus::Corpus;
use crate::mining::{MiningConfig, Quiet, mine};
use crate::rules::{Action, MiningParams, Status};
use crate::settings::Settings;
use chaff_generate::{GeneratedSource, block_page, comments, html_news, mixed_templates, sevendays};

fn corpus_of(source: &GeneratedSource) -> Corpus {
    let docs = source.docs.iter().map(|d| Document { id: d.id.clone(), text: d.text.clone() }).collect();
    Corpus::from_docs(source.name.clone(), docs)
}

/// HTML pages with blocks only a region rule removes (comments, related links).
fn blocks() -> GeneratedSource {
    let mut source = html_news(1, 1);
    source.name = "blocks".into();
    source.docs.truncate(1);
    let template = source.docs[0].clone();
    source.docs = (0..16)
        .map(|i| chaff_generate::GeneratedDoc { id: format!("b{i}"), text: block_page(i), ..template.clone() })
        .collect();
    source
}

/// Generated sources mined with the automatic rules: text of several shapes, HTML pages, and HTML pages
/// with region candidates.
fn mined() -> &'static [(Vec<Document>, RulesFile)] {
    static FILES: OnceLock<Vec<(Vec<Document>, RulesFile)>> = OnceLock::new();
    FILES.get_or_init(|| {
        [sevendays(40, 3), comments(30, 5), mixed_templates(40, 7), html_news(24, 9), blocks()]
            .iter()
            .map(|source| {
                let mut corpus = corpus_of(source);
                let mut config = MiningConfig::default();
                let kind = if source.extension == "html" { DocKind::Html } else { DocKind::Text };
                let docs = corpus.docs.clone();
                corpus = crate::page::viewed(corpus, kind, &mut config);
                let mining = mine(&corpus, &config, &Quiet).unwrap();
                let file =
                    automatic_rules(&corpus, &mining, MiningParams::of(&config), None, &Settings::default()).unwrap();
                (docs, file)
            })
            .collect()
    })
}

/// A decision an editor can make, as a change of the rules file.
#[derive(Debug, Clone)]
enum Edit {
    Status(usize, u8),
    Action(usize),
    Stage(usize),
    Cutoff(u8),
    /// A span of a document marked as template (or kept, or a cut): a rule no mining made.
    Mark {
        doc: usize,
        at: usize,
        len: usize,
        action: u8,
    },
    /// A rule's regex written by hand: the same rule id, other matches.
    Regex(usize),
    /// A rule trimmed by a token: an accepted rule of its own.
    Trim(usize),
    /// A region rule decided: a status and an action.
    Region(usize, u8, u8),
}

fn apply(file: &mut RulesFile, docs: &[Document], edit: &Edit) {
    let n = file.rules.len();
    let mutable = crate::mutable::MutableSet::new(file.mutable.clone()).unwrap();
    match *edit {
        Edit::Mark { doc, at, len, action } if !docs.is_empty() => {
            // as the UI marks: on the text the cleaner reads (an HTML page's view)
            let page = Page::for_rules(&docs[doc % docs.len()].text, file);
            let text = page.text();
            let start = text.floor_char_boundary(at % text.len().max(1));
            let end = text.floor_char_boundary((start + len).min(text.len()));
            let action = [crate::rules::Action::Remove, crate::rules::Action::Keep, crate::rules::Action::CutAfter]
                [action as usize % 3];
            if let Ok(rule) = crate::editing::rule_from_span(text, start, end, action, file.tokenizer, &mutable) {
                file.rules.retain(|r| r.id != rule.id);
                file.rules.push(rule);
            }
        }
        Edit::Regex(i) if n > 0 => {
            // the rule's first token alone, as a regex: more matches than the rule had
            let r = &mut file.rules[i % n];
            if let Some(first) = r.tokens.first().filter(|t| !t.starts_with('«')) {
                r.regex = regex::escape(first);
                r.tokens.clear();
                r.status = Status::Accepted;
            }
        }
        Edit::Trim(i) if n > 0 => {
            let r = file.rules[i % n].clone();
            if let Ok(t) = crate::editing::trim(&r, 1, 0, file.tokenizer, &mutable) {
                file.rules.retain(|x| x.id != t.id);
                file.rules[i % n].status = Status::Rejected;
                file.rules.push(Rule { status: Status::Accepted, ..t });
            }
        }
        Edit::Status(i, s) if n > 0 => {
            file.rules[i % n].status = [Status::Accepted, Status::Rejected, Status::Pending][s as usize % 3];
        }
        Edit::Action(i) if n > 0 => {
            let r = &mut file.rules[i % n];
            r.action = r.action.next();
        }
        Edit::Stage(s) => {
            let stage = Stage::ALL[s % Stage::ALL.len()];
            let on = file.clean_settings().on(stage);
            file.set_stage(stage, !on);
        }
        Edit::Cutoff(bin) => file.cutoff.chosen = bin % 100,
        Edit::Region(i, s, a) if !file.regions.is_empty() => {
            let k = file.regions.len();
            let r = &mut file.regions[i % k];
            r.status = [Status::Accepted, Status::Rejected, Status::Pending][s as usize % 3];
            r.action = [Action::Remove, Action::Keep, Action::CutBefore, Action::CutAfter][a as usize % 4];
        }
        _ => {}
    }
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        6 => (0usize..10_000, 0u8..3).prop_map(|(i, s)| Edit::Status(i, s)),
        3 => (0usize..10_000).prop_map(Edit::Action),
        1 => (0usize..100).prop_map(Edit::Stage),
        1 => (0u8..100).prop_map(Edit::Cutoff),
        2 => (0usize..1000, 0usize..100_000, 1usize..60, 0u8..3)
            .prop_map(|(doc, at, len, action)| Edit::Mark { doc, at, len, action }),
        1 => (0usize..10_000).prop_map(Edit::Regex),
        1 => (0usize..10_000).prop_map(Edit::Trim),
        3 => (0usize..100, 0u8..3, 0u8..4).prop_map(|(i, s, a)| Edit::Region(i, s, a)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The impact found by cleaning again only the documents a change touches equals the one found by
    /// cleaning every document again, for any decisions, with or without the pending rules.
    #[test]
    fn impact_cleaning_only_touched_documents_equals_cleaning_every_document(
        source in 0usize..5,
        edits in proptest::collection::vec(edit(), 1..4),
        pending in any::<bool>(),
    ) {
        let (docs, file) = &mined()[source];
        let base = Baseline::new(file, docs.clone(), pending).unwrap();
        let mut after = file.clone();
        for e in &edits {
            apply(&mut after, docs, e);
        }
        let fast = base.impact(&after).unwrap();
        let all = base.impact_cleaning_all(&after).unwrap();
        prop_assert_eq!(Impact { recleaned: 0, ..fast.clone() }, Impact { recleaned: 0, ..all });
    }

    /// A baseline moved on by a change is the baseline of the changed rules, and measures the next change
    /// as a fresh one does.
    #[test]
    fn an_advanced_baseline_equals_a_fresh_one(
        source in 0usize..5,
        edits in proptest::collection::vec(edit(), 1..4),
        next in edit(),
    ) {
        let (docs, file) = &mined()[source];
        let mut base = Baseline::new(file, docs.clone(), true).unwrap();
        let mut after = file.clone();
        for e in &edits {
            apply(&mut after, docs, e);
            base.advance(&after).unwrap();
        }
        let fresh = Baseline::new(&after, docs.clone(), true).unwrap();
        prop_assert_eq!(&base.states, &fresh.states);
        apply(&mut after, docs, &next);
        let (moved, made) = (base.impact(&after).unwrap(), fresh.impact(&after).unwrap());
        prop_assert_eq!(Impact { recleaned: 0, ..moved }, Impact { recleaned: 0, ..made.clone() });
        prop_assert_eq!(Impact { recleaned: 0, ..made }, Impact { recleaned: 0, ..fresh.impact_cleaning_all(&after).unwrap() });
    }
}

#[test]
fn rejecting_every_rule_gives_back_what_they_removed_and_removes_nothing() {
    let (docs, file) = &mined()[0];
    let base = Baseline::new(file, docs.clone(), true).unwrap();
    let mut after = file.clone();
    after.rules.iter_mut().for_each(|r| r.status = Status::Rejected);
    let impact = base.impact(&after).unwrap();
    assert_eq!(impact.changed.len(), docs.len(), "{}", impact.summary());
    assert_eq!(impact.removed(), 0, "rejecting removes nothing: {}", impact.summary());
    assert!(impact.given_back() > 0, "{}", impact.summary());
    // most changed first
    assert!(impact.changed.windows(2).all(|w| w[0].words() >= w[1].words()));
}

#[test]
fn accepting_a_rare_string_cleans_again_only_the_pages_it_matches() {
    let (docs, file) = &mined()[1];
    let base = Baseline::new(file, docs.clone(), true).unwrap();
    let rare = file.rules.iter().filter(|r| !file.is_active(r, true) && r.df > 0).min_by_key(|r| r.df).unwrap();
    let mut after = file.clone();
    after.rules.iter_mut().find(|r| r.id == rare.id).unwrap().status = Status::Accepted;
    let impact = base.impact(&after).unwrap();
    assert!(impact.recleaned as u64 <= rare.df.max(1) * 2 && impact.recleaned < docs.len(), "{impact:?}");
    assert_eq!(impact, Impact { recleaned: impact.recleaned, ..base.impact_cleaning_all(&after).unwrap() });
}

#[test]
fn no_change_touches_no_document() {
    let (docs, file) = &mined()[1];
    let base = Baseline::new(file, docs.clone(), true).unwrap();
    let impact = base.impact(file).unwrap();
    assert_eq!((impact.recleaned, impact.changed.len()), (0, 0));
}

#[test]
fn an_accepted_region_rule_shows_in_the_impact_as_chaff_clean_removes_it() {
    let (docs, file) = &mined()[4];
    let comments = file.regions.iter().find(|r| r.element == "div#reactions").expect("the comments mined as a region");
    // rejected before: the comments stay
    let mut before = file.clone();
    before.regions.iter_mut().for_each(|r| r.status = Status::Rejected);
    let base = Baseline::new(&before, docs.clone(), false).unwrap();
    let mut after = before.clone();
    after.regions.iter_mut().find(|r| r.element == comments.element).unwrap().status = Status::Accepted;
    let impact = base.impact(&after).unwrap();
    assert_eq!(impact.changed.len(), docs.len(), "every page has comments: {}", impact.summary());
    // (inside or outside: the article block before it held the comments, long lines the rules kept)
    assert_eq!(impact.given_back(), 0, "{}", impact.summary());
    // what it removes is what `chaff clean` removes: the comments' words, no article word (and, as the
    // baseline had no active rule, the stages now run: the nav, the repeated headline and the footer go too)
    let cleaner = Cleaner::new(&after, false).unwrap();
    for d in &impact.changed {
        let text = base.text(d.index);
        let mut removed: Vec<&str> = d.removed.iter().flat_map(|r| text[r.start..r.end].split_whitespace()).collect();
        assert!(
            removed.iter().any(|w| w.starts_with("com")) && !removed.iter().any(|w| w.starts_with("art")),
            "{removed:?}"
        );
        let cleaned = cleaner.clean_page(Page::new(&docs[d.index].text, DocKind::Html)).text().to_string();
        let mut gone: Vec<&str> = text.split_whitespace().collect();
        for w in cleaned.split_whitespace() {
            let at = gone.iter().position(|g| *g == w).expect("chaff clean keeps only the page's words");
            gone.remove(at);
        }
        removed.sort_unstable();
        gone.sort_unstable();
        assert_eq!(removed, gone, "the impact removes what chaff clean removes");
    }
    assert_eq!(impact, Impact { recleaned: impact.recleaned, ..base.impact_cleaning_all(&after).unwrap() });
}

#[test]
fn a_baseline_of_pages_held_as_their_views_and_paths_cleans_them_as_the_pages_are() {
    // as the tuning UI holds an HTML source: its pages' views' text, where their lines sit apart
    let (docs, file) = &mined()[4];
    let viewed =
        crate::page::viewed(Corpus::from_docs("blocks", docs.clone()), DocKind::Html, &mut MiningConfig::default());
    let viewed = Arc::new(viewed);
    for status in [Status::Rejected, Status::Accepted] {
        let mut file = file.clone();
        file.regions.iter_mut().for_each(|r| r.status = status);
        let pages = Baseline::new(&file, docs.clone(), true).unwrap();
        let held =
            Baseline::of_corpus(&RulesFile { input: Some(DocKind::Text), ..file.clone() }, Arc::clone(&viewed), true)
                .unwrap();
        for i in 0..pages.len() {
            assert_eq!(
                (held.removed(i), held.block(i)),
                (pages.removed(i), pages.block(i)),
                "page {i}, regions {status:?}"
            );
        }
        // the region rules take the comments from the pages held as views too
        let text = held.text(0);
        let comments_go = held.removed(0).iter().any(|&(a, b)| text[a..b].contains("com0x"));
        assert_eq!(comments_go, status == Status::Accepted, "{:?}", held.removed(0));
    }
}

#[test]
fn a_cut_string_that_acts_by_its_example_lines_alone_is_measured_as_cleaning_does() {
    // a footer string narrowed to a regex that matches nowhere at a line's edge: the string is found whole
    // on no page, and stage `cut-lines` cuts at its example's line; the measure's cleaner, which adds the
    // rules it is given without compiling them, must know that line too
    let (docs, file) = &mined()[2];
    let base = Baseline::new(file, docs.clone(), false).unwrap();
    let i = file
        .rules
        .iter()
        .position(|r| {
            r.action == Action::CutAfter
                && r.status == Status::Pending
                && r.example.contains('\n')
                && r.tokens[0] == "/"
        })
        .unwrap();
    let mut after = file.clone();
    let r = &mut after.rules[i];
    r.regex = regex::escape(&r.tokens[0]);
    r.tokens.clear();
    r.status = Status::Accepted;
    let (fast, all) = (base.impact(&after).unwrap(), base.impact_cleaning_all(&after).unwrap());
    assert!(!all.changed.is_empty(), "{}", all.summary());
    assert_eq!(Impact { recleaned: 0, ..fast }, Impact { recleaned: 0, ..all });
}

#[test]
fn words_removed_are_told_inside_the_article_by_the_pending_rules_too() {
    // a source nothing is accepted of: the accepted rules leave each page one run, footer and all; its
    // article is where the accepted and pending rules leave it
    let (docs, file) = &mined()[3];
    let base = Baseline::new(file, docs.clone(), false).unwrap();
    let pending = Baseline::new(file, docs.clone(), true).unwrap();
    assert!((0..base.len()).all(|i| base.article(i) == pending.block(i) && pending.article(i) == pending.block(i)));
    assert!((0..base.len()).any(|i| base.block(i) != base.article(i)), "the accepted rules alone know no article");
    // accepting the footer cut takes the footer: outside the article
    let footer = file.rules.iter().position(|r| r.action == Action::CutAfter && r.status == Status::Pending).unwrap();
    let mut after = file.clone();
    after.rules[footer].status = Status::Accepted;
    let impact = base.impact(&after).unwrap();
    assert!(impact.removed_outside > 0 && impact.removed_inside == 0, "{}", impact.summary());
    assert_eq!(impact, Impact { recleaned: impact.recleaned, ..base.impact_cleaning_all(&after).unwrap() });
    // moved on by decisions, the pending rules rejected among them (which the accepted rules' cleaning
    // does not show), the baseline knows the article as a new one does
    let mut moved = base.clone();
    moved.advance(&after).unwrap();
    let mut rejected = after.clone();
    rejected.rules.iter_mut().filter(|r| r.status == Status::Pending).for_each(|r| r.status = Status::Rejected);
    rejected.regions.iter_mut().filter(|r| r.status == Status::Pending).for_each(|r| r.status = Status::Rejected);
    moved.advance(&rejected).unwrap();
    let fresh = Baseline::new(&rejected, docs.clone(), false).unwrap();
    assert!((0..fresh.len()).any(|i| fresh.article(i) != base.article(i)), "rejecting moved the articles");
    assert!((0..fresh.len()).all(|i| moved.article(i) == fresh.article(i) && moved.block(i) == fresh.block(i)));
}

#[test]
fn the_first_rule_in_force_says_which_words_are_the_stages_and_which_its_own() {
    let (docs, file) = &mined()[3];
    // the pending rules not counted and none accepted: no rule in force, no stage runs
    let base = Baseline::new(file, docs.clone(), false).unwrap();
    let mut idle = file.rules[0].clone();
    (idle.id, idle.regex, idle.tokens) = ("nothing".into(), "qqzzxxqq".into(), Vec::new());
    (idle.status, idle.action) = (Status::Accepted, Action::Keep);
    let started = base.impact(&with_rules(file, [idle.clone()])).unwrap();
    let s = started.stages_start.clone().expect("a keep rule that matches nothing starts the stages");
    assert!(started.removed() > 0, "the stages remove menus on their own: {}", started.summary());
    assert_eq!((s.stages, s.change), (started.totals(), Totals::default()), "all of it is the stages'");
    // a mined rule accepted: the stages' part as above, its own what it does with the stages running
    let i = (0..file.rules.len()).find(|&i| file.rules[i].status == Status::Pending).unwrap();
    let mut rule = file.rules[i].clone();
    rule.status = Status::Accepted;
    let impact = base.impact(&with_rules(file, [rule.clone()])).unwrap();
    let split = impact.stages_start.clone().expect("the first rule in force");
    assert_eq!(split.stages, s.stages);
    let running = Baseline::new(&with_rules(file, [idle.clone()]), docs.clone(), false).unwrap();
    let own = running.impact_cleaning_all(&with_rules(file, [idle, rule.clone()])).unwrap();
    assert!(own.stages_start.is_none(), "a rule was in force already");
    assert_eq!(split.change, own.totals(), "{}", impact.summary());
    assert!(impact.summary().contains("the cleaning stages start"), "{}", impact.summary());
    assert_eq!(
        impact,
        Impact { recleaned: impact.recleaned, ..base.impact_cleaning_all(&with_rules(file, [rule])).unwrap() }
    );
}

#[test]
fn article_words_the_stages_take_when_the_first_rule_starts_them_are_not_the_decisions() {
    let inside = Totals { documents: 2, removed_inside: 7, ..Totals::default() };
    let first = |change: Totals| Impact {
        documents: 10,
        removed_inside: inside.removed_inside + change.removed_inside,
        stages_start: Some(StagesStart { stages: inside, change }),
        ..Impact::default()
    };
    // any rule in force would start them: the UI does not mark this decision as taking article words
    assert!(!first(Totals::default()).takes_article_words());
    assert!(first(Totals { documents: 1, removed_inside: 1, ..Totals::default() }).takes_article_words());
    assert!(Impact { removed_inside: 1, ..Impact::default() }.takes_article_words());
}

/// `file` with `rules` in it: a rule of the same id replaced.
fn with_rules(file: &RulesFile, rules: impl IntoIterator<Item = Rule>) -> RulesFile {
    let mut out = file.clone();
    for r in rules {
        match out.rules.iter_mut().find(|x| x.id == r.id) {
            Some(x) => *x = r,
            None => out.rules.push(r),
        }
    }
    out
}
