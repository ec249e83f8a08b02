//! The lock beside a rules file: every writer (`chaff mine`, the tuning UI) re-reads, merges and replaces
//! the file while holding it, so no save is lost between another writer's read and its write.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
/// How long a writer waits for a rules file's lock held by another process, unless told otherwise:
/// long enough for another writer's save (milliseconds), short enough that a lock forgotten in an open
/// tuning UI is reported instead of hanging a batch.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(30);

/// Between two tries of a held lock: short next to a human's wait, long next to a try's cost.
const LOCK_POLL: Duration = Duration::from_millis(50);

/// Who holds a rules file's lock, as its holder wrote it into the lock file on taking it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LockHolder {
    /// The lock file.
    pub lock_path: PathBuf,
    /// The holder's process id, if it wrote one and that process still runs.
    pub pid: Option<u32>,
    /// Its command (`chaff tune`), if it wrote one.
    pub command: Option<String>,
}

impl fmt::Display for LockHolder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.pid, self.command.as_deref()) {
            (Some(pid), Some(cmd)) => write!(f, "pid {pid} ({cmd})"),
            (Some(pid), None) => write!(f, "pid {pid}"),
            // a holder that wrote nothing: another program, or a chaff from before holders were written
            _ => write!(f, "another process"),
        }
    }
}

/// The lock file beside a rules file: `.<name>.lock`.
pub fn lock_path(path: &Path) -> PathBuf {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().map_or_else(|| "rules".into(), |n| n.to_string_lossy());
    dir.join(format!(".{name}.lock"))
}

/// This process as a lock's holder names it: its pid and command (`chaff mine`).
fn holder_line() -> String {
    // args_os: `args` panics on an argument that is not UTF-8 (a file name)
    let mut args = std::env::args_os().map(|a| a.to_string_lossy().into_owned());
    let program = args
        .next()
        .map(|a| Path::new(&a).file_name().map_or(a.clone(), |n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "chaff".into());
    let command = match args.next().filter(|a| !a.starts_with('-')) {
        Some(sub) => format!("{program} {sub}"),
        None => program,
    };
    // one line: the reader splits pid from command at the first space
    let command: String = command.chars().map(|c| if c.is_control() { ' ' } else { c }).take(200).collect();
    format!("{} {command}\n", std::process::id())
}

/// Reads who holds the lock from the lock file (a pid no longer running is not named: the file then
/// holds a former holder's line, and the holder wrote none).
fn read_holder(lock_path: &Path) -> LockHolder {
    let text = fs::read_to_string(lock_path).unwrap_or_default();
    let line = text.lines().next().unwrap_or_default();
    let (pid, command) = line.split_once(' ').unwrap_or((line, ""));
    let pid = pid.parse::<u32>().ok().filter(|&p| crate::atomic::process_alive(p));
    let command = pid.and(Some(command.trim())).filter(|c| !c.is_empty()).map(str::to_string);
    LockHolder { lock_path: lock_path.to_path_buf(), pid, command }
}

/// Opens the lock file of `path`, creating its folder and the file if needed.
fn open_lock(path: &Path) -> Result<(File, PathBuf)> {
    let lock_path = lock_path(path);
    if let Some(dir) = lock_path.parent() {
        fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| Error::io(&lock_path, e))?;
    Ok((file, lock_path))
}

/// Writes this process's pid and command into a lock just taken, for a writer it blocks to name.
fn sign(file: &mut File) {
    use std::io::{Seek, Write};
    // best effort: the lock holds without it, only a blocked writer's message is vaguer
    let _ = file.set_len(0);
    let _ = file.rewind();
    let _ = file.write_all(holder_line().as_bytes());
}

/// Tries once to take the lock beside a rules file: the lock, or who holds it.
pub fn try_lock(path: &Path) -> Result<std::result::Result<File, LockHolder>> {
    let (mut file, lock_path) = open_lock(path)?;
    match file.try_lock() {
        Ok(()) => {
            sign(&mut file);
            Ok(Ok(file))
        }
        Err(fs::TryLockError::WouldBlock) => Ok(Err(read_holder(&lock_path))),
        Err(fs::TryLockError::Error(e)) => Err(Error::io(&lock_path, e)),
    }
}

/// Takes the lock beside a rules file, waiting at most `timeout` for another process to let go of it;
/// `on_blocked` is called once, with the holder, when the first try finds it held (to say so). Past the
/// timeout, an error names the file, the holder and what to do.
pub fn lock_within(path: &Path, timeout: Duration, mut on_blocked: impl FnMut(&LockHolder)) -> Result<File> {
    let start = Instant::now();
    let mut told = false;
    loop {
        let holder = match try_lock(path)? {
            Ok(file) => return Ok(file),
            Err(holder) => holder,
        };
        if !told {
            on_blocked(&holder);
            told = true;
        }
        let waited = start.elapsed();
        if waited >= timeout {
            return Err(Error::Invalid(format!(
                "{}: its lock {} is held by {holder} (waited {} s); nothing was written: close or finish that \
                 process (save and quit a tuning UI), then run again, or wait longer with --lock-timeout SECS",
                path.display(),
                holder.lock_path.display(),
                waited.as_secs()
            )));
        }
        std::thread::sleep(LOCK_POLL.min(timeout - waited));
    }
}

/// The lock beside a rules file (`.<name>.lock`, kept: removing it would race with a writer that opened
/// it), held while the file is re-read, merged and replaced; waited for at most [`LOCK_TIMEOUT`],
/// silently. Released when the returned file is dropped (or its process ends).
pub fn lock(path: &Path) -> Result<File> {
    lock_within(path, LOCK_TIMEOUT, |_| {})
}
