//! A decided string mined again under a new id, because the mutable patterns changed: its twin in the
//! new mining, which inherits the decision (see [`super::from_mining`] and the drafts' reconcile).

use std::collections::HashMap;

use crate::lines;
use crate::mutable::MutableSet;
use crate::rules::{Rule, Status};
use crate::tokens::Tokenizer;

/// The ids a new mining may give the string of a decided `rule` that it did not mine again, because the
/// mutable patterns changed: its tokens normalized by the new patterns (a word a new pattern matches becomes
/// its slot), or its example's text tokenized and normalized afresh (a slot whose pattern is gone comes back
/// as the literal). Its twin there inherits the decision. None for an editor's own or hand-edited rule.
pub fn twin_ids(rule: &Rule, tokenizer: Tokenizer, mutable: &MutableSet) -> Vec<String> {
    use crate::symbol::{Symbol, stable_id};
    if rule.editor || rule.tokens.is_empty() || rule.cluster.is_some() || lines::is_line_id(&rule.id) {
        return Vec::new();
    }
    let known = |name: &str| mutable.patterns().iter().any(|p| p.name == name);
    let renormalized: Option<Vec<Symbol>> = rule
        .symbols()
        .into_iter()
        .map(|sym| match sym {
            Symbol::Literal(t) => Some(match mutable.classify(&t) {
                Some(p) => Symbol::Mutable(mutable.patterns()[p].name.clone()),
                None => Symbol::Literal(t),
            }),
            Symbol::Mutable(name) => known(&name).then_some(Symbol::Mutable(name)),
        })
        .collect();
    let mut ids: Vec<String> = renormalized.into_iter().map(|s| stable_id(&s)).collect();
    let from_example = crate::editing::symbols_of(&rule.example, tokenizer, mutable);
    if !from_example.is_empty() {
        ids.push(stable_id(&from_example));
    }
    ids.retain(|id| *id != rule.id);
    ids.dedup();
    ids
}

/// Whether `rule`'s tokens name a pattern `mutable` lacks (one deleted since it was mined).
pub fn names_a_missing_pattern(rule: &Rule, mutable: &MutableSet) -> bool {
    rule.symbols().iter().any(|s| match s {
        crate::symbol::Symbol::Mutable(name) => !mutable.patterns().iter().any(|p| &p.name == name),
        crate::symbol::Symbol::Literal(_) => false,
    })
}

/// For the decided rules of `decided` that `mined` lacks: the id of their twin in `mined` (see
/// [`twin_ids`]), when that twin has no decision of its own. Twin id → the decided rule's id. An accepted
/// rule whose pattern was deleted has none: its twin, the example's literal in the slot, matches less, and
/// a rule in force must not narrow unseen; it stays as it is (stale, its regex matching as before).
pub fn twins<'a>(
    decided: impl IntoIterator<Item = &'a Rule>,
    mined: impl Fn(&str) -> bool,
    is_decided: impl Fn(&str) -> bool,
    tokenizer: Tokenizer,
    mutable: &MutableSet,
) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for r in decided {
        if mined(&r.id) || (r.status == Status::Accepted && names_a_missing_pattern(r, mutable)) {
            continue;
        }
        if let Some(twin) = twin_ids(r, tokenizer, mutable).into_iter().find(|t| mined(t) && !is_decided(t)) {
            out.entry(twin).or_insert_with(|| r.id.clone());
        }
    }
    out
}
