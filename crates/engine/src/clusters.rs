//! Template clusters: a source whose pages use several templates — article and
//! gallery pages, or a redesign — is split before mining, so that a template used on a third of the pages
//! still reaches the cutoff in its own cluster.
//!
//! A page's *structure* is the set of its lines that occur on at least two pages of the source: the
//! template's lines, whatever the article says. Pages are grouped by average-linkage agglomerative
//! clustering on the Jaccard similarity of their structures, merging while the two closest clusters are
//! at least `threshold` alike ([`ClusterMethod::Linkage`]), or by the description length of the
//! clustering, TEXT-MDL ([`ClusterMethod::Mdl`], in `clusters/mdl.rs`). A new page joins the cluster it is most
//! alike on average.

mod mdl;

pub use mdl::mdl_clusters;

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, BuildHasherDefault};

use serde::Serialize;

/// How a source's pages are grouped by template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClusterMethod {
    /// Average linkage on the Jaccard similarity of shared lines, down to a similarity threshold.
    #[default]
    Linkage,
    /// TEXT-MDL: merges while the clustering's description length falls (no threshold).
    Mdl,
}

impl ClusterMethod {
    pub fn is_linkage(&self) -> bool {
        *self == ClusterMethod::Linkage
    }
}

/// The template clusters of `pages` by `method` (`similarity`: linkage's threshold).
pub fn group(pages: &[HashSet<u64>], method: ClusterMethod, similarity: f64) -> Vec<Vec<usize>> {
    match method {
        ClusterMethod::Linkage => clusters(pages, similarity),
        ClusterMethod::Mdl => mdl_clusters(pages),
    }
}

/// Structures of a set of pages, and the lines that make them.
pub struct Structures {
    /// Hashes of the lines found on two or more pages.
    shared: HashSet<u64>,
    pub pages: Vec<HashSet<u64>>,
    /// Whether numbers are masked in the lines.
    masked: bool,
}

fn line_hashes(text: &str, masked: bool) -> HashSet<u64> {
    // a fixed-key hasher: the same line hashes the same in every run
    let state = BuildHasherDefault::<DefaultHasher>::default();
    let lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    if masked {
        lines.map(|l| state.hash_one(mask_numbers(l))).collect()
    } else {
        lines.map(|l| state.hash_one(l)).collect()
    }
}

/// A line with each run of digits as one `#`: "© 2023 Valley Courier" and "© 2024 Valley Courier" are
/// one line of the template.
fn mask_numbers(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if !c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('#') {
            out.push('#');
        }
    }
    out
}

impl Structures {
    pub fn new(docs: &[&str]) -> Structures {
        Structures::of_lines(docs, false)
    }

    /// The structures `method` reads: TEXT-MDL's paths are lines with their numbers masked, since its
    /// description length counts every differing line, and a year in a footer would split a template
    /// in two; linkage's threshold absorbs such a line.
    pub fn for_method(docs: &[&str], method: ClusterMethod) -> Structures {
        Structures::of_lines(docs, method == ClusterMethod::Mdl)
    }

    fn of_lines(docs: &[&str], masked: bool) -> Structures {
        let lines: Vec<HashSet<u64>> = docs.iter().map(|d| line_hashes(d, masked)).collect();
        let mut df: HashMap<u64, usize> = HashMap::new();
        for set in &lines {
            for &h in set {
                *df.entry(h).or_default() += 1;
            }
        }
        let shared: HashSet<u64> = df.into_iter().filter(|&(_, d)| d >= 2).map(|(h, _)| h).collect();
        let pages = lines.into_iter().map(|set| set.into_iter().filter(|h| shared.contains(h)).collect()).collect();
        Structures { shared, pages, masked }
    }

    /// The structure of another page, in the same terms.
    pub fn of(&self, text: &str) -> HashSet<u64> {
        line_hashes(text, self.masked).into_iter().filter(|h| self.shared.contains(h)).collect()
    }
}

pub fn jaccard(a: &HashSet<u64>, b: &HashSet<u64>) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let both = a.iter().filter(|h| b.contains(h)).count();
    both as f64 / (a.len() + b.len() - both) as f64
}

/// Average-linkage clusters of `pages` (indices), merged while the closest pair is at least `threshold`
/// alike. Clusters are sorted by their first page.
pub fn clusters(pages: &[HashSet<u64>], threshold: f64) -> Vec<Vec<usize>> {
    let n = pages.len();
    let sim: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| jaccard(&pages[i], &pages[j])).collect()).collect();
    let mut groups: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    let link = |a: &[usize], b: &[usize]| {
        let total: f64 = a.iter().flat_map(|&i| b.iter().map(move |&j| (i, j))).map(|(i, j)| sim[i][j]).sum();
        total / (a.len() * b.len()) as f64
    };
    loop {
        let mut best: Option<(f64, usize, usize)> = None;
        for a in 0..groups.len() {
            for b in a + 1..groups.len() {
                let s = link(&groups[a], &groups[b]);
                if best.is_none_or(|(t, _, _)| s > t) {
                    best = Some((s, a, b));
                }
            }
        }
        match best {
            Some((s, a, b)) if s >= threshold => {
                let merged = groups.remove(b);
                groups[a].extend(merged);
                groups[a].sort_unstable();
            }
            _ => break,
        }
    }
    groups.sort();
    groups
}

/// The cluster a page of structure `page` is most alike on average (ties: the first).
pub fn nearest(page: &HashSet<u64>, members: &[Vec<&HashSet<u64>>]) -> usize {
    let mut best = (f64::MIN, 0);
    for (k, m) in members.iter().enumerate() {
        let s = m.iter().map(|o| jaccard(page, o)).sum::<f64>() / m.len().max(1) as f64;
        if s > best.0 {
            best = (s, k);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_templates_make_two_clusters() {
        let a = "Menu A\nHome A\n";
        let b = "Gallery B\nPhotos B\nNext B\n";
        let docs: Vec<String> = (0..6)
            .map(|i| {
                format!(
                    "{}article {i} text\n{}",
                    if i % 3 == 0 { b } else { a },
                    if i % 3 == 0 { "End B" } else { "End A" }
                )
            })
            .collect();
        let refs: Vec<&str> = docs.iter().map(|s| s.as_str()).collect();
        let s = Structures::new(&refs);
        assert_eq!(clusters(&s.pages, 0.5), vec![vec![0, 3], vec![1, 2, 4, 5]]);
        assert_eq!(clusters(&s.pages, 0.0), vec![vec![0, 1, 2, 3, 4, 5]]);
        let members: Vec<Vec<&HashSet<u64>>> = vec![vec![&s.pages[0]], vec![&s.pages[1]]];
        assert_eq!(nearest(&s.of("Gallery B\nnew caption\nEnd B"), &members), 0);
    }
}
