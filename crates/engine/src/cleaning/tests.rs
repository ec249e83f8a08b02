//! Helpers the stages' tests share (cleaners of a few rules, pages built around an article), and tests
//! of the cleaning pass as a whole.

use super::*;
use crate::symbol::Symbol;

pub(super) fn rule(id: &str, tokens: &str, action: Action, mutable: &MutableSet) -> Rule {
    rule_for(Tokenizer::Text, id, tokens, action, mutable)
}

pub(super) fn rule_for(tokenizer: Tokenizer, id: &str, tokens: &str, action: Action, mutable: &MutableSet) -> Rule {
    let symbols: Vec<Symbol> = tokens.split(' ').map(Symbol::decode).collect();
    // statistics as mined: an editor's rule has none (see `editor_made`)
    Rule { bin: 99, df: 1, tf: 1, ..Rule::accepted(id, &symbols, action, tokenizer, mutable).unwrap() }
}

/// A cleaner of `tokenizer` with `rules` (tokens separated by spaces, each rule numbered `r0`, `r1`…).
pub(super) fn cleaner_for(tokenizer: Tokenizer, rules: &[(&str, Action)], gap: usize) -> Cleaner {
    let m = MutableSet::defaults();
    let rules: Vec<Rule> =
        rules.iter().enumerate().map(|(i, (t, a))| rule_for(tokenizer, &format!("r{i}"), t, *a, &m)).collect();
    Cleaner::from_rules(tokenizer, m.patterns(), &rules, gap).unwrap()
}

/// `c` with the stages that keep the article's head on: `title`, `headline`, `datelines`.
pub(super) fn titled(c: Cleaner) -> Cleaner {
    c.with_stage(Stage::Title, true).with_stage(Stage::Headline, true).with_stage(Stage::Datelines, true)
}

pub(super) fn cleaner(rules: &[(&str, Action)], gap: usize) -> Cleaner {
    cleaner_for(Tokenizer::Text, rules, gap)
}

/// A cleaner of `rules` with `stage` on or off, a line half inside links link-dense (`link-density`,
/// `link-boxes`); `furniture` off, as their boxes are named as the web names them (`ul.related`).
pub(super) fn linked(rules: &[(&str, Action)], stage: Stage, on: bool) -> Cleaner {
    let mut c = cleaner(rules, 0).with_stage(Stage::Furniture, false).with_stage(stage, on);
    c.settings.link_density.share = 50;
    c
}

/// Three paragraphs of an article, as HTML: the page the tests of the stages that read the page's
/// elements build around.
pub(super) const ARTICLE_HTML: &str = "<p>The harbour opened on Monday after ten years of building work, the \
    mayor said today.</p><p>Ferries will run every hour from the new quay, and the old terminal closes in \
    the spring.</p><p>The council expects twice as many passengers by the end of next year, its report says.</p>";

/// A page whose byline and dateline stand between a menu and the article, a footer line under it.
pub(super) const BYLINE_PAGE: &str = "Big news today | Site\nMenu one two\nBy Jane Doe\nTuesday, November 6, 2012\n\
    Body text here, long enough to be the article block.\nFooter line here";

/// A page that prints its title again under a menu, a byline and a header string between it and the
/// article.
pub(super) const TITLED_PAGE: &str = "Big news today | Site\nMenu one two\nBig news today\nby A. Writer, July 3\n\
    Email this page\nShare this now\nBody text here, long enough to be the article block.";

/// `html` read through the page view and cleaned by `c` as `chaff clean --text` cleans it.
pub(super) fn cleaned_html(c: &Cleaner, html: &str) -> String {
    let view = crate::view::PageView::of_html(html);
    let doc = Layout::new(view.text());
    let matches = c.matches(view.text());
    let (spans, _) = c.run_on(&doc, &matches, view.structure());
    render(view.text(), &spans)
}

/// Whether `--explain` of `html` cleaned by `c` names `stage` behind something it kept.
pub(super) fn explains_kept_by(c: &Cleaner, html: &str, stage: Stage) -> bool {
    let view = crate::view::PageView::of_html(html);
    let explained = c.explain_on(view.text(), &c.matches(view.text()), view.structure());
    explained.decisions.iter().filter(|d| !d.removed).any(|d| d.reasons.contains(&Reason::Stage(stage)))
}

/// The cleaner's work per byte of `html`'s view, cleaned by `c`.
pub(super) fn work_per_byte_html(c: &Cleaner, html: &str) -> f64 {
    let view = crate::view::PageView::of_html(html);
    let doc = Layout::new(view.text());
    let matches = c.matches(view.text());
    let ((), scanned) = work::measure(|| {
        c.run_on(&doc, &matches, view.structure());
    });
    scanned as f64 / view.text().len() as f64
}

#[test]
fn removes_the_union_of_overlapping_and_adjacent_matches() {
    let c = cleaner(&[("a a b", Action::Remove), ("b c", Action::Remove), ("d", Action::Remove)], 0);
    let out = c.clean("x a a b c d y");
    assert_eq!(out.text, "x y");
    assert_eq!(out.spans.len(), 1, "{:?}", out.spans);
    assert_eq!(out.spans[0].rules, vec![0, 1, 2]);
}

#[test]
fn merge_gap_joins_close_intervals_only() {
    let c = cleaner(&[("read more", Action::Remove)], 0);
    assert_eq!(c.clean("read more xx read more body").text, "xx body");
    let c = cleaner(&[("read more", Action::Remove)], 5);
    assert_eq!(c.clean("read more xx read more body").text, "body", "4 characters apart, gap 5: joined");
    let c = cleaner(&[("read more", Action::Remove)], 4);
    assert_eq!(c.clean("read more xx read more body").text, "xx body", "4 characters apart, gap 4: not joined");
}

#[test]
fn a_wider_merge_gap_never_removes_less() {
    // a header and a footer string and "read more" between: the article block between them is found from
    // what the rules match, not from the removals the gap joins (which would join across the article)
    let page = "Site Menu Home\nread more\nThe council met on Tuesday and voted on the harbour plan for the town.\n\
                It will be built next year after a long debate about its cost and its size.\n\
                Leave a reply\nFooter links here";
    let rules =
        [("Site Menu Home", Action::CutBefore), ("read more", Action::Remove), ("Leave a reply", Action::CutAfter)];
    let mut before = 0;
    for gap in [0, 5, 20, 100, 1000, 100_000] {
        let removed: usize = cleaner(&rules, gap).spans(page).iter().map(|s| s.end - s.start).sum();
        assert!(removed >= before, "gap {gap}: {removed} bytes removed, {before} with a narrower gap");
        assert!(cleaner(&rules, gap).clean(page).text.contains("harbour plan"), "gap {gap}");
        before = removed;
    }
}

#[test]
fn hand_edited_regex_matches_at_token_boundaries_only() {
    let m = MutableSet::defaults();
    let mut r = rule("h", "read more", Action::Remove, &m);
    r.regex = r"read\s+mor".into();
    let c = Cleaner::from_rules(Tokenizer::Text, m.patterns(), &[r.clone()], 0).unwrap();
    assert_eq!(c.clean("read more read mor x").text, "read more x");
    r.regex = "(unclosed".into();
    let err = Cleaner::from_rules(Tokenizer::Text, m.patterns(), &[r], 0).unwrap_err().to_string();
    assert!(err.contains("rule h") && err.contains("unclosed"), "{err}");
}

/// `rules` as in [`cleaner`], and `editors` (token strings, remove) made by an editor: no statistics.
fn with_editors(rules: &[(&str, Action)], editors: &[&str]) -> Cleaner {
    let m = MutableSet::defaults();
    let mut all: Vec<Rule> =
        rules.iter().enumerate().map(|(i, (t, a))| rule_for(Tokenizer::Text, &format!("r{i}"), t, *a, &m)).collect();
    for (i, t) in editors.iter().enumerate() {
        let symbols: Vec<Symbol> = t.split(' ').map(Symbol::decode).collect();
        let r = Rule::accepted(format!("e{i}"), &symbols, Action::Remove, Tokenizer::Text, &m).unwrap();
        assert!(editor_made(&r));
        all.push(r);
    }
    titled(Cleaner::from_rules(Tokenizer::Text, m.patterns(), &all, 0).unwrap())
}

#[test]
fn a_line_an_editor_marked_as_template_stays_removed_whatever_the_title_and_datelines_stages_give_back() {
    // the dateline stage gives back the byline a mined rule removes, not the one the editor marked
    let text = BYLINE_PAGE;
    let mined = [
        ("Menu one two", Action::Remove),
        ("«weekday» «month» «number» «number»", Action::Remove),
        ("Footer line here", Action::Remove),
    ];
    let body = "Body text here, long enough to be the article block.";
    let c = with_editors(&mined, &["By Jane Doe"]);
    assert_eq!(c.clean(text).text, format!("Big news today | Site\nTuesday, November 6, 2012\n{body}"));
    let given: Vec<Decision> = c.explain(text).decisions.into_iter().filter(|d| !d.removed).collect();
    assert!(
        given.iter().all(|d| !text[d.start..d.end].contains("Jane")),
        "no stage is said to give the editor's line back: {given:?}"
    );
    // the title stage gives back the byline under the title, not the part the editor marked
    let text = TITLED_PAGE;
    let mined = [
        ("Menu one two", Action::Remove),
        ("Email this page", Action::Remove),
        ("July «number»", Action::Remove),
        ("Share this now", Action::CutBefore),
    ];
    let c = with_editors(&mined, &["by A. Writer,"]);
    assert_eq!(c.clean(text).text, format!("Big news today\nJuly 3\n{body}"));
    // marked by hand where a mined string has the same tokens: statistics, and still her decision
    let m = MutableSet::defaults();
    let mut byline = rule("e0", "by A. Writer,", Action::Remove, &m);
    assert!(!editor_made(&byline));
    byline.editor = true;
    let mut all: Vec<Rule> = mined.iter().enumerate().map(|(i, (t, a))| rule(&format!("r{i}"), t, *a, &m)).collect();
    all.push(byline);
    let c = titled(Cleaner::from_rules(Tokenizer::Text, m.patterns(), &all, 0).unwrap());
    assert_eq!(c.clean(text).text, format!("Big news today\nJuly 3\n{body}"));
    // without editor-made rules nothing changes
    let c = with_editors(&mined, &[]);
    assert_eq!(c.clean(text).text, format!("Big news today\nby A. Writer, July 3\n{body}"));
}

#[test]
fn the_pipeline_runs_only_the_stages_that_are_on_and_explain_names_them() {
    let text = &format!("{BYLINE_PAGE}\nok");
    let rules = [("Menu one two", Action::Remove), ("By Jane Doe", Action::Remove), ("ok", Action::Remove)];
    let named = |c: &Cleaner| -> Vec<Stage> {
        let mut out: Vec<Stage> = (c.explain(text).decisions.iter())
            .flat_map(|d| d.reasons.iter())
            .filter_map(|r| if let Reason::Stage(s) = r { Some(*s) } else { None })
            .collect();
        out.sort();
        out.dedup();
        out
    };
    let all = cleaner(&rules, 0).with_settings(CleanSettings {
        islands: crate::clean_settings::IslandsSettings { words: 3 },
        stages: Stages::all(),
        ..Default::default()
    });
    assert_eq!(named(&all), vec![Stage::Datelines], "{:?}", all.explain(text));
    for stage in Stage::ALL {
        let off = all.clone().with_stage(stage, false);
        assert!(!named(&off).contains(&stage), "{stage} is off");
    }
}

#[test]
fn seams_keep_newlines() {
    let c = cleaner(&[("read more", Action::Remove)], 0);
    assert_eq!(c.clean("first line\nread more\nsecond line").text, "first line\nsecond line");
    assert_eq!(c.clean("  nothing here  ").text, "nothing here");
}
