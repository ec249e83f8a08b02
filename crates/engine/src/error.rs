//! Errors of the engine. Each one names the file (and line and column where there is one) and says what
//! to do, because the CLI prints them as they are, in one line.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{path}: no documents found (expected .txt or .html files, or a .jsonl file with one {{\"id\", \"text\"}} object a line)"
    )]
    EmptyCorpus { path: PathBuf },
    #[error("{path}:{line}:{column}: bad JSON Lines record: {message} (each line must be {{\"id\": …, \"text\": …}})")]
    JsonLine { path: PathBuf, line: usize, column: usize, message: String },
    #[error("{path}:{line}:{column}: {message}")]
    Toml { path: PathBuf, line: usize, column: usize, message: String },
    #[error("mutable pattern `{name}`: invalid regex: {message}")]
    InvalidPattern { name: String, message: String },
    #[error("rule {id}: invalid regex: {message}")]
    InvalidRule { id: String, message: String },
    #[error("{0}")]
    TooFewDocuments(String),
    #[error(
        "rule {id}: its regex compiles to more than {limit} MiB; simplify it (fewer or smaller counted repetitions such as \\w{{1,200}}, fewer alternatives) or reject the rule"
    )]
    RegexTooBig { id: String, limit: usize },
    #[error(
        "rule {id}: the rules run as regexes would need more than {total} MiB compiled ({spent} MiB before this one, which needs about {needs} MiB); simplify this rule's regex or reject it (or rules like it)"
    )]
    RegexBudget { id: String, spent: usize, needs: usize, total: usize },
    #[error("{0}")]
    Invalid(String),
    #[error("cancelled")]
    Cancelled,
    #[error(
        "mutable pattern name `{name}`: a name is letters, digits, `_` or `-` (it stands for the pattern in rules, as «{name}»)"
    )]
    InvalidPatternName { name: String },
    #[error("{path}: no documents found: {skipped} file(s) skipped, the first: {first}")]
    NothingReadable { path: PathBuf, skipped: usize, first: String },
}

impl Error {
    /// An I/O error on `path` (public for the evaluation crate, which reads datasets).
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// 1-based line and column of a byte offset in `text`, for error messages.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..text.floor_char_boundary(offset)];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
