//! Regressions of the tuning UI's preview, candidate list, small terminals and big input: the line cursor,
//! search, stops on kept text, word-snapped drags, explicit decisions over stages, the work a key costs.

use super::tui::tui_support::{Fixture, press, screen, type_text};
use chaff::tui::App;
use chaff::tui::state::Mode;
use ratatui::crossterm::event::{Event, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

/// The preview's visual lines (byte ranges of the document).
fn lines(app: &App) -> Vec<(usize, usize)> {
    app.session().unwrap().preview_lines().to_vec()
}

/// The source line (between newlines) holding byte `at` of the shown document.
fn source_line(app: &App, at: usize) -> (usize, usize) {
    let text = app.session().unwrap().document_text();
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (start, text[at..].find('\n').map_or(text.len(), |i| at + i))
}

#[test]
fn t_marks_the_preview_cursor_line_and_end_moves_the_cursor_to_the_last_line() {
    let fx = Fixture::html();
    let mut app = fx.app_on("html_news", 80, 24);
    press(&mut app, "Tab Tab End");
    let n = lines(&app).len();
    let s = app.session().unwrap();
    assert!(n > s.preview_height, "the page is longer than the pane");
    assert_eq!(s.preview.line, n - 1, "End puts the line cursor on the last line");
    assert!(s.preview.scroll > 0, "and scrolls to it");
    let last = lines(&app)[n - 1];
    press(&mut app, "T");
    let Mode::MarkPrompt(m) = &app.mode else { panic!("T asks first") };
    assert_eq!((m.start, m.end), source_line(&app, last.0), "the cursor's line, not the top line");
    press(&mut app, "n Home");
    let s = app.session().unwrap();
    assert_eq!((s.preview.line, s.preview.scroll), (0, 0), "Home: the first line");
    // the cursor line, not the top one: down three lines with nothing scrolled
    press(&mut app, "j j j T");
    let Mode::MarkPrompt(m) = &app.mode else { panic!("T asks first") };
    assert_eq!((m.start, m.end), source_line(&app, lines(&app)[3].0));
    assert!(screen(&app).contains('▸'), "the cursor line is marked on screen");
}

#[test]
fn v_keeps_the_preview_line_cursor_where_it_was() {
    let fx = Fixture::html();
    let mut app = fx.app_on("html_news", 80, 24);
    press(&mut app, "Tab Tab j j j v");
    assert_eq!(app.session().unwrap().preview.line, 3, "v does not jump back to the top");
    press(&mut app, "v");
    assert_eq!(app.session().unwrap().preview.line, 3);
}

#[test]
fn slash_searches_the_preview_and_n_and_shift_n_find_the_next_and_previous_line() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(80, 24);
    // a word the first document holds more than once, on different visual lines
    let text = app.session().unwrap().document_text().to_string();
    let word = "read more";
    let hits: Vec<usize> = text.match_indices(word).map(|(i, _)| i).collect();
    let all = lines(&app);
    let hit_lines: Vec<usize> = hits.iter().map(|&i| chaff::tui::document::line_of(&all, i)).collect();
    assert!(hit_lines.first() != hit_lines.last(), "the fixture has the text on two lines: {hit_lines:?}");
    press(&mut app, "Tab Tab /");
    assert!(matches!(app.mode, Mode::Search(_)), "/ in the preview searches");
    type_text(&mut app, "READ MORE");
    press(&mut app, "Enter");
    assert_eq!(app.session().unwrap().preview.line, hit_lines[0], "case is ignored; the first line holding it");
    press(&mut app, "n");
    let second = hit_lines.iter().copied().find(|&l| l > hit_lines[0]).unwrap();
    assert_eq!(app.session().unwrap().preview.line, second, "n: the next line holding it");
    press(&mut app, "N");
    assert_eq!(app.session().unwrap().preview.line, hit_lines[0], "N: the previous one");
    assert_eq!(app.session().unwrap().preview.doc, 0, "n searched, it did not change the document");
}

#[test]
fn brackets_stop_on_kept_text_and_e_says_why_it_is_kept() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    // every rule accepted: the document is removed spans with the article kept between them
    press(&mut app, "A Tab Tab");
    let mut kept = None;
    for _ in 0..12 {
        press(&mut app, "]");
        if let Some(k) = app.session().unwrap().preview.kept {
            kept = Some(k);
            break;
        }
    }
    let (a, b) = kept.expect("] stops on the kept text between removed spans");
    let s = app.session().unwrap();
    assert!(s.preview.cursor.is_none());
    assert!(s.preview.spans.iter().all(|sp| sp.end <= a || sp.start >= b), "kept: no span inside it");
    assert!(screen(&app).contains("kept:"), "{}", screen(&app));
    press(&mut app, "e");
    let Mode::Explain(x) = &app.mode else { panic!("e explains kept text too") };
    assert!(x.kept && (x.start, x.end) == (a, b));
    assert!(screen(&app).contains("Why this text is kept"), "{}", screen(&app));
    press(&mut app, "Esc [");
    let s = app.session().unwrap();
    assert!(s.preview.cursor.is_some_and(|c| s.preview.spans[c].end <= a), "[ back to the span before it");
}

#[test]
fn a_mouse_drag_snaps_to_whole_words() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let areas = chaff::tui::view::layout(app.size, false);
    let mouse = |kind, column, row| MouseEvent { kind, column, row, modifiers: KeyModifiers::NONE };
    let (x, y) = (areas.preview.x + 1, areas.preview.y + 1);
    // from inside the first line's second word to inside a later word
    let text = app.session().unwrap().document_text().to_string();
    let second = text.find(' ').unwrap() + 1;
    let from = second + 1;
    let to = from + 12;
    assert!(!text[from..from + 1].trim().is_empty() && !text[to..to + 1].trim().is_empty());
    let col = |i: usize| x + text[..i].chars().count() as u16;
    app.handle_mouse(mouse(MouseEventKind::Down(MouseButton::Left), col(from), y));
    app.handle_mouse(mouse(MouseEventKind::Drag(MouseButton::Left), col(to), y));
    let (start, end) = app.session().unwrap().preview.selected().expect("the drag selects");
    assert_eq!(start, second, "the selection starts at its word's start");
    let after = text[end..].chars().next();
    assert!(after.is_none_or(char::is_whitespace), "and ends at a word's end: {:?}", &text[start..end]);
    press(&mut app, "T");
    let Mode::MarkPrompt(m) = &app.mode else { panic!("T asks first") };
    assert!(m.documents.is_some_and(|d| d >= 1), "the rule matches the document it was made on");
}

#[test]
fn a_line_marked_as_template_stays_removed_though_a_stage_would_give_it_back() {
    let fx = Fixture::html();
    let mut app = fx.app_on("html_news", 120, 40);
    // whatever the stages give back of the first page (the title, a headline, a dateline): mark it
    press(&mut app, "A Tab Tab");
    let mut found = None;
    for _ in 0..60 {
        let s = app.session().unwrap();
        let text = s.document_text().to_string();
        let Some(c) = s.preview.accepted_cleaner.as_ref() else { panic!("accepted rules") };
        let given =
            c.explain(&text).decisions.into_iter().find(|d| !d.removed && !text[d.start..d.end].trim().is_empty());
        if let Some(g) = given {
            found = Some((text, g));
            break;
        }
        press(&mut app, "n");
    }
    let Some((text, given)) = found else { panic!("a stage gives something back on a page of the fixture") };
    let at = text[given.start..].find(|c: char| !c.is_whitespace()).unwrap() + given.start;
    let line = chaff::tui::document::line_of(&lines(&app), at);
    for _ in 0..line {
        press(&mut app, "j");
    }
    assert_eq!(app.session().unwrap().preview.line, line);
    press(&mut app, "T y");
    assert!(app.message.as_ref().unwrap().text.contains("template now"), "{:?}", app.message);
    let s = app.session().unwrap();
    let accepted = |sp: &&chaff::tui::document::PreviewSpan| matches!(sp.mark, chaff::tui::document::Mark::Accepted(_));
    let removed = |p: usize| s.preview.spans.iter().filter(accepted).any(|sp| sp.start <= p && p < sp.end);
    assert!(removed(at), "the editor said template: no stage gives it back ({:?})", &text[given.start..given.end]);
    // saved as hers: `chaff clean` of the file decides as the preview shows
    let id = s.decisions.values().find(|r| r.editor).expect("the marked rule is the editor's").id.clone();
    press(&mut app, "w");
    let saved = chaff::rules::RulesFile::load(&fx.rules_dir().join("html_news.toml")).unwrap();
    assert!(saved.rules.iter().any(|r| r.id == id && r.editor && r.status == chaff::rules::Status::Accepted));
}

#[test]
fn space_on_the_last_candidate_then_j_and_space_leaves_it_marked() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "End Space");
    let s = app.session().unwrap();
    let id = s.string(s.list.current().unwrap()).id.clone();
    assert!(s.list.marks.contains(&id));
    press(&mut app, "j Space");
    assert!(app.session().unwrap().list.marks.contains(&id), "the second Space does not unmark what it just marked");
    press(&mut app, "Space");
    assert!(!app.session().unwrap().list.marks.contains(&id), "a third one does");
}

#[test]
fn the_help_says_c_cycles_to_keep_and_the_preview_has_a_colour_legend() {
    let c = chaff::tui::keymap::BINDINGS.iter().find(|b| b.action == chaff::tui::action::Action::CycleRuleAction);
    assert!(c.unwrap().desc.contains("keep"));
    let fx = Fixture::sevendays();
    let app = fx.app(80, 24);
    assert!(screen(&app).contains("removed cut pending"), "{}", screen(&app));
    let all = chaff::tui::view::help::text(118);
    assert!(all.contains("red") && all.contains("magenta") && all.contains("underlined"), "{all}");
}

#[test]
fn a_paste_into_a_patterns_name_is_one_edit_checked_once() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(80, 24);
    press(&mut app, "Tab n");
    assert!(matches!(app.mode, Mode::EditPattern(_)));
    let name: String = "n".repeat(10_000);
    let before = chaff::tui::update::validations();
    app.handle_event(&Event::Paste(name.clone()));
    assert_eq!(chaff::tui::update::validations() - before, 1, "a paste is one edit, checked once");
    let Mode::EditPattern(edit) = &app.mode else { panic!("still editing") };
    assert_eq!(edit.name.value(), name);
    assert!(edit.error.is_some(), "a pattern needs a regex: checked");
}

#[test]
fn a_pasted_regex_is_one_edit_and_draws_what_fits() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(80, 24);
    press(&mut app, "E C-u");
    let regex = format!("(?:{})", (0..1_000).map(|i| format!("w{i}")).collect::<Vec<_>>().join("|"));
    assert!(regex.len() > 4_000);
    app.handle_event(&Event::Paste(regex.clone()));
    let Mode::EditRegex(edit) = &app.mode else { panic!("still editing") };
    assert_eq!(edit.input.value(), regex);
    let shown = screen(&app);
    assert!(shown.lines().all(|l| l.chars().count() <= 80));
    assert!(shown.contains("|w999)"), "the end, where the cursor is, shows: {shown}");
}

#[test]
fn keys_in_the_preview_lay_the_document_out_once() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(80, 24);
    press(&mut app, "Tab Tab");
    let _ = screen(&app);
    let before = chaff::tui::document::wraps();
    for _ in 0..20 {
        press(&mut app, "j");
        let _ = screen(&app);
    }
    press(&mut app, "End Home ] [");
    let _ = screen(&app);
    assert!(chaff::tui::document::wraps() - before <= 1, "{} layouts", chaff::tui::document::wraps() - before);
}

#[test]
fn a_60x15_terminal_lists_candidates_and_overlays_leave_the_preview_and_the_pickers_frame() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(60, 15);
    let s = app.session().unwrap();
    let first = s.text(s.list.rows[0]).chars().take(12).collect::<String>();
    assert!(screen(&app).contains(&first), "a candidate row shows at 60×15:\n{}", screen(&app));
    assert!(s.page >= 3, "{} rows", s.page);
    // the stages popup covers the candidates, not the preview that follows it live
    let preview = chaff::tui::view::layout(app.size, false).preview;
    let before: Vec<String> = screen(&app).lines().map(|l| l.chars().skip(preview.x as usize).collect()).collect();
    press(&mut app, "S");
    let after: Vec<String> = screen(&app).lines().map(|l| l.chars().skip(preview.x as usize).collect()).collect();
    let rows = preview.y as usize..(preview.y + preview.height) as usize;
    assert_eq!(before[rows.clone()], after[rows], "the preview shows beside the stages popup");
    // the picker's help stays inside its frame: the frame's bottom edge and the hint under it show
    let fx = Fixture::several();
    let mut app =
        chaff::tui::open(&fx.options(&fx.root()), chaff::tui::Settings { watch: false, journal: false }).unwrap();
    app.resize(80, 24);
    let before = screen(&app);
    press(&mut app, "?");
    let after = screen(&app);
    let list = chaff::tui::view::picker::list_area(app.size);
    let edge = (list.y + list.height - 1) as usize;
    for row in [edge, edge + 1] {
        assert_eq!(before.lines().nth(row), after.lines().nth(row), "row {row}:\n{after}");
    }
}

/// Selects three words of the fifth line of the previewed article (from its second word): text no
/// mined candidate holds.
fn select_three_words_of_an_article_line(app: &mut App) {
    press(app, "Tab Tab j j j j");
    let (line_start, _) = lines(app)[4];
    let s = app.session_mut().unwrap();
    let first = s.document_text()[line_start..].find(char::is_whitespace).unwrap() + line_start + 1;
    s.preview.selection = Some((first, first));
    press(app, "> > >");
}

/// The candidate list's ids, in order.
fn listed(app: &App) -> Vec<String> {
    let s = app.session().unwrap();
    s.list.rows.iter().map(|&i| s.string(i).id.clone()).collect()
}

#[test]
fn a_line_marked_as_template_is_listed_found_by_the_filter_and_removed_from_the_list() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    // a line of the article: no candidate holds it
    select_three_words_of_an_article_line(&mut app);
    let s = app.session().unwrap();
    let (start, end) = s.preview.selected().unwrap();
    let words = s.document_text()[start..end].to_string();
    press(&mut app, "T y");
    let s = app.session().unwrap();
    let rule = s.decisions.values().find(|r| r.status == chaff::rules::Status::Accepted).unwrap().clone();
    assert_eq!(rule.df, 0, "no candidate: {words:?}");
    assert_eq!(rule.tokens.len(), 3, "{words:?}");
    assert!(listed(&app).contains(&rule.id), "the editor's rule is listed with the candidates");
    // the filter finds it
    let word = rule.tokens.last().unwrap().clone();
    press(&mut app, "Tab /");
    type_text(&mut app, &word);
    press(&mut app, "Enter");
    assert!(listed(&app).contains(&rule.id), "/{word} finds it");
    assert!(screen(&app).contains("[mine]"), "{}", screen(&app));
    press(&mut app, "Esc M");
    assert_eq!(listed(&app), [rule.id.as_str()], "M lists the rules made by the editor");
    // rejected like any rule, then removed (back to pending: an editor's rule is then no rule)
    press(&mut app, "r");
    assert_eq!(app.session().unwrap().decisions[&rule.id].status, chaff::rules::Status::Rejected);
    press(&mut app, "Backspace");
    assert!(!app.session().unwrap().decisions.contains_key(&rule.id));
    assert!(listed(&app).is_empty(), "removed from the list");
}

#[test]
fn a_stale_decided_rule_is_listed_with_its_status() {
    use chaff::mutable::MutableSet;
    use chaff::rules::{Action, Rule, RulesFile, Status};
    use chaff::symbol::Symbol;
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "w");
    let mut file = RulesFile::load(&fx.rules()).unwrap();
    let symbols: Vec<Symbol> = "No longer printed".split(' ').map(Symbol::decode).collect();
    let mut gone =
        Rule::accepted("gone1", &symbols, Action::CutAfter, file.tokenizer, &MutableSet::defaults()).unwrap();
    (gone.df, gone.tf, gone.bin, gone.stale) = (90, 90, 75, true);
    file.rules.push(gone);
    file.save(&fx.rules()).unwrap();
    let app = fx.app(120, 40);
    assert!(listed(&app).contains(&"gone1".to_string()), "a stale rule is listed");
    let s = app.session().unwrap();
    let i = s.position("gone1").unwrap();
    assert_eq!((s.status(i), s.rule_action(i)), (Status::Accepted, Action::CutAfter));
    assert!(screen(&app).contains("[stale]"), "{}", screen(&app));
    let saved = s.rules_file();
    assert!(saved.rules.iter().any(|r| r.id == "gone1" && r.stale), "saved stale, as it was");
    // set back to a pending removal (c cycles cut-after, keep, remove), it is dropped as before: no mining
    // found it
    let mut app = app;
    let pos = app.session().unwrap().list.rows.iter().position(|&r| r == i).unwrap();
    app.session_mut().unwrap().list.select(pos);
    press(&mut app, "c c Backspace");
    assert!(!listed(&app).contains(&"gone1".to_string()));
    assert!(app.session().unwrap().rules_file().rules.iter().all(|r| r.id != "gone1"));
}

#[test]
fn going_to_a_shorter_document_keeps_the_line_cursor_on_a_line() {
    let fx = Fixture::html();
    let mut app = fx.app_on("html_news", 80, 24);
    let s = app.session().unwrap();
    let shortest = (0..s.corpus.docs.len()).min_by_key(|&d| s.corpus.docs[d].text.len()).unwrap();
    let longest = (0..s.corpus.docs.len()).max_by_key(|&d| s.corpus.docs[d].text.len()).unwrap();
    press(&mut app, "g");
    type_text(&mut app, &(longest + 1).to_string());
    press(&mut app, "Enter Tab Tab End g");
    type_text(&mut app, &(shortest + 1).to_string());
    press(&mut app, "Enter");
    assert_eq!(app.session().unwrap().preview.doc, shortest);
    assert!(app.session().unwrap().preview.line < lines(&app).len());
    press(&mut app, "T");
    assert!(matches!(app.mode, Mode::MarkPrompt(_)), "T marks a line of the document shown");
}

#[test]
fn an_editors_rule_opens_its_detail_with_what_each_decision_would_change() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    // three words of an article line, marked as template: a rule of the editor's, no mined candidate
    select_three_words_of_an_article_line(&mut app);
    press(&mut app, "T y Tab M");
    let id = app.session().unwrap().decisions.values().find(|r| r.editor).expect("the editor's rule").id.clone();
    assert_eq!(listed(&app), [id.as_str()]);
    press(&mut app, "Enter");
    let Mode::Detail(d) = &app.mode else { panic!("Enter opens the editor's rule's detail") };
    let impacts = d.measure.impacts.clone().expect("measured");
    assert_eq!(impacts.len(), d.choices.len(), "one impact a choice");
    assert!(impacts.iter().any(|i| !i.changed.is_empty()), "a decision on it changes the page it was made on");
    assert!(screen(&app).contains("What each decision would change"), "{}", screen(&app));
}
