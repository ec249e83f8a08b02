//! A generated crawl: `hosts` news sites of `pages` pages each, every site with a template of its own
//! (its invented name on every template line, so no template string is shared between sites and taken
//! for an idiom), written as a WARC.gz (one gzip member a record, as crawlers write them), as JSON Lines
//! of `{"id", "url", "text"}`, and optionally as a folder of sources with each page's
//! `<id>.template.json` truth.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::prose::push_uint;
use super::{DocBuilder, GeneratedDoc, GeneratedSource, Rng, doc_id, spans_json};

const SYLLABLES: [&str; 20] = [
    "ka", "lo", "mi", "ra", "ve", "zu", "to", "ne", "si", "da", "po", "gri", "fen", "bal", "tor", "mus", "vin", "dar",
    "qua", "lex",
];
const KINDS: [&str; 8] = ["Courier", "Herald", "Ledger", "Gazette", "Chronicle", "Observer", "Tribune", "Dispatch"];
const SECTIONS: [&str; 10] =
    ["Politics", "Business", "Sport", "Culture", "Science", "Opinion", "Travel", "Weather", "Health", "Local"];

/// The invented name of site `i` ("Kalomi"): three syllables, unique for the first 8,000 sites.
pub fn site_name(i: usize) -> String {
    let mut name = String::new();
    for k in [i / 400 % 20, i / 20 % 20, i % 20] {
        name.push_str(SYLLABLES[k]);
    }
    let mut c = name.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

/// The host of site `i`: `www.<name>.com` (grouped by host, its source is `<name>.com`).
pub fn site_host(i: usize) -> String {
    format!("www.{}.com", site_name(i).to_lowercase())
}

/// The source name of site `i` under `--group host`.
pub fn site_source(i: usize) -> String {
    format!("{}.com", site_name(i).to_lowercase())
}

/// One page of a site: head, masthead, nav, article (the `<h1>` headline and the paragraphs), footer.
fn page(rng: &mut Rng, name: &str, kind: &str, sections: &[&str], founded: u64, id: String) -> GeneratedDoc {
    let mut headline = String::new();
    super::prose::Writer { rng, out: &mut headline }.headline();
    let mut b = DocBuilder::new(4096);
    let start = b.mark();
    let t = &mut b.text;
    let _ = write!(
        t,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{headline} - {name} {kind}</title>\n</head>\n<body>\n"
    );
    let _ = write!(
        t,
        "<header>\n<a class=\"logo\" href=\"/\">The {name} {kind}</a>\n<p>Read the {name} {kind} every morning since "
    );
    push_uint(t, founded, false);
    t.push_str("</p>\n</header>\n<nav>\n<ul>\n");
    for s in sections {
        let _ = writeln!(t, "<li><a href=\"/{}/\">{name} {s} desk</a></li>", s.to_lowercase());
    }
    t.push_str("</ul>\n</nav>\n<main>\n<article>\n<h1>");
    b.template_from(start);
    let start = b.mark();
    b.text.push_str(&headline);
    b.body_from(start);
    b.template("</h1>\n<p>");
    let paragraphs = rng.range(3, 6);
    for k in 0..paragraphs {
        if k > 0 {
            b.template("</p>\n<p>");
        }
        let start = b.mark();
        let sentences = rng.range(2, 4);
        b.writer(rng).paragraph(sentences, k == 1);
        b.body_from(start);
    }
    let start = b.mark();
    let t = &mut b.text;
    t.push_str("</p>\n</article>\n</main>\n<footer>\n");
    let _ = writeln!(t, "<p>Copyright the {name} {kind} newsroom, all of its pages reserved to {name} readers.</p>");
    let _ = writeln!(t, "<p>Write to the {name} {kind} letters page or subscribe to the {name} morning briefing.</p>");
    t.push_str("</footer>\n</body>\n</html>\n");
    b.template_from(start);
    b.finish(id)
}

/// Site `i` of a crawl: its source (named after its host's source) and `pages` pages.
pub fn site(i: usize, pages: usize, seed: u64) -> GeneratedSource {
    let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0x9E37_79B9), 11);
    let name = site_name(i);
    let kind = KINDS[rng.below(KINDS.len())];
    let n = rng.range(4, 7);
    let sections: Vec<&str> = rng.deal(SECTIONS.len(), n).into_iter().map(|k| SECTIONS[k]).collect();
    let founded = rng.range(1850, 1990) as u64;
    let docs = (0..pages).map(|p| page(&mut rng, &name, kind, &sections, founded, doc_id(p, pages))).collect();
    GeneratedSource { name: site_source(i), extension: "html", docs }
}

/// A WARC record as bytes, gzipped on its own.
fn warc_record(headers: &[(&str, String)], block: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut head = String::from("WARC/1.0\r\n");
    for (k, v) in headers {
        let _ = write!(head, "{k}: {v}\r\n");
    }
    let _ = write!(head, "Content-Length: {}\r\n\r\n", block.len());
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(head.as_bytes())?;
    gz.write_all(block)?;
    gz.write_all(b"\r\n\r\n")?;
    gz.finish()
}

/// The files a generated crawl was written to.
#[derive(Debug, Clone)]
pub struct CrawlFiles {
    pub warc: PathBuf,
    pub jsonl: PathBuf,
    /// The folder of sources, with each page's template truth, when asked for.
    pub sources: Option<PathBuf>,
    /// Bytes of HTML pages written (the same in each form).
    pub page_bytes: u64,
}

/// Writes a crawl of `hosts` sites × `pages` pages to `dir`: `crawl.warc.gz` (a `warcinfo` record, then
/// per page a `response`, and per site a redirect that is no page), `crawl.jsonl`, and with `folders` the
/// sources as `sources/<source>/<id>.html` beside `<id>.template.json`. Pages are interleaved across sites
/// as a crawler fetches them; one site is in memory at a time.
pub fn write_crawl(dir: &Path, hosts: usize, pages: usize, seed: u64, folders: bool) -> std::io::Result<CrawlFiles> {
    std::fs::create_dir_all(dir)?;
    let files = CrawlFiles {
        warc: dir.join("crawl.warc.gz"),
        jsonl: dir.join("crawl.jsonl"),
        sources: folders.then(|| dir.join("sources")),
        page_bytes: 0,
    };
    let mut warc = std::io::BufWriter::new(std::fs::File::create(&files.warc)?);
    let mut jsonl = std::io::BufWriter::new(std::fs::File::create(&files.jsonl)?);
    warc.write_all(&warc_record(
        &[
            ("WARC-Type", "warcinfo".into()),
            ("WARC-Record-ID", "<urn:uuid:00000000-0000-0000-0000-000000000000>".into()),
        ],
        b"software: chaff generate\r\n",
    )?)?;
    let mut page_bytes = 0u64;
    // a few sites at a time, their pages interleaved: a crawl is not sorted by host
    const WAVE: usize = 8;
    for wave in (0..hosts).step_by(WAVE) {
        let sites: Vec<(usize, GeneratedSource)> =
            (wave..(wave + WAVE).min(hosts)).map(|i| (i, site(i, pages, seed))).collect();
        for p in 0..pages {
            for (i, source) in &sites {
                let doc = &source.docs[p];
                let url = format!("https://{}/news/{}", site_host(*i), doc.id);
                let id = format!("urn:uuid:{:08x}-0000-4000-8000-{:012x}", i, p);
                let http = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
                    doc.text.len()
                );
                let mut block = http.into_bytes();
                block.extend_from_slice(doc.text.as_bytes());
                let headers = [
                    ("WARC-Type", "response".to_string()),
                    ("WARC-Record-ID", format!("<{id}>")),
                    ("WARC-Target-URI", url.clone()),
                    ("WARC-Date", "2026-01-01T00:00:00Z".into()),
                    ("Content-Type", "application/http; msgtype=response".into()),
                ];
                warc.write_all(&warc_record(&headers, &block)?)?;
                let line = serde_json::json!({ "id": id, "url": url, "text": doc.text });
                writeln!(jsonl, "{line}")?;
                page_bytes += doc.text.len() as u64;
                if p == 0 {
                    let redirect =
                        format!("HTTP/1.1 301 Moved Permanently\r\nLocation: https://{}/\r\n\r\n", site_host(*i));
                    let headers = [
                        ("WARC-Type", "response".to_string()),
                        ("WARC-Record-ID", format!("<urn:uuid:{i:08x}-0000-4000-9000-000000000000>")),
                        ("WARC-Target-URI", format!("http://{}/", site_name(*i).to_lowercase())),
                        ("Content-Type", "application/http; msgtype=response".into()),
                    ];
                    warc.write_all(&warc_record(&headers, redirect.as_bytes())?)?;
                }
            }
        }
        if let Some(root) = &files.sources {
            for (_, source) in &sites {
                super::write_source(source, root)?;
            }
        }
    }
    warc.flush()?;
    jsonl.flush()?;
    Ok(CrawlFiles { page_bytes, ..files })
}

/// The template truth of a generated page as JSON, as [`super::write_source`] writes it.
pub fn truth_json(doc: &GeneratedDoc) -> String {
    spans_json(&doc.template_spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_site_has_its_own_name_and_a_template_around_its_article() {
        assert_ne!(site_name(0), site_name(1));
        assert_eq!(site_name(401).len(), site_name(0).len());
        let s = site(3, 4, 1);
        assert_eq!((s.name.as_str(), s.docs.len()), ("kakara.com", 4));
        let d = &s.docs[0];
        assert!(d.template_spans.iter().all(|&(a, b)| !d.text[a..b].contains(d.body.lines().nth(1).unwrap())));
        assert!(d.text.contains("The Kakara "), "{}", d.text);
    }
}
