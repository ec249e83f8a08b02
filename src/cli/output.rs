//! Printing: one-line errors, broken pipes, progress on stderr.

use std::io::IsTerminal;
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

/// A closed stdout (`chaff clean | head`) is not an error.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe))
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
