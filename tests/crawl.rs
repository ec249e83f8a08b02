//! Crawls on the real binary: a generated crawl (WARC.gz and JSON Lines) of sites with known templates
//! mined with `mine --all` and cleaned routed by host; unknown sources; grouping by domain; bad and
//! truncated WARC input; drift of every source in one run.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output};

use chaff::generate::crawl::{site, site_name, write_crawl};

const HOSTS: usize = 8;
const PAGES: usize = 20;
const SEED: u64 = 7;

fn chaff(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chaff")).args(args).current_dir(dir).output().unwrap()
}

fn chaff_stdin(args: &[&str], dir: &Path, input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn records(o: &Output) -> Vec<serde_json::Value> {
    records_of(o)
}

fn records_of(o: &Output) -> Vec<serde_json::Value> {
    text(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

/// A temp dir holding the generated crawl and its rules mined into `rules/`.
fn mined() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_crawl(dir.path(), HOSTS, PAGES, SEED, false).unwrap();
    let o = chaff(&["mine", "--all", "crawl.warc.gz", "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    dir
}

/// Every cleaned page of every site loses every template line (each holds the site's name, which no
/// article has) and keeps its article: at most one article line in a hundred is lost over the crawl (the
/// generator's prose repeats sentence shapes, "There are now 874 …", that a site's mining may take for
/// template). Returns the lines lost.
fn assert_templates_gone_and_articles_kept(out: &[serde_json::Value]) -> usize {
    assert_eq!(out.len(), HOSTS * PAGES);
    let (mut lines, mut lost) = (0, Vec::new());
    for i in 0..HOSTS {
        let truth = site(i, PAGES, SEED);
        let name = site_name(i);
        for (p, doc) in truth.docs.iter().enumerate() {
            let r = out
                .iter()
                .find(|r| {
                    r["source"] == truth.name.as_str() && r["url"].as_str().unwrap().ends_with(&format!("/{}", doc.id))
                })
                .unwrap_or_else(|| panic!("{} page {p} missing", truth.name));
            let cleaned = r["text"].as_str().unwrap();
            assert!(!cleaned.contains(&name), "{}: template left in page {p}:\n{cleaned}", truth.name);
            for line in doc.body.lines() {
                lines += 1;
                if !cleaned.contains(line) {
                    lost.push(format!("{} page {p}: {line}", truth.name));
                }
            }
            assert!(r["removed_bytes"].as_u64().unwrap() > 0);
        }
    }
    assert!(lost.len() * 100 <= lines, "{} of {lines} article lines lost: {lost:#?}", lost.len());
    lost.len()
}

/// What `chaff clean --rules rules/<source>.toml` writes for each of `records` of one source, by id.
fn single_source(dir: &Path, source: &str, records: &[serde_json::Value]) -> Vec<String> {
    let input: String =
        records.iter().map(|r| format!("{}\n", serde_json::json!({"id": r["id"], "text": r["text"]}))).collect();
    let rules = format!("rules/{source}.toml");
    let o = chaff_stdin(&["clean", "--rules", &rules, "--include-pending", "--text"], dir, &input);
    assert!(o.status.success(), "{}", text(&o.stderr));
    records_of(&o).iter().map(|r| r["text"].as_str().unwrap().to_string()).collect()
}

#[test]
fn mine_then_routed_clean_removes_each_hosts_template_and_keeps_its_articles() {
    let dir = mined();
    for host in 0..HOSTS {
        assert!(dir.path().join(format!("rules/{}.toml", site(host, 1, SEED).name)).exists());
    }
    for input in ["crawl.warc.gz", "crawl.jsonl"] {
        let o = chaff(&["clean", "--rules-dir", "rules", "--include-pending", "--text", input], dir.path());
        assert!(o.status.success(), "{input}: {}", text(&o.stderr));
        let out = records(&o);
        let lost = assert_templates_gone_and_articles_kept(&out);
        eprintln!("{input}: {lost} article line(s) lost");
        let err = text(&o.stderr);
        assert!(err.contains(&format!("cleaned {} document(s) of {HOSTS} source(s)", HOSTS * PAGES)), "{err}");
        if input.ends_with("gz") {
            // ids are the WARC-Record-IDs, without their angle brackets
            assert!(out[0]["id"].as_str().unwrap().starts_with("urn:uuid:"), "{}", out[0]);
        }
    }
}

#[test]
fn routing_cleans_each_document_exactly_as_its_sources_rules_file_alone_does() {
    let dir = mined();
    let o = chaff(&["clean", "--rules-dir", "rules", "--include-pending", "--text", "crawl.jsonl"], dir.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let routed = records(&o);
    let originals: Vec<serde_json::Value> = fs::read_to_string(dir.path().join("crawl.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for i in [0, HOSTS - 1] {
        let source = site(i, 1, SEED).name;
        let mine: Vec<serde_json::Value> = originals
            .iter()
            .filter(|r| r["url"].as_str().unwrap().contains(&format!("www.{source}/")))
            .cloned()
            .collect();
        assert_eq!(mine.len(), PAGES);
        let alone = single_source(dir.path(), &source, &mine);
        let by_routing: Vec<&str> =
            routed.iter().filter(|r| r["source"] == source.as_str()).map(|r| r["text"].as_str().unwrap()).collect();
        assert_eq!(by_routing, alone, "{source}");
    }
}

#[test]
fn documents_over_many_batches_come_out_in_input_order_each_cleaned_as_alone() {
    // the crawl four times over, one gzip stream after another: more documents than one batch the
    // routed cleaner reads ahead, so batches are read while earlier ones are cleaned and written
    let dir = mined();
    let whole = fs::read(dir.path().join("crawl.warc.gz")).unwrap();
    fs::write(dir.path().join("four.warc.gz"), whole.repeat(4)).unwrap();
    let args = |input| ["clean", "--rules-dir", "rules", "--include-pending", "--text", input];
    let once = chaff(&args("crawl.warc.gz"), dir.path());
    let four = chaff(&args("four.warc.gz"), dir.path());
    assert!(four.status.success(), "{}", text(&four.stderr));
    // records that hold no page are counted in every batch, the last one too
    let no_page = |o: &Output| {
        let err = text(&o.stderr);
        let n = err.split("; ").find_map(|p| p.strip_suffix(" record(s) held no page\n")).map(str::to_string);
        n.and_then(|n| n.parse::<usize>().ok()).unwrap_or_else(|| panic!("{err}"))
    };
    assert_eq!(no_page(&four), 4 * no_page(&once));
    let err = text(&four.stderr);
    assert!(err.contains(&format!("cleaned {} document(s) of {HOSTS} source(s)", 4 * HOSTS * PAGES)), "{err}");
    let (once, four) = (records(&once), records(&four));
    assert_eq!(once.len(), HOSTS * PAGES);
    assert!(four.len() > 512, "{} documents: fewer than a batch", four.len());
    let expected: Vec<serde_json::Value> = (0..4).flat_map(|_| once.iter().cloned()).collect();
    assert_eq!(four, expected);
}

#[test]
fn routed_clean_writes_each_source_into_its_folder() {
    let dir = mined();
    let o = chaff(
        &["clean", "--rules-dir", "rules", "--include-pending", "--text", "crawl.jsonl", "--out", "out"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let truth = site(0, PAGES, SEED);
    let folder = dir.path().join("out").join(&truth.name);
    let files = fs::read_dir(&folder).unwrap().count();
    assert_eq!(files, PAGES);
    let first = fs::read_to_string(folder.join("urn_uuid_00000000-0000-4000-8000-000000000000.txt")).unwrap();
    assert!(first.contains(truth.docs[0].body.lines().last().unwrap()) && !first.contains(&site_name(0)), "{first}");
}

#[test]
fn unknown_sources_pass_through_or_are_skipped_as_flagged() {
    let dir = mined();
    let unknown =
        "{\"id\": \"u1\", \"url\": \"https://elsewhere.example.org/a\", \"text\": \"Nobody mined this page.\"}\n";
    let known = "{\"id\": 7, \"source\": \"kakaka.com\", \"text\": \"<p>x</p>\"}\n";
    let input = format!("{unknown}{known}");
    let o = chaff_stdin(&["clean", "--rules-dir", "rules"], dir.path(), &input);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = records(&o);
    assert_eq!(out.len(), 2);
    assert_eq!(out[0]["text"], "Nobody mined this page.");
    assert_eq!((out[0]["source"].as_str(), out[0]["removed_bytes"].as_u64()), (Some("elsewhere.example.org"), Some(0)));
    assert_eq!(out[1]["id"], 7, "a numeric id stays a number");
    assert!(
        text(&o.stderr).contains("1 document(s) of 1 source(s) without rules passed through"),
        "{}",
        text(&o.stderr)
    );
    let o = chaff_stdin(&["clean", "--rules-dir", "rules", "--unknown", "skip"], dir.path(), &input);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = records(&o);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["source"], "kakaka.com");
    assert!(text(&o.stderr).contains("1 document(s) of 1 source(s) without rules skipped"), "{}", text(&o.stderr));
}

#[test]
fn domain_grouping_merges_hosts_of_one_registrable_domain() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = String::new();
    let truth = site(0, 6, SEED);
    for (i, d) in truth.docs.iter().enumerate() {
        let host = ["a.example.co.uk", "b.example.co.uk"][i % 2];
        let line = serde_json::json!({"id": i, "url": format!("https://{host}/{i}"), "text": d.text});
        lines.push_str(&format!("{line}\n"));
    }
    fs::write(dir.path().join("c.jsonl"), lines).unwrap();
    let o = chaff(&["mine", "--all", "c.jsonl", "--group", "domain", "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(dir.path().join("rules/example.co.uk.toml").exists());
    assert!(!dir.path().join("rules/a.example.co.uk.toml").exists());
    // by host, each has 3 pages: fewer than --min-docs 5, reported, and nothing to mine
    let o = chaff(&["mine", "--all", "c.jsonl", "--rules-dir", "by-host"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("2 source(s) with fewer than 5 documents not mined (6 document(s))"), "{err}");
}

/// A WARC of three records, the second with a Content-Length that is no number.
fn warc_with_a_bad_record() -> String {
    let mut out = String::new();
    for (i, len) in [(1, None), (2, Some("many")), (3, None)] {
        let body =
            format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><p>Page {i}.</p></body></html>");
        let len = len.map_or(body.len().to_string(), str::to_string);
        out.push_str(&format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{i}>\r\nWARC-Target-URI: https://x.example.com/{i}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {len}\r\n\r\n{body}\r\n\r\n"
        ));
    }
    out
}

#[test]
fn a_bad_warc_record_is_reported_and_skipped_and_fails_the_run_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("rules")).unwrap();
    fs::write(dir.path().join("bad.warc"), warc_with_a_bad_record()).unwrap();
    let o = chaff(&["clean", "--rules-dir", "rules", "bad.warc"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let ids: Vec<String> = records(&o).iter().map(|r| r["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(ids, ["urn:uuid:1", "urn:uuid:3"]);
    let err = text(&o.stderr);
    assert!(err.contains("bad.warc: WARC record 2") && err.contains("Content-Length"), "{err}");
}

#[test]
fn a_truncated_warc_gz_keeps_the_records_before_the_cut_and_fails_the_run() {
    let dir = mined();
    let whole = fs::read(dir.path().join("crawl.warc.gz")).unwrap();
    fs::write(dir.path().join("cut.warc.gz"), &whole[..whole.len() * 2 / 3]).unwrap();
    let o = chaff(&["clean", "--rules-dir", "rules", "--include-pending", "cut.warc.gz", "crawl.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("cut.warc.gz: WARC record") && err.contains("truncated"), "{err}");
    let out = records(&o);
    let from_cut = out.len() - HOSTS * PAGES;
    // the pages before the cut are cleaned, and the next input is read whole
    assert!(from_cut > HOSTS * PAGES / 3 && from_cut < HOSTS * PAGES, "{from_cut} pages read before the cut");
}

#[test]
fn check_reports_every_sources_drift_in_one_run_and_exits_3_when_one_drifted() {
    let dir = mined();
    let o = chaff(&["check", "--rules-dir", "rules", "--include-pending", "crawl.warc.gz"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}{}", text(&o.stdout), text(&o.stderr));
    let out = text(&o.stdout);
    assert_eq!(out.lines().filter(|l| l.ends_with("  ok")).count(), HOSTS, "{out}");
    // the first site's pages now carry the second site's template
    let second = site(1, PAGES, SEED);
    let mut lines = String::new();
    for (i, d) in second.docs.iter().enumerate() {
        lines.push_str(&format!("{}\n", serde_json::json!({"id": i, "source": site(0, 1, SEED).name, "text": d.text})));
    }
    fs::write(dir.path().join("moved.jsonl"), lines).unwrap();
    let o = chaff(&["check", "--rules-dir", "rules", "--include-pending", "--json", "moved.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["drifted"], 1);
    assert_eq!(v["sources"][0]["source"], site(0, 1, SEED).name.as_str());
    assert_eq!(v["sources"][0]["drifted"], true);
}

#[test]
fn check_skips_a_source_name_that_is_a_path_reads_no_rules_outside_the_folder_and_fails_at_the_end() {
    let dir = mined();
    let first = site(0, PAGES, SEED);
    // a rules file beside the rules folder, that `../escaped` would name
    fs::copy(dir.path().join(format!("rules/{}.toml", first.name)), dir.path().join("escaped.toml")).unwrap();
    let mut lines = String::new();
    for (i, d) in first.docs.iter().enumerate() {
        let source = if i < 3 { "../escaped" } else { first.name.as_str() };
        lines.push_str(&format!("{}\n", serde_json::json!({"id": i, "source": source, "text": d.text})));
    }
    fs::write(dir.path().join("new.jsonl"), lines).unwrap();
    let o = chaff(&["check", "--rules-dir", "rules", "--include-pending", "--json", "new.jsonl"], dir.path());
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    for i in 0..3 {
        assert!(err.contains(&format!("new.jsonl: document {i}: \"../escaped\" is not a usable source name")), "{err}");
    }
    assert!(err.contains("skipped (fix its \"source\" field, or its folder's name)"), "{err}");
    assert!(err.contains("3 source(s), record(s) or input(s) failed"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let checked: Vec<&str> = v["sources"].as_array().unwrap().iter().map(|s| s["source"].as_str().unwrap()).collect();
    assert_eq!(checked, [first.name.as_str()], "only the source with a usable name is checked");
    assert_eq!(v["sources"][0]["documents_now"], PAGES - 3);
}

#[test]
fn clean_without_rules_or_a_rules_dir_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = chaff_stdin(&["clean"], dir.path(), "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("give --rules FILE") && text(&o.stderr).contains("--rules-dir DIR"));
}

#[test]
fn a_malformed_rules_file_skips_its_sources_documents_and_fails_the_run() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("rules")).unwrap();
    fs::write(dir.path().join("rules/bad.example.com.toml"), "source = [").unwrap();
    let input = "{\"id\": 1, \"url\": \"https://bad.example.com/1\", \"text\": \"a\"}\n\
                 {\"id\": 2, \"url\": \"https://bad.example.com/2\", \"text\": \"b\"}\n\
                 {\"id\": 3, \"url\": \"https://good.example.com/3\", \"text\": \"c\"}\n";
    let o = chaff_stdin(&["clean", "--rules-dir", "rules"], dir.path(), input);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert_eq!(err.matches("bad.example.com.toml").count(), 1, "reported once: {err}");
    assert!(err.contains("2 document(s), record(s) or input(s) failed"), "{err}");
    let ids: Vec<i64> = records(&o).iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, [3]);
}

#[test]
fn a_source_folder_holding_a_folder_too_still_cleans_its_own_documents() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    fs::create_dir_all(p.join("rules")).unwrap();
    fs::write(
        p.join("rules/x.toml"),
        "source = \"x\"\ntokenizer = \"text\"\n[cutoff]\nauto = 50\nchosen = 50\n\n[[rule]]\nid = \"r1\"\n\
         status = \"accepted\"\nregex = 'Read\\s+more'\n",
    )
    .unwrap();
    // a source's folder with a folder of older pages inside it
    fs::create_dir_all(p.join("x/older")).unwrap();
    for i in 0..2 {
        fs::write(p.join(format!("x/{i}.txt")), format!("Article {i}.\nRead more\n")).unwrap();
    }
    fs::write(p.join("x/older/9.txt"), "Article 9.\nRead more\n").unwrap();
    let o = chaff(&["clean", "--rules-dir", "rules", "x", "--out", "out"], p);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for i in 0..2 {
        let cleaned = fs::read_to_string(p.join(format!("out/x/{i}.txt")))
            .unwrap_or_else(|e| panic!("x/{i}.txt not cleaned ({e}): {}", text(&o.stderr)));
        assert_eq!(cleaned.trim(), format!("Article {i}."));
    }
    // the inner folder is a source of its own (no rules file: passed through), not left unread
    assert_eq!(fs::read_to_string(p.join("out/older/9.txt")).unwrap(), "Article 9.\nRead more\n");
    // so is a drift check: the folder's own documents are the source `x`'s
    let o = chaff(&["check", "--rules-dir", "rules", "x", "--json"], p);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["sources"][0]["source"], "x", "{report}");
}

#[test]
fn a_reader_gone_from_stdout_does_not_hide_the_records_that_failed_before() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("rules")).unwrap();
    let input = "{\"id\": 1, \"source\": \"a\", \"text\": oops}\n{\"id\": 2, \"source\": \"a\", \"text\": \"b\"}\n";
    fs::write(dir.path().join("c.jsonl"), input).unwrap();
    // `chaff clean … | head -0`: stdout closed before anything is written
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(["clean", "--rules-dir", "rules", "c.jsonl"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let err = text(&o.stderr);
    assert!(err.contains("c.jsonl:1:"), "the bad line is named: {err}");
    assert!(!err.contains("Broken pipe"), "a closed pipe is no error: {err}");
    assert_eq!(o.status.code(), Some(1), "{err}");
}
