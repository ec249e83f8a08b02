//! Pages in the encodings crawls hold: windows-125x, ISO-8859-x, KOI8-R, Shift_JIS, GBK, EUC-KR. Each is
//! read by its declaration (or the detector), cleaned as its UTF-8 twin is, and written back in its own
//! encoding; its reader text (`--text`) is the twin's, character for character.

use std::fs;
use std::path::{Path, PathBuf};

use chaff::corpus::{Encoding, read_text};
use chaff::view::PageView;

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;
use run::{chaff, stderr};

/// Each encoding with a paragraph in a script it writes.
const CASES: &[(&str, &str)] = &[
    ("windows-1251", "Депутаты городской думы одобрили новый бюджет на следующий год."),
    ("koi8-r", "Жители района собрались на площади, чтобы обсудить новый парк."),
    ("windows-1252", "Le café de la gare a rouvert ses portes après trois années de travaux."),
    ("iso-8859-2", "Mieszkańcy miasta zebrali się przed ratuszem, żeby omówić nowy budżet."),
    ("shift_jis", "市議会は来年度の予算案を承認し、新しい図書館の建設が始まる。"),
    ("gbk", "市议会批准了明年的预算，新图书馆的建设将于春季开始。"),
    ("euc-kr", "시의회는 내년 예산안을 승인했으며 새 도서관 건설이 봄에 시작된다."),
];

fn sample_pages() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora/html_news");
    let mut paths: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .take(24)
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), fs::read_to_string(p).unwrap()))
        .collect()
}

/// A sample page declared in `label` (`<meta charset>`), as UTF-8 text; with `paragraph` first in its
/// article when given (on one page only: on every page it would be template).
fn page_with(page: &str, paragraph: Option<&str>, label: &str) -> String {
    let page = page.replacen("<meta charset=\"utf-8\">", &format!("<meta charset=\"{label}\">"), 1);
    match paragraph {
        Some(p) => page.replacen("</h1>", &format!("</h1>\n<p>{p}</p>"), 1),
        None => page,
    }
}

/// `text` in the encoding `label`; a character it has no bytes for becomes a numeric character reference,
/// as a page in that encoding writes it.
fn encode(text: &str, label: &str) -> Vec<u8> {
    let e = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
    e.encode(text).0.into_owned()
}

#[test]
fn a_declared_legacy_page_reads_as_its_text_with_file_offsets() {
    for (label, paragraph) in CASES {
        let text = format!("<html><head><meta charset=\"{label}\"></head><body><p>{paragraph}</p></body></html>");
        let bytes = encode(&text, label);
        assert!(!String::from_utf8_lossy(&bytes).contains(paragraph), "{label} is not UTF-8");
        let decoded = read_text(bytes.clone()).expect("text");
        assert_eq!(decoded.text, text, "{label}");
        assert!(matches!(decoded.encoding, Encoding::Legacy(_)) && decoded.exact(), "{label}");
        // every character's offset is where its bytes start
        let e = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        for (i, c) in text.char_indices() {
            let at = decoded.file_offset(i);
            let own = e.encode(c.encode_utf8(&mut [0; 4])).0.into_owned();
            assert_eq!(&bytes[at..at + own.len()], &own[..], "{label}: {c:?} at text byte {i}");
        }
        assert_eq!(decoded.encode(decoded.text.clone()), bytes, "{label}: written back byte for byte");
    }
}

#[test]
fn an_undeclared_legacy_page_is_found_by_the_detector() {
    let text = format!("<p>{}</p>", CASES[0].1.repeat(4));
    let decoded = read_text(encode(&text, "windows-1251")).unwrap();
    assert_eq!(decoded.encoding.name(), "windows-1251");
    assert_eq!(decoded.text, text);
}

#[test]
fn utf8_bytes_stay_utf8_whatever_the_page_declares() {
    let text = "<meta charset=\"iso-8859-1\"><p>Café déjà vu</p>";
    let decoded = read_text(text.as_bytes().to_vec()).unwrap();
    assert_eq!((decoded.encoding, decoded.text.as_str()), (Encoding::Utf8, text));
}

#[test]
fn a_page_in_any_encoding_cleans_to_its_utf8_twins_text() {
    for (label, paragraph) in CASES {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path();
        fs::create_dir_all(p.join("utf8/site")).unwrap();
        fs::create_dir_all(p.join("legacy/site")).unwrap();
        for (i, (name, page)) in sample_pages().into_iter().enumerate() {
            let paragraph = (i == 0).then_some(*paragraph);
            fs::write(p.join("utf8/site").join(&name), page_with(&page, paragraph, "utf-8")).unwrap();
            fs::write(p.join("legacy/site").join(&name), encode(&page_with(&page, paragraph, label), label)).unwrap();
        }
        for kind in ["utf8", "legacy"] {
            let o = chaff(&["mine", &format!("{kind}/site"), "--rules-dir", &format!("{kind}/rules")], p);
            assert!(o.status.success(), "{label} {kind}: {}", stderr(&o));
            for (flag, out) in [("--text", "text"), ("--keep-tags", "tags")] {
                let args = ["clean", "--rules", &format!("{kind}/rules/site.toml"), "--include-pending", flag];
                let o = chaff(&[&args[..], &[&format!("{kind}/site"), "--out", &format!("{kind}/{out}")]].concat(), p);
                assert!(o.status.success(), "{label} {kind}: {}", stderr(&o));
            }
        }
        for (i, (name, _)) in sample_pages().into_iter().enumerate() {
            let stem = name.trim_end_matches(".html");
            let twin = fs::read_to_string(p.join(format!("utf8/text/{stem}.txt"))).unwrap();
            // reader text is UTF-8, as the twin's
            let text = fs::read_to_string(p.join(format!("legacy/text/{stem}.txt"))).unwrap();
            assert_eq!(text, twin, "{label} {name}: the reader text is the UTF-8 twin's");
            assert!(i > 0 || text.contains(paragraph), "{label} {name}: the paragraph survives");
            // the cleaned page stays in its encoding, as its twin's but for the declaration
            let tags = fs::read(p.join(format!("legacy/tags/{name}"))).unwrap();
            let e = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
            let (tags, _, malformed) = e.decode(&tags);
            assert!(!malformed, "{label} {name}: written in {label}");
            let twin_tags = fs::read_to_string(p.join(format!("utf8/tags/{name}"))).unwrap();
            assert_eq!(PageView::of_html(&tags).text(), PageView::of_html(&twin_tags).text(), "{label} {name}");
        }
    }
}

#[test]
fn in_place_writes_a_legacy_page_back_in_its_encoding() {
    let (label, paragraph) = CASES[0];
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    fs::create_dir_all(p.join("site")).unwrap();
    for (i, (name, page)) in sample_pages().into_iter().enumerate() {
        let paragraph = (i == 0).then_some(paragraph);
        fs::write(p.join("site").join(&name), encode(&page_with(&page, paragraph, label), label)).unwrap();
    }
    let o = chaff(&["mine", "site", "--rules-dir", "rules"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let o =
        chaff(&["clean", "--rules", "rules/site.toml", "--include-pending", "--keep-tags", "site", "--in-place"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let (name, _) = &sample_pages()[0];
    let bytes = fs::read(p.join("site").join(name)).unwrap();
    let (text, _, malformed) = encoding_rs::WINDOWS_1251.decode(&bytes);
    assert!(!malformed && text.contains(paragraph), "cleaned in place, still {label}");
}

#[test]
fn encoding_names_the_encoding_of_every_input() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    fs::create_dir_all(p.join("site")).unwrap();
    // no declaration, and too short for the detector to be sure: the editor says what it is
    let text = format!("{}\nRead more\n", CASES[1].1);
    for i in 0..3 {
        fs::write(p.join(format!("site/{i}.txt")), encode(&format!("{i} {text}"), "koi8-r")).unwrap();
    }
    fs::write(
        p.join("rules.toml"),
        "source = \"site\"\n[cutoff]\nauto = 50\nchosen = 50\n\n[[rule]]\nid = \"r1\"\nstatus = \"accepted\"\nregex = 'Read\\s+more'\n",
    )
    .unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "--encoding", "koi8-r", "site", "--out", "out"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = fs::read(p.join("out/0.txt")).unwrap();
    let (out, _, malformed) = encoding_rs::KOI8_R.decode(&bytes);
    assert!(!malformed);
    assert_eq!(out.trim_end(), format!("0 {}", CASES[1].1));
    let o = chaff(&["clean", "--rules", "rules.toml", "--encoding", "klingon", "site", "--out", "out2"], p);
    assert!(!o.status.success() && stderr(&o).contains("windows-1251"), "{}", stderr(&o));
}
