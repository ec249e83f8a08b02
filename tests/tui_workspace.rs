//! The workspace: the sources table on a folder of sources, its sort and filter, the review queue (`n`
//! opens the next source to review, `D` marks one reviewed, `q` comes back), the review saved in the
//! rules file and read again. Key sequences on the real application state, and snapshots of the table.

mod tui_support;

// the regression suite's way of running the binary, shared
#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use chaff::generate;
use chaff::review::{Review, ReviewState, rules_hash};
use chaff::rules::RulesFile;
use chaff::tui::state::{Mode, Screen};
use chaff::tui::workspace::scan::RulesInfo;
use chaff::tui::workspace::wait_for_scan;
use chaff::tui::{App, Settings};
use tui_support::{Fixture, SEED, press, screen, type_text};

/// Four small sources of four templates (alpha: sevendays, beta: optional_parts, delta: comments,
/// gamma: html_news), no rules yet.
fn workspace() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("corpora");
    let sources = [
        ("alpha", generate::sevendays(30, SEED)),
        ("beta", generate::optional_parts(30, SEED)),
        ("delta", generate::comments(30, SEED)),
        ("gamma", generate::html_news(20, SEED)),
    ];
    for (name, mut s) in sources {
        s.name = name.into();
        generate::write_source(&s, &root).unwrap();
    }
    Fixture::at(dir)
}

fn settings() -> Settings {
    Settings { watch: false, journal: false }
}

/// The table on the fixture's sources, read and measured.
fn table(fx: &Fixture, w: u16, h: u16) -> App {
    let mut app = chaff::tui::open(&fx.options(&fx.root()), settings()).unwrap();
    app.resize(w, h);
    wait_for_scan(&mut app);
    app
}

/// One source opened on its own, every rule shown accepted, saved, and marked reviewed with `D`.
fn review_alone(fx: &Fixture, name: &str) {
    let mut app = chaff::tui::open(&fx.options(&fx.root().join(name)), settings()).unwrap();
    app.resize(120, 40);
    press(&mut app, "A D");
    assert!(!app.session().unwrap().dirty, "{}", screen(&app));
}

fn shown(app: &App) -> Vec<String> {
    let Screen::Picker(p) = &app.screen else { panic!("not on the sources table") };
    p.shown.iter().map(|&i| p.rows[i].name.clone()).collect()
}

fn selected(app: &App) -> String {
    let Screen::Picker(p) = &app.screen else { panic!("not on the sources table") };
    p.rows[p.selected_row().unwrap()].name.clone()
}

fn open_source(app: &App) -> Option<String> {
    app.session().map(|s| s.spec.name.clone())
}

fn message(app: &App) -> String {
    app.message.as_ref().map(|m| m.text.clone()).unwrap_or_default()
}

#[test]
fn the_table_lists_every_source_and_fills_in_its_counts_from_the_background() {
    let fx = workspace();
    review_alone(&fx, "alpha");
    let app = table(&fx, 120, 30);
    assert_eq!(shown(&app), ["alpha", "beta", "delta", "gamma"]);
    let text = screen(&app);
    let alpha = text.lines().find(|l| l.contains("alpha")).unwrap();
    assert!(alpha.contains(" 30 "), "documents counted: {alpha}");
    assert!(alpha.contains('%'), "the share removed is measured: {alpha}");
    assert!(alpha.contains("20"), "reviewed today shows its date: {alpha}");
    let beta = text.lines().find(|l| l.contains("beta")).unwrap();
    assert!(beta.contains("no rules yet") && beta.contains(" no "), "{beta}");
    assert!(text.contains("3 to review"), "{text}");
}

#[test]
fn the_table_counts_a_sources_verified_pages() {
    let fx = workspace();
    let mut app = chaff::tui::open(&fx.options(&fx.root().join("alpha")), settings()).unwrap();
    app.resize(120, 40);
    press(&mut app, "A Y w");
    assert_eq!(app.session().unwrap().draft.verified.pages.len(), 1, "{}", screen(&app));
    let app = table(&fx, 120, 30);
    let Screen::Picker(p) = &app.screen else { panic!("not on the sources table") };
    let verified = |name: &str| match &p.rows.iter().find(|r| r.name == name).unwrap().rules {
        Some(RulesInfo::Rules(summary)) => summary.verified,
        _ => None,
    };
    assert_eq!(verified("alpha"), Some(1), "its .verified.toml counted");
    assert_eq!(verified("beta"), None, "no rules file");
}

#[test]
fn s_cycles_the_sort_column_and_the_header_marks_it() {
    let fx = workspace();
    review_alone(&fx, "alpha");
    let mut app = table(&fx, 120, 30);
    press(&mut app, "s");
    // to review first: the unreviewed ones, then alpha, reviewed
    assert_eq!(shown(&app), ["beta", "delta", "gamma", "alpha"]);
    assert!(screen(&app).contains("reviewed▼"), "{}", screen(&app));
    press(&mut app, "s");
    // by documents: gamma holds 20, the others 30
    assert_eq!(shown(&app).last().unwrap(), "gamma");
    assert!(screen(&app).contains("docs▼"));
    press(&mut app, "s s s s");
    assert_eq!(shown(&app), ["alpha", "beta", "delta", "gamma"], "back to by name");
}

#[test]
fn slash_filters_the_sources_by_name_and_esc_clears_the_filter() {
    let fx = workspace();
    let mut app = table(&fx, 120, 30);
    press(&mut app, "/");
    type_text(&mut app, "ta");
    assert_eq!(shown(&app), ["beta", "delta"]);
    press(&mut app, "Enter");
    assert!(matches!(app.mode, Mode::Normal));
    assert!(screen(&app).contains("filter: ta"), "{}", screen(&app));
    assert!(message(&app).contains("2 of 4 sources shown"), "{}", message(&app));
    press(&mut app, "/ Esc");
    assert_eq!(shown(&app).len(), 4);
}

#[test]
fn n_opens_the_next_source_to_review_and_q_returns_to_the_table() {
    let fx = workspace();
    review_alone(&fx, "alpha");
    let mut app = table(&fx, 120, 30);
    assert_eq!(selected(&app), "alpha");
    press(&mut app, "n");
    app.wait_for_miner();
    assert_eq!(open_source(&app).as_deref(), Some("beta"), "alpha is reviewed: the queue skips it");
    press(&mut app, "q");
    assert!(!app.quit, "q in a source goes back to the table");
    assert_eq!(selected(&app), "beta");
    assert!(message(&app).contains("3 sources left to review"), "{}", message(&app));
    press(&mut app, "n");
    app.wait_for_miner();
    assert_eq!(open_source(&app).as_deref(), Some("delta"));
    press(&mut app, "q q");
    assert!(app.quit, "q on the table quits");
}

#[test]
fn d_in_a_source_marks_it_reviewed_in_its_rules_file_and_the_queue_moves_on() {
    let fx = workspace();
    let mut app = table(&fx, 120, 30);
    press(&mut app, "n");
    app.wait_for_miner();
    assert_eq!(open_source(&app).as_deref(), Some("beta"), "the cursor's own source comes last");
    press(&mut app, "A D");
    assert!(message(&app).contains("beta marked reviewed"), "{}", message(&app));
    assert!(message(&app).contains("3 sources left to review"), "{}", message(&app));
    let file = RulesFile::load(&fx.rules_dir().join("beta.toml")).unwrap();
    let review = file.review.clone().expect("a [review] table");
    assert!(review.reviewed_at.as_deref().is_some_and(|t| t.ends_with('Z') && t.len() == 20), "{review:?}");
    assert_eq!(review.accepted, file.count(chaff::rules::Status::Accepted));
    assert!(review.accepted > 0);
    assert_eq!(chaff::review::state(&file), ReviewState::Reviewed);
    press(&mut app, "q");
    wait_for_scan(&mut app);
    let text = screen(&app);
    let beta = text.lines().find(|l| l.contains("beta")).unwrap();
    assert!(beta.contains(&review.reviewed_at.unwrap()[..10]), "{beta}");
    // read again from disk: a new table knows beta is reviewed, and n passes it by
    let mut app = table(&fx, 120, 30);
    press(&mut app, "Down");
    assert_eq!(selected(&app), "beta");
    press(&mut app, "n");
    app.wait_for_miner();
    assert_eq!(open_source(&app).as_deref(), Some("delta"));
}

#[test]
fn q_with_unsaved_work_asks_and_then_returns_to_the_table_instead_of_quitting() {
    let fx = workspace();
    let mut app = table(&fx, 120, 30);
    press(&mut app, "Enter");
    app.wait_for_miner();
    assert_eq!(open_source(&app).as_deref(), Some("alpha"));
    press(&mut app, "a q");
    assert!(matches!(app.mode, Mode::QuitPrompt));
    assert!(screen(&app).contains("Back to the sources?"), "{}", screen(&app));
    press(&mut app, "Esc");
    assert!(app.session().is_some(), "Esc stays in the source");
    press(&mut app, "q d");
    assert!(!app.quit);
    assert!(matches!(app.screen, Screen::Picker(_)), "d discards and goes back to the table");
    assert!(!fx.rules_dir().join("alpha.toml").exists(), "discarded: nothing written");
    press(&mut app, "Enter");
    app.wait_for_miner();
    press(&mut app, "a q w");
    assert!(matches!(app.screen, Screen::Picker(_)), "w saves and goes back to the table");
    assert!(fx.rules_dir().join("alpha.toml").exists());
}

#[test]
fn a_reviewed_source_that_drifted_is_back_in_the_queue() {
    let fx = workspace();
    for name in ["alpha", "beta", "delta", "gamma"] {
        review_alone(&fx, name);
    }
    let mut app = table(&fx, 120, 30);
    press(&mut app, "n");
    assert!(app.session().is_none() && message(&app).contains("queue is empty"), "{}", message(&app));
    // delta's site changed its template: its pages are another site's now
    let delta = fx.root().join("delta");
    std::fs::remove_dir_all(&delta).unwrap();
    let mut other = generate::sevendays(30, SEED + 1);
    other.name = "delta".into();
    generate::write_source(&other, &fx.root()).unwrap();
    let mut app = table(&fx, 120, 30);
    let text = screen(&app);
    let row = text.lines().find(|l| l.contains("delta")).unwrap();
    assert!(row.contains('!'), "drift past the threshold is flagged: {row}");
    assert!(text.contains("1 to review"), "{text}");
    press(&mut app, "n");
    app.wait_for_miner();
    assert_eq!(open_source(&app).as_deref(), Some("delta"));
}

#[test]
fn a_rules_file_written_before_reviews_existed_opens_as_unreviewed() {
    let fx = workspace();
    review_alone(&fx, "alpha");
    let path = fx.rules_dir().join("alpha.toml");
    let mut file = RulesFile::load(&path).unwrap();
    file.review = None;
    file.save(&path).unwrap();
    assert!(!std::fs::read_to_string(&path).unwrap().contains("[review]"));
    let app = table(&fx, 120, 30);
    let text = screen(&app);
    let alpha = text.lines().find(|l| l.contains("alpha")).unwrap();
    assert!(alpha.contains(" no "), "{alpha}");
    assert!(text.contains("4 to review"), "{text}");
}

/// alpha reviewed on a fixed day (so the snapshot does not change with the date), beta with accepted
/// rules not reviewed, delta with the automatic rules (pending), gamma with no rules.
fn fixed_reviews(fx: &Fixture) {
    review_alone(fx, "alpha");
    review_alone(fx, "beta");
    let mut app = chaff::tui::open(&fx.options(&fx.root().join("delta")), settings()).unwrap();
    press(&mut app, "w");
    for (name, review) in [("alpha", true), ("beta", false)] {
        let path = fx.rules_dir().join(format!("{name}.toml"));
        let mut file = RulesFile::load(&path).unwrap();
        file.review = review.then(|| Review {
            reviewed_at: Some("2026-11-20T09:00:00Z".into()),
            accepted: file.count(chaff::rules::Status::Accepted),
            rules: rules_hash(&file),
            drift: Some(0.0),
            checked_at: Some("2026-11-20T09:00:00Z".into()),
        });
        file.save(&path).unwrap();
    }
}

#[test]
fn sources_table_snapshots() {
    let fx = workspace();
    fixed_reviews(&fx);
    for (w, h) in [(80, 24), (120, 30)] {
        let mut app = table(&fx, w, h);
        insta::assert_snapshot!(format!("sources_table_{w}x{h}"), screen(&app));
        press(&mut app, "s");
        insta::assert_snapshot!(format!("sources_table_by_review_{w}x{h}"), screen(&app));
    }
}

#[test]
fn help_on_the_table_lists_the_queue_keys() {
    let fx = workspace();
    let mut app = table(&fx, 120, 40);
    press(&mut app, "?");
    let help = chaff::tui::view::help::text(116);
    for key in ["next-to-review", "mark-reviewed", "Sources table"] {
        assert!(help.contains(key), "the help lists {key}");
    }
    assert!(matches!(app.mode, Mode::Help { .. }));
}

#[test]
fn tune_takes_the_rules_folder_first_and_the_sources_with_corpus() {
    let fx = workspace();
    let chaff = |args: &[&std::ffi::OsStr]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_chaff"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let (rules, root) = (fx.rules_dir().into_os_string(), fx.root().into_os_string());
    // no terminal here: it gets as far as opening the sources, then says it needs one
    let out = chaff(&["tune".as_ref(), rules.as_ref(), "--corpus".as_ref(), root.as_ref()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("opening {}", fx.root().display())), "{err}");
    assert!(err.contains("interactive terminal"), "{err}");
    assert!(
        out.stdout.is_empty(),
        "no terminal's escape codes into a pipe: {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = chaff(&[
        "tune".as_ref(),
        rules.as_ref(),
        "--corpus".as_ref(),
        root.as_ref(),
        "--rules-dir".as_ref(),
        "x".as_ref(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("the rules folder is given twice"), "{err}");
}

#[test]
fn a_review_saved_by_another_editor_survives_this_editors_later_saves() {
    let fx = workspace();
    let alone = || {
        let mut app = chaff::tui::open(&fx.options(&fx.root().join("alpha")), settings()).unwrap();
        app.resize(120, 40);
        app
    };
    let mut mine = alone();
    press(&mut mine, "w a");
    // meanwhile another editor marks the source reviewed, deciding nothing: no decision to merge in
    let mut theirs = alone();
    press(&mut theirs, "D");
    let reviewed = RulesFile::load(&fx.rules_dir().join("alpha.toml")).unwrap().review;
    assert!(reviewed.is_some());
    press(&mut mine, "w");
    let path = fx.rules_dir().join("alpha.toml");
    assert_eq!(RulesFile::load(&path).unwrap().review, reviewed, "merged in: the review is theirs");
    press(&mut mine, "j r w");
    assert_eq!(RulesFile::load(&path).unwrap().review, reviewed, "a later save keeps it");
}

#[test]
fn mining_the_source_again_keeps_its_review() {
    let fx = workspace();
    review_alone(&fx, "alpha");
    let path = fx.rules_dir().join("alpha.toml");
    let before = RulesFile::load(&path).unwrap();
    assert!(before.review.is_some());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args([
            "mine".as_ref(),
            fx.root().join("alpha").as_os_str(),
            "--rules-dir".as_ref(),
            fx.rules_dir().as_os_str(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let after = RulesFile::load(&path).unwrap();
    assert_eq!(after.review, before.review);
    assert_eq!(chaff::review::state(&after), ReviewState::Reviewed, "the same accepted rules: still reviewed");
}

#[test]
fn the_event_loops_tick_fills_the_table_in() {
    let fx = workspace();
    let mut app = chaff::tui::open(&fx.options(&fx.root()), settings()).unwrap();
    app.resize(120, 30);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut redraws = 0;
    while !screen(&app).contains("4 shown, 4 to review · sorted by name ─") && std::time::Instant::now() < deadline {
        redraws += usize::from(app.tick());
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(redraws > 0, "tick reported the rows read");
    let text = screen(&app);
    assert!(!text.contains("reading"), "{text}");
    assert!(text.lines().any(|l| l.contains("alpha") && l.contains(" 30 ")), "{text}");
}

/// The ids of the strings flagged as idioms in the open source.
fn idiom_ids(app: &App) -> Vec<String> {
    let s = app.session().unwrap();
    let mut ids: Vec<String> = s.mining.strings.iter().filter(|m| m.idiom).map(|m| m.id.clone()).collect();
    ids.sort();
    ids
}

#[test]
fn a_source_opened_from_the_table_flags_the_idioms_it_flags_opened_alone() {
    let fx = workspace();
    // beta and delta have alpha's candidates (their rules files are alpha's, renamed); alpha has none
    review_alone(&fx, "alpha");
    let alpha = fx.rules_dir().join("alpha.toml");
    let mut file = RulesFile::load(&alpha).unwrap();
    for name in ["beta", "delta"] {
        file.source = name.into();
        file.save(&fx.rules_dir().join(format!("{name}.toml"))).unwrap();
    }
    std::fs::remove_file(&alpha).unwrap();
    let mut alone = chaff::tui::open(&fx.options(&fx.root().join("alpha")), settings()).unwrap();
    alone.resize(120, 40);
    let expected = idiom_ids(&alone);
    assert!(!expected.is_empty(), "candidates of two other sources are idioms");
    // from the table, counted from the rules files the table has read
    let mut app = table(&fx, 120, 30);
    assert!(matches!(&app.screen, Screen::Picker(p) if p.idioms_for(0).is_some()));
    press(&mut app, "Enter");
    app.wait_for_miner();
    assert_eq!(open_source(&app).as_deref(), Some("alpha"));
    assert_eq!(idiom_ids(&app), expected);
}

/// The ids of a rules file's rules flagged as idioms, and of those it rejects.
fn idioms_and_rejections(file: &RulesFile) -> (Vec<String>, Vec<String>) {
    let ids = |keep: &dyn Fn(&chaff::rules::Rule) -> bool| {
        let mut ids: Vec<String> = file.rules.iter().filter(|r| keep(r)).map(|r| r.id.clone()).collect();
        ids.sort();
        ids
    };
    (ids(&|r| r.idiom), ids(&|r| r.status == chaff::rules::Status::Rejected))
}

#[test]
fn a_new_source_mined_with_one_other_rules_file_flags_what_chaff_mine_flags() {
    let fx = Fixture::sevendays();
    // the other source: sevendays, mined; the new one ten of its pages, so they share every template string
    let o = run::chaff(&["mine", "corpora/sevendays", "--rules-dir", "rules"], fx.dir.path());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let odd = fx.root().join("odd");
    std::fs::create_dir_all(&odd).unwrap();
    for i in 1..=10 {
        let name = format!("{i:04}.txt");
        std::fs::copy(fx.corpus().join(&name), odd.join(&name)).unwrap();
    }
    let o = run::chaff(&["mine", "corpora/odd", "--rules-dir", "alone"], fx.dir.path());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mined = idioms_and_rejections(&RulesFile::load(&fx.dir.path().join("alone/odd.toml")).unwrap());
    assert!(!mined.0.is_empty(), "the source's own idioms are flagged");
    let app = fx.app_on("odd", 120, 40);
    let tuned = idioms_and_rejections(&app.session().unwrap().rules_file());
    assert_eq!(tuned, mined, "one other source is under the threshold of {}", chaff::cross_source::DEFAULT_MIN_SOURCES);
}

/// A crawl of four generated sites × six pages, written as WARC.gz and as JSON Lines (no folders).
fn crawl_fixture() -> (Fixture, chaff::generate::crawl::CrawlFiles) {
    let dir = tempfile::tempdir().unwrap();
    let files = chaff::generate::crawl::write_crawl(&dir.path().join("crawl"), 4, 6, SEED, false).unwrap();
    (Fixture::at(dir), files)
}

/// The table opened on a crawl file, its sources read from the crawl's spool: the same keys as on a
/// folder of sources (`n` opens the next to review, `A D` marks it reviewed in its rules file, `q` comes
/// back, the row read again).
fn the_table_on_a_crawl_file(crawl: &std::path::Path, fx: &Fixture) {
    let mut app = chaff::tui::open(&fx.options(crawl), settings()).unwrap();
    app.resize(120, 30);
    wait_for_scan(&mut app);
    let names: Vec<String> = (0..4).map(chaff::generate::crawl::site_source).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(shown(&app), sorted, "a row per host, by name");
    let text = screen(&app);
    for name in &names {
        let row = text.lines().find(|l| l.contains(name.as_str())).unwrap();
        assert!(row.contains(" 6 ") && row.contains("no rules yet"), "documents counted from the spool: {row}");
    }
    press(&mut app, "n");
    app.wait_for_miner();
    let opened = open_source(&app).expect("a source opens from the crawl");
    assert_eq!(opened, sorted[1], "the cursor's own source comes last");
    let session = app.session().unwrap();
    assert_eq!(session.corpus.docs.len(), 6, "its pages, read back from the spool");
    let page = &session.corpus.docs[0].text;
    assert!(page.contains("Read the ") && !page.contains("<p>"), "read as its page view: {page}");
    press(&mut app, "A D");
    assert!(message(&app).contains(&format!("{opened} marked reviewed")), "{}", message(&app));
    let file = RulesFile::load(&fx.rules_dir().join(format!("{opened}.toml"))).unwrap();
    assert_eq!(chaff::review::state(&file), ReviewState::Reviewed);
    press(&mut app, "q");
    assert!(matches!(app.screen, Screen::Picker(_)), "q goes back to the table");
    wait_for_scan(&mut app);
    let text = screen(&app);
    let row = text.lines().find(|l| l.contains(opened.as_str())).unwrap();
    assert!(row.contains('%') && !row.contains("no rules yet"), "measured from the spool with its rules: {row}");
    assert!(text.contains("3 to review"), "{text}");
    press(&mut app, "n");
    app.wait_for_miner();
    assert_eq!(open_source(&app).as_deref(), Some(sorted[2].as_str()));
}

#[test]
fn a_warc_gz_crawl_opens_as_a_sources_table_and_a_source_opens_from_the_spool() {
    let (fx, files) = crawl_fixture();
    the_table_on_a_crawl_file(&files.warc, &fx);
}

#[test]
fn a_json_lines_crawl_opens_as_a_sources_table_and_a_source_opens_from_the_spool() {
    let (fx, files) = crawl_fixture();
    the_table_on_a_crawl_file(&files.jsonl, &fx);
}

#[test]
fn json_lines_of_one_source_still_open_that_source_directly() {
    let dir = tempfile::tempdir().unwrap();
    let fx = Fixture::at(dir);
    let path = fx.dir.path().join("one.jsonl");
    let lines: Vec<String> = (0..6)
        .map(|i| format!("{{\"id\": {i}, \"url\": \"https://one.example/{i}\", \"text\": \"Menu Home About\\nstory {i} body text here\\nFooter words\"}}"))
        .collect();
    std::fs::write(&path, lines.join("\n")).unwrap();
    let app = chaff::tui::open(&fx.options(&path), settings()).unwrap();
    assert!(app.session().is_some(), "one source: no table");
}

/// The sources table on a crawl of 1,000 sites × 20 pages, a benchmark (figures, not pass/fail):
/// `cargo test --release --test tui_workspace -- --ignored --nocapture crawl_bench`.
#[test]
#[ignore = "a benchmark: run it in release with --ignored --nocapture"]
fn the_sources_table_on_a_crawl_of_a_thousand_sites_crawl_bench() {
    print!("{}", chaff::tui::workspace::bench::bench_workspace_crawl(1000, 20));
}
