//! Needleman–Wunsch global alignment of two token sequences, as Geraci and Maggini score it: a match
//! scores 1, a mismatch 0, a gap −1; of equal scores, a match or mismatch is taken before a gap.
//!
//! The dynamic program is quadratic in time and in the memory of its traceback, and real pages run to
//! tens of thousands of tokens. So it never runs on more than `max_cells` cells at once:
//! - tokens equal at both ends are matched first (an optimal alignment matches them);
//! - a pair too large is split at *anchors*, tokens that occur exactly once in each sequence, taken in an
//!   order both agree on (the longest increasing chain, as patience diff does), and the stretches
//!   between anchors are aligned the same way;
//! - a stretch still too large with no anchor is aligned inside a band around its diagonal, as wide as
//!   `max_cells` allows (banded Needleman–Wunsch).
//!
//! Anchors are what the full program would match but for rare ties, and the band only bites on long
//! stretches without any token unique to both: the alignment is the seed's on everything but very long,
//! repetitive stretches.

use std::collections::HashMap;

/// One step of an alignment of `a` and `b`, by position in each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Equal tokens aligned.
    Match(usize, usize),
    /// Different tokens aligned (both kept).
    Mismatch(usize, usize),
    /// A token of `a` against a gap.
    OnlyA(usize),
    /// A token of `b` against a gap.
    OnlyB(usize),
}

/// The alignment of `a` and `b`, in order, using at most about `max_cells` cells of dynamic program at
/// once.
pub fn align(a: &[u32], b: &[u32], max_cells: usize) -> Vec<Op> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    align_into(a, b, 0, 0, max_cells.max(16), &mut out);
    out
}

fn align_into(a: &[u32], b: &[u32], oa: usize, ob: usize, max_cells: usize, out: &mut Vec<Op>) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    out.extend((0..prefix).map(|k| Op::Match(oa + k, ob + k)));
    let (a, b, oa, ob) = (&a[prefix..], &b[prefix..], oa + prefix, ob + prefix);
    let suffix = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
    if a.is_empty() || b.is_empty() {
        out.extend((0..a.len()).map(|k| Op::OnlyA(oa + k)));
        out.extend((0..b.len()).map(|k| Op::OnlyB(ob + k)));
    } else if (a.len() + 1).saturating_mul(b.len() + 1) <= max_cells {
        banded(a, b, oa, ob, b.len(), out);
    } else {
        let anchors = anchors(a, b);
        if anchors.is_empty() {
            // no anchor: a band as wide as the budget allows, and wide enough to reach the far corner
            let rows = a.len() + 1;
            let w = (max_cells / (2 * rows)).max(b.len() / a.len() + 2);
            banded(a, b, oa, ob, w, out);
        } else {
            let (mut i, mut j) = (0, 0);
            for (x, y) in anchors {
                align_into(&a[i..x], &b[j..y], oa + i, ob + j, max_cells, out);
                out.push(Op::Match(oa + x, ob + y));
                (i, j) = (x + 1, y + 1);
            }
            align_into(&a[i..], &b[j..], oa + i, ob + j, max_cells, out);
        }
    }
    let (ea, eb) = (oa + a.len(), ob + b.len());
    out.extend((0..suffix).map(|k| Op::Match(ea + k, eb + k)));
}

/// Positions of the tokens found exactly once in `a` and once in `b`, the longest chain of them in
/// increasing order in both.
fn anchors(a: &[u32], b: &[u32]) -> Vec<(usize, usize)> {
    // token -> (count in a, position in a, count in b, position in b)
    let mut seen: HashMap<u32, (u32, usize, u32, usize)> = HashMap::new();
    for (i, &t) in a.iter().enumerate() {
        let e = seen.entry(t).or_insert((0, i, 0, 0));
        e.0 += 1;
    }
    for (j, &t) in b.iter().enumerate() {
        if let Some(e) = seen.get_mut(&t) {
            e.2 += 1;
            e.3 = j;
        }
    }
    let mut pairs: Vec<(usize, usize)> =
        seen.into_values().filter(|e| e.0 == 1 && e.2 == 1).map(|e| (e.1, e.3)).collect();
    pairs.sort_unstable();
    longest_increasing(&pairs)
}

/// The longest subsequence of `pairs` (sorted by the first) increasing in the second (patience sorting).
fn longest_increasing(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut tails: Vec<usize> = Vec::new(); // index into pairs of the smallest tail of each length
    let mut back: Vec<Option<usize>> = vec![None; pairs.len()];
    for (k, &(_, y)) in pairs.iter().enumerate() {
        let len = tails.partition_point(|&t| pairs[t].1 < y);
        back[k] = len.checked_sub(1).map(|l| tails[l]);
        if len == tails.len() {
            tails.push(k);
        } else {
            tails[len] = k;
        }
    }
    let mut chain = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(k) = at {
        chain.push(pairs[k]);
        at = back[k];
    }
    chain.reverse();
    chain
}

const DIAG: u8 = 0;
const UP: u8 = 1; // a's token alone
const LEFT: u8 = 2; // b's token alone

/// Needleman–Wunsch on the cells within `w` columns of the diagonal from (0, 0) to (|a|, |b|) (all of
/// them when `w >= |b|`). Both sequences are non-empty.
fn banded(a: &[u32], b: &[u32], oa: usize, ob: usize, w: usize, out: &mut Vec<Op>) {
    let (n, m) = (a.len(), b.len());
    let band = |i: usize| {
        let c = (i as u128 * m as u128 / n as u128) as usize;
        (c.saturating_sub(w), (c + w).min(m))
    };
    const NEG: i32 = i32::MIN / 2;
    let mut lo = vec![0usize; n + 1];
    let mut offset = vec![0usize; n + 2];
    for i in 0..=n {
        let (l, h) = band(i);
        lo[i] = l;
        offset[i + 1] = offset[i] + (h - l + 1);
    }
    let mut trace = vec![0u8; offset[n + 1]];
    let (l0, h0) = band(0);
    let mut prev: Vec<i32> = (l0..=h0).map(|j| -(j as i32)).collect();
    for j in l0..=h0 {
        trace[offset[0] + j - l0] = LEFT;
    }
    let mut cur = Vec::new();
    for i in 1..=n {
        let (l, h) = band(i);
        let (pl, ph) = (lo[i - 1], lo[i - 1] + prev.len() - 1);
        cur.clear();
        for j in l..=h {
            let (mut best, mut step) = (NEG, UP);
            if j > pl && j - 1 <= ph {
                let s = prev[j - 1 - pl] + i32::from(a[i - 1] == b[j - 1]);
                (best, step) = (s, DIAG);
            }
            if j >= pl && j <= ph && prev[j - pl] - 1 > best {
                (best, step) = (prev[j - pl] - 1, UP);
            }
            if j > l && cur[j - 1 - l] - 1 > best {
                (best, step) = (cur[j - 1 - l] - 1, LEFT);
            }
            if j == 0 && best == NEG {
                best = -(i as i32);
            }
            cur.push(best);
            trace[offset[i] + j - l] = step;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    let start = out.len();
    let (mut i, mut j) = (n, m);
    while i > 0 || j > 0 {
        let step = if i == 0 {
            LEFT
        } else if j == 0 {
            UP
        } else {
            trace[offset[i] + j - lo[i]]
        };
        match step {
            DIAG => {
                let op = if a[i - 1] == b[j - 1] {
                    Op::Match(oa + i - 1, ob + j - 1)
                } else {
                    Op::Mismatch(oa + i - 1, ob + j - 1)
                };
                out.push(op);
                i -= 1;
                j -= 1;
            }
            UP => {
                out.push(Op::OnlyA(oa + i - 1));
                i -= 1;
            }
            _ => {
                out.push(Op::OnlyB(ob + j - 1));
                j -= 1;
            }
        }
    }
    out[start..].reverse();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(ops: &[Op]) -> i32 {
        ops.iter()
            .map(|o| match o {
                Op::Match(..) => 1,
                Op::Mismatch(..) => 0,
                _ => -1,
            })
            .sum()
    }

    /// The full program's optimal score, by brute force over the whole matrix.
    fn optimal(a: &[u32], b: &[u32]) -> i32 {
        let mut s = vec![vec![0i32; b.len() + 1]; a.len() + 1];
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                s[i][j] = match (i, j) {
                    (0, _) => -(j as i32),
                    (_, 0) => -(i as i32),
                    _ => (s[i - 1][j - 1] + i32::from(a[i - 1] == b[j - 1])).max(s[i - 1][j] - 1).max(s[i][j - 1] - 1),
                };
            }
        }
        s[a.len()][b.len()]
    }

    fn covers(ops: &[Op], n: usize, m: usize) -> bool {
        let (mut i, mut j) = (0, 0);
        for o in ops {
            match *o {
                Op::Match(x, y) | Op::Mismatch(x, y) if x == i && y == j => (i, j) = (i + 1, j + 1),
                Op::OnlyA(x) if x == i => i += 1,
                Op::OnlyB(y) if y == j => j += 1,
                _ => return false,
            }
        }
        (i, j) == (n, m)
    }

    #[test]
    fn small_alignments_are_optimal_and_complete() {
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for _ in 0..200 {
            let a: Vec<u32> = (0..next() % 12).map(|_| next() % 4).collect();
            let b: Vec<u32> = (0..next() % 12).map(|_| next() % 4).collect();
            let ops = align(&a, &b, 1 << 20);
            assert!(covers(&ops, a.len(), b.len()), "{a:?} {b:?} {ops:?}");
            assert_eq!(score(&ops), optimal(&a, &b), "{a:?} {b:?}");
        }
    }

    #[test]
    fn large_alignments_stay_within_the_budget_and_complete() {
        // 3,000 × 3,000 tokens of four symbols: no anchors; a band of 16 cells a row
        let a: Vec<u32> = (0..3000).map(|i| (i * 7 % 4) as u32).collect();
        let b: Vec<u32> = (0..3000).map(|i| (i * 5 % 4) as u32).collect();
        let ops = align(&a, &b, 100_000);
        assert!(covers(&ops, a.len(), b.len()));
        // anchors: unique tokens keep the long shared parts aligned
        let a: Vec<u32> = (0..5000).collect();
        let b: Vec<u32> = (0..5000).map(|i| if i % 100 == 0 { 9_999_999 } else { i }).collect();
        let ops = align(&a, &b, 10_000);
        assert!(covers(&ops, a.len(), b.len()));
        assert_eq!(ops.iter().filter(|o| matches!(o, Op::Match(..))).count(), 4950);
    }
}
