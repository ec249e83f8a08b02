//! Regressions of hand-written regex rules: linear work on any page, and a regex too costly or too big
//! refused when the rules file is read, naming the rule.

use std::process::Command;

use chaff::rules::{RulesFile, Status};

use crate::rules_files::{line_of, mined};
use crate::run::stderr;

/// A rule of hand-written regex `regex` with `action`.
fn regex_rule(id: &str, regex: &str, action: chaff::rules::Action) -> chaff::rules::Rule {
    use chaff::symbol::Symbol;
    let m = chaff::mutable::MutableSet::defaults();
    let rule = chaff::rules::Rule::accepted(id, &[Symbol::decode("x")], action, chaff::tokens::Tokenizer::Text, &m);
    chaff::rules::Rule { regex: regex.into(), tokens: Vec::new(), ..rule.unwrap() }
}

#[test]
fn regex_rules_that_match_the_rest_of_the_document_cost_linear_work() {
    use chaff::cleaning::{Cleaner, work};
    use chaff::rules::Action;
    // 20,000 lines of 2 MB, a run of 100 KB without a space, `x` now and then
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(&format!(
            "line {i} of the page with words and a few more words, then some more words to fill the line {} here\n",
            if i % 7 == 0 { "x" } else { "y" }
        ));
        if i == 10_000 {
            text.push_str(&"z".repeat(100_000));
            text.push('\n');
        }
    }
    // no newline at the end: `(?s).*` then ends on a token's end and is kept, one match of it all
    text.push_str("the end");
    assert!(text.len() > 2_000_000, "{} bytes", text.len());
    let settings = crate::cost::all_settings();
    for (regex, action) in [
        ("(?s).*", Action::CutAfter),
        ("(?s).*", Action::Keep),
        ("(?s).*", Action::Remove),
        ("(?s).*", Action::CutBefore),
        (r"[\s\S]{0,250}x", Action::Remove),
        (r"(?s)line.*?x", Action::CutBefore),
    ] {
        let rules = [regex_rule("hand", regex, action), regex_rule("tail", r"here", Action::Remove)];
        let cleaner = Cleaner::from_rules(
            chaff::tokens::Tokenizer::Text,
            chaff::mutable::MutableSet::defaults().patterns(),
            &rules,
            0,
        )
        .unwrap()
        .with_settings(settings);
        let (cleaned, reads) = work::measure(|| cleaner.clean(&text));
        if regex == "(?s).*" && action == Action::Remove {
            assert!(cleaned.text.trim().is_empty(), "the whole document is one match: {}", cleaned.text.len());
        }
        assert!(reads <= 40 * text.len(), "{regex} ({action:?}): {reads} bytes read for {} bytes", text.len());
    }
}

/// A regex rule's match that ends in whitespace (`(?s).*` on a page ending with a newline, as most files
/// do) or begins in it was dropped without a word, because it did not end on a token's end: the rule
/// removed nothing. Its tokens are what it matches.
#[test]
fn a_regex_rule_matching_whitespace_at_its_edges_still_removes_its_tokens() {
    use chaff::cleaning::Cleaner;
    use chaff::rules::Action;
    for (regex, text, left) in [
        ("(?s).*", "first line\nsecond line\n", ""),
        ("(?s).*", "\n  first line\nsecond line\n\n", ""),
        (r"read more\s+", "the article.\nread more \n", "the article."),
        (r"\s+read more", "the article.\n  read more", "the article."),
    ] {
        let rules = [regex_rule("hand", regex, Action::Remove)];
        let cleaner = Cleaner::from_rules(chaff::tokens::Tokenizer::Text, &[], &rules, 0).unwrap();
        let cleaned = cleaner.clean(text);
        assert_eq!(cleaned.text.trim(), left, "{regex:?} on {text:?}");
    }
}

/// A long counted repetition made the regex crate give up its DFA for an engine that read each byte
/// once per copy: such a rule is refused, naming it, and what to write instead.
/// A counted class under the budget of counted characters (`\S{0,250}x`) keeps a lazy-DFA state per count,
/// each holding many automaton states: with a cache sized for small rules it was rebuilt every few bytes
/// of a long run of letters, many times slower than `.{0,250}x`. Its cache now grows with its automaton.
#[test]
fn a_counted_class_under_the_budget_cleans_a_long_run_about_as_fast_as_any_character() {
    use chaff::cleaning::Cleaner;
    use chaff::rules::Action;
    let text = format!("a b c\n{}\nend x", "z".repeat(100_000));
    let time = |regex: &str| {
        let rules = [regex_rule("hand", regex, Action::Remove)];
        let cleaner = Cleaner::from_rules(chaff::tokens::Tokenizer::Text, &[], &rules, 0).ok()?;
        let started = std::time::Instant::now();
        let _ = cleaner.clean(&text);
        Some(started.elapsed())
    };
    let any = time(".{0,250}x").expect("accepted");
    if let Some(class) = time(r"\S{0,250}x") {
        assert!(class < 10 * any + std::time::Duration::from_millis(200), "{class:?} against {any:?}");
    }
}

#[test]
fn a_regex_too_costly_to_run_in_linear_time_is_refused_naming_the_rule() {
    use chaff::cleaning::Cleaner;
    use chaff::rules::Action;
    for regex in [r"[\s\S]{0,5000}x", r"(?:ab){0,200}", r".{0,200}.{0,200}"] {
        let rules = [regex_rule("slow", regex, Action::Remove)];
        let err = Cleaner::from_rules(chaff::tokens::Tokenizer::Text, &[], &rules, 0).unwrap_err().to_string();
        assert!(err.contains("rule slow") && err.contains("`*?`"), "{regex}: {err}");
    }
}

#[test]
fn an_over_long_regex_is_refused_at_once_in_little_memory() {
    let (dir, rules) = mined();
    let mut file = RulesFile::load(&rules).unwrap();
    file.rules[0].regex = "a".repeat(10 << 20);
    file.rules[0].tokens.clear();
    file.rules[0].status = Status::Accepted;
    let id = file.rules[0].id.clone();
    file.save(&rules).unwrap();
    // 1 GB of address space: parsing the regex took more
    let o = Command::new("sh")
        .args([
            "-c",
            &format!(
                "ulimit -v 1000000; exec {} clean --rules rules/sevendays.toml corpora/sevendays --out out",
                env!("CARGO_BIN_EXE_chaff")
            ),
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("rule {id}")) && err.contains("KiB a rule's regex may be"), "{err}");
}

#[test]
fn a_regex_past_its_memory_budget_is_refused_when_the_file_is_read() {
    let (_dir, rules) = mined();
    let mut file = RulesFile::load(&rules).unwrap();
    for r in file.rules.iter_mut() {
        r.regex = r"\w{1,150}\s\w{1,150}".into();
        r.status = Status::Pending;
    }
    let id = file.rules[0].id.clone();
    file.save(&rules).unwrap();
    let err = RulesFile::load(&rules).unwrap_err().to_string();
    let line = line_of(&rules, r"regex = '\w{1,150}");
    assert!(err.starts_with(&format!("{}:{line}:", rules.display())), "{err}");
    assert!(err.contains(&format!("rule {id}")) && err.contains("MiB"), "{err}");
    // rejected, as the message says, they never run: the file is read
    for r in file.rules.iter_mut() {
        r.status = Status::Rejected;
    }
    file.save(&rules).unwrap();
    RulesFile::load(&rules).expect("rejected rules are not sized");
}
