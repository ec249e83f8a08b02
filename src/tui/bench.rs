//! Speed of the tuning UI (`chaff bench --tui`): the time from a key to the drawn frame for accept,
//! reject and cutoff moves on a generated 1,000-document source, and to the impact of a decision after it
//! and of a cutoff or a stage weighed before it; the time to re-mine a ~5 MB source after a
//! mutable-pattern edit, with the frames drawn while the miner runs. Figures, not pass/fail.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::corpus::{Corpus, Document};
use crate::generate::{GeneratedSource, bench_corpus, sevendays};
use crate::mining::mine;
use crate::mutable::MutablePattern;
use crate::tokens::Tokenizer;

use super::source::Opened;
use super::state::{App, Settings};
use super::view;

const WIDTH: u16 = 160;
const HEIGHT: u16 = 48;
const GOAL_FRAME: Duration = Duration::from_millis(16);
const GOAL_REMINE: Duration = Duration::from_millis(500);

fn corpus(source: GeneratedSource) -> Corpus {
    let name = source.name.clone();
    Corpus::from_docs(name, source.docs.into_iter().map(|d| Document { id: d.id, text: d.text }).collect())
}

fn app_on(corpus: Corpus, rules_dir: &std::path::Path) -> App {
    let opened = Opened::from_corpus(corpus, rules_dir, Tokenizer::Text);
    let mining = mine(&opened.corpus, &opened.config, &crate::mining::Quiet).expect("the generated corpus mines");
    let mut app = App::with_source(opened, mining, Settings { watch: false, journal: false });
    app.resize(WIDTH, HEIGHT);
    app
}

fn key(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

/// Key handled and frame drawn, timed.
fn frame(app: &mut App, terminal: &mut Terminal<TestBackend>, k: KeyEvent) -> Duration {
    let t = Instant::now();
    app.handle_key(k);
    terminal.draw(|f| view::draw(app, f)).expect("draw");
    t.elapsed()
}

struct Stats {
    median: Duration,
    max: Duration,
    n: usize,
}

fn stats(mut times: Vec<Duration>) -> Stats {
    times.sort();
    let n = times.len();
    Stats { median: times.get(n / 2).copied().unwrap_or_default(), max: times.last().copied().unwrap_or_default(), n }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn row(out: &mut String, label: &str, s: &Stats) {
    let verdict = if s.max <= GOAL_FRAME { "ok" } else { "over" };
    row_with(out, label, s, verdict);
}

/// A row of figures and what to say of them.
fn row_with(out: &mut String, label: &str, s: &Stats, note: &str) {
    let _ = writeln!(out, "  {label:<28} {:>8.2} ms {:>8.2} ms {:>6}   {note}", ms(s.median), ms(s.max), s.n);
}

/// Runs the benchmark; returns the report to print.
pub fn bench_frames() -> String {
    let dir = tempfile::tempdir().expect("temporary folder");
    let mut out = String::new();

    // key → frame on 1,000 documents
    let mut app = app_on(corpus(sevendays(1000, 7)), dir.path());
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test backend");
    terminal.draw(|f| view::draw(&app, f)).expect("draw");
    let (strings, candidates) = app.session().map_or((0, 0), |s| (s.mining.strings.len(), s.list.rows.len()));
    let _ = writeln!(
        out,
        "tui: key → drawn frame, {WIDTH}×{HEIGHT} TestBackend, generated source of 1,000 documents \
         ({strings} mined strings, {candidates} candidates at the auto cutoff)"
    );
    let _ = writeln!(out, "  {:<28} {:>11} {:>11} {:>6}", "", "median", "max", "keys");
    let rounds = 200;
    let (mut accept, mut reject, mut cutoff) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..rounds {
        if i % candidates.max(1) == 0 {
            app.handle_key(key(KeyCode::Home));
        }
        accept.push(frame(&mut app, &mut terminal, key(KeyCode::Char('a'))));
        reject.push(frame(&mut app, &mut terminal, key(KeyCode::Char('r'))));
        app.handle_key(key(KeyCode::Backspace));
        app.handle_key(key(KeyCode::Down));
    }
    // accept half of the candidates, so the preview has accepted rules while the cutoff sweeps
    app.handle_key(key(KeyCode::Home));
    for _ in 0..candidates / 2 {
        app.handle_key(key(KeyCode::Char('a')));
        app.handle_key(key(KeyCode::Down));
    }
    for i in 0..rounds {
        let k = if (i / 50) % 2 == 0 { KeyCode::Left } else { KeyCode::Right };
        cutoff.push(frame(&mut app, &mut terminal, key(k)));
    }
    row(&mut out, "accept (a)", &stats(accept));
    row(&mut out, "reject (r)", &stats(reject));
    row(&mut out, "cutoff move (←/→, 50 bins)", &stats(cutoff));
    impact_of_decisions(&mut out, &mut app);
    what_ifs(&mut out, &mut app);

    // re-mine of ~5 MB after a pattern edit, frames drawn meanwhile
    let big = corpus(bench_corpus(5 << 20, 5_000, 42));
    let (docs, bytes) = (big.docs.len(), big.bytes());
    let mut app = app_on(big, dir.path());
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test backend");
    if let Some(s) = app.session_mut() {
        let mut patterns = s.patterns.clone();
        patterns.push(MutablePattern::new("bench_edit", "zz[0-9]+zz"));
        s.set_patterns(patterns);
    }
    let started = Instant::now();
    app.remine("pattern edit", false);
    let mut during = Vec::new();
    let mut down = true;
    let mut apply = Duration::ZERO;
    while app.busy() {
        // as the event loop does: drain the miner, then a key and its frame
        let t = Instant::now();
        app.tick();
        let ticked = t.elapsed();
        if !app.busy() {
            apply = ticked;
        }
        during.push(ticked + frame(&mut app, &mut terminal, key(if down { KeyCode::Down } else { KeyCode::Up })));
        down = !down;
        std::thread::sleep(Duration::from_millis(5));
    }
    let remine = started.elapsed();
    let verdict = if remine <= GOAL_REMINE { "ok" } else { "over" };
    let _ = writeln!(
        out,
        "tui: re-mine after a pattern edit, {:.1} MB in {docs} documents: {:.3} s   {verdict} (goal ≤ {:.1} s)",
        bytes as f64 / (1 << 20) as f64,
        remine.as_secs_f64(),
        GOAL_REMINE.as_secs_f64()
    );
    row(&mut out, "frames while re-mining", &stats(during));
    let _ =
        writeln!(out, "  {:<28} {:>8.2} ms (the new mining taken in on the UI thread)", "result applied", ms(apply));
    let _ = writeln!(out, "  goal: ≤ {} ms from key to drawn frame", GOAL_FRAME.as_millis());
    remine_steps(&mut out, &app);
    big_document(&mut out, dir.path());
    out.push_str(&super::workspace::bench::bench_workspace(1000, 20));
    out
}

/// Where a re-mine's time goes: the miner's steps run again one after another on this thread, each timed
/// (the mining's stages, the automatic rules made with the rules file as it stands, the mining prepared for
/// the UI), so a profile of the figure above can be read without a profiler.
fn remine_steps(out: &mut String, app: &App) {
    let Some(s) = app.session() else { return };
    let (config, prepare) = (s.draft.mining_config(), s.prepare());
    let t = Instant::now();
    let Ok(mining) = mine(&s.draft.corpus, &config, &crate::mining::Quiet) else { return };
    let mined = t.elapsed();
    let settings = crate::settings::Settings { mining: config, ..crate::settings::Settings::default() };
    let t = Instant::now();
    let made = crate::automatic::automatic_rules(
        &s.draft.corpus,
        &mining,
        settings.mining_params(),
        prepare.previous.as_ref(),
        &settings,
    );
    let automatic = t.elapsed();
    let t = Instant::now();
    let _ready = super::ready::Ready::build(&mining, prepare.settings);
    let ready = t.elapsed();
    let mut steps: Vec<String> =
        mining.timings.iter().map(|(stage, d)| format!("{} {:.0} ms", stage.name(), ms(*d))).collect();
    steps.push(format!("automatic rules {:.0} ms{}", ms(automatic), if made.is_ok() { "" } else { " (failed)" }));
    steps.push(format!("prepared for the UI {:.0} ms", ms(ready)));
    let _ = writeln!(out, "  {:<28} {:.0} ms of mining: {}", "its steps, once, in turn", ms(mined), steps.join(", "));
}

/// Key → the decision's impact over the whole source in the status line (measured in the background, the
/// frames drawn meanwhile), for accepting and rejecting candidates one after another.
fn impact_of_decisions(out: &mut String, app: &mut App) {
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test backend");
    app.settle();
    app.handle_key(key(KeyCode::Home));
    let (mut shown, mut frames) = (Vec::new(), Vec::new());
    for i in 0..20 {
        let k = if i % 2 == 0 { 'r' } else { 'a' };
        let t = Instant::now();
        frames.push(frame(app, &mut terminal, key(KeyCode::Char(k))));
        draw_until_measured(app, &mut terminal, t, &mut frames);
        shown.push(t.elapsed());
        if i % 2 == 1 {
            app.handle_key(key(KeyCode::Down));
        }
    }
    let s = stats(shown);
    row_with(out, "impact in the status line", &s, "(goal ≤ 200 ms, measured off the UI thread)");
    row(out, "frames while measuring", &stats(frames));
}

/// Ticks and draws until the impact worker has answered (at most a minute after `since`), each frame's
/// time pushed to `frames`.
fn draw_until_measured(
    app: &mut App,
    terminal: &mut Terminal<TestBackend>,
    since: Instant,
    frames: &mut Vec<Duration>,
) {
    while app.impact.waiting() && since.elapsed() < Duration::from_secs(60) {
        let f = Instant::now();
        app.tick();
        terminal.draw(|fr| view::draw(app, fr)).expect("draw");
        frames.push(f.elapsed());
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Key → an action's impact shown before it is taken: a cutoff weighed (`C`, then ←/→; the pending rules
/// counted, so the cutoff decides which are in force), the highlighted stage's turn (`S`, then ↓/↑) and
/// a pattern edit as it is typed, with the frames drawn while the worker measures.
fn what_ifs(out: &mut String, app: &mut App) {
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test backend");
    app.handle_key(key(KeyCode::Char('+')));
    app.settle();
    let mut weigh = |app: &mut App, open: char, keys: [KeyCode; 2]| {
        app.handle_key(key(KeyCode::Char(open)));
        app.settle();
        let (mut shown, mut frames) = (Vec::new(), Vec::new());
        for i in 0..20 {
            let t = Instant::now();
            frames.push(frame(app, &mut terminal, key(keys[(i / 5) % 2])));
            draw_until_measured(app, &mut terminal, t, &mut frames);
            shown.push(t.elapsed());
        }
        app.handle_key(key(KeyCode::Esc));
        (stats(shown), stats(frames))
    };
    let (cutoff, cutoff_frames) = weigh(app, 'C', [KeyCode::Left, KeyCode::Right]);
    let (stage, stage_frames) = weigh(app, 'S', [KeyCode::Down, KeyCode::Up]);
    let (pattern, pattern_frames) = weigh_pattern(app, &mut terminal);
    let goal = "(goal ≤ 200 ms, measured off the UI thread)";
    row_with(out, "cutoff weighed (C, ←/→)", &cutoff, goal);
    row(out, "frames while weighing it", &cutoff_frames);
    row_with(out, "stage weighed (S, ↓/↑)", &stage, goal);
    row(out, "frames while weighing it", &stage_frames);
    row_with(out, "pattern edit weighed (a key)", &pattern, goal);
    row(out, "frames while weighing it", &pattern_frames);
}

/// A pattern edit weighed as it is typed: the month pattern's regex made to match nothing (a `z` at its
/// end, timed) and back (Backspace, nothing to weigh), so every page is matched again each time.
fn weigh_pattern(app: &mut App, terminal: &mut Terminal<TestBackend>) -> (Stats, Stats) {
    let month = app.session().and_then(|s| s.patterns.iter().position(|p| p.name == "month")).unwrap_or(0);
    app.handle_key(key(KeyCode::Tab));
    for _ in 0..month {
        app.handle_key(key(KeyCode::Down));
    }
    for k in [KeyCode::Char('e'), KeyCode::End] {
        app.handle_key(key(k));
    }
    let (mut shown, mut frames) = (Vec::new(), Vec::new());
    for _ in 0..20 {
        let t = Instant::now();
        frames.push(frame(app, terminal, key(KeyCode::Char('z'))));
        draw_until_measured(app, terminal, t, &mut frames);
        shown.push(t.elapsed());
        app.handle_key(key(KeyCode::Backspace));
    }
    app.handle_key(key(KeyCode::Esc));
    (stats(shown), stats(frames))
}

/// One document replaced by a 50 MB one (the source's pages repeated), shown in the preview: every key
/// must cost what the screen shows, not the document's length.
fn big_document(out: &mut String, rules_dir: &std::path::Path) {
    let mut app = app_on(corpus(sevendays(200, 7)), rules_dir);
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test backend");
    let Some(s) = app.session_mut() else { return };
    // a few candidates accepted, so the preview has spans of both kinds
    let _ =
        s.decide(&s.list.rows.iter().copied().take(5).collect::<Vec<_>>(), Some(crate::rules::Status::Accepted), None);
    let page: String = s.corpus.docs.iter().take(50).map(|d| d.text.as_str()).collect::<Vec<_>>().join("\n\n");
    let mut text = String::with_capacity(50 << 20);
    while text.len() < 50 << 20 {
        text.push_str(&page);
        text.push_str("\n\n");
    }
    let bytes = text.len();
    std::sync::Arc::make_mut(&mut s.corpus).docs[0].text = text;
    let t = Instant::now();
    s.show_document(0);
    let shown = t.elapsed();
    terminal.draw(|f| view::draw(&app, f)).expect("draw");
    let t = Instant::now();
    if let Some(s) = app.session_mut() {
        s.preview.settle(Duration::from_secs(600));
    }
    let cleaned = t.elapsed();
    let _ = writeln!(
        out,
        "tui: one document of {:.0} MB in the preview (shown in {:.0} ms, cleaned in the background in {:.0} ms): key → \
         drawn frame",
        bytes as f64 / (1 << 20) as f64,
        ms(shown),
        ms(cleaned)
    );
    // (what, keys first, untimed: the focus; keys timed, each five times)
    let keys: [(&str, &[KeyCode], &[KeyCode]); 6] = [
        ("candidate down (j)", &[], &[KeyCode::Char('j')]),
        ("accept / reject (a, r)", &[], &[KeyCode::Char('a'), KeyCode::Char('r')]),
        ("cutoff move (←/→)", &[], &[KeyCode::Left, KeyCode::Right]),
        ("preview line down (j)", &[KeyCode::Tab, KeyCode::Tab], &[KeyCode::Char('j')]),
        ("preview page down", &[], &[KeyCode::PageDown]),
        ("next span (])", &[], &[KeyCode::Char(']')]),
    ];
    let mut cleanings = Vec::new();
    for (label, setup, seq) in keys {
        for &k in setup {
            app.handle_key(key(k));
        }
        let mut times = Vec::new();
        for _ in 0..5 {
            for &k in seq {
                times.push(frame(&mut app, &mut terminal, key(k)));
            }
        }
        row(out, label, &stats(times));
        // the preview's cleaning of the last key, off the UI thread, before the next keys
        let t = Instant::now();
        if let Some(s) = app.session_mut()
            && s.preview.cleaning.is_some()
        {
            s.preview.settle(Duration::from_secs(600));
            cleanings.push(t.elapsed());
        }
    }
    let s = stats(cleanings);
    row_with(out, "preview cleaned after a key", &s, "(in the background: the last state shown meanwhile)");
}
