//! Snapshots of the tuning UI's screens on a `TestBackend`, at 80×24 and 160×48, on a generated corpus
//! with a fixed seed. Review changes like code (`cargo insta review`, or read the .snap files).

mod tui_support;

use tui_support::{Fixture, press, screen};

const SIZES: [(u16, u16); 2] = [(80, 24), (160, 48)];

#[test]
fn main_screen() {
    let fx = Fixture::sevendays();
    for (w, h) in SIZES {
        let mut app = fx.app(w, h);
        // one accepted, one rejected, the preview cursor on a span: every kind of mark shows
        press(&mut app, "a j r ]");
        insta::assert_snapshot!(format!("main_{w}x{h}"), screen(&app));
    }
}

#[test]
fn detail_view() {
    let fx = Fixture::sevendays();
    for (w, h) in SIZES {
        let mut app = fx.app(w, h);
        press(&mut app, "Enter");
        insta::assert_snapshot!(format!("detail_{w}x{h}"), screen(&app));
    }
}

#[test]
fn help_screen() {
    let fx = Fixture::sevendays();
    for (w, h) in SIZES {
        let mut app = fx.app(w, h);
        press(&mut app, "?");
        insta::assert_snapshot!(format!("help_{w}x{h}"), screen(&app));
    }
}

#[test]
fn source_picker() {
    let fx = Fixture::several();
    for (w, h) in SIZES {
        let mut app =
            chaff::tui::open(&fx.options(&fx.root()), chaff::tui::Settings { watch: false, journal: false }).unwrap();
        app.resize(w, h);
        // the sources table, its rows read in the background
        chaff::tui::workspace::wait_for_scan(&mut app);
        insta::assert_snapshot!(format!("picker_{w}x{h}"), screen(&app));
    }
}

#[test]
fn pattern_editor_and_filter() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(80, 24);
    press(&mut app, "Tab e End (");
    insta::assert_snapshot!("pattern_error_80x24", screen(&app));
    let mut app = fx.app(80, 24);
    press(&mut app, "/ r e a d");
    insta::assert_snapshot!("filter_80x24", screen(&app));
    // a valid edit, weighed on the rules as they stand (the pending ones in force) before Enter
    let mut app = fx.app(120, 40);
    press(&mut app, "+ Tab");
    let month = app.session().unwrap().patterns.iter().position(|p| p.name == "month").unwrap();
    for _ in 0..month {
        press(&mut app, "Down");
    }
    press(&mut app, "e End z z z");
    insta::assert_snapshot!("pattern_weighed_120x40", screen(&app));
}

#[test]
fn quit_prompt() {
    // the answers are spelled out: w saves, d discards, a second q stays
    let fx = Fixture::sevendays();
    let mut app = fx.app(80, 24);
    press(&mut app, "a q");
    insta::assert_snapshot!("quit_prompt_80x24", screen(&app));
}

#[test]
fn explain_list_and_stages_pane() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "A ] e");
    insta::assert_snapshot!("explain_120x40", screen(&app));
    press(&mut app, "Esc S Down Down");
    insta::assert_snapshot!("stages_120x40", screen(&app));
}

#[test]
fn preview_selection_and_regex_editor() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "Tab Tab j V j");
    insta::assert_snapshot!("selection_120x40", screen(&app));
    press(&mut app, "V Tab E");
    insta::assert_snapshot!("regex_editor_120x40", screen(&app));
}

/// The sizes small terminals and overlays are checked at.
const SMALL_TO_LARGE: [(u16, u16); 3] = [(60, 15), (80, 24), (120, 40)];

#[test]
fn small_terminals_and_overlays() {
    let fx = Fixture::sevendays();
    for (w, h) in SMALL_TO_LARGE {
        let mut app = fx.app(w, h);
        press(&mut app, "a j");
        insta::assert_snapshot!(format!("sized_main_{w}x{h}"), screen(&app));
        // the stages popup leaves the preview it says follows live in sight
        press(&mut app, "S Down");
        insta::assert_snapshot!(format!("sized_stages_{w}x{h}"), screen(&app));
    }
    let fx = Fixture::several();
    for (w, h) in SMALL_TO_LARGE {
        let mut app =
            chaff::tui::open(&fx.options(&fx.root()), chaff::tui::Settings { watch: false, journal: false }).unwrap();
        app.resize(w, h);
        press(&mut app, "?");
        insta::assert_snapshot!(format!("sized_picker_help_{w}x{h}"), screen(&app));
    }
}

#[test]
fn what_a_decision_changes_before_and_after_it_is_made() {
    let fx = Fixture::sevendays();
    for (w, h) in SIZES {
        // T on the first page's line: the rule, the documents and words it changes, the most changed
        let mut app = fx.app(w, h);
        press(&mut app, "Tab Tab T");
        insta::assert_snapshot!(format!("mark_impact_{w}x{h}"), screen(&app));
        // K on a selection of the header the accepted cut removes: what keeping it gives back
        press(&mut app, "Esc BackTab BackTab a Tab Tab V K");
        insta::assert_snapshot!(format!("keep_impact_{w}x{h}"), screen(&app));
        // c on a plain candidate: a cut asks first, with its evidence and warnings
        let mut app = fx.app(w, h);
        press(&mut app, "j c");
        insta::assert_snapshot!(format!("cut_impact_{w}x{h}"), screen(&app));
        // a verified page, then a decision that changes it: the status line warns, naming it and its words
        let mut app = fx.app(w, h);
        press(&mut app, "Y a");
        insta::assert_snapshot!(format!("verified_decision_{w}x{h}"), screen(&app));
    }
}

/// The smallest terminal the dialogs are checked at: each fits or scrolls, its key hints in sight.
#[test]
fn dialogs_at_40x10_keep_their_key_hints() {
    let fx = Fixture::sevendays();
    // (name, keys that open it from a fresh start)
    let dialogs = [
        ("quit", "a q"),
        ("cut", "j c"),
        ("cut_scrolled", "j c Down Down Down"),
        ("stages", "S Down"),
        ("explain", "A ] e"),
        ("detail", "Enter"),
        ("help", "?"),
    ];
    for (name, keys) in dialogs {
        let mut app = fx.app(40, 10);
        press(&mut app, keys);
        insta::assert_snapshot!(format!("dialog_{name}_40x10"), screen(&app));
    }
}

#[test]
fn help_key_column_fits_its_longest_key() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "?");
    // down to the inputs' keys, where the longest key is
    while !screen(&app).contains("Tab/Shift-Tab") {
        press(&mut app, "PgDn");
    }
    insta::assert_snapshot!("help_inputs_120x40", screen(&app));
}
