//! The document-frequency histogram and the automatic cutoff (thesis §3.2 steps 8–9).
//!
//! Strings are binned by df as a fraction of the corpus's documents into 100 bins. The distribution is
//! bimodal: a power law of strings found in few documents, and a second mode of template strings found in
//! nearly all. The cutoff bin `b_c` minimizes equation 3.1,
//! `E(b_c) = Σ_{i<b_c} (i−x)²·h_i + Σ_{i≥b_c} (i−y)²·h_i` with `b_c = (x+y)/2`,
//! found by brute force over all pairs of mode positions `x < y` (100 bins: 4,950 pairs).

use serde::{Deserialize, Serialize};

pub const BINS: usize = 100;

/// A histogram bin, 0..=99: bin b holds strings with df/N in [b/100, (b+1)/100) (df = N in bin 99).
pub type CutoffBin = u8;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    pub counts: Vec<u64>,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram { counts: vec![0; BINS] }
    }
}

/// The bin of a string found in `df` of `docs` documents.
pub fn bin_of(df: u64, docs: u64) -> CutoffBin {
    if docs == 0 {
        return 0;
    }
    ((df * BINS as u64) / docs).min(BINS as u64 - 1) as CutoffBin
}

impl Histogram {
    pub fn add(&mut self, bin: CutoffBin) {
        self.counts[bin as usize] += 1;
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Equation 3.1's energy for modes `x < y`, cut at `(x + y)/2` rounded up.
    pub fn energy(&self, x: usize, y: usize) -> f64 {
        let b = (x + y).div_ceil(2);
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &h)| {
                let m = if i < b { x } else { y } as f64;
                (i as f64 - m).powi(2) * h as f64
            })
            .sum()
    }

    /// The automatic cutoff bin. Ties go to the lower bin: the thesis chooses the cutoff conservatively so
    /// as not to lose template strings, and leaves idioms to the second-level filter. An empty histogram
    /// gives 50.
    pub fn auto_cutoff(&self) -> CutoffBin {
        if self.total() == 0 {
            return (BINS / 2) as CutoffBin;
        }
        let mut best: Option<(f64, usize)> = None;
        for x in 0..BINS {
            for y in x + 1..BINS {
                let e = self.energy(x, y);
                let b = (x + y).div_ceil(2);
                let better = match best {
                    None => true,
                    Some((be, bb)) => e < be - 1e-9 || ((e - be).abs() <= 1e-9 && b < bb),
                };
                if better {
                    best = Some((e, b));
                }
            }
        }
        best.map_or(BINS / 2, |(_, b)| b) as CutoffBin
    }

    /// Counts on a log scale, 0..=1 per bin, for drawing: the template mode is small beside the power law.
    pub fn log_scaled(&self) -> Vec<f64> {
        let max = self.counts.iter().copied().max().unwrap_or(0);
        let lmax = ((max + 1) as f64).ln().max(f64::MIN_POSITIVE);
        self.counts.iter().map(|&c| ((c + 1) as f64).ln() / lmax * f64::from(u8::from(c > 0))).collect()
    }

    /// A text rendering for terminals: `rows` lines high, one column per bin, log scale, the cutoff marked.
    pub fn render_text(&self, rows: usize, auto: CutoffBin, chosen: CutoffBin) -> String {
        let scaled = self.log_scaled();
        let mut out = String::new();
        for r in (0..rows).rev() {
            out.push_str("  │");
            for v in &scaled {
                let level = v * rows as f64;
                out.push(if level > r as f64 + 0.5 {
                    '█'
                } else if level > r as f64 {
                    '▄'
                } else {
                    ' '
                });
            }
            out.push('\n');
        }
        out.push_str("  └");
        out.push_str(&"─".repeat(BINS));
        out.push('\n');
        out.push_str("   ");
        for b in 0..BINS as u8 {
            out.push(if b == chosen && b == auto {
                '▲'
            } else if b == chosen {
                '△'
            } else if b == auto {
                '^'
            } else {
                ' '
            });
        }
        out.push('\n');
        out.push_str(&format!(
            "   0%{:>w$}100%  df/docs · log count · ^ auto cutoff {auto}%{}\n",
            "",
            if chosen != auto { format!(" · △ chosen {chosen}%") } else { String::new() },
            w = BINS - 6
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hist(points: &[(usize, u64)]) -> Histogram {
        let mut h = Histogram::default();
        for &(b, c) in points {
            h.counts[b] += c;
        }
        h
    }

    #[test]
    fn bimodal_cutoff_falls_between_the_modes() {
        // power law on the left, template mode at 90–99%
        let mut pts: Vec<(usize, u64)> = (2..40).map(|b| (b, 100_000 / (b as u64 * b as u64))).collect();
        pts.extend((90..100).map(|b| (b, 40)));
        let c = hist(&pts).auto_cutoff();
        assert!((40..=90).contains(&c), "cutoff {c}");
    }

    #[test]
    fn two_clean_modes_cut_in_the_middle() {
        assert_eq!(hist(&[(10, 500), (90, 500)]).auto_cutoff(), 50);
        let c = hist(&[(5, 5000), (95, 20)]).auto_cutoff();
        assert!((6..=95).contains(&c), "cutoff {c}");
    }

    #[test]
    fn unimodal_and_empty_do_not_crash() {
        let c = hist(&[(3, 1000), (4, 600), (5, 300), (6, 100)]).auto_cutoff();
        assert!(c < 100);
        assert_eq!(Histogram::default().auto_cutoff(), 50);
        assert!(hist(&[(99, 7)]).auto_cutoff() <= 99);
    }

    #[test]
    fn bins_cover_zero_to_one() {
        assert_eq!(bin_of(10, 10), 99);
        assert_eq!(bin_of(2, 10), 20);
        assert_eq!(bin_of(1, 1000), 0);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// The brute force finds the minimum energy over all mode pairs.
        #[test]
        fn auto_cutoff_minimizes_energy(counts in prop::collection::vec(0u64..50, BINS)) {
            let h = Histogram { counts };
            let c = h.auto_cutoff() as usize;
            let best = (0..BINS).flat_map(|x| (x + 1..BINS).map(move |y| (x, y)))
                .map(|(x, y)| h.energy(x, y)).fold(f64::INFINITY, f64::min);
            let at_c = (0..BINS).flat_map(|x| (x + 1..BINS).map(move |y| (x, y)))
                .filter(|&(x, y)| (x + y).div_ceil(2) == c)
                .map(|(x, y)| h.energy(x, y)).fold(f64::INFINITY, f64::min);
            prop_assert!((at_c - best).abs() <= 1e-6 * best.max(1.0));
        }
    }
}
