//! Compiles the bundled mutable patterns (`rules/mutable-patterns.toml`) into the automaton a process
//! loads instead of building it: nearly every rules file carries that list unchanged, and building its
//! automaton was a third of the work before a process's first page. The DFA is made as `mutable::build`
//! makes its lazy one (each pattern `^(?:…)$`, no captures, every match kind), every state determinized,
//! and written in the dense form: larger in the binary than the sparse one, but a process reads only the
//! pages its tokens reach, and a token is classified by indexing each state's transitions where the
//! sparse form searches them, which a batch pays for every distinct token it meets.
use std::path::PathBuf;

use regex_automata::MatchKind;
use regex_automata::dfa::{StartKind, dense};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_syntax::hir::{Hir, Look};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let source = manifest.join("../../rules/mutable-patterns.toml");
    println!("cargo::rerun-if-changed={}", source.display());
    println!("cargo::rerun-if-changed=build.rs");
    let text = std::fs::read_to_string(&source).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
    let file: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
    let patterns = file.get("pattern").and_then(|p| p.as_array()).expect("mutable-patterns.toml has [[pattern]]s");
    let hirs: Vec<Hir> = patterns
        .iter()
        .map(|p| {
            let regex = p.get("regex").and_then(|r| r.as_str()).expect("each [[pattern]] has a regex");
            let hir = regex_syntax::Parser::new().parse(regex).unwrap_or_else(|e| panic!("{regex}: {e}"));
            Hir::concat(vec![Hir::look(Look::Start), hir, Hir::look(Look::End)])
        })
        .collect();
    let nfa = thompson::Compiler::new()
        .configure(thompson::Config::new().nfa_size_limit(Some(10 << 20)).which_captures(WhichCaptures::None))
        .build_many_from_hir(&hirs)
        .expect("the bundled patterns compile");
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new().match_kind(MatchKind::All).start_kind(StartKind::Anchored).unicode_word_boundary(true),
        )
        .build_from_nfa(&nfa)
        .expect("the bundled patterns determinize");
    // the bytes after the padding are the DFA, to be read from an address aligned for a u32
    let (bytes, padding) = dfa.to_bytes_little_endian();
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("mutable-defaults.dfa");
    std::fs::write(&out, &bytes[padding..]).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}
