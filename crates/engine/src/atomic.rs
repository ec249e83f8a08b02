//! Atomic writes: a temporary file in the target's folder, then a rename, so a crash leaves the old
//! file or the new one, never half of one.
//!
//! Rules files are written with [`write_atomic`], synced before the rename. Regenerable outputs (`chaff
//! clean --out`) are written with [`write_unsynced`] and made durable together by [`sync_folder`]: an
//! fsync per file costs a journal commit each, which made cleaning thousands of small files disk-bound.
//!
//! A replaced file keeps its mode; a new file gets 0666 less the umask, as any file a program creates.
//! Temporary files are named `.chaff-<host>-<pid>-<random>.tmp`: a writer killed before its rename
//! leaves one behind, and [`prepare_folder`] (which `write_atomic` calls) removes those of processes
//! that are gone, and any older than an hour, never a live writer's.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use crate::error::{Error, Result};

/// A temporary file this old belongs to no live writer (one writes and renames within seconds), even
/// one on another host sharing the folder, whose process this host cannot see.
const STALE_AGE: Duration = Duration::from_secs(3600);

/// Writes `bytes` to `path` atomically and durably (file and folder synced), creating the folder if
/// needed and removing stale temporary files left in it.
///
/// A symbolic link is written through, as editors do: its target is replaced (atomically, keeping its
/// mode) and the link stays, so the file it points to is the one that changes.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let target = resolve_links(path)?;
    let path = target.as_path();
    let dir = folder_of(path);
    prepare_folder(dir)?;
    write_temp_and_rename(dir, path, bytes, true)?;
    // The rename is durable once the folder is; some file systems cannot sync a folder, and the file
    // itself already is.
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The file `path` names once its symbolic links are followed (a link's relative target is read from
/// the link's folder; a link to nothing yet names the file to create). Not a link: `path` itself.
pub fn resolve_links(path: &Path) -> Result<PathBuf> {
    // the limit Linux puts on a chain of links (ELOOP)
    const MAX_LINKS: usize = 40;
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&at).map_err(|e| Error::io(&at, e))?;
                at = folder_of(&at).join(target);
            }
            _ => return Ok(at),
        }
    }
    Err(Error::Invalid(format!(
        "{}: more than {MAX_LINKS} symbolic links in a row (a loop?); nothing was written: point it at a file",
        path.display()
    )))
}

/// Creates `dir` if needed and removes the temporary files that killed writers left in it. Call once
/// per folder before [`write_unsynced`]s into it.
pub fn prepare_folder(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    remove_stale_temps(dir);
    Ok(())
}

/// Whether files can be written into the folder `dir`: a temporary file, as a write makes, is created
/// there and removed. Tried once before a batch, so that a folder no file can go into fails the run at its
/// start rather than each document of it.
pub fn check_writable(dir: &Path) -> std::io::Result<()> {
    tempfile::Builder::new().prefix(temp_prefix()).suffix(".tmp").tempfile_in(dir).map(drop).map_err(|e| {
        // the error without the temporary file's name, which tells the reader nothing
        e.raw_os_error().map_or_else(|| std::io::Error::from(e.kind()), std::io::Error::from_raw_os_error)
    })
}

/// Whether the file system holding folder `dir` folds case, so that `A.txt` and `a.txt` are one file (as
/// macOS's and Windows' are by default): a temporary file is made there and looked up by its name with
/// each letter's case swapped. Outputs whose names differ only in case would replace each other there.
pub fn folds_case(dir: &Path) -> std::io::Result<bool> {
    let probe = tempfile::Builder::new().prefix(temp_prefix()).suffix(".tmp").tempfile_in(dir)?;
    let name = probe.path().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let swapped: String = name
        .chars()
        .map(|c| if c.is_ascii_lowercase() { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() })
        .collect();
    Ok(swapped != name && dir.join(&swapped).exists())
}

/// Writes `bytes` to `path` atomically (temporary file, then rename) without syncing: a crash may lose
/// the new content, never leave half of it. The folder must exist ([`prepare_folder`]); call
/// [`sync_folder`] once all are written.
pub fn write_unsynced(path: &Path, bytes: &[u8]) -> Result<()> {
    write_temp_and_rename(folder_of(path), path, bytes, false)
}

/// Makes every file written into `dir` durable: one sync of its file system, instead of one per file.
pub fn sync_folder(dir: &Path) -> Result<()> {
    let d = fs::File::open(dir).map_err(|e| Error::io(dir, e))?;
    sync_file_system(&d).map_err(|e| Error::io(dir, e))?;
    let _ = d.sync_all();
    Ok(())
}

/// Flushes the file system holding `file` (Linux `syncfs`, which also reports write-back errors).
#[cfg(target_os = "linux")]
fn sync_file_system(file: &fs::File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: syncfs only reads the descriptor, which `file` keeps open for the call.
    if unsafe { libc::syncfs(file.as_raw_fd()) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Flushes every file system: elsewhere there is no call for one.
#[cfg(all(unix, not(target_os = "linux")))]
fn sync_file_system(_: &fs::File) -> std::io::Result<()> {
    // SAFETY: sync takes no arguments and cannot fail.
    unsafe { libc::sync() };
    Ok(())
}

#[cfg(not(unix))]
fn sync_file_system(_: &fs::File) -> std::io::Result<()> {
    Ok(())
}

fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

fn write_temp_and_rename(dir: &Path, path: &Path, bytes: &[u8], sync: bool) -> Result<()> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(temp_prefix()).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Created with open(2)'s mode, so the umask applies, as to any new file (tempfile's default is 0600).
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(|e| Error::io(dir, e))?;
    if let Ok(meta) = fs::metadata(path) {
        // A replaced file keeps its mode: the rename must not lock out its other readers and writers.
        tmp.as_file().set_permissions(meta.permissions()).map_err(|e| Error::io(path, e))?;
    }
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    if sync {
        tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    }
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// `.chaff-<host>-<pid>-`: who wrote a temporary file, so a later writer knows whether it is stale.
fn temp_prefix() -> &'static str {
    static PREFIX: OnceLock<String> = OnceLock::new();
    PREFIX.get_or_init(|| format!(".chaff-{}-{}-", host_name(), std::process::id()))
}

/// This host's name with `-` (the name's field separator) and anything unusual replaced by `_`.
fn host_name() -> String {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: the buffer is valid for its length; gethostname writes at most that many bytes.
        if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0 {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            let name: String = buf[..end]
                .iter()
                .map(|&b| if b.is_ascii_alphanumeric() || b == b'.' { b as char } else { '_' })
                .collect();
            if !name.is_empty() {
                return name;
            }
        }
    }
    "host".to_string()
}

/// Removes `.chaff-*.tmp` files of writers that are gone: written on this host by a process that no
/// longer runs, or older than [`STALE_AGE`] (another host's, or written before names held a pid).
/// Best effort: a file that cannot be read or removed is left alone.
fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let host = host_name();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(fields) = name.to_str().and_then(|n| n.strip_prefix(".chaff-")).and_then(|n| n.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Ok(meta) = entry.metadata() else { continue };
        let age = meta.modified().ok().and_then(|m| SystemTime::now().duration_since(m).ok()).unwrap_or_default();
        let writer_gone = match fields.split('-').collect::<Vec<_>>()[..] {
            [h, pid, _] if h == host => pid.parse().is_ok_and(|pid| !process_alive(pid)),
            _ => false,
        };
        if meta.is_file() && (writer_gone || age > STALE_AGE) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` runs on this host (in doubt, yes: a live writer's file must stay).
pub fn process_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else { return true };
        if pid <= 0 {
            return true;
        }
        // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
        if unsafe { libc::kill(pid, 0) } == 0 {
            return true;
        }
        std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_answers_as_the_file_system_does_and_the_probe_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        // as this folder's file system answers: a file looked up by another case is there or not
        fs::write(dir.path().join("case"), "").unwrap();
        let folds = dir.path().join("CASE").exists();
        fs::remove_file(dir.path().join("case")).unwrap();
        assert_eq!(folds_case(dir.path()).unwrap(), folds);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "the probe is removed");
    }

    #[test]
    fn temp_names_carry_host_and_pid() {
        let fields: Vec<&str> = temp_prefix().trim_start_matches(".chaff-").trim_end_matches('-').split('-').collect();
        assert_eq!(fields.len(), 2, "{}", temp_prefix());
        assert_eq!(fields[1], std::process::id().to_string());
    }

    #[test]
    fn a_live_writers_temp_stays_and_a_dead_ones_goes() {
        let dir = tempfile::tempdir().unwrap();
        let live = dir.path().join(format!("{}abc.tmp", temp_prefix()));
        fs::write(&live, "being written").unwrap();
        // pid 2^22 + 1 is above Linux's pid_max ceiling, so no process has it
        let dead = dir.path().join(format!(".chaff-{}-4194305-abc.tmp", host_name()));
        fs::write(&dead, "left by a killed writer").unwrap();
        let other_host = dir.path().join(".chaff-elsewhere-4194305-abc.tmp");
        fs::write(&other_host, "another host's writer").unwrap();
        remove_stale_temps(dir.path());
        assert!(live.exists() && other_host.exists());
        assert!(!dead.exists());
    }
}
