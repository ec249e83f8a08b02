use super::*;
use crate::automatic::automatic_rules;
use crate::corpus::Document;
use crate::mining::{MiningConfig, Quiet, mine};
use crate::rules::MiningParams;
use crate::settings::Settings;
use crate::tokens::Tokenizer;
use chaff_generate::sevendays;

fn mined_sevendays() -> RulesFile {
    let source = sevendays(120, 20_070_227);
    let docs: Vec<Document> = source.docs.iter().map(|d| Document { id: d.id.clone(), text: d.text.clone() }).collect();
    let corpus = Corpus::from_docs("sevendays", docs);
    let config = MiningConfig::default();
    let mining = mine(&corpus, &config, &Quiet).unwrap();
    automatic_rules(&corpus, &mining, MiningParams::of(&config), None, &Settings::default()).unwrap()
}

#[test]
fn sevendays_mined_alone_proposes_none_of_its_articles_idioms() {
    let file = mined_sevendays();
    for idiom in [&["of", "the"][..], &["in", "«month»"], &["since", "«number»"], &["«number»", "The"]] {
        let r = file.rules.iter().find(|r| r.tokens == idiom).unwrap_or_else(|| panic!("{idiom:?} not mined"));
        assert!(!file.is_active(r, true) && r.idiom, "{idiom:?}: {:?}", r.status);
    }
    // the template stays: header, footer, related headline strings
    for template in [&["Please", "login", "to", "leave", "a", "reply"][..], &["read", "more"]] {
        let r = file.rules.iter().find(|r| r.tokens == template).unwrap();
        assert!(file.is_active(r, true) && !r.idiom, "{template:?}");
    }
}

#[test]
fn common_phrases_are_short_strings_of_common_words_and_patterns() {
    assert!(is_common_phrase(&t("since «number»"), 3));
    assert!(is_common_phrase(&t("«number» The"), 3));
    assert!(!is_common_phrase(&t("read more"), 3), "read is a label's word");
    assert!(!is_common_phrase(&t("«number» «month»"), 3), "patterns alone are left to reject_patterns");
    assert!(!is_common_phrase(&t("of the of the"), 3), "too long");
    assert!(is_common_phrase(&t("«by» «number» per cent in «month» the"), 8));
    assert!(!is_common_phrase(&t("«by» «number» per cent in «month» the Daily"), 8), "a word of its own");
}

fn t(s: &str) -> Vec<String> {
    s.split(' ').map(String::from).collect()
}

/// `matches` matches at positions whose sum and sum of squares (in millionths) are `positions`, `in_prose`
/// of them inside prose, with (left, right) distinct neighbours and (top left, top right) matches with the
/// most frequent one.
fn matched(matches: usize, sides: [usize; 4], positions: (u64, u64), in_prose: usize) -> Neighbours {
    let [left, right, top_left, top_right] = sides;
    let (pos_sum, pos_sq) = positions;
    Neighbours {
        matches,
        left,
        right,
        top_left,
        top_right,
        pos_sum,
        pos_sq,
        in_prose,
        free: matches,
        free_prose: in_prose,
    }
}

#[test]
fn a_common_phrase_in_one_place_of_its_pages_is_no_idiom() {
    let p = IdiomParams::default();
    // a byline "by «upcase»" under every headline: same place, same neighbours
    let placed = matched(100, [1, 40, 100, 5], (5_000_000, 260_000_000_000), 100);
    assert!(placed.spread() < 0.05, "{}", placed.spread());
    assert!(!is_idiom(&t("by «upcase»"), &placed, &p));
    let spread = Neighbours { pos_sum: 50_000_000, pos_sq: 33_000_000_000_000, ..placed };
    assert!(spread.spread() > 0.2, "{}", spread.spread());
    assert!(is_idiom(&t("by «upcase»"), &spread, &p));
    // spread down the page, but each a line of its own (a comment's date line): a list, no idiom
    let lines = Neighbours { in_prose: 10, ..spread };
    assert!(!is_idiom(&t("by «upcase»"), &lines, &p));
}

#[test]
fn a_short_string_inside_sentences_all_over_its_pages_is_an_idiom_whatever_its_words() {
    let p = IdiomParams::default();
    // "could cost $2.7 billion": few neighbours (could, will; billion, million), inside prose lines
    let prose = matched(40, [2, 2, 30, 25], (20_000_000, 13_000_000_000_000), 40);
    assert!(prose.spread() > 0.2, "{}", prose.spread());
    assert!(is_idiom(&t("cost «number»"), &prose, &p));
    // the same words, a line of their own on some pages: a label's value, no idiom
    assert!(!is_idiom(&t("cost «number»"), &Neighbours { in_prose: 30, ..prose }, &p));
    // longer, with words of its own: a template sentence, left to the other tests
    assert!(!is_idiom(&t("Total cost «number» incl. shipping"), &prose, &p));
    // in one place of its pages (an inline price label under every headline): not spread, no idiom
    let placed = Neighbours { pos_sum: 4_000_000, pos_sq: 410_000_000_000, ..prose };
    assert!(placed.spread() < 0.05, "{}", placed.spread());
    assert!(!is_idiom(&t("cost «number»"), &placed, &p));
}

/// A match's neighbours counted as they read: lowercased tokens, pattern names and page edges as
/// strings, in a map per rule.
fn neighbours_by_brute_force(corpus: &Corpus, file: &RulesFile, rules: &[usize]) -> Vec<Neighbours> {
    use std::collections::HashMap;
    let mutable = MutableSet::new(file.mutable.clone()).unwrap();
    // the judged rules, then every other candidate in force: their matches cover the judged ones'
    let others = (0..file.rules.len()).filter(|i| {
        let r = &file.rules[*i];
        !rules.contains(i) && r.status != Status::Rejected && r.bin >= file.cutoff.chosen && !r.tokens.is_empty()
    });
    let all: Vec<&Rule> = rules.iter().copied().chain(others).map(|i| &file.rules[i]).collect();
    let cleaner = Cleaner::with_patterns(file.tokenizer, &mutable, all, 0).unwrap();
    let mut sides =
        vec![
            (HashMap::<String, usize>::new(), HashMap::<String, usize>::new(), 0u64, 0u64, 0usize, 0usize, 0usize);
            rules.len()
        ];
    let word = |text: &str, span: Option<&(usize, usize)>, edge: &str| match span {
        None => edge.to_string(),
        Some(&(a, b)) => match mutable.classify(&text[a..b]) {
            Some(p) => format!("«{p}»"),
            None => text[a..b].to_lowercase(),
        },
    };
    for doc in &corpus.docs {
        let text = doc.text.as_str();
        let spans = file.tokenizer.spans(text);
        let layout = Layout::new(text);
        let matches = cleaner.raw_matches(text);
        for m in &matches {
            if m.rule as usize >= rules.len() {
                continue;
            }
            let first = spans.iter().position(|s| s.0 >= m.start).unwrap_or(spans.len());
            let last = spans.iter().position(|s| s.1 > m.end).unwrap_or(spans.len());
            let covered =
                matches.iter().any(|o| o.start <= m.start && m.end <= o.end && (o.start, o.end) != (m.start, m.end));
            let in_prose = inside_prose(&layout, m.start, m.end);
            let (l, r, sum, sq, prose, free, free_prose) = &mut sides[m.rule as usize];
            *free += usize::from(!covered);
            *free_prose += usize::from(!covered && in_prose);
            *l.entry(word(text, first.checked_sub(1).map(|k| &spans[k]), "^")).or_default() += 1;
            *r.entry(word(text, spans.get(last), "$")).or_default() += 1;
            let pos = (m.start as u64 * 1_000_000) / text.len().max(1) as u64;
            *sum += pos;
            *sq += pos * pos;
            *prose += usize::from(in_prose);
        }
    }
    sides
        .into_iter()
        .map(|(l, r, pos_sum, pos_sq, in_prose, free, free_prose)| Neighbours {
            matches: l.values().sum(),
            left: l.len(),
            right: r.len(),
            top_left: l.values().max().copied().unwrap_or(0),
            top_right: r.values().max().copied().unwrap_or(0),
            pos_sum,
            pos_sq,
            in_prose,
            free,
            free_prose,
        })
        .collect()
}

#[test]
fn neighbours_counted_from_their_keys_are_the_neighbours_as_read() {
    let source = sevendays(60, 11);
    let docs: Vec<Document> = source.docs.iter().map(|d| Document { id: d.id.clone(), text: d.text.clone() }).collect();
    let corpus = Corpus::from_docs("sevendays", docs);
    let config = MiningConfig::default();
    let mining = mine(&corpus, &config, &Quiet).unwrap();
    let file = crate::merge::from_mining(&mining, MiningParams::of(&config), None);
    let rules: Vec<usize> = (0..file.rules.len()).collect();
    let found = neighbours(&corpus, &file, &rules).unwrap();
    assert_eq!(found, neighbours_by_brute_force(&corpus, &file, &rules));
    // the short strings judged, the longer ones covering them
    let short: Vec<usize> = (0..file.rules.len()).filter(|&i| file.rules[i].tokens.len() <= 3).collect();
    let found_short = neighbours(&corpus, &file, &short).unwrap();
    assert_eq!(found_short, neighbours_by_brute_force(&corpus, &file, &short));
    assert!(found_short.iter().any(|n| n.free < n.matches), "some short string lies inside a longer one");
    assert!(
        found.iter().any(|n| n.left > 1 && n.right > 1 && n.matches > n.left),
        "some rule has varied and repeated neighbours"
    );
}

#[test]
fn prose_lines_answer_as_inside_prose_for_every_span_of_words() {
    let text = "Home | News | Sport\nThe council said on Monday that the new road would open in spring. It cost more.\n\
                one two three four five six seven eight nine\n  Read more of the story here, as it said so. \nEnd";
    let layout = Layout::new(text);
    let mut lines = ProseLines::new(&layout);
    let spans = Tokenizer::Text.spans(text);
    let mut inside = 0;
    for (i, a) in spans.iter().enumerate() {
        for b in &spans[i..] {
            let expected = inside_prose(&layout, a.0, b.1);
            assert_eq!(lines.inside(a.0, b.1), expected, "{:?}", &text[a.0..b.1]);
            inside += usize::from(expected);
        }
    }
    assert!(inside > 0, "some span stands inside prose");
}

/// A blog of `n` pages (at most 12): each an article sentence holding a phrase other sites write too,
/// and a platform's footer, "Leave a comment".
fn blog(n: usize) -> Corpus {
    let words = [
        "harbour", "orchard", "library", "station", "market", "bridge", "garden", "museum", "school", "theatre",
        "stadium", "airport",
    ];
    let docs: Vec<Document> = words
        .iter()
        .enumerate()
        .take(n)
        .map(|(i, w)| {
            let (a, b) = (words[(i + 3) % 12], words[(i + 7) % 12]);
            Document {
                id: format!("{i:02}"),
                text: format!(
                    "The {w} opened after the {a} closed.\nPeople near the {w} said the {a} was, in the end, \
                     a better place than the {b} for everyone who lives by the {w}.\nLeave a comment\n"
                ),
            }
        })
        .collect();
    Corpus::from_docs("blog", docs)
}

#[test]
fn a_string_other_sources_share_is_given_back_when_it_stands_on_its_own_lines_here() {
    use crate::rules::MiningParams;
    let corpus = blog(12);
    let config = MiningConfig::default();
    let mut mining = mine(&corpus, &config, &Quiet).unwrap();
    // as if both strings were candidates on other sites mined together
    let phrase = "was, in the end, a better place than the";
    let shared = |key: &str| usize::from(key == "Leave a comment" || key == phrase);
    assert_eq!(crate::cross_source::flag(&mut mining, 2, shared), 2);
    let mut file = crate::merge::from_mining(&mining, MiningParams::of(&config), None);
    let status = |file: &RulesFile, text: &str| {
        let r = file.rules.iter().find(|r| r.tokens.join(" ") == text).unwrap_or_else(|| panic!("{text} mined"));
        (r.status, r.idiom)
    };
    assert_eq!(status(&file, "Leave a comment"), (Status::Rejected, true));
    let given = restore_shared_templates(&corpus, &mut file, None, &IdiomParams::default()).unwrap();
    assert_eq!(given, 1);
    assert_eq!(status(&file, "Leave a comment"), (Status::Pending, false), "a line of its own: template");
    assert_eq!(status(&file, phrase), (Status::Rejected, true), "inside sentences: an idiom");
    // a decision carried over from the file re-mined stays
    let mut again = crate::merge::from_mining(&mining, MiningParams::of(&config), Some(&file));
    for r in again.rules.iter_mut().filter(|r| r.tokens.join(" ") == "Leave a comment") {
        (r.status, r.idiom) = (Status::Rejected, true);
    }
    let previous = again.clone();
    restore_shared_templates(&corpus, &mut again, Some(&previous), &IdiomParams::default()).unwrap();
    assert_eq!(status(&again, "Leave a comment"), (Status::Rejected, true));
}

#[test]
fn a_shared_template_is_given_back_on_a_source_of_few_pages() {
    use crate::rules::MiningParams;
    // four pages: the footer matches four times, fewer than an idiom is judged on
    let corpus = blog(4);
    let config = MiningConfig::default();
    let mut mining = mine(&corpus, &config, &Quiet).unwrap();
    let shared = |key: &str| usize::from(key == "Leave a comment");
    assert_eq!(crate::cross_source::flag(&mut mining, 2, shared), 1);
    let mut file = crate::merge::from_mining(&mining, MiningParams::of(&config), None);
    assert_eq!(restore_shared_templates(&corpus, &mut file, None, &IdiomParams::default()).unwrap(), 1);
    let r = file.rules.iter().find(|r| r.tokens.join(" ") == "Leave a comment").unwrap();
    assert_eq!((r.status, r.idiom), (Status::Pending, false));
}

#[test]
fn a_few_common_words_inside_longer_template_strings_and_elsewhere_inside_sentences_are_an_idiom() {
    let p = IdiomParams::default();
    // "the «upcase»": ten matches in the footer's "About the HBC", seven in the articles' sentences; in
    // one place of the pages, so the spread does not show it
    let placed = matched(17, [3, 4, 10, 10], (9_000_000, 4_770_000_000_000), 7);
    assert!(!is_idiom(&t("the «upcase»"), &placed, &p), "without knowing what covers it");
    let inside = Neighbours { free: 7, free_prose: 7, ..placed };
    assert!(is_idiom(&t("the «upcase»"), &inside, &p));
    // its other matches on lines of their own: a template's
    assert!(!is_idiom(&t("the «upcase»"), &Neighbours { free_prose: 2, ..inside }, &p));
    // most matches outside longer strings: the spread decides, not this
    assert!(!is_idiom(&t("the «upcase»"), &Neighbours { free: 12, free_prose: 12, ..inside }, &p));
    // too few matches outside to tell
    assert!(!is_idiom(&t("the «upcase»"), &Neighbours { free: 2, free_prose: 2, ..inside }, &p));
    // a long string of the site's own words is no idiom, wherever it stands
    let long = t("Share this page with your friends on Facebook");
    assert!(!is_idiom(&long, &inside, &p));
}
