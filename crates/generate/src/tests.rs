//! The generator's tests: determinism, shapes of each source, spans and bodies consistent.

use super::random::days_from_civil;
use super::*;
use std::collections::{BTreeMap, BTreeSet};

fn all_small(seed: u64) -> Vec<GeneratedSource> {
    vec![
        sevendays(30, seed),
        html_news(20, seed),
        mixed_templates(30, seed),
        optional_parts(30, seed),
        comments(20, seed),
        bench_corpus(40_000, 2_000, seed),
    ]
}

/// The non-template pieces of `doc.text`, trimmed, non-empty.
fn gaps(doc: &GeneratedDoc) -> Vec<&str> {
    let mut out = Vec::new();
    let mut pos = 0;
    for &(s, e) in doc.template_spans.iter().chain([(doc.text.len(), doc.text.len())].iter()) {
        let piece = doc.text[pos..s].trim();
        if !piece.is_empty() {
            out.push(piece);
        }
        pos = e;
    }
    out
}

fn check_doc(doc: &GeneratedDoc, html: bool) {
    let text = &doc.text;
    let mut prev_end = 0;
    for (i, &(s, e)) in doc.template_spans.iter().enumerate() {
        assert!(s < e, "{}: empty span {i}", doc.id);
        assert!(i == 0 || s > prev_end, "{}: spans not sorted/disjoint", doc.id);
        assert!(e <= text.len(), "{}: span past end", doc.id);
        assert!(text.is_char_boundary(s) && text.is_char_boundary(e), "{}: char boundary", doc.id);
        prev_end = e;
    }
    assert!(!doc.body.trim().is_empty(), "{}: empty body", doc.id);
    // The article is exactly what the template spans leave out.
    assert_eq!(gaps(doc).join("\n"), doc.body, "{}", doc.id);
    let pieces: Vec<&str> = if html { doc.body.lines().collect() } else { vec![&doc.body] };
    for piece in pieces {
        // Some occurrence lies outside every span (for HTML the headline's
        // first occurrence is its template copy in `<title>`).
        let outside = text.match_indices(piece).any(|(at, _)| {
            let end = at + piece.len();
            doc.template_spans.iter().all(|&(s, e)| end <= s || at >= e)
        });
        assert!(outside, "{}: body not in text outside the template", doc.id);
    }
}

#[test]
fn same_seed_same_output_and_different_seed_differs() {
    assert_eq!(all_small(7), all_small(7));
    for (a, b) in all_small(7).iter().zip(all_small(8).iter()) {
        assert_ne!(a, b, "{}", a.name);
    }
    assert_eq!(bundled(), bundled());
}

#[test]
fn stable_across_machines() {
    // Pins the PRNG and grammar: a change here changes the bundled corpora.
    let mut rng = Rng::new(0, 0);
    assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
    let doc = &sevendays(1, 1).docs[0];
    let head = "# Permanent link | no responses | Published on: Monday, 6th November, \
                2006 The shopping centre outside Port Alden has been reviewed twice ";
    assert!(doc.text.starts_with(head));
}

#[test]
fn any_size_works() {
    for n in [0, 1, 2] {
        assert_eq!(sevendays(n, 1).docs.len(), n);
        assert_eq!(html_news(n, 1).docs.len(), n);
        assert_eq!(mixed_templates(n, 1).docs.len(), n);
        assert_eq!(optional_parts(n, 1).docs.len(), n);
        assert_eq!(comments(n, 1).docs.len(), n);
    }
    assert_eq!(sevendays(10_000, 1).docs[9_999].id, "10000");
}

#[test]
fn spans_and_bodies_are_consistent() {
    for seed in [1, 2, 3] {
        for source in all_small(seed) {
            assert!(!source.docs.is_empty());
            for doc in &source.docs {
                check_doc(doc, source.extension == "html");
            }
            let ids: BTreeSet<&str> = source.docs.iter().map(|d| d.id.as_str()).collect();
            assert_eq!(ids.len(), source.docs.len(), "{}: duplicate ids", source.name);
        }
    }
    for source in bundled() {
        for doc in &source.docs {
            check_doc(doc, source.extension == "html");
        }
    }
    check_doc(&thesis_example(), false);
}

#[test]
fn thesis_example_is_exact() {
    let doc = thesis_example();
    assert!(!doc.text.ends_with('\n'));
    assert_eq!(doc.text.lines().count(), 7);
    assert_eq!(doc.template_spans, vec![(0, 76), (275, 410)]);
    assert_eq!(&doc.text[..76], "# Permanent link | no responses | Published on: Tuesday, 27th\nFebruary, 2007");
    assert_eq!(
        &doc.text[275..],
        "Please login to\nleave a reply First budget hotel in Karama, another five planned\n\
         for emirate read more Thursday 22nd February read more"
    );
    assert_eq!(
        doc.body,
        "Real Estate developers and mortgage financiers in\n\
         Dubai expect the housing market to keep growing through the year,\n\
         and the new rules will help a \"growth model to be replicated\n\
         elsewhere.\" he said."
    );
    assert_eq!(SEVENDAYS_HEADLINES[0], "First budget hotel in Karama, another five planned for emirate");
}

#[test]
fn dates_are_real() {
    // The thesis example's dates: Tuesday 27th February 2007, Thursday 22nd February.
    let d = Date::from_days(days_from_civil(2007, 2, 27));
    assert_eq!((d.year, d.month, d.day, d.weekday_name()), (2007, 2, 27, "Tuesday"));
    assert_eq!(d.plus_days(-5).weekday_name(), "Thursday");
    let mut s = String::new();
    for day in [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31] {
        push_ordinal(&mut s, day);
        s.push(' ');
    }
    assert_eq!(s, "1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 23rd 31st ");
}

#[test]
fn sevendays_shape() {
    let source = sevendays(120, BUNDLED_SEED);
    assert_eq!(source.docs.len(), 120);
    let mut headline_uses = BTreeMap::new();
    for doc in &source.docs {
        assert_eq!(doc.text.lines().count(), 1, "{}: one line, template glued to the article", doc.id);
        assert!(!doc.text.contains("  ") && !doc.text.contains(" \n"));
        let words = doc.body.split_whitespace().count();
        assert!((60..=250).contains(&words), "{}: {words} body words", doc.id);
        assert!(doc.body.replace('\n', " ").contains(".\" "), "{}: quote", doc.id);
        assert_eq!(doc.template_spans.len(), 2);
        let head = &doc.text[doc.template_spans[0].0..doc.template_spans[0].1];
        assert!(head.starts_with("# Permanent link") && head.ends_with(|c: char| c.is_ascii_digit()));
        let tail = &doc.text[doc.template_spans[1].0..doc.template_spans[1].1];
        let flat = tail.replace('\n', " ");
        assert!(flat.starts_with("Please login to leave a reply ") && flat.ends_with(" read more"));
        let headline = SEVENDAYS_HEADLINES.iter().find(|h| flat.contains(*h)).expect("headline");
        *headline_uses.entry(*headline).or_insert(0) += 1;
    }
    assert!(headline_uses.values().all(|&n| n <= 3));
    for h in SEVENDAYS_HEADLINES {
        assert!((6..=12).contains(&h.split_whitespace().count()), "{h}");
    }
}

/// Sentences of a body: split after ". " (a quote's `." he said.` stays whole).
fn sentences(body: &str) -> Vec<String> {
    let flat = body.replace('\n', " ");
    flat.split_inclusive(". ").map(|s| s.trim().to_string()).collect()
}

#[test]
fn sevendays_sentences_are_not_shared() {
    for seed in [BUNDLED_SEED, 1, 2] {
        let source = sevendays(120, seed);
        let mut docs_of: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
        for (i, doc) in source.docs.iter().enumerate() {
            for s in sentences(&doc.body) {
                docs_of.entry(s).or_default().insert(i);
            }
        }
        for (s, docs) in &docs_of {
            assert!(docs.len() <= 2, "seed {seed}: {s:?} in {} docs", docs.len());
        }
        assert!(docs_of.len() > 120 * 6);
    }
}

#[test]
fn html_news_shape() {
    let source = html_news(60, BUNDLED_SEED);
    assert_eq!(source.extension, "html");
    for doc in &source.docs {
        let title = doc.body.lines().next().unwrap();
        assert!(doc.text.contains(&format!("<title>{title} | The Harbour Gazette</title>")));
        assert!(doc.text.contains(&format!("<h1>{title}</h1>")));
        assert_eq!(doc.text.matches("</li>").count(), 8 + 3 + 4);
        let paragraphs = doc.body.lines().count() - 1;
        assert!((3..=8).contains(&paragraphs), "{}", doc.id);
        assert!(doc.text.contains("<span class=\"date\">"));
        assert!(!doc.body.contains('<') && !doc.body.contains('&'));
    }
}

#[test]
fn mixed_templates_has_both_kinds() {
    let source = mixed_templates(80, BUNDLED_SEED);
    let galleries = source.docs.iter().filter(|d| d.text.contains("Photo gallery | Image ")).count();
    assert!((20..=45).contains(&galleries), "{galleries} galleries");
    for doc in &source.docs {
        let is_gallery = doc.text.contains("Photo gallery");
        assert_eq!(is_gallery, !doc.text.starts_with("Valley Courier | News"));
        if is_gallery {
            assert!(doc.body.split_whitespace().count() < 60);
        }
    }
}

fn in_template(doc: &GeneratedDoc, needle: &str) -> bool {
    let at = doc.text.find(needle).unwrap();
    doc.template_spans.iter().any(|&(s, e)| s <= at && at + needle.len() <= e)
}

#[test]
fn optional_parts_vary_and_are_template() {
    let source = optional_parts(80, BUNDLED_SEED);
    let mut banners = 0;
    let mut sponsored = 0;
    for doc in &source.docs {
        assert!(in_template(doc, "RIVERSIDE DAILY") && in_template(doc, "Riverside Daily Ltd"));
        if doc.text.contains("Breaking news: ") {
            banners += 1;
            assert!(in_template(doc, "Breaking news: "));
        }
        if doc.text.contains("Sponsored | ") {
            sponsored += 1;
            assert!(in_template(doc, "Sponsored | "));
        }
    }
    assert!((12..=40).contains(&banners), "{banners} banners");
    assert!((25..=55).contains(&sponsored), "{sponsored} sponsored");
}

#[test]
fn comments_shape() {
    let source = comments(60, BUNDLED_SEED);
    for doc in &source.docs {
        for line in doc.body.lines() {
            assert!(line.split_whitespace().count() >= 8, "{}: short line {line:?}", doc.id);
        }
        let lines: Vec<&str> = doc.text.lines().collect();
        assert_eq!(*lines.last().unwrap(), "Leave a reply | Powered by Quillpress");
        let says = lines.iter().filter(|l| l.contains(" says: ")).count();
        assert!((1..=6).contains(&says));
        let count_line = if says == 1 { "1 response".to_string() } else { format!("{says} responses") };
        let footer = doc.template_spans.last().unwrap();
        assert!(doc.text[footer.0..].trim_start().starts_with(&count_line), "{}", doc.id);
    }
}

#[test]
fn bench_corpus_sizes() {
    let source = bench_corpus(300_000, 3_000, 9);
    let total: usize = source.docs.iter().map(|d| d.text.len()).sum();
    assert!((300_000..310_000).contains(&total));
    let avg = total / source.docs.len();
    assert!((2_400..=3_600).contains(&avg), "average {avg} bytes");
    assert_eq!(source.docs[0].id, "0001");
    assert!(bench_corpus(0, 1000, 1).docs.is_empty());
}

#[test]
fn write_source_round_trips_spans() {
    let dir = std::env::temp_dir().join(format!("chaff-generate-test-{}", std::process::id()));
    let source = mixed_templates(5, 3);
    assert_eq!(write_source(&source, &dir).unwrap(), 10);
    for doc in &source.docs {
        let folder = dir.join("mixed_templates");
        let text = std::fs::read_to_string(folder.join(format!("{}.txt", doc.id))).unwrap();
        assert_eq!(text, doc.text);
        let json = std::fs::read_to_string(folder.join(format!("{}.template.json", doc.id))).unwrap();
        let inner = json.trim().strip_prefix("[[").unwrap().strip_suffix("]]").unwrap();
        let spans: Vec<(usize, usize)> = inner
            .split("],[")
            .map(|pair| {
                let (s, e) = pair.split_once(',').unwrap();
                (s.parse().unwrap(), e.parse().unwrap())
            })
            .collect();
        assert_eq!(spans, doc.template_spans);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cargo test --release --lib generate -- --ignored --nocapture` prints the speed.
#[test]
#[ignore]
fn bench_corpus_speed() {
    let t = std::time::Instant::now();
    let source = bench_corpus(100 << 20, 4096, 1);
    let secs = t.elapsed().as_secs_f64();
    let total: usize = source.docs.iter().map(|d| d.text.len()).sum();
    println!("{} docs, {:.1} MB/s", source.docs.len(), total as f64 / secs / 1e6);
}
