//! Key sequences on the real app state for what a decision does over the whole source: shown before it is
//! made (the `T` and `K` dialogs, a cut's dialog, a candidate's detail) and after it (the status line), the
//! documents it changes most a key away and back, verified pages marked, warned about and saved, a
//! preview that never waits for the cleaning of a large document, and `e` naming where a stage left an
//! accepted cut's match in place.

mod tui_support;

use std::sync::Arc;
use std::time::Instant;

use chaff::clean_settings::Stage;
use chaff::draft::with_rule;
use chaff::impact::{Baseline, Impact};
use chaff::rules::{Action, RulesFile, Status};
use chaff::tui::App;
use chaff::tui::state::{ExplainItem, Measure, Mode};
use tui_support::{Fixture, key_event, press, screen, settle};

/// What the draft is and would save, and its undo stack's top: what a dialog closed with Esc must leave.
fn state(app: &App) -> (RulesFile, u64, bool, Option<String>, Vec<chaff::verified::VerifiedPage>) {
    let s = app.session().unwrap();
    (s.rules_file(), s.revision, s.dirty, s.history.last().map(|st| st.describe()), s.draft.verified.pages.clone())
}

/// The impact of changing the session's rules to `after`, measured by cleaning every document again.
fn reference(app: &App, after: &RulesFile) -> Impact {
    let s = app.session().unwrap();
    let base = Baseline::of_corpus(&s.impact_rules(), Arc::clone(&s.draft.corpus), s.preview.with_pending).unwrap();
    Impact { recleaned: 0, ..base.impact_cleaning_all(after).unwrap() }
}

fn first_impact(m: &Measure) -> Impact {
    Impact { recleaned: 0, ..m.impacts.as_ref().expect("measured before confirming")[0].clone() }
}

#[test]
fn t_and_k_show_the_documents_and_words_they_change_before_confirming_and_esc_leaves_everything_as_it_was() {
    let fx = Fixture::html();
    let mut app = fx.app_on("html_news", 120, 40);
    // a paragraph of the first page's article: nothing removes it yet
    press(&mut app, "Tab Tab j j j j j j j j");
    let was = state(&app);
    for (key, action) in [("T", Action::Remove), ("K", Action::Keep)] {
        // T marks the cursor's line; K keeps a selection (V selects the line)
        press(&mut app, if key == "T" { "T" } else { "V K" });
        let Mode::MarkPrompt(m) = &app.mode else { panic!("{key} asks first") };
        assert_eq!(m.action, action);
        assert!(m.documents.is_some_and(|d| d >= 1), "{key}: the documents it matches");
        let impact = first_impact(&m.measure);
        let s = app.session().unwrap();
        let rule = s.if_marked(s.document_text(), m.start, m.end, action).unwrap();
        let after = with_rule(&s.impact_rules(), &rule);
        assert_eq!(impact, reference(&app, &after), "{key}: the impact shown is the one cleaning every page finds");
        let shown = screen(&app);
        assert!(shown.contains(&format!("{}/60 docs change", impact.changed.len())), "{shown}");
        assert!(shown.contains(&format!("−{} words", impact.removed())), "{shown}");
        if key == "T" {
            assert!(!impact.changed.is_empty() && impact.removed() > 0, "marking a line removes its words");
            assert!(shown.contains("most changed"), "{shown}");
        }
        press(&mut app, "Esc");
        assert!(matches!(app.mode, Mode::Normal));
        assert_eq!(state(&app), was, "{key} then Esc: rules, state and undo stack as they were");
    }
    assert!(app.session().unwrap().preview.selected().is_some(), "Esc kept the selection K was asked on");
}

#[test]
fn the_detail_shows_what_each_decision_would_change_and_the_status_line_what_it_did() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(160, 48);
    press(&mut app, "Enter");
    let Mode::Detail(d) = &app.mode else { panic!("Enter opens the detail") };
    let (i, choices) = (d.string, d.choices.clone());
    assert_eq!(choices[0].label, "accept");
    let impacts = d.measure.impacts.clone().expect("measured");
    assert_eq!(impacts.len(), choices.len(), "one impact a choice");
    let s = app.session().unwrap();
    let base = s.impact_rules();
    for (c, impact) in choices.iter().zip(&impacts) {
        let after = with_rule(&base, &s.if_decided(i, c.status, c.action));
        assert_eq!(Impact { recleaned: 0, ..impact.clone() }, reference(&app, &after), "{}", c.label);
    }
    let shown = screen(&app);
    assert!(shown.contains("What each decision would change") && shown.contains("accept as cut-after"), "{shown}");
    // accepting it does what the detail said
    press(&mut app, "Esc a");
    let message = app.message.clone().expect("the status line says what it did").text;
    let accepted = &impacts[0];
    assert!(message.starts_with("accepted `"), "{message}");
    assert!(
        message.contains(&format!("{}/120 docs change: −{} words", accepted.changed.len(), accepted.removed())),
        "{message}"
    );
    assert!(screen(&app).contains("docs change"), "{}", screen(&app));
}

#[test]
fn a_digit_shows_a_most_changed_document_at_its_first_change_and_b_goes_back_to_the_page_you_were_on() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    // the preview somewhere: the fourth document, two lines down
    press(&mut app, "n n n Tab Tab j j");
    let s = app.session().unwrap();
    let was = s.place();
    assert_eq!(was.doc, 3);
    press(&mut app, "BackTab BackTab a");
    let jumps = app.session().unwrap().jumps.clone();
    assert!(jumps.len() >= 2, "the decision changed documents: {jumps:?}");
    press(&mut app, "2");
    let s = app.session().unwrap();
    assert_eq!(s.preview.doc, jumps[1].doc, "2: the second most changed document");
    let lines = s.preview_lines();
    assert_eq!(s.preview.line, chaff::tui::document::line_of(&lines, jumps[1].at), "at its first change");
    press(&mut app, "1");
    assert_eq!(app.session().unwrap().preview.doc, jumps[0].doc);
    press(&mut app, "b");
    let s = app.session().unwrap();
    assert_eq!(s.place(), was, "b: back to the page, the scroll and the cursor of before the first jump");
    assert!(s.back.is_none());
}

#[test]
fn a_decision_that_changes_a_verified_page_says_which_page_and_words_before_and_after() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(160, 48);
    // the first page as it is cleaned now (nothing accepted: all of it) is right
    press(&mut app, "Y");
    let s = app.session().unwrap();
    let id = s.corpus.docs[0].id.clone();
    assert!(s.draft.is_verified(&id), "Y marks the previewed page verified");
    assert!(screen(&app).contains("✔ verified"), "{}", screen(&app));
    // the first candidate removes text from every page, this one among them: the detail warns
    press(&mut app, "Enter");
    let shown = screen(&app);
    assert!(shown.contains(&format!("⚠ verified page {id} changes: −")), "{shown}");
    press(&mut app, "Esc");
    // so does T, marking the page's line as template
    press(&mut app, "Tab Tab T");
    assert!(matches!(app.mode, Mode::MarkPrompt(_)));
    let shown = screen(&app);
    assert!(shown.contains(&format!("⚠ verified page {id} changes: −")), "{shown}");
    press(&mut app, "Esc BackTab BackTab a");
    let m = app.message.clone().unwrap();
    assert!(m.error && m.text.contains(&format!("⚠ verified page {id} changes: −")), "{m:?}");
    // the words: the page's own text that goes
    let text = app.session().unwrap().corpus.docs[0].text.clone();
    let quoted = m.text.split('"').nth(1).unwrap().trim_end_matches('…').to_string();
    assert!(text.contains(&quoted), "{quoted:?} is the page's text");
}

#[test]
fn verified_pages_are_saved_beside_the_rules_and_unmarking_is_undoable() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "a n Y");
    let id = app.session().unwrap().corpus.docs[1].id.clone();
    assert!(app.session().unwrap().dirty, "a verified page is unsaved work");
    press(&mut app, "w");
    let path = chaff::verified::path_for(&fx.rules());
    let saved = chaff::verified::Verified::load(&path).unwrap();
    assert_eq!(saved.pages.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), [id.as_str()]);
    assert_eq!(saved.source, "sevendays");
    // what chaff test checks: the page as the saved rules clean it
    let rules = RulesFile::load(&fx.rules()).unwrap();
    let docs = chaff::corpus::Corpus::load(&fx.corpus()).unwrap().docs;
    let outcome = chaff::verified::check(&rules, &saved, &docs, false).unwrap();
    assert_eq!(outcome[0].1, chaff::verified::Outcome::Passed);
    // Y again unmarks it; u brings it back; both saved
    press(&mut app, "Y");
    assert!(!app.session().unwrap().draft.is_verified(&id));
    press(&mut app, "u");
    assert!(app.session().unwrap().draft.is_verified(&id), "u takes the unmarking back");
    press(&mut app, "C-r w");
    assert!(chaff::verified::Verified::load(&path).unwrap().pages.is_empty(), "unmarked and saved");
    // opened again, the verified pages come back from beside the rules
    let mut app = fx.app(120, 40);
    press(&mut app, "n Y w");
    let app = fx.app(120, 40);
    assert!(app.session().unwrap().draft.is_verified(&id));
}

#[test]
fn a_cut_shows_its_evidence_first_and_esc_leaves_the_action() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    // a candidate that removes its text: c makes it a header cut
    let s = app.session().unwrap();
    let row = s.list.rows.iter().position(|&i| s.rule_action(i) == Action::Remove).expect("a plain candidate");
    for _ in 0..row {
        press(&mut app, "j");
    }
    let i = app.session().unwrap().list.current().unwrap();
    let was = state(&app);
    press(&mut app, "c");
    let Mode::ActionPrompt(a) = &app.mode else { panic!("a cut asks first") };
    assert_eq!(a.action, Action::CutBefore);
    let evidence = a.measure.evidence.clone().expect("its evidence");
    assert!(evidence.pages > 0 && evidence.literal_tokens + evidence.pattern_tokens > 0, "{evidence:?}");
    let shown = screen(&app);
    let measured = shown.contains("docs change") || shown.contains("no document of 120 changes");
    assert!(shown.contains(&format!("evidence {}", evidence.id)) && measured, "{shown}");
    press(&mut app, "Esc");
    assert!(matches!(app.mode, Mode::Normal));
    assert_eq!(state(&app), was, "Esc: the action as it was");
    // c in the dialog shows the next action; y takes it, accepted
    press(&mut app, "c c y");
    let s = app.session().unwrap();
    assert_eq!((s.status(i), s.rule_action(i)), (Status::Accepted, Action::CutAfter));
}

/// The first page of sevendays made `bytes` long (the source's pages repeated), shown in the preview.
fn big_first_page(app: &mut App, bytes: usize) {
    let s = app.session_mut().unwrap();
    let page: String = s.corpus.docs.iter().take(40).map(|d| d.text.as_str()).collect::<Vec<_>>().join("\n\n");
    let mut text = String::with_capacity(bytes + page.len());
    while text.len() < bytes {
        text.push_str(&page);
        text.push_str("\n\n");
    }
    Arc::make_mut(&mut s.draft.corpus).docs[0].text = text;
    s.show_document(0);
    settle(app);
}

#[test]
fn a_decision_on_a_big_document_returns_before_its_cleaning_and_the_preview_shows_it_when_done() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    big_first_page(&mut app, 3 << 20);
    let removed = app.session().unwrap().preview.removed;
    assert_eq!(removed, 0, "nothing accepted yet");
    let t = Instant::now();
    app.handle_key(key_event("a"));
    let key = t.elapsed();
    let s = app.session().unwrap();
    assert!(s.preview.cleaning.is_some(), "the key returned before the cleaning finished ({key:?})");
    assert_eq!(s.preview.removed, removed, "the preview shows the last cleaned state meanwhile");
    assert!(screen(&app).contains("cleaning…"), "{}", screen(&app));
    let t = Instant::now();
    settle(&mut app);
    let cleaning = t.elapsed();
    assert!(key < cleaning, "the key ({key:?}) did not wait for the cleaning ({cleaning:?})");
    let s = app.session().unwrap();
    assert!(s.preview.cleaning.is_none() && s.preview.removed > 0, "the accepted rule shows once cleaned");
    assert!(!screen(&app).contains("cleaning…"));
}

#[test]
fn a_preview_cleaning_overtaken_by_a_newer_key_is_never_shown() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    big_first_page(&mut app, 3 << 20);
    assert_eq!(app.session().unwrap().preview.removed, 0, "nothing accepted yet");
    // accept, then undo it at once: the accepting cleaning is overtaken before it is shown
    app.handle_key(key_event("a"));
    app.handle_key(key_event("u"));
    let t = Instant::now();
    loop {
        let s = app.session_mut().unwrap();
        s.preview.poll();
        assert_eq!(s.preview.removed, 0, "the overtaken cleaning (the rule accepted) was shown");
        if s.preview.cleaning.is_none() {
            break;
        }
        assert!(t.elapsed() < std::time::Duration::from_secs(600), "the latest cleaning never came back");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(!screen(&app).contains("cleaning…"), "{}", screen(&app));
}

#[test]
fn a_page_marked_verified_and_not_saved_is_offered_back_after_a_crash() {
    let fx = Fixture::sevendays();
    let settings = chaff::tui::Settings { watch: false, journal: true };
    let mut app = fx.app_with(settings, 120, 40);
    press(&mut app, "n Y");
    let id = app.session().unwrap().corpus.docs[1].id.clone();
    assert!(app.session().unwrap().draft.is_verified(&id));
    drop(app); // killed: nothing saved
    let mut app = fx.app_with(settings, 120, 40);
    let Mode::JournalPrompt(replay) = &app.mode else { panic!("unsaved work is offered back") };
    assert!(replay.summary().contains("1 page(s) marked or unmarked verified"), "{}", replay.summary());
    press(&mut app, "r");
    let s = app.session().unwrap();
    assert!(s.draft.is_verified(&id) && s.dirty, "the verified page is back, unsaved");
}

#[test]
fn a_decisions_late_impact_leaves_a_newer_message_and_adds_only_its_warnings() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(160, 48);
    // accept, then save before the impact of the accept arrives: the save's message stays
    app.handle_key(key_event("a"));
    app.handle_key(key_event("w"));
    let saved = app.message.clone().expect("the save says so").text;
    assert!(saved.starts_with("saved "), "{saved}");
    settle(&mut app);
    let m = app.message.clone().unwrap();
    assert_eq!(m.text, saved, "the accept's figures, arriving late, do not write over the save");
    assert!(!app.session().unwrap().jumps.is_empty(), "its most changed documents are still a key away");

    // with the page verified, the late decision's warning is added to the newer message
    press(&mut app, "Y");
    let id = app.session().unwrap().corpus.docs[0].id.clone();
    press(&mut app, "j");
    app.handle_key(key_event("a"));
    app.handle_key(key_event("w"));
    let saved = app.message.clone().unwrap().text;
    settle(&mut app);
    let m = app.message.clone().unwrap();
    assert!(m.error, "{m:?}");
    assert!(m.text.starts_with(&format!("{saved} · accepted `")), "{m:?}");
    assert!(m.text.contains(&format!("⚠ verified page {id} changes: −")), "{m:?}");
    assert!(!m.text.contains("docs change"), "only the warning is added: {m:?}");

    // a decision whose impact arrives before anything newer still says its figures
    press(&mut app, "j a");
    let m = app.message.clone().unwrap();
    assert!(m.text.starts_with("accepted `") && m.text.contains("docs change"), "{m:?}");
}

#[test]
fn a_cut_at_a_string_mined_as_a_line_of_its_own_says_it_cuts_only_where_it_is_one() {
    // the comments sample: its "Leave a reply | Powered by …" line stands alone on every page
    let dir = tempfile::tempdir().unwrap();
    chaff::generate::write_source(&chaff::generate::comments(40, 7), &dir.path().join("corpora")).unwrap();
    let fx = Fixture::at(dir);
    let mut app = fx.app_on("comments", 160, 48);
    let s = app.session().unwrap();
    let row = s.list.rows.iter().position(|&i| s.rule_action(i) == Action::Remove && s.draft.current_rule(i).own_line);
    for _ in 0..row.expect("a plain candidate mined as a line of its own") {
        press(&mut app, "j");
    }
    press(&mut app, "c");
    let Mode::ActionPrompt(a) = &app.mode else { panic!("a cut asks first") };
    assert!(a.measure.evidence.as_ref().is_some_and(|e| e.own_line), "{:?}", a.measure.evidence);
    let shown = screen(&app);
    assert!(shown.contains("a line of its own where mined"), "{shown}");
}

#[test]
fn e_on_a_line_where_a_filter_left_part_of_an_accepted_cuts_match_names_the_stage_and_the_cut() {
    // html_news: "«number» Related" is a footer string; on a page the number is the year ending the
    // article's last sentence, and stage sentence-tails leaves it to the article
    let fx = Fixture::html();
    let mut app = fx.app(160, 48);
    let s = app.session().unwrap();
    let tokens = ["«number»", "Related"];
    let row = s.list.rows.iter().position(|&i| s.draft.current_rule(i).tokens == tokens);
    for _ in 0..row.expect("the footer string is a candidate") {
        press(&mut app, "j");
    }
    let s = app.session().unwrap();
    let rule = s.list.rows[row.unwrap()];
    assert!(s.rule_action(rule).is_cut(), "mined as a cut: {:?}", s.rule_action(rule));
    let id = s.draft.current_rule(rule).id.clone();
    press(&mut app, "a");
    settle(&mut app);
    // a page whose article ends in a year, the line above the footer string's: the next documents
    // until one does (`n`), and the line cursor on it
    let mut found = None;
    for _ in 0..20 {
        let s = app.session().unwrap();
        let doc = s.document_text();
        let lines = s.preview_lines();
        found = (1..lines.len()).find(|&k| {
            let (a, b) = lines[k - 1];
            let last = doc[a..b].trim_end().rsplit(' ').next().unwrap_or_default();
            doc[lines[k].0..lines[k].1].starts_with("Related")
                && last.len() == 5
                && last.ends_with('.')
                && last.starts_with(|c: char| c.is_ascii_digit())
        });
        if found.is_some() {
            break;
        }
        press(&mut app, "n");
        settle(&mut app);
    }
    let s = app.session_mut().unwrap();
    s.preview.line = found.expect("a page whose article ends in a year") - 1;
    (s.preview.cursor, s.preview.kept) = (None, None);
    press(&mut app, "e");
    let Mode::Explain(x) = &app.mode else { panic!("e opens the explain list") };
    assert!(x.kept, "the line is kept");
    assert_eq!(
        x.items[..2],
        [ExplainItem::Stage(Stage::SentenceTails), ExplainItem::Rule { id, action: Action::CutAfter }],
        "the stage first, then the cut it left in place: {:?}",
        x.items
    );
    assert!(screen(&app).contains("stage sentence-tails"), "{}", screen(&app));
}

#[test]
fn the_first_accepted_rule_says_which_words_the_stages_it_starts_take_and_which_it_takes_itself() {
    let fx = Fixture::html();
    let mut app = fx.app_on("html_news", 200, 48);
    press(&mut app, "Enter");
    let Mode::Detail(d) = &app.mode else { panic!("Enter opens the detail") };
    let impacts = d.measure.impacts.clone().expect("measured");
    // nothing is accepted: whatever the decision, the stages start with it
    let split = impacts[0].stages_start.clone().expect("the first rule in force starts the stages");
    assert!(split.stages.removed() > 0, "{}", impacts[0].summary());
    let shown = screen(&app);
    let said =
        format!("no rule was in force, the stages start (theirs −{}), the decision's own", split.stages.removed());
    assert!(shown.contains(&said), "{shown}");
    // the status line says it of the decision made
    press(&mut app, "Esc a");
    let message = app.message.clone().expect("the status line says what it did").text;
    assert!(message.contains("the stages start (theirs"), "{message}");
    // once a rule is in force the next decision's words are its own
    press(&mut app, "j Enter");
    let Mode::Detail(d) = &app.mode else { panic!("Enter opens the detail") };
    let impacts = d.measure.impacts.clone().expect("measured");
    assert!(impacts.iter().all(|i| i.stages_start.is_none()), "{:?}", impacts[0].summary());
    let shown = screen(&app);
    let choices: Vec<&str> = shown.lines().filter(|l| l.contains("│accept") || l.contains("│reject")).collect();
    assert!(!choices.is_empty() && choices.iter().all(|l| !l.contains("the stages start")), "{shown}");
}

#[test]
fn a_decision_taken_in_the_detail_is_named_in_the_status_line_and_by_undo() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    // the detail's candidate, as the list names it
    press(&mut app, "j j j j j");
    let text = {
        let s = app.session().unwrap();
        s.text(s.list.current().unwrap()).to_string()
    };
    assert_eq!(text, "read more");
    press(&mut app, "Enter a");
    let said = app.message.clone().expect("the status line says what it did").text;
    assert!(said.starts_with("accepted `read more` · "), "named, with its impact after it: {said}");
    assert!(said.contains("docs change"), "{said}");
    press(&mut app, "r");
    assert!(app.message.clone().unwrap().text.starts_with("rejected `read more`"));
    press(&mut app, "Esc u");
    assert_eq!(
        app.message.clone().unwrap().text.split(" · ").next(),
        Some("undid rejecting `read more` (Ctrl-r redoes it)")
    );
    press(&mut app, "C-r");
    assert!(app.message.clone().unwrap().text.starts_with("redid rejecting `read more`"));
}

#[test]
fn the_quit_dialog_lists_a_page_marked_verified_since_the_save_beside_the_decisions() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let unsaved = |app: &App| app.session().unwrap().unsaved_work();
    press(&mut app, "Y q");
    assert!(matches!(app.mode, Mode::QuitPrompt), "a verified page is unsaved work: q asks");
    assert_eq!(unsaved(&app), ["page 0001 marked verified"]);
    let shown = screen(&app);
    assert!(shown.contains("Unsaved: page 0001 marked verified. Save them"), "{shown}");
    press(&mut app, "Esc a q");
    assert_eq!(unsaved(&app), ["1 decision(s) (1 accepted)", "page 0001 marked verified"]);
    let shown = screen(&app);
    assert!(shown.contains("Unsaved: 1 decision(s) (1 accepted); page 0001 marked"), "{shown}");
    // saved, then unmarked: that is unsaved too
    press(&mut app, "w Esc Y q");
    assert_eq!(unsaved(&app), ["page 0001 no longer verified"]);
    assert!(screen(&app).contains("Unsaved: page 0001 no longer verified."), "{}", screen(&app));
}

#[test]
fn a_cut_that_changes_nothing_on_the_page_in_view_says_it_matches_but_cuts_nothing_here() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let doc = |app: &App| app.session().unwrap().preview.doc;
    // `read more` as a cut-before: on the first page it stands inside a sentence, and the stages stop it
    press(&mut app, "j j j j j c");
    let Mode::ActionPrompt(a) = &app.mode else { panic!("c onto a cut asks first") };
    let impact = first_impact(&a.measure);
    assert!(impact.changed.iter().all(|d| d.index != doc(&app)), "the page in view does not change");
    let shown = screen(&app);
    assert!(shown.contains("This page (0001): it matches, but cuts nothing here."), "{shown}");
    assert!(!shown.contains("everything before it goes, on every page it matches"), "no claim that it cuts: {shown}");
    assert!(shown.contains(&chaff::tui::view::impact::summary(&impact)), "and the source-wide impact: {shown}");
    // a line of the page marked as template, then made a cut: the same
    press(&mut app, "Esc Tab Tab T c");
    let Mode::MarkPrompt(m) = &app.mode else { panic!("T asks first") };
    assert!(m.action.is_cut());
    let impact = first_impact(&m.measure);
    assert!(impact.changed.iter().all(|d| d.index != doc(&app)));
    assert!(screen(&app).contains("This page (0001): it matches, but cuts nothing here."), "{}", screen(&app));
    // a cut that does take words here says how many
    let fx = Fixture::html();
    let mut app = fx.app(120, 40);
    press(&mut app, "j c");
    let Mode::ActionPrompt(a) = &app.mode else { panic!("c onto a cut asks first") };
    let impact = first_impact(&a.measure);
    let here = impact.changed.iter().find(|d| d.index == doc(&app)).expect("the cut takes words of the page");
    let words = here.removed_inside + here.removed_outside;
    assert!(screen(&app).contains(&format!("This page (0001): −{words} words")), "{}", screen(&app));
}

#[test]
fn at_40x10_a_dialog_scrolls_its_body_and_keeps_its_key_hints_in_sight() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(40, 10);
    press(&mut app, "j c");
    assert!(matches!(app.mode, Mode::ActionPrompt(_)));
    let keys = ["y/Enter", "c ", "1/2/3/4/5", "n/q/Esc"];
    let first = screen(&app);
    for k in keys {
        assert!(first.contains(k), "the key {k} stays in sight: {first}");
    }
    assert!(first.contains("↑/↓ 1/"), "the border says the body scrolls: {first}");
    assert!(!first.contains("cuts nothing here"), "that is further down: {first}");
    // down to the end of the body, and no further; the keys stay
    for _ in 0..40 {
        press(&mut app, "Down");
    }
    let last = screen(&app);
    for k in keys {
        assert!(last.contains(k), "{last}");
    }
    let at_end = app.dialog_scroll;
    press(&mut app, "Down");
    assert_eq!(app.dialog_scroll, at_end, "clamped to the end");
    press(&mut app, "Up");
    assert_eq!(app.dialog_scroll, at_end - 1, "one key back up moves it");
    // another dialog opens at its top
    press(&mut app, "Esc a q");
    assert!(matches!(app.mode, Mode::QuitPrompt));
    assert_eq!(app.dialog_scroll, 0);
    let quit = screen(&app);
    for k in ["w ", "d ", "q/Esc/n"] {
        assert!(quit.contains(k), "{quit}");
    }
}
