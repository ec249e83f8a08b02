//! Property tests of the cleaner: rule order never changes the output, the token-level fast path agrees
//! with running the regexes, and the removed spans are the union of all matches.

use chaff::cleaning::Cleaner;
use chaff::mutable::MutableSet;
use chaff::rules::{Action, Rule};
use chaff::symbol::Symbol;
use chaff::tokens::Tokenizer;
use proptest::prelude::*;

const WORDS: [&str; 6] = ["a", "b", "read", "more", "Tuesday,", "22nd"];
const SYMBOLS: [&str; 8] = ["a", "b", "read", "more", "«weekday»", "«ordinal»", "«number»", "x"];

fn patterns() -> &'static MutableSet {
    static SET: std::sync::OnceLock<MutableSet> = std::sync::OnceLock::new();
    SET.get_or_init(MutableSet::defaults)
}

fn rule(i: usize, tokens: &[&str], action: Action) -> Rule {
    let symbols: Vec<Symbol> = tokens.iter().map(|t| Symbol::decode(t)).collect();
    Rule { bin: 99, ..Rule::accepted(format!("r{i}"), &symbols, action, Tokenizer::Text, patterns()).unwrap() }
}

fn doc() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (prop::sample::select(&WORDS[..]), prop::sample::select(&[" ", "  ", "\n", " \n "][..])),
        0..30,
    )
    .prop_map(|ws| ws.into_iter().map(|(w, s)| format!("{w}{s}")).collect())
}

fn rules() -> impl Strategy<Value = Vec<(Vec<&'static str>, u8)>> {
    prop::collection::vec((prop::collection::vec(prop::sample::select(&SYMBOLS[..]), 1..4), 0u8..6), 1..7)
}

fn build(spec: &[(Vec<&str>, u8)]) -> Vec<Rule> {
    spec.iter()
        .enumerate()
        .map(|(i, (t, a))| {
            // mostly remove rules, some cuts
            let action = match a {
                4 => Action::CutBefore,
                5 => Action::CutAfter,
                _ => Action::Remove,
            };
            rule(i, t, action)
        })
        .collect()
}

fn clean(rules: &[Rule], gap: usize, text: &str) -> (String, Vec<(usize, usize)>) {
    let c = Cleaner::with_patterns(Tokenizer::Text, patterns(), rules, gap).unwrap();
    let out = c.clean(text);
    (out.text, out.spans.iter().map(|s| (s.start, s.end)).collect())
}

proptest! {
    #[test]
    fn rule_order_never_changes_the_output(
        spec in rules(), text in doc(), gap in 0usize..6, seed in any::<u64>()
    ) {
        let rules = build(&spec);
        let mut shuffled = rules.clone();
        // a deterministic permutation from the seed
        let n = shuffled.len();
        for i in (1..n).rev() {
            let j = (seed.wrapping_mul(6364136223846793005).wrapping_add(i as u64) >> 33) as usize % (i + 1);
            shuffled.swap(i, j);
        }
        shuffled.reverse();
        prop_assert_eq!(clean(&rules, gap, &text), clean(&shuffled, gap, &text));
    }

    #[test]
    fn token_path_agrees_with_the_regexes(spec in rules(), text in doc(), gap in 0usize..6) {
        let rules: Vec<Rule> = build(&spec).into_iter().map(|r| Rule { action: Action::Remove, ..r }).collect();
        // A regex that differs from the synthesized one in form only is run as a regex.
        let as_regex: Vec<Rule> = rules.iter().map(|r| Rule { regex: format!("(?:{})", r.regex), ..r.clone() }).collect();
        prop_assert_eq!(clean(&rules, gap, &text), clean(&as_regex, gap, &text));
    }

    #[test]
    fn removed_spans_cover_every_match_and_only_matches(spec in rules(), text in doc()) {
        let rules: Vec<Rule> = build(&spec).into_iter().map(|r| Rule { action: Action::Remove, ..r }).collect();
        let c = Cleaner::with_patterns(Tokenizer::Text, patterns(), &rules, 0).unwrap();
        let spans = c.spans(&text);
        let matches = c.matches(&text);
        for m in &matches {
            prop_assert!(spans.iter().any(|s| s.start <= m.start && m.end <= s.end), "match {:?} not removed", m);
        }
        // every removed byte is in a match or is whitespace between matches
        for s in &spans {
            for (i, ch) in text[s.start..s.end].char_indices() {
                let at = s.start + i;
                prop_assert!(ch.is_whitespace() || matches.iter().any(|m| m.start <= at && at < m.end));
            }
        }
    }
}

#[test]
fn a_regex_rule_finds_overlapping_matches_as_the_token_rule_does() {
    // "a a" on "a a a b": the token rule matches at 0 and at 2; a regex searched on from a match's end
    // found only the first and left "a b"
    let rules = vec![rule(0, &["a", "a"], Action::Remove)];
    let as_regex: Vec<Rule> = rules.iter().map(|r| Rule { regex: format!("(?:{})", r.regex), ..r.clone() }).collect();
    assert_eq!(clean(&rules, 0, "a a a b "), clean(&as_regex, 0, "a a a b "));
    assert_eq!(clean(&as_regex, 0, "a a a b ").0, "b");
}
