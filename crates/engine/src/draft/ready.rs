//! A mining made ready for the UI: each string's readable text (and lower-cased, for the filter), each
//! string as a pending rule, the index by id, and one matcher of every string (for the preview's
//! pending spans). Built on the miner thread after a re-mine, so taking a new mining in costs the UI
//! thread nothing noticeable.

use std::sync::Arc;

use foldhash::HashMap;

use crate::cleaning::Cleaner;
use crate::mining::Mining;
use crate::mutable::MutableSet;
use crate::rules::Rule;
use crate::symbol::display;

pub struct Ready {
    pub texts: Vec<String>,
    pub lower: Vec<String>,
    pub rules: Vec<Rule>,
    pub index: HashMap<String, usize>,
    /// The mining's patterns, compiled (for the cleaners).
    pub mutable: MutableSet,
    /// Every mined string as a `remove` rule; rule index = string index. Shared with the preview's
    /// cleaning worker.
    pub all: Option<Arc<Cleaner>>,
}

pub use crate::cleaning::CleanSettings;

impl Ready {
    pub fn build(m: &Mining, settings: CleanSettings) -> Ready {
        // a line rule has no tokens: its text is the line
        let texts: Vec<String> = m
            .strings
            .iter()
            .map(|s| if s.symbols.is_empty() { s.example.clone() } else { display(&s.symbols) })
            .collect();
        let lower = texts.iter().map(|t| t.to_lowercase()).collect();
        let rules: Vec<Rule> = m.strings.iter().map(Rule::from_mined).collect();
        let mutable = MutableSet::new(m.patterns.clone()).unwrap_or_else(|_| MutableSet::empty());
        let index = m.strings.iter().enumerate().map(|(i, s)| (s.id.clone(), i)).collect();
        let all = Cleaner::with_patterns(m.tokenizer, &mutable, &rules, settings.merge_gap)
            .map(|c| Arc::new(c.with_settings(settings)))
            .ok();
        Ready { texts, lower, rules, index, mutable, all }
    }
}
