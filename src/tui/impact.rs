//! A decision's impact over the whole source, off the UI thread: one worker keeps the source's
//! [`Baseline`] (every page cleaned with the rules as they stand, and every page's matches) and answers
//! what a change of rules did (after a decision, for the status line), what each option would do (before
//! one is taken: the mark and cut dialogs, a candidate's detail, with the evidence of a cut; a cutoff
//! weighed, a stage about to be turned on or off), and a page as the rules clean it (to mark it verified).
//! Requests of each kind are answered in order, the latest of its kind wins: one queued behind a newer one
//! of its kind is skipped, and a result for an older one is not sent.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

use crate::corpus::Corpus;
use crate::draft::{Snapshot, with_rule};
use crate::evidence::{Evidence, evidence};
use crate::impact::{Baseline, Impact};
use crate::rules::{Rule, RulesFile};
use crate::verified::VerifiedPage;

/// What the worker is asked, by kind: the latest request of a kind wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Warm,
    Decision,
    Options,
    Verify,
}

const KINDS: usize = 4;

impl Kind {
    fn index(self) -> usize {
        match self {
            Kind::Warm => 0,
            Kind::Decision => 1,
            Kind::Options => 2,
            Kind::Verify => 3,
        }
    }
}

/// What the worker is asked. Rules come as a draft's [`Snapshot`]: the rules file is made here, off the
/// UI thread (it reads every mined string).
pub enum Ask {
    /// Clean every page with these rules now (a source opened, the mining or the preview's rules changed),
    /// so the next decision's impact takes only what it changes.
    Warm { rules: Snapshot },
    /// What the draft's last change did: the baseline moves from `before` to `after`.
    Decision { before: Snapshot, after: Snapshot },
    /// What each option (a rule decided or made) would do to the pages cleaned with `rules`, before one is
    /// taken; with `evidence`, where that rule's matches sit.
    Options { rules: Snapshot, options: Vec<Rule>, evidence: Option<Rule> },
    /// What an editor action would do (a cutoff moved, a stage turned on or off), before it is taken: the
    /// baseline at `rules`, measured against `after` (the draft's [`crate::draft::Draft::if_taken`]). Of
    /// the options' kind: one dialog is open at a time.
    WhatIf { rules: Snapshot, after: Snapshot },
    /// Page `doc` as `rules` clean it, to be marked verified.
    Verify { rules: Snapshot, doc: usize },
    /// What region rule `rule` would do to the pages cleaned with `rules`, before it is decided.
    Region { rules: Snapshot, rule: crate::regions::RegionRule },
}

/// A draft's rules file as the worker measures it: on the documents as the UI holds them (HTML pages as
/// their views, unless mined as raw markup).
pub fn for_views(mut file: RulesFile) -> RulesFile {
    if file.tokenizer != crate::tokens::Tokenizer::Html {
        file.input = Some(crate::view::DocKind::Text);
    }
    file
}

impl Ask {
    pub fn kind(&self) -> Kind {
        match self {
            Ask::Warm { .. } => Kind::Warm,
            Ask::Decision { .. } => Kind::Decision,
            Ask::Options { .. } | Ask::Region { .. } | Ask::WhatIf { .. } => Kind::Options,
            Ask::Verify { .. } => Kind::Verify,
        }
    }
}

/// A request: the source's documents (as the UI holds them: HTML pages as their views), whether the
/// pending rules at or above the cutoff count (as the preview's cleaned text counts them), and the ask.
pub struct ImpactRequest {
    pub corpus: Arc<Corpus>,
    pub include_pending: bool,
    pub ask: Ask,
}

pub enum Answered {
    Warm,
    Decision(Impact),
    Options { impacts: Vec<Impact>, evidence: Option<Evidence> },
    Verify(VerifiedPage),
    Region(crate::regions::RegionImpact),
}

pub struct Answer {
    pub kind: Kind,
    pub generation: u64,
    pub result: Result<Answered, String>,
    pub elapsed: Duration,
}

pub struct ImpactWorker {
    /// The latest generation asked of each kind.
    latest: Arc<[AtomicU64; KINDS]>,
    counter: AtomicU64,
    requests: Sender<(u64, ImpactRequest)>,
    results: Receiver<Answer>,
    /// The generation of each kind whose answer the UI waits for (0: none).
    waiting: [u64; KINDS],
}

impl Default for ImpactWorker {
    fn default() -> Self {
        ImpactWorker::spawn()
    }
}

impl ImpactWorker {
    pub fn spawn() -> ImpactWorker {
        let latest: Arc<[AtomicU64; KINDS]> = Arc::new(Default::default());
        let (requests, inbox) = mpsc::channel::<(u64, ImpactRequest)>();
        let (outbox, results) = mpsc::channel();
        let seen = Arc::clone(&latest);
        // a core is left to the UI thread: measuring never starves the keys and frames
        let threads = thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("chaff-impact-{i}"))
            .start_handler(|_| super::priority::background())
            .build()
            .ok();
        let _ = thread::Builder::new().name("chaff-impact".into()).spawn(move || {
            super::priority::background();
            let mut kept: Option<Kept> = None;
            while let Ok((generation, request)) = inbox.recv() {
                let kind = request.ask.kind();
                let current = || seen[kind.index()].load(Ordering::SeqCst) == generation;
                if !current() {
                    continue;
                }
                let started = Instant::now();
                let result = match &pool {
                    Some(pool) => pool.install(|| answer(&mut kept, request)),
                    None => answer(&mut kept, request),
                };
                if !current() {
                    continue;
                }
                let answer = Answer { kind, generation, result, elapsed: started.elapsed() };
                if outbox.send(answer).is_err() {
                    break;
                }
            }
        });
        ImpactWorker { latest, counter: AtomicU64::new(0), requests, results, waiting: [0; KINDS] }
    }

    /// Queues a request; an older one of its kind is abandoned. Returns its generation.
    pub fn request(&mut self, request: ImpactRequest) -> u64 {
        let kind = request.ask.kind();
        let generation = self.counter.fetch_add(1, Ordering::SeqCst) + 1;
        self.latest[kind.index()].store(generation, Ordering::SeqCst);
        self.waiting[kind.index()] = generation;
        if self.requests.send((generation, request)).is_err() {
            // no worker (it could not start, or panicked): nothing will come back
            self.waiting[kind.index()] = 0;
        }
        generation
    }

    /// Drops what is asked of `kind` (a dialog closed): its answer will not come.
    pub fn cancel(&mut self, kind: Kind) {
        let generation = self.counter.fetch_add(1, Ordering::SeqCst) + 1;
        self.latest[kind.index()].store(generation, Ordering::SeqCst);
        self.waiting[kind.index()] = 0;
    }

    /// Whether an answer the UI waits for has not come yet.
    pub fn waiting(&self) -> bool {
        self.waiting.iter().any(|&g| g != 0)
    }

    /// Whether an answer of `kind` is on its way.
    pub fn waiting_for(&self, kind: Kind) -> bool {
        self.waiting[kind.index()] != 0
    }

    /// The next answer that is the latest of its kind (older ones are dropped).
    pub fn try_recv(&mut self) -> Option<Answer> {
        while let Ok(a) = self.results.try_recv() {
            if self.take(&a) {
                return Some(a);
            }
        }
        None
    }

    pub fn recv_timeout(&mut self, timeout: Duration) -> Option<Answer> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let a = self.results.recv_timeout(left).ok()?;
            if self.take(&a) {
                return Some(a);
            }
        }
    }

    fn take(&mut self, a: &Answer) -> bool {
        let i = a.kind.index();
        if self.waiting[i] != a.generation {
            return false;
        }
        self.waiting[i] = 0;
        true
    }
}

/// The source's baseline the worker keeps, and the rules it stands at (their rules file is made only when
/// they change: it reads every mined string).
struct Kept {
    base: Baseline,
    at: Snapshot,
}

/// The baseline of `request`'s source at `rules`: the one kept, moved on to them, or a new one (another
/// corpus, or the pending rules counted or not).
fn baseline<'a>(kept: &'a mut Option<Kept>, request: &ImpactRequest, rules: &Snapshot) -> Result<&'a mut Kept, String> {
    let fits = kept.as_ref().is_some_and(|k| {
        Arc::ptr_eq(k.base.corpus(), &request.corpus) && k.base.include_pending() == request.include_pending
    });
    if fits {
        let k = kept.as_mut().expect("kept");
        if !k.at.same(rules) {
            k.base.advance(&for_views(rules.rules_file())).map_err(|e| e.to_string())?;
            k.at = rules.clone();
        }
        return Ok(k);
    }
    // the old one is freed first: two baselines of a large source need not fit at once
    *kept = None;
    let file = for_views(rules.rules_file());
    let base =
        Baseline::of_corpus(&file, Arc::clone(&request.corpus), request.include_pending).map_err(|e| e.to_string())?;
    Ok(kept.insert(Kept { base, at: rules.clone() }))
}

fn answer(kept: &mut Option<Kept>, request: ImpactRequest) -> Result<Answered, String> {
    match &request.ask {
        Ask::Warm { rules } => {
            baseline(kept, &request, rules)?;
            Ok(Answered::Warm)
        }
        Ask::Decision { before, after } => {
            let k = baseline(kept, &request, before)?;
            let impact = k.base.advance(&for_views(after.rules_file())).map_err(|e| e.to_string())?;
            k.at = after.clone();
            Ok(Answered::Decision(impact))
        }
        Ask::Options { rules, options, evidence: rule } => {
            let b = &baseline(kept, &request, rules)?.base;
            let impacts = options
                .iter()
                .map(|o| b.impact(&with_rule(b.file(), o)))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?;
            let evidence = match rule {
                Some(r) => Some(evidence(b, r).map_err(|e| e.to_string())?),
                None => None,
            };
            Ok(Answered::Options { impacts, evidence })
        }
        Ask::Region { rules, rule } => {
            let b = &baseline(kept, &request, rules)?.base;
            Ok(Answered::Region(crate::regions::region_impact(b, rule).map_err(|e| e.to_string())?))
        }
        Ask::WhatIf { rules, after } => {
            let b = &baseline(kept, &request, rules)?.base;
            let impact = b.impact(&for_views(after.rules_file())).map_err(|e| e.to_string())?;
            Ok(Answered::Options { impacts: vec![impact], evidence: None })
        }
        Ask::Verify { rules, doc } => {
            let b = &baseline(kept, &request, rules)?.base;
            if *doc >= b.len() {
                return Err(format!("no document {} in the source", doc + 1));
            }
            Ok(Answered::Verify(crate::verified::page_of(b, *doc)))
        }
    }
}
