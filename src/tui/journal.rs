//! The journal of unsaved work: every decision (on a string rule or a region rule), cutoff move and
//! pattern change is appended, one JSON line
//! each, to a file beside the rules file (`rules/.<source>.toml.journal`) as the editor works. Saving
//! removes it; so does quitting without saving. A journal found at start is unsaved work from a session
//! that crashed or was killed, and is offered back.
//!
//! Appends are flushed at once (one small write per key). A line torn by a crash (even mid-character) is
//! skipped on reading; the lines around it are read.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cutoff::CutoffBin;
use crate::mutable::MutablePattern;
use crate::rules::Rule;
use crate::rules::region::RegionRule;
use crate::verified::VerifiedPage;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum Entry {
    /// A decision on a rule: the rule as it was then, with its new status and action.
    Decide {
        rule: Rule,
    },
    Cutoff {
        chosen: CutoffBin,
    },
    Patterns {
        patterns: Vec<MutablePattern>,
    },
    /// A decision on a region rule: the rule with its new status and action.
    Region {
        rule: RegionRule,
    },
    /// A page marked verified (`page`), or unmarked (`None`).
    Verified {
        id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        page: Option<VerifiedPage>,
    },
}

/// The net effect of a journal: last entry wins.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replay {
    pub decisions: HashMap<String, Rule>,
    pub cutoff: Option<CutoffBin>,
    pub patterns: Option<Vec<MutablePattern>>,
    /// Pages marked verified (`Some`) or unmarked (`None`), by id.
    pub verified: HashMap<String, Option<VerifiedPage>>,
    /// Region rules decided, by element.
    pub regions: HashMap<String, RegionRule>,
}

impl Replay {
    pub fn from_entries(entries: Vec<Entry>) -> Replay {
        let mut r = Replay::default();
        for e in entries {
            match e {
                Entry::Decide { rule } => {
                    r.decisions.insert(rule.id.clone(), rule);
                }
                Entry::Cutoff { chosen } => r.cutoff = Some(chosen),
                Entry::Patterns { patterns } => r.patterns = Some(patterns),
                Entry::Verified { id, page } => {
                    r.verified.insert(id, page);
                }
                Entry::Region { rule } => {
                    r.regions.insert(rule.element.clone(), rule);
                }
            }
        }
        r
    }

    pub fn is_empty(&self) -> bool {
        self.decisions.is_empty()
            && self.cutoff.is_none()
            && self.patterns.is_none()
            && self.verified.is_empty()
            && self.regions.is_empty()
    }

    /// One line for the prompt, e.g. "12 decisions, cutoff 60%, mutable patterns".
    pub fn summary(&self) -> String {
        let mut parts = vec![format!("{} decision(s)", self.decisions.len())];
        if !self.regions.is_empty() {
            parts.push(format!("{} region rule decision(s)", self.regions.len()));
        }
        if let Some(c) = self.cutoff {
            parts.push(format!("cutoff {c}%"));
        }
        if self.patterns.is_some() {
            parts.push("edited mutable patterns".into());
        }
        if !self.verified.is_empty() {
            parts.push(format!("{} page(s) marked or unmarked verified", self.verified.len()));
        }
        parts.join(", ")
    }
}

#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Option<File>,
    enabled: bool,
}

impl Journal {
    /// The journal of a rules file: `<dir>/.<file name>.journal`.
    pub fn path_for(rules: &Path) -> PathBuf {
        let name = rules.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "rules".into());
        rules.with_file_name(format!(".{name}.journal"))
    }

    pub fn new(rules: &Path, enabled: bool) -> Journal {
        Journal { path: Journal::path_for(rules), file: None, enabled }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The entries of a journal left on disk (none if there is no file). Read as bytes, line by line: a
    /// record torn by a kill (even inside a multi-byte character) is skipped, and every whole one before
    /// and after it is kept.
    pub fn read(&self) -> Vec<Entry> {
        if !self.enabled {
            return Vec::new();
        }
        let Ok(bytes) = fs::read(&self.path) else { return Vec::new() };
        bytes.split(|&b| b == b'\n').filter_map(|l| serde_json::from_slice(l).ok()).collect()
    }

    pub fn append(&mut self, entry: &Entry) -> io::Result<()> {
        if !self.enabled {
            return Ok(());
        }
        if self.file.is_none() {
            if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                fs::create_dir_all(dir)?;
            }
            let mut file = OpenOptions::new().create(true).append(true).open(&self.path)?;
            // a line torn by a crash must not swallow the next entry
            if fs::read(&self.path).is_ok_and(|b| b.last().is_some_and(|&c| c != b'\n')) {
                file.write_all(b"\n")?;
            }
            self.file = Some(file);
        }
        let mut line = serde_json::to_string(entry).map_err(io::Error::other)?;
        line.push('\n');
        let file = self.file.as_mut().expect("opened above");
        file.write_all(line.as_bytes())?;
        file.flush()
    }

    /// Forgets the journal (after a save, or when the editor discards the work).
    pub fn remove(&mut self) {
        self.file = None;
        if self.enabled {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Which process has a source open for editing: `rules/.<source>.toml.open`, beside the journal, holding
/// its pid. Two UIs on one source would share its journal (a save in one removes the other's crash
/// protection), so a second one is refused the source while that process lives. A lock left by a killed
/// process is stale (its pid is gone) and taken over: crash recovery is never blocked. Taking it, free or
/// stale, is done under the rules file's lock, so that of two UIs starting at once one takes it.
#[derive(Debug)]
pub struct OpenLock {
    path: PathBuf,
    pid: u32,
}

impl OpenLock {
    /// The lock of a rules file: `<dir>/.<file name>.open`.
    pub fn path_for(rules: &Path) -> PathBuf {
        let name = rules.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "rules".into());
        rules.with_file_name(format!(".{name}.open"))
    }

    /// The pid of the live process, not this one, that has the rules file `rules` open, if any.
    pub fn holder(rules: &Path) -> Option<u32> {
        holder_of(&OpenLock::path_for(rules), std::process::id())
    }

    /// Takes the lock of the rules file `rules`; `Err` with the pid of the live process that holds it.
    /// Where the lock cannot be written (a read-only folder), the source opens without one.
    pub fn take(rules: &Path) -> Result<OpenLock, u32> {
        OpenLock::take_as(rules, std::process::id())
    }

    /// [`OpenLock::take`] for process `pid` (a test stands in for two processes with two pids).
    fn take_as(rules: &Path, pid: u32) -> Result<OpenLock, u32> {
        let path = OpenLock::path_for(rules);
        // The rules file's lock orders those taking this one, so that reading its holder and writing ours
        // are one step: of two UIs that find it free, or stale (its process gone), only the first takes it;
        // the second finds the first's pid. Without that lock (a read-only folder, a holder that hangs),
        // the source opens as before.
        let guard = crate::merge::lock_within(rules, OPEN_GUARD_TIMEOUT, |_| {});
        if let Some(holder) = holder_of(&path, pid) {
            return Err(holder);
        }
        // written whole, a temporary file renamed over it: never found empty, nor half a pid
        let _ = crate::atomic::write_atomic(&path, format!("{pid}\n").as_bytes());
        drop(guard);
        Ok(OpenLock { path, pid })
    }
}

/// How long taking the open lock waits for the rules file's lock (held for a save's milliseconds).
const OPEN_GUARD_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// The pid in the open lock at `path` when that process lives and is not `me`.
fn holder_of(path: &Path, me: u32) -> Option<u32> {
    let text = fs::read_to_string(path).ok()?;
    let pid: u32 = text.trim().parse().ok()?;
    (pid != me && crate::atomic::process_alive(pid)).then_some(pid)
}

impl Drop for OpenLock {
    fn drop(&mut self) {
        // only our own: another process may have taken over a lock it found stale
        if fs::read_to_string(&self.path).is_ok_and(|t| t.trim().parse() == Ok(self.pid)) {
            let _ = fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pid no process has (above Linux's largest, 2^22).
    const DEAD: u32 = 4_194_305;

    #[test]
    fn a_stale_open_lock_is_taken_over_by_one_of_two_uis_racing_for_it() {
        let dir = tempfile::tempdir().unwrap();
        let rules = dir.path().join("demo.toml");
        // two live processes: this one and its parent
        let pids = [std::process::id(), std::os::unix::process::parent_id()];
        for _ in 0..25 {
            fs::write(OpenLock::path_for(&rules), format!("{DEAD}\n")).unwrap();
            let start = std::sync::Barrier::new(2);
            let results: Vec<Result<OpenLock, u32>> = std::thread::scope(|s| {
                let racers: Vec<_> = pids
                    .iter()
                    .map(|&pid| {
                        let (rules, start) = (&rules, &start);
                        s.spawn(move || {
                            start.wait();
                            OpenLock::take_as(rules, pid)
                        })
                    })
                    .collect();
                racers.into_iter().map(|r| r.join().unwrap()).collect()
            });
            let won: Vec<u32> = results.iter().filter_map(|r| r.as_ref().ok().map(|l| l.pid)).collect();
            assert_eq!(won.len(), 1, "one takes it, the other is refused: {results:?}");
            let text = fs::read_to_string(OpenLock::path_for(&rules)).unwrap();
            assert_eq!(text.trim(), won[0].to_string(), "the lock names the one that took it");
            let lost = results.iter().find_map(|r| r.as_ref().err()).copied();
            assert_eq!(lost, Some(won[0]), "the other is told who holds it");
        }
    }

    #[test]
    fn append_read_and_replay() {
        let dir = tempfile::tempdir().unwrap();
        let rules = dir.path().join("demo.toml");
        let mut j = Journal::new(&rules, true);
        assert!(j.read().is_empty());
        j.append(&Entry::Cutoff { chosen: 40 }).unwrap();
        j.append(&Entry::Cutoff { chosen: 55 }).unwrap();
        // a torn last line, as a crash mid-write would leave
        OpenOptions::new().append(true).open(j.path()).unwrap().write_all(b"{\"t\":\"dec").unwrap();
        let replay = Replay::from_entries(Journal::new(&rules, true).read());
        assert_eq!(replay.cutoff, Some(55));
        // a page verified, then unmarked: the last entry wins
        let page = VerifiedPage { id: "0003".into(), input: "0".into(), removed: vec![(0, 4)], text: "x".into() };
        j.append(&Entry::Verified { id: "0003".into(), page: Some(page) }).unwrap();
        j.append(&Entry::Verified { id: "0003".into(), page: None }).unwrap();
        let replay = Replay::from_entries(Journal::new(&rules, true).read());
        assert_eq!(replay.verified.get("0003"), Some(&None));
        assert!(replay.summary().contains("1 page(s) marked or unmarked verified"));
        j.remove();
        assert!(!j.path().exists());
    }
}
