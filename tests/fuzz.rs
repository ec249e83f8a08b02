//! Fuzzing on stable Rust: a small mutational loop per target, seeded from `sample-corpora/`, run by
//! `cargo test`. Each target mutates its seeds (bytes flipped, inserted, deleted, chunks duplicated and
//! spliced from other seeds, markup and multi-byte characters inserted) and feeds them to one entry point
//! of the engine, asserting it does not panic and that what it returns holds its invariants.
//!
//! `CHAFF_FUZZ_SECONDS` (default 1) bounds each target's time; `CHAFF_FUZZ_SEED` picks the run. CI runs
//! each target for 20 s, two at a time: `CHAFF_FUZZ_SECONDS=20 cargo test --release --test fuzz --
//! --nocapture --test-threads 2`. An
//! input that panics is written to `target/fuzz-crashes/` and fails the test; each target prints how many
//! inputs it ran.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use chaff::automatic::automatic_rules;
use chaff::clean_settings::{IslandsSettings, LinkDensitySettings, ShortRunsSettings, SpecksSettings};
use chaff::cleaning::{CleanSettings, Cleaner, Stage, Stages};
use chaff::corpus::{Corpus, Document, parse_jsonl, parse_record};
use chaff::mining::{MiningConfig, Quiet, mine};
use chaff::page::{Page, viewed};
use chaff::reading::html_text;
use chaff::render::remove_text_keep_tags;
use chaff::rules::{MiningParams, RulesFile};
use chaff::settings::Settings;
use chaff::tokens::Tokenizer;
use chaff::view::{DocKind, PageView};

/// A xorshift generator: the runs are reproducible from their seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

/// What mutations insert besides random bytes: markup (a `<pre>`, whose line breaks and indentation are
/// kept), line breaks, quotes, escapes, multi-byte and invalid UTF-8.
const TOKENS: [&[u8]; 27] = [
    b"<",
    b">",
    b"</div>",
    b"<div>",
    b"<p>",
    b"<script>",
    b"</script>",
    b"<title>",
    b"<body>",
    b"<pre>",
    b"</pre>",
    b"\n  \t",
    b"<!--",
    b"\n",
    b"\r\n",
    b"\"",
    b"\\",
    b"{",
    b"}",
    b"[[rule]]",
    b"'''",
    "é".as_bytes(),
    "\u{2019}".as_bytes(),
    "\u{a0}".as_bytes(),
    b"\xff",
    b"\0",
    b"\xe2\x80",
];

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>], input: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        let len = input.len();
        match rng.below(7) {
            0 if len > 0 => {
                let i = rng.below(len);
                input[i] ^= 1 << rng.below(8);
            }
            1 => {
                let at = rng.below(len + 1);
                input.insert(at, rng.next() as u8);
            }
            2 if len > 0 => {
                let at = rng.below(len);
                let n = 1 + rng.below((len - at).min(64));
                input.drain(at..at + n);
            }
            3 if len > 0 => {
                // a chunk duplicated: long lines, many matches
                let at = rng.below(len);
                let n = 1 + rng.below((len - at).min(256));
                let chunk: Vec<u8> = input[at..at + n].to_vec();
                let to = rng.below(input.len() + 1);
                for _ in 0..1 + rng.below(8) {
                    input.splice(to..to, chunk.iter().copied());
                }
            }
            4 => {
                let other = &seeds[rng.below(seeds.len())];
                if !other.is_empty() {
                    let at = rng.below(other.len());
                    let n = 1 + rng.below((other.len() - at).min(512));
                    let to = rng.below(input.len() + 1);
                    input.splice(to..to, other[at..at + n].iter().copied());
                }
            }
            _ => {
                let t = TOKENS[rng.below(TOKENS.len())];
                let to = rng.below(len + 1);
                input.splice(to..to, t.iter().copied());
            }
        }
    }
    // inputs stay small enough to run many
    input.truncate(64 * 1024);
}

fn seconds() -> Duration {
    let s = std::env::var("CHAFF_FUZZ_SECONDS").ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(1.0);
    Duration::from_secs_f64(s)
}

fn sample_files(ext: &str) -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    // a spread of them: every source, few files each
    files.into_iter().step_by(17).map(|p| std::fs::read(p).unwrap()).collect()
}

/// Runs `target` on the seeds, then on mutations of them until the time is up. Panics (with the input
/// saved) if the target panics.
fn fuzz(name: &str, seeds: Vec<Vec<u8>>, target: impl Fn(&[u8])) {
    assert!(!seeds.is_empty(), "{name}: no seeds");
    let seed = std::env::var("CHAFF_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_cafe_u64);
    let mut rng = Rng(seed | 1);
    let deadline = Instant::now() + seconds();
    let mut runs = 0u64;
    let mut pool = seeds.clone();
    let mut input = Vec::new();
    let mut i = 0;
    loop {
        if i < seeds.len() {
            input.clone_from(&seeds[i]);
        } else {
            if Instant::now() >= deadline {
                break;
            }
            input.clone_from(&pool[rng.below(pool.len())]);
            mutate(&mut rng, &seeds, &mut input);
        }
        i += 1;
        runs += 1;
        if catch_unwind(AssertUnwindSafe(|| target(&input))).is_err() {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-crashes");
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(format!("{name}-{seed}-{runs}"));
            std::fs::write(&path, &input).unwrap();
            panic!("fuzz {name}: input {runs} panicked; saved to {}", path.display());
        }
        // some mutants become seeds of later ones: inputs drift further from the samples
        if i > seeds.len() && rng.below(16) == 0 {
            let k = rng.below(pool.len());
            pool[k] = input.clone();
        }
    }
    println!("fuzz {name}: {runs} inputs in {:.1} s, no panic", seconds().as_secs_f64());
}

fn text_of(input: &[u8]) -> String {
    String::from_utf8_lossy(input).into_owned()
}

#[test]
fn fuzz_rules_file_parse() {
    let seeds = vec![
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/mutable-patterns.toml")).unwrap(),
        mined_rules(Tokenizer::Text).to_toml().into_bytes(),
        mined_rules(Tokenizer::Html).to_toml().into_bytes(),
    ];
    fuzz("rules-file", seeds, |input| {
        if let Ok(file) = RulesFile::parse(&text_of(input), Path::new("fuzz.toml")) {
            // what parses builds a cleaner or says why not
            let _ = Cleaner::new(&file, true);
        }
    });
}

#[test]
fn fuzz_jsonl_records() {
    let seeds: Vec<Vec<u8>> = sample_files("txt")
        .into_iter()
        .take(6)
        .enumerate()
        .map(|(i, t)| {
            let text = serde_json::to_string(&text_of(&t)).unwrap();
            format!("{{\"id\": {i}, \"text\": {text}}}\n{{\"id\": \"x{i}\", \"text\": \"short\"}}\n").into_bytes()
        })
        .collect();
    fuzz("jsonl", seeds, |input| {
        let text = text_of(input);
        if let Ok(docs) = parse_jsonl(&text, Path::new("fuzz.jsonl")) {
            assert!(docs.len() <= text.lines().count());
        }
        for line in text.lines() {
            let _ = parse_record(line);
        }
    });
}

fn assert_spans(text: &str, spans: &[(usize, usize)]) {
    let mut last = 0;
    for &(s, e) in spans {
        assert!(last <= s && s <= e && e <= text.len(), "span {s}..{e} after {last} in {} bytes", text.len());
        assert!(text.is_char_boundary(s) && text.is_char_boundary(e), "span {s}..{e} splits a character");
        last = e;
    }
}

#[test]
fn fuzz_tokenizers() {
    let mut seeds = sample_files("txt");
    seeds.extend(sample_files("html"));
    fuzz("tokenizers", seeds, |input| {
        let text = text_of(input);
        for t in [Tokenizer::Text, Tokenizer::Html] {
            let spans = t.spans(&text);
            assert!(spans.iter().all(|&(s, e)| s < e), "{t:?}: an empty token");
            assert_spans(&text, &spans);
        }
    });
}

/// Sorted, disjoint removed ranges on character boundaries of `html`, drawn from the input's bytes.
fn some_ranges(html: &str, salt: &[u8]) -> Vec<(usize, usize)> {
    let mut rng = Rng(salt.iter().fold(0x9e37_79b9u64, |h, &b| h.rotate_left(5) ^ u64::from(b)) | 1);
    let mut cuts: Vec<usize> = (0..2 * rng.below(6)).map(|_| rng.below(html.len() + 1)).collect();
    cuts.sort_unstable();
    cuts.iter_mut().for_each(|c| *c = html.floor_char_boundary(*c));
    cuts.chunks(2).map(|c| (c[0], c[1])).filter(|(s, e)| s < e).collect()
}

#[test]
fn fuzz_html_input() {
    fuzz("html-input", sample_files("html"), |input| {
        let html = text_of(input);
        let removed = some_ranges(&html, input);
        let _ = html_text(&html, &removed);
        let kept = remove_text_keep_tags(&html, &removed);
        // what is kept are pieces of the page, with spaces between them
        let solid = |s: &str| s.bytes().filter(|b| !b.is_ascii_whitespace()).count();
        assert!(solid(&kept) <= solid(&html), "removing text added some");
        // the page view: every byte of it maps back into the page, on character boundaries
        let view = PageView::of_html(&html);
        for r in view.to_source(0..view.text().len()) {
            assert!(r.start < r.end && r.end <= html.len(), "{r:?} outside a page of {}", html.len());
            assert!(html.is_char_boundary(r.start) && html.is_char_boundary(r.end), "{r:?} splits a character");
        }
    });
}

/// The first 30 documents (by name) of a bundled sample source with extension `ext`.
fn sample_corpus(name: &str, ext: &str) -> Corpus {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora").join(name);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    paths.sort();
    let docs = paths
        .iter()
        .take(30)
        .map(|p| Document { id: p.display().to_string(), text: std::fs::read_to_string(p).unwrap() })
        .collect();
    Corpus::from_docs(name, docs)
}

/// The cleaner of the html_news sample mined on its page views, every stage on.
fn view_cleaner() -> &'static Cleaner {
    static CLEANER: OnceLock<Cleaner> = OnceLock::new();
    CLEANER.get_or_init(|| {
        let mut config = MiningConfig::default();
        let corpus = viewed(sample_corpus("html_news", "html"), DocKind::Html, &mut config);
        let mining = mine(&corpus, &config, &Quiet).unwrap();
        let file = automatic_rules(&corpus, &mining, MiningParams::of(&config), None, &Settings::default()).unwrap();
        let settings = CleanSettings {
            islands: IslandsSettings { words: 10 },
            specks: SpecksSettings { chars: 6 },
            stages: Stages::all(),
            ..file.clean_settings()
        };
        Cleaner::new(&file, true).unwrap().with_settings(settings)
    })
}

#[test]
fn fuzz_html_pages_cleaned_through_their_view() {
    fuzz("page", sample_files("html"), |input| {
        let html = text_of(input);
        let out = view_cleaner().clean_page(Page::new(&html, DocKind::Html));
        let ranges = out.source_ranges();
        assert_spans(&html, ranges);
        assert!(ranges.windows(2).all(|w| w[0].1 <= w[1].0), "overlapping source ranges");
        let (_, _, _) = (out.cleaned(), out.keep_tags(), out.text());
        let e = view_cleaner().explain_page(&out.page);
        assert_eq!(e.spans, out.spans, "explain finds what cleaning removes");
    });
}

/// The rules file of a sample source, mined with the automatic rules and every cleaning stage on.
fn mined_rules(tokenizer: Tokenizer) -> RulesFile {
    static FILES: OnceLock<(RulesFile, RulesFile)> = OnceLock::new();
    let (text, html) = FILES.get_or_init(|| {
        let mine_source = |name: &str, tokenizer: Tokenizer| {
            let ext = if tokenizer == Tokenizer::Html { "html" } else { "txt" };
            let corpus = sample_corpus(name, ext);
            let config = MiningConfig { tokenizer, ..MiningConfig::default() };
            let mining = mine(&corpus, &config, &Quiet).unwrap();
            let mut file =
                automatic_rules(&corpus, &mining, MiningParams::of(&config), None, &Settings::default()).unwrap();
            let text = tokenizer == Tokenizer::Text;
            file.set_clean_settings(CleanSettings {
                merge_gap: 3,
                islands: IslandsSettings { words: 10 },
                short_runs: ShortRunsSettings { words: 20 },
                link_density: LinkDensitySettings { share: 50 },
                specks: SpecksSettings { chars: 6 },
                stages: Stages::all().with(Stage::LineBoundary, text).with(Stage::SentenceHeads, text),
            });
            file
        };
        (mine_source("comments", Tokenizer::Text), mine_source("html_news", Tokenizer::Html))
    });
    if tokenizer == Tokenizer::Html { html.clone() } else { text.clone() }
}

#[test]
fn fuzz_cleaner_with_every_stage_on() {
    let text = Cleaner::new(&mined_rules(Tokenizer::Text), true).unwrap();
    let html = Cleaner::new(&mined_rules(Tokenizer::Html), true).unwrap();
    let mut seeds = sample_files("txt");
    seeds.extend(sample_files("html"));
    fuzz("cleaner", seeds, |input| {
        let doc = text_of(input);
        for c in [&text, &html] {
            let out = c.clean(&doc);
            let spans: Vec<(usize, usize)> = out.spans.iter().map(|s| (s.start, s.end)).collect();
            assert_spans(&doc, &spans);
            assert!(spans.windows(2).all(|w| w[0].1 < w[1].0 || w[0].1 <= w[1].0), "overlapping spans");
            assert!(out.spans.iter().all(|s| s.start < s.end), "an empty span");
            assert_eq!(out.removed_bytes, spans.iter().map(|(s, e)| e - s).sum::<usize>());
            for m in c.matches(&doc) {
                assert!(m.start < m.end && m.end <= doc.len() && (m.rule as usize) < c.len(), "{m:?}");
            }
        }
    });
}

/// A small generated crawl: its WARC uncompressed (mutations reach records, headers and HTTP blocks), and
/// its JSON Lines.
fn crawl_seeds() -> (Vec<u8>, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let files = chaff::generate::crawl::write_crawl(dir.path(), 3, 2, 7, false).unwrap();
    let mut warc = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(&files.warc).unwrap()),
        &mut warc,
    )
    .unwrap();
    (warc, std::fs::read(&files.jsonl).unwrap())
}

#[test]
fn fuzz_crawl_input() {
    let (warc, jsonl) = crawl_seeds();
    let dir = tempfile::tempdir().unwrap();
    for (ext, seed) in [("warc", warc), ("jsonl", jsonl)] {
        let path = dir.path().join(format!("fuzz.{ext}"));
        fuzz(&format!("crawl-{ext}"), vec![seed], |input| {
            std::fs::write(&path, input).unwrap();
            // every record is read or reported; none panics, and the reader ends
            if let Ok(items) = chaff::crawl::open(&path) {
                assert!(items.count() <= input.len() + 1);
            }
        });
    }
}

#[test]
fn fuzz_verified_pages_file() {
    let seed = b"format = 1\nsource = \"s\"\n\n[[page]]\nid = \"0018\"\ninput = \"55ff444b4bc59801\"\nremoved = [[0, 4], [9, 12]]\ntext = \"\"\"kept words\"\"\"\n".to_vec();
    fuzz("verified", vec![seed], |input| {
        let _ = chaff::verified::Verified::parse(&text_of(input), Path::new("fuzz.verified.toml"));
    });
}

/// Sample documents in the encodings a crawl holds: UTF-8 with and without a byte order mark, UTF-16
/// either way round after its mark, and legacy encodings (the text of each sample that they can write).
fn encoded_seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    let texts: Vec<String> =
        sample_files("txt").iter().chain(&sample_files("html")).map(|b| text_of(b)).take(6).collect();
    for (i, text) in texts.iter().enumerate() {
        let text = format!("{text} café crème, naïve — «€» Ünïcode");
        seeds.push(text.clone().into_bytes());
        seeds.push([b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat());
        for (mark, be) in [(b"\xFF\xFE", false), (b"\xFE\xFF", true)] {
            let mut out = mark.to_vec();
            for u in text.encode_utf16() {
                out.extend_from_slice(&if be { u.to_be_bytes() } else { u.to_le_bytes() });
            }
            seeds.push(out);
        }
        let legacy = [encoding_rs::WINDOWS_1252, encoding_rs::KOI8_R, encoding_rs::SHIFT_JIS, encoding_rs::EUC_KR];
        let plain = text.replace(['—', '«', '»', '€'], "-");
        seeds.push(legacy[i % legacy.len()].encode(&plain).0.into_owned());
    }
    seeds
}

/// No byte of an input is lost: a document read exactly is written back as its own bytes, and every offset
/// of its text maps into the file, in order, ending at its last byte.
#[test]
fn fuzz_documents_in_any_encoding_keep_their_bytes() {
    let seeds = encoded_seeds();
    for (i, seed) in seeds.iter().enumerate() {
        let decoded = chaff::corpus::read_text(seed.clone()).expect("a seed is text");
        assert!(decoded.exact(), "seed {i} ({}) is not read exactly", decoded.encoding.name());
    }
    fuzz("encodings", seeds, |input| {
        let Some(decoded) = chaff::corpus::read_text(input.to_vec()) else {
            assert!(input.contains(&0), "refused as binary without a NUL byte");
            return;
        };
        if decoded.exact() {
            assert!(decoded.encode(decoded.text.clone()) == input, "read exactly, written back differently");
            assert_eq!(decoded.file_offset(decoded.text.len()), input.len(), "the text's end is the file's");
        } else {
            assert!(decoded.replaced > 0 || matches!(decoded.encoding, chaff::corpus::Encoding::Legacy(_)));
        }
        let text = &decoded.text;
        let mut last = 0;
        for (i, _) in text.char_indices().step_by(7).chain([(text.len(), ' ')]) {
            let at = decoded.file_offset(i);
            assert!(last <= at && at <= input.len(), "offset {i} of the text is {at} of a {}-byte file", input.len());
            last = at;
        }
    });
}

/// Hostile regexes in rules: the rest of the document (`(?s).*`), long counted repetitions, patterns that
/// escape their group, lazy and nested repeats. Each is refused with an error naming its rule, or cleans a
/// long document in work linear in it.
#[test]
fn fuzz_hostile_regex_rules() {
    use chaff::rules::Action;
    let seeds: Vec<Vec<u8>> = [
        "(?s).*",
        r"[\s\S]{0,250}x",
        r"[\s\S]{0,5000}x",
        "a)|(.",
        r"(?s)line.*?x",
        "(a|aa)*b",
        ".{0,200}.{0,200}",
        r"\bread\s+more\b",
        r"(?:ab){0,200}",
        r"(?m)^.*$",
        r"\w+(?:\s+\w+)*\s*x",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    let mut doc = String::new();
    for i in 0..400 {
        doc.push_str(&format!("line {i} of the page, read more words here {}\n", if i % 7 == 0 { "x" } else { "y" }));
        if i == 200 {
            doc.push_str(&"z".repeat(10_000));
            doc.push('\n');
        }
    }
    doc.push_str("the end");
    let actions = [Action::Remove, Action::CutAfter, Action::CutBefore, Action::Keep];
    let patterns = chaff::mutable::MutableSet::defaults().patterns().to_vec();
    fuzz("hostile-regex", seeds, |input| {
        let regex = text_of(input);
        let action = actions[input.len() % actions.len()];
        let m = chaff::mutable::MutableSet::defaults();
        let symbols = [chaff::symbol::Symbol::decode("x")];
        let rule = chaff::rules::Rule::accepted("hostile", &symbols, action, Tokenizer::Text, &m).unwrap();
        let rule = chaff::rules::Rule { regex: regex.clone(), tokens: Vec::new(), ..rule };
        match Cleaner::from_rules(Tokenizer::Text, &patterns, [&rule], 0) {
            Err(e) => assert!(format!("{e:#}").contains("hostile"), "{regex:?}: the refusal names no rule: {e:#}"),
            Ok(c) => {
                let (out, reads) = chaff::cleaning::work::measure(|| c.clean(&doc));
                assert!(reads <= 40 * doc.len(), "{regex:?} ({action:?}): {reads} bytes read for {}", doc.len());
                assert!(out.removed_bytes <= doc.len());
            }
        }
    });
}
