//! The subcommands. Each parses nothing itself: `args` did, and each turns typed arguments into engine
//! calls and prints the result.

// Defined before the submodules, so each of them can use them.
/// `print!` to stdout that survives a closed pipe ([`write_stdout`]).
#[allow(unused_macros)]
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::output::write_stdout(format_args!($($arg)*)) };
}

/// `println!` to stdout that survives a closed pipe ([`write_stdout`]).
macro_rules! outln {
    () => { $crate::cli::output::write_stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::cli::output::write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `eprint!` that survives a closed stderr ([`output::write_stderr`]): shadows the standard macro in every
/// command, which panics there (`chaff clean … 2>&1 | head` would stop the run at its next message).
#[allow(unused_macros)]
macro_rules! eprint {
    ($($arg:tt)*) => { $crate::cli::output::write_stderr(format_args!($($arg)*)) };
}

/// `eprintln!` that survives a closed stderr ([`output::write_stderr`]), as [`eprint!`] above.
macro_rules! eprintln {
    () => { $crate::cli::output::write_stderr(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::cli::output::write_stderr(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Returns a usage error ([`output::Usage`], exit status 2) from the function it is in, formatted as
/// `format!`.
macro_rules! usage {
    ($($arg:tt)*) => { return Err($crate::cli::output::Usage(format!($($arg)*)).into()) };
}

pub mod args;
mod bench;
mod bench_html;
mod bench_impact;
mod check;
mod clean;
pub mod diff;
mod eval;
mod mine;
pub mod output;
pub mod test;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use chaff::corpus::{LoadOptions, source_folders_checked};
use chaff::rules::RulesFile;
use chaff::tokens::Tokenizer;

use args::{Cli, Command, Preset};

pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Some(Command::Mine(a)) => mine::mine(a),
        Some(Command::Stats(a)) => mine::stats(a),
        Some(Command::Clean(a)) => clean::clean(a),
        Some(Command::Tune(a)) => {
            let (corpus, rules_dir) = a.paths()?;
            tune(corpus, a.rules, rules_dir, a.preset)
        }
        None => tune(PathBuf::from("sample-corpora"), None, PathBuf::from("rules"), None),
        Some(Command::Generate(a)) if a.crawl.is_some() => mine::crawl::generate(a),
        Some(Command::Generate(a)) => {
            let mut files = 0;
            for source in chaff::generate::bundled() {
                files += chaff::generate::write_source(&source, &a.out)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", a.out.display()))?;
                outln!("{}/{}: {} documents", a.out.display(), source.name, source.docs.len());
            }
            outln!("{files} files written");
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Bench(a)) => bench::bench(a),
        Some(Command::Eval(a)) => eval::eval(a),
        Some(Command::Check(a)) => check::check(a),
        Some(Command::Diff(a)) => diff::diff(a),
        Some(Command::Test(a)) => test::test(a),
    }
}

fn tune(corpus: PathBuf, rules: Option<PathBuf>, rules_dir: PathBuf, preset: Option<Preset>) -> Result<ExitCode> {
    no_such_corpus(&corpus)?;
    chaff::tui::run(chaff::tui::TuneOptions { corpus, rules, rules_dir, preset: preset.map(tokenizer_of) })?;
    Ok(ExitCode::SUCCESS)
}

pub fn tokenizer_of(p: Preset) -> Tokenizer {
    match p {
        Preset::Text => Tokenizer::Text,
        Preset::Html => Tokenizer::Html,
    }
}

/// Source folders of a multi-source root (for `--all`).
pub fn sources_under(root: &Path) -> Result<Vec<PathBuf>> {
    let (found, warnings) = source_folders_checked(root, &LoadOptions::default())?;
    for w in warnings {
        eprintln!("chaff: warning: {w}");
    }
    if found.is_empty() {
        anyhow::bail!(
            "{}: no source folders with documents inside (--all expects ROOT/<source>/*.txt|html)",
            root.display()
        );
    }
    Ok(found)
}

/// An error saying what a corpus is when `path` is not there (a mistyped folder is the likeliest).
pub fn no_such_corpus(path: &Path) -> Result<()> {
    if !path.exists() {
        anyhow::bail!("{}: no such corpus (give a folder of .txt/.html documents or a .jsonl file)", path.display());
    }
    Ok(())
}

/// A rules file to apply, its unread keys (`stauts = "accepted"`) warned about on stderr with file, line and
/// column: a misspelled key would otherwise change what is cleaned without a word.
pub fn load_rules(path: &Path) -> Result<RulesFile> {
    // the default patterns compile on another core while this one reads the file, which nearly always
    // carries them
    chaff::mutable::compile_defaults_early();
    let (file, warnings) = RulesFile::load_checked(path).map_err(|e| match e {
        // the first thing a newcomer mistypes: say where rules files come from
        chaff::error::Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => anyhow::anyhow!(
            "{}: no such file; `chaff mine <source folder>` writes a source's rules file (rules/<source>.toml)",
            path.display()
        ),
        e => e.into(),
    })?;
    for w in warnings {
        eprintln!("chaff: warning: {w}");
    }
    Ok(file)
}

/// Warnings for a rules file applied to documents it was not made for, naming both sides: HTML rules on
/// `.txt` documents (or text rules on `.html` pages) remove little or nothing, and a folder is a source
/// (its name) whose rules may be another file. `flag` is the page output asked for (`--text`, `--keep-tags`):
/// text rules write pages as cleaned text, so the warning says the flag has no effect rather than ignore it
/// silently. Reads only the inputs' names.
pub fn mismatch_warnings(file: &RulesFile, rules: &Path, inputs: &[PathBuf], flag: Option<&str>) -> Vec<String> {
    use chaff::view::DocKind;
    let mut warnings = Vec::new();
    let (mut html, mut txt) = (0usize, 0usize);
    let mut count = |p: &Path| match p.extension().and_then(|x| x.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("html" | "htm") => html += 1,
        Some("txt") => txt += 1,
        _ => {}
    };
    let mut other_source = None;
    for input in inputs {
        if input.is_dir() {
            if let Ok((found, _)) = chaff::corpus::document_files(input, &LoadOptions::default()) {
                found.iter().for_each(|p| count(p));
            }
            let name =
                std::fs::canonicalize(input).ok().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
            if let Some(name) = name
                && name != file.source
                && other_source.is_none()
            {
                other_source = Some((input.clone(), name));
            }
        } else {
            count(input);
        }
    }
    let rules = rules.display();
    match file.input() {
        DocKind::Html if txt > 0 => warnings.push(format!(
            "{rules}: rules for HTML pages (input = \"html\"), applied to {txt} .txt document(s) of plain text: \
             they remove little or nothing there; clean text with a text source's rules (or mine these documents)"
        )),
        DocKind::Text if html > 0 => warnings.push(format!(
            "{rules}: rules for plain text, applied to {html} .html page(s): they are cleaned as text, markup and \
             all{}; clean pages with rules mined from pages (or mine these pages)",
            flag.map(|f| format!(", and {f} does not apply (each page is written whole, as .html)"))
                .unwrap_or_default()
        )),
        _ => {}
    }
    if let Some((folder, name)) = other_source {
        warnings.push(format!(
            "{rules}: rules of source `{}`, applied to folder {} (source `{name}`): check --rules (each source has \
             its own rules file, rules/<source>.toml)",
            file.source,
            folder.display()
        ));
    }
    warnings
}
