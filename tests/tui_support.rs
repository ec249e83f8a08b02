//! Shared by the tuning UI's tests: deterministic corpora on disk, opening the app, feeding keys,
//! rendering the screen as text.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use chaff::generate;
use chaff::rules::RulesFile;
use chaff::tui::{App, Settings, TuneOptions, view};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

pub const SEED: u64 = 20_070_227;

/// A temporary folder of generated sources and an empty `rules/`; [`Fixture::corpus`], [`Fixture::rules`]
/// and [`Fixture::app`] name its main source.
pub struct Fixture {
    pub dir: tempfile::TempDir,
    source: &'static str,
}

impl Fixture {
    /// An empty folder, filled by the test; its main source is named `sevendays`.
    pub fn empty() -> Fixture {
        Fixture::at(tempfile::tempdir().unwrap())
    }

    /// The folder `dir`, filled by the test; its main source is named `sevendays`.
    pub fn at(dir: tempfile::TempDir) -> Fixture {
        Fixture { dir, source: "sevendays" }
    }

    /// `sevendays` (120 documents, fixed seed).
    pub fn sevendays() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        generate::write_source(&generate::sevendays(120, SEED), &dir.path().join("corpora")).unwrap();
        Fixture { dir, source: "sevendays" }
    }

    /// `regions`: twelve HTML pages whose comment thread (`div#reactions`) and related links change from
    /// page to page, so no string rule takes them and a region rule does.
    pub fn regions() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("corpora").join("regions");
        std::fs::create_dir_all(&folder).unwrap();
        for i in 0..12 {
            std::fs::write(folder.join(format!("p{i:02}.html")), generate::block_page(i)).unwrap();
        }
        Fixture { dir, source: "regions" }
    }

    /// `mixed_templates` (80 documents, fixed seed: articles and galleries) and an empty `rules/`.
    pub fn mixed() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        generate::write_source(&generate::mixed_templates(80, SEED), &dir.path().join("corpora")).unwrap();
        Fixture { dir, source: "mixed_templates" }
    }

    /// `html_news` (60 documents, fixed seed) and an empty `rules/`.
    pub fn html() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        generate::write_source(&generate::html_news(60, SEED), &dir.path().join("corpora")).unwrap();
        Fixture { dir, source: "html_news" }
    }

    /// Two sources side by side, for the picker.
    pub fn several() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("corpora");
        generate::write_source(&generate::sevendays(120, SEED), &root).unwrap();
        generate::write_source(&generate::html_news(60, SEED), &root).unwrap();
        Fixture { dir, source: "sevendays" }
    }

    pub fn root(&self) -> PathBuf {
        self.dir.path().join("corpora")
    }

    pub fn corpus(&self) -> PathBuf {
        self.root().join(self.source)
    }

    pub fn rules_dir(&self) -> PathBuf {
        self.dir.path().join("rules")
    }

    pub fn rules(&self) -> PathBuf {
        self.rules_dir().join(format!("{}.toml", self.source))
    }

    /// Rules files of two other sources with sevendays' candidates, and none of sevendays' own: opened
    /// again, its candidates are candidates in many sources, so idioms.
    pub fn other_sources_share_the_candidates(&self) {
        let mut app = self.app(120, 40);
        press(&mut app, "w");
        let mut other = RulesFile::load(&self.rules()).unwrap();
        for name in ["other1", "other2"] {
            other.source = name.into();
            other.save(&self.rules_dir().join(format!("{name}.toml"))).unwrap();
        }
        std::fs::remove_file(self.rules()).unwrap();
    }

    pub fn options(&self, corpus: &Path) -> TuneOptions {
        TuneOptions { corpus: corpus.to_path_buf(), rules: None, rules_dir: self.rules_dir(), preset: None }
    }

    /// The app on the main source, without watcher or journal, at `w`×`h`.
    pub fn app(&self, w: u16, h: u16) -> App {
        self.app_with(Settings { watch: false, journal: false }, w, h)
    }

    /// The app on the fixture's only source, whatever it is.
    pub fn app_on(&self, source: &str, w: u16, h: u16) -> App {
        let opts = self.options(&self.root().join(source));
        let mut app = chaff::tui::open(&opts, Settings { watch: false, journal: false }).unwrap();
        app.resize(w, h);
        settle(&mut app);
        app
    }

    pub fn app_with(&self, settings: Settings, w: u16, h: u16) -> App {
        let mut app = chaff::tui::open(&self.options(&self.corpus()), settings).unwrap();
        app.resize(w, h);
        settle(&mut app);
        app
    }
}

pub fn key_event(name: &str) -> KeyEvent {
    // "C-r": the key with Control
    if let Some(c) = name.strip_prefix("C-").and_then(|c| c.chars().next()) {
        return KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    }
    let code = match name {
        "Left" => KeyCode::Left,
        "Right" => KeyCode::Right,
        "Up" => KeyCode::Up,
        "Down" => KeyCode::Down,
        "Enter" => KeyCode::Enter,
        "Esc" => KeyCode::Esc,
        "Tab" => KeyCode::Tab,
        "BackTab" => KeyCode::BackTab,
        "Backspace" => KeyCode::Backspace,
        "End" => KeyCode::End,
        "Home" => KeyCode::Home,
        "PgUp" => KeyCode::PageUp,
        "PgDn" => KeyCode::PageDown,
        "Space" => KeyCode::Char(' '),
        s if s.chars().count() == 1 => KeyCode::Char(s.chars().next().unwrap()),
        other => panic!("unknown key {other}"),
    };
    let mods = match code {
        KeyCode::Char(c) if c.is_uppercase() => KeyModifiers::SHIFT,
        _ => KeyModifiers::NONE,
    };
    KeyEvent::new(code, mods)
}

/// Feeds keys, e.g. `press(&mut app, "Right Right a")`, each as an editor who looks at the screen before
/// the next: the preview's cleaning and the impacts measured in the background have come back. Text goes
/// in with `type_text`; a key alone, with nothing waited for, with `app.handle_key`.
pub fn press(app: &mut App, keys: &str) {
    for k in keys.split_whitespace() {
        app.handle_key(key_event(k));
        settle(app);
    }
}

/// Waits for the preview's cleaning and the impacts on their way (not for a mining or a regex check).
pub fn settle(app: &mut App) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while app.measuring() && std::time::Instant::now() < deadline {
        let _ = app.tick_measures();
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

pub fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
}

pub fn screen(app: &App) -> String {
    view::render_to_string(app, app.size.width, app.size.height)
}
