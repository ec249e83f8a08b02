//! Watching the rules file and the corpus folder (notify, debounced here), forwarding a unit message per
//! kind of change. The UI decides what a change means: its own saves are recognised by content.
//!
//! Only events that can change content count. Reading a file is an event too (inotify reports every
//! open and close): a `cat`, a `grep`, a `chaff clean` of the corpus, and the miner's own reading of
//! it after a change, would otherwise each start a re-mine, for ever. The documents' sizes and
//! modification times ([`Fingerprint`]) are compared as well, so a change that leaves every document
//! as it was (a `chmod`, a file of another kind) mines nothing.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use notify::event::{MetadataKind, ModifyKind};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

/// Quiet time before a burst of file events is reported once.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

/// A burst that never quiets down (a file written for minutes) is still reported this often.
const MAX_DELAY: Duration = Duration::from_secs(2);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The rules file was written, replaced or removed.
    Rules,
    /// Documents of the corpus were added, changed or removed.
    Corpus,
}

/// What the documents of a corpus look like on disk without reading them: each document's path, size
/// and modification time, sorted by path.
pub type Fingerprint = Vec<(PathBuf, u64, Option<SystemTime>)>;

pub struct Watch {
    _watcher: RecommendedWatcher,
    pub changes: Receiver<Change>,
    corpus: PathBuf,
    /// The documents as last mined (or as they were when watching started).
    print: Fingerprint,
}

impl Watch {
    /// Whether the corpus's documents differ from when this was last asked (or watching started): a
    /// corpus change reported by the watcher is mined only then.
    pub fn corpus_changed(&mut self) -> bool {
        let now = fingerprint(&self.corpus);
        let changed = now != self.print;
        self.print = now;
        changed
    }
}

fn absolute(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

fn is_document(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name.starts_with('.') || name.ends_with(".gold.txt") || name.contains(".template.") {
        return false;
    }
    matches!(path.extension().and_then(|e| e.to_str()), Some("txt" | "html" | "htm" | "jsonl"))
}

/// The documents of `corpus` (a folder, or one .jsonl file) as the watcher sees them.
pub fn fingerprint(corpus: &Path) -> Fingerprint {
    let paths: Vec<PathBuf> = if corpus.is_dir() {
        fs::read_dir(corpus)
            .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| is_document(p)).collect())
            .unwrap_or_default()
    } else {
        vec![corpus.to_path_buf()]
    };
    let mut print: Fingerprint = paths
        .into_iter()
        .filter_map(|p| {
            let meta = fs::metadata(&p).ok()?;
            Some((p, meta.len(), meta.modified().ok()))
        })
        .collect();
    print.sort();
    print
}

/// Whether an event can mean new content. Opening, reading and closing a file are access events, and
/// an access time that moved is metadata of the same kind.
fn may_change_content(kind: &EventKind) -> bool {
    !matches!(kind, EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)))
}

/// Which files matter, and what a change to each means.
struct Targets {
    rules_file: PathBuf,
    corpus_dir: PathBuf,
    /// A corpus that is one file (.jsonl).
    corpus_file: Option<PathBuf>,
}

impl Targets {
    /// Whether `event` may have changed the rules file, and the corpus's documents.
    fn classify(&self, event: &Event) -> (bool, bool) {
        let (mut rules, mut corpus) = (false, false);
        if !may_change_content(&event.kind) {
            return (rules, corpus);
        }
        for p in &event.paths {
            if *p == self.rules_file {
                rules = true;
            } else if match &self.corpus_file {
                Some(f) => p == f,
                None => p.parent() == Some(self.corpus_dir.as_path()) && is_document(p),
            } {
                corpus = true;
            }
        }
        (rules, corpus)
    }
}

/// Reports each burst of relevant events once, after [`DEBOUNCE`] without another (at most
/// [`MAX_DELAY`] after its first). Events that do not count do not hold a report back. Ends when the
/// watcher is dropped (its sender closes) or the UI is gone.
fn debounce(events: Receiver<notify::Result<Event>>, targets: Targets, out: Sender<Change>) {
    loop {
        let (mut rules, mut corpus) = (false, false);
        // wait for the first relevant event
        while !(rules || corpus) {
            match events.recv() {
                Ok(Ok(e)) => {
                    let (r, c) = targets.classify(&e);
                    (rules, corpus) = (rules | r, corpus | c);
                }
                Ok(Err(_)) => {}
                Err(_) => return,
            }
        }
        let first = Instant::now();
        let mut quiet_from = first;
        loop {
            let now = Instant::now();
            let until = (quiet_from + DEBOUNCE).min(first + MAX_DELAY);
            if now >= until {
                break;
            }
            match events.recv_timeout(until - now) {
                Ok(Ok(e)) => {
                    let (r, c) = targets.classify(&e);
                    (rules, corpus) = (rules | r, corpus | c);
                    if r || c {
                        quiet_from = Instant::now();
                    }
                }
                Ok(Err(_)) => {}
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        let sent = [(rules, Change::Rules), (corpus, Change::Corpus)]
            .into_iter()
            .filter(|(on, _)| *on)
            .all(|(_, change)| out.send(change).is_ok());
        if !sent {
            return;
        }
    }
}

/// Starts watching `rules` (its folder, so a file replaced by rename is seen) and `corpus`.
pub fn start(rules: &Path, corpus: &Path) -> Result<Watch, String> {
    let rules_dir = match rules.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&rules_dir).map_err(|e| format!("{}: {e}", rules_dir.display()))?;
    let rules_dir = absolute(&rules_dir);
    let rules_file = rules_dir.join(rules.file_name().unwrap_or_default());
    let corpus_abs = absolute(corpus);
    let (corpus_dir, corpus_file) = if corpus_abs.is_dir() {
        (corpus_abs.clone(), None)
    } else {
        (corpus_abs.parent().unwrap_or(Path::new("/")).to_path_buf(), Some(corpus_abs.clone()))
    };
    let (raw_tx, raw) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(raw_tx).map_err(|e| format!("file watcher: {e}"))?;
    watcher.watch(&rules_dir, RecursiveMode::NonRecursive).map_err(|e| format!("{}: {e}", rules_dir.display()))?;
    if corpus_dir != rules_dir {
        watcher
            .watch(&corpus_dir, RecursiveMode::NonRecursive)
            .map_err(|e| format!("{}: {e}", corpus_dir.display()))?;
    }
    let (tx, changes) = mpsc::channel();
    let targets = Targets { rules_file, corpus_dir, corpus_file };
    thread::Builder::new()
        .name("chaff-watch".into())
        .spawn(move || debounce(raw, targets, tx))
        .map_err(|e| format!("file watcher: {e}"))?;
    let print = fingerprint(&corpus_abs);
    Ok(Watch { _watcher: watcher, changes, corpus: corpus_abs, print })
}
