//! The tuning UI (placeholder until the TUI lands).

use std::path::PathBuf;

use crate::tokens::Tokenizer;

/// What `chaff tune` was asked to open.
#[derive(Debug, Clone)]
pub struct TuneOptions {
    /// A source's corpus (folder or .jsonl), or a folder of source folders (a picker comes first).
    pub corpus: PathBuf,
    /// The rules file to load and write; default `<rules_dir>/<source>.toml`.
    pub rules: Option<PathBuf>,
    pub rules_dir: PathBuf,
    /// Tokenizer for a source with no rules file yet; default: `html` if the documents are .html.
    pub preset: Option<Tokenizer>,
}

pub fn run(opts: TuneOptions) -> anyhow::Result<()> {
    anyhow::bail!("the tuning UI is not built yet (asked to open {})", opts.corpus.display())
}

/// Frame timing figures (placeholder until the TUI lands).
pub fn bench_frames() -> String {
    "tui bench: not built yet\n".into()
}
