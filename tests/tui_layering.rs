//! The tuning UI's background miner takes a request and gives a mining back without knowing the session
//! that asked for it: `tui::miner` does not reach `tui::session` (the session asks the miner). The state
//! and the update and view that read it import each other (state ↔ update/view), as accepted.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Every module of `src/tui/` (a file, `mod.rs` naming its folder) and the UI modules it names
/// (`super::x`, `crate::tui::x`; a submodule's `super::` is its parent folder), by first segment under
/// `tui`.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let tui = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
    let mut files = Vec::new();
    let mut dirs = vec![tui.clone()];
    while let Some(d) = dirs.pop() {
        for e in fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&tui).unwrap();
        let top = rel.iter().next().unwrap().to_string_lossy().trim_end_matches(".rs").to_string();
        if top == "mod" {
            continue;
        }
        // a file directly in src/tui: `super::` is the UI; deeper, `super::super::` is
        let depth = rel.iter().count();
        let up = "super::".repeat(depth);
        let text = fs::read_to_string(&f).unwrap();
        let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        let code = code.split("#[cfg(test)]\nmod tests {").next().unwrap_or_default();
        let entry = g.entry(top.clone()).or_default();
        for prefix in [up.as_str(), "crate::tui::"] {
            for (at, _) in code.match_indices(prefix) {
                if code[..at].ends_with("super::") {
                    continue;
                }
                let rest = &code[at + prefix.len()..];
                let names: Vec<&str> = match rest.strip_prefix('{') {
                    Some(group) => group.split('}').next().unwrap_or_default().split(',').collect(),
                    None => vec![rest],
                };
                for n in names {
                    let m: String = n.trim().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    let module = tui.join(format!("{m}.rs")).exists() || tui.join(&m).is_dir();
                    if !m.is_empty() && m != top && module {
                        entry.insert(m);
                    }
                }
            }
        }
    }
    g
}

fn reaches(g: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from.to_string()];
    while let Some(m) = todo.pop() {
        if m == to {
            return true;
        }
        if seen.insert(m.clone()) {
            todo.extend(g.get(&m).into_iter().flatten().cloned());
        }
    }
    false
}

#[test]
fn the_miner_does_not_reach_the_session_that_asks_it() {
    let g = graph();
    assert!(g.get("session").is_some_and(|s| s.contains("miner")), "the session asks the miner: {g:?}");
    assert!(!reaches(&g, "miner", "session"), "tui::miner reaches tui::session: {:?}", g.get("miner"));
}
