//! The background miner: one thread, the latest request wins.
//!
//! Each request gets a generation number. A newer request makes the running mining stop at its next
//! stage boundary (through [`Progress::cancelled`]) and requests queued behind it are skipped, so after
//! a burst of pattern edits only the last one is mined. Stages and the result come back over a channel
//! that the UI drains on each tick; results never touch the UI's state from this thread.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

use crate::automatic::{mine_source, read_as_kind};
use crate::corpus::Corpus;
use crate::error::Error;
use crate::mining::{MinedString, Mining, MiningConfig, Progress, Stage, mine};
use crate::rules::{Rule, RulesFile};
use crate::settings::Settings;

use super::ready::{CleanSettings, Ready};
use super::source::Idioms;
use crate::draft::{is_extra, with_extra};

/// What to mine.
#[derive(Clone)]
pub struct MineRequest {
    pub corpus: Arc<Corpus>,
    pub config: MiningConfig,
    /// Load the corpus again from this path first (documents changed on disk).
    pub reload: Option<PathBuf>,
    pub prepare: Prepare,
}

/// How to prepare a mining for the UI, on this thread: idioms to flag, cleaner settings, and the
/// automatic rules to make.
#[derive(Clone, Default)]
pub struct Prepare {
    pub idioms: Idioms,
    pub settings: CleanSettings,
    /// Re-mining a source being tuned: its rules file as it stands in the UI. The automatic rules are
    /// made from the new mining with it, as `chaff mine` makes them with the rules file on disk (the
    /// whole source's line rules, each template cluster mined again with its line rules, the frame
    /// cuts it suggests for strings new to the mining).
    pub previous: Option<RulesFile>,
}

/// A finished mining, prepared for the UI.
pub struct Mined {
    pub corpus: Arc<Corpus>,
    /// With `extra` in it (when there is a `previous`).
    pub mining: Mining,
    pub ready: Ready,
    /// The automatic rules that are not strings of the whole source's mining (cluster and line rules).
    pub extra: Vec<MinedString>,
    /// The automatic rules with their suggested statuses and actions (rejections of idioms, tagless and
    /// pattern-only strings; frame cuts).
    pub automatic: Vec<Rule>,
    pub elapsed: Duration,
}

pub enum MinerEvent {
    Stage {
        generation: u64,
        stage: Stage,
    },
    /// Failed minings carry their message (an unusable corpus, a pattern the engine refused).
    Done {
        generation: u64,
        result: Result<Box<Mined>, String>,
    },
}

impl MinerEvent {
    pub fn generation(&self) -> u64 {
        match self {
            MinerEvent::Stage { generation, .. } | MinerEvent::Done { generation, .. } => *generation,
        }
    }
}

pub struct Miner {
    requests: Sender<(u64, MineRequest)>,
    events: Receiver<MinerEvent>,
    latest: Arc<AtomicU64>,
}

struct Reporter<'a> {
    generation: u64,
    latest: &'a AtomicU64,
    events: &'a Sender<MinerEvent>,
}

impl Progress for Reporter<'_> {
    fn stage(&self, stage: Stage) {
        let _ = self.events.send(MinerEvent::Stage { generation: self.generation, stage });
    }

    fn cancelled(&self) -> bool {
        self.latest.load(Ordering::SeqCst) != self.generation
    }
}

impl Miner {
    pub fn spawn() -> Miner {
        let (requests, inbox) = mpsc::channel::<(u64, MineRequest)>();
        let (outbox, events) = mpsc::channel();
        let latest = Arc::new(AtomicU64::new(0));
        let seen = Arc::clone(&latest);
        thread::Builder::new()
            .name("chaff-miner".into())
            .spawn(move || {
                while let Ok(mut next) = inbox.recv() {
                    while let Ok(newer) = inbox.try_recv() {
                        next = newer;
                    }
                    let (generation, request) = next;
                    if seen.load(Ordering::SeqCst) != generation {
                        continue;
                    }
                    let reporter = Reporter { generation, latest: &seen, events: &outbox };
                    let result = run(request, &reporter);
                    if matches!(&result, Err(None)) || reporter.cancelled() {
                        continue;
                    }
                    let result = result.map_err(|e| e.unwrap_or_default());
                    if outbox.send(MinerEvent::Done { generation, result }).is_err() {
                        break;
                    }
                }
            })
            .expect("spawn the miner thread");
        Miner { requests, events, latest }
    }

    /// Queues a mining; any older one still running is abandoned. Returns its generation.
    pub fn request(&self, request: MineRequest) -> u64 {
        let generation = self.latest.fetch_add(1, Ordering::SeqCst) + 1;
        // The thread lives as long as the Miner; a send can only fail if it panicked.
        let _ = self.requests.send((generation, request));
        generation
    }

    /// The newest generation requested.
    pub fn latest(&self) -> u64 {
        self.latest.load(Ordering::SeqCst)
    }

    pub fn try_recv(&self) -> Option<MinerEvent> {
        self.events.try_recv().ok()
    }

    /// Waits for the next event, at most `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<MinerEvent> {
        self.events.recv_timeout(timeout).ok()
    }
}

/// `Err(None)`: cancelled.
fn run(request: MineRequest, progress: &Reporter<'_>) -> Result<Box<Mined>, Option<String>> {
    let started = Instant::now();
    let mut config = request.config;
    let prepare = request.prepare;
    let corpus = match &request.reload {
        Some(path) => {
            let corpus = Corpus::load(path).map_err(|e| Some(e.to_string()))?;
            // the documents' kind decided as `chaff mine` decides it (with the rules file as it stands
            // here), and HTML pages replaced by their views as at opening: never mined as raw markup
            let recorded = prepare.previous.as_ref().map(RulesFile::input);
            Arc::new(read_as_kind(corpus, recorded, Some(path), &mut config))
        }
        None => request.corpus,
    };
    let idioms = &prepare.idioms;
    let (mut extra, mut automatic) = (Vec::new(), Vec::new());
    let mining = match &prepare.previous {
        // the automatic rules `chaff mine` makes with this file, frame cuts included: a string new to this
        // mining gets the cut `chaff mine` would suggest; the editor's decisions stay
        Some(previous) => {
            // the automatic configuration, mining as the request says
            let settings = Settings { mining: config.clone(), ..Settings::default() };
            match mine_source(&corpus, &settings, Some(previous), progress, |m| idioms.flag(m)) {
                Ok((mut mining, file)) => {
                    extra = file.rules.iter().filter(|r| is_extra(r)).map(Rule::to_mined).collect();
                    with_extra(&mut mining, &extra);
                    automatic = file.rules;
                    mining
                }
                Err(Error::Cancelled) => return Err(None),
                Err(e) => return Err(Some(e.to_string())),
            }
        }
        // opening a source: its rules come with the session
        None => match mine(&corpus, &config, progress) {
            Ok(mut mining) => {
                idioms.flag(&mut mining);
                mining
            }
            Err(Error::Cancelled) => return Err(None),
            Err(e) => return Err(Some(e.to_string())),
        },
    };
    if progress.cancelled() {
        return Err(None);
    }
    let ready = Ready::build(&mining, prepare.settings);
    Ok(Box::new(Mined { corpus, mining, ready, extra, automatic, elapsed: started.elapsed() }))
}
