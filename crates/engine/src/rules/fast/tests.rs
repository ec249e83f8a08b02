//! The short way reads a file as the TOML parser does, or declines: checked on files chaff writes and on
//! every one-character change of them.

use std::path::Path;

use super::*;
use crate::error::Result;
use crate::rules::region::RegionRule;
use crate::rules::{Action, Review};

/// A file with every kind of table and value chaff writes.
fn rich() -> RulesFile {
    let mut file = crate::rules::tests::sample();
    file.input = Some(crate::view::DocKind::Html);
    file.mining.max_tf_per_df = Some(2.5);
    file.review = Some(Review { reviewed_at: Some("2026-01-02T03:04:05Z".into()), accepted: 3, ..Default::default() });
    file.regions = vec![RegionRule::accepted("div#nav.menu", Action::Remove)];
    file.rules[0].example = "it's \"quoted\" \\ and\ttabbed, «x» 'single' end".into();
    file.rules[1].regex = r#"a'b\s+"c""#.into();
    file.rules[1].example = "«x» | \"quoted\"\nnew \"line\"".into();
    file
}

/// What reading `text` gives: the file and warnings, or the error's message.
fn read(text: &str, short: bool) -> std::result::Result<(RulesFile, Vec<String>), String> {
    let path = Path::new("x.toml");
    let result: Result<_> = if short {
        RulesFile::parse_checked(text, path)
    } else {
        RulesFile::parse_toml(text, path).map(|(mut f, w)| {
            f.migrate();
            (f, w)
        })
    };
    result.map_err(|e| e.to_string())
}

#[test]
fn files_chaff_writes_are_read_the_short_way_as_the_toml_parser_reads_them() {
    for file in [rich(), crate::rules::tests::sample(), RulesFile { source: "s".into(), ..Default::default() }] {
        let text = file.to_toml();
        let short = parse(&text).unwrap_or_else(|| panic!("read the short way:\n{text}"));
        let mut migrated = short.clone();
        migrated.migrate();
        assert_eq!(migrated, file);
        assert_eq!(read(&text, true), read(&text, false));
    }
}

#[test]
fn every_one_character_change_is_read_as_the_toml_parser_reads_it_or_declined() {
    let mut file = rich();
    file.rules.remove(0);
    let text = file.to_toml();
    let mut variants = Vec::new();
    for (i, _) in text.char_indices() {
        let (head, tail) = text.split_at(i);
        variants.push(format!("{head}{}", &tail[tail.chars().next().unwrap().len_utf8()..]));
        for c in ["'", "\"", "\\", "]", "=", "\n", "\r", "0", ","] {
            variants.push(format!("{head}{c}{tail}"));
        }
    }
    let mut short = 0;
    for v in &variants {
        let toml = read(v, false);
        if parse(v).is_some() {
            short += 1;
            assert_eq!(read(v, true), toml, "{v}");
        } else {
            assert_eq!(read(v, true), toml, "declined, read by the TOML parser:\n{v}");
        }
    }
    assert!(short > variants.len() / 4, "most changes of a value are still read the short way: {short}");
}

#[test]
fn forms_it_does_not_read_are_declined() {
    let base = "format = 3\nsource = \"s\"\n[cutoff]\nauto = 1\nchosen = 1\n";
    assert!(parse(base).is_some());
    assert!(parse("format = 3\nsource = \"s\"\ncutoff = [1, 2]\n").is_none(), "a struct is a table");
    for extra in [
        "documents = 0x10\n",
        "documents = 1_000\n",
        "\"documents\" = 1\n",
        "merge_gap = { a = 1 }\n",
        "source2 = 1\n",
        "islands = 3\n",
        "[mining]\nmin_tokens = 2\nmin_df = 2\nmax_tf_per_df = inf\n",
        "[clean]\nspecks = 3\n",
        "[[rule]]\nid = \"\"\"r\"\"\"\n",
        "[cutoff]\nauto = 2\n",
        "[mining]\nmin_tokens = 2\nmin_df = 2\nmax_tf_per_df = 1.\n",
        "[[mutable]]\nname = \"n\"\nregex = '''\n\\d+'''\n",
        "[review]\naccepted = 1\n[review]\n",
    ] {
        read_alike(&format!("{base}{extra}"), false);
    }
}

#[test]
fn forms_toml_allows_beside_those_chaff_writes_are_read_alike() {
    let base = "format = 3\nsource = \"s\"\n[cutoff]\nauto = 1\nchosen = 1\n";
    for extra in [
        "[mining]\nmin_tokens = 2\nmin_df = 2\nmax_tf_per_df = 2\n",
        "[mining]\nmin_tokens = +2 # two\nmin_df = 2\t\nmax_tf_per_df = 2.5e-1\n",
        "[ clean . short-runs ]\nwords = 3\n[clean]\noff = [\n  \"reprints\",\n  \"specks\",\n]\n",
        "[[rule]]\nid = \"r\\u00e9\"\nregex = \"a\"\ntokens = []\ntf = 1\ndf = 1\nbin = 5\ncoverage = 1\nexample = \"\"\"\na\"\"b\"\"\"\r\n",
        // escapes between runs of text, over lines, beside quotes and a character of several bytes
        "[[rule]]\nid = \"r\"\nregex = \"a\"\ntokens = []\ntf = 1\ndf = 1\nbin = 5\ncoverage = 1\nexample = \"\"\"\nx\\ty \\\\ é\\u00e9\n\"\"z\\\"\"\"\"\n",
    ] {
        read_alike(&format!("{base}{extra}"), true);
    }
}

/// `text` is read the short way (`short`) or declined, and read alike either way.
fn read_alike(text: &str, short: bool) {
    assert_eq!(parse(text).is_some(), short, "{text}");
    assert_eq!(read(text, true), read(text, false), "{text}");
}
