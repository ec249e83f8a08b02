//! The preview's cleaning, off the UI thread: the previewed document cleaned by the accepted rules through
//! the page entry point (an HTML page held as its view's text with where its lines sit, so region rules
//! apply as `chaff clean` applies them, and explained from the same pass), by the pending candidates
//! above the cutoff, and by the pending region rules as `chaff clean --include-pending` applies them
//! (see [`compute`]). A decision or a cutoff move on a document of
//! tens of megabytes takes seconds to clean; the UI sends the request here and goes on, showing the last
//! cleaned state (and "cleaning…") until the result comes back (a page of ordinary size is cleaned on the
//! UI thread: see [`super::document::INLINE_BYTES`]). One thread a preview, the latest request
//! wins: requests queued behind a newer one are skipped, and a request overtaken while it runs stops at
//! its next step and sends nothing.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Duration;

use crate::cleaning::{Cleaner, Explanation, Match, Span, SpanKind};
use crate::corpus::Corpus;
use crate::page::Page;
use crate::rules::region::REGION_PREFIX;
use crate::view::Structure;

use super::document::{Mark, PreviewSpan};
use super::latest::Latest;

/// What to clean: a document of a corpus, with the cleaners and the pending candidates as they stand.
pub struct PreviewRequest {
    pub corpus: Arc<Corpus>,
    pub doc: usize,
    /// Changes with the document shown and the mining: the document's matches of every mined string are
    /// found again when it changes, kept while it stands (a decision or a cutoff move finds none).
    pub matches_key: u64,
    /// The accepted rules' cleaner.
    pub accepted: Option<Arc<Cleaner>>,
    /// Every mined string as a rule (rule index = string index), with the actions decided.
    pub all: Option<Arc<Cleaner>>,
    /// Per mined string: a pending candidate at or above the chosen cutoff.
    pub pending: Arc<Vec<bool>>,
    /// The accepted rules with the pending region rules besides, region rules as `chaff clean
    /// --include-pending` applies them: what it removes beyond the accepted rules shows as pending. None
    /// when no region rule is pending.
    pub pending_regions: Option<Arc<Cleaner>>,
    pub with_pending: bool,
    pub render_html: bool,
}

/// The previewed document cleaned: what [`super::document::Preview`] shows of it.
#[derive(Debug, Clone, Default)]
pub struct Computed {
    pub spans: Vec<PreviewSpan>,
    pub cleaned: String,
    pub removed: usize,
    pub pending: usize,
    /// Why the accepted rules removed or kept what they did, from the run that made `spans`.
    pub explained: Option<Explained>,
}

/// The accepted rules' explanation of the previewed document, with the cleaner that made it: its rules are
/// named by that cleaner's numbers, which a decision made since may have changed.
#[derive(Debug, Clone)]
pub struct Explained {
    pub cleaner: Arc<Cleaner>,
    pub explanation: Arc<Explanation>,
}

/// Where the lines of document `doc` of `corpus` sit, if it is an HTML page held as its view's text (the
/// source's paths hold it): what the preview cleans it with, so stage `regions` sees it.
pub fn structure_of(corpus: &Corpus, doc: usize) -> Option<Structure> {
    let id = &corpus.docs.get(doc)?.id;
    corpus.paths.as_deref()?.structure(doc, id)
}

/// A finished cleaning, for the request of `generation`.
pub struct Done {
    pub generation: u64,
    pub doc: usize,
    pub matches_key: u64,
    pub computed: Computed,
}

/// The preview's worker thread, started at its first request.
pub struct PreviewCleaner {
    latest: Latest,
    requests: Option<Sender<(u64, PreviewRequest)>>,
    results: Receiver<Done>,
    outbox: Sender<Done>,
}

impl Default for PreviewCleaner {
    fn default() -> Self {
        let (outbox, results) = mpsc::channel();
        PreviewCleaner { latest: Latest::default(), requests: None, results, outbox }
    }
}

impl std::fmt::Debug for PreviewCleaner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreviewCleaner").field("latest", &self.latest.get()).finish()
    }
}

impl PreviewCleaner {
    /// Queues a cleaning; an older one is abandoned. Returns its generation.
    pub fn request(&mut self, request: PreviewRequest) -> u64 {
        let generation = self.latest.next();
        let sender = self.requests.get_or_insert_with(|| spawn(self.latest.clone(), self.outbox.clone()));
        if let Err(mpsc::SendError(lost)) = sender.send((generation, request)) {
            // the thread is gone (a panic while cleaning): a new one takes the request
            let sender = spawn(self.latest.clone(), self.outbox.clone());
            let _ = sender.send(lost);
            self.requests = Some(sender);
        }
        generation
    }

    /// Drops whatever cleaning is running or queued: its result will not be sent.
    pub fn cancel(&self) {
        self.latest.cancel();
    }

    /// Whether `generation` is the latest cleaning asked for.
    pub fn is_latest(&self, generation: u64) -> bool {
        self.latest.is(generation)
    }

    pub fn try_recv(&self) -> Option<Done> {
        self.results.try_recv().ok()
    }

    pub fn recv_timeout(&self, timeout: Duration) -> Option<Done> {
        self.results.recv_timeout(timeout).ok()
    }
}

fn spawn(latest: Latest, outbox: Sender<Done>) -> Sender<(u64, PreviewRequest)> {
    let (requests, inbox) = mpsc::channel::<(u64, PreviewRequest)>();
    let spawned = thread::Builder::new().name("chaff-preview".into()).spawn(move || {
        super::priority::background();
        // the document's matches of every mined string, and the key they were found under
        let mut matches: Option<(u64, usize, Vec<Match>)> = None;
        while let Ok(mut next) = inbox.recv() {
            while let Ok(newer) = inbox.try_recv() {
                next = newer;
            }
            let (generation, r) = next;
            let current = || latest.is(generation);
            if !current() {
                continue;
            }
            let text = r.corpus.docs.get(r.doc).map_or("", |d| d.text.as_str());
            if matches.as_ref().is_none_or(|(k, d, _)| (*k, *d) != (r.matches_key, r.doc)) {
                let found = r.all.as_deref().map(|c| c.matches(text)).unwrap_or_default();
                matches = Some((r.matches_key, r.doc, found));
                if !current() {
                    continue;
                }
            }
            let doc_matches = matches.as_ref().map_or(&[][..], |(_, _, m)| m.as_slice());
            let computed = compute(
                text,
                structure_of(&r.corpus, r.doc),
                r.accepted.as_ref(),
                r.all.as_deref(),
                r.pending_regions.as_deref(),
                doc_matches,
                |i| r.pending.get(i).copied().unwrap_or(false),
                r.with_pending,
                r.render_html,
            );
            if !current() {
                continue;
            }
            let done = Done { generation, doc: r.doc, matches_key: r.matches_key, computed };
            if outbox.send(done).is_err() {
                break;
            }
        }
    });
    if spawned.is_err() {
        // no thread: the requests go nowhere and the preview keeps its last state
        let (dead, _) = mpsc::channel();
        return dead;
    }
    requests
}

/// `text` (with `structure`, where its lines sit in its page) cleaned with the accepted rules as the page
/// entry point cleans a page, explained from the same pass, and with the matches of `all` (every mined
/// string) that `is_pending` says are pending candidates above the cutoff, and with `pending_regions`
/// (the accepted rules and the pending region rules); the spans combined: accepted ones, pending strings'
/// where nothing accepted removes already, and pending region rules' where neither does. The cleaned text
/// is of the accepted rules (with `with_pending`, of all of them), rendered as a reader sees it for raw
/// HTML.
#[allow(clippy::too_many_arguments)]
pub fn compute(
    text: &str,
    structure: Option<Structure>,
    accepted: Option<&Arc<Cleaner>>,
    all: Option<&Cleaner>,
    pending_regions: Option<&Cleaner>,
    doc_matches: &[Match],
    is_pending: impl Fn(usize) -> bool,
    with_pending: bool,
    render_html: bool,
) -> Computed {
    // region rules apply only where a page's lines sit: without it they would clean as the accepted rules
    let pending_regions = pending_regions.filter(|_| structure.is_some());
    // the pending region rules are applied to the same page: its structure is needed twice then
    let region_structure = pending_regions.and(structure.clone());
    // the pending strings cleaned on the page's elements, as accepting them would clean it
    let pending_strings = all.map(|all| {
        let matches: Vec<Match> = doc_matches.iter().filter(|m| is_pending(m.rule as usize)).copied().collect();
        (all, all.spans_on(text, &matches, structure.as_ref()))
    });
    let (accepted_spans, explained) = match accepted {
        Some(c) => {
            let (spans, explanation) = c.clean_page_explained(Page::of_view_text(text, structure)).into_explained();
            let explained = explanation.map(|e| Explained { cleaner: Arc::clone(c), explanation: Arc::new(e) });
            (spans, explained)
        }
        None => (Vec::new(), None),
    };
    let accepted = accepted.map(Arc::as_ref);
    let mut spans: Vec<PreviewSpan> = accepted_spans
        .iter()
        .map(|s| PreviewSpan {
            start: s.start,
            end: s.end,
            mark: Mark::Accepted(s.kind),
            rules: rule_ids(accepted, &s.rules),
        })
        .collect();
    let mut pending = 0;
    let accepted_ranges: Vec<(usize, usize)> = accepted_spans.iter().map(|s| (s.start, s.end)).collect();
    // the pending strings' spans come after the accepted ones
    let strings_from = spans.len();
    if let Some((all, found)) = pending_strings {
        pending += mark_pending(text, &found, all, &accepted_ranges, |_| true, &mut spans);
    }
    let strings: Vec<(usize, usize)> = spans[strings_from..].iter().map(|s| (s.start, s.end)).collect();
    // what the accepted rules remove with the pending region rules applied besides (a keep region gives
    // some back): with pending shown, the cleaned text drops it
    let mut with_regions: Option<Vec<(usize, usize)>> = None;
    if let Some(regions) = pending_regions {
        spans.sort_by_key(|s| (s.start, s.end));
        // what the accepted rules or pending strings mark already stays theirs
        let marked: Vec<(usize, usize)> = spans.iter().map(|s| (s.start, s.end)).collect();
        let found = regions.clean_page(Page::of_view_text(text, region_structure)).spans;
        // a span's pending region rules name it (an accepted region rule merged into it has its own span)
        let accepted_regions: Vec<&str> =
            accepted.map(|c| c.rule_ids().filter(|id| id.starts_with(REGION_PREFIX)).collect()).unwrap_or_default();
        let is_pending_region = |id: &str| id.starts_with(REGION_PREFIX) && !accepted_regions.contains(&id);
        pending += mark_pending(text, &found, regions, &marked, is_pending_region, &mut spans);
        with_regions = Some(found.iter().map(|s| (s.start, s.end)).collect());
    }
    spans.sort_by_key(|s| (s.start, s.end));
    // accepted and pending spans are disjoint: pending ones are what accepted ones leave
    let removed: Vec<(usize, usize)> = match (with_pending, with_regions) {
        (true, Some(base)) => union(base, strings),
        (true, None) => spans.iter().map(|s| (s.start, s.end)).collect(),
        (false, _) => accepted_ranges,
    };
    let cleaned = if render_html {
        crate::reading::html_text(text, &removed)
    } else if with_pending {
        let spans: Vec<Span> = removed.iter().map(|&(a, b)| Span::new(a, b, SpanKind::Removed, Vec::new())).collect();
        crate::cleaning::render(text, &spans)
    } else if accepted.is_some() {
        crate::cleaning::render(text, &accepted_spans)
    } else {
        text.trim().to_string()
    };
    let removed = accepted_spans.iter().map(|s| s.end - s.start).sum();
    Computed { spans, cleaned, removed, pending, explained }
}

fn rule_ids(cleaner: Option<&Cleaner>, rules: &[u32]) -> Vec<String> {
    cleaner.map(|c| rules.iter().map(|&r| c.rule_id(r).to_string()).collect()).unwrap_or_default()
}

/// Adds the parts of `found` (spans `cleaner` removed) that `marked` (sorted, disjoint) leaves to `spans` as
/// pending, named by their rules that `names` picks (all of them when it picks none). Returns the bytes
/// added.
fn mark_pending(
    text: &str,
    found: &[Span],
    cleaner: &Cleaner,
    marked: &[(usize, usize)],
    names: impl Fn(&str) -> bool,
    spans: &mut Vec<PreviewSpan>,
) -> usize {
    let mut added = 0;
    for s in found {
        let mut rules: Vec<String> =
            s.rules.iter().map(|&r| cleaner.rule_id(r)).filter(|id| names(id)).map(str::to_string).collect();
        if rules.is_empty() {
            rules = rule_ids(Some(cleaner), &s.rules);
        }
        for (a, b) in subtract((s.start, s.end), marked) {
            if text[a..b].trim().is_empty() {
                continue;
            }
            added += b - a;
            spans.push(PreviewSpan { start: a, end: b, mark: Mark::Pending(s.kind), rules: rules.clone() });
        }
    }
    added
}

/// The union of two sets of ranges, as sorted disjoint ranges.
fn union(mut all: Vec<(usize, usize)>, more: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    all.extend(more);
    all.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(all.len());
    for (a, b) in all {
        match out.last_mut() {
            Some(last) if a < last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// `range` minus the (sorted, disjoint) ranges: only the ranges that meet it are visited (a binary search
/// finds the first), so a large document's pending spans cost no scan of every accepted span each.
fn subtract(range: (usize, usize), spans: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let (mut a, b) = range;
    let mut out = Vec::new();
    let first = spans.partition_point(|&(_, end)| end <= a);
    for &(start, end) in &spans[first..] {
        if start >= b {
            break;
        }
        if start > a {
            out.push((a, start));
        }
        a = a.max(end);
    }
    if a < b {
        out.push((a, b));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_html_preview_reads_as_a_reader_sees_the_page() {
        use crate::mutable::MutableSet;
        use crate::rules::{Action, Rule};
        use crate::symbol::Symbol;
        use crate::tokens::Tokenizer;
        // the rule takes the menu and the script's opening tag: its code must not become text
        let m = MutableSet::defaults();
        let symbols: Vec<Symbol> = "<nav> Home </nav> <script>".split(' ').map(Symbol::decode).collect();
        let rule = Rule::accepted("r", &symbols, Action::Remove, Tokenizer::Html, &m).unwrap();
        let cleaner = Arc::new(Cleaner::from_rules(Tokenizer::Html, m.patterns(), [&rule], 0).unwrap());
        let text = "<html><body><nav> Home </nav><script>var x = 1;</script>\n\
            <p>The article <img alt=\"Image\" src=\"x.gif\">text.</p></body></html>";
        let preview = compute(text, None, Some(&cleaner), None, None, &[], |_| false, false, true);
        assert!(!preview.cleaned.contains("var x") && !preview.cleaned.contains("Home"), "{}", preview.cleaned);
        assert!(
            preview.cleaned.contains("The article text.") && !preview.cleaned.contains("Image"),
            "{}",
            preview.cleaned
        );
    }

    #[test]
    fn pending_strings_are_previewed_on_the_pages_elements_as_accepting_them_would_clean_it() {
        use crate::mutable::MutableSet;
        use crate::rules::{Action, Rule};
        use crate::symbol::Symbol;
        use crate::tokens::Tokenizer;
        use crate::view::PageView;
        let m = MutableSet::defaults();
        let rule = |id: &str, text: &str| {
            let symbols: Vec<Symbol> = text.split(' ').map(Symbol::decode).collect();
            Rule::accepted(id, &symbols, Action::Remove, Tokenizer::Text, &m).unwrap()
        };
        let foot = rule("foot", "Contact the newsroom today");
        let subscribe = rule("subscribe", "Subscribe to the harbour newsletter for weekly news from the quay.");
        // the pending string splits the page's run: the links are then outside the article block, where
        // stage `link-density` takes them (it reads the page's elements)
        let p = |words: &str| format!("<p>{words}, the harbour master told the council on Monday evening.</p>");
        let html = format!(
            "<html><body>{}{}<p><a href=\"/t\">Ferry timetable</a></p><p><a href=\"/m\">Quay map</a></p>\
             <p><a href=\"/p\">Parking</a></p><p>Subscribe to the harbour newsletter for weekly news from the quay.</p>\
             {}{}{}<div id=\"foot\">Contact the newsroom today</div></body></html>",
            p("The harbour opened after ten years of building work"),
            p("Ferries will run every hour from the new quay"),
            p("The old terminal closes in the spring and becomes a market"),
            p("The council expects twice as many passengers next year"),
            p("A second quay is planned for the cargo ships of the port")
        );
        let view = PageView::of_html(&html);
        let (text, structure) = (view.text(), view.structure().cloned());
        let settings = crate::cleaning::CleanSettings::automatic();
        let cleaner = |rules: &[&Rule]| {
            Cleaner::from_rules(Tokenizer::Text, m.patterns(), rules.iter().copied(), 0)
                .unwrap()
                .with_settings(settings)
        };
        let accepted = Arc::new(cleaner(&[&foot]));
        let all = cleaner(&[&foot, &subscribe]);
        let matches = all.matches(text);
        let preview =
            compute(text, structure.clone(), Some(&accepted), Some(&all), None, &matches, |i| i == 1, true, false);
        // accepting the pending string: the cleaner of both rules on the page with its elements
        let both = all.spans_on(text, &matches, structure.as_ref());
        assert_eq!(preview.cleaned, crate::cleaning::render(text, &both));
    }

    #[test]
    fn subtracting_spans_visits_only_those_that_meet_the_range() {
        let spans: Vec<(usize, usize)> = (0..1000).map(|i| (i * 10, i * 10 + 4)).collect();
        assert_eq!(subtract((12, 33), &spans), [(14, 20), (24, 30)]);
        assert_eq!(subtract((5, 9), &spans), [(5, 9)]);
        assert_eq!(subtract((9_990, 9_994), &spans), []);
        assert_eq!(subtract((9_995, 10_005), &spans), [(9_995, 10_005)]);
    }

    #[test]
    fn a_union_of_ranges_is_sorted_and_disjoint() {
        assert_eq!(
            union(vec![(0, 4), (10, 20)], vec![(2, 6), (6, 8), (12, 14), (25, 30)]),
            [(0, 6), (6, 8), (10, 20), (25, 30)]
        );
        assert_eq!(union(Vec::new(), vec![(5, 9), (1, 3)]), [(1, 3), (5, 9)]);
    }

    #[test]
    fn the_latest_request_wins_and_an_overtaken_one_sends_nothing() {
        use crate::corpus::Document;
        let docs = (0..3).map(|i| Document { id: format!("{i}"), text: format!("text {i}") }).collect();
        let corpus = Arc::new(Corpus::from_docs("s", docs));
        let mut worker = PreviewCleaner::default();
        let request = |doc| PreviewRequest {
            corpus: Arc::clone(&corpus),
            doc,
            matches_key: doc as u64,
            accepted: None,
            all: None,
            pending: Arc::new(Vec::new()),
            pending_regions: None,
            with_pending: false,
            render_html: false,
        };
        let generations: Vec<u64> = (0..3).map(|d| worker.request(request(d))).collect();
        let mut seen = Vec::new();
        while let Some(done) = worker.recv_timeout(Duration::from_secs(10)) {
            seen.push(done.generation);
            if done.generation == generations[2] {
                assert_eq!((done.doc, done.computed.cleaned.as_str()), (2, "text 2"));
                break;
            }
        }
        assert_eq!(seen.last(), Some(&generations[2]), "the latest request is answered");
        assert!(worker.is_latest(generations[2]) && !worker.is_latest(generations[0]));
    }
}
