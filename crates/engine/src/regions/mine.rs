//! Mining region rules: which elements hold text that changes from page to page, is not the article,
//! and that the string rules leave.
//!
//! Each page read (an even spread of at most [`RegionParams::max_pages`]) is cleaned with the source's
//! string rules first, so mining knows which of its words they leave, and where its article block is
//! (`cleaning::article_block`: the kept run with the most words on long lines). Its **anchor** is the
//! first long line of that block, where the article starts. Then, for every selector of every element a
//! line sits in (see [`super::selectors`]), the page adds up its words, the words the string rules leave,
//! and whether it holds the anchor or the headline (the line that repeats the page's `<title>`).
//!
//! An element is proposed when it is on at least [`RegionParams::min_share`] of the pages, the string
//! rules leave some of its words on at least [`RegionParams::min_pages`] of them, and it is not the
//! article's:
//! - it holds the anchor on no page, nor the headline;
//! - where one element holds the anchor on most pages (the article's container), the element holds no
//!   kept long line inside it on any page, nor one of the paragraphs that carry the article on past it
//!   (two long lines of prose or more right under it, in an element beside it no deeper than its own:
//!   a blog's `div.entry-more` after `div.entry-body`; see `past_the_container`). On a page whose block
//!   is not in that container (a comment thread that outweighs a short post), the anchor is the
//!   container's first long line instead: the thread is not taken for the article there.
//!
//! Of the elements proposed, one whose every line another proposed element with more words already
//! holds adds nothing (`li.comment` inside `div#comments`) and is dropped, so that a template's block is
//! one rule, named as broadly as it can be, which also finds the block's new parts on pages not mined.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use rayon::prelude::*;

use super::{RegionRule, SourcePaths, selectors, shorten};
use crate::cleaning::{Cleaner, LONG_LINE_WORDS, Layout, Span, article_block, title_line, work};
use crate::corpus::Corpus;
use crate::error::Result;
use crate::rules::{RulesFile, Status};

/// What makes an element a region rule candidate (see the module doc).
#[derive(Debug, Clone, Copy)]
pub struct RegionParams {
    /// Share of the pages read it must be on: a block of the source's template is on many of its pages.
    /// 0.4 rather than a half: an author's box or a gallery strip is on every other page of a source, and
    /// on nine pages of ten a fold may hold four (docs/results.md, region rules).
    pub min_share: f64,
    /// Fewest pages on which the string rules must leave some of its words (below, the string rules do
    /// its work already), and on which it must be found at all.
    pub min_pages: usize,
    /// Pages read at most (an even spread of larger sources): each costs a pass of the cleaner.
    pub max_pages: usize,
}

impl Default for RegionParams {
    fn default() -> Self {
        RegionParams { min_share: 0.4, min_pages: 2, max_pages: 2000 }
    }
}

/// Mines the region rules of `corpus` (mined on its views: [`Corpus::paths`] holds where its lines sit)
/// and sets `file`'s: candidates pending, the decisions an editor made on earlier ones kept. Returns how
/// many candidates mining found; a corpus with no page structure (text) has none and `file` is left as
/// it is.
pub fn add_region_rules(corpus: &Corpus, file: &mut RulesFile, params: &RegionParams) -> Result<usize> {
    if corpus.paths.is_none() {
        return Ok(0);
    }
    let mined = mine_regions(corpus, file, params)?;
    let found = mined.len();
    let mut out: Vec<RegionRule> = std::mem::take(&mut file.regions).into_iter().filter(|r| r.is_decided()).collect();
    for rule in mined {
        match out.iter_mut().find(|d| d.element == rule.element) {
            Some(decided) => *decided = RegionRule { status: decided.status, action: decided.action, ..rule },
            None => out.push(rule),
        }
    }
    file.regions = out;
    Ok(found)
}

/// One selector on one page.
#[derive(Debug, Clone, Copy)]
struct Seen {
    words: u32,
    /// Words the string rules leave.
    kept: u32,
    /// Kept words on long lines inside the article block; kept long lines.
    block_long: u32,
    long_lines: u32,
    /// Holds the page's anchor; a line of the article's head (from the headline to the anchor); more
    /// than half the article block's kept long words; a kept long line inside the article's container.
    anchor: bool,
    head: bool,
    bulk: bool,
    prose: bool,
    /// Its first line, its first with kept words and its first with a kept long line, each with its
    /// chain ([`NONE`]: none).
    first: (u32, u32),
    first_kept: (u32, u32),
    first_long: (u32, u32),
}

/// No line.
const NONE: (u32, u32) = (u32::MAX, 0);

impl Default for Seen {
    fn default() -> Self {
        Seen {
            words: 0,
            kept: 0,
            block_long: 0,
            long_lines: 0,
            anchor: false,
            head: false,
            bulk: false,
            prose: false,
            first: NONE,
            first_kept: NONE,
            first_long: NONE,
        }
    }
}

impl Seen {
    fn add(&mut self, o: &Seen) {
        self.words += o.words;
        self.kept += o.kept;
        self.block_long += o.block_long;
        self.long_lines += o.long_lines;
        self.first = self.first.min(o.first);
        self.first_kept = self.first_kept.min(o.first_kept);
        self.first_long = self.first_long.min(o.first_long);
    }

    /// Whether it is the article's on this page (see the module doc).
    fn is_article(&self, container_here: bool) -> bool {
        self.anchor || self.head || self.prose || (!container_here && self.bulk)
    }
}

/// What one page says of its selectors.
struct Page {
    doc: usize,
    seen: HashMap<u32, Seen>,
    /// Its chains with words, and how many.
    chains: Vec<(u32, u32)>,
    /// Its kept long lines and their chains.
    long: Vec<(u32, u32)>,
    /// Its lines with kept words, in order: each one's chain, and whether it is a long line of prose.
    kept_lines: Vec<(u32, bool)>,
    /// The line repeating its title (the headline), if one is above the anchor.
    title: Option<u32>,
}

impl Page {
    /// Marks the selectors of the anchor line `anchor` and of the head, the lines from `head_from` to
    /// the anchor; `chains` are the page's lines' chains.
    fn mark(&mut self, sel: &Selectors, chains: &[u32], anchor: u32, head_from: u32) {
        for s in self.seen.values_mut() {
            (s.anchor, s.head) = (false, false);
        }
        let mut set = |chain: u32, anchor: bool| {
            for s in &sel.of_chain[chain as usize] {
                if let Some(seen) = self.seen.get_mut(s) {
                    if anchor {
                        seen.anchor = true;
                    } else {
                        seen.head = true;
                    }
                }
            }
        };
        set(chains[anchor as usize], true);
        let mut last = None;
        for &chain in &chains[head_from.min(anchor) as usize..anchor as usize] {
            if last != Some(chain) {
                set(chain, false);
                last = Some(chain);
            }
        }
    }
}

/// The selectors of every chain, numbered.
struct Selectors {
    names: Vec<String>,
    /// Per chain, its selectors (sorted, each once).
    of_chain: Vec<Vec<u32>>,
}

impl Selectors {
    fn of(paths: &SourcePaths) -> Selectors {
        let mut names = Vec::new();
        let mut ids: HashMap<String, u32> = HashMap::new();
        let of_label: Vec<Vec<u32>> = (0..paths.label_count() as u32)
            .map(|l| {
                selectors(paths.label(l))
                    .map(|s| {
                        *ids.entry(s.clone()).or_insert_with(|| {
                            names.push(s);
                            (names.len() - 1) as u32
                        })
                    })
                    .collect()
            })
            .collect();
        let of_chain = (0..paths.chain_count() as u32)
            .map(|c| {
                let mut s: Vec<u32> = paths.labels_of(c).flat_map(|l| of_label[l as usize].iter().copied()).collect();
                s.sort_unstable();
                s.dedup();
                s
            })
            .collect();
        Selectors { names, of_chain }
    }
}

/// One selector over the pages read: its pages, those with kept words, its words and kept words per
/// page, and whether it is the article's on one.
type Tally = (usize, usize, Vec<u32>, Vec<u32>, bool);

/// The region rule candidates of `corpus`, cleaned with `file`'s string rules (accepted, and pending at
/// or above the cutoff), most words first. Empty without page structure.
pub fn mine_regions(corpus: &Corpus, file: &RulesFile, params: &RegionParams) -> Result<Vec<RegionRule>> {
    let Some(paths) = corpus.paths.as_deref() else { return Ok(Vec::new()) };
    let cleaner = Cleaner::new(file, true)?;
    let sel = Selectors::of(paths);
    let step = corpus.docs.len().div_ceil(params.max_pages.max(1)).max(1);
    let read: Vec<usize> = (0..corpus.docs.len()).step_by(step).collect();
    let (mut pages, counted): (Vec<Page>, Vec<usize>) = read
        .par_iter()
        .filter_map(|&i| {
            let (page, n) = work::measure(|| see(corpus, paths, &sel, &cleaner, i));
            page.map(|p| (p, n))
        })
        .unzip();
    work::add(counted.iter().sum());
    if pages.is_empty() {
        return Ok(Vec::new());
    }
    let container = container(&pages);
    if let Some(c) = container {
        reanchor(&mut pages, &sel, corpus, paths, c);
    }
    let n = pages.len();
    // per selector: its pages, those with kept words, its words and kept words per page, and whether it
    // is the article's on one
    let mut tally: HashMap<u32, Tally> = HashMap::new();
    for p in &pages {
        let container_here = container.is_some_and(|c| p.seen.contains_key(&c));
        for (&s, seen) in &p.seen {
            let t = tally.entry(s).or_insert_with(|| (0, 0, Vec::new(), Vec::new(), false));
            t.0 += 1;
            t.1 += usize::from(seen.kept > 0);
            t.2.push(seen.words);
            t.3.push(seen.kept);
            t.4 |= seen.is_article(container_here);
        }
    }
    let min_pages = params.min_pages.max((params.min_share * n as f64).ceil() as usize);
    let mut proposed: Vec<(u32, u64)> = tally
        .iter()
        .filter(|(_, t)| t.0 >= min_pages && t.1 >= params.min_pages && !t.4)
        .map(|(&s, t)| (s, t.2.iter().map(|&w| u64::from(w)).sum()))
        .collect();
    // most words first; of equal ones an id before a class (an id is one element), then by name
    proposed.sort_by(|a, b| {
        let (na, nb) = (&sel.names[a.0 as usize], &sel.names[b.0 as usize]);
        b.1.cmp(&a.1).then(nb.contains('#').cmp(&na.contains('#'))).then(na.cmp(nb))
    });
    let kept = broadest(&pages, &sel, &proposed);
    Ok(kept
        .into_iter()
        .map(|s| {
            let t = &tally[&s];
            let example = pages
                .iter()
                .find_map(|p| p.seen.get(&s).filter(|x| x.kept > 0).map(|x| (p.doc, x.first_kept.0)))
                .map(|(doc, line)| shorten(corpus.docs[doc].text.split('\n').nth(line as usize).unwrap_or(""), 120))
                .unwrap_or_default();
            RegionRule {
                element: sel.names[s as usize].clone(),
                status: Status::Pending,
                action: crate::rules::Action::Remove,
                df: t.0 as u64,
                words: median(&t.2),
                kept: median(&t.3),
                example,
            }
        })
        .collect())
}

/// Of `proposed` (most words first), those that hold a line on some page that none before them holds.
fn broadest(pages: &[Page], sel: &Selectors, proposed: &[(u32, u64)]) -> Vec<u32> {
    let index: HashMap<u32, usize> = proposed.iter().enumerate().map(|(i, &(s, _))| (s, i)).collect();
    let mut holds: Vec<Vec<(usize, u32)>> = vec![Vec::new(); proposed.len()];
    for (p, page) in pages.iter().enumerate() {
        for &(chain, _) in &page.chains {
            for s in &sel.of_chain[chain as usize] {
                if let Some(&i) = index.get(s) {
                    holds[i].push((p, chain));
                }
            }
        }
    }
    let mut covered: HashSet<(usize, u32)> = HashSet::new();
    let mut out = Vec::new();
    for (i, &(s, _)) in proposed.iter().enumerate() {
        if holds[i].iter().any(|pc| !covered.contains(pc)) {
            covered.extend(holds[i].iter().copied());
            out.push(s);
        }
    }
    out
}

/// The article's container: of the selectors that hold a page's anchor and another of its kept long
/// lines (a container of paragraphs, not the lede alone), the one that does on the most pages (of equal
/// ones the innermost: the fewest words), if it does on more than half the pages with an anchor.
fn container(pages: &[Page]) -> Option<u32> {
    let mut holds: HashMap<u32, (usize, u64)> = HashMap::new();
    let mut with_anchor = 0;
    for p in pages {
        with_anchor += usize::from(p.seen.values().any(|s| s.anchor));
        for (&s, seen) in &p.seen {
            let h = holds.entry(s).or_insert((0, 0));
            h.0 += usize::from(seen.anchor && seen.long_lines >= 2);
            h.1 += u64::from(seen.words);
        }
    }
    let (&best, &(count, _)) =
        holds.iter().max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.1.1.cmp(&a.1.1)).then(b.0.cmp(a.0)))?;
    (2 * count > with_anchor).then_some(best)
}

/// With the article's `container` known, each page's anchor is in it: on a page whose anchor lies
/// elsewhere (a comment thread under a post with no line of prose), the container's first long line is
/// the anchor, and the head runs from the headline (or the container's start) to it. And every selector
/// holding a kept long line inside the container, or one of the paragraphs carrying the article on past
/// it, is the article's.
fn reanchor(pages: &mut [Page], sel: &Selectors, corpus: &Corpus, paths: &SourcePaths, container: u32) {
    for p in pages.iter_mut() {
        let Some(&inside) = p.seen.get(&container) else { continue };
        let line = if inside.first_long != NONE { inside.first_long.0 } else { inside.first_kept.0 };
        if !inside.anchor
            && line != u32::MAX
            && let Some(chains) = paths.lines(p.doc, &corpus.docs[p.doc].id)
        {
            let head_from = p.title.filter(|&t| t < line).unwrap_or(inside.first.0);
            p.mark(sel, chains, line, head_from);
        }
        let mut article: Vec<u32> = (p.long.iter())
            .filter(|&&(_, chain)| sel.of_chain[chain as usize].binary_search(&container).is_ok())
            .map(|&(_, chain)| chain)
            .collect();
        article.extend(past_the_container(p, sel, paths, container));
        for chain in article {
            for s in &sel.of_chain[chain as usize] {
                if let Some(seen) = p.seen.get_mut(s) {
                    seen.prose = true;
                }
            }
        }
    }
}

/// The chains of the lines of prose that carry the article on past `container` on page `p`: the kept
/// lines right under its last one, while each is a long line of prose in an element beside it (under
/// its parent: a blog's `div.entry-more` holding the rest of a post after `div.entry-body`, its start).
/// The first kept line that is not (a byline, a "Posted by", a comment's author, a sidebar's teaser in
/// another column) ends it. One pass over the page's kept lines, each climbing its chain (at most
/// `MAX_DEPTH` steps).
fn past_the_container(p: &Page, sel: &Selectors, paths: &SourcePaths, container: u32) -> Vec<u32> {
    let inside = |chain: u32| sel.of_chain[chain as usize].binary_search(&container).is_ok();
    let Some(last) = p.kept_lines.iter().rposition(|&(chain, _)| inside(chain)) else { return Vec::new() };
    // the container's element: the outermost chain of the last line's that has its selector
    let mut element = p.kept_lines[last].0;
    while element != 0 && inside(paths.parent(element)) {
        element = paths.parent(element);
    }
    let parent = paths.parent(element);
    // how far under the parent a line sits, if it is under it
    let depth = |mut chain: u32| {
        let mut steps = 0;
        while chain != 0 && chain != parent {
            chain = paths.parent(chain);
            steps += 1;
        }
        (chain == parent).then_some(steps)
    };
    // paragraphs as deep as the container's, not a caption deep in a side rail beside it
    let most = depth(p.kept_lines[last].0).unwrap_or(0);
    let beside = |chain: u32| depth(chain).is_some_and(|d| d <= most);
    work::add(p.kept_lines.len());
    let run: Vec<u32> = (p.kept_lines[last + 1..].iter())
        .take_while(|&&(chain, prose)| prose && beside(chain))
        .map(|&(chain, _)| chain)
        .collect();
    // paragraphs, not one line (an advertisement's slogan under the article)
    if run.len() >= 2 { run } else { Vec::new() }
}

/// Page `doc` of `corpus`, cleaned with the string rules: its selectors (see [`Seen`]). `None` when its
/// lines are not those its structure was read with.
fn see(corpus: &Corpus, paths: &SourcePaths, sel: &Selectors, cleaner: &Cleaner, doc: usize) -> Option<Page> {
    let d = &corpus.docs[doc];
    let chains = paths.lines(doc, &d.id)?;
    let layout = Layout::new(&d.text);
    let n = layout.lines();
    if chains.len() != n {
        return None;
    }
    let spans = cleaner.spans_of(&d.text, &cleaner.matches(&d.text));
    let kept = kept_words(&layout, &spans);
    let long = |k: usize| kept[k] >= LONG_LINE_WORDS as u32;
    let prose = |k: usize| {
        let (a, b) = layout.line_range(k);
        long(k) && layout.reads_as_prose(a, b)
    };
    let block =
        article_block(&layout, &spans).map(|(a, b)| (layout.line_of(a), layout.line_of(b.saturating_sub(1).max(a))));
    // the block's first line of prose, else its first long line, else its first with kept words
    let in_block = block.map(|(a, b)| {
        let lines = a..=b;
        let first = |f: &dyn Fn(usize) -> bool| lines.clone().find(|&k| f(k));
        first(&prose).or_else(|| first(&long)).or_else(|| first(&|k| kept[k] > 0))
    });
    // the headline above it; the article starts at the first line of prose below the headline
    let before = in_block.flatten().map_or(d.text.len(), |k| layout.line_range(k).1);
    let title = title_line(&layout, 0, before, &[]).map(|at| layout.line_of(at));
    let after_title = title.and_then(|t| (t + 1..n).find(|&k| prose(k)));
    let anchor = after_title.or(in_block.flatten());
    let block_long_total: u32 = block.map_or(0, |(a, b)| (a..=b).filter(|&k| long(k)).map(|k| kept[k]).sum());
    let mut by_chain: HashMap<u32, Seen> = HashMap::new();
    let mut long_lines = Vec::new();
    let mut kept_lines = Vec::new();
    for (k, &chain) in chains.iter().enumerate() {
        let words = layout.line_words(k) as u32;
        if words == 0 {
            continue;
        }
        let line = (k as u32, chain);
        let s = by_chain.entry(chain).or_default();
        s.words += words;
        s.kept += kept[k];
        s.first = s.first.min(line);
        if kept[k] > 0 {
            s.first_kept = s.first_kept.min(line);
            kept_lines.push((chain, prose(k)));
        }
        if long(k) {
            s.long_lines += 1;
            s.first_long = s.first_long.min(line);
            long_lines.push(line);
            if block.is_some_and(|(a, b)| a <= k && k <= b) {
                s.block_long += kept[k];
            }
        }
    }
    work::add(chains.len());
    let title = title.map(|t| t as u32);
    let mut page = Page {
        doc,
        seen: HashMap::new(),
        chains: Vec::with_capacity(by_chain.len()),
        long: long_lines,
        kept_lines,
        title,
    };
    for (&chain, c) in &by_chain {
        page.chains.push((chain, c.words));
        let of = &sel.of_chain[chain as usize];
        work::add(of.len());
        for &s in of {
            page.seen.entry(s).or_default().add(c);
        }
    }
    for s in page.seen.values_mut() {
        s.bulk = block_long_total > 0 && 2 * s.block_long > block_long_total;
    }
    if let Some(anchor) = anchor {
        // no headline: the head is the block's lines above the anchor
        let head_from = title.or(block.map(|b| b.0 as u32)).unwrap_or(anchor as u32);
        page.mark(sel, chains, anchor as u32, head_from);
    }
    Some(page)
}

/// Words of each line that `spans` (sorted, disjoint) leave: one pass over both.
fn kept_words(layout: &Layout, spans: &[Span]) -> Vec<u32> {
    let mut out = Vec::with_capacity(layout.lines());
    let mut first = 0;
    for k in 0..layout.lines() {
        let (a, b) = layout.line_range(k);
        while first < spans.len() && spans[first].end <= a {
            first += 1;
        }
        let mut removed = 0;
        for s in spans[first..].iter().take_while(|s| s.start < b) {
            removed += layout.words(s.start.max(a), s.end.min(b));
        }
        out.push(layout.line_words(k).saturating_sub(removed) as u32);
    }
    out
}

fn median(values: &[u32]) -> u64 {
    let mut v = values.to_vec();
    if v.is_empty() {
        return 0;
    }
    let mid = v.len() / 2;
    u64::from(*v.select_nth_unstable(mid).1)
}
