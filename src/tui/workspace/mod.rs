//! The workspace: a sources table over a folder of sources (one folder each, as `chaff mine --all`
//! reads them) or over a crawl (WARC, WARC.gz, JSON Lines with `url`/`source`: [`sources`]), and a
//! review queue through it. Per source the table shows its documents, its rules
//! accepted / pending, the share of text they remove, whether and when it was reviewed, its drift and
//! its verified pages; sortable (`s`) and filtered (`/`). What needs reading comes from a background
//! thread ([`scan`]), filled in row by row. `n` opens the next source that is unreviewed or drifted; in
//! a source `D` marks it reviewed (saved in its rules file's `[review]` table) and `q` comes back here.

pub mod bench;
pub mod scan;
pub mod sources;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::layout::{Position, Rect};

use crate::drift::DEFAULT_MAX_DRIFT;
use crate::review::ReviewState;
use crate::rules::rules_path;

use super::state::{App, Opening, Screen};
use scan::{Job, Measure, Report, RulesInfo, Scanner};
use sources::{CrawlSource, SourceRef};

/// How long a tick may spend taking in the background's reports.
const TICK_BUDGET: Duration = Duration::from_millis(4);

/// A source of the table and what is known of it so far.
#[derive(Debug, Clone)]
pub struct Row {
    pub name: String,
    pub corpus: PathBuf,
    /// A crawl's source: its documents come from the crawl's spool.
    pub crawl: Option<CrawlSource>,
    pub rules_path: PathBuf,
    /// `None` until the background has counted them.
    pub documents: Option<usize>,
    /// `None` until the background has read the rules file.
    pub rules: Option<RulesInfo>,
    pub measure: Measure,
    /// Its rules file's candidates, as other sources count them for idioms.
    pub candidates: Option<Arc<HashSet<String>>>,
    /// The row's latest request: reports of older ones are dropped.
    pub generation: u64,
}

impl Row {
    /// Drift as measured now, else as the last review recorded it.
    pub fn drift(&self) -> Option<f64> {
        match (&self.measure, &self.rules) {
            (Measure::Done { drift, .. }, _) => Some(*drift),
            (_, Some(RulesInfo::Rules(s))) => s.checked_drift,
            _ => None,
        }
    }

    pub fn drifted(&self) -> bool {
        self.drift().is_some_and(|d| d > DEFAULT_MAX_DRIFT)
    }

    pub fn review(&self) -> ReviewState {
        match &self.rules {
            Some(RulesInfo::Rules(s)) => s.review,
            _ => ReviewState::Unreviewed,
        }
    }

    /// In the review queue: not reviewed (or its rules changed since), or drifted. A row not read yet
    /// counts: it may be either.
    pub fn needs_review(&self) -> bool {
        self.review() != ReviewState::Reviewed || self.drifted()
    }

    pub fn removed(&self) -> Option<f64> {
        match self.measure {
            Measure::Done { removed, .. } => Some(removed),
            _ => None,
        }
    }

    fn count(&self, f: impl Fn(&scan::Summary) -> usize) -> Option<usize> {
        match &self.rules {
            Some(RulesInfo::Rules(s)) => Some(f(s)),
            _ => None,
        }
    }
}

/// The table's sort column; `s` cycles them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortBy {
    Name,
    /// Sources to review first (unreviewed, changed, drifted), then by name.
    Review,
    Documents,
    Pending,
    Removed,
    Drift,
}

impl SortBy {
    pub fn next(self) -> SortBy {
        match self {
            SortBy::Name => SortBy::Review,
            SortBy::Review => SortBy::Documents,
            SortBy::Documents => SortBy::Pending,
            SortBy::Pending => SortBy::Removed,
            SortBy::Removed => SortBy::Drift,
            SortBy::Drift => SortBy::Name,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            SortBy::Name => "name",
            SortBy::Review => "to review first",
            SortBy::Documents => "documents",
            SortBy::Pending => "pending rules",
            SortBy::Removed => "share removed",
            SortBy::Drift => "drift",
        }
    }
}

/// The sources table (it opens first on a folder of sources; the source picker grew into it).
pub struct Picker {
    pub root: PathBuf,
    pub rows: Vec<Row>,
    /// The rows shown, filtered and sorted: indices into `rows`.
    pub shown: Vec<usize>,
    /// Index into `shown`.
    pub selected: usize,
    /// The first shown row drawn.
    pub offset: usize,
    pub sort: SortBy,
    /// Shown: the sources whose name holds it (case ignored).
    pub filter: String,
    /// The source being mined before it opens.
    pub opening: Option<Opening>,
    pub scanner: Scanner,
    /// Candidate text → the rows whose rules file has it (the idiom counts, kept as rows are read).
    pub candidate_counts: HashMap<String, usize>,
}

impl Picker {
    /// The table on `sources`, its background reading started.
    pub fn new(root: PathBuf, sources: Vec<SourceRef>, rules_dir: &Path) -> Picker {
        let rows: Vec<Row> = sources
            .into_iter()
            .map(|s| Row {
                rules_path: rules_path(rules_dir, &s.name),
                name: s.name,
                corpus: s.corpus,
                crawl: s.crawl,
                documents: None,
                rules: None,
                measure: Measure::Waiting,
                candidates: None,
                generation: 1,
            })
            .collect();
        let scanner = Scanner::spawn();
        scanner.request(rows.iter().enumerate().map(|(i, r)| job(i, r)).collect(), false);
        let mut p = Picker {
            root,
            rows,
            shown: Vec::new(),
            selected: 0,
            offset: 0,
            sort: SortBy::Name,
            filter: String::new(),
            opening: None,
            scanner,
            candidate_counts: HashMap::new(),
        };
        p.refresh();
        p
    }

    /// The row under the cursor (an index into `rows`).
    pub fn selected_row(&self) -> Option<usize> {
        self.shown.get(self.selected).copied()
    }

    /// Filters and sorts again; the cursor stays on its source when it is still shown.
    pub fn refresh(&mut self) {
        let keep = self.selected_row();
        let needle = self.filter.to_lowercase();
        self.shown = (0..self.rows.len())
            .filter(|&i| needle.is_empty() || self.rows[i].name.to_lowercase().contains(&needle))
            .collect();
        let rows = &self.rows;
        // unknown values last, ties by name
        let desc = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => b.total_cmp(&a),
            (a, b) => b.is_some().cmp(&a.is_some()),
        };
        let sort = self.sort;
        self.shown.sort_by(|&a, &b| {
            let (x, y) = (&rows[a], &rows[b]);
            let by = match sort {
                SortBy::Name => std::cmp::Ordering::Equal,
                SortBy::Review => {
                    let rank = |r: &Row| (!r.needs_review(), r.review() == ReviewState::Reviewed);
                    rank(x).cmp(&rank(y))
                }
                SortBy::Documents => desc(x.documents.map(|d| d as f64), y.documents.map(|d| d as f64)),
                SortBy::Pending => {
                    desc(x.count(|s| s.pending).map(|d| d as f64), y.count(|s| s.pending).map(|d| d as f64))
                }
                SortBy::Removed => desc(x.removed(), y.removed()),
                SortBy::Drift => desc(x.drift(), y.drift()),
            };
            by.then_with(|| x.name.cmp(&y.name))
        });
        self.selected = keep.and_then(|k| self.shown.iter().position(|&i| i == k)).unwrap_or(0);
        self.selected = self.selected.min(self.shown.len().saturating_sub(1));
    }

    /// Shown sources left to review.
    pub fn left_to_review(&self) -> usize {
        self.shown.iter().filter(|&&i| self.rows[i].needs_review()).count()
    }

    /// The next shown source to review after the cursor (wrapping round; the cursor's own last).
    pub fn next_to_review(&self) -> Option<usize> {
        let n = self.shown.len();
        (1..=n).map(|k| (self.selected + k) % n).find(|&at| self.rows[self.shown[at]].needs_review())
    }

    /// Moves the cursor by `delta` rows, keeping it in a window of `page` rows.
    pub fn step(&mut self, delta: isize, page: usize) {
        let last = self.shown.len().saturating_sub(1) as isize;
        self.selected = (self.selected as isize + delta).clamp(0, last.max(0)) as usize;
        self.scroll_into_view(page);
    }

    pub fn scroll_into_view(&mut self, page: usize) {
        let page = page.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + page {
            self.offset = self.selected + 1 - page;
        }
        self.offset = self.offset.min(self.shown.len().saturating_sub(page));
    }

    /// Reads the row of `name` again, before the rows still waiting (its rules were just saved).
    pub fn rescan(&mut self, name: &str) {
        let Some(i) = self.rows.iter().position(|r| r.name == name) else { return };
        let row = &mut self.rows[i];
        row.generation += 1;
        row.measure = Measure::Waiting;
        self.scanner.request(vec![job(i, row)], true);
    }

    /// Applies a background report; a report of an older request than the row's latest is dropped.
    pub fn apply(&mut self, report: Report) -> bool {
        let (i, generation) = report.row();
        let Some(row) = self.rows.get_mut(i).filter(|r| r.generation == generation) else { return false };
        match report {
            Report::Quick { documents, rules, candidates, .. } => {
                row.documents = Some(documents);
                row.rules = Some(rules);
                for t in row.candidates.iter().flat_map(|c| c.iter()) {
                    if let Some(n) = self.candidate_counts.get_mut(t) {
                        *n -= 1;
                    }
                }
                for t in candidates.iter().flat_map(|c| c.iter()) {
                    *self.candidate_counts.entry(t.clone()).or_default() += 1;
                }
                row.candidates = candidates;
            }
            Report::Measured { measure, .. } => row.measure = measure,
        }
        true
    }

    /// Applies what the background has sent, for at most `TICK_BUDGET` (the rest waits for the next
    /// tick: a thousand rows read at once must not hold up a frame); sorts again if anything came.
    /// Returns whether it did.
    pub fn tick(&mut self) -> bool {
        let started = Instant::now();
        let mut changed = false;
        while started.elapsed() < TICK_BUDGET
            && let Ok(report) = self.scanner.rx.try_recv()
        {
            changed |= self.apply(report);
        }
        if changed {
            self.refresh();
        }
        changed
    }

    /// The idiom counts of the other rows for opening `row` (its own candidates left out), once every
    /// row's rules file is read; until then `None`, and the opening reads them itself.
    pub fn idioms_for(&self, row: usize) -> Option<HashMap<String, usize>> {
        if self.rows.iter().any(|r| r.rules.is_none()) {
            return None;
        }
        let mut others = self.candidate_counts.clone();
        for t in self.rows[row].candidates.iter().flat_map(|c| c.iter()) {
            if let Some(n) = others.get_mut(t) {
                *n -= 1;
            }
        }
        others.retain(|_, n| *n > 0);
        Some(others)
    }

    /// Whether every row is read and measured.
    pub fn scanned(&self) -> bool {
        self.rows.iter().all(|r| r.rules.is_some() && r.measure != Measure::Waiting)
    }

    /// Blocks until every row is read and measured (tests, benchmarks); at most `limit`.
    pub fn wait_for_scan(&mut self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while !self.scanned() && Instant::now() < deadline {
            if let Ok(report) = self.scanner.rx.recv_timeout(Duration::from_millis(50)) {
                self.apply(report);
                while let Ok(more) = self.scanner.rx.try_recv() {
                    self.apply(more);
                }
                self.refresh();
            }
        }
    }

    /// A click (`delta` 0) selects the row under it; the wheel moves the cursor.
    pub fn mouse(&mut self, list: Rect, at: Position, delta: isize) {
        let page = page(list);
        if delta != 0 {
            return self.step(delta.signum(), page);
        }
        if list.contains(at) && at.y > list.y + 1 {
            let i = self.offset + (at.y - list.y - 2) as usize;
            if i < self.shown.len() {
                self.selected = i;
            }
        }
    }
}

/// Opens row `row`'s source for tuning: its folder read, or a crawl's source read from the spool.
pub fn open_row(
    row: &Row,
    rules: Option<&Path>,
    rules_dir: &Path,
    preset: Option<crate::tokens::Tokenizer>,
    idioms: impl FnOnce(&Path, Option<&crate::rules::RulesFile>) -> super::source::Idioms,
) -> anyhow::Result<super::source::Opened> {
    match &row.crawl {
        Some(c) => {
            let corpus = c.corpus().map_err(|e| anyhow::anyhow!("cannot open the corpus: {e}"))?;
            super::source::open_loaded(corpus, &row.corpus, rules, rules_dir, preset, idioms)
        }
        None => super::source::open_with(&row.corpus, rules, rules_dir, preset, idioms),
    }
}

fn job(i: usize, r: &Row) -> Job {
    Job {
        row: i,
        generation: r.generation,
        corpus: r.corpus.clone(),
        crawl: r.crawl.clone(),
        rules: r.rules_path.clone(),
        urgent: false,
    }
}

/// Rows of the table that fit in the list's pane (borders and the header line aside).
pub fn page(list: Rect) -> usize {
    list.height.saturating_sub(3).max(1) as usize
}

/// Drains the table's background reports, shown or parked behind an open source. Returns whether the
/// screen changed.
pub fn tick(app: &mut App) -> bool {
    match (&mut app.screen, &mut app.workspace) {
        (Screen::Picker(p), _) => p.tick(),
        (_, Some(p)) => {
            p.tick();
            false
        }
        _ => false,
    }
}

/// Blocks until the table (shown or parked) is read and measured: for tests and benchmarks.
pub fn wait_for_scan(app: &mut App) {
    let limit = Duration::from_secs(120);
    match (&mut app.screen, &mut app.workspace) {
        (Screen::Picker(p), _) => p.wait_for_scan(limit),
        (_, Some(p)) => p.wait_for_scan(limit),
        _ => {}
    }
}
