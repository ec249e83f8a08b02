//! `chaff clean --rules R -`: one document on stdin, read whole as a file is (its encoding found the same
//! way), written cleaned to stdout in that encoding, for a pipe (`curl … | chaff clean --rules R -`).
//! `--explain` lists the removed spans on stderr, as stdout holds the document.

use std::io::{IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use chaff::cleaning::Cleaner;
use chaff::view::DocKind;

use super::{How, clean_bytes};

pub(super) fn clean_stdin_document(cleaner: &Cleaner, kind: DocKind, how: How) -> Result<ExitCode> {
    let mut stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!("chaff: reading one document from the terminal; Ctrl-D ends it");
    }
    let mut bytes = Vec::new();
    stdin.read_to_end(&mut bytes).context("stdin: reading the document failed")?;
    let (out, done) = clean_bytes(cleaner, kind, Path::new("stdin"), bytes, how, false)?;
    let mut w = std::io::stdout().lock();
    w.write_all(&out).and_then(|()| w.flush()).context("writing the cleaned document to stdout")?;
    if how.explain {
        eprint!("{}", done.lines);
    }
    Ok(ExitCode::SUCCESS)
}
