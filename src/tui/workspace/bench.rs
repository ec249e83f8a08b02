//! Speed of the sources table (`chaff bench --tui`, `tests/tui_bench.rs`): opening on 1,000 generated
//! sources, key → drawn frame on the table (move, sort, filter), the background filling the table in,
//! and moving between sources (`n` opens the next to review, `q` comes back). Figures, not pass/fail.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::generate::{sevendays, write_source};
use crate::rules::{RulesFile, rules_path};
use crate::tui::state::{App, Screen, Settings};
use crate::tui::{TuneOptions, view};

const WIDTH: u16 = 160;
const HEIGHT: u16 = 48;
const GOAL_OPEN: Duration = Duration::from_secs(1);
const GOAL_MOVE: Duration = Duration::from_millis(100);
const GOAL_FRAME: Duration = Duration::from_millis(16);

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn verdict(d: Duration, goal: Duration) -> &'static str {
    if d <= goal { "ok" } else { "over" }
}

/// `sources` folders of `docs` sevendays-like documents under `root`, every one with a rules file (the
/// first source's automatic rules, renamed), so the background measures each of them.
fn write_workspace(root: &Path, rules_dir: &Path, sources: usize, docs: usize) -> RulesFile {
    for i in 0..sources {
        let mut s = sevendays(docs, 1000 + i as u64);
        s.name = format!("source{i:04}");
        write_source(&s, root).expect("the generated sources are written");
    }
    let first = crate::corpus::Corpus::load(&root.join("source0000")).expect("the first source reads");
    let config = crate::mining::MiningConfig::default();
    let mining = crate::mining::mine(&first, &config, &crate::mining::Quiet).expect("the first source mines");
    let mut file = crate::merge::from_mining(&mining, crate::rules::MiningParams::of(&config), None);
    for r in file.rules.iter_mut().take(8) {
        r.status = crate::rules::Status::Accepted;
    }
    std::fs::create_dir_all(rules_dir).expect("the rules folder");
    for i in 0..sources {
        file.source = format!("source{i:04}");
        file.save(&rules_path(rules_dir, &file.source)).expect("the rules files are written");
    }
    file
}

fn table(app: &App) -> Option<&crate::tui::workspace::Picker> {
    match &app.screen {
        Screen::Picker(p) => Some(p),
        _ => app.workspace.as_deref(),
    }
}

/// Runs the benchmark on `sources` sources of `docs` documents each; returns the report to print.
pub fn bench_workspace(sources: usize, docs: usize) -> String {
    let dir = tempfile::tempdir().expect("temporary folder");
    let (root, rules_dir) = (dir.path().join("corpora"), dir.path().join("rules"));
    let written = Instant::now();
    write_workspace(&root, &rules_dir, sources, docs);
    let written = written.elapsed();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "tui: the sources table on {sources} generated sources × {docs} documents, each with a rules file \
         (written in {:.1} s), {WIDTH}×{HEIGHT} TestBackend",
        written.as_secs_f64()
    );
    measure(&root, &rules_dir, docs, "source01", &mut out);
    out
}

/// The benchmark on a generated crawl of `sources` sites × `docs` pages, one WARC.gz file (no folders):
/// the table lists the crawl's sources and opens each from the crawl's spool. Every source has a rules
/// file (the first site's automatic rules, renamed), so the background measures each.
pub fn bench_workspace_crawl(sources: usize, docs: usize) -> String {
    let dir = tempfile::tempdir().expect("temporary folder");
    let rules_dir = dir.path().join("rules");
    let written = Instant::now();
    let files = crate::generate::crawl::write_crawl(&dir.path().join("crawl"), sources, docs, 20_260_101, false)
        .expect("the generated crawl is written");
    let crawl = crate::crawl::gather(std::slice::from_ref(&files.warc), crate::crawl::Group::Host, &mut |_| {})
        .expect("the crawl reads");
    let first = crawl.corpus(&crawl.sources[0]).expect("the first source reads");
    let mut config = crate::mining::MiningConfig::default();
    let first = crate::page::viewed(first, crate::view::DocKind::Html, &mut config);
    let mining = crate::mining::mine(&first, &config, &crate::mining::Quiet).expect("the first source mines");
    let mut file = crate::merge::from_mining(&mining, crate::rules::MiningParams::of(&config), None);
    for r in file.rules.iter_mut().take(8) {
        r.status = crate::rules::Status::Accepted;
    }
    std::fs::create_dir_all(&rules_dir).expect("the rules folder");
    for s in &crawl.sources {
        file.source = s.name.clone();
        file.save(&rules_path(&rules_dir, &file.source)).expect("the rules files are written");
    }
    let written = written.elapsed();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "tui: the sources table on a crawl, {sources} generated sites × {docs} pages in one WARC.gz ({:.1} MB of \
         pages), each with a rules file (written in {:.1} s), {WIDTH}×{HEIGHT} TestBackend",
        files.page_bytes as f64 / 1e6,
        written.as_secs_f64()
    );
    measure(&files.warc, &rules_dir, docs, "kaka", &mut out);
    out
}

/// Opens the table on `corpus` (a folder of sources or a crawl file) and times it: opening, filling in,
/// keys on the table (`filter` typed after `/`), moving between sources.
fn measure(corpus: &Path, rules_dir: &Path, docs: usize, filter: &str, out: &mut String) {
    // open: listing the sources, the table's state, the first frame (the background starts reading)
    let opts =
        TuneOptions { corpus: corpus.to_path_buf(), rules: None, rules_dir: rules_dir.to_path_buf(), preset: None };
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test backend");
    let t = Instant::now();
    let mut app = crate::tui::open(&opts, Settings { watch: false, journal: false }).expect("the workspace opens");
    app.resize(WIDTH, HEIGHT);
    terminal.draw(|f| view::draw(&app, f)).expect("draw");
    let open = t.elapsed();
    let _ = writeln!(
        out,
        "  open, first frame drawn          {:>9.1} ms   {} (goal ≤ {} ms)",
        ms(open),
        verdict(open, GOAL_OPEN),
        GOAL_OPEN.as_millis()
    );

    // the background fills the table in: the quick facts of every row, then every measure
    let t = Instant::now();
    let (mut counted, mut measured) = (None, None);
    let mut frames = Vec::new();
    while measured.is_none() && t.elapsed() < Duration::from_secs(600) {
        let f = Instant::now();
        app.tick();
        terminal.draw(|f| view::draw(&app, f)).expect("draw");
        frames.push(f.elapsed());
        let p = table(&app).expect("the table");
        if counted.is_none() && p.rows.iter().all(|r| r.rules.is_some()) {
            counted = Some(t.elapsed());
        }
        if p.scanned() {
            measured = Some(t.elapsed());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    frames.sort();
    let secs = |d: Option<Duration>| d.map_or("not done".to_string(), |d| format!("{:.2} s", d.as_secs_f64()));
    let _ = writeln!(out, "  every row counted, rules read     {:>9}", secs(counted));
    let _ = writeln!(out, "  every row measured (clean, drift) {:>9}", secs(measured));
    let max = frames.last().copied().unwrap_or_default();
    let _ = writeln!(
        out,
        "  frames while filling in          {:>9.2} ms max, {:.2} ms median over {}   {} (goal ≤ {} ms)",
        ms(max),
        ms(frames.get(frames.len() / 2).copied().unwrap_or_default()),
        frames.len(),
        verdict(max, GOAL_FRAME),
        GOAL_FRAME.as_millis()
    );

    // key → frame on the full table
    let mut timed = |label: &str, keys: &[KeyEvent], out: &mut String, app: &mut App| {
        let mut times = Vec::new();
        for k in keys {
            let t = Instant::now();
            app.handle_key(*k);
            terminal.draw(|f| view::draw(app, f)).expect("draw");
            times.push(t.elapsed());
        }
        times.sort();
        let max = times.last().copied().unwrap_or_default();
        let _ = writeln!(
            out,
            "  {label:<32} {:>9.2} ms max, {:.2} ms median over {}   {}",
            ms(max),
            ms(times[times.len() / 2]),
            times.len(),
            verdict(max, GOAL_FRAME)
        );
    };
    let down = vec![KeyEvent::new(KeyCode::Down, KeyModifiers::NONE); 200];
    timed("move (↓)", &down, out, &mut app);
    let sorts = vec![key('s'); 12];
    timed("sort (s, every column twice)", &sorts, out, &mut app);
    let mut typing: Vec<KeyEvent> = vec![key('/')];
    typing.extend(filter.chars().map(key));
    typing.push(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    timed("filter (/ and typing, Esc)", &typing, out, &mut app);

    // moving between sources: n opens the next to review (mined in the background), q comes back
    let (mut opens, mut backs) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        let t = Instant::now();
        app.handle_key(key('n'));
        app.wait_for_miner();
        terminal.draw(|f| view::draw(&app, f)).expect("draw");
        opens.push(t.elapsed());
        let t = Instant::now();
        app.handle_key(key('q'));
        terminal.draw(|f| view::draw(&app, f)).expect("draw");
        backs.push(t.elapsed());
    }
    opens.sort();
    backs.sort();
    let (open_max, back_max) = (opens.last().copied().unwrap_or_default(), backs.last().copied().unwrap_or_default());
    let _ = writeln!(
        out,
        "  n: next source mined and drawn    {:>9.1} ms max, {:.1} ms median over {} ({docs} documents each)   {}",
        ms(open_max),
        ms(opens[opens.len() / 2]),
        opens.len(),
        verdict(open_max, GOAL_MOVE)
    );
    let _ = writeln!(
        out,
        "  q: back to the table, drawn       {:>9.2} ms max   {} (goal for moving between sources ≤ {} ms)",
        ms(back_max),
        verdict(back_max, GOAL_MOVE),
        GOAL_MOVE.as_millis()
    );
}
