//! The oracle editor: what an editor's time buys, working the tuning UI's actions with the gold.
//!
//! Per decision it looks at the training page with the most wrong words (article removed, or template
//! kept), takes the largest stretch of words wrong the same way, and makes the one decision an editor
//! would make there (`choices.rs`): accept, reject or trim a candidate, change its action, mark the
//! stretch as template, keep it, or turn a stage off; of those on offer it takes the one that adds most
//! to the training pages' F1. When nothing on offer helps a stretch, it looks at the next (at most twelve
//! per decision) and stops when none helps. A span it marks or keeps must match on two training pages at
//! least, as the UI's count shows an editor: text of one page teaches nothing about the next.
//!
//! The source is cleaned after 0, 5, 10, 20 decisions, and after all it makes (at most
//! [`MAX_DECISIONS`]); undecided candidates keep their automatic state (pending: active at or above the
//! cutoff). Decisions are made on the training pages only: under the held-out protocol they are scored on
//! pages the editor never saw. Which words of a page are article comes from aligning the page's words with
//! the gold's (one longest common subsequence): the alignment the score uses.

mod choices;
mod editor;
mod page;

use crate::error::Result;

use super::methods::chaff::Chaff;
use super::methods::{Model, Source};
use super::run::Prepared;
use editor::Editor;

/// Decisions after which the source is cleaned; `None` is all the editor makes.
pub const CHECKPOINTS: [Option<usize>; 5] = [Some(0), Some(5), Some(10), Some(20), None];

/// Decisions the editor makes at most ("all").
pub const MAX_DECISIONS: usize = 40;

pub fn checkpoint_name(c: Option<usize>) -> String {
    c.map_or_else(|| "all".to_string(), |n| n.to_string())
}

/// The oracle's models of one source, one per checkpoint of [`CHECKPOINTS`].
pub fn train(chaff: &Chaff, source: &Source<'_>, golds: &[&Prepared]) -> Result<Vec<Box<dyn Model>>> {
    let (corpus, file) = chaff.rules_file(source)?;
    // the pages are what the cleaner reads: an HTML page's view
    let pages = corpus.docs.iter().zip(golds).map(|(doc, prepared)| (doc.text.as_str(), &prepared.gold)).collect();
    let mut editor = Editor::new(&file, chaff.settings(&file), pages)?;
    let mut models: Vec<Box<dyn Model>> = Vec::with_capacity(CHECKPOINTS.len());
    let mut made = 0;
    let mut stuck = false;
    for c in CHECKPOINTS {
        let k = c.unwrap_or(MAX_DECISIONS);
        while made < k && !stuck {
            stuck = !editor.decide();
            made += usize::from(!stuck);
        }
        models.push(Box::new(chaff.model(&editor.decided)?));
    }
    if std::env::var_os("CHAFF_ORACLE_LOG").is_some() {
        eprintln!("{}: {}", source.name, editor.log.join("; "));
        let model = chaff.model(&editor.decided)?;
        for (p, (doc, prepared)) in corpus.docs.iter().zip(golds).enumerate() {
            let out = super::run::output_text(&doc.text, &model.removed(&doc.text), super::dataset::Input::Txt);
            eprintln!("  page {p}: editor {:.3} model {:.3}", editor.f1_of(p), prepared.gold.score(&out).f1);
        }
    }
    Ok(models)
}
