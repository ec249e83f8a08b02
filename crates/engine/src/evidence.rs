//! A rule's evidence, for an editor (and the oracle) to judge it by before it runs wild: how much of it
//! is fixed text and how much pattern, where its matches sit relative to each page's article block
//! (before, inside, after; on both sides of it on one page), and how many fall inside lines of prose.
//! And the check a cut gets before it is made: a generic string, or one whose matches sit on both sides
//! of the article or inside it, cuts articles on pages out of view.

use rayon::prelude::*;
use serde::Serialize;

use crate::cleaning::{Cleaner, Layout};
use crate::error::Result;
use crate::frame::is_generic;
use crate::idioms::inside_prose;
use crate::impact::Baseline;
use crate::mutable::MutableSet;
use crate::page::Page;
use crate::rules::{Action, Rule};
use crate::symbol::Symbol;
use crate::tokens::Tokenizer;
use crate::view::DocKind;

/// Where a rule's matches sit, over a source's pages.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Evidence {
    pub id: String,
    /// Tokens of fixed text and tokens of mutable patterns (`«number»`); a hand-written regex has none.
    pub literal_tokens: usize,
    pub pattern_tokens: usize,
    /// Its tokens are two or three common words and patterns ([`is_generic`]).
    pub generic: bool,
    /// Pages it matches, and its matches.
    pub pages: usize,
    pub matches: usize,
    /// Matches wholly before the page's article block, overlapping it, wholly after it.
    pub before: usize,
    pub inside: usize,
    pub after: usize,
    /// Pages on which it matches both before and after the article block.
    pub both_sides: usize,
    /// Pages on which it matches inside the article block.
    pub inside_pages: usize,
    /// Matches inside a line of prose ([`inside_prose`]): neither starting nor ending a long line that reads
    /// as a sentence.
    pub in_prose: usize,
    /// Pages with a match inside a line of prose.
    pub prose_pages: usize,
    /// A token of symbols alone ("©", "|", "{"): a template's mark no sentence writes.
    pub marked: bool,
    /// Mined as a line of its own ([`Rule::own_line`]): as a cut, stage `own-line` cuts only where it is one.
    pub own_line: bool,
}

impl Evidence {
    /// One line: `r1: 2 literal + 1 pattern tokens; 40 pages: 38 before, 2 inside, 0 after the article; …`.
    pub fn line(&self) -> String {
        format!(
            "{}: {} literal + {} pattern token(s){}; {} match(es) on {} page(s): {} before, {} inside, {} after the article; {} page(s) on both sides; {} inside prose lines",
            self.id,
            self.literal_tokens,
            self.pattern_tokens,
            if self.generic { " (generic)" } else { "" },
            self.matches,
            self.pages,
            self.before,
            self.inside,
            self.after,
            self.both_sides,
            self.in_prose
        )
    }

    /// What a cut at it does, when it was mined as a line of its own.
    pub fn own_line_note(&self) -> Option<&'static str> {
        self.own_line
            .then_some("a line of its own where mined: as a cut, it cuts only where it is one (stage own-line)")
    }
}

/// Why a cut would run wild on pages out of view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "problem")]
pub enum CutProblem {
    /// Two or three common words and patterns: any article may hold them.
    Generic,
    /// Made of mutable patterns alone: a shape that turns up anywhere.
    OnlyPatterns,
    /// On these pages it matches both before and after the article: cutting at it takes the article.
    BothSides { pages: usize },
    /// On these pages it matches inside the article block.
    InsideArticle { pages: usize },
    /// On these pages it stands inside a sentence, wherever the article block is: a name or phrase the
    /// articles use, which a page out of view may hold above its frame, in its headline or first lines.
    InProse { pages: usize },
}

impl CutProblem {
    pub fn message(&self) -> String {
        match self {
            CutProblem::Generic => "a generic string (common words and patterns): any article may hold it".into(),
            CutProblem::OnlyPatterns => "mutable patterns alone: a shape that turns up anywhere".into(),
            CutProblem::BothSides { pages } => {
                format!("matches both before and after the article on {pages} page(s): a cut there takes the article")
            }
            CutProblem::InsideArticle { pages } => format!("matches inside the article on {pages} page(s)"),
            CutProblem::InProse { pages } => {
                format!(
                    "stands inside a sentence on {pages} page(s): articles use it, and a cut takes one where it does"
                )
            }
        }
    }
}

/// `rule`'s evidence over `base`'s pages, each page's article where its accepted and pending rules leave
/// it ([`Baseline::article`]: on a source nothing is accepted of yet, the accepted rules alone leave each
/// page one block, and every string would sit "inside the article"). One pass of the rule's matcher and
/// one layout per page it matches.
pub fn evidence(base: &Baseline, rule: &Rule) -> Result<Evidence> {
    let file = base.file();
    let mutable = MutableSet::new(file.mutable.clone())?;
    let single = Rule { action: Action::Remove, ..rule.clone() };
    let cleaner = Cleaner::with_patterns(file.tokenizer, &mutable, [&single], 0)?;
    let raw_html = file.input() == DocKind::Html && file.tokenizer == Tokenizer::Html;
    let per_page: Vec<Evidence> = (0..base.len())
        .into_par_iter()
        .map(|i| {
            let text = base.text(i);
            let mut matches = if raw_html {
                cleaner.page_matches(&Page::new(&base.docs()[i].text, DocKind::Html))
            } else {
                cleaner.raw_matches(text)
            };
            let mut e = Evidence::default();
            if matches.is_empty() {
                return e;
            }
            matches.sort_unstable();
            let layout = Layout::new(text);
            let (mut before, mut after, mut inside) = (false, false, false);
            let article = base.article(i);
            for m in &matches {
                match article {
                    Some((s, _)) if m.end <= s => {
                        e.before += 1;
                        before = true;
                    }
                    Some((_, t)) if m.start >= t => {
                        e.after += 1;
                        after = true;
                    }
                    Some(_) => {
                        e.inside += 1;
                        inside = true;
                    }
                    None => {}
                }
                if inside_prose(&layout, m.start, m.end) {
                    e.in_prose += 1;
                }
            }
            e.prose_pages = usize::from(e.in_prose > 0);
            e.pages = 1;
            e.matches = matches.len();
            e.both_sides = usize::from(before && after);
            e.inside_pages = usize::from(inside);
            e
        })
        .collect();
    let symbols = rule.symbols();
    let mut total = Evidence {
        id: rule.id.clone(),
        literal_tokens: symbols.iter().filter(|s| matches!(s, Symbol::Literal(_))).count(),
        pattern_tokens: symbols.iter().filter(|s| !matches!(s, Symbol::Literal(_))).count(),
        generic: !rule.tokens.is_empty() && is_generic(&rule.tokens),
        marked: rule.is_marked(),
        own_line: rule.own_line,
        ..Evidence::default()
    };
    for e in per_page {
        total.pages += e.pages;
        total.matches += e.matches;
        total.before += e.before;
        total.inside += e.inside;
        total.after += e.after;
        total.both_sides += e.both_sides;
        total.inside_pages += e.inside_pages;
        total.in_prose += e.in_prose;
        total.prose_pages += e.prose_pages;
    }
    Ok(total)
}

/// What is wrong with cutting at a rule with this evidence (`cut-before` or `cut-after`): nothing, or
/// every problem found. The UI asks before making such a cut; mining never suggests one.
pub fn cut_problems(e: &Evidence) -> Vec<CutProblem> {
    let mut out = Vec::new();
    if e.generic {
        out.push(CutProblem::Generic);
    } else if e.literal_tokens == 0 && e.pattern_tokens > 0 {
        out.push(CutProblem::OnlyPatterns);
    }
    if e.both_sides > 0 {
        out.push(CutProblem::BothSides { pages: e.both_sides });
    }
    if e.inside_pages > 0 {
        out.push(CutProblem::InsideArticle { pages: e.inside_pages });
    }
    if e.prose_pages > 0 && !e.marked {
        out.push(CutProblem::InProse { pages: e.prose_pages });
    }
    out
}

/// [`cut_problems`] of cutting at `rule` over `base`'s pages.
pub fn check_cut(base: &Baseline, rule: &Rule) -> Result<Vec<CutProblem>> {
    Ok(cut_problems(&evidence(base, rule)?))
}

#[cfg(test)]
mod tests;
