//! Checking a regex typed into `E` off the UI thread: compiling a pasted regex of thousands of characters
//! and counting the documents it matches take longer than a frame. One check at a time is wanted, the
//! latest: an older one still running stops at its next document and its result is dropped.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Duration;

use super::latest::Latest;
use crate::cleaning::{Cleaner, RegexBudget};
use crate::corpus::Corpus;
use crate::mutable::MutablePattern;
use crate::rules::Rule;
use crate::tokens::Tokenizer;

/// What to check: the rule with its new regex, and what its documents are matched with.
pub struct CheckRequest {
    pub rule: Rule,
    pub tokenizer: Tokenizer,
    pub patterns: Vec<MutablePattern>,
    pub corpus: Arc<Corpus>,
}

/// A finished check: the rule and on how many documents it matches, or why the regex is refused.
pub struct Checked {
    pub generation: u64,
    pub result: Result<(Rule, usize), String>,
}

pub struct RegexChecker {
    latest: Latest,
    results: Receiver<Checked>,
    outbox: Sender<Checked>,
}

impl Default for RegexChecker {
    fn default() -> Self {
        let (outbox, results) = mpsc::channel();
        RegexChecker { latest: Latest::default(), results, outbox }
    }
}

impl RegexChecker {
    /// Starts checking; any older check is abandoned. Returns the check's generation.
    pub fn request(&self, request: CheckRequest) -> u64 {
        let generation = self.latest.next();
        let (latest, outbox) = (self.latest.clone(), self.outbox.clone());
        let spawned = thread::Builder::new().name("chaff-regex".into()).spawn(move || {
            let current = || latest.is(generation);
            if let Some(result) = check(request, &current) {
                let _ = outbox.send(Checked { generation, result });
            }
        });
        if let Err(e) = spawned {
            let _ = self.outbox.send(Checked { generation, result: Err(format!("could not start the check: {e}")) });
        }
        generation
    }

    /// Drops whatever check is running (the editor was closed).
    pub fn cancel(&self) {
        self.latest.cancel();
    }

    /// Whether `generation` is the latest check asked for.
    pub fn is_latest(&self, generation: u64) -> bool {
        self.latest.is(generation)
    }

    pub fn try_recv(&self) -> Option<Checked> {
        self.results.try_recv().ok()
    }

    pub fn recv_timeout(&self, timeout: Duration) -> Option<Checked> {
        self.results.recv_timeout(timeout).ok()
    }
}

/// `None`: abandoned for a newer check.
fn check(request: CheckRequest, current: &dyn Fn() -> bool) -> Option<Result<(Rule, usize), String>> {
    let CheckRequest { rule, tokenizer, patterns, corpus } = request;
    if let Err(e) = RegexBudget::default().compile(&rule.id, &rule.regex) {
        return Some(Err(e.to_string()));
    }
    let cleaner = match Cleaner::from_rules(tokenizer, &patterns, [&rule], 0) {
        Ok(c) => c,
        Err(e) => return Some(Err(e.to_string())),
    };
    let mut documents = 0;
    for d in &corpus.docs {
        if !current() {
            return None;
        }
        documents += usize::from(!cleaner.matches(&d.text).is_empty());
    }
    Some(Ok((rule, documents)))
}
