//! Watching the rules file and the corpus folder (notify, debounced), forwarding a unit message per
//! kind of change. The UI decides what a change means: its own saves are recognised by content.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer};

/// Quiet time before a burst of file events is reported once.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The rules file was written, replaced or removed.
    Rules,
    /// Documents of the corpus were added, changed or removed.
    Corpus,
}

pub struct Watch {
    _debouncer: Debouncer<RecommendedWatcher>,
    pub changes: Receiver<Change>,
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

/// Starts watching `rules` (its folder, so a file replaced by rename is seen) and `corpus`.
pub fn start(rules: &Path, corpus: &Path) -> Result<Watch, String> {
    let rules_dir = match rules.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&rules_dir).map_err(|e| format!("{}: {e}", rules_dir.display()))?;
    let rules_dir = absolute(&rules_dir);
    let rules_file = rules_dir.join(rules.file_name().unwrap_or_default());
    let corpus = absolute(corpus);
    let (corpus_dir, corpus_file) = if corpus.is_dir() {
        (corpus.clone(), None)
    } else {
        (corpus.parent().unwrap_or(Path::new("/")).to_path_buf(), Some(corpus.clone()))
    };
    let (tx, changes) = mpsc::channel();
    let (rf, cd, cf) = (rules_file.clone(), corpus_dir.clone(), corpus_file.clone());
    let mut debouncer = new_debouncer(DEBOUNCE, move |res: DebounceEventResult| {
        let Ok(events) = res else { return };
        let (mut rules, mut docs) = (false, false);
        for e in events {
            if e.path == rf {
                rules = true;
            } else if match &cf {
                Some(f) => &e.path == f,
                None => e.path.parent() == Some(cd.as_path()) && is_document(&e.path),
            } {
                docs = true;
            }
        }
        if rules {
            let _ = tx.send(Change::Rules);
        }
        if docs {
            let _ = tx.send(Change::Corpus);
        }
    })
    .map_err(|e| format!("file watcher: {e}"))?;
    debouncer
        .watcher()
        .watch(&rules_dir, RecursiveMode::NonRecursive)
        .map_err(|e| format!("{}: {e}", rules_dir.display()))?;
    if corpus_dir != rules_dir {
        debouncer
            .watcher()
            .watch(&corpus_dir, RecursiveMode::NonRecursive)
            .map_err(|e| format!("{}: {e}", corpus_dir.display()))?;
    }
    Ok(Watch { _debouncer: debouncer, changes })
}
