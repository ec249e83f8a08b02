//! Verified pages: pages an editor has marked as cleaned right, kept beside the source's rules file in
//! `rules/<source>.verified.toml`, so that a later rules change that alters one says so, and which words
//! (`chaff test`, continuous integration for rules files; the UI before a decision).
//!
//! Each page is its document id, a hash of the text the cleaner read (to notice a page that changed since),
//! the verified cleaned text (to read and to review in a diff) and the removed byte ranges of that text
//! (the compact form a word diff is found from in one pass).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cleaning::Cleaner;
use crate::corpus::Document;
use crate::error::{Error, Result, line_column};
use crate::impact::{DocImpact, Impact, WordRange, word_changes};
use crate::page::{Output, Page};
use crate::rules::RulesFile;
use crate::tokens::Tokenizer;
use crate::view::DocKind;

/// The verified-pages format this version writes.
pub const FORMAT: u32 = 1;

/// One verified page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifiedPage {
    /// The document's id in the corpus (a file's name less its extension, a JSON Lines record's `id`).
    pub id: String,
    /// FNV-1a 64 of the text the cleaner read (an HTML page's view), as 16 hex digits.
    pub input: String,
    /// Removed byte ranges of that text, sorted and disjoint.
    pub removed: Vec<(usize, usize)>,
    /// The cleaned text (for HTML, the text a reader sees): what the editor verified.
    pub text: String,
}

/// A source's verified pages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verified {
    #[serde(default = "format_one")]
    pub format: u32,
    #[serde(default)]
    pub source: String,
    #[serde(rename = "page", default)]
    pub pages: Vec<VerifiedPage>,
}

impl Default for Verified {
    fn default() -> Self {
        Verified { format: FORMAT, source: String::new(), pages: Vec::new() }
    }
}

fn format_one() -> u32 {
    FORMAT
}

/// Where a rules file's verified pages are: `rules/<source>.toml` → `rules/<source>.verified.toml`.
pub fn path_for(rules: &Path) -> PathBuf {
    let name = rules.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = name.strip_suffix(".toml").unwrap_or(&name);
    rules.with_file_name(format!("{stem}.verified.toml"))
}

/// FNV-1a 64 of `text`: stable across versions and machines, unlike the standard library's hasher.
pub fn hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl Verified {
    /// The verified pages at `path`; none when the file does not exist. A malformed file is an error naming
    /// it, its line and column. Keys chaff does not read are dropped unsaid: [`Verified::load_checked`]
    /// returns them.
    pub fn load(path: &Path) -> Result<Verified> {
        Verified::load_checked(path).map(|(v, _)| v)
    }

    /// [`Verified::load`], with the warnings for keys chaff does not read (a misspelled `txet`), each naming
    /// the file, line and column, as a rules file's are.
    pub fn load_checked(path: &Path) -> Result<(Verified, Vec<String>)> {
        if !path.exists() {
            return Ok((Verified::default(), Vec::new()));
        }
        let text = crate::rules::read_text(path)?;
        Verified::parse_checked(&text, path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Verified> {
        Verified::parse_checked(text, path).map(|(v, _)| v)
    }

    /// Parses verified pages: the pages and the warnings for keys chaff does not read.
    pub fn parse_checked(text: &str, path: &Path) -> Result<(Verified, Vec<String>)> {
        use crate::clean_settings::serde_fields as fields_of;
        let toml_error = |e: toml::de::Error| {
            let (line, column) = e.span().map_or((1, 1), |s| line_column(text, s.start));
            Error::Toml { path: path.to_path_buf(), line, column, message: e.message().trim().to_string() }
        };
        let doc = toml::de::DeTable::parse(text).map_err(toml_error)?;
        let page_fields = fields_of::<VerifiedPage>();
        let warnings =
            crate::rules::unread_keys(text, path, doc.get_ref(), fields_of::<Verified>(), &[("page", page_fields)]);
        let v = Verified::deserialize(toml::de::Deserializer::from(doc)).map_err(toml_error)?;
        if v.format > FORMAT {
            return Err(Error::Invalid(format!(
                "{}: verified pages of format {} (this chaff reads {FORMAT}): update chaff",
                path.display(),
                v.format
            )));
        }
        let mut seen = std::collections::HashSet::new();
        for p in &v.pages {
            if !seen.insert(p.id.as_str()) {
                return Err(Error::Invalid(format!(
                    "{}: page {} is verified twice: keep one of its [[page]] tables",
                    path.display(),
                    p.id
                )));
            }
            if p.removed.windows(2).any(|w| w[0].1 > w[1].0) || p.removed.iter().any(|r| r.0 > r.1) {
                return Err(Error::Invalid(format!(
                    "{}: page {}: `removed` must be sorted, disjoint [start, end] ranges: verify it again (chaff test --accept {})",
                    path.display(),
                    p.id,
                    p.id
                )));
            }
        }
        Ok((v, warnings))
    }

    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).expect("verified pages serialize");
        format!(
            "# chaff verified pages of source `{}`: each page's cleaned text as an editor verified it.\n\
             # `chaff test --rules FILE CORPUS` fails when the rules no longer give a page this text.\n\n{body}",
            self.source
        )
    }

    /// Writes atomically, keeping the file's mode.
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::atomic::write_atomic(path, self.to_toml().as_bytes())
    }

    /// Re-reads the verified pages at `path` under the lock writers of rules files take (one beside this
    /// file), applies `change` to them and writes them atomically, keeping the file's mode: pages another
    /// writer verified since this one read the file stay. `on_blocked` and `timeout` are
    /// [`crate::merge::lock_within`]'s. Returns the pages written.
    pub fn update(
        path: &Path,
        timeout: std::time::Duration,
        on_blocked: impl FnMut(&crate::merge::LockHolder),
        change: impl FnOnce(&mut Verified),
    ) -> Result<Verified> {
        let _lock = crate::merge::lock_within(path, timeout, on_blocked)?;
        let mut verified = Verified::load(path)?;
        change(&mut verified);
        verified.save(path)?;
        Ok(verified)
    }

    /// Marks `page` verified, replacing an earlier verification of the same document.
    pub fn set(&mut self, page: VerifiedPage) {
        match self.pages.iter_mut().find(|p| p.id == page.id) {
            Some(p) => *p = page,
            None => self.pages.push(page),
        }
    }

    /// The changed documents of `impact` that are verified pages: a decision that changes one says so.
    pub fn affected<'a>(&self, impact: &'a Impact) -> Vec<&'a DocImpact> {
        let ids: std::collections::HashSet<&str> = self.pages.iter().map(|p| p.id.as_str()).collect();
        impact.changed.iter().filter(|d| ids.contains(d.id.as_str())).collect()
    }
}

/// A document as `file`'s rules clean it: the text the cleaner read, and its removed ranges.
fn cleaned(cleaner: &Cleaner, file: &RulesFile, doc: &Document) -> (String, Vec<(usize, usize)>) {
    let kind = file.input();
    let page = Page::new(&doc.text, kind);
    let out = if kind == DocKind::Html && cleaner.tokenizer() == Tokenizer::Html {
        cleaner.clean_page(page)
    } else {
        cleaner.clean_page(Page::new(page.text(), DocKind::Text))
    };
    (out.page.text().to_string(), out.spans.iter().map(|s| (s.start, s.end)).collect())
}

/// `doc` cleaned with `file`'s rules, as a verified page.
pub fn verify(file: &RulesFile, doc: &Document, include_pending: bool) -> Result<VerifiedPage> {
    let cleaner = Cleaner::new(file, include_pending)?;
    Ok(verify_with(&cleaner, file, doc))
}

fn verify_with(cleaner: &Cleaner, file: &RulesFile, doc: &Document) -> VerifiedPage {
    let (text, removed) = cleaned(cleaner, file, doc);
    verified_page(&doc.id, &text, removed)
}

/// Document `i` of `base` as its rules clean it, as a verified page: what [`verify`] makes of it, from
/// the baseline's cleaning (the tuning UI marks the previewed page so, with no cleaning of its own).
pub fn page_of(base: &crate::impact::Baseline, i: usize) -> VerifiedPage {
    verified_page(&base.docs()[i].id, base.text(i), base.removed(i).to_vec())
}

fn verified_page(id: &str, text: &str, removed: Vec<(usize, usize)>) -> VerifiedPage {
    let page = Page::new(text, DocKind::Text);
    let spans =
        removed.iter().map(|&(a, b)| crate::cleaning::Span::new(a, b, crate::cleaning::SpanKind::Removed, Vec::new()));
    let cleaned = crate::page::CleanedPage::new(page, spans.collect()).write(Output::Text);
    VerifiedPage { id: id.to_string(), input: hash(text), removed, text: cleaned }
}

/// What a rules file does to one verified page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "status")]
pub enum Outcome {
    /// The rules give it its verified text.
    Passed,
    /// They do not: the words they remove that the editor kept, and those they keep that she removed
    /// (byte ranges of `text`, the page's text as the cleaner reads it).
    Failed { text: String, removed: Vec<WordRange>, given_back: Vec<WordRange> },
    /// No document of the corpus has its id.
    Missing,
    /// Its document is not the page that was verified (its text changed): verify it again.
    InputChanged,
}

/// Each verified page against `file`'s rules, in the verified file's order. Documents are matched by id.
pub fn check(
    file: &RulesFile,
    verified: &Verified,
    docs: &[Document],
    include_pending: bool,
) -> Result<Vec<(String, Outcome)>> {
    let cleaner = Cleaner::new(file, include_pending)?;
    let by_id: HashMap<&str, &Document> = docs.iter().map(|d| (d.id.as_str(), d)).collect();
    Ok(verified
        .pages
        .par_iter()
        .map(|p| {
            let Some(doc) = by_id.get(p.id.as_str()) else { return (p.id.clone(), Outcome::Missing) };
            let (text, removed) = cleaned(&cleaner, file, doc);
            if hash(&text) != p.input || p.removed.last().is_some_and(|r| r.1 > text.len()) {
                return (p.id.clone(), Outcome::InputChanged);
            }
            if removed == p.removed {
                return (p.id.clone(), Outcome::Passed);
            }
            let (now_removed, given_back) = word_changes(&text, &p.removed, &removed);
            if now_removed.is_empty() && given_back.is_empty() {
                // whitespace alone moved: the words a reader sees are the verified ones
                return (p.id.clone(), Outcome::Passed);
            }
            (p.id.clone(), Outcome::Failed { text, removed: now_removed, given_back })
        })
        .collect())
}

/// `docs` (those whose id `ids` names, or all with `None`) cleaned with `file`'s rules, marked verified in
/// `verified`. Returns the ids named that no document has.
pub fn accept(
    file: &RulesFile,
    verified: &mut Verified,
    docs: &[Document],
    ids: Option<&[String]>,
    include_pending: bool,
) -> Result<Vec<String>> {
    let cleaner = Cleaner::new(file, include_pending)?;
    verified.source = file.source.clone();
    let chosen: Vec<&Document> = match ids {
        None => docs.iter().collect(),
        Some(ids) => docs.iter().filter(|d| ids.contains(&d.id)).collect(),
    };
    let missing = ids
        .map(|ids| ids.iter().filter(|id| !docs.iter().any(|d| &&d.id == id)).cloned().collect())
        .unwrap_or_default();
    let pages: Vec<VerifiedPage> = chosen.par_iter().map(|d| verify_with(&cleaner, file, d)).collect();
    for p in pages {
        verified.set(p);
    }
    Ok(missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_that_changes_a_verified_page_names_it() {
        use crate::automatic::automatic_rules;
        use crate::mining::{MiningConfig, Quiet, mine};
        use crate::settings::Settings;
        let source = chaff_generate::sevendays(30, 5);
        let docs: Vec<Document> =
            source.docs.iter().map(|d| Document { id: d.id.clone(), text: d.text.clone() }).collect();
        let corpus = crate::corpus::Corpus::from_docs("s", docs.clone());
        let config = MiningConfig::default();
        let mining = mine(&corpus, &config, &Quiet).unwrap();
        let file =
            automatic_rules(&corpus, &mining, crate::rules::MiningParams::of(&config), None, &Settings::default())
                .unwrap();
        let mut verified = Verified::default();
        accept(&file, &mut verified, &docs, Some(&[docs[3].id.clone()]), true).unwrap();
        // an editor accepts the idiom `of the`: pages lose article words, the verified one among them
        let mut after = file.clone();
        after.rules.iter_mut().find(|r| r.tokens == ["of", "the"]).unwrap().status = crate::rules::Status::Accepted;
        let base = crate::impact::Baseline::new(&file, docs.clone(), true).unwrap();
        let impact = base.impact(&after).unwrap();
        let hit: Vec<&str> = verified.affected(&impact).iter().map(|d| d.id.as_str()).collect();
        assert!(impact.changed.len() > 1, "{}", impact.summary());
        assert_eq!(hit, vec![docs[3].id.as_str()]);
        // and `check` says which words
        let outcome = &check(&after, &verified, &docs, true).unwrap()[0].1;
        assert!(matches!(outcome, Outcome::Failed { removed, .. } if !removed.is_empty()), "{outcome:?}");
        assert_eq!(check(&file, &verified, &docs, true).unwrap()[0].1, Outcome::Passed);
    }

    #[test]
    fn a_page_verified_from_the_baseline_is_the_page_verify_makes() {
        use crate::automatic::automatic_rules;
        use crate::mining::{MiningConfig, Quiet, mine};
        for source in [chaff_generate::sevendays(20, 3), chaff_generate::html_news(12, 3)] {
            let docs: Vec<Document> =
                source.docs.iter().map(|d| Document { id: d.id.clone(), text: d.text.clone() }).collect();
            let kind = if source.extension == "html" { DocKind::Html } else { DocKind::Text };
            let mut config = MiningConfig::default();
            let corpus = crate::page::viewed(crate::corpus::Corpus::from_docs("s", docs.clone()), kind, &mut config);
            let mining = mine(&corpus, &config, &Quiet).unwrap();
            let params = crate::rules::MiningParams::of(&config);
            let file = automatic_rules(&corpus, &mining, params, None, &crate::settings::Settings::default()).unwrap();
            let base = crate::impact::Baseline::new(&file, docs.clone(), true).unwrap();
            for (i, d) in docs.iter().enumerate() {
                assert_eq!(page_of(&base, i), verify(&file, d, true).unwrap(), "{}", d.id);
            }
        }
    }

    #[test]
    fn verified_pages_sit_beside_the_rules_file() {
        assert_eq!(path_for(Path::new("rules/sevendays.toml")), Path::new("rules/sevendays.verified.toml"));
    }

    #[test]
    fn a_page_verified_twice_is_an_error_naming_the_file() {
        let text = "source = \"s\"\n[[page]]\nid = \"a\"\ninput = \"0\"\nremoved = []\ntext = \"\"\n\
                    [[page]]\nid = \"a\"\ninput = \"0\"\nremoved = []\ntext = \"\"\n";
        let e = Verified::parse(text, Path::new("rules/s.verified.toml")).unwrap_err().to_string();
        assert!(e.contains("rules/s.verified.toml: page a is verified twice"), "{e}");
    }

    #[test]
    fn a_malformed_file_names_its_line_and_column() {
        let e = Verified::parse("source = \"s\"\n[[page]]\nid = 3\n", Path::new("v.toml")).unwrap_err().to_string();
        assert!(e.starts_with("v.toml:3:"), "{e}");
    }
}
