//! An evaluation dataset on disk: site folders, each page `<id>.txt` and/or `<id>.html`, with its gold
//! main content `<id>.gold.txt` (the layout of `../shared/corpora/`), or with `<id>.template.json`, the
//! byte spans of the page that are template (the injected-template corpora of `chaff generate`).
//!
//! A page with template spans and no gold file gets a gold derived from them: the page without its
//! template (rendered to text when the page is HTML).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::corpus::decode;
use crate::error::{Error, Result};

use crate::cleaning::{Span, SpanKind, normalize, render};
use crate::view::PageView;

/// Which text of a page a method mines and cleans.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Input {
    /// The naive text of the page (`<id>.txt`), text tokenizer.
    Txt,
    /// The raw HTML (`<id>.html`), html tokenizer; what is left is rendered to text before scoring.
    Html,
}

impl Input {
    pub fn name(self) -> &'static str {
        match self {
            Input::Txt => "txt",
            Input::Html => "html",
        }
    }
}

/// One page of a site.
#[derive(Debug, Clone, Default)]
pub struct Page {
    pub id: String,
    pub txt: Option<String>,
    pub html: Option<String>,
    /// The gold main content, from `<id>.gold.txt` or derived from the template spans.
    pub gold: Option<String>,
    /// Template byte spans, of the page's `.txt` if it has one, else of its `.html`.
    pub template: Option<Vec<(usize, usize)>>,
}

impl Page {
    pub fn input(&self, input: Input) -> Option<&str> {
        match input {
            Input::Txt => self.txt.as_deref(),
            Input::Html => self.html.as_deref(),
        }
    }

    /// Which input the template spans are spans of.
    pub fn template_input(&self) -> Option<Input> {
        self.template.as_ref()?;
        Some(if self.txt.is_some() { Input::Txt } else { Input::Html })
    }

    /// The template spans, if they are spans of `input`.
    pub fn template_of(&self, input: Input) -> Option<&[(usize, usize)]> {
        if self.template_input() == Some(input) { self.template.as_deref() } else { None }
    }
}

/// One source: a folder of pages.
#[derive(Debug, Clone)]
pub struct Site {
    pub name: String,
    pub pages: Vec<Page>,
}

impl Site {
    /// Whether every page has `input`.
    pub fn has(&self, input: Input) -> bool {
        self.pages.iter().all(|p| p.input(input).is_some())
    }

    /// The input to read when `asked` is asked: it, or the other one if only that is there for every page
    /// (a generated HTML source in a text run).
    pub fn input_for(&self, asked: Input) -> Option<Input> {
        let other = match asked {
            Input::Txt => Input::Html,
            Input::Html => Input::Txt,
        };
        [asked, other].into_iter().find(|&i| self.has(i))
    }
}

/// Sites to evaluate, with what went wrong reading them.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// The root folder's name (`dragnet`), the key of its floors.
    pub name: String,
    pub root: PathBuf,
    pub sites: Vec<Site>,
    /// Lossy decoding and unreadable side files; reported, never fatal.
    pub warnings: Vec<String>,
}

/// What a file of a site folder is to the evaluation.
enum Kind {
    Txt,
    Html,
    Gold,
    Template,
}

fn classify(name: &str) -> Option<(&str, Kind)> {
    if name.starts_with('.') {
        return None;
    }
    let lower = name.to_ascii_lowercase();
    let (suffix, kind) = if lower.ends_with(".gold.txt") {
        (".gold.txt", Kind::Gold)
    } else if lower.ends_with(".template.json") {
        (".template.json", Kind::Template)
    } else if lower.ends_with(".txt") {
        (".txt", Kind::Txt)
    } else if lower.ends_with(".html") {
        (".html", Kind::Html)
    } else if lower.ends_with(".htm") {
        (".htm", Kind::Html)
    } else {
        return None;
    };
    Some((&name[..name.len() - suffix.len()], kind))
}

fn has_pages(dir: &Path) -> bool {
    fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            e.path().is_file()
                && matches!(classify(&e.file_name().to_string_lossy()), Some((_, Kind::Txt | Kind::Html)))
        })
    })
}

impl Dataset {
    /// Loads `root`: a folder of site folders, or one site folder.
    pub fn load(root: &Path) -> Result<Dataset> {
        let meta = fs::metadata(root).map_err(|e| Error::io(root, e))?;
        if !meta.is_dir() {
            return Err(Error::Invalid(format!(
                "{}: not a folder (chaff eval expects ROOT/<site>/<id>.txt|html with <id>.gold.txt or <id>.template.json)",
                root.display()
            )));
        }
        let name = crate::corpus::source_name(root);
        let mut warnings = Vec::new();
        let folders: Vec<PathBuf> = if has_pages(root) {
            vec![root.to_path_buf()]
        } else {
            let mut v: Vec<PathBuf> = fs::read_dir(root)
                .map_err(|e| Error::io(root, e))?
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir() && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
                .filter(|p| has_pages(p))
                .collect();
            v.sort();
            v
        };
        let mut sites = Vec::new();
        for folder in &folders {
            let site = load_site(folder, &mut warnings)?;
            if !site.pages.is_empty() {
                sites.push(site);
            }
        }
        if sites.is_empty() {
            return Err(Error::Invalid(format!(
                "{}: no pages with a gold (<id>.gold.txt) or template spans (<id>.template.json) found in it or its \
                 sub-folders",
                root.display()
            )));
        }
        Ok(Dataset { name, root: root.to_path_buf(), sites, warnings })
    }

    pub fn pages(&self) -> usize {
        self.sites.iter().map(|s| s.pages.len()).sum()
    }
}

fn read_text(path: &Path, warnings: &mut Vec<String>) -> Result<Option<String>> {
    let bytes = fs::read(path).map_err(|e| Error::io(path, e))?;
    match decode(bytes) {
        None => {
            warnings.push(format!("{}: binary file (NUL bytes), skipped", path.display()));
            Ok(None)
        }
        Some((text, replaced)) => {
            if replaced > 0 {
                warnings.push(format!("{}: {replaced} invalid UTF-8 sequence(s) replaced", path.display()));
            }
            Ok(Some(text))
        }
    }
}

/// Parses a `.template.json`: a JSON array of `[start, end]` byte spans.
pub fn parse_template(json: &str) -> std::result::Result<Vec<(usize, usize)>, String> {
    serde_json::from_str::<Vec<(usize, usize)>>(json).map_err(|e| e.to_string())
}

fn load_site(folder: &Path, warnings: &mut Vec<String>) -> Result<Site> {
    let mut pages: BTreeMap<String, Page> = BTreeMap::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(folder)
        .map_err(|e| Error::io(folder, e))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    entries.sort();
    for path in entries {
        let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let Some((id, kind)) = classify(&file_name) else { continue };
        let Some(text) = read_text(&path, warnings)? else { continue };
        let page = pages.entry(id.to_string()).or_insert_with(|| Page { id: id.to_string(), ..Page::default() });
        match kind {
            Kind::Txt => page.txt = Some(text),
            Kind::Html => page.html = Some(text),
            Kind::Gold => page.gold = Some(text),
            Kind::Template => match parse_template(&text) {
                Ok(spans) => page.template = Some(spans),
                Err(e) => {
                    warnings.push(format!("{}: not a JSON array of [start, end] spans ({e}), ignored", path.display()))
                }
            },
        }
    }
    let mut out = Vec::new();
    for (_, mut page) in pages {
        if page.txt.is_none() && page.html.is_none() {
            continue;
        }
        if page.gold.is_none() && page.template.is_some() {
            page.gold = Some(derived_gold(&page));
        }
        if page.gold.is_some() {
            out.push(page);
        }
    }
    Ok(Site { name: crate::corpus::source_name(folder), pages: out })
}

/// The page without its template spans, as text.
fn derived_gold(page: &Page) -> String {
    let input = page.template_input().expect("template spans");
    let text = page.input(input).expect("page text");
    let spans = normalize(page.template.as_deref().unwrap_or_default());
    if input == Input::Html {
        // as a cleaned page is read: its view, less what the template's bytes show
        return output_text(text, &spans, Input::Html);
    }
    let mut kept = String::with_capacity(text.len());
    let mut pos = 0;
    for &(s, e) in &spans {
        let (s, e) = (s.min(text.len()), e.min(text.len()));
        if s > pos {
            kept.push_str(text.get(pos..s).unwrap_or_default());
            kept.push('\n');
        }
        pos = pos.max(e);
    }
    kept.push_str(text.get(pos..).unwrap_or_default());
    kept
}

/// The text a reader sees once `removed` (source byte ranges) is taken out of `text`: for HTML, its page
/// view less what the removed bytes show, as `chaff clean --text` writes it.
pub fn output_text(text: &str, removed: &[(usize, usize)], input: Input) -> String {
    match input {
        Input::Txt => {
            let spans: Vec<Span> = normalize(removed)
                .into_iter()
                .map(|(start, end)| Span::new(start, end, SpanKind::Removed, Vec::new()))
                .collect();
            render(text, &spans)
        }
        Input::Html => {
            let view = PageView::of_html(text);
            let shown: Vec<(usize, usize)> =
                normalize(removed).into_iter().map(|(s, e)| (view.from_source(s), view.from_source(e))).collect();
            let spans: Vec<Span> = normalize(&shown)
                .into_iter()
                .map(|(start, end)| Span::new(start, end, SpanKind::Removed, Vec::new()))
                .collect();
            render(view.text(), &spans)
        }
    }
}
