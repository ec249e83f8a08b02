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

use rayon::prelude::*;
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
        let lines: Vec<HashSet<u64>> = docs.par_iter().map(|d| line_hashes(d, masked)).collect();
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

/// [`jaccard`] of two pages' lines sorted: the shared lines counted by one walk of both lists.
fn jaccard_sorted(a: &[u64], b: &[u64]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let (mut i, mut j, mut both) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                both += 1;
                i += 1;
                j += 1;
            }
        }
    }
    both as f64 / (a.len() + b.len() - both) as f64
}

/// Average-linkage clusters of `pages` (indices), merged while the closest pair is at least `threshold`
/// alike. Clusters are sorted by their first page.
pub fn clusters(pages: &[HashSet<u64>], threshold: f64) -> Vec<Vec<usize>> {
    clusters_down_to(pages, &[threshold]).remove(0)
}

/// [`clusters`] at each of `thresholds` (from the highest), found by one run of merges: average linkage
/// merges ever less alike pairs, so the clusters at a lower threshold are those at a higher one merged on.
pub fn clusters_down_to(pages: &[HashSet<u64>], thresholds: &[f64]) -> Vec<Vec<Vec<usize>>> {
    let n = pages.len();
    let sorted: Vec<Vec<u64>> = pages
        .iter()
        .map(|p| {
            let mut lines: Vec<u64> = p.iter().copied().collect();
            lines.sort_unstable();
            lines
        })
        .collect();
    let sim: Vec<Vec<f64>> =
        (0..n).into_par_iter().map(|i| (0..n).map(|j| jaccard_sorted(&sorted[i], &sorted[j])).collect()).collect();
    let mut groups: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    let link = |a: &[usize], b: &[usize]| {
        let total: f64 = a.iter().flat_map(|&i| b.iter().map(move |&j| (i, j))).map(|(i, j)| sim[i][j]).sum();
        total / (a.len() * b.len()) as f64
    };
    // links[a][b] (a < b): the link of groups a and b, kept across merges, since a merge changes only the
    // merged group's links; each is summed over the same pages in the same order as when first found
    let mut links: Vec<Vec<f64>> =
        (0..n).map(|a| (0..n).map(|b| if b > a { link(&groups[a], &groups[b]) } else { 0.0 }).collect()).collect();
    let mut out = Vec::with_capacity(thresholds.len());
    for &threshold in thresholds {
        merge_while(&mut groups, &mut links, threshold, &link);
        let mut snapshot = groups.clone();
        snapshot.sort();
        out.push(snapshot);
    }
    out
}

/// Merges the closest pair of `groups` while it is at least `threshold` alike, keeping `links` up to date.
fn merge_while(
    groups: &mut Vec<Vec<usize>>,
    links: &mut Vec<Vec<f64>>,
    threshold: f64,
    link: &impl Fn(&[usize], &[usize]) -> f64,
) {
    loop {
        let mut best: Option<(f64, usize, usize)> = None;
        for (a, row) in links.iter().enumerate() {
            for (b, &s) in row.iter().enumerate().skip(a + 1) {
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
                links.remove(b);
                for row in links.iter_mut() {
                    row.remove(b);
                }
                for c in 0..groups.len() {
                    match c.cmp(&a) {
                        std::cmp::Ordering::Less => links[c][a] = link(&groups[c], &groups[a]),
                        std::cmp::Ordering::Greater => links[a][c] = link(&groups[a], &groups[c]),
                        std::cmp::Ordering::Equal => {}
                    }
                }
            }
            _ => break,
        }
    }
}

/// `fine`'s clusters of at least `min` pages, and for each cluster of `coarse` the rest of its pages, the
/// members of its smaller fine clusters, as one cluster when they are `2 × min` pages at least (fewer are
/// left in their pieces: a few odd pages of one template, mined together, yield strings two of three
/// share, idioms and cuts of two words). Average linkage stops at a threshold, so a lower one's clusters
/// are unions of a higher one's: each fine cluster lies in one coarse cluster.
pub fn with_rests(fine: Vec<Vec<usize>>, coarse: &[Vec<usize>], min: usize) -> Vec<Vec<usize>> {
    let n = coarse.iter().map(Vec::len).sum();
    let mut home = vec![0; n];
    for (k, c) in coarse.iter().enumerate() {
        for &i in c {
            home[i] = k;
        }
    }
    let mut pieces: Vec<Vec<Vec<usize>>> = vec![Vec::new(); coarse.len()];
    let mut out = Vec::new();
    for c in fine {
        match c.first() {
            Some(_) if c.len() >= min => out.push(c),
            Some(&first) => pieces[home[first]].push(c),
            None => {}
        }
    }
    for p in pieces {
        if p.iter().map(Vec::len).sum::<usize>() >= 2 * min {
            let mut rest = p.concat();
            rest.sort_unstable();
            out.push(rest);
        } else {
            out.extend(p);
        }
    }
    out.sort();
    out
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

    /// Average linkage as first written: every pair's link summed again after each merge.
    fn clusters_by_brute_force(pages: &[HashSet<u64>], threshold: f64) -> Vec<Vec<usize>> {
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

    #[test]
    fn the_small_clusters_of_one_template_are_mined_as_one() {
        // two templates, each split into pieces of one and two pages, the first also into a cluster of four
        let fine =
            vec![vec![0, 1], vec![2, 3, 4, 5], vec![6], vec![7, 8], vec![9], vec![10, 11], vec![12, 13], vec![14]];
        let coarse = vec![(0..10).collect::<Vec<_>>(), (10..15).collect()];
        assert_eq!(
            with_rests(fine.clone(), &coarse, 3),
            vec![vec![0, 1, 6, 7, 8, 9], vec![2, 3, 4, 5], vec![10, 11], vec![12, 13], vec![14]],
            "the first template's six odd pages as one cluster; the second's five stay in pieces"
        );
        assert_eq!(with_rests(fine.clone(), &coarse, 1), fine, "clusters big enough stay as they are");
    }

    #[test]
    fn a_lower_thresholds_clusters_are_unions_of_a_higher_ones() {
        // what `with_rests` relies on, on pages of three templates with lines shared at random
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20 {
            let mut pages: Vec<HashSet<u64>> = Vec::new();
            for _ in 0..40 {
                let t = next() % 3;
                let mut page = HashSet::new();
                for l in 0..10 {
                    if next() % 3 != 0 {
                        page.insert(t * 100 + l);
                    }
                }
                for _ in 0..3 {
                    page.insert(next() % 60);
                }
                pages.push(page);
            }
            let (fine, coarse) = (clusters(&pages, 0.55), clusters(&pages, 0.3));
            for c in &fine {
                assert!(coarse.iter().any(|k| c.iter().all(|i| k.contains(i))), "{c:?} in one of {coarse:?}");
            }
            let mut all: Vec<usize> = with_rests(fine, &coarse, 3).concat();
            all.sort_unstable();
            assert_eq!(all, (0..40).collect::<Vec<_>>(), "every page in one cluster");
        }
    }

    #[test]
    fn kept_links_cluster_as_links_summed_again_after_every_merge() {
        // pages of three templates, each page keeping a random part of its template's lines and a few
        // lines of the others, some pages empty
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..20 {
            let mut pages: Vec<HashSet<u64>> = Vec::new();
            for _ in 0..30 + round {
                let mut page = HashSet::new();
                if next() % 10 != 0 {
                    let template = next() % 3;
                    for line in 0..12 {
                        if next() % 4 != 0 {
                            page.insert(template * 100 + line);
                        }
                    }
                    for _ in 0..next() % 3 {
                        page.insert(next() % 300);
                    }
                }
                pages.push(page);
            }
            for threshold in [0.0, 0.2, 0.35, 0.5, 0.55, 0.7, 1.0] {
                assert_eq!(
                    clusters(&pages, threshold),
                    clusters_by_brute_force(&pages, threshold),
                    "{round} {threshold}"
                );
            }
        }
    }
}
