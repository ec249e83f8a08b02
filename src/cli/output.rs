//! Printing: one-line errors, broken pipes, progress on stderr.

use std::fmt;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chaff::mining::{Progress, Stage};
use indicatif::{ProgressBar, ProgressStyle};

/// An error chain in one line: "what failed: why".
pub fn one_line(err: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in err.chain() {
        let s = cause.to_string().replace('\n', " ");
        if !parts.iter().any(|p| p.contains(&s)) {
            parts.push(s);
        }
    }
    parts.join(": ")
}

/// A command line that cannot be run as given (flags that do not go together, a value out of range):
/// exit status 2, as the usage errors the argument parser finds.
#[derive(Debug)]
pub struct Usage(pub String);

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

pub fn is_usage(err: &anyhow::Error) -> bool {
    err.chain().any(|c| c.downcast_ref::<Usage>().is_some())
}

/// A closed stdout (`chaff clean | head`) is not an error.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe))
}

/// Set once stdout is closed (`chaff stats DIR | head`): output stops, the work goes on.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
/// Set when writing stdout failed for another reason (a full disk): the run exits 1 at the end.
static STDOUT_FAILED: AtomicBool = AtomicBool::new(false);

/// Writes to stdout without ever panicking: a closed pipe silences the rest of the output (rules files
/// are still written), any other error is reported once on stderr and fails the run at its end.
/// Use it through `out!` and `outln!` (defined in `cli/mod.rs`), never `print!`.
pub fn write_stdout(args: fmt::Arguments<'_>) {
    write_stdout_as("the output", args)
}

/// [`write_stdout`] of `what` ("the explanation"), which an error names: a full disk says what was lost.
pub fn write_stdout_as(what: &str, args: fmt::Arguments<'_>) {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            STDOUT_CLOSED.store(true, Ordering::Relaxed);
        } else if !STDOUT_FAILED.swap(true, Ordering::Relaxed) {
            eprintln!("chaff: error: writing {what} to stdout: {e}");
        }
    }
}

/// Writes a message to stderr, never panicking: with stderr gone (a log reader that quit) there is no one
/// to tell, and the work goes on. Use it through `eprint!` and `eprintln!`, which `cli/mod.rs` shadows.
pub fn write_stderr(args: fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// Whether writing stdout failed (other than by a closed pipe): `main` exits 1.
pub fn stdout_failed() -> bool {
    STDOUT_FAILED.load(Ordering::Relaxed)
}

/// A progress bar on stderr for `len` items, or a running count when `len` is unknown; hidden unless
/// stderr is a terminal, so pipes and logs get nothing.
pub fn progress_bar(len: Option<u64>, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match len {
        Some(n) => {
            let bar = ProgressBar::new(n);
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} ({elapsed}, {per_sec})").expect("template"),
            );
            bar
        }
        None => {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {pos} {msg} ({elapsed}, {per_sec})").expect("template"),
            );
            bar
        }
    };
    bar.set_message(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A spinner on stderr naming the mining stage; drawn only when stderr is a terminal, and only once the
/// work has taken a moment.
pub struct StageSpinner {
    bar: Option<ProgressBar>,
}

impl StageSpinner {
    pub fn new(label: &str) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(ProgressStyle::with_template("{spinner} {prefix}: {msg} ({elapsed})").expect("template"));
            bar.set_prefix(label.to_string());
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        StageSpinner { bar }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Progress for StageSpinner {
    fn stage(&self, stage: Stage) {
        if let Some(bar) = &self.bar {
            bar.set_message(stage.name());
        }
    }
}

impl Drop for StageSpinner {
    fn drop(&mut self) {
        self.finish();
    }
}
