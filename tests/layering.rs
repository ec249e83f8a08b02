//! The engine's modules import each other without cycles (docs/architecture.md states the layers): each
//! module of the workspace's crates (a file; the command line, the UI and test modules aside) is read for the
//! paths it names (`crate::a::b`, `super::c`, `chaff_engine::d`), and the graph they make has no cycle but
//! the ones listed as known.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The crates' sources, each with the prefix its modules are named by in the graph: the evaluation's and
/// the generator's as `eval::…` and `generate::…`, the engine's and the binary's library's bare.
const CRATES: &[(&str, &str)] =
    &[("crates/engine/src", ""), ("crates/eval/src", "eval"), ("crates/generate/src", "generate"), ("src", "")];

/// Cycles left to break, each a set of modules: none may be added.
const KNOWN: &[&[&str]] = &[
    // the oracle editor in three files that call each other: its decisions, the choices it offers, and
    // making one through the draft's actions
    &["eval::oracle::act", "eval::oracle::choices", "eval::oracle::editor"],
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A file's module path (`cleaning::block`), `src/lib.rs` and `mod.rs` files naming their folder.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts.join("::")
}

/// The code of a file without its comments and its test module.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") && lines.peek().is_some_and(|next| next.trim_start().starts_with("mod ")) {
            let next = lines.next().unwrap_or_default();
            if next.trim_end().ends_with('{') {
                break;
            }
            continue;
        }
        if !t.starts_with("//") {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The paths after `prefix` in `code` (`crate::a::b`, `super::{c, d}` as `c` and `d`).
fn paths_after(code: &str, prefix: &str) -> Vec<String> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        if code[..at].chars().last().is_some_and(ident) {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        let mut path = String::new();
        let mut chars = rest.chars().peekable();
        while let Some(&c) = chars.peek() {
            if ident(c) || c == ':' {
                path.push(c);
                chars.next();
            } else {
                break;
            }
        }
        let path = path.trim_end_matches(':').to_string();
        if chars.peek() == Some(&'{') && path.is_empty() {
            // `super::{a, b::c}`: each first segment
            let group: String = chars.take_while(|&c| c != '}').collect();
            for item in group.trim_start_matches('{').split(',') {
                let item = item.trim();
                if !item.is_empty() {
                    out.push(item.to_string());
                }
            }
        } else if !path.is_empty() {
            out.push(path);
        }
    }
    out
}

/// The longest module of `modules` that `path` names, if any.
fn resolve(modules: &BTreeSet<String>, path: &str) -> Option<String> {
    let segs: Vec<&str> = path.split("::").collect();
    (1..=segs.len()).rev().map(|k| segs[..k].join("::")).find(|m| modules.contains(m))
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let engine = |m: &str| {
        let top = m.split("::").next().unwrap_or("");
        !m.is_empty() && !matches!(top, "cli" | "tui") && m != "main" && !m.ends_with("::tests")
    };
    let named = |prefix: &str, m: String| match (prefix, m.is_empty()) {
        ("", _) => m,
        (_, true) => prefix.to_string(),
        (_, false) => format!("{prefix}::{m}"),
    };
    // module → (file, its crate's prefix)
    let mut by_module: BTreeMap<String, (PathBuf, &str)> = BTreeMap::new();
    for &(dir, prefix) in CRATES {
        let src = root.join(dir);
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for f in files {
            let m = named(prefix, module_of(&src, &f));
            if engine(&m) {
                by_module.insert(m, (f, prefix));
            }
        }
    }
    let modules: BTreeSet<String> = by_module.keys().cloned().collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, (file, prefix)) in &by_module {
        let code = code(&fs::read_to_string(file).unwrap());
        let parent = m.rsplit_once("::").map_or(String::new(), |(p, _)| p.to_string());
        let mut targets = Vec::new();
        // `crate::p`: the crate's own module, else the engine's (the evaluation imports the engine's modules
        // at its root)
        for p in paths_after(&code, "crate::") {
            let own = resolve(&modules, &named(prefix, p.clone())).filter(|t| t.as_str() != *prefix);
            targets.extend(own.or_else(|| resolve(&modules, &p)));
        }
        for p in paths_after(&code, "chaff_engine::") {
            targets.extend(resolve(&modules, &p));
        }
        for p in paths_after(&code, "super::") {
            targets.extend(resolve(&modules, &if parent.is_empty() { p } else { format!("{parent}::{p}") }));
        }
        let out = edges.entry(m.clone()).or_default();
        for t in targets {
            if t != *m && !m.starts_with(&format!("{t}::")) {
                out.insert(t);
            }
        }
    }
    edges
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        let g = t.g;
        for w in g.get(v).into_iter().flatten() {
            if !t.index.contains_key(w.as_str()) {
                visit(t, w);
                let lw = t.low[w.as_str()];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w.as_str()) {
                let iw = t.index[w.as_str()];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = BTreeSet::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.insert(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                t.out.push(comp);
            }
        }
    }
    let mut t =
        T { g, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), on: BTreeSet::new(), out: Vec::new() };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn the_engines_modules_import_each_other_without_cycles() {
    let g = graph();
    assert!(g.len() > 50, "the engine's modules are read: {}", g.len());
    assert!(g["automatic"].contains("merge") && g["cleaning::block"].contains("cleaning::list_items"), "edges found");
    assert!(
        g["eval::oracle::act"].contains("eval::oracle::editor") && g["eval::dataset"].contains("cleaning"),
        "{g:?}"
    );
    let known: Vec<BTreeSet<String>> = KNOWN.iter().map(|c| c.iter().map(|m| m.to_string()).collect()).collect();
    let found = cycles(&g);
    let new: Vec<&BTreeSet<String>> = found.iter().filter(|c| !known.contains(c)).collect();
    assert!(new.is_empty(), "import cycles: {new:?}");
}

/// The layers docs/architecture.md states, module by module: none imports a module above it.
#[test]
fn the_top_level_modules_are_layered_as_the_architecture_says() {
    let top = |m: &str| m.split("::").next().unwrap_or("").to_string();
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, to) in graph() {
        let from = top(&m);
        let entry = g.entry(from.clone()).or_default();
        entry.extend(to.iter().map(|t| top(t)).filter(|t| *t != from));
    }
    assert_eq!(cycles(&g), Vec::<BTreeSet<String>>::new(), "the top-level modules form no cycle");
    // the layers, bottom up: a module imports only modules of its layer's predecessors
    let layers: &[&[&str]] = &[
        &["clean_settings", "corpus", "view", "tokens"],
        &["mining"],
        &["rules"],
        &["cleaning", "lines", "merge"],
        &["idioms", "regions"],
        &["frame", "page"],
        &["settings"],
        &["automatic"],
        &["draft", "eval"],
    ];
    let level = |m: &str| layers.iter().position(|l| l.contains(&m));
    for (from, to) in &g {
        let Some(lf) = level(from) else { continue };
        for t in to {
            if let Some(lt) = level(t) {
                assert!(lt <= lf, "{from} (layer {lf}) imports {t} (layer {lt}), a layer above it");
            }
        }
    }
}
