//! The tuning UI (`chaff tune`): an editor reviews one source's mined template rules — histogram and
//! cutoff, candidates, mutable patterns, a live preview — and saves or exports them.
//!
//! Shaped as state / update / view: [`state::App`] holds everything, key and mouse events become
//! [`action::Action`]s (through the data in [`keymap`]) that [`update::update`] applies, and
//! [`view::draw`] only reads. One background miner ([`miner`]) re-mines after pattern edits and corpus
//! changes; the latest request wins. Unsaved work is journaled ([`journal`]); the rules file and the
//! corpus folder are watched ([`watch`]).

pub mod action;
pub mod bench;
pub mod candidates;
pub mod cleaning;
pub mod document;
pub use crate::draft::history;
pub mod impact;
pub mod journal;
pub mod keymap;
pub mod latest;
pub mod miner;
pub mod priority;
pub use crate::draft::ready;
pub mod regex_check;
pub mod regions;
pub mod session;
pub mod source;
pub mod state;
pub mod update;
pub mod view;
pub mod watch;
pub mod workspace;

use std::io::{IsTerminal, stdout};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::anyhow;
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use ratatui::crossterm::execute;

use crate::mining::{Quiet, mine};
use crate::tokens::Tokenizer;

pub use state::{App, Settings};

/// What `chaff tune` was asked to open.
#[derive(Debug, Clone)]
pub struct TuneOptions {
    /// A source's corpus (folder or .jsonl), or a folder of source folders (the sources table comes first).
    pub corpus: PathBuf,
    /// The rules file to load and write; default `<rules_dir>/<source>.toml`.
    pub rules: Option<PathBuf>,
    pub rules_dir: PathBuf,
    /// Tokenizer for a source with no rules file yet; default: `html` if the documents are .html.
    pub preset: Option<Tokenizer>,
}

/// Opens the UI's state for `opts`: the sources table if the corpus folder holds source folders, else the
/// source, mined. Fails (before any terminal is taken) on an unusable corpus or rules file.
pub fn open(opts: &TuneOptions, settings: Settings) -> anyhow::Result<App> {
    let sources = workspace::sources::list_sources(&opts.corpus).map_err(|e| anyhow!("cannot open the corpus: {e}"))?;
    if !sources.is_empty() {
        let mut app = App::with_picker(opts.corpus.clone(), sources, opts.rules_dir.clone(), settings);
        app.rules_override = opts.rules.clone();
        app.preset = opts.preset;
        return Ok(app);
    }
    let opened = source::open(&opts.corpus, opts.rules.as_deref(), &opts.rules_dir, opts.preset)?;
    let mining = mine(&opened.corpus, &opened.config, &Quiet).map_err(|e| anyhow!("{}: {e}", opts.corpus.display()))?;
    let mut app = App::with_source(opened, mining, settings);
    app.preset = opts.preset;
    Ok(app)
}

/// `chaff tune`: opens the UI and runs it until the editor quits. The terminal is restored on every exit
/// path, panics included.
pub fn run(opts: TuneOptions) -> anyhow::Result<()> {
    eprintln!("chaff: opening {}…", opts.corpus.display());
    let app = open(&opts, Settings::default())?;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(stdout(), DisableMouseCapture, DisableBracketedPaste);
        previous(info);
    }));
    // output piped or redirected: say so before writing a terminal's escape codes into it
    if !stdout().is_terminal() {
        return Err(anyhow!("stdout is not a terminal: chaff tune needs an interactive terminal"));
    }
    // installs its own panic hook (restore, then ours) before taking the terminal
    let mut terminal = ratatui::try_init().map_err(|e| {
        ratatui::restore();
        anyhow!("cannot take the terminal ({e}): chaff tune needs an interactive terminal")
    })?;
    // a paste arrives as one event, not a key per character
    let _ = execute!(stdout(), EnableMouseCapture, EnableBracketedPaste);
    let result = event_loop(&mut terminal, app);
    let _ = execute!(stdout(), DisableMouseCapture, DisableBracketedPaste);
    ratatui::restore();
    result
}

fn event_loop(terminal: &mut DefaultTerminal, mut app: App) -> anyhow::Result<()> {
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    let mut redraw = true;
    while !app.quit {
        if redraw {
            terminal.draw(|f| view::draw(&app, f))?;
            redraw = false;
        }
        // the preview's cleaning and a decision's impact are shown the frame they come back
        let timeout = if app.measuring() {
            Duration::from_millis(16)
        } else if app.busy() {
            Duration::from_millis(100)
        } else {
            Duration::from_millis(400)
        };
        if event::poll(timeout)? {
            // apply every pending event before the next frame: key repeat never queues frames
            loop {
                app.handle_event(&event::read()?);
                if app.quit || !event::poll(Duration::ZERO)? {
                    break;
                }
            }
            redraw = true;
        }
        redraw |= app.tick() || (app.busy() && !app.measuring());
    }
    Ok(())
}
