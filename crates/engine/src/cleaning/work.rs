//! A count of the bytes the cleaner and the frame-cut suggestion read, so that tests can bound their work
//! by counting instead of timing: every step must cost time linear in the document, and a scan of the
//! line or the document once per match shows up here as a count that grows with the matches.
//!
//! The count is per thread (a plain `usize`, cheap enough to keep in every build); work done for a
//! caller on other threads (rayon) is carried back to the caller's count with [`measure`] and [`add`].

use std::cell::Cell;

thread_local! {
    static SCANNED: Cell<usize> = const { Cell::new(0) };
}

/// Counts `n` bytes read.
#[inline]
pub fn add(n: usize) {
    SCANNED.with(|c| c.set(c.get().wrapping_add(n)));
}

/// Counts the bytes of `s` and gives it back: `scan(&text[a..b]).split_whitespace()`.
#[inline]
pub fn scan(s: &str) -> &str {
    add(s.len());
    s
}

/// Bytes counted on this thread so far.
pub fn scanned() -> usize {
    SCANNED.with(Cell::get)
}

/// Runs `f` and returns what it counted on this thread, leaving this thread's count as it was: a
/// parallel step sums its pieces' counts and [`add`]s them on the calling thread once.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = SCANNED.with(|c| c.replace(0));
    let out = f();
    let counted = SCANNED.with(|c| c.replace(before));
    (out, counted)
}
