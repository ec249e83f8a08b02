use super::*;

#[test]
fn thesis_tokens_normalize_as_in_chapter_5() {
    let set = MutableSet::defaults();
    let name = |t: &str| set.classify(t).map(|i| set.patterns()[i].name.as_str());
    assert_eq!(name("Tuesday,"), Some("weekday"));
    assert_eq!(name("Thursday"), Some("weekday"));
    assert_eq!(name("27th"), Some("ordinal"));
    assert_eq!(name("22nd"), Some("ordinal"));
    assert_eq!(name("February,"), Some("month"));
    assert_eq!(name("2007"), Some("number"));
    assert_eq!(name("http://example.com/a?b"), Some("url"));
    assert_eq!(name("news@example.com"), Some("email"));
    assert_eq!(name("U.S."), Some("initials"));
    assert_eq!(name("NASA"), Some("upcase"));
    assert_eq!(name("By"), Some("by"));
    // Whole-token only: a word that merely contains a weekday stays itself.
    assert_eq!(name("Sundays-best"), None);
    assert_eq!(name("read"), None);
    assert_eq!(name("|"), None);
    assert_eq!(name(","), None);
}

#[test]
fn invalid_pattern_names_itself() {
    let err = MutableSet::new(vec![MutablePattern::new("broken", "(unclosed")]).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("broken") && msg.contains("unclosed"), "{msg}");
    assert!(!msg.contains('\n'), "{msg}");
}

#[test]
fn equal_pattern_lists_share_one_compiled_set_and_different_lists_do_not_mix() {
    let a = MutableSet::new(default_patterns()).unwrap();
    let b = MutableSet::new(default_patterns()).unwrap();
    assert!(a.shares_compiled(&b), "the same list compiles once");
    let mut other = default_patterns();
    other[0].regex = format!("{}|zz-only-here", other[0].regex);
    let c = MutableSet::new(other.clone()).unwrap();
    assert!(!c.shares_compiled(&a));
    assert_eq!(c.classify("zz-only-here"), Some(0));
    assert_eq!(a.classify("zz-only-here"), None, "the defaults do not take the other list's pattern");
    // a list that differs only by a name is another list: the matcher looks slots up by name
    let mut renamed = default_patterns();
    renamed[0].name = "link".into();
    let d = MutableSet::new(renamed).unwrap();
    assert!(!d.shares_compiled(&a) && d.index_of("link") == Some(0) && a.index_of("link").is_none());
    // the order is part of the list: the first pattern that matches a token names it
    let mut reversed = default_patterns();
    reversed.reverse();
    let e = MutableSet::new(reversed).unwrap();
    assert!(!e.shares_compiled(&a));
    let name = |s: &MutableSet, t: &str| s.classify(t).map(|i| s.patterns()[i].name.clone());
    assert_ne!(name(&e, "2007"), name(&a, "2007"));
    // more lists than are kept: each still compiles as itself
    for i in 0..SHARED_SETS + 2 {
        let s = MutableSet::new(vec![MutablePattern::new("n", format!("{i}x"))]).unwrap();
        assert_eq!(s.classify(&format!("{i}x")), Some(0));
        assert_eq!(s.classify("0x"), (i == 0).then_some(0));
    }
}

#[test]
fn a_token_remembered_for_one_set_is_asked_again_of_another() {
    let digits = MutableSet::new(vec![MutablePattern::new("n", r"\d+")]).unwrap();
    let words = MutableSet::new(vec![MutablePattern::new("w", r"[a-z]+"), MutablePattern::new("n", r"\d+")]).unwrap();
    let long = "9".repeat(MEMO_TOKEN_BYTES + 1);
    for _ in 0..3 {
        for (token, d, w) in [("42", 1, 2), ("abc", 0, 1), ("4a", 0, 0), (long.as_str(), 1, 2)] {
            assert_eq!(digits.matches(token), d, "{token}");
            assert_eq!(words.matches(token), w, "{token}");
            assert_eq!((digits.ask(token), words.ask(token)), (d, w));
        }
    }
}

#[test]
fn a_pattern_the_lazy_dfa_gives_up_on_is_asked_of_the_regex_set() {
    // a Unicode word boundary on a non-ASCII token: the lazy DFA quits, the regex crate answers
    let set = MutableSet::new(vec![MutablePattern::new("w", r"\w+\b"), MutablePattern::new("n", r"\d+")]).unwrap();
    for (token, mask) in [("café", 1), ("naïve", 1), ("42", 3), ("é-", 0), ("abc", 1)] {
        assert_eq!(set.matches(token), mask, "{token}");
        let regex = RegexSet::new(wrapped(set.patterns())).unwrap();
        assert_eq!(regex.matches(token).iter().fold(0u64, |m, i| m | (1 << i)), mask, "{token}");
    }
}

/// Every token of the sample corpora's first pages, and tokens near each pattern's edges, in and out of
/// ASCII.
fn sample_tokens() -> Vec<String> {
    let mut tokens = Vec::new();
    for source in ["sevendays", "html_news", "comments", "mixed_templates", "optional_parts"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample-corpora").join(source);
        for entry in std::fs::read_dir(dir).unwrap().take(40) {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
            tokens.extend(text.split_whitespace().map(String::from));
        }
    }
    let edges = [
        "Ünïcödé",
        "١٢٣",
        "２０２６",
        "€12,50",
        "3rd.",
        "٣rd",
        "Ⅻ",
        "ＡＢＣ",
        "É.Ü.",
        "Éé.",
        "www.例え.jp",
        "www.",
        "ftp://",
        "https://é",
        "a@b.c",
        "é@ü.ö",
        "a@b",
        "—–",
        "--",
        "Sept.",
        "Sep",
        "hrs,",
        "mins",
        "By",
        "by,",
        "U.S",
        "A.B.C.",
        "AB-",
        "A&B",
        "NASA!",
        "12/31/2026",
        r"1\2",
        "$(3)",
        "[4]-",
        "1.000,00",
        "Mo",
        "Thurs.",
        "",
        "ß",
        "𝟙𝟚",
        "x\u{85}",
        "\u{a0}",
        "—",
        "(2007)",
        "#1",
        "Dec.,",
    ];
    for edge in edges {
        for t in [edge.to_string(), format!("{edge},"), format!("({edge})"), format!("{edge}é"), format!("é{edge}")] {
            tokens.push(t);
        }
    }
    tokens
}

#[test]
fn the_defaults_answer_as_the_regex_crates_set_on_every_token_of_the_sample_corpora() {
    let set = MutableSet::defaults();
    let oracle = RegexSet::new(wrapped(set.patterns())).unwrap();
    let tokens = sample_tokens();
    for token in &tokens {
        let expected = oracle.matches(token).iter().fold(0u64, |m, i| m | (1 << i));
        assert_eq!(set.matches(token), expected, "{token}");
    }
    assert!(tokens.len() > 5_000, "{}", tokens.len());
}

#[test]
fn the_builds_automaton_of_the_bundled_list_answers_as_one_built_from_it_now() {
    let loaded = MutableSet::defaults();
    assert_eq!(
        matches!(loaded.inner.dfa(), Automaton::Built(_)),
        automaton::BUNDLED_BUILT,
        "the default list's automaton is the build's wherever the build wrote one"
    );
    let built_now = MutableSet::compile(default_patterns()).unwrap();
    assert!(matches!(built_now.inner.dfa(), Automaton::Lazy(_)));
    let (mut differ, tokens) = (Vec::new(), sample_tokens());
    for token in &tokens {
        if loaded.ask(token) != built_now.ask(token) {
            differ.push(token.as_str());
        }
    }
    assert!(differ.is_empty(), "{differ:?}");
}

#[test]
fn the_defaults_compile_once_a_process_when_threads_ask_at_once() {
    let threads = 4;
    let start = std::sync::Barrier::new(threads);
    let sets: Vec<MutableSet> = std::thread::scope(|scope| {
        let asks: Vec<_> = (0..threads)
            .map(|i| {
                let start = &start;
                scope.spawn(move || {
                    start.wait();
                    let set = match i % 3 {
                        0 => {
                            compile_defaults_early();
                            MutableSet::new(default_patterns()).unwrap()
                        }
                        1 => MutableSet::new(default_patterns()).unwrap(),
                        _ => MutableSet::defaults(),
                    };
                    // a token asked builds the automaton, or waits for the build under way
                    assert_eq!(set.classify("2007"), set.index_of("number"));
                    set
                })
            })
            .collect();
        asks.into_iter().map(|t| t.join().unwrap()).collect()
    });
    compile_defaults_early();
    assert!(sets.iter().all(|s| s.shares_compiled(&sets[0])));
    assert_eq!(DEFAULT_COMPILES.load(Ordering::Relaxed), 1, "the default list is compiled once");
    assert_eq!(sets[0].classify("Tuesday,").map(|i| sets[0].patterns()[i].name.as_str()), Some("weekday"));
}

#[test]
fn a_list_of_its_own_is_compiled_as_itself_not_given_the_defaults() {
    compile_defaults_early();
    let defaults = MutableSet::defaults();
    let mut own = default_patterns();
    own.pop();
    own.push(MutablePattern::new("code", "[A-Z]{2}-[0-9]{3}"));
    let set = MutableSet::new(own.clone()).unwrap();
    assert!(!set.shares_compiled(&defaults));
    assert_eq!(set.patterns(), own.as_slice());
    assert_eq!(set.classify("AB-123"), set.index_of("code"));
    assert_eq!(defaults.index_of("code"), None);
    assert!(MutableSet::new(Vec::new()).unwrap().is_empty());
}

#[test]
fn a_list_that_failed_is_refused_again_not_remembered() {
    for _ in 0..2 {
        assert!(MutableSet::new(vec![MutablePattern::new("broken", "(unclosed")]).is_err());
    }
}

#[test]
fn duplicate_names_are_refused() {
    let p = MutablePattern::new("n", r"\d+");
    assert!(MutableSet::new(vec![p.clone(), p]).is_err());
}
