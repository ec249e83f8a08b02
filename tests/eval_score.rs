//! The scorer of `chaff eval`: the bit-parallel LCS against a brute-force oracle and a plain dynamic
//! programme, the alignment behind the oracle editor, P/R/F1 edge cases, and span-level scoring.

use chaff::cleaning::normalize;
use chaff::eval::score::{Gold, Prf, align, lcs_len, score, word_spans, words};
use chaff::eval::spans::{SpanCounts, score_spans};
use proptest::prelude::*;

/// Longest common subsequence by enumerating every subsequence of `a` (small inputs only).
fn brute_force(a: &[u32], b: &[u32]) -> usize {
    let is_subsequence = |sub: &[u32]| {
        let mut it = b.iter();
        sub.iter().all(|x| it.any(|y| y == x))
    };
    (0u32..1 << a.len())
        .filter_map(|mask| {
            let sub: Vec<u32> = (0..a.len()).filter(|i| mask >> i & 1 == 1).map(|i| a[i]).collect();
            is_subsequence(&sub).then_some(sub.len())
        })
        .max()
        .unwrap_or(0)
}

fn dp(a: &[u32], b: &[u32]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diag = 0;
        for (j, y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
            diag = up;
        }
    }
    row[b.len()]
}

proptest! {
    #[test]
    fn lcs_equals_brute_force(a in prop::collection::vec(0u32..3, 0..11), b in prop::collection::vec(0u32..3, 0..11)) {
        prop_assert_eq!(lcs_len(&a, &b), brute_force(&a, &b));
    }

    /// Long inputs cross many 64-bit blocks (and the carry between them).
    #[test]
    fn lcs_equals_dynamic_programme(a in prop::collection::vec(0u32..12, 0..400), b in prop::collection::vec(0u32..12, 0..400)) {
        prop_assert_eq!(lcs_len(&a, &b), dp(&a, &b));
        prop_assert_eq!(lcs_len(&b, &a), dp(&a, &b));
    }

    /// The aligned symbols of `a` are a common subsequence of maximal length, whatever symbols it prefers.
    #[test]
    fn alignment_is_a_longest_common_subsequence(a in prop::collection::vec(0u32..6, 0..200), b in prop::collection::vec(0u32..6, 0..200), preferred in prop::collection::vec(any::<bool>(), 0..200)) {
        let used = align(&a, &b, &preferred);
        prop_assert_eq!(used.len(), a.len());
        let sub: Vec<u32> = a.iter().zip(&used).filter(|(_, u)| **u).map(|(x, _)| *x).collect();
        prop_assert_eq!(sub.len(), dp(&a, &b));
        let mut it = b.iter();
        prop_assert!(sub.iter().all(|x| it.any(|y| y == x)), "aligned symbols are not a subsequence of b");
    }
}

fn close(p: Prf, precision: f64, recall: f64, f1: f64) {
    let ok = (p.precision - precision).abs() < 1e-9 && (p.recall - recall).abs() < 1e-9 && (p.f1 - f1).abs() < 1e-9;
    assert!(ok, "{p:?} != ({precision}, {recall}, {f1})");
}

#[test]
fn words_ignore_case_and_punctuation() {
    assert_eq!(words("The CAT's hat—ok?"), ["the", "cat", "s", "hat", "ok"]);
    close(score("the cat, sat!", "The Cat sat"), 1.0, 1.0, 1.0);
    assert_eq!(word_spans("«Здравствуй» мир"), [(2, 22), (25, 31)]);
}

#[test]
fn precision_and_recall_count_lcs_words() {
    // extracted: a b c d (4 words), gold: a c e (3 words), LCS a c = 2
    close(score("a b c d", "a c e"), 0.5, 2.0 / 3.0, 2.0 * 0.5 * (2.0 / 3.0) / (0.5 + 2.0 / 3.0));
    // order matters: a subsequence, not a bag
    close(score("b a", "a b"), 0.5, 0.5, 0.5);
}

#[test]
fn edge_cases_of_empty_texts() {
    close(score("", ""), 1.0, 1.0, 1.0);
    close(score("anything left", ""), 0.0, 1.0, 0.0);
    close(score("", "the article"), 1.0, 0.0, 0.0);
    close(score("--- ...", "the article"), 1.0, 0.0, 0.0);
    close(score("unrelated words", "the article"), 0.0, 0.0, 0.0);
    assert!(Gold::new(" ,; ").is_empty());
}

#[test]
fn macro_average_weighs_pages_equally() {
    let m = Prf::mean(&[Prf::from_counts(1, 1, 1), Prf::from_counts(0, 10, 10)]).unwrap();
    close(m, 0.5, 0.5, 0.5);
    assert!(Prf::mean(&[]).is_none());
}

#[test]
fn gold_alignment_marks_the_article_words_of_a_page() {
    let page = "Home News Sport\nThe mayor said the bridge opens in May.\nShare this story Home";
    let used = Gold::new("The mayor said the bridge opens in May.").align(page, &[]);
    let spans = word_spans(page);
    let kept: Vec<&str> = spans.iter().zip(&used).filter(|(_, u)| **u).map(|(s, _)| &page[s.0..s.1]).collect();
    assert_eq!(kept.join(" "), "The mayor said the bridge opens in May");
}

#[test]
fn span_scores_count_non_blank_characters() {
    let text = "MENU x\nbody text\nFOOT";
    // template: "MENU x" and "FOOT"; removed: "MENU" and "body"
    let c = score_spans(text, &[(0, 4), (7, 11)], &[(0, 6), (17, 21)]);
    assert_eq!(c, SpanCounts { hit: 4, removed: 8, template: 9 });
    assert_eq!(c.precision(), 0.5);
    assert!((c.recall() - 4.0 / 9.0).abs() < 1e-12);
    // nothing removed, no template: both 1
    let none = score_spans(text, &[], &[]);
    assert_eq!((none.precision(), none.recall()), (1.0, 1.0));
    // overlapping and out-of-range spans are normalized
    assert_eq!(normalize(&[(5, 9), (0, 6), (9, 9), (12, 14)]), vec![(0, 9), (12, 14)]);
    assert_eq!(score_spans(text, &[(0, 100), (2, 3)], &[(0, 6)]).removed, 17);
}
