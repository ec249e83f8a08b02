//! Where the sources table gets its sources: a folder of source folders, or a crawl (a WARC or WARC.gz
//! file, or JSON Lines whose records name a `url` or a `source`), read once by
//! [`crate::crawl::gather`] into a spool, each source's documents read back from it when the table
//! measures the source or the editor opens it (no folder is written).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::corpus::{Corpus, LoadOptions, source_folders};
use crate::crawl::{Crawl, Event, Group, InputKind, gather, input_kind};

/// A source of the workspace: its name (its rules file is `<rules_dir>/<name>.toml`) and its documents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceRef {
    pub name: String,
    /// A folder of documents, as `chaff mine --all` reads them; for a crawl's source, the crawl file.
    pub corpus: PathBuf,
    /// A crawl's source: its documents are read from the crawl's spool, not from `corpus`.
    pub crawl: Option<CrawlSource>,
}

/// One source of a crawl read into its spool.
#[derive(Debug, Clone)]
pub struct CrawlSource {
    pub crawl: Arc<Crawl>,
    /// Its index in [`Crawl::sources`].
    pub index: usize,
}

impl PartialEq for CrawlSource {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.crawl, &other.crawl) && self.index == other.index
    }
}

impl Eq for CrawlSource {}

impl CrawlSource {
    /// How many documents it has.
    pub fn documents(&self) -> usize {
        self.crawl.sources[self.index].documents
    }

    /// Its documents as a corpus named after it.
    pub fn corpus(&self) -> crate::error::Result<Corpus> {
        self.crawl.corpus(&self.crawl.sources[self.index])
    }
}

/// The sources under `root`: one per folder of documents, by name, or one per source of a crawl file.
/// A folder's entries are read and not its documents (that is the table's background work), so it
/// stays quick on a thousand sources; a crawl is read once, into its spool. An empty list: `root` is
/// one source's corpus (a folder of documents, or JSON Lines whose records name no source), not a
/// workspace.
pub fn list_sources(root: &Path) -> crate::error::Result<Vec<SourceRef>> {
    if root.is_file() {
        return crawl_sources(root);
    }
    if !root.is_dir() {
        return Ok(Vec::new());
    }
    Ok(source_folders(root, &LoadOptions::default())?
        .into_iter()
        .map(|corpus| SourceRef { name: crate::corpus::source_name(&corpus), corpus, crawl: None })
        .collect())
}

/// The sources of a crawl file, grouped by host. JSON Lines whose records name no source but one (or
/// none: neither a URL nor a source) are that source's corpus, opened as before: no list. Bad records
/// are skipped, as `chaff mine --all` skips them.
fn crawl_sources(path: &Path) -> crate::error::Result<Vec<SourceRef>> {
    let Ok(kind) = input_kind(path) else { return Ok(Vec::new()) };
    if kind == InputKind::Folder {
        return Ok(Vec::new());
    }
    let crawl = gather(&[path.to_path_buf()], Group::Host, &mut |_: Event| {})?;
    if crawl.sources.len() < 2 && matches!(kind, InputKind::JsonLines { .. }) {
        return Ok(Vec::new());
    }
    let crawl = Arc::new(crawl);
    Ok((0..crawl.sources.len())
        .map(|index| SourceRef {
            name: crawl.sources[index].name.clone(),
            corpus: path.to_path_buf(),
            crawl: Some(CrawlSource { crawl: Arc::clone(&crawl), index }),
        })
        .collect())
}
