//! The application state: which screen (source picker or tuning), which popup or prompt, the last
//! message, and the background miner. [`App`] is driven without a terminal — `handle_key`,
//! `handle_mouse`, `tick` — so tests feed it keys and draw it on a `TestBackend`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{Event, KeyEvent, KeyEventKind, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use tui_input::Input;

use crate::mining::Stage;

use super::action::Action;
use super::journal::{Journal, Replay};
use super::keymap::{Context, lookup};
use super::miner::{MineRequest, Miner, MinerEvent};
use super::session::{Job, Pane, Session};
use super::source::Opened;
use super::update;

/// Behaviour that tests and benchmarks turn off.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Watch the rules file and the corpus folder.
    pub watch: bool,
    /// Journal unsaved work beside the rules file.
    pub journal: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { watch: true, journal: true }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub error: bool,
}

pub enum Screen {
    Picker(Box<Picker>),
    Tune(Box<Session>),
}

pub use super::workspace::Picker;

/// A source being mined before its tuning screen opens.
pub struct Opening {
    pub generation: u64,
    pub stage: Option<Stage>,
    pub started: Instant,
    pub opened: Box<Opened>,
}

/// The explain list of a preview span: every rule that matched it and every stage that decided.
#[derive(Debug, Clone)]
pub struct Explain {
    /// The span, in the document's bytes.
    pub start: usize,
    pub end: usize,
    /// Whether accepted rules remove it (else pending ones would).
    pub accepted: bool,
    /// Kept text (the cursor on no span): the items are what gave it back, none if no rule matched it.
    pub kept: bool,
    pub items: Vec<ExplainItem>,
    pub selected: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExplainItem {
    Rule { id: String, action: crate::rules::Action },
    Stage(crate::clean_settings::Stage),
}

/// A preview line about to become a rule (see [`Mode::MarkPrompt`]): marked as template (`T`: removed, or
/// a cut) or kept (`K`).
#[derive(Debug, Clone)]
pub struct MarkLine {
    /// The line, in the document's bytes.
    pub start: usize,
    pub end: usize,
    /// The rule's tokens, as the miner would write them.
    pub tokens: String,
    /// The documents it matches, once measured.
    pub documents: Option<usize>,
    /// What the rule does: remove (or a cut) for `T`, keep for `K`; `c` cycles it.
    pub action: crate::rules::Action,
    /// Its impact over the source and its evidence, measured in the background.
    pub measure: Measure,
}

/// What a decision would do over the whole source, before it is made: asked of the impact worker (see
/// [`super::impact`]) when a dialog opens, filled in when the answer comes.
#[derive(Debug, Clone, Default)]
pub struct Measure {
    /// The generation of the request the answer is for.
    pub asked: u64,
    /// One impact per option of the dialog, in its order.
    pub impacts: Option<Vec<crate::impact::Impact>>,
    /// Where the rule's matches sit against the article (a cut's warnings are read from it).
    pub evidence: Option<crate::evidence::Evidence>,
    pub error: Option<String>,
}

/// One option of a candidate's detail: a status and an action to give it (`None`: as it is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    pub status: Option<crate::rules::Status>,
    pub action: Option<crate::rules::Action>,
}

/// A cutoff the editor weighs (see [`Mode::CutoffPrompt`]): taken only when she confirms.
#[derive(Debug, Clone)]
pub struct CutoffAsk {
    pub target: crate::cutoff::CutoffBin,
    pub measure: Measure,
    /// Whether the preview counted the pending rules when the dialog opened: `+` in it turns that over,
    /// Esc turns it back.
    pub pending_was: bool,
}

/// A candidate's action about to change to a cut (see [`Mode::ActionPrompt`]).
#[derive(Debug, Clone)]
pub struct ActionAsk {
    /// Index into `mining.strings`.
    pub string: usize,
    /// The action it would take, accepted.
    pub action: crate::rules::Action,
    /// Whether it matches the page in view (the dialog says what it does there).
    pub matches_here: bool,
    pub measure: Measure,
}

/// A candidate's regex being edited (see [`Mode::EditRegex`]).
#[derive(Debug, Clone)]
pub struct RegexEdit {
    /// Index into `mining.strings`.
    pub string: usize,
    pub input: Input,
    /// Why the regex was refused (the regex crate's words), until the next edit.
    pub error: Option<String>,
    /// The generation of the check running in the background for the regex submitted (see
    /// [`super::regex_check`]): the editor stays open until it comes back.
    pub checking: Option<u64>,
}

/// The candidate detail popup.
/// What `x` would write: the accepted rules, or, when none is accepted, the automatic ones (every pending
/// rule at or above the cutoff, accepted in the export, as `chaff clean --include-pending` applies them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportPlan {
    pub accepted: usize,
    pub pending: usize,
    pub rejected: usize,
}

impl ExportPlan {
    /// Whether the export takes the automatic rules (nothing is accepted).
    pub fn automatic(&self) -> bool {
        self.accepted == 0
    }
}

#[derive(Debug, Clone)]
pub struct Detail {
    /// Index into `mining.strings`.
    pub string: usize,
    pub scroll: usize,
    pub occurrences: Vec<Occurrence>,
    /// What each decision on it would do (accept, reject, its other actions), measured in the background.
    pub choices: Vec<Choice>,
    pub measure: Measure,
}

#[derive(Debug, Clone)]
pub struct Occurrence {
    pub doc: String,
    pub before: String,
    pub matched: String,
    pub after: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Name,
    Regex,
}

/// Editing a mutable pattern in place.
#[derive(Debug, Clone)]
pub struct PatternEdit {
    /// The pattern edited; `None` adds one.
    pub index: Option<usize>,
    pub name: Input,
    pub regex: Input,
    pub field: Field,
    /// Why the pattern cannot be applied as it stands.
    pub error: Option<String>,
    /// What the edit would do, once it is valid: the rules as they stand, matched with the edited
    /// patterns, over the whole source (the re-mine comes after Enter).
    pub measure: Measure,
}

pub enum Mode {
    Normal,
    Help {
        scroll: usize,
    },
    Detail(Detail),
    Explain(Explain),
    /// The cleaning stages, on or off for this source; `selected` indexes `Stage::ALL`; `measure`: what
    /// turning the selected stage on or off would do, before it is done.
    Stages {
        selected: usize,
        measure: Measure,
    },
    /// The region rules of the source (`G`).
    Regions(super::regions::RegionList),
    /// A cutoff weighed before it is taken: its impact, measured as the editor moves it.
    CutoffPrompt(CutoffAsk),
    Filter(Input),
    GotoDoc(Input),
    /// Searching the preview's text (`/` in the preview).
    Search(Input),
    EditPattern(PatternEdit),
    QuitPrompt,
    /// Reset every decision to the automatic rules? (y resets, undoable)
    ResetPrompt,
    /// `x`: what the export will hold, asked before it is written.
    ExportPrompt(ExportPlan),
    /// Mark a line of the preview as template, or keep it: the rule it makes, on how many documents it
    /// matches, and what it would change over the source.
    MarkPrompt(MarkLine),
    /// A candidate about to become a cut: its evidence, its warnings and its impact first.
    ActionPrompt(ActionAsk),
    /// Editing a candidate's regex in place.
    EditRegex(RegexEdit),
    /// The rules file changed on disk while there is unsaved work here.
    ConflictPrompt,
    /// A journal of unsaved work was found at start.
    JournalPrompt(Replay),
}

impl Mode {
    /// Whether this is a prompt drawn by the prompt view: its body scrolls, its keys stay in sight.
    pub fn is_prompt(&self) -> bool {
        matches!(
            self,
            Mode::QuitPrompt
                | Mode::ResetPrompt
                | Mode::ExportPrompt(_)
                | Mode::MarkPrompt(_)
                | Mode::ActionPrompt(_)
                | Mode::CutoffPrompt(_)
                | Mode::ConflictPrompt
                | Mode::JournalPrompt(_)
        )
    }
}

pub struct App {
    pub screen: Screen,
    pub mode: Mode,
    /// The terminal's size, for layout-dependent updates (paging, mouse).
    pub size: Rect,
    pub message: Option<Message>,
    pub quit: bool,
    pub miner: Miner,
    pub checker: super::regex_check::RegexChecker,
    /// Measures decisions over the whole source (see [`super::impact`]).
    pub impact: super::impact::ImpactWorker,
    pub settings: Settings,
    /// Where rules files live (for sources opened from the picker) and the tokenizer preset.
    pub rules_dir: PathBuf,
    pub rules_override: Option<PathBuf>,
    pub preset: Option<crate::tokens::Tokenizer>,
    /// The sources table, kept while one of its sources is open (`q` there comes back to it).
    pub workspace: Option<Box<Picker>>,
    /// How far the open prompt's body is scrolled (a small terminal); back to 0 when another opens.
    pub dialog_scroll: usize,
}

impl App {
    fn bare(screen: Screen, settings: Settings) -> App {
        App {
            screen,
            mode: Mode::Normal,
            size: Rect::new(0, 0, 80, 24),
            message: None,
            quit: false,
            miner: Miner::spawn(),
            checker: Default::default(),
            impact: Default::default(),
            settings,
            rules_dir: PathBuf::from("rules"),
            rules_override: None,
            preset: None,
            workspace: None,
            dialog_scroll: 0,
        }
    }

    /// The tuning screen on a source mined already (synchronously, before the terminal was taken).
    /// A journal of unsaved work left beside its rules file is offered back.
    pub fn with_source(opened: Opened, mining: crate::mining::Mining, settings: Settings) -> App {
        let rules_dir = opened.spec.rules_dir.clone();
        let journal = Journal::new(&opened.spec.rules, settings.journal);
        let session = Session::new(opened, mining, None, journal);
        let mut app = App::bare(Screen::Tune(Box::new(session)), settings);
        app.rules_dir = rules_dir;
        app.after_open();
        app
    }

    /// The sources table on the sources of `root`.
    pub fn with_picker(
        root: PathBuf,
        sources: Vec<super::workspace::sources::SourceRef>,
        rules_dir: PathBuf,
        settings: Settings,
    ) -> App {
        let picker = Picker::new(root, sources, &rules_dir);
        let mut app = App::bare(Screen::Picker(Box::new(picker)), settings);
        app.rules_dir = rules_dir;
        app
    }

    /// Starts the watcher and offers a journal left by an earlier session, once a source is open.
    pub(crate) fn after_open(&mut self) {
        let settings = self.settings;
        let Screen::Tune(s) = &mut self.screen else { return };
        let summary = format!(
            "{}: {} documents, {} candidates at the auto cutoff {}%",
            s.spec.name,
            s.corpus.docs.len(),
            s.mining.candidates(s.mining.auto_cutoff).count(),
            s.mining.auto_cutoff
        );
        let summary = match s.suggested_cuts {
            0 => summary,
            n => format!("{summary}; {n} frame cut(s) suggested (see the act column)"),
        };
        self.message = Some(Message { text: summary, error: false });
        if let Some(w) = s.corpus.warnings.first() {
            self.message = Some(Message { text: format!("warning: {w}"), error: true });
        }
        if let Some(d) = &s.drift
            && d.drift > crate::drift::DEFAULT_MAX_DRIFT
        {
            let stopped = d.stopped().count();
            self.message = Some(Message {
                text: format!(
                    "the template changed: the rules find {:.0}% less of it than when mined, {stopped} rule(s) match no document now (Enter on a candidate shows then and now)",
                    d.drift * 100.0
                ),
                error: true,
            });
        }
        if let Some(w) = s.rules_warnings.first() {
            let more = match s.rules_warnings.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            self.message = Some(Message { text: format!("warning: {w}{more}"), error: true });
        }
        if let Some(note) = s.foreign_note() {
            let rest = self.message.take().map(|m| format!("; {}", m.text)).unwrap_or_default();
            self.message = Some(Message { text: format!("warning: {note}{rest}"), error: true });
        }
        if settings.watch {
            match super::watch::start(&s.spec.rules, &s.spec.corpus) {
                Ok(w) => s.watch = Some(w),
                Err(e) => self.message = Some(Message { text: format!("not watching files: {e}"), error: true }),
            }
        }
        let replay = Replay::from_entries(s.journal.read());
        if !replay.is_empty() {
            self.mode = Mode::JournalPrompt(replay);
        }
        update::source_opened(self);
        self.relayout();
    }

    pub fn session(&self) -> Option<&Session> {
        match &self.screen {
            Screen::Tune(s) => Some(s),
            Screen::Picker(_) => None,
        }
    }

    pub fn session_mut(&mut self) -> Option<&mut Session> {
        match &mut self.screen {
            Screen::Tune(s) => Some(s),
            Screen::Picker(_) => None,
        }
    }

    pub fn info(&mut self, text: impl Into<String>) {
        self.message = Some(Message { text: text.into(), error: false });
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.message = Some(Message { text: text.into(), error: true });
    }

    /// The contexts a key is looked up in, innermost first.
    pub fn contexts(&self) -> Vec<Context> {
        match &self.mode {
            Mode::Help { .. } => vec![Context::Help],
            Mode::Detail(_) => vec![Context::Detail],
            Mode::Explain(_) => vec![Context::Explain],
            Mode::Stages { .. } => vec![Context::Stages],
            Mode::Regions(_) => vec![Context::Regions],
            Mode::Filter(_) | Mode::GotoDoc(_) | Mode::Search(_) | Mode::EditRegex(_) => vec![Context::Input],
            Mode::EditPattern(_) => vec![Context::PatternInput],
            Mode::QuitPrompt => vec![Context::QuitPrompt, Context::Dialog],
            Mode::ResetPrompt => vec![Context::ResetPrompt, Context::Dialog],
            Mode::ExportPrompt(_) => vec![Context::ExportPrompt, Context::Dialog],
            Mode::MarkPrompt(_) => vec![Context::MarkPrompt, Context::Dialog],
            Mode::ActionPrompt(_) => vec![Context::ActionPrompt, Context::Dialog],
            Mode::CutoffPrompt(_) => vec![Context::CutoffPrompt, Context::Dialog],
            Mode::ConflictPrompt => vec![Context::ConflictPrompt, Context::Dialog],
            Mode::JournalPrompt(_) => vec![Context::JournalPrompt, Context::Dialog],
            Mode::Normal => match &self.screen {
                Screen::Picker(_) => vec![Context::Picker],
                Screen::Tune(s) => {
                    let pane = match s.focus {
                        Pane::Candidates => Context::Candidates,
                        Pane::Patterns => Context::Patterns,
                        Pane::Preview => Context::Preview,
                    };
                    vec![pane, Context::Tune]
                }
            },
        }
    }

    /// Sets the terminal size (as a resize event would).
    pub fn resize(&mut self, width: u16, height: u16) {
        update::update(self, Action::Resize { width, height });
    }

    pub fn handle_event(&mut self, event: &Event) {
        match event {
            Event::Key(key) => self.handle_key(*key),
            Event::Mouse(m) => self.handle_mouse(*m),
            Event::Resize(w, h) => update::update(self, Action::Resize { width: *w, height: *h }),
            Event::Paste(text) => update::paste(self, text),
            _ => {}
        }
    }

    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        match lookup(&self.contexts(), &key) {
            Some(action) => update::update(self, action),
            None => update::edit_text(self, &Event::Key(key)),
        }
    }

    pub fn handle_mouse(&mut self, m: MouseEvent) {
        let (column, row) = (m.column, m.row);
        let action = match m.kind {
            MouseEventKind::Down(_) => Action::Click { column, row },
            MouseEventKind::Drag(_) => Action::Drag { column, row },
            MouseEventKind::ScrollUp => Action::ScrollUp { column, row },
            MouseEventKind::ScrollDown => Action::ScrollDown { column, row },
            _ => return,
        };
        update::update(self, action);
    }

    /// Queues a mining of the open source with the editor's patterns.
    pub fn remine(&mut self, reason: &str, reload: bool) {
        let Screen::Tune(s) = &mut self.screen else { return };
        let request = MineRequest {
            corpus: s.corpus.clone(),
            config: s.mining_config(),
            reload: reload.then(|| s.spec.corpus.clone()),
            prepare: s.prepare(),
        };
        let generation = self.miner.request(request);
        s.job = Some(Job { generation, stage: None, started: Instant::now(), reason: reason.to_string() });
    }

    /// Whether a mining is running for the open source or the source being opened, a regex is being
    /// checked, or the preview's cleaning or a decision's impact is on its way.
    pub fn busy(&self) -> bool {
        let checking = matches!(&self.mode, Mode::EditRegex(e) if e.checking.is_some());
        checking
            || self.measuring()
            || match &self.screen {
                Screen::Tune(s) => s.job.is_some(),
                Screen::Picker(p) => p.opening.is_some(),
            }
    }

    /// Whether the preview's cleaning or an impact is on its way: the event loop looks for it each frame.
    pub fn measuring(&self) -> bool {
        self.session().is_some_and(|s| s.preview.cleaning.is_some()) || self.impact.waiting()
    }

    /// Applies what background work has sent since the last tick. Returns whether anything changed.
    pub fn tick(&mut self) -> bool {
        let mut changed = self.drain();
        let changes: Vec<super::watch::Change> = match &self.screen {
            Screen::Tune(s) => s.watch.as_ref().map(|w| w.changes.try_iter().collect()).unwrap_or_default(),
            Screen::Picker(_) => Vec::new(),
        };
        for c in changes {
            update::on_change(self, c);
            changed = true;
        }
        changed | super::workspace::tick(self)
    }

    /// Applies what the miner, the regex check, the preview's cleaning and the impact worker have sent.
    fn drain(&mut self) -> bool {
        let mut changed = false;
        while let Some(event) = self.miner.try_recv() {
            changed |= update::on_miner(self, event);
        }
        while let Some(checked) = self.checker.try_recv() {
            changed |= update::on_regex_checked(self, checked);
        }
        changed | self.tick_measures()
    }

    /// Applies what the preview's cleaning and the impact worker have sent (and nothing else: a test waits
    /// for these alone after each key). Returns whether anything changed.
    pub fn tick_measures(&mut self) -> bool {
        let mut changed = false;
        if let Screen::Tune(s) = &mut self.screen
            && s.poll_preview()
        {
            changed = true;
            self.relayout();
        }
        while let Some(answer) = self.impact.try_recv() {
            changed |= update::on_impact(self, answer);
        }
        changed
    }

    /// Blocks until the running mining, regex check, preview cleaning and impact (if any) have finished
    /// and been applied (tests, benchmarks).
    pub fn wait_for_miner(&mut self) {
        self.settle();
    }

    /// Blocks until every piece of background work the state waits for has come back and been applied:
    /// what the screen shows is then what the keys so far made (tests, benchmarks).
    pub fn settle(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            self.drain();
            if !self.busy() || Instant::now() >= deadline {
                break;
            }
            if let Screen::Tune(s) = &mut self.screen
                && s.preview.cleaning.is_some()
            {
                if s.preview.settle(Duration::from_millis(20)) {
                    s.clamp_preview_scroll();
                    self.relayout();
                }
                continue;
            }
            if let Some(answer) = self.impact.recv_timeout(Duration::from_millis(20)) {
                update::on_impact(self, answer);
                continue;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Recomputes the layout-dependent sizes (after a resize, or a mode that changes the layout).
    pub fn relayout(&mut self) {
        let areas = super::view::layout(self.size, matches!(self.mode, Mode::EditPattern(_)));
        if let Screen::Tune(s) = &mut self.screen {
            s.page = areas.candidates.height.saturating_sub(3).max(1) as usize;
            s.preview_height = super::view::preview::content_area(areas.preview).height.max(1) as usize;
            s.preview_width = areas.preview.width.saturating_sub(2).max(1) as usize;
            s.list.scroll_into_view(s.page);
            s.clamp_preview_scroll();
            // another document (g) or a narrower pane may have fewer lines: the line cursor stays on one
            let last = s.preview_lines().len().saturating_sub(1);
            s.preview.line = s.preview.line.min(last);
        }
    }

    /// Whether a miner event belongs to the mining this screen waits for (older ones are moot).
    pub(crate) fn is_current(&self, event: &MinerEvent) -> bool {
        match &self.screen {
            Screen::Tune(s) => s.job.as_ref().is_some_and(|j| j.generation == event.generation()),
            Screen::Picker(p) => p.opening.as_ref().is_some_and(|o| o.generation == event.generation()),
        }
    }
}
