//! Where each line of a source's pages sits, kept from their views for region mining: per line, the chain
//! of elements around it that break lines and carry an id or a class (the only ones a region rule can
//! name), interned once for the whole source so that pages compare by number; and how much of it sits
//! inside links, as a whole percent, so that a page held as its view's text cleans as the page does with
//! stage `link-density` on. A line costs five bytes.
//!
//! A page's views are read in parallel ([`LocalPaths::of`], per page) and joined in order
//! ([`SourcePaths::push`], a hash lookup per element of the page).

use foldhash::HashMap;

use super::Structure;

/// Elements a chain holds at most: the elements inside deeper ones share their chain. No template nests
/// named blocks this deep; a page that never closes its `<div>`s would otherwise make each line's chain
/// as long as the page, and reading every line's chain quadratic.
pub const MAX_DEPTH: usize = 48;

/// One page's chains, numbered for this page alone (see the module doc).
#[derive(Debug, Clone, Default)]
pub struct LocalPaths {
    labels: Vec<String>,
    /// Chain `i + 1` is chain `chains[i].0` with label `labels[chains[i].1]` inside it; chain 0 holds none.
    chains: Vec<(u32, u32)>,
    lines: Vec<u32>,
    /// Per line: [`Structure::link_percent`].
    links: Vec<u8>,
}

impl LocalPaths {
    /// The chains of a page's lines, from its view's structure: one pass over its element paths.
    pub fn of(s: &Structure) -> LocalPaths {
        let mut out = LocalPaths::default();
        let mut chain_of = vec![0u32; s.paths()];
        let mut depth = vec![0usize];
        for p in 1..s.paths() {
            let path = p as u32;
            let parent = chain_of[s.parent(path) as usize];
            let label = s.label(path);
            chain_of[p] = if s.breaks_line(path) && label.contains(['#', '.']) && depth[parent as usize] < MAX_DEPTH {
                out.labels.push(label.to_string());
                out.chains.push((parent, (out.labels.len() - 1) as u32));
                depth.push(depth[parent as usize] + 1);
                out.chains.len() as u32
            } else {
                parent
            };
        }
        out.lines = (0..s.lines()).map(|l| chain_of[s.line_path(l) as usize]).collect();
        out.links = (0..s.lines()).map(|l| s.link_percent(l)).collect();
        out
    }
}

/// The chains of every line of a source's pages (see the module doc).
#[derive(Debug, Clone, Default)]
pub struct SourcePaths {
    labels: Vec<String>,
    label_ids: HashMap<String, u32>,
    /// Chain `i + 1` is chain `chains[i].0` with label `chains[i].1` inside it; chain 0 holds none.
    chains: Vec<(u32, u32)>,
    chain_ids: HashMap<(u32, u32), u32>,
    /// Per document: its id, each line's chain and each line's [`Structure::link_percent`].
    docs: Vec<(String, Vec<u32>, Vec<u8>)>,
}

impl SourcePaths {
    pub fn new() -> SourcePaths {
        SourcePaths::default()
    }

    /// Adds the next document's page, `id`, with its chains.
    pub fn push(&mut self, id: &str, local: LocalPaths) {
        let mut global = Vec::with_capacity(local.chains.len() + 1);
        global.push(0u32);
        for &(parent, label) in &local.chains {
            let text = &local.labels[label as usize];
            let label = match self.label_ids.get(text.as_str()) {
                Some(&l) => l,
                None => {
                    self.labels.push(text.clone());
                    self.label_ids.insert(text.clone(), (self.labels.len() - 1) as u32);
                    (self.labels.len() - 1) as u32
                }
            };
            let key = (global[parent as usize], label);
            let next = self.chains.len() as u32 + 1;
            let chain = *self.chain_ids.entry(key).or_insert(next);
            if chain == next {
                self.chains.push(key);
            }
            global.push(chain);
        }
        let lines = local.lines.iter().map(|&c| global[c as usize]).collect();
        self.docs.push((id.to_string(), lines, local.links));
    }

    /// Each line's chain of document `doc` (its index among the documents pushed), if its id is `id`:
    /// documents dropped or reordered since their views were read have none.
    pub fn lines(&self, doc: usize, id: &str) -> Option<&[u32]> {
        self.docs.get(doc).filter(|(d, ..)| d == id).map(|(_, lines, _)| lines.as_slice())
    }

    /// Each line's [`Structure::link_percent`] of document `doc`, if its id is `id` (as
    /// [`SourcePaths::lines`]).
    pub fn link_percents(&self, doc: usize, id: &str) -> Option<&[u8]> {
        self.docs.get(doc).filter(|(d, ..)| d == id).map(|(.., links)| links.as_slice())
    }

    /// Where the lines of document `doc` (id `id`, as [`SourcePaths::lines`]) sit, as a page's
    /// [`Structure`]: one block path per chain its lines sit in, so that what reads a page's structure for
    /// its named blocks (stage `regions`) or its lines' links (stage `link-density`) reads a page held as
    /// its view's text alone as it reads the page. One pass over its lines and the chains they use.
    pub fn structure(&self, doc: usize, id: &str) -> Option<Structure> {
        let lines = self.lines(doc, id)?;
        let links = self.link_percents(doc, id)?;
        let mut out = Structure::new();
        // chain -> its path in `out`, made on first use with the chains around it
        let mut path_of: HashMap<u32, u32> = HashMap::default();
        path_of.insert(0, 0);
        let mut missing = Vec::new();
        for (&chain, &percent) in lines.iter().zip(links) {
            if !path_of.contains_key(&chain) {
                let mut c = chain;
                while !path_of.contains_key(&c) {
                    missing.push(c);
                    c = self.chains[c as usize - 1].0;
                }
                while let Some(c) = missing.pop() {
                    let (parent, label) = self.chains[c as usize - 1];
                    let path = out.block_child(path_of[&parent], &self.labels[label as usize]);
                    path_of.insert(c, path);
                }
            }
            out.start_line_with_links(path_of[&chain], percent);
        }
        Some(out)
    }

    /// How many labels the source's pages hold.
    pub fn label_count(&self) -> usize {
        self.labels.len()
    }

    /// The label numbered `label`: `tag#id.class…`.
    pub fn label(&self, label: u32) -> &str {
        &self.labels[label as usize]
    }

    /// How many chains there are, the empty one (0) included.
    pub fn chain_count(&self) -> usize {
        self.chains.len() + 1
    }

    /// The chain `chain` extends (0 for the empty chain and its children).
    pub fn parent(&self, chain: u32) -> u32 {
        if chain == 0 { 0 } else { self.chains[chain as usize - 1].0 }
    }

    /// The labels of chain `chain`, innermost first (at most [`MAX_DEPTH`]).
    pub fn labels_of(&self, mut chain: u32) -> impl Iterator<Item = u32> + '_ {
        std::iter::from_fn(move || {
            if chain == 0 {
                return None;
            }
            let (parent, label) = self.chains[chain as usize - 1];
            chain = parent;
            Some(label)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::PageView;

    fn chains(paths: &SourcePaths, doc: usize, id: &str) -> Vec<Vec<String>> {
        let lines = paths.lines(doc, id).unwrap();
        lines
            .iter()
            .map(|&c| {
                let mut l: Vec<String> = paths.labels_of(c).map(|l| paths.label(l).to_string()).collect();
                l.reverse();
                l
            })
            .collect()
    }

    #[test]
    fn each_line_keeps_the_named_blocks_around_it_and_pages_share_their_numbers() {
        let a = "<body><div id=\"main\"><p>Story one.</p></div><div id=\"comments\"><ul class=\"list\">\
                 <li class=\"c\">First!</li></ul></div></body>";
        let b = "<body><div id=\"main\"><p class=\"lede\">Story two.</p></div><div id=\"comments\">\
                 <ul class=\"list\"><li class=\"c\"><a class=\"x\">Me too</a></li></ul></div></body>";
        let mut paths = SourcePaths::new();
        for (id, page) in [("a", a), ("b", b)] {
            paths.push(id, LocalPaths::of(PageView::of_html(page).structure().unwrap()));
        }
        assert_eq!(chains(&paths, 0, "a"), [vec!["div#main"], vec!["div#comments", "ul.list", "li.c"]]);
        assert_eq!(
            chains(&paths, 1, "b"),
            [vec!["div#main", "p.lede"], vec!["div#comments", "ul.list", "li.c"]],
            "a link is inline: no region; a bare <body> names nothing"
        );
        assert_eq!(paths.lines(0, "a").unwrap()[1], paths.lines(1, "b").unwrap()[1], "one number for one chain");
        assert!(paths.lines(0, "b").is_none(), "a document dropped since is not mistaken for another");
    }

    #[test]
    fn each_line_keeps_its_link_percent_and_the_structure_read_back_has_it() {
        let page = "<ul class=\"nav\"><li><a href=\"/\">Home</a></li></ul><p>Said <a href=\"/m\">the mayor</a>.</p>\
                    <p>Plain prose.</p>";
        let s = PageView::of_html(page).structure().unwrap().clone();
        let mut paths = SourcePaths::new();
        paths.push("a", LocalPaths::of(&s));
        let kept: Vec<u8> = (0..s.lines()).map(|l| s.link_percent(l)).collect();
        assert!(kept[0] == 100 && (1..100).contains(&kept[1]) && kept[2] == 0, "{kept:?}");
        assert_eq!(paths.link_percents(0, "a").unwrap(), kept.as_slice());
        let back = paths.structure(0, "a").unwrap();
        assert_eq!((0..back.lines()).map(|l| back.link_percent(l)).collect::<Vec<_>>(), kept);
        assert!(paths.link_percents(0, "b").is_none());
    }

    #[test]
    fn a_page_that_never_closes_its_blocks_keeps_short_chains() {
        let page = "<div class=\"c\"><p>x</p>".repeat(500);
        let local = LocalPaths::of(PageView::of_html(&page).structure().unwrap());
        let mut paths = SourcePaths::new();
        paths.push("deep", local);
        let longest = paths.lines(0, "deep").unwrap().iter().map(|&c| paths.labels_of(c).count()).max();
        assert_eq!(longest, Some(MAX_DEPTH));
    }
}
