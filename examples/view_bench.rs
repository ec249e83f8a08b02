//! The page view measured: how its lines agree with the corpora's `.txt` (a block-aware stripper's text
//! of the same page), and how fast it is built, against html2text's rendering and html5ever's bare
//! tokenizer, on the shared corpora's HTML and on the same pages minified (one line each) and one
//! generated 5 MB one-line page.
//!
//! `cargo run --release --example view_bench [-- CORPORA [--worst N] [--reading noscript=0,hidden=0]
//! [--check-render] [--write-txt DIR] [--speed | --no-speed]]`
//!
//! CORPORA defaults to `../shared/corpora`; `--worst N` lists the N pages that disagree most;
//! `--check-render` lists what the view hides that html2text shows; `--write-txt DIR` writes the views
//! as a corpus of `.txt` pages with their gold, outside the repository; `--speed` skips the agreement,
//! `--no-speed` the timings.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use chaff::reading::render_html;
use chaff::view::agreement::common_lines;
use chaff::view::{PageView, Reading};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts};

struct Page {
    path: PathBuf,
    html: String,
    txt: String,
}

fn pages(dataset: &Path) -> Vec<Page> {
    let mut out = Vec::new();
    let mut sites: Vec<_> = fs::read_dir(dataset).expect("dataset").flatten().map(|e| e.path()).collect();
    sites.sort();
    for site in sites.into_iter().filter(|p| p.is_dir()) {
        let mut files: Vec<_> = fs::read_dir(&site).expect("site").flatten().map(|e| e.path()).collect();
        files.sort();
        for html_path in files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "html")) {
            let txt_path = html_path.with_extension("txt");
            let (Ok(html), Ok(txt)) = (fs::read(&html_path), fs::read_to_string(&txt_path)) else { continue };
            out.push(Page { path: html_path, html: String::from_utf8_lossy(&html).into_owned(), txt });
        }
    }
    out
}

struct Agreement {
    pages: usize,
    exact: usize,
    txt_lines: usize,
    view_lines: usize,
    common: usize,
    /// per page: (missing + extra lines, path, missing, extra)
    worst: Vec<(usize, PathBuf, Vec<String>, Vec<String>)>,
}

/// With `check_render`, prints the .txt lines of 3 words or more that the view drops and html2text (which
/// reads the page's CSS) shows: what the view may hide wrongly.
fn agreement(pages: &[Page], reading: Reading, check_render: bool) -> Agreement {
    let mut a = Agreement { pages: 0, exact: 0, txt_lines: 0, view_lines: 0, common: 0, worst: Vec::new() };
    for p in pages {
        let (view, _) = PageView::of_html_reading(&p.html, reading);
        let v: Vec<&str> = if view.text().is_empty() { Vec::new() } else { view.text().split('\n').collect() };
        let t: Vec<&str> = p.txt.lines().filter(|l| !l.is_empty()).collect();
        let common = common_lines(&v, &t);
        a.pages += 1;
        a.exact += usize::from(v == t);
        a.txt_lines += t.len();
        a.view_lines += v.len();
        a.common += common;
        if check_render {
            // .txt lines the view drops that html2text (which reads the page's CSS) shows
            let vs: std::collections::HashSet<&str> = v.iter().copied().collect();
            let shown = render_html(&p.html);
            let shown = shown.split_whitespace().collect::<Vec<_>>().join(" ");
            let dropped: Vec<&&str> =
                t.iter().filter(|l| !vs.contains(**l) && l.split_whitespace().count() >= 3).collect();
            let in_render: Vec<&&str> = dropped.iter().copied().filter(|l| shown.contains(**l)).collect();
            if !in_render.is_empty() {
                println!(
                    "  {} of {} dropped lines shown by html2text in {}: {:?}",
                    in_render.len(),
                    dropped.len(),
                    p.path.display(),
                    in_render.iter().take(3).collect::<Vec<_>>()
                );
            }
        }
        if common < t.len().max(v.len()) {
            let vs: std::collections::HashSet<&str> = v.iter().copied().collect();
            let ts: std::collections::HashSet<&str> = t.iter().copied().collect();
            let missing = t.iter().filter(|l| !vs.contains(*l)).map(|s| s.to_string()).collect();
            let extra = v.iter().filter(|l| !ts.contains(*l)).map(|s| s.to_string()).collect();
            a.worst.push((t.len() + v.len() - 2 * common, p.path.clone(), missing, extra));
        }
    }
    a.worst.sort_by_key(|w| std::cmp::Reverse(w.0));
    a
}

/// Writes each page's view as `<id>.txt`, with its gold beside it, under `out` (laid out as the corpora),
/// to score chaff's text path on the view instead of the corpora's `.txt`.
fn write_txt(pages: &[Page], corpora: &Path, out: &Path, reading: Reading) {
    for p in pages {
        let to = out.join(p.path.strip_prefix(corpora).expect("under the corpora")).with_extension("txt");
        fs::create_dir_all(to.parent().expect("a site folder")).expect("writable output");
        let (view, _) = PageView::of_html_reading(&p.html, reading);
        fs::write(&to, format!("{}\n", view.text())).expect("writable output");
        let gold = p.path.with_extension("gold.txt");
        fs::copy(&gold, to.with_extension("gold.txt")).expect("a gold beside the page");
    }
}

/// html5ever's tokenizer alone (no tree, no rendering), as a floor for any html5ever-based reading.
fn tokenize_only(html: &str) -> usize {
    struct Count(std::cell::Cell<usize>);
    impl TokenSink for Count {
        type Handle = ();
        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            if let Token::CharacterTokens(t) = token {
                self.0.set(self.0.get() + t.len());
            }
            TokenSinkResult::Continue
        }
    }
    let tok = Tokenizer::new(Count(std::cell::Cell::new(0)), TokenizerOpts::default());
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(html));
    let _ = tok.feed(&queue);
    tok.end();
    tok.sink.0.get()
}

fn mb_per_s(bytes: usize, secs: f64) -> f64 {
    bytes as f64 / 1e6 / secs
}

/// The best of three runs over all pages (the first also warms the caches).
fn time<F: FnMut(&str)>(htmls: &[&str], mut f: F) -> f64 {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            for h in htmls {
                f(h);
            }
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn speed(label: &str, htmls: &[&str], html2text: bool) {
    let bytes: usize = htmls.iter().map(|h| h.len()).sum();
    let view = time(htmls, |h| {
        std::hint::black_box(PageView::of_html(h));
    });
    let (mut shown, mut runs, mut work) = (0, 0, 0);
    for h in htmls {
        let (v, w) = PageView::of_html_reading(h, Reading::default());
        shown += v.text().len();
        runs += v.map().runs();
        work += w;
    }
    let tok = time(htmls, |h| {
        std::hint::black_box(tokenize_only(h));
    });
    print!(
        "{label}: {:.1} MB in {} pages | view {:.0} MB/s ({view:.2} s) | html5ever tokenizer only {:.0} MB/s ({tok:.2} s)",
        bytes as f64 / 1e6,
        htmls.len(),
        mb_per_s(bytes, view),
        mb_per_s(bytes, tok)
    );
    if html2text {
        let h2t = time(htmls, |h| {
            std::hint::black_box(render_html(h));
        });
        print!(" | html2text render {:.1} MB/s ({h2t:.2} s)", mb_per_s(bytes, h2t));
    }
    println!();
    println!(
        "  view text {:.1} MB, map {} runs ({:.1} MB), {:.2} bytes examined per byte",
        shown as f64 / 1e6,
        runs,
        runs as f64 * 16.0 / 1e6,
        work as f64 / bytes as f64
    );
}

/// A minified page of about `size` bytes on one line: nested blocks, inline links, entities, scripts.
fn generated_one_line(size: usize) -> String {
    let mut s = String::from(
        "<!DOCTYPE html><html><head><title>A generated page</title><style>p{margin:0}</style></head><body>",
    );
    let mut i = 0;
    while s.len() < size {
        s.push_str(&format!(
            "<div class=\"row r{i}\"><ul><li><a href=\"/a/{i}\">Item {i}</a></li><li>Caf&eacute; &amp; bar</li></ul><p>Paragraph {i} with <b>bold</b> text&nbsp;and <span style=\"display:none\">hidden</span> words.</p><script>var x{i} = '<p>' + {i};</script></div>"
        ));
        i += 1;
    }
    s.push_str("</body></html>");
    s
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let corpora = args.first().filter(|a| !a.starts_with("--")).map_or("../shared/corpora", |s| s.as_str());
    let worst =
        args.iter().position(|a| a == "--worst").and_then(|i| args.get(i + 1)).map_or(0, |n| n.parse().unwrap());
    let mut reading = Reading::default();
    if let Some(r) = args.iter().position(|a| a == "--reading").and_then(|i| args.get(i + 1)) {
        for kv in r.split(',') {
            match kv {
                "noscript=0" => reading.noscript = false,
                "noscript=1" => reading.noscript = true,
                "hidden=0" => reading.drop_hidden = false,
                "hidden=1" => reading.drop_hidden = true,
                _ => panic!("unknown reading {kv}"),
            }
        }
    }
    let speed_only = args.iter().any(|a| a == "--speed");
    let mut all: Vec<Page> = Vec::new();
    for dataset in ["dragnet", "cleanportaleval"] {
        let dir = Path::new(corpora).join(dataset);
        if !dir.is_dir() {
            eprintln!("no {} (the shared corpora): skipped", dir.display());
            continue;
        }
        let ps = pages(&dir);
        if let Some(out) = args.iter().position(|a| a == "--write-txt").and_then(|i| args.get(i + 1)) {
            write_txt(&ps, Path::new(corpora), Path::new(out), reading);
        }
        if !speed_only {
            let a = agreement(&ps, reading, args.iter().any(|a| a == "--check-render"));
            println!(
                "{dataset} ({reading:?}): {} pages, {} agree exactly ({:.1}%); lines: {} of {} .txt lines in the view in order ({:.2}%), {} of {} view lines in the .txt ({:.2}%)",
                a.pages,
                a.exact,
                100.0 * a.exact as f64 / a.pages as f64,
                a.common,
                a.txt_lines,
                100.0 * a.common as f64 / a.txt_lines as f64,
                a.common,
                a.view_lines,
                100.0 * a.common as f64 / a.view_lines as f64
            );
            for (diff, path, missing, extra) in a.worst.iter().take(worst) {
                println!(
                    "  {diff:5} {}: {} .txt lines not in the view, {} view lines not in the .txt",
                    path.display(),
                    missing.len(),
                    extra.len()
                );
                for l in missing.iter().take(6) {
                    println!("      - {}", l.chars().take(150).collect::<String>());
                }
                for l in extra.iter().take(6) {
                    println!("      + {}", l.chars().take(150).collect::<String>());
                }
            }
        }
        all.extend(ps);
    }
    if args.iter().any(|a| a == "--no-speed") {
        return;
    }
    let htmls: Vec<&str> = all.iter().map(|p| p.html.as_str()).collect();
    if !htmls.is_empty() {
        speed("corpora HTML", &htmls, true);
        let minified: Vec<String> = htmls.iter().map(|h| h.replace(['\n', '\r'], " ")).collect();
        let minified: Vec<&str> = minified.iter().map(|s| s.as_str()).collect();
        speed("corpora HTML minified (one line a page)", &minified, true);
    }
    let big = generated_one_line(5_000_000);
    speed("generated one-line page", &[big.as_str()], true);
}
