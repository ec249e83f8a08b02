//! `chaff diff --rules OLD --rules NEW CORPUS`: what a rules change does, document by document (see
//! [`chaff::impact`]): a rules change reviewed as a code change is, with a word diff of each changed
//! document's cleaned text (`-` words the change removes, `+` words it gives back), a summary line, and
//! the evidence of each rule it changes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};
use chaff::corpus::{Corpus, Document};
use chaff::evidence::{cut_problems, evidence};
use chaff::impact::{Baseline, DocImpact, WordRange};
use chaff::rules::{Rule, RulesFile};
use clap::Args;
use serde_json::json;

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The rules file before the change, then the one after it: `--rules OLD.toml --rules NEW.toml`.
    #[arg(long, required = true, num_args = 1)]
    pub rules: Vec<PathBuf>,
    /// The source's documents: a folder of .txt/.html files or a .jsonl file.
    pub corpus: PathBuf,
    /// Also apply the pending rules at or above each file's chosen cutoff (the automatic rules).
    #[arg(long)]
    pub include_pending: bool,
    /// Print at most this many changed documents, most changed first (0: all).
    #[arg(long, default_value_t = 0)]
    pub top: usize,
    /// Print JSON instead of a word diff.
    #[arg(long)]
    pub json: bool,
}

/// Words of context printed on each side of a changed run.
const CONTEXT: usize = 3;
/// A changed run longer than this many words is printed as its first and last [`ELIDED`] words.
const LONG_RUN: usize = 30;
const ELIDED: usize = 12;

pub fn diff(args: DiffArgs) -> Result<ExitCode> {
    let [old_path, new_path] = args.rules.as_slice() else {
        usage!(
            "chaff diff takes two rules files, --rules OLD.toml --rules NEW.toml (got {}): the rules before the change, then after",
            args.rules.len()
        );
    };
    let (old, new) = (super::load_rules(old_path)?, super::load_rules(new_path)?);
    if old.input() != new.input() || old.tokenizer != new.tokenizer {
        bail!(
            "{} and {} read documents differently (input {:?}, tokenizer {:?} against {:?}, {:?}): diff two rules files of one source",
            old_path.display(),
            new_path.display(),
            old.input(),
            old.tokenizer,
            new.input(),
            new.tokenizer
        );
    }
    let docs = load(&args.corpus)?;
    let base = Baseline::new(&old, docs, args.include_pending)?;
    let impact = base.impact(&new)?;
    let shown = if args.top == 0 { &impact.changed[..] } else { impact.most_changed(args.top) };
    let evidence = changed_rules(&base, &old, &new, args.include_pending)?;
    if args.json {
        let docs: Vec<serde_json::Value> = shown.iter().map(|d| doc_json(&base, d)).collect();
        let mut v = json!({
            "source": new.source,
            "old": old_path.display().to_string(),
            "new": new_path.display().to_string(),
            "documents": impact.documents,
            "changed_documents": impact.changed.len(),
            "removed_inside": impact.removed_inside,
            "removed_outside": impact.removed_outside,
            "given_back_inside": impact.given_back_inside,
            "given_back_outside": impact.given_back_outside,
            "changed": docs,
            "rules": evidence,
        });
        // no rule was in force before: which words are the stages' that start, which the change's own
        if let Some(split) = &impact.stages_start {
            v["stages_start"] = serde_json::to_value(split)?;
        }
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        outln!("{}: {} -> {}: {}", new.source, old_path.display(), new_path.display(), impact.summary());
        for e in &evidence {
            outln!("rule {}", e["line"].as_str().unwrap_or_default());
        }
        for d in shown {
            print_doc(&base, d);
        }
        if shown.len() < impact.changed.len() {
            outln!("... {} more changed document(s) (--top 0 prints all)", impact.changed.len() - shown.len());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The documents of a corpus, its warnings on stderr.
pub fn load(path: &Path) -> Result<Vec<Document>> {
    let corpus = Corpus::load(path)?;
    for w in &corpus.warnings {
        eprintln!("chaff: warning: {w}");
    }
    Ok(corpus.docs)
}

fn print_doc(base: &Baseline, d: &DocImpact) {
    outln!(
        "=== {}: -{} words ({} inside the article), +{} ({} inside the article)",
        d.id,
        d.removed_inside + d.removed_outside,
        d.removed_inside,
        d.given_back_inside + d.given_back_outside,
        d.given_back_inside
    );
    let text = base.text(d.index);
    // in document order, removed and given back runs interleaved
    let mut runs: Vec<(char, &WordRange)> =
        d.removed.iter().map(|r| ('-', r)).chain(d.given_back.iter().map(|r| ('+', r))).collect();
    runs.sort_by_key(|(_, r)| r.start);
    for (sign, r) in runs {
        outln!("{}", diff_line(text, sign, r));
    }
}

/// One changed run as a word diff line: `- …before [-removed words-] after…` (`{+…+}` for given back),
/// `(article)` when it lies in the article block.
pub fn diff_line(text: &str, sign: char, r: &WordRange) -> String {
    let (open, close) = if sign == '-' { ("[-", "-]") } else { ("{+", "+}") };
    let before = last_words(&text[..r.start], CONTEXT);
    let after = first_words(&text[r.end..], CONTEXT);
    let where_ = if r.inside { "  (article)" } else { "" };
    format!("{sign} …{before} {open}{}{close} {after}…{where_}", shown(&text[r.start..r.end]))
}

/// A run's words on one line; a long one as its first and last words around `…`.
fn shown(run: &str) -> String {
    let words: Vec<&str> = run.split_whitespace().collect();
    if words.len() <= LONG_RUN {
        return words.join(" ");
    }
    format!(
        "{} … ({} words) … {}",
        words[..ELIDED].join(" "),
        words.len() - 2 * ELIDED,
        words[words.len() - ELIDED..].join(" ")
    )
}

/// The last `n` words of `text`, read from its end only as far as they go.
fn last_words(text: &str, n: usize) -> String {
    let mut words: Vec<&str> = text.rsplit(char::is_whitespace).filter(|w| !w.is_empty()).take(n).collect();
    words.reverse();
    words.join(" ")
}

fn first_words(text: &str, n: usize) -> String {
    text.split(char::is_whitespace).filter(|w| !w.is_empty()).take(n).collect::<Vec<_>>().join(" ")
}

fn doc_json(base: &Baseline, d: &DocImpact) -> serde_json::Value {
    let text = base.text(d.index);
    let runs = |rs: &[WordRange]| -> Vec<serde_json::Value> {
        rs.iter()
            .map(|r| {
                json!({ "start": r.start, "end": r.end, "words": r.words, "inside": r.inside,
                        "text": text[r.start..r.end].split_whitespace().collect::<Vec<_>>().join(" ") })
            })
            .collect()
    };
    json!({
        "id": d.id,
        "removed_inside": d.removed_inside,
        "removed_outside": d.removed_outside,
        "given_back_inside": d.given_back_inside,
        "given_back_outside": d.given_back_outside,
        "removed": runs(&d.removed),
        "given_back": runs(&d.given_back),
    })
}

/// Each rule the change turns on or off or whose action it changes: what it was and is, and its evidence
/// over the source (where its matches sit against each page's article block), as JSON with a `line`.
fn changed_rules(base: &Baseline, old: &RulesFile, new: &RulesFile, pending: bool) -> Result<Vec<serde_json::Value>> {
    let state = |f: &RulesFile, r: &Rule| if f.is_active(r, pending) { r.action.name() } else { "off" };
    let before: HashMap<&str, &Rule> = old.rules.iter().map(|r| (r.id.as_str(), r)).collect();
    let mut out = Vec::new();
    for r in &new.rules {
        let was = before.get(r.id.as_str()).map_or("off", |b| state(old, b));
        let is = state(new, r);
        if was == is && before.get(r.id.as_str()).is_some_and(|b| b.regex == r.regex) {
            continue;
        }
        let e = evidence(base, r)?;
        let problems: Vec<String> = if r.action.is_cut() && is != "off" {
            cut_problems(&e).iter().map(|p| p.message()).collect()
        } else {
            Vec::new()
        };
        let warn = problems.iter().map(|p| format!("; WARNING: {p}")).collect::<String>();
        let note = e.own_line_note().filter(|_| r.action.is_cut()).map(|n| format!("; {n}")).unwrap_or_default();
        let line = format!("{was} -> {is}: {}{note}{warn}", e.line());
        out.push(json!({ "id": r.id, "was": was, "is": is, "evidence": e, "cut_problems": problems, "line": line }));
    }
    Ok(out)
}
