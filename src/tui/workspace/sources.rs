//! Where the sources table gets its sources: the one function to switch when a crawl file (WARC, JSON
//! Lines grouped by host) can be read as a list of sources too.

use std::path::{Path, PathBuf};

use crate::corpus::{LoadOptions, source_folders};

/// A source of the workspace: its name (its rules file is `<rules_dir>/<name>.toml`) and its documents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceRef {
    pub name: String,
    /// A folder of documents, as `chaff mine --all` reads them.
    pub corpus: PathBuf,
}

/// The sources under `root`: one per folder of documents, by name. Reads the folder's entries and not
/// the documents (that is the table's background work), so it stays quick on a thousand sources. An
/// empty list: `root` is one source's corpus, not a workspace.
pub fn list_sources(root: &Path) -> crate::error::Result<Vec<SourceRef>> {
    if !root.is_dir() {
        return Ok(Vec::new());
    }
    Ok(source_folders(root, &LoadOptions::default())?
        .into_iter()
        .map(|corpus| SourceRef { name: crate::corpus::source_name(&corpus), corpus })
        .collect())
}
