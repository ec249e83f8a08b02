//! TEXT-MDL clustering: pages grouped by the template they share, agglomeratively, by the description
//! length of the clustering (minimum description length: the clustering that costs fewest bits to write
//! down with the pages' structures explains them best).
//!
//! A page's structure is a set of paths (here, its lines shared with other pages, numbers masked: see
//! [`super::Structures`]), of which the *essential* ones, on at least as many pages as its paths on
//! average, are clustered. A clustering is written as three binary matrices: which paths make each
//! cluster's template (`M_T`: paths × clusters), which cluster each page is in (`M_D`: clusters × pages),
//! and where each page differs from its cluster's template (`M_Δ`: paths × pages). A cluster's best
//! template holds the paths on more than half of its pages, so a page costs what it lacks of the template
//! and what it has beyond it. A matrix of `N` cells with `k` ones costs `N·H(k/N)` bits (the entropy
//! approximation). Starting from one cluster per page, the pair whose merge lowers the cost most is
//! merged, until no merge lowers it.
//!
//! Finding that pair exactly costs every pair at every step. As TEXT does, MinHash signatures of the
//! clusters' templates estimate their Jaccard similarity, and each cluster is costed only against the
//! clusters most alike it by signature.

use std::collections::{HashMap, HashSet};

/// Hash functions of a MinHash signature.
const SIGNATURE: usize = 32;

struct Cluster {
    members: Vec<usize>,
    /// On how many member pages each path is.
    counts: HashMap<u64, u32>,
    /// Paths of the template: those on more than half of the members.
    template: usize,
    /// Differences between the members and the template: Σ over paths of min(count, members − count).
    delta: usize,
    signature: [u64; SIGNATURE],
}

fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Template size and differences of a cluster of `n` pages with path counts `counts`.
fn shape<'a>(n: u32, counts: impl Iterator<Item = &'a u32>) -> (usize, usize) {
    counts.fold((0, 0), |(t, d), &c| (t + usize::from(2 * c > n), d + c.min(n - c) as usize))
}

impl Cluster {
    fn new(members: Vec<usize>, counts: HashMap<u64, u32>) -> Cluster {
        let n = members.len() as u32;
        let (template, delta) = shape(n, counts.values());
        let mut c = Cluster { members, counts, template, delta, signature: [u64::MAX; SIGNATURE] };
        c.sign();
        c
    }

    /// MinHash of the template's paths (of all its paths, when no path is on most members).
    fn sign(&mut self) {
        let n = self.members.len() as u32;
        let mut sig = [u64::MAX; SIGNATURE];
        let mut any = false;
        for (&p, &c) in &self.counts {
            if 2 * c > n || self.template == 0 {
                any = true;
                for (k, s) in sig.iter_mut().enumerate() {
                    *s = (*s).min(mix(p ^ (k as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)));
                }
            }
        }
        self.signature = if any { sig } else { [u64::MAX; SIGNATURE] };
    }

    /// Template size and differences of this cluster merged with `other`.
    fn merged_shape(&self, other: &Cluster) -> (usize, usize) {
        let n = (self.members.len() + other.members.len()) as u32;
        let (small, large) = if self.counts.len() <= other.counts.len() { (self, other) } else { (other, self) };
        let (mut t, mut d) = (0, 0);
        for (p, &c) in &large.counts {
            let c = c + small.counts.get(p).copied().unwrap_or(0);
            t += usize::from(2 * c > n);
            d += c.min(n - c) as usize;
        }
        for (p, &c) in &small.counts {
            if !large.counts.contains_key(p) {
                t += usize::from(2 * c > n);
                d += c.min(n - c) as usize;
            }
        }
        (t, d)
    }
}

/// Bits of an `n`-cell binary matrix with `k` ones.
fn bits(n: f64, k: f64) -> f64 {
    if k <= 0.0 || k >= n {
        return 0.0;
    }
    let p = k / n;
    -n * (p * p.log2() + (1.0 - p) * (1.0 - p).log2())
}

/// The description length of a clustering of `pages` pages over `paths` paths into `m` clusters whose
/// templates hold `template` paths in all and differ from their pages in `delta` cells.
fn cost(paths: f64, pages: f64, m: f64, template: usize, delta: usize) -> f64 {
    bits(paths * m, template as f64) + bits(m * pages, pages) + bits(paths * pages, delta as f64)
}

/// Signature agreement: the MinHash estimate of Jaccard similarity, in 1/[`SIGNATURE`]ths.
fn agreement(a: &Cluster, b: &Cluster) -> u8 {
    a.signature.iter().zip(&b.signature).filter(|(x, y)| x == y && **x != u64::MAX).count() as u8
}

/// A page's *essential* paths, as TEXT defines them: those whose support (pages holding them) is at
/// least the page's threshold, here the mean support of its paths. A line shared by the few pages of one
/// photo gallery is no path of the site's gallery template.
fn essential(pages: &[HashSet<u64>]) -> Vec<HashSet<u64>> {
    let mut support: HashMap<u64, usize> = HashMap::new();
    for p in pages {
        for &h in p {
            *support.entry(h).or_default() += 1;
        }
    }
    pages
        .iter()
        .map(|p| {
            let mean = p.iter().map(|h| support[h]).sum::<usize>() as f64 / p.len().max(1) as f64;
            p.iter().copied().filter(|h| support[h] as f64 >= mean).collect()
        })
        .collect()
}

/// TEXT-MDL clusters of `pages` (indices), sorted by their first page.
pub fn mdl_clusters(pages: &[HashSet<u64>]) -> Vec<Vec<usize>> {
    let pages = essential(pages);
    let pages = pages.as_slice();
    let n = pages.len();
    let paths = pages.iter().flatten().collect::<HashSet<_>>().len().max(1) as f64;
    let mut slots: Vec<Option<Cluster>> = pages
        .iter()
        .enumerate()
        .map(|(i, p)| Some(Cluster::new(vec![i], p.iter().map(|&h| (h, 1)).collect())))
        .collect();
    let mut alike: Vec<Vec<u8>> = (0..n)
        .map(|i| (0..n).map(|j| agreement(slots[i].as_ref().unwrap(), slots[j].as_ref().unwrap())).collect())
        .collect();
    let (mut m, mut template, mut delta) = (n, slots.iter().flatten().map(|c| c.template).sum::<usize>(), 0usize);
    loop {
        let now = cost(paths, n as f64, m as f64, template, delta);
        let mut best: Option<(f64, usize, usize, usize, usize)> = None; // (gain, i, j, template, delta)
        for i in 0..n {
            let Some(a) = &slots[i] else { continue };
            // the clusters most alike `a` by signature
            let top = (0..n).filter(|&j| j != i && slots[j].is_some()).map(|j| alike[i][j]).max();
            let Some(top) = top else { continue };
            for j in (i + 1..n).filter(|&j| slots[j].is_some() && alike[i][j] == top) {
                let b = slots[j].as_ref().unwrap();
                let (t, d) = a.merged_shape(b);
                let t2 = template - a.template - b.template + t;
                let d2 = delta - a.delta - b.delta + d;
                let gain = now - cost(paths, n as f64, (m - 1) as f64, t2, d2);
                if best.is_none_or(|b| gain > b.0) {
                    best = Some((gain, i, j, t2, d2));
                }
            }
        }
        let Some((gain, i, j, t2, d2)) = best else { break };
        if gain <= 1e-9 {
            break;
        }
        let b = slots[j].take().unwrap();
        let a = slots[i].take().unwrap();
        let mut counts = a.counts;
        for (p, c) in b.counts {
            *counts.entry(p).or_default() += c;
        }
        let mut members = a.members;
        members.extend(b.members);
        members.sort_unstable();
        slots[i] = Some(Cluster::new(members, counts));
        (m, template, delta) = (m - 1, t2, d2);
        for k in 0..n {
            let s = match (&slots[i], &slots[k]) {
                (Some(x), Some(y)) => agreement(x, y),
                _ => 0,
            };
            alike[i][k] = s;
            alike[k][i] = s;
        }
    }
    let mut groups: Vec<Vec<usize>> = slots.into_iter().flatten().map(|c| c.members).collect();
    groups.sort();
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(paths: &[u64]) -> HashSet<u64> {
        paths.iter().copied().collect()
    }

    #[test]
    fn two_templates_make_two_clusters_and_one_makes_one() {
        let a = [1, 2, 3, 4, 5, 6];
        let b = [10, 11, 12, 13, 14];
        let pages: Vec<HashSet<u64>> = (0..12)
            .map(|i| {
                let mut p = if i % 3 == 0 { set(&b) } else { set(&a) };
                p.insert(100 + i as u64 / 2); // a path on two pages only
                p
            })
            .collect();
        assert_eq!(mdl_clusters(&pages), vec![vec![0, 3, 6, 9], vec![1, 2, 4, 5, 7, 8, 10, 11]]);
        let same: Vec<HashSet<u64>> = (0..6).map(|_| set(&a)).collect();
        assert_eq!(mdl_clusters(&same), vec![vec![0, 1, 2, 3, 4, 5]]);
    }
}
