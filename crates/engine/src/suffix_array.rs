//! The suffix array over the corpus's token ids (thesis §3.2 step 3, §4.2) and its LCP array
//! (step 4: Kasai et al., linear time, clamped at document ends).
//!
//! Built with the `suffix` crate, which sorts the suffixes of a `&str`: each token id is encoded as one
//! `char` (skipping the surrogate range), so UTF-8 byte order equals id order, and only suffixes that start
//! on a char boundary are kept. Frequent tokens get small ids, so the encoded text stays short. With the
//! `libsais` feature the integer ids are sorted directly by libsais instead (about 10× faster).

/// The id that ends every document. It never matches anything: common prefixes stop there.
pub const SEPARATOR: u32 = 0;

/// Largest id the char encoding can carry.
#[cfg_attr(feature = "libsais", allow(dead_code))]
const MAX_CHAR_ID: u32 = 0x10FFFF - 0x800;

/// Suffix array of `ids`: the start positions of all suffixes in lexicographic order of id sequences.
pub fn build(ids: &[u32], alphabet: u32) -> Vec<u32> {
    if ids.is_empty() {
        return Vec::new();
    }
    #[cfg(feature = "libsais")]
    {
        build_libsais(ids, alphabet)
    }
    #[cfg(not(feature = "libsais"))]
    {
        if alphabet <= MAX_CHAR_ID { build_suffix_crate(ids) } else { build_doubling(ids) }
    }
}

fn id_char(id: u32) -> char {
    let code = if id < 0xD800 { id } else { id + 0x800 };
    char::from_u32(code).expect("id within char range")
}

/// `suffix` crate on char-encoded ids.
pub fn build_suffix_crate(ids: &[u32]) -> Vec<u32> {
    let mut text = String::with_capacity(ids.len() * 2);
    // token index of each byte offset that starts a char
    let mut token_at = Vec::with_capacity(ids.len() * 2);
    for (i, &id) in ids.iter().enumerate() {
        let c = id_char(id);
        text.push(c);
        token_at.push(i as u32);
        token_at.extend(std::iter::repeat_n(u32::MAX, c.len_utf8() - 1));
    }
    let table = suffix::SuffixTable::new(text);
    table.table().iter().map(|&b| token_at[b as usize]).filter(|&t| t != u32::MAX).collect()
}

/// Prefix doubling: O(n log² n), for vocabularies too large for the char encoding.
pub fn build_doubling(ids: &[u32]) -> Vec<u32> {
    let n = ids.len();
    let mut sa: Vec<u32> = (0..n as u32).collect();
    let mut rank: Vec<u64> = ids.iter().map(|&x| u64::from(x)).collect();
    let mut tmp = vec![0u64; n];
    let mut k = 1;
    loop {
        let key = |i: u32, rank: &[u64]| {
            let i = i as usize;
            (rank[i], if i + k < n { rank[i + k] + 1 } else { 0 })
        };
        sa.sort_unstable_by_key(|&i| key(i, &rank));
        tmp[sa[0] as usize] = 0;
        for w in 1..n {
            let bump = u64::from(key(sa[w - 1], &rank) != key(sa[w], &rank));
            tmp[sa[w] as usize] = tmp[sa[w - 1] as usize] + bump;
        }
        std::mem::swap(&mut rank, &mut tmp);
        if rank[sa[n - 1] as usize] as usize == n - 1 || k >= n {
            return sa;
        }
        k *= 2;
    }
}

#[cfg(feature = "libsais")]
fn build_libsais(ids: &[u32], alphabet: u32) -> Vec<u32> {
    use libsais::SuffixArrayConstruction;
    use libsais::suffix_array::AlphabetSize;
    let mut text: Vec<i32> = ids.iter().map(|&x| x as i32).collect();
    let mut construction = SuffixArrayConstruction::for_text_mut(&mut text).in_owned_buffer32().single_threaded();
    // SAFETY: every id is below `alphabet` and non-negative (ids are u32 below 2^31).
    unsafe {
        construction = construction.with_alphabet_size(AlphabetSize::new(alphabet.max(1) as i32));
    }
    let sa = construction.run().expect("libsais suffix array");
    sa.suffix_array().iter().map(|&x| x as u32).collect()
}

/// LCP array: `lcp[i]` = length of the common prefix of suffixes `sa[i-1]` and `sa[i]` (0 for i = 0),
/// never counting past a [`SEPARATOR`]: a repeated string never spans two documents.
///
/// Kasai et al.'s algorithm, O(n). `suffix`'s own `lcp_lens` compares neighbours from scratch, which is
/// quadratic on templated text where neighbours share kilobytes.
pub fn lcp(ids: &[u32], sa: &[u32]) -> Vec<u32> {
    let chunk = ids.len().div_ceil(rayon::current_num_threads().max(1) * 4).max(1 << 16);
    lcp_in_chunks(ids, sa, chunk)
}

/// [`lcp`] with the text's positions in chunks of `chunk`, one thread each: a chunk starts from h = 0,
/// which is a lower bound as any carried h is, so each position's length is the same; only the first
/// comparisons of a chunk are not skipped.
fn lcp_in_chunks(ids: &[u32], sa: &[u32], chunk: usize) -> Vec<u32> {
    use rayon::prelude::*;
    let n = ids.len();
    let chunk = chunk.max(1);
    let mut rank = vec![0u32; n];
    for (r, &p) in sa.iter().enumerate() {
        rank[p as usize] = r as u32;
    }
    let by_position: Vec<Vec<u32>> = (0..n.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let (from, to) = (c * chunk, ((c + 1) * chunk).min(n));
            let mut out = Vec::with_capacity(to - from);
            let mut h: usize = 0;
            for i in from..to {
                let r = rank[i] as usize;
                if r == 0 {
                    h = 0;
                    out.push(0);
                    continue;
                }
                let j = sa[r - 1] as usize;
                while i + h < n && j + h < n && ids[i + h] == ids[j + h] && ids[i + h] != SEPARATOR {
                    h += 1;
                }
                out.push(h as u32);
                h = h.saturating_sub(1);
            }
            out
        })
        .collect();
    let mut lcp = vec![0u32; n];
    for (i, h) in by_position.into_iter().flatten().enumerate() {
        lcp[rank[i] as usize] = h;
    }
    lcp
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive_sa(ids: &[u32]) -> Vec<u32> {
        let mut sa: Vec<u32> = (0..ids.len() as u32).collect();
        sa.sort_by(|&a, &b| ids[a as usize..].cmp(&ids[b as usize..]));
        sa
    }

    fn naive_lcp(ids: &[u32], sa: &[u32]) -> Vec<u32> {
        (0..sa.len())
            .map(|r| {
                if r == 0 {
                    return 0;
                }
                let (a, b) = (&ids[sa[r - 1] as usize..], &ids[sa[r] as usize..]);
                a.iter().zip(b).take_while(|(x, y)| x == y && **x != SEPARATOR).count() as u32
            })
            .collect()
    }

    /// Random corpora: small alphabets so repeats are common; documents end with the separator.
    fn corpus() -> impl Strategy<Value = Vec<u32>> {
        prop::collection::vec(prop::collection::vec(1u32..5, 0..12), 1..6)
            .prop_map(|docs| docs.into_iter().flat_map(|d| d.into_iter().chain([SEPARATOR])).collect())
    }

    proptest! {
        #[test]
        fn suffix_crate_matches_brute_force(ids in corpus()) {
            prop_assert_eq!(build_suffix_crate(&ids), naive_sa(&ids));
        }

        /// `build` is libsais with the `libsais` feature, the `suffix` crate without.
        #[test]
        fn build_matches_brute_force(ids in corpus()) {
            prop_assert_eq!(build(&ids, 5), naive_sa(&ids));
        }

        #[test]
        fn doubling_matches_brute_force(ids in corpus()) {
            prop_assert_eq!(build_doubling(&ids), naive_sa(&ids));
        }

        #[test]
        fn kasai_matches_brute_force(ids in corpus()) {
            let sa = naive_sa(&ids);
            prop_assert_eq!(lcp(&ids, &sa), naive_lcp(&ids, &sa));
        }

        /// Each chunk starts afresh: its positions' lengths are those of one pass over the whole text.
        #[test]
        fn kasai_in_chunks_matches_brute_force(ids in corpus(), chunk in 1usize..8) {
            let sa = naive_sa(&ids);
            prop_assert_eq!(lcp_in_chunks(&ids, &sa, chunk), naive_lcp(&ids, &sa));
        }
    }

    #[test]
    fn large_ids_skip_surrogates() {
        let ids = [0xD7FF, 0xD800, 0xE000, 5, 0xD800, 0];
        assert_eq!(build_suffix_crate(&ids), naive_sa(&ids));
    }

    #[test]
    fn lcp_is_linear_on_identical_documents() {
        // 300 identical documents of 2,000 tokens: the quadratic scan would take minutes.
        let doc: Vec<u32> = (1..=2000).collect();
        let ids: Vec<u32> = (0..300).flat_map(|_| doc.iter().copied().chain([SEPARATOR])).collect();
        let sa = build(&ids, 2001);
        let l = lcp(&ids, &sa);
        assert_eq!(l.iter().copied().max(), Some(2000));
    }
}
