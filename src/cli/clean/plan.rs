//! Which files `chaff clean` reads and where each cleaned file goes, decided before anything is written:
//! an output that would replace an input (an `--out` folder that is, or is inside, an input folder), two
//! inputs that would write one output, or with `--in-place` an output over a file beside the inputs that
//! is not one of them, stop the run here, with nothing written.

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::fs;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};
use chaff::corpus::{LoadOptions, Warning, document_files, source_folders};

/// One document to clean, and where its cleaned text goes.
pub struct Job {
    pub input: PathBuf,
    pub output: PathBuf,
    /// Whether the output is the input itself (`--in-place`): only a document read exactly is written.
    pub replaces_input: bool,
}

pub struct Plan {
    pub jobs: Vec<Job>,
    /// The folders the outputs go to, each once: prepared before writing, synced after.
    pub folders: Vec<PathBuf>,
    /// Inputs that could not be read (reported already): the run fails at its end.
    pub failed: usize,
}

/// Where the cleaned files go.
#[derive(Clone, Copy)]
pub enum Destination<'a> {
    /// `--out DIR`: one folder for all.
    Folder(&'a Path),
    /// `--in-place` without `--out`: each beside (or over) its input.
    Beside,
}

/// An input file as given, and as the file system knows it.
struct Input {
    given: PathBuf,
    canonical: PathBuf,
}

/// Lists the documents of `inputs` (a missing or unreadable one is reported and skipped) and names each
/// one's output; fails if an output would replace an input without `in_place`, or if outputs collide.
pub fn plan(inputs: &[PathBuf], dest: Destination<'_>, in_place: bool, text: bool) -> Result<Plan> {
    let mut failed = 0;
    let mut files = Vec::new();
    let mut folders_read = Vec::new();
    let mut seen = HashSet::new();
    let mut listed = HashSet::new();
    for input in inputs {
        let found = match fs::metadata(input) {
            Ok(meta) if meta.is_dir() => match document_files(input, &LoadOptions::default()) {
                Ok((found, warnings)) => {
                    for w in warnings {
                        if let Warning::Unreadable { .. } = w {
                            eprintln!("chaff: error: {w}");
                            failed += 1;
                        }
                    }
                    folders_read.push(fs::canonicalize(input).with_context(|| format!("{}", input.display()))?);
                    if found.is_empty() {
                        // as `chaff mine` of a folder without documents: said, and the run fails
                        eprintln!("chaff: error: {}; skipped", no_documents(input));
                        failed += 1;
                    } else {
                        warn_unread_folders(input);
                    }
                    found
                }
                Err(e) => {
                    eprintln!("chaff: error: {e}; skipped");
                    failed += 1;
                    continue;
                }
            },
            Ok(_) => match crawl_file(input) {
                Some(how) => {
                    eprintln!("chaff: error: {}: {how}; skipped", input.display());
                    failed += 1;
                    continue;
                }
                None => vec![input.clone()],
            },
            Err(e) => {
                eprintln!("chaff: error: {}: {e}; skipped (give existing files or folders)", input.display());
                failed += 1;
                continue;
            }
        };
        for given in found {
            match fs::canonicalize(&given) {
                // The same file named twice (`x x`, or `x/a.txt x`) is cleaned once. Into a folder, a link
                // to another document is a document of its own name and is written too; in place it
                // writes its target, which is cleaned once.
                Ok(canonical) => {
                    let name =
                        matches!(dest, Destination::Folder(_)).then(|| given.file_name().map(OsStr::to_os_string));
                    seen.insert(canonical.clone());
                    if listed.insert((canonical.clone(), name)) {
                        files.push(Input { given, canonical });
                    }
                }
                Err(e) => {
                    eprintln!("chaff: error: {}: {e}; skipped", given.display());
                    failed += 1;
                }
            }
        }
    }

    let out_dir = match dest {
        Destination::Folder(out) => {
            let resolved = resolve(out)?;
            if !in_place && let Some(folder) = folders_read.iter().find(|f| resolved.starts_with(f)) {
                bail!(
                    "{}: the output folder {} the input folder {}: cleaning would overwrite the documents or mix the cleaned files with them; give an --out folder outside the inputs, or add --in-place to replace the documents with their cleaned text",
                    out.display(),
                    if &resolved == folder { "is" } else { "is inside" },
                    folder.display()
                );
            }
            Some((out, resolved))
        }
        Destination::Beside => None,
    };

    let mut jobs = Vec::with_capacity(files.len());
    // Outputs compared as resolved paths: the key is the folder's canonical path and the file's name.
    let mut owner: HashMap<PathBuf, usize> = HashMap::with_capacity(files.len());
    let mut collisions = Vec::new();
    // Folders holding inputs: there a file that is not an input is someone's, never replaced (with --text,
    // `117.txt` beside the input `117.html`). Elsewhere, in an --out folder, files are earlier outputs.
    let input_folders: HashSet<&Path> =
        files.iter().filter_map(|f| f.canonical.parent()).chain(folders_read.iter().map(PathBuf::as_path)).collect();
    let mut not_inputs = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let name = output_name(f.given.file_name().context("input has no file name")?, text);
        let (output, key) = match &out_dir {
            Some((out, resolved)) => (out.join(&name), resolved.join(&name)),
            None => {
                let parent = f.canonical.parent().unwrap_or(Path::new("/"));
                let given_parent = f.given.parent().unwrap_or(Path::new(""));
                (given_parent.join(&name), parent.join(&name))
            }
        };
        if !in_place && seen.contains(&key) {
            bail!(
                "{}: the cleaned {} would be written over an input document; give an --out folder apart from the inputs' folders, or add --in-place to replace the documents with their cleaned text",
                output.display(),
                f.given.display()
            );
        }
        // Beside its input under the input's own name, the output is the input (a symbolic link too).
        let itself = out_dir.is_none() && Some(name.as_os_str()) == f.given.file_name();
        let replaces_input = itself || key == f.canonical;
        if in_place
            && !replaces_input
            && !seen.contains(&key)
            && key.parent().is_some_and(|dir| input_folders.contains(dir))
            && fs::symlink_metadata(&key).is_ok()
        {
            not_inputs.push((output.clone(), i));
        }
        if let Some(&first) = owner.get(&key) {
            collisions.push((output.clone(), first, i));
        } else {
            owner.insert(key, i);
        }
        // a link replaced by a file would no longer share its target's text: written through, as rules
        // files are
        let output = if replaces_input { chaff::atomic::resolve_links(&output)? } else { output };
        jobs.push(Job { input: f.given.clone(), output, replaces_input });
    }
    if !collisions.is_empty() {
        return Err(collision_error(&collisions, &files, text));
    }
    if !not_inputs.is_empty() {
        return Err(not_input_error(&not_inputs, &files));
    }

    let mut folders: Vec<PathBuf> = Vec::new();
    let mut folder_seen = HashSet::new();
    for job in &jobs {
        let dir = job.output.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
        if folder_seen.insert(dir.clone()) {
            folders.push(dir);
        }
    }
    if let Some((out, _)) = &out_dir
        && folders.is_empty()
    {
        folders.push(out.to_path_buf());
    }
    Ok(Plan { jobs, folders, failed })
}

/// What is wrong with folder `dir`, which holds no document: what it should hold, and for a folder of
/// folders (a crawl's sources, `sample-corpora/`), how those are cleaned.
fn no_documents(dir: &Path) -> String {
    let has_folders = fs::read_dir(dir).is_ok_and(|entries| entries.flatten().any(|e| e.path().is_dir()));
    let hint = if has_folders {
        ": its folders are not read; clean each source's folder, or every source with its own rules by \
         --rules-dir RULES_DIR"
    } else {
        ""
    };
    format!("{}: no documents found (expected .txt or .html files){hint}", dir.display())
}

/// What a file named as JSON Lines or a WARC crawl is, and how it is cleaned: as one document, its records'
/// syntax would be cut with the template and the output would be no longer JSON Lines or WARC.
fn crawl_file(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    let (stem, gzip) = match name.strip_suffix(".gz") {
        Some(stem) => (stem, true),
        None => (name.as_str(), false),
    };
    let file = path.display();
    if [".jsonl", ".ndjson", ".json"].iter().any(|x| stem.ends_with(x)) {
        let stdin = if gzip {
            format!("zcat {file} | chaff clean --rules R")
        } else {
            format!("chaff clean --rules R < {file}")
        };
        return Some(format!(
            "JSON Lines, whose records --rules cleans on stdin ({stdin} > CLEANED.jsonl), or each with its source's rules \
             by --rules-dir RULES_DIR"
        ));
    }
    if stem.ends_with(".warc") || stem.ends_with(".arc") {
        return Some(format!(
            "a WARC crawl, whose pages are cleaned each with its source's rules: chaff clean --rules-dir RULES_DIR {file}"
        ));
    }
    None
}

/// Warns of each folder inside the input folder `dir` that holds documents: a folder is cleaned one level
/// deep, and documents left uncleaned without a word would look cleaned in the output.
fn warn_unread_folders(dir: &Path) {
    let Ok(inner) = source_folders(dir, &LoadOptions::default()) else { return };
    for folder in inner {
        eprintln!(
            "chaff: warning: {}: a folder inside the input folder {}: its documents are not cleaned (give it as an \
             INPUT of its own, or clean each folder with its source's rules by --rules-dir RULES_DIR)",
            folder.display(),
            dir.display()
        );
    }
}

fn output_name(name: &OsStr, text: bool) -> PathBuf {
    let name = Path::new(name);
    if text { name.with_extension("txt") } else { name.to_path_buf() }
}

/// Two inputs that would write one output: each pair is named, and nothing is written. Renaming one
/// silently would break the promise that an output bears its input's name.
fn collision_error(collisions: &[(PathBuf, usize, usize)], files: &[Input], text: bool) -> anyhow::Error {
    const SHOWN: usize = 10;
    for (output, a, b) in collisions.iter().take(SHOWN) {
        eprintln!(
            "chaff: error: {} and {} would both be written to {}",
            files[*a].given.display(),
            files[*b].given.display(),
            output.display()
        );
    }
    if collisions.len() > SHOWN {
        eprintln!("chaff: error: … and {} more", collisions.len() - SHOWN);
    }
    let how = if text {
        "with --text a page's .txt output takes the name of a .txt input of the same stem: clean one kind at a time (DIR/*.html), or inputs of the same name into separate --out folders"
    } else {
        "clean the inputs that share a file name into separate --out folders"
    };
    anyhow::anyhow!("{} output name(s) collide; nothing was written: {how}", collisions.len())
}

/// Outputs whose names differ only in case, into a folder whose file system folds case (`folds`, asked once
/// the folders are made, before anything is written): there they are one file, and one document would be
/// lost. Each pair is named, and nothing is written, as for names that are the same.
pub fn refuse_case_collisions(jobs: &[Job], folds: impl Fn(&Path) -> bool) -> Result<()> {
    let collisions = case_collisions(jobs, folds);
    if collisions.is_empty() {
        return Ok(());
    }
    const SHOWN: usize = 10;
    for (a, b) in collisions.iter().take(SHOWN) {
        eprintln!(
            "chaff: error: {} and {} would both be written to {} (its folder takes names that differ only in case for one file)",
            jobs[*a].input.display(),
            jobs[*b].input.display(),
            jobs[*b].output.display()
        );
    }
    if collisions.len() > SHOWN {
        eprintln!("chaff: error: … and {} more", collisions.len() - SHOWN);
    }
    bail!(
        "{} output name(s) collide; nothing was written: clean the inputs whose names differ only in case into separate --out folders",
        collisions.len()
    )
}

/// The pairs of jobs (first, later) whose outputs differ only in case, in a folder `folds` says folds case.
fn case_collisions(jobs: &[Job], folds: impl Fn(&Path) -> bool) -> Vec<(usize, usize)> {
    let mut owner: HashMap<(&Path, String), usize> = HashMap::new();
    let mut collisions = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        let dir = job.output.parent().unwrap_or(Path::new(""));
        if !folds(if dir.as_os_str().is_empty() { Path::new(".") } else { dir }) {
            continue;
        }
        let name = job.output.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        match owner.entry((dir, name)) {
            std::collections::hash_map::Entry::Occupied(first) => collisions.push((*first.get(), i)),
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(i);
            }
        }
    }
    collisions
}

/// Outputs that would replace a file that is no input (`--in-place --text`, a `117.txt` beside `117.html`):
/// each is named, and nothing is written.
fn not_input_error(outputs: &[(PathBuf, usize)], files: &[Input]) -> anyhow::Error {
    const SHOWN: usize = 10;
    for (output, i) in outputs.iter().take(SHOWN) {
        eprintln!(
            "chaff: error: the cleaned {} would replace {}, which is not an input",
            files[*i].given.display(),
            output.display()
        );
    }
    if outputs.len() > SHOWN {
        eprintln!("chaff: error: … and {} more", outputs.len() - SHOWN);
    }
    anyhow::anyhow!(
        "{} output(s) would replace files that are not inputs; nothing was written: clean into an --out folder, or move those files away first",
        outputs.len()
    )
}

/// `path` made absolute with symbolic links resolved, though its last components may not exist yet (an
/// --out folder still to create): its nearest existing ancestor canonicalized, the rest appended with
/// `.` and `..` applied (a folder that does not exist holds no links).
pub fn resolve(path: &Path) -> Result<PathBuf> {
    let abs = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir()?.join(path) };
    let parts: Vec<Component<'_>> = abs.components().collect();
    for k in (1..=parts.len()).rev() {
        let prefix: PathBuf = parts[..k].iter().collect();
        if let Ok(mut resolved) = fs::canonicalize(&prefix) {
            for part in &parts[k..] {
                match part {
                    Component::ParentDir => {
                        resolved.pop();
                    }
                    Component::Normal(n) => resolved.push(n),
                    _ => {}
                }
            }
            return Ok(resolved);
        }
    }
    Ok(abs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(input: &str, output: &str) -> Job {
        Job { input: PathBuf::from(input), output: PathBuf::from(output), replaces_input: false }
    }

    #[test]
    fn outputs_differing_only_in_case_collide_only_where_the_folder_folds_case() {
        let jobs = [job("x/A.txt", "out/A.txt"), job("y/a.txt", "out/a.txt"), job("z/b.txt", "out/b.txt")];
        assert_eq!(case_collisions(&jobs, |_| true), [(0, 1)]);
        assert!(case_collisions(&jobs, |_| false).is_empty(), "a file system that tells cases apart keeps both");
        assert!(refuse_case_collisions(&jobs, |_| true).is_err());
        // in place, each beside its input: only names in one folder meet
        let beside = [job("x/A.txt", "x/A.txt"), job("y/a.txt", "y/a.txt")];
        assert!(case_collisions(&beside, |_| true).is_empty());
    }
}
