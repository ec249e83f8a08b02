//! `chaff clean --explain`: every range removed or given back, every rule that matched it (by id, with its
//! action) and the stages that decided, as tab-separated lines for files and as JSON for JSON Lines.
//!
//! The removed ranges add up to the output: the output is its input less their bytes, nothing else. Their
//! offsets are the input's: the document's own bytes, or for `--text` of an HTML page the bytes of its
//! view (the text a reader sees, which `--text` is cut from). A removed range of HTML that keeps tags
//! inside it (the default output keeps a tag whose element goes on outside the range, `--keep-tags`
//! every tag) lists the pieces it took.

use std::fmt::Write as _;
use std::path::Path;

use chaff::cleaning::Cleaner;
pub(super) use chaff::page::explained_page;
use chaff::page::{CleanedPage, Output};

/// `path`'s explained ranges as lines: path, range (or the pieces taken, comma-separated), kind, rule
/// ids, stages, the text.
pub(super) fn explain_lines(
    path: &Path,
    cleaner: &Cleaner,
    cleaned: &CleanedPage,
    output: Output,
    to_file: &dyn Fn(usize) -> usize,
) -> String {
    let mut lines = String::new();
    for s in explained_page(cleaner, cleaned, output, to_file) {
        let range = match &s.taken {
            Some(pieces) => pieces.iter().map(|[a, b]| format!("{a}..{b}")).collect::<Vec<_>>().join(","),
            None => format!("{}..{}", s.start, s.end),
        };
        let _ = writeln!(
            lines,
            "{}\t{}{}\t{}\t{}\t{}\t{}",
            path.display(),
            s.offsets.map_or(String::new(), |o| format!("{o}:")),
            range,
            s.kind,
            s.rules.join(","),
            s.stages.join(","),
            s.shown
        );
    }
    lines
}
