//! The sources table's background work: what needs reading per source (its documents counted, its rules
//! file read, then its corpus cleaned by its rules for the share removed and the drift) is done on one
//! thread, never the UI's, and reported row by row as it is ready.
//!
//! Two passes: every row's quick facts first (a folder listing and a rules file each), then the costly
//! measure, so a thousand rows fill in their counts before the first corpus is read. A request for a row
//! (the source just left, its rules saved) goes to the front; each row's latest request wins: reports
//! carry the row's generation and the table drops older ones.

use std::collections::{HashSet, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};

use crate::corpus::Corpus;
use crate::review::ReviewState;
use crate::rules::{RulesFile, Status};

/// What a source's rules file says, for the table.
#[derive(Debug, Clone, PartialEq)]
pub enum RulesInfo {
    /// No rules file yet: the source is mined when opened.
    None,
    /// The file cannot be read or parsed (the message names file, line and column).
    Unusable(String),
    Rules(Summary),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub accepted: usize,
    pub rejected: usize,
    pub pending: usize,
    pub review: ReviewState,
    /// When it was reviewed (RFC 3339, UTC), if ever.
    pub reviewed_at: Option<String>,
    /// The drift its `[review]` table recorded at the last check.
    pub checked_drift: Option<f64>,
    /// Pages an editor verified (`<source>.verified.toml`), when that file reads.
    pub verified: Option<usize>,
}

impl Summary {
    pub fn of(file: &RulesFile) -> Summary {
        let review = file.review.as_ref();
        Summary {
            accepted: file.count(Status::Accepted),
            rejected: file.count(Status::Rejected),
            pending: file.count(Status::Pending),
            review: crate::review::state(file),
            reviewed_at: review.and_then(|r| r.reviewed_at.clone()),
            checked_drift: review.and_then(|r| r.drift),
            verified: None,
        }
    }
}

/// The measure of a source's corpus against its rules.
#[derive(Debug, Clone, PartialEq)]
pub enum Measure {
    /// Not measured yet.
    Waiting,
    /// Nothing to measure: no rules file, or it has no rule that cleans.
    None,
    Done {
        /// Share of the corpus's bytes the rules remove.
        removed: f64,
        /// See [`crate::drift`]: 0 none of the template lost, 1 no rule matches any more.
        drift: f64,
        /// Measured with the pending rules (no rule accepted yet): what the automatic rules would remove.
        pending: bool,
    },
    Failed(String),
}

/// One row's work.
#[derive(Debug, Clone)]
pub struct Job {
    pub row: usize,
    pub generation: u64,
    pub corpus: PathBuf,
    /// A crawl's source: counted and read from the crawl's spool.
    pub crawl: Option<super::sources::CrawlSource>,
    pub rules: PathBuf,
    /// Asked for again (the editor changed the source): before the rows still waiting.
    pub urgent: bool,
}

pub enum Report {
    Quick {
        row: usize,
        generation: u64,
        documents: usize,
        rules: RulesInfo,
        /// Its candidates' texts, as other sources count them for idioms.
        candidates: Option<Arc<HashSet<String>>>,
    },
    Measured {
        row: usize,
        generation: u64,
        measure: Measure,
    },
}

impl Report {
    pub fn row(&self) -> (usize, u64) {
        match self {
            Report::Quick { row, generation, .. } | Report::Measured { row, generation, .. } => (*row, *generation),
        }
    }
}

struct Request {
    jobs: Vec<Job>,
    /// Before everything queued (a row the editor just changed).
    front: bool,
}

/// The handle on the scanning thread; dropping it ends the thread after its current row.
pub struct Scanner {
    tx: Sender<Request>,
    pub rx: Receiver<Report>,
}

impl Scanner {
    pub fn spawn() -> Scanner {
        let (tx, requests) = mpsc::channel::<Request>();
        let (reports, rx) = mpsc::channel::<Report>();
        std::thread::Builder::new()
            .name("chaff-sources".into())
            .spawn(move || work(requests, reports))
            .expect("a thread for the sources table");
        Scanner { tx, rx }
    }

    pub fn request(&self, jobs: Vec<Job>, front: bool) {
        let _ = self.tx.send(Request { jobs, front });
    }
}

fn work(requests: Receiver<Request>, reports: Sender<Report>) {
    // the measure's parallel loops run on this thread alone: the table's background work must leave the
    // other cores to the UI and to the miner of the source being opened
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().ok();
    let mut quick: VecDeque<Job> = VecDeque::new();
    let mut full: VecDeque<(Job, Arc<RulesFile>)> = VecDeque::new();
    let take = |r: Request, quick: &mut VecDeque<Job>, full: &mut VecDeque<(Job, Arc<RulesFile>)>| {
        // a row asked again drops its older queued work: the newest request is the one that counts
        quick.retain(|q| !r.jobs.iter().any(|j| j.row == q.row));
        full.retain(|(q, _)| !r.jobs.iter().any(|j| j.row == q.row));
        if r.front {
            for mut j in r.jobs.into_iter().rev() {
                j.urgent = true;
                quick.push_front(j);
            }
        } else {
            quick.extend(r.jobs);
        }
    };
    loop {
        if quick.is_empty() && full.is_empty() {
            match requests.recv() {
                Ok(r) => take(r, &mut quick, &mut full),
                Err(_) => return,
            }
        }
        loop {
            match requests.try_recv() {
                Ok(r) => take(r, &mut quick, &mut full),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return,
            }
        }
        if let Some(job) = quick.pop_front() {
            let documents = job.crawl.as_ref().map_or_else(|| count_documents(&job.corpus), |c| c.documents());
            let (rules, file) = read_rules(&job.rules);
            let (row, generation) = (job.row, job.generation);
            let candidates = file.as_ref().map(|f| Arc::new(crate::tui::source::Idioms::candidate_texts(f)));
            if reports.send(Report::Quick { row, generation, documents, rules, candidates }).is_err() {
                return;
            }
            match file {
                // a row asked for again is measured before the rows still waiting for their first measure
                Some(file) if job.urgent => full.push_front((job, Arc::new(file))),
                Some(file) => full.push_back((job, Arc::new(file))),
                None => {
                    if reports.send(Report::Measured { row, generation, measure: Measure::None }).is_err() {
                        return;
                    }
                }
            }
        } else if let Some((job, file)) = full.pop_front() {
            let measure = match &pool {
                Some(pool) => pool.install(|| measure_job(&job, &file)),
                None => measure_job(&job, &file),
            };
            if reports.send(Report::Measured { row: job.row, generation: job.generation, measure }).is_err() {
                return;
            }
        }
    }
}

/// The documents of a source folder, as the corpus reader counts them (gold and template files aside).
pub fn count_documents(corpus: &Path) -> usize {
    let Ok(entries) = fs::read_dir(corpus) else { return 0 };
    entries
        .flatten()
        .filter(|e| {
            let n = e.file_name();
            let n = n.to_string_lossy();
            !n.starts_with('.')
                && !n.ends_with(".gold.txt")
                && !n.contains(".template.")
                && (n.ends_with(".txt") || n.ends_with(".html") || n.ends_with(".htm"))
        })
        .count()
}

/// The rules file read, not checked: checking compiles every regex (a thousand files took seconds), and
/// a regex that does not compile shows when the file is measured, and when the source is opened.
fn read_rules(path: &Path) -> (RulesInfo, Option<RulesFile>) {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (RulesInfo::None, None),
        Err(e) => return (RulesInfo::Unusable(format!("{}: {e}", path.display())), None),
    };
    match toml::from_str::<RulesFile>(&text) {
        Ok(file) => {
            // the pages an editor verified sit beside the rules, in their own file
            let verified = crate::verified::Verified::load(&crate::verified::path_for(path)).ok();
            let summary = Summary { verified: verified.map(|v| v.pages.len()), ..Summary::of(&file) };
            (RulesInfo::Rules(summary), Some(file))
        }
        // the full parse names the line and column
        Err(e) => {
            let message = RulesFile::parse(&text, path).err().map_or_else(|| e.to_string(), |e| e.to_string());
            (RulesInfo::Unusable(message), None)
        }
    }
}

fn measure_job(job: &Job, file: &RulesFile) -> Measure {
    match &job.crawl {
        Some(c) => measure_corpus(|| c.corpus(), file),
        None => measure(&job.corpus, file),
    }
}

/// The corpus cleaned by its accepted rules (by the pending ones while none is accepted): the share of
/// bytes removed and the drift, in one pass over each document (see [`crate::drift::drift`]).
pub fn measure(corpus: &Path, file: &RulesFile) -> Measure {
    measure_corpus(|| Corpus::load(corpus), file)
}

/// [`measure`] of a corpus `load` reads (a folder, or a crawl's spool), read only when there is a rule
/// to measure.
pub fn measure_corpus(load: impl FnOnce() -> crate::error::Result<Corpus>, file: &RulesFile) -> Measure {
    let accepted = file.count(Status::Accepted) > 0;
    if !accepted && file.active_rules(true).next().is_none() {
        return Measure::None;
    }
    let corpus = match load() {
        Ok(c) => c,
        Err(e) => return Measure::Failed(e.to_string()),
    };
    let docs = crate::page::documents_for(file, corpus.docs);
    match crate::drift::drift(file, &docs, !accepted) {
        Ok(d) => Measure::Done { removed: d.removed_now, drift: d.drift, pending: !accepted },
        Err(e) => Measure::Failed(e.to_string()),
    }
}
