//! A documentation site's pages, mined and cleaned by the real binary: its code blocks keep their lines.
//! Snippets on such a site start and end alike (`use acme::Config;`, `Ok(())`, `}`), so mining finds those
//! lines on every page and makes them template strings, the closing ones a header string; the page view
//! keeps a `<pre>`'s line breaks, and stage `preformatted` lets no cut string in a `<pre>` cut and gives
//! back what the rules took inside the article's element.

use std::fs;
use std::path::Path;

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use run::{chaff, chaff_stdin, stderr};

const WORDS: &[&str] = &[
    "parser",
    "reads",
    "the",
    "configuration",
    "file",
    "before",
    "server",
    "starts",
    "and",
    "reports",
    "every",
    "error",
    "with",
    "line",
    "found",
    "it",
    "on",
    "a",
    "worker",
    "thread",
    "retries",
    "request",
    "after",
    "timeout",
    "cache",
    "keeps",
    "value",
    "for",
    "each",
    "key",
];

/// A sentence of 12 to 19 words, from `seed`.
fn sentence(seed: &mut u64) -> String {
    let mut next = || {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*seed >> 33) as usize
    };
    let n = 12 + next() % 8;
    let words: Vec<&str> = (0..n).map(|_| WORDS[next() % WORDS.len()]).collect();
    let s = words.join(" ");
    format!("{}{}.", s[..1].to_uppercase(), &s[1..])
}

/// The code block of page `i`: its first and last lines the same on every page, its middle its own, the
/// function's body indented.
fn code(i: usize) -> Vec<String> {
    vec![
        "use acme::Config;".to_string(),
        "fn main() -> acme::Result<()> {".to_string(),
        format!("    let config = Config::load(\"site{i}.toml\")?;"),
        format!("    config.set_workers({});", i + 2),
        "    Ok(())".to_string(),
        "}".to_string(),
    ]
}

fn page(i: usize, seed: &mut u64) -> String {
    let menu: String = ["Guides", "Reference", "Tutorials", "Changelog", "Community"]
        .iter()
        .map(|m| format!("<li><a href=\"/{m}\">{m}</a></li>"))
        .collect();
    let paragraph = |seed: &mut u64| format!("<p>{} {} {}</p>", sentence(seed), sentence(seed), sentence(seed));
    format!(
        "<html><head><title>Guide {i} - Acme Docs</title></head><body>\
         <header><a href=\"/\">Acme Docs</a> <a href=\"/search\">Search the documentation</a></header>\
         <nav><ul>{menu}</ul></nav><main><article><h1>Guide {i}</h1>{}<pre><code>{}</code></pre>{}{}</article>\
         <div class=\"feedback\">Was this page helpful? Tell us what we can do better.</div></main>\
         <footer>Copyright 2026 Acme Inc. All rights reserved. Privacy policy and terms of use.</footer></body></html>",
        paragraph(seed),
        code(i).join("\n"),
        paragraph(seed),
        paragraph(seed),
    )
}

/// Mines ten pages of the site and cleans page 3 (`extra`: flags for `chaff clean`).
fn cleaned(dir: &Path, extra: &[&str]) -> String {
    let corpus = dir.join("docs");
    if !corpus.exists() {
        fs::create_dir(&corpus).unwrap();
        let mut seed = 11;
        for i in 0..10 {
            fs::write(corpus.join(format!("{i:02}.html")), page(i, &mut seed)).unwrap();
        }
        let o = chaff(&["mine", "docs", "--rules-dir", "rules"], dir);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let mut args = vec!["clean", "--rules", "rules/docs.toml", "--include-pending", "--text", "-"];
    args.extend_from_slice(extra);
    let o = chaff_stdin(&args, dir, &fs::read(corpus.join("03.html")).unwrap());
    assert!(o.status.success(), "{}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn a_documentation_sites_code_blocks_keep_every_line_and_its_template_goes() {
    let dir = tempfile::tempdir().unwrap();
    let text = cleaned(dir.path(), &[]);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| *l == "use acme::Config;").unwrap_or_else(|| panic!("{text}"));
    assert_eq!(lines[at..at + 6], code(3), "the snippet, a statement a line, indented: {text}");
    for template in ["Acme Docs", "Search the documentation", "Changelog", "Was this page helpful", "Copyright"] {
        assert!(!text.contains(template), "{template:?} is template: {text}");
    }
    // the snippet's common last lines are a header string to mining (most of each article is below
    // them): without the stage, they cut the headline, the first paragraph and the snippet
    let off = cleaned(dir.path(), &["--off", "preformatted"]);
    assert!(!off.contains("Guide 3") && !off.contains("Config::load"), "{off}");
    assert!(off.contains(text.lines().last().unwrap()), "the paragraphs under the snippet stay: {off}");
}
