//! `chaff eval` scores what users run: by default `chaff mine --all` on the dataset's root (the idiom
//! filter across sites on), then each page cleaned exactly as `chaff clean --include-pending --text`
//! cleans it. The text it dumps of every page is the text the command line writes, byte for byte.

use std::fs;
use std::path::Path;

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use run::{chaff, stderr};

fn samples() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/sample-corpora"))
}

/// A dataset root in `work` made of the sample sources `sources` (their pages and template spans: the
/// gold is derived from them).
fn dataset(work: &Path, sources: &[&str]) -> std::path::PathBuf {
    let root = work.join("root");
    for source in sources {
        fs::create_dir_all(root.join(source)).unwrap();
        for e in fs::read_dir(samples().join(source)).unwrap() {
            let p = e.unwrap().path();
            fs::copy(&p, root.join(source).join(p.file_name().unwrap())).unwrap();
        }
    }
    root
}

/// A dataset root in `work` of two HTML sites made of the halves of html_news's pages (each page with its
/// template spans): two sources that share their template, so the filter across sources has strings to
/// flag.
fn html_halves(work: &Path) -> std::path::PathBuf {
    let root = work.join("root");
    let mut pages: Vec<std::path::PathBuf> = fs::read_dir(samples().join("html_news"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    let half = pages.len() / 2;
    for (k, page) in pages.iter().enumerate() {
        let site = root.join(if k < half { "news_a" } else { "news_b" });
        fs::create_dir_all(&site).unwrap();
        let stem = page.file_stem().unwrap().to_str().unwrap();
        fs::copy(page, site.join(format!("{stem}.html"))).unwrap();
        let spans = page.with_file_name(format!("{stem}.template.json"));
        fs::copy(&spans, site.join(format!("{stem}.template.json"))).unwrap();
    }
    root
}

/// Asserts that `chaff eval ROOT --input INPUT`'s dumped pages equal `chaff mine --all ROOT` followed by
/// `chaff clean --include-pending --text` of each site, page for page.
fn eval_is_the_users_path(sources: &[&str], input: &str) {
    let work = tempfile::tempdir().unwrap();
    let root = dataset(work.path(), sources);
    users_path_on(work.path(), &root, sources, input);
}

fn users_path_on(work: &Path, root: &Path, sources: &[&str], input: &str) {
    let root = root.to_str().unwrap();
    let o = chaff(&["mine", "--all", root, "--rules-dir", "rules"], work);
    assert!(o.status.success(), "mine --all: {}", stderr(&o));
    let o = chaff(
        &["eval", root, "--input", input, "--protocol", "in-sample", "--method", "chaff", "--dump", "dump"],
        work,
    );
    assert!(o.status.success(), "eval: {}", stderr(&o));
    let mut pages = 0;
    for source in sources {
        let rules = format!("rules/{source}.toml");
        let out = format!("out/{source}");
        let site = format!("{root}/{source}");
        let o = chaff(&["clean", "--rules", &rules, "--include-pending", "--text", &site, "--out", &out], work);
        assert!(o.status.success(), "clean {source}: {}", stderr(&o));
        for e in fs::read_dir(work.join(&out)).unwrap() {
            let p = e.unwrap().path();
            let id = p.file_stem().unwrap().to_string_lossy().into_owned();
            let dumped = work.join("dump/in-sample").join(source).join(format!("{id}.txt"));
            let dumped = fs::read_to_string(&dumped).unwrap_or_else(|e| panic!("{}: {e}", dumped.display()));
            assert_eq!(dumped, fs::read_to_string(&p).unwrap(), "{source}/{id}: eval's text is not clean's");
            pages += 1;
        }
    }
    assert!(pages >= 50, "{pages} pages compared");
}

#[test]
fn eval_reads_html_sites_as_mine_all_does_when_it_compares_them_across_sites() {
    let work = tempfile::tempdir().unwrap();
    let root = html_halves(work.path());
    users_path_on(work.path(), &root, &["news_a", "news_b"], "html");
}

#[test]
fn eval_scores_the_text_mine_all_and_clean_write_on_text_sources() {
    eval_is_the_users_path(&["comments", "mixed_templates", "optional_parts", "sevendays"], "txt");
}

#[test]
fn eval_scores_the_text_mine_all_and_clean_text_write_on_html_pages() {
    eval_is_the_users_path(&["html_news"], "html");
}
