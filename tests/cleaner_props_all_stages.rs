//! Rule order never changes the output with every cleaning stage on (line boundaries, islands, the
//! title, short runs, reprints, list items, cuts), on documents of long lines, on HTML with real
//! markup, and on pages cleaned through their views, where the stages that read the page's elements run
//! too (`tests/cleaner_props.rs` covers the rules alone, heuristics off).

use chaff::clean_settings::{IslandsSettings, LinkDensitySettings, ShortRunsSettings, SpecksSettings};
use chaff::cleaning::{CleanSettings, Cleaner, Stage, Stages};
use chaff::mutable::MutableSet;
use chaff::page::Page;
use chaff::rules::{Action, Rule};
use chaff::symbol::Symbol;
use chaff::tokens::Tokenizer;
use chaff::view::DocKind;
use proptest::prelude::*;

fn patterns() -> &'static MutableSet {
    static SET: std::sync::OnceLock<MutableSet> = std::sync::OnceLock::new();
    SET.get_or_init(MutableSet::defaults)
}

const TEXT_WORDS: [&str; 10] = ["Read", "more", "Home", "the", "news", "By", "Ann.", "July", "2012", "Reply:"];
const HTML_PIECES: [&str; 14] = [
    "<div>",
    "</div>",
    "<p>",
    "</p>",
    "<a href=\"/x\">",
    "</a>",
    "<h1>",
    "</h1>",
    "<script>",
    "</script>",
    "Read",
    "more",
    "the news of the day.",
    "By Ann July 2012",
];

fn settings(tokenizer: Tokenizer) -> CleanSettings {
    let text = tokenizer == Tokenizer::Text;
    CleanSettings {
        merge_gap: 2,
        islands: IslandsSettings { words: 3 },
        short_runs: ShortRunsSettings { words: 20 },
        link_density: LinkDensitySettings { share: 50 },
        specks: SpecksSettings { chars: 6 },
        stages: Stages::all().with(Stage::LineBoundary, text).with(Stage::SentenceHeads, text),
    }
}

fn build(tokenizer: Tokenizer, spec: &[(Vec<&str>, u8)]) -> Vec<Rule> {
    spec.iter()
        .enumerate()
        .filter_map(|(i, (tokens, a))| {
            let action = match a {
                4 => Action::CutBefore,
                5 => Action::CutAfter,
                _ => Action::Remove,
            };
            let symbols: Vec<Symbol> = tokens.iter().map(|t| Symbol::decode(t)).collect();
            let rule = Rule::accepted(format!("r{i}"), &symbols, action, tokenizer, patterns()).ok()?;
            Some(Rule { bin: 99, ..rule })
        })
        .collect()
}

fn clean(tokenizer: Tokenizer, rules: &[Rule], text: &str) -> (String, Vec<(usize, usize)>) {
    let c = Cleaner::with_patterns(tokenizer, patterns(), rules, 2).unwrap().with_settings(settings(tokenizer));
    let out = c.clean(text);
    (out.text, out.spans.iter().map(|s| (s.start, s.end)).collect())
}

fn permuted(rules: &[Rule], seed: u64) -> Vec<Rule> {
    let mut shuffled = rules.to_vec();
    for i in (1..shuffled.len()).rev() {
        let j = (seed.wrapping_mul(6364136223846793005).wrapping_add(i as u64) >> 33) as usize % (i + 1);
        shuffled.swap(i, j);
    }
    shuffled.reverse();
    shuffled
}

/// Text of a few lines, some of them long (up to hundreds of words).
fn long_lines() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::collection::vec(prop::sample::select(&TEXT_WORDS[..]), 0..300), 1..6)
        .prop_map(|lines| lines.into_iter().map(|l| l.join(" ")).collect::<Vec<_>>().join("\n"))
}

fn html_page() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(&HTML_PIECES[..]), 0..200).prop_map(|pieces| {
        format!(
            "<html><head><title>The news of the day</title></head><body>{}</body></html>",
            pieces.join(if pieces.len() % 2 == 0 { "" } else { "\n" })
        )
    })
}

fn rules_of(words: &'static [&'static str]) -> impl Strategy<Value = Vec<(Vec<&'static str>, u8)>> {
    prop::collection::vec((prop::collection::vec(prop::sample::select(words), 1..4), 0u8..6), 1..8)
}

/// Pieces of a page with the structure the page-view stages read: comment threads, an article element,
/// link lists, headings, HTML's own furniture, code blocks (a `<pre>`'s newlines are line breaks).
const PAGE_PIECES: [&str; 29] = [
    "<div id=\"comments\">",
    "<div class=\"comment\">",
    "</div>",
    "<article>",
    "</article>",
    "<div class=\"storyText\">",
    "<p>",
    "</p>",
    "<ul class=\"related\">",
    "<aside>",
    "</aside>",
    "<nav>",
    "</nav>",
    "<pre>",
    "</pre>",
    "Read more\n}\n",
    "<li>",
    "</ul>",
    "<a href=\"/x\">",
    "</a>",
    "<h2>",
    "</h2>",
    "Read more",
    "Reply",
    "By Ann July 2012",
    "Related stories",
    "The minister said on Tuesday that the plan would go ahead in July as it was agreed.",
    "the news of the day.",
    "\n",
];

fn view_page() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(&PAGE_PIECES[..]), 0..120).prop_map(|pieces| {
        format!("<html><head><title>The news of the day</title></head><body>{}</body></html>", pieces.concat())
    })
}

const VIEW_WORDS: [&str; 10] = ["Read", "more", "Reply", "By", "Ann", "July", "Related", "stories", "the", "minister"];

const HTML_TOKENS: [&str; 10] = ["<div>", "</div>", "<p>", "</p>", "</a>", "Read", "more", "By", "Ann", "«number»"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn rule_order_never_changes_the_output_of_long_lines(
        spec in rules_of(&TEXT_WORDS), text in long_lines(), seed in any::<u64>()
    ) {
        let rules = build(Tokenizer::Text, &spec);
        prop_assert_eq!(
            clean(Tokenizer::Text, &rules, &text),
            clean(Tokenizer::Text, &permuted(&rules, seed), &text)
        );
    }

    #[test]
    fn rule_order_never_changes_the_output_of_html(
        spec in rules_of(&HTML_TOKENS), html in html_page(), seed in any::<u64>()
    ) {
        let rules = build(Tokenizer::Html, &spec);
        prop_assert_eq!(
            clean(Tokenizer::Html, &rules, &html),
            clean(Tokenizer::Html, &permuted(&rules, seed), &html)
        );
    }

    #[test]
    fn rule_order_never_changes_the_output_of_a_page_cleaned_through_its_view(
        spec in rules_of(&VIEW_WORDS), html in view_page(), seed in any::<u64>()
    ) {
        let rules = build(Tokenizer::Text, &spec);
        let page = |rules: &[Rule]| {
            let c = Cleaner::with_patterns(Tokenizer::Text, patterns(), rules, 2)
                .unwrap()
                .with_settings(settings(Tokenizer::Text));
            let cleaned = c.clean_page(Page::new(&html, DocKind::Html));
            (cleaned.text(), cleaned.spans.iter().map(|s| (s.start, s.end)).collect::<Vec<_>>())
        };
        prop_assert_eq!(page(&rules), page(&permuted(&rules, seed)));
    }
}
