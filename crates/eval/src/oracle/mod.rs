//! The oracle editor: what an editor's time buys, working the tuning UI's actions with the gold.
//!
//! Per decision it looks at the training page with the most wrong words (article removed, or template
//! kept), takes the largest stretch of words wrong the same way, and weighs the decisions an editor
//! could make there (`choices.rs`): accept, reject or trim a candidate, change its action, mark the
//! stretch as template, keep it, or turn a stage off; on HTML pages, accept, reject or set the action of a
//! mined region rule (`regions.rs`), or name one from an element around the stretch's first line, as
//! `B` names it in the UI. It judges each as a careful editor judges it, on
//! the pages it was not made on (`judge.rs`): a rule it turns on must not be a generic string nor match
//! inside an article, a cut must pass the engine's cut check, and the decision must take no article word
//! from any training page and lower no other page's score; a refused decision is narrowed (a removal for
//! a cut, fewer tokens, a smaller span) and tried again. Of those that pass, the one that adds most to the
//! training pages' F1 is made through the draft's actions (`act.rs`, the methods the UI calls), and its
//! impact over the training pages read before it stands: it must add to them as the engine cleans them,
//! not only in its trial (the draft's rules file, merged again with the mining, may change other rules
//! with it: a kept span has left a suggested cut rejected), and every rule's state is then taken from
//! the draft's rules file, so that the next trials start from the rules the engine runs. When nothing
//! on offer helps a stretch, it looks at the next (twelve stretches a decision, over the source). A span
//! it marks or keeps must match on two training pages at least, as the UI's count shows an editor: text
//! of one page teaches nothing about the next. Each trial cleans a page as `chaff clean` does, with its
//! view's elements (the stages that read them run).
//!
//! The source is cleaned after 0, 5, 10, 20 decisions, and after all it makes (at most
//! [`MAX_DECISIONS`]); undecided candidates keep their automatic state (pending: active at or above the
//! cutoff). Decisions are made on the training pages only: under the held-out protocol they are scored on
//! pages the editor never saw. Which words of a page are article comes from aligning the page's words with
//! the gold's (one longest common subsequence): the alignment the score uses.

mod act;
mod choices;
mod editor;
mod judge;
mod page;
mod regions;

use std::collections::BTreeMap;

use crate::corpus::Document;
use crate::draft::Draft;
use crate::error::Result;
use crate::impact::Baseline;
use crate::rules::RulesFile;

use super::methods::chaff::Chaff;
use super::methods::{Model, Source};
use super::run::Prepared;
use super::score::Gold;
use editor::Editor;

/// Decisions after which the source is cleaned; `None` is all the editor makes.
pub const CHECKPOINTS: [Option<usize>; 5] = [Some(0), Some(5), Some(10), Some(20), None];

/// Decisions the editor makes at most ("all").
pub const MAX_DECISIONS: usize = 40;

pub fn checkpoint_name(c: Option<usize>) -> String {
    c.map_or_else(|| "all".to_string(), |n| n.to_string())
}

/// What the oracle editor did on one source.
#[derive(Debug, Clone)]
pub struct Edited {
    /// The rules file after each checkpoint of [`CHECKPOINTS`]: the automatic rules first.
    pub files: Vec<RulesFile>,
    /// Each decision made, in order.
    pub decisions: Vec<String>,
    /// Decisions refused, by why (a generic string, a cut check, article words taken, …).
    pub refused: BTreeMap<String, usize>,
    /// Decisions refused after they were made in the draft, on reading their impact.
    pub undone: usize,
    /// Pages on which the draft's rules file cleaned otherwise than the editor's trial of a decision said
    /// (the editor then scores what the rules file does).
    pub drift: usize,
    /// With `trace`: each decision refused, and why.
    pub refusals: Vec<String>,
}

/// The oracle editor's decisions on `source`, its training pages' golds `golds` (in the order of
/// `source.docs`). With `verify`, each page it makes a decision on is verified, and a later decision
/// made on another page that changes a verified page is refused.
pub fn edit(chaff: &Chaff, source: &Source<'_>, golds: &[&Gold], verify: bool, trace: bool) -> Result<Edited> {
    let (corpus, mining, mut file) = chaff.mined(source)?;
    // the stages this run cleans with are the rules file's: the draft saves them, the impact reads them
    file.set_clean_settings(chaff.settings(&file));
    // the pages are what the cleaner reads (an HTML page's view); the baseline reads them as the source
    // holds them
    let docs: Vec<Document> =
        source.docs.iter().map(|(id, text)| Document { id: id.to_string(), text: text.to_string() }).collect();
    let base = Baseline::new(&file, docs, true)?;
    let texts: Vec<String> = corpus.docs.iter().map(|d| d.text.clone()).collect();
    let draft = open_draft(corpus, mining, &file);
    let pages = texts.iter().map(String::as_str).zip(golds.iter().copied()).collect();
    let mut editor = Editor::new(draft, base, pages, verify)?;
    editor.counts.trace = trace;
    let mut files = Vec::with_capacity(CHECKPOINTS.len());
    let mut made = 0;
    let mut stuck = false;
    for c in CHECKPOINTS {
        let k = c.unwrap_or(MAX_DECISIONS);
        while made < k && !stuck {
            stuck = !editor.decide();
            made += usize::from(!stuck);
        }
        // before any decision: the automatic rules as mined, the figure the decisions are measured from
        files.push(if made == 0 { file.clone() } else { editor.file.clone() });
    }
    let counts = editor.counts;
    Ok(Edited {
        files,
        decisions: editor.log,
        refused: counts.refused.into_iter().map(|(k, n)| (k.to_string(), n)).collect(),
        undone: counts.undone,
        drift: counts.drift,
        refusals: counts.refusals,
    })
}

/// The draft of `file` (the automatic rules of `mining`), as the tuning UI opens a mined source: the
/// idioms the rules file flags are idioms of the mining too, rejected until decided otherwise.
fn open_draft(corpus: crate::corpus::Corpus, mining: crate::mining::Mining, file: &RulesFile) -> Draft {
    let idioms: std::collections::HashSet<&str> =
        file.rules.iter().filter(|r| r.idiom).map(|r| r.id.as_str()).collect();
    let flag = |m: &mut crate::mining::Mining| {
        for s in m.strings.iter_mut().filter(|s| idioms.contains(s.id.as_str())) {
            s.idiom = true;
        }
    };
    Draft::open(corpus, mining, None, Some(file.clone()), file.mining, file.mutable.clone(), flag).0
}

/// The oracle's models of one source, one per checkpoint of [`CHECKPOINTS`].
pub fn train(chaff: &Chaff, source: &Source<'_>, golds: &[&Prepared]) -> Result<Vec<Box<dyn Model>>> {
    let golds: Vec<&Gold> = golds.iter().map(|p| &p.gold).collect();
    let verify = std::env::var_os("CHAFF_ORACLE_VERIFY").is_some();
    // `CHAFF_ORACLE_LOG=1` prints each source's decisions, `=2` each refusal too
    let log = std::env::var("CHAFF_ORACLE_LOG").unwrap_or_default();
    let edited = edit(chaff, source, &golds, verify, log == "2")?;
    if !log.is_empty() {
        eprintln!("{}: {}", source.name, edited.decisions.join("; "));
        eprintln!("  refused {:?}, undone {}, drift {}", edited.refused, edited.undone, edited.drift);
        for r in &edited.refusals {
            eprintln!("  refused on {r}");
        }
    }
    edited.files.iter().map(|f| Ok(Box::new(chaff.model(f)?) as Box<dyn Model>)).collect()
}
