//! Frame cuts: a footer string followed by page-specific comments. `cut-after` on the footer
//! removes every comment; no `remove` rule could, because no two pages share their comments.

use chaff::cleaning::{Cleaner, SpanKind};
use chaff::corpus::{Corpus, Document};
use chaff::frame::{CutParams, suggest_cuts};
use chaff::generate::{GeneratedSource, comments};
use chaff::mining::{MiningConfig, Quiet, mine};
use chaff::rules::{Action, MiningParams, RulesFile, Status};
use chaff::symbol::display;

fn mined() -> (GeneratedSource, Corpus, RulesFile) {
    let source = comments(60, 11);
    let docs = source.docs.iter().map(|d| Document { id: d.id.clone(), text: d.text.clone() }).collect();
    let corpus = Corpus::from_docs("comments", docs);
    let mining = mine(&corpus, &MiningConfig::default(), &Quiet).unwrap();
    let file = chaff::merge::from_mining(&mining, MiningParams::default(), None);
    (source, corpus, file)
}

/// The editor's choice on this source: the strings found on at least 90% of the pages, and the
/// suggested cuts.
fn accept_template_mode(file: &mut RulesFile) {
    let docs = file.documents;
    for r in &mut file.rules {
        let keep = r.df * 10 >= docs * 9 || r.action != Action::Remove;
        r.status = if keep { Status::Accepted } else { Status::Rejected };
    }
}

/// Words 2 to 6 of a line: its first word may be a number or date that a rule removed with the line break.
fn middle_words(text: &str) -> String {
    text.split_whitespace().skip(1).take(5).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_responses_footer_is_suggested_as_cut_after_and_removes_every_comment() {
    let (source, corpus, mut file) = mined();
    let changed = suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
    assert!(changed > 0);
    let footer = file.rules.iter().find(|r| display(&r.symbols()) == "«number» responses").expect("mined");
    assert_eq!(footer.action, Action::CutAfter);
    // the header's last string, the "on <date> in" of "Posted by <name> on <date> in <section>"
    let header: Vec<String> =
        file.rules.iter().filter(|r| r.action == Action::CutBefore).map(|r| display(&r.symbols())).collect();
    assert!(header.iter().any(|h| h.starts_with("on «number» «month» «number»")), "{header:?}");

    accept_template_mode(&mut file);
    let cleaner = Cleaner::new(&file, false).unwrap();
    let mut cut_pages = 0;
    for (doc, generated) in corpus.docs.iter().zip(&source.docs) {
        if !doc.text.contains(" responses\n") {
            continue;
        }
        let out = cleaner.clean(&doc.text);
        assert!(!out.text.contains(" says: "), "{}: a comment survived:\n{}", doc.id, out.text);
        assert!(out.spans.iter().any(|s| s.kind == SpanKind::CutAfter), "{}", doc.id);
        // the article's last paragraph survives (template-mode rules such as "«month» «number»" may take a
        // word or two from it)
        let last = generated.body.lines().last().unwrap();
        assert!(out.text.contains(&middle_words(last)), "{}: lost {last:?}:\n{}", doc.id, out.text);
        cut_pages += 1;
    }
    assert!(cut_pages >= 40, "{cut_pages}");
}

#[test]
fn remove_rules_alone_leave_the_comments() {
    let (_, corpus, mut file) = mined();
    accept_template_mode(&mut file);
    let cleaner = Cleaner::new(&file, false).unwrap();
    for doc in corpus.docs.iter().filter(|d| d.text.contains(" responses\n")) {
        assert!(cleaner.clean(&doc.text).text.contains(" says: "), "{}", doc.id);
    }
}

#[test]
fn actions_round_trip_through_the_rules_file() {
    let (_, corpus, mut file) = mined();
    suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("comments.toml");
    file.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("action = \"cut-after\"") && text.contains("action = \"cut-before\""), "{text}");
    assert_eq!(RulesFile::load(&path).unwrap(), file);
}

#[test]
fn an_editors_decision_is_not_overridden() {
    let (_, corpus, mut file) = mined();
    let i = file.rules.iter().position(|r| display(&r.symbols()) == "«number» responses").unwrap();
    file.rules[i].status = Status::Accepted;
    suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
    assert_eq!(file.rules[i].action, Action::Remove);
}

/// A blog whose comment threads outweigh its short posts: each comment opens with "<name> <date> at
/// <time>" and is longer than the post on most pages.
const WORDS: &str = "river stone light quiet garden letter window morning bread salt winter harbor lamp \
    field orchard ladder candle meadow thunder pebble lantern willow copper velvet marble sparrow maple \
    cinder harvest anchor compass feather glacier hollow ivory juniper kettle lilac mosaic nectar \
    oyster prairie quartz ribbon saffron thistle umber vessel walnut yarrow zephyr amber basil cedar";

/// `n` of [`WORDS`] in a different sequence for every seed: no two pages share a sentence.
fn sentence(seed: usize, n: usize) -> String {
    let words: Vec<&str> = WORDS.split_whitespace().collect();
    let mut x = (seed as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) + 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            words[x as usize % words.len()]
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `corpus` mined with the defaults, its matches kept to those at a line's start or end.
fn mined_by_lines(corpus: &Corpus) -> RulesFile {
    let mining = mine(corpus, &MiningConfig::default(), &Quiet).unwrap();
    let mut file = chaff::merge::from_mining(&mining, MiningParams::default(), None);
    file.set_line_boundary(true);
    file
}

fn long_threads() -> Corpus {
    threads(false)
}

/// As [`long_threads`]; with `pingbacks`, six pages in ten list a pingback right above the thread's footer.
fn threads(pingbacks: bool) -> Corpus {
    let word = |i: usize| WORDS.split_whitespace().nth(i % WORDS.split_whitespace().count()).unwrap_or_default();
    let docs = (0..10)
        .map(|p| {
            let mut t = format!(
                "Quiet Blog Home Archives Subscribe\nPost number {p} about {}\nby Ann Author on July {}, 2012\n",
                word(p),
                p + 1
            );
            t += &format!("{} post{p}.\n{} end{p}.\n", sentence(p, 12), sentence(p + 1, 10));
            if pingbacks && p % 3 != 0 {
                t += &format!("Elsewhere{p} links here\n07.{:02}.12 at 08:07\n", p + 1);
            }
            t += &format!("{{ {} comments… read them below or add one }}\n", 4 + p);
            for c in 0..4 + p {
                t += &format!("Reader{p}x{c} July {}, 2012 at {}:{:02} pm\n", p + 2, 1 + c % 11, (7 * c) % 60);
                // most comments are longer than the post: 40 words
                t += &format!("{} c{p}x{c}.\nReply\n", sentence(p * 31 + c, 40));
            }
            t += "Leave a Comment\nName\nE-mail\nGet smart with the Quiet Theme.\n";
            Document { id: format!("p{p}"), text: t }
        })
        .collect();
    Corpus::from_docs("threads", docs)
}

#[test]
fn a_comment_thread_longer_than_its_post_is_cut_after_the_post() {
    let corpus = long_threads();
    let mut file = mined_by_lines(&corpus);
    // the comment's "<date> at <time>" marks list items: the block is the post, not the longest comment
    let all = Cleaner::new(&file, true).unwrap();
    for doc in &corpus.docs {
        let (start, end) = all.article_block(&doc.text, &all.matches(&doc.text)).expect("a block");
        assert!(doc.text[start..end].contains(" post"), "{}: block {:?}", doc.id, &doc.text[start..end]);
    }
    suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
    let footer = file.rules.iter().find(|r| display(&r.symbols()).starts_with("{ «number» comments…"));
    assert_eq!(footer.map(|r| r.action), Some(Action::CutAfter), "{:?}", footer.map(|r| &r.tokens));
    let cleaner = Cleaner::new(&file, true).unwrap();
    for doc in &corpus.docs {
        let out = cleaner.clean(&doc.text).text;
        let p = &doc.id[1..];
        assert!(!out.contains("Reply") && !out.contains(&format!(" c{p}x")), "{}: a comment survived:\n{out}", doc.id);
        assert!(out.contains(&format!("end{p}.")), "{}: lost the post:\n{out}", doc.id);
    }
}

#[test]
fn a_footer_string_inside_a_longer_nearest_frame_string_is_still_next_to_the_block() {
    // on half the pages "<date> at <time> { N comments… }" is one mined string, nearer to the post than
    // the footer string alone: the footer string is still the one that cuts
    let corpus = threads(true);
    let mut file = mined_by_lines(&corpus);
    suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
    let footer =
        file.rules.iter().find(|r| display(&r.symbols()) == "{ «number» comments… read them below or add one }");
    assert_eq!(footer.map(|r| r.action), Some(Action::CutAfter), "{:?}", footer.map(|r| &r.tokens));
}

#[test]
fn suggestion_reads_an_even_spread_of_at_most_max_pages() {
    let (_, corpus, mut file) = mined();
    // one page judged: no string is on the two pages a suggestion needs
    let one = CutParams { max_pages: 1, ..CutParams::default() };
    assert_eq!(suggest_cuts(&corpus, &mut file, &one).unwrap(), 0);
    let some = CutParams { max_pages: 20, ..CutParams::default() };
    assert!(suggest_cuts(&corpus, &mut file, &some).unwrap() > 0);
}

/// The comments source with `line` just above every article, and a pending rule for it: a header string
/// on every page, next to the article.
fn with_header_line(line: &str, tokens: &[&str], regex: &str) -> (Corpus, RulesFile) {
    let source = comments(60, 11);
    let docs = source
        .docs
        .iter()
        .map(|d| {
            let first = d.body.lines().next().unwrap();
            Document { id: d.id.clone(), text: d.text.replacen(first, &format!("{line}\n{first}"), 1) }
        })
        .collect();
    let corpus = Corpus::from_docs("comments", docs);
    let mining = mine(&corpus, &MiningConfig::default(), &Quiet).unwrap();
    let mut file = chaff::merge::from_mining(&mining, MiningParams::default(), None);
    let mut rule = file.rules[0].clone();
    rule.id = "rheader".into();
    rule.status = Status::Pending;
    rule.action = Action::Remove;
    rule.tokens = tokens.iter().map(|t| t.to_string()).collect();
    rule.regex = regex.into();
    rule.bin = 100;
    file.rules.push(rule);
    (corpus, file)
}

#[test]
fn mining_proposes_no_cut_from_a_generic_string() {
    let upcase = r"(?:[[:upper:]][[:upper:]\-_&]{2,}[[:punct:]]*)";
    // the same place on every page: a specific string there is a header cut, a generic one never
    let (corpus, mut file) = with_header_line("Filed DESK", &["Filed", "«upcase»"], &format!(r"Filed\s+{upcase}"));
    suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
    assert_eq!(file.rules.last().unwrap().action, Action::CutBefore, "the control string is a cut");
    let (corpus, mut file) = with_header_line("The DESK", &["The", "«upcase»"], &format!(r"The\s+{upcase}"));
    suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
    assert_eq!(file.rules.last().unwrap().action, Action::Remove, "\"The «upcase»\" is no cut");
    // nor its German, French or Russian counterpart
    for the in ["Die", "Les", "В"] {
        let (corpus, mut file) =
            with_header_line(&format!("{the} DESK"), &[the, "«upcase»"], &format!(r"{the}\s+{upcase}"));
        suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
        assert_eq!(file.rules.last().unwrap().action, Action::Remove, "\"{the} «upcase»\" is no cut");
    }
}

#[test]
fn generic_strings_are_common_words_and_patterns_as_prose_writes_them() {
    let generic = |t: &[&str]| chaff::frame::is_generic(&t.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert!(generic(&["The", "«upcase»"]) && generic(&["«number»", "The"]) && generic(&["of", "the"]));
    assert!(generic(&["in", "«month»"]) && generic(&["to", "the", "«upcase»"]));
    // and their counterparts in the languages whose dates the bundled patterns read
    assert!(generic(&["Die", "«upcase»"]) && generic(&["in", "der"]) && generic(&["«number»", "Le"]));
    assert!(generic(&["de", "la", "«upcase»"]) && generic(&["в", "«month»"]) && generic(&["van", "het"]));
    assert!(!generic(&["Mehr", "zum", "Thema"]) && !generic(&["Lire", "la", "suite"]));
    // words of the template, capitals, symbols and patterns alone, and longer strings are judged by place
    assert!(!generic(&["Related", "Stories"]) && !generic(&["...", "BY", "«upcase»", "«upcase»"]));
    assert!(!generic(&["©", "«number»"]) && !generic(&["«month»", "«number»", "«number»"]));
    assert!(!generic(&["on", "«number»", "«month»", "«number»", "in"]));
}

#[test]
fn a_string_on_both_sides_of_the_article_on_some_page_is_no_cut() {
    let upcase = r"(?:[[:upper:]][[:upper:]\-_&]{2,}[[:punct:]]*)";
    let (mut corpus, mut file) = with_header_line("Filed DESK", &["Filed", "«upcase»"], &format!(r"Filed\s+{upcase}"));
    // on one page the string also closes the article: a cut before its last match would take the article
    let source = comments(60, 11);
    let last = source.docs[3].body.lines().last().unwrap();
    let doc = &mut corpus.docs[3];
    doc.text = doc.text.replacen(last, &format!("{last}\nFiled DESK"), 1);
    suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
    assert_eq!(file.rules.last().unwrap().action, Action::Remove);
}

#[test]
fn mining_marks_a_string_standing_alone_on_its_lines_as_its_own_line_and_one_inside_lines_not() {
    const WORDS: [&str; 7] = ["apple", "birch", "cedar", "daisy", "elder", "fern", "grape"];
    let page = |i: usize| {
        let (w, v) = (WORDS[i], WORDS[(i + 3) % 7]);
        let tags = if i == 0 { "Lions, Fairhaven Harriers" } else { v };
        format!(
            "The {w} story\nTags: {tags}\nThe story of the {w} opens with words of its own about {v}.\n\
             Posted by {v} Kim\n{w} {v}\nFairhaven Harriers\n{v} {w}\n"
        )
    };
    // the team's name stands alone in the sidebar of every page, inside the tag line of one
    let docs = (0..7).map(|i| Document { id: format!("p{i}"), text: page(i) }).collect();
    let mining = mine(&Corpus::from_docs("teams", docs), &MiningConfig::default(), &Quiet).unwrap();
    let own_line = |text: &str| {
        let s = mining.strings.iter().find(|s| display(&s.symbols) == text);
        s.unwrap_or_else(|| {
            panic!("{text} not mined: {:?}", mining.strings.iter().map(|s| display(&s.symbols)).collect::<Vec<_>>())
        })
        .own_line
    };
    assert!(own_line("Fairhaven Harriers"), "seven of eight occurrences alone");
    assert!(!own_line("Posted «by»"), "a footer string a name follows on its line");
    assert!(!own_line("story Tags:"), "the end of one line and the start of the next");
}

/// Ten pages: a post, a related-stories strip (the footer string next to the post, missing on the
/// gallery page p9), a share bar and the day's most read headline, the page's tags, and the site's notice
/// above a list of popular stories.
fn with_notice() -> Corpus {
    let docs = (0..10)
        .map(|p| {
            let s = |k: usize, n: usize| sentence(p * 100 + k, n);
            let mut t = format!("The Site Home News Sport\nHeadline number {p}\n");
            t += &format!("{} post{p}.\n{} end{p}.\n", s(1, 16), s(2, 14));
            if p != 9 {
                t += &format!("Related stories\n{}\n{}\n", s(3, 4), s(4, 4));
            }
            t += "Share this\nTwitter\nFacebook\nEmail\nMost read\n\
                  Council Approves the New Harbour Budget for Schools and Parks\n";
            t += &format!("Tags: {}\n", s(5, 2));
            t += "External links are provided for reference and we are not responsible for their content.\n\
                  Copyright 2012 The Site\nMost popular today\n";
            t += &format!("{} pop{p}.\n{} more{p}.\n", s(6, 14), s(7, 14));
            Document { id: format!("p{p}"), text: t }
        })
        .collect();
    Corpus::from_docs("notice", docs)
}

#[test]
fn a_footers_notice_not_next_to_the_article_cuts_where_the_nearer_footer_string_is_missing() {
    let corpus = with_notice();
    let mut file = mined_by_lines(&corpus);
    suggest_cuts(&corpus, &mut file, &CutParams::default()).unwrap();
    let action = |text: &str| {
        file.rules.iter().find(|r| r.example.contains(text)).map(|r| (r.action, r.example.clone())).expect(text)
    };
    assert_eq!(action("Related stories").0, Action::CutAfter, "the footer string next to the post");
    let notice = action("External links are provided");
    assert_eq!(notice.0, Action::CutAfter, "{notice:?}");
    // a share bar and the day's most read headline after every post, never next to it, hold no sentence:
    // they may stand above an article
    let share = action("Twitter");
    assert!(share.1.contains("Council Approves"), "{share:?}");
    assert_eq!(share.0, Action::Remove, "{share:?}");
    let gallery = corpus.docs.iter().find(|d| d.id == "p9").unwrap();
    let out = Cleaner::new(&file, true).unwrap().clean(&gallery.text).text;
    assert!(out.contains("end9.") && !out.contains("pop9.") && !out.contains("more9."), "{out}");
}
