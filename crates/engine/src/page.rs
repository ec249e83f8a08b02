//! A document as the cleaner reads it. Text is read as it is. An HTML page is read through its page view
//! (`crate::view`): the lines a reader sees, built once; rules are mined on view text, the cleaner's stages
//! run on it, and what they remove maps back to exact source bytes for the cleaned HTML. Rules mined with
//! the raw-HTML tokenizer (an option) match the source, and their matches are mapped onto the view.
//!
//! This is the one cleaning path: the CLI, the evaluation, the UI, `chaff check` and the Python module go
//! through it.

mod explained;

use rayon::prelude::*;

use crate::cleaning::{Cleaner, Explanation, Layout, Match, Span};
use crate::corpus::{Corpus, Document};
use crate::mining::MiningConfig;
use crate::render::{element_cuts, text_cuts, without};
use crate::rules::RulesFile;
use crate::tokens::Tokenizer;
use crate::view::paths::{LocalPaths, SourcePaths};
use crate::view::{DocKind, PageView, Structure};

pub use explained::{ExplainedSpan, explained, explained_page, kind_name};

/// One document and the text the cleaner reads of it.
#[derive(Debug, Clone)]
pub struct Page<'a> {
    source: &'a str,
    /// The page view, for HTML read as a reader sees it; `None` for text, its own view.
    view: Option<PageView>,
    /// Where the lines of a page held as its view's text sit ([`Page::of_view_text`]); `None` otherwise.
    structure: Option<Structure>,
}

impl<'a> Page<'a> {
    /// `source` read as a document of kind `kind`.
    pub fn new(source: &'a str, kind: DocKind) -> Page<'a> {
        Page { source, view: (kind == DocKind::Html).then(|| PageView::of_html(source)), structure: None }
    }

    /// An HTML page held as its view's text alone, `text`, with where its lines sit (`structure`, as a
    /// source's paths keep it: [`SourcePaths::structure`]): cleaned as the page is, its text being its
    /// view. A front end holding a source's pages as their views (the tuning UI) cleans them this way.
    pub fn of_view_text(text: &'a str, structure: Option<Structure>) -> Page<'a> {
        Page { source: text, view: None, structure }
    }

    /// Where the page's lines sit: its view's structure, or the one it was given.
    pub fn structure(&self) -> Option<&Structure> {
        self.view.as_ref().and_then(PageView::structure).or(self.structure.as_ref())
    }

    /// A document read as a rules file's cleaner reads it: HTML through its view, whatever the tokenizer.
    pub fn for_rules(source: &'a str, file: &RulesFile) -> Page<'a> {
        Page::new(source, file.input())
    }

    pub fn source(&self) -> &'a str {
        self.source
    }

    /// The text the cleaner reads: the view's, or the document itself.
    pub fn text(&self) -> &str {
        self.view.as_ref().map_or(self.source, |v| v.text())
    }

    pub fn view(&self) -> Option<&PageView> {
        self.view.as_ref()
    }

    /// Source byte ranges of `ranges` of [`Page::text`] (sorted): exact bytes, markup between shown text
    /// included where a range spans it.
    pub fn to_source(&self, ranges: &[(usize, usize)]) -> Vec<(usize, usize)> {
        match &self.view {
            None => ranges.to_vec(),
            Some(v) => {
                let views: Vec<std::ops::Range<usize>> = ranges.iter().map(|&(a, b)| a..b).collect();
                v.map().spans_to_source(&views).into_iter().map(|r| (r.start, r.end)).collect()
            }
        }
    }

    /// The one source range covering `start..end` of [`Page::text`].
    pub fn to_source_hull(&self, start: usize, end: usize) -> (usize, usize) {
        match &self.view {
            None => (start, end),
            Some(v) => v.map().to_source_hull(start..end).map_or((start, start), |r| (r.start, r.end)),
        }
    }
}

/// What is written of a cleaned page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Output {
    /// The document less the removed spans; for HTML, cut at elements so the rest parses as the page did.
    #[default]
    Cleaned,
    /// HTML: the page less the text of the removed spans, every tag kept (`--keep-tags`).
    KeepTags,
    /// HTML: the text a reader sees of what is left, cut from the page's view (`--text`).
    Text,
}

/// A page cleaned: the removed spans of its text, and what each output writes.
///
/// Every output is its input less some of its bytes, nothing added or moved: [`CleanedPage::taken`]
/// names them, span by span, so `--explain` adds up to what was written.
#[derive(Debug, Clone)]
pub struct CleanedPage<'a> {
    pub page: Page<'a>,
    /// Removed spans of [`Page::text`], sorted and disjoint.
    pub spans: Vec<Span>,
    /// The source bytes of `spans`, found once: every output reads them.
    source: Vec<(usize, usize)>,
    /// Every decision behind `spans`, when the page was cleaned explained
    /// ([`Cleaner::clean_page_explained`]).
    explanation: Option<Explanation>,
    /// What the last output asked of the source took ([`CleanedPage::taken`]): writing a page and then
    /// explaining it cuts the HTML once.
    taken: std::sync::OnceLock<(Output, Vec<(usize, usize)>)>,
}

impl<'a> CleanedPage<'a> {
    /// `page` less `spans` (removed spans of [`Page::text`], sorted and disjoint).
    pub fn new(page: Page<'a>, spans: Vec<Span>) -> CleanedPage<'a> {
        let view: Vec<(usize, usize)> = spans.iter().map(|s| (s.start, s.end)).collect();
        let source = page.to_source(&view);
        CleanedPage { page, spans, source, explanation: None, taken: std::sync::OnceLock::new() }
    }

    /// The decisions behind the removed spans, if the page was cleaned explained.
    pub fn explanation(&self) -> Option<&Explanation> {
        self.explanation.as_ref()
    }

    /// The removed spans and their explanation, taken from the cleaned page (nothing copied).
    pub fn into_explained(self) -> (Vec<Span>, Option<Explanation>) {
        (self.spans, self.explanation)
    }
}

impl CleanedPage<'_> {
    /// The text left: what a reader sees of the cleaned page (`--text`; text documents: the cleaned text).
    pub fn text(&self) -> String {
        self.write(Output::Text)
    }

    /// Source byte ranges of the removed spans' text (markup between their words included).
    pub fn source_ranges(&self) -> &[(usize, usize)] {
        &self.source
    }

    /// Bytes of the source the removed spans' text spans.
    pub fn removed_bytes(&self) -> usize {
        self.source_ranges().iter().map(|(a, b)| b - a).sum()
    }

    /// The cleaned document: text documents as [`CleanedPage::text`]; HTML with the removed spans cut
    /// at elements, so that it parses as a page showing [`CleanedPage::text`] (see
    /// [`crate::render::element_cuts`]).
    pub fn cleaned(&self) -> String {
        self.write(Output::Cleaned)
    }

    /// HTML: the page with only the text of the removed spans gone, every tag kept, so it parses as it did.
    pub fn keep_tags(&self) -> String {
        self.write(Output::KeepTags)
    }

    /// Whether `output` is cut from the page's view rather than from its source.
    fn of_view(&self, output: Output) -> bool {
        self.page.view.is_none() || output == Output::Text
    }

    /// What `output` is cut from: the page's view for `--text`, else the document itself (a text
    /// document is its own view).
    pub fn input(&self, output: Output) -> &str {
        if self.of_view(output) { self.page.text() } else { self.page.source }
    }

    /// `output`: [`CleanedPage::input`] less [`CleanedPage::taken`].
    pub fn write(&self, output: Output) -> String {
        without(self.input(output), &self.taken(output))
    }

    /// The bytes of [`CleanedPage::input`] that `output` leaves out, sorted and disjoint.
    pub fn taken(&self, output: Output) -> Vec<(usize, usize)> {
        if self.of_view(output) {
            return seams(self.page.text(), &self.spans).into_iter().flatten().collect();
        }
        if let Some((cached, taken)) = self.taken.get()
            && *cached == output
        {
            return taken.clone();
        }
        let taken = match output {
            Output::KeepTags => text_cuts(self.page.source, &self.source),
            _ => element_cuts(self.page.source, &self.source),
        };
        let _ = self.taken.set((output, taken.clone()));
        taken
    }

    /// [`CleanedPage::taken`], span by span: what each removed span took (its bytes, the whitespace its
    /// seam let go; for HTML, less the tags that stay).
    pub fn taken_by_span(&self, output: Output) -> Vec<Vec<(usize, usize)>> {
        if self.of_view(output) {
            return seams(self.page.text(), &self.spans);
        }
        let taken = self.taken(output);
        let Some(view) = &self.page.view else { unreachable!("of_view: text documents") };
        self.spans
            .iter()
            .map(|s| {
                let mut pieces = Vec::new();
                for r in view.to_source(s.start..s.end) {
                    let mut i = taken.partition_point(|t| t.1 <= r.start);
                    while i < taken.len() && taken[i].0 < r.end {
                        pieces.push((taken[i].0.max(r.start), taken[i].1.min(r.end)));
                        i += 1;
                    }
                }
                pieces
            })
            .collect()
    }
}

/// What each of `spans` takes of `text` for the cleaned text: its bytes, and the whitespace at its seam
/// but one separator, so the words on both sides stay apart as a reader saw them (a newline where the
/// seam held one, else a space). Whitespace before the first word kept and after the last one goes with
/// the spans touching it; a document's own leading and trailing whitespace otherwise stays, and a page
/// without spans is written byte for byte. The separator is a byte of the seam, never an added one:
/// where a seam holds no whitespace at all (a span inside a word), the two sides meet. Whitespace
/// between two spans belongs to the first; a separator inside a span splits what it takes in two.
/// One pass over the spans and their seams.
fn seams(text: &str, spans: &[Span]) -> Vec<Vec<(usize, usize)>> {
    let mut out: Vec<Vec<(usize, usize)>> = Vec::with_capacity(spans.len());
    let mut i = 0;
    while i < spans.len() {
        // the seam: spans i..=j with only whitespace between them
        let mut j = i;
        while j + 1 < spans.len() && text[spans[j].end..spans[j + 1].start].trim().is_empty() {
            j += 1;
        }
        let lo = text[..spans[i].start].trim_end().len();
        let hi = spans[j].end + (text[spans[j].end..].len() - text[spans[j].end..].trim_start().len());
        let sep = if lo == 0 || hi == text.len() { None } else { separator(text, &spans[i..=j], lo, hi) };
        for k in i..=j {
            let from = if k == i { lo } else { spans[k].start };
            let to = if k == j { hi } else { spans[k + 1].start };
            let mut pieces = Vec::with_capacity(1);
            match sep {
                Some((a, b)) if from <= a && b <= to => {
                    pieces.extend([(from, a), (b, to)].into_iter().filter(|p| p.0 < p.1));
                }
                _ if from < to => pieces.push((from, to)),
                _ => {}
            }
            out.push(pieces);
        }
        i = j + 1;
    }
    out
}

/// The byte range of the separator a seam `lo..hi` keeps (its spans `spans`): the first newline outside
/// the spans, else one inside them, else the first space outside them, other whitespace outside them,
/// a space inside them, other whitespace inside them; `None` where the seam holds no whitespace.
fn separator(text: &str, spans: &[Span], lo: usize, hi: usize) -> Option<(usize, usize)> {
    let mut best: [Option<(usize, usize)>; 6] = [None; 6];
    let mut scan = |from: usize, to: usize, inside: bool| {
        for (at, c) in text[from..to].char_indices() {
            let rank = match (c, inside) {
                ('\n', false) => 0,
                ('\n', true) => 1,
                (' ', false) => 2,
                (c, false) if c.is_whitespace() => 3,
                (' ', true) => 4,
                (c, true) if c.is_whitespace() => 5,
                _ => continue,
            };
            best[rank].get_or_insert((from + at, from + at + c.len_utf8()));
        }
    };
    let mut pos = lo;
    for s in spans {
        scan(pos, s.start, false);
        scan(s.start, s.end, true);
        pos = s.end;
    }
    scan(pos, hi, false);
    best.into_iter().flatten().next()
}

impl Cleaner {
    /// The matches of a page, on its text: rules of the raw-HTML tokenizer match the HTML source, and
    /// their matches are placed on the view (a match of markup alone shows nothing and is dropped).
    pub fn page_matches(&self, page: &Page) -> Vec<Match> {
        match &page.view {
            Some(view) if self.tokenizer() == Tokenizer::Html => {
                let map = view.map();
                let mut out: Vec<Match> = self
                    .matches(page.source)
                    .into_iter()
                    .map(|m| Match { start: map.from_source(m.start), end: map.from_source(m.end), rule: m.rule })
                    .filter(|m| m.end > m.start)
                    .collect();
                out.sort_unstable();
                out.dedup();
                out
            }
            _ => self.matches(page.text()),
        }
    }

    /// Cleans a page: every stage runs on its text.
    pub fn clean_page<'a>(&self, page: Page<'a>) -> CleanedPage<'a> {
        self.clean_page_with(page, false)
    }

    /// The one cleaning entry point with its explanations: the page cleaned, and every decision behind
    /// its removed spans ([`CleanedPage::explanation`]), from the same run of the stages.
    pub fn clean_page_explained<'a>(&self, page: Page<'a>) -> CleanedPage<'a> {
        self.clean_page_with(page, true)
    }

    fn clean_page_with<'a>(&self, page: Page<'a>, explain: bool) -> CleanedPage<'a> {
        let (spans, explanation) = self.run_page(&page, explain);
        CleanedPage { explanation, ..CleanedPage::new(page, spans) }
    }

    /// The one pass of the stages over a page: its removed spans and, if asked, every decision behind
    /// them, recorded as the stages ran.
    fn run_page(&self, page: &Page, explain: bool) -> (Vec<Span>, Option<Explanation>) {
        // raw-HTML rules are matched and filtered on the source, the others on the text
        let matches = match &page.view {
            Some(_) if self.tokenizer() == Tokenizer::Html => Some(self.page_matches(page)),
            _ => None,
        };
        self.run_text(&Layout::new(page.text()), matches, page.structure(), explain)
    }

    /// Every decision behind a page's removed spans, on its text (see [`Cleaner::explain`]): the
    /// explanation [`Cleaner::clean_page_explained`] gives, of the same one pass.
    pub fn explain_page(&self, page: &Page) -> Explanation {
        self.run_page(page, true).1.expect("asked to explain")
    }
}

/// Prepares a corpus for mining as documents of kind `kind`: HTML pages mined with the text tokenizer are
/// replaced by their views' text, and `config` says so; where their lines sit is kept for region mining
/// ([`Corpus::paths`]). Raw-HTML mining and text take the corpus as it is. The bundled mutable patterns
/// get the month and weekday names of the languages the documents write dates in
/// ([`crate::mutable::date_names::adopt`]).
pub fn viewed(corpus: Corpus, kind: DocKind, config: &mut MiningConfig) -> Corpus {
    let corpus = views(corpus, kind, config);
    crate::mutable::date_names::adopt(&mut config.patterns, &corpus.docs);
    corpus
}

fn views(corpus: Corpus, kind: DocKind, config: &mut MiningConfig) -> Corpus {
    config.input = kind;
    if kind != DocKind::Html || config.tokenizer == Tokenizer::Html {
        return corpus;
    }
    let (docs, local): (Vec<Document>, Vec<LocalPaths>) = corpus
        .docs
        .into_par_iter()
        .map(|d| {
            let view = PageView::of_html(&d.text);
            let local = view.structure().map(LocalPaths::of).unwrap_or_default();
            (Document { text: view.text().to_string(), id: d.id }, local)
        })
        .unzip();
    let mut paths = SourcePaths::new();
    for (d, l) in docs.iter().zip(local) {
        paths.push(&d.id, l);
    }
    Corpus { docs, paths: Some(std::sync::Arc::new(paths)), ..corpus }
}

/// Documents as `file`'s rules were mined on them: HTML pages mined with the text tokenizer as their
/// views' text, others as they are (for checking the rules against new documents).
pub fn documents_for(file: &RulesFile, docs: Vec<Document>) -> Vec<Document> {
    if file.input() != DocKind::Html || file.tokenizer == Tokenizer::Html {
        return docs;
    }
    docs.into_par_iter().map(|d| Document { text: PageView::of_html(&d.text).text().to_string(), id: d.id }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutable::MutableSet;
    use crate::rules::{Action, Rule};
    use crate::symbol::Symbol;

    fn cleaner(tokenizer: Tokenizer, tokens: &str) -> Cleaner {
        let m = MutableSet::defaults();
        let symbols: Vec<Symbol> = tokens.split(' ').map(Symbol::decode).collect();
        let rule = Rule { bin: 99, ..Rule::accepted("r", &symbols, Action::Remove, tokenizer, &m).unwrap() };
        Cleaner::from_rules(tokenizer, m.patterns(), &[rule], 0).unwrap()
    }

    const PAGE: &str = "<html><head><title>Big news</title></head><body><nav>Home &amp; away</nav>\n\
        <p>The article text, with <b>bold</b> words.</p></body></html>";

    #[test]
    fn html_is_cleaned_on_its_view_and_cut_from_its_source_exactly() {
        let c = cleaner(Tokenizer::Text, "Home & away");
        let out = c.clean_page(Page::new(PAGE, DocKind::Html));
        assert_eq!(out.page.text(), "Big news\nHome & away\nThe article text, with bold words.");
        assert_eq!(out.text(), "Big news\nThe article text, with bold words.");
        let ranges = out.source_ranges();
        assert_eq!(ranges.len(), 1);
        assert_eq!(&PAGE[ranges[0].0..ranges[0].1], "Home &amp; away");
        assert!(out.cleaned().contains("<nav></nav>\n<p>"), "{}", out.cleaned());
        let kept = out.keep_tags();
        assert!(kept.contains("<nav></nav>") && kept.contains("<b>bold</b>"), "{kept}");
    }

    #[test]
    fn raw_html_rules_match_the_source_and_clean_the_view() {
        let c = cleaner(Tokenizer::Html, "<nav> Home &amp; away </nav>");
        let out = c.clean_page(Page::new(PAGE, DocKind::Html));
        assert_eq!(out.text(), "Big news\nThe article text, with bold words.");
    }

    #[test]
    fn a_text_document_is_its_own_page() {
        let c = cleaner(Tokenizer::Text, "read more");
        let out = c.clean_page(Page::new("one\nread more\ntwo", DocKind::Text));
        assert_eq!((out.text(), out.cleaned()), ("one\ntwo".to_string(), "one\ntwo".to_string()));
        assert_eq!(out.source_ranges(), vec![(4, 13)]);
    }

    #[test]
    fn a_page_held_as_its_views_text_and_paths_is_cleaned_as_the_page_is() {
        use crate::rules::region::RegionRule;
        let html = "<html><body><div id=\"nav\">Home News</div><div class=\"post\"><p>The harbour opened on \
            Monday, the mayor said.</p></div><div id=\"comments\"><div class=\"comment\">What a day!</div>\
            <div class=\"comment odd\">About time.</div></div><div id=\"foot\">Contact us</div></body></html>";
        let corpus = Corpus::from_docs("s", vec![Document { id: "a".into(), text: html.into() }]);
        let viewed = viewed(corpus, DocKind::Html, &mut MiningConfig::default());
        let paths = viewed.paths.as_deref().unwrap();
        let regions =
            [RegionRule::accepted("div#comments", Action::Remove), RegionRule::accepted("div.odd", Action::Keep)];
        let c = cleaner(Tokenizer::Text, "Home News").with_regions(&regions);
        let page = c.clean_page_explained(Page::new(html, DocKind::Html));
        let text = viewed.docs[0].text.as_str();
        let held = c.clean_page_explained(Page::of_view_text(text, paths.structure(0, "a")));
        assert_eq!(held.spans, page.spans);
        assert_eq!(held.text(), page.text());
        assert!(!held.text().contains("What a day") && held.text().contains("About time."), "{}", held.text());
        assert_eq!(held.explanation(), page.explanation());
        assert_eq!(c.explain_page(&held.page), *held.explanation().unwrap(), "explain_page is the same pass");
        // without its paths the page's text has no structure: the region rules do nothing
        let bare = c.clean_page(Page::of_view_text(text, None));
        assert!(bare.text().contains("What a day"), "{}", bare.text());
        assert!(paths.structure(0, "another id").is_none(), "a page the paths do not hold");
    }

    #[test]
    fn a_page_held_as_its_views_text_and_paths_loses_its_link_strips_as_the_page_does() {
        use crate::clean_settings::{LinkDensitySettings, Stage};
        let html = "<html><body><div class=\"post\"><p>The harbour opened on Monday after ten years of \
            building work, the mayor said.</p><p>Ferries will run every hour from the new quay, and the old \
            terminal closes in spring.</p><p>The council expects twice as many visitors next summer as the old \
            harbour ever saw in one year.</p></div><h3>More from the harbour desk</h3><ul class=\"related\">\
            <li><a href=\"/1\">Council votes to close the old ferry terminal next spring</a></li>\
            <li><a href=\"/2\">Fishermen fear the new quay will crowd the harbour mouth</a></li>\
            <li>Built <a href=\"/3\">week by week</a> by workers</li></ul></body></html>";
        let corpus = Corpus::from_docs("s", vec![Document { id: "a".into(), text: html.into() }]);
        let viewed = viewed(corpus, DocKind::Html, &mut MiningConfig::default());
        let (paths, text) = (viewed.paths.as_deref().unwrap(), viewed.docs[0].text.as_str());
        let rules = cleaner(Tokenizer::Text, "More from the harbour desk");
        let settings = *rules.settings();
        let c = rules
            .with_settings(crate::cleaning::CleanSettings {
                link_density: LinkDensitySettings { share: 50 },
                ..settings
            })
            .with_stage(Stage::LinkDensity, true)
            // the strip's class names it as furniture, a stage of its own: link density alone here
            .with_stage(Stage::Furniture, false);
        let page = c.clean_page_explained(Page::new(html, DocKind::Html));
        assert!(!page.text().contains("Council votes") && !page.text().contains("Fishermen fear"), "{}", page.text());
        assert!(
            page.text().ends_with("Built week by week by workers"),
            "a line mostly outside links stays: {}",
            page.text()
        );
        let held = c.clean_page_explained(Page::of_view_text(text, paths.structure(0, "a")));
        assert_eq!(held.spans, page.spans);
        assert_eq!(held.text(), page.text());
        assert_eq!(held.explanation(), page.explanation());
        assert_eq!(paths.link_percents(0, "a").unwrap().len(), text.lines().count(), "a percent per line");
    }

    #[test]
    fn a_corpus_of_pages_is_mined_on_their_views() {
        let corpus = Corpus::from_docs("s", vec![Document { id: "a".into(), text: PAGE.into() }]);
        let mut config = MiningConfig::default();
        let viewed = viewed(corpus.clone(), DocKind::Html, &mut config);
        assert_eq!(viewed.docs[0].text, "Big news\nHome & away\nThe article text, with bold words.");
        assert_eq!(config.input, DocKind::Html);
        let mut raw = MiningConfig::for_tokenizer(Tokenizer::Html);
        assert_eq!(super::viewed(corpus, DocKind::Html, &mut raw).docs[0].text, PAGE, "raw HTML mining");
    }
}
