//! The automaton a set of mutable patterns is matched with: a lazy DFA built from the patterns, or, for the
//! bundled list, the DFA the build determinized (`build.rs`), loaded without building anything.

use regex_automata::dfa::{Automaton as _, dense};
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::{Input, MatchError, PatternSet};

#[derive(Debug)]
pub(super) enum Automaton {
    /// Determinized a state at a time as tokens ask, into each thread's cache.
    Lazy(DFA),
    /// Every state determinized when chaff was built: nothing to build, no cache.
    Built(dense::DFA<&'static [u32]>),
}

impl Automaton {
    /// A thread's cache for this automaton, if it needs one.
    pub(super) fn create_cache(&self) -> Option<Cache> {
        match self {
            Automaton::Lazy(dfa) => Some(dfa.create_cache()),
            Automaton::Built(_) => None,
        }
    }

    /// Every pattern matching `input` into `found`, or the error of a DFA that gave up.
    pub(super) fn which(
        &self,
        cache: &mut Option<Cache>,
        input: &Input<'_>,
        found: &mut PatternSet,
    ) -> Result<(), MatchError> {
        match self {
            Automaton::Lazy(dfa) => {
                dfa.try_which_overlapping_matches(cache.get_or_insert_with(|| dfa.create_cache()), input, found)
            }
            Automaton::Built(dfa) => dfa.try_which_overlapping_matches(input, found),
        }
    }
}

/// Whether [`bundled`] has the build's DFA to give.
pub(super) const BUNDLED_BUILT: bool = cfg!(target_endian = "little");

/// The bundled list's DFA as the build wrote it (little-endian; elsewhere the list is built lazily).
#[cfg(target_endian = "little")]
pub(super) fn bundled() -> Option<Automaton> {
    /// The DFA's bytes at an address a u32 may be read from, as the dense form needs.
    #[repr(C, align(4))]
    struct Aligned<B: ?Sized> {
        bytes: B,
    }
    static ALIGNED: &Aligned<[u8]> =
        &Aligned { bytes: *include_bytes!(concat!(env!("OUT_DIR"), "/mutable-defaults.dfa")) };
    // SAFETY: the bytes are `to_bytes_little_endian` of a dense DFA built by this crate's build script
    // with the regex-automata this crate is compiled against (one version in the lock file), less the
    // padding before them, and aligned above; the header (label, endianness, version) is still checked,
    // only the transitions' validation (every page of the table read, at each start) is skipped.
    let (dfa, _) = unsafe { dense::DFA::from_bytes_unchecked(&ALIGNED.bytes) }.expect("the build's DFA deserializes");
    Some(Automaton::Built(dfa))
}

#[cfg(not(target_endian = "little"))]
pub(super) fn bundled() -> Option<Automaton> {
    None
}
