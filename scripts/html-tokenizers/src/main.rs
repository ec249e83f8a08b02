//! Throughput of HTML tokenizers on real pages, and whether each gives the source offsets a page view
//! needs (the measurement behind the page view's reader, docs/results.md). Run from this folder:
//! cargo run --release -- ../../../shared/corpora
use std::time::Instant;

fn pages(root: &std::path::Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(root).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            pages(&p, out);
        } else if p.extension().is_some_and(|x| x == "html") {
            out.push(String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned());
        }
    }
}

fn time(name: &str, docs: &[String], f: impl Fn(&str) -> usize) {
    let bytes: usize = docs.iter().map(|d| d.len()).sum();
    let mut best = f64::MAX;
    let mut n = 0;
    for _ in 0..3 {
        let t = Instant::now();
        n = docs.iter().map(|d| f(d)).sum::<usize>();
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{name:<44} {:>7.1} MB/s  ({n} units)", bytes as f64 / 1e6 / best);
}

fn main() {
    let root = std::env::args().nth(1).unwrap_or("../shared/corpora".into());
    let mut docs = Vec::new();
    pages(std::path::Path::new(&root), &mut docs);
    let bytes: usize = docs.iter().map(|d| d.len()).sum();
    println!("{} pages, {:.1} MB", docs.len(), bytes as f64 / 1e6);
    time("chaff page view (hand-written, with map)", &docs, |d| chaff::view::PageView::of_html(d).text().len());
    time("html5gum 0.8, token spans", &docs, |d| {
        let emitter = html5gum::emitters::default::DefaultEmitter::<usize>::new_with_span();
        let mut n = 0;
        for t in html5gum::Tokenizer::new_with_emitter(d, emitter).flatten() {
            if let html5gum::emitters::default::Token::String(s) = t {
                n += s.span.end - s.span.start;
            }
        }
        n
    });
    time("html5gum 0.8, no spans", &docs, |d| {
        let mut n = 0;
        for t in html5gum::Tokenizer::new(d).flatten() {
            if let html5gum::Token::String(s) = t {
                n += s.len();
            }
        }
        n
    });
    time("html5tokenizer 0.5, per-character spans", &docs, |d| {
        let reader = html5tokenizer::offset::PosTrackingReader::new(d);
        let mut n = 0;
        for t in
            html5tokenizer::NaiveParser::new_with_emitter(reader, html5tokenizer::TracingEmitter::default()).flatten()
        {
            if let (html5tokenizer::Token::Char(_), _) = t {
                n += 1;
            }
        }
        n
    });
    time("tl 0.7 (DOM; raw slices give offsets)", &docs, |d| {
        tl::parse(d, tl::ParserOptions::default()).map(|v| v.nodes().len()).unwrap_or(0)
    });
}
