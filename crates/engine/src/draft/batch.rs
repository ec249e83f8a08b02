//! A draft made and saved by a batch writer (`chaff mine`, Python's `chaff.mine`): the same draft the
//! tuning UI edits, so a source mined again from the command line takes its new mining in as the UI does
//! (decisions kept by id and passed to twins, a cutoff left at auto following the new one, new strings
//! given the automatic rules' suggestions, cluster and line rules made afresh), and a new source gets the
//! automatic rules.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::automatic::automatic_rules;
use crate::corpus::Corpus;
use crate::cutoff::Histogram;
use crate::error::Result;
use crate::merge::{LockHolder, Prefer, Saved, keep_hand_edits, save_merged_within};
use crate::mining::{MinedString, Mining};
use crate::mutable::MutablePattern;
use crate::rules::{Rule, RulesFile};
use crate::settings::Settings;

use super::ready::Ready;
use super::{Draft, Remined, is_extra, with_extra};

impl Draft {
    /// The draft of a source's new `mining` (of `corpus`), made with `settings`: on `previous`, the rules
    /// file it mines again, as the tuning UI takes a new mining in; without one, the automatic rules.
    /// What `settings` says was given is the last word on the draft's settings and cutoff.
    pub fn of_mining(
        corpus: Arc<Corpus>,
        mut mining: Mining,
        previous: Option<&RulesFile>,
        settings: &Settings,
    ) -> Result<Draft> {
        let params = settings.mining_params();
        let patterns = mining.patterns.clone();
        if let Some(file) = previous {
            // what was flagged an idiom when the source was mined with others stays flagged, as the tuning UI
            // keeps it
            let flagged: HashSet<&str> = file.rules.iter().filter(|r| r.idiom).map(|r| r.id.as_str()).collect();
            let cutoff = mining.auto_cutoff;
            for s in mining.strings.iter_mut().filter(|s| s.bin >= cutoff && flagged.contains(s.id.as_str())) {
                s.idiom = true;
            }
        }
        let (mut draft, automatic) = match previous {
            Some(file) => {
                let draft = Draft::of_file(file, patterns);
                let base = draft.remine_base();
                let automatic = automatic_rules(&corpus, &mining, params, Some(&base), settings)?;
                (draft, automatic)
            }
            None => {
                // flagged as it stands (`mine --all` flagged it across the sources mined together)
                let automatic = crate::automatic::new_source_rules(&corpus, &mut mining, params, settings, |_| {})?;
                // the automatic rules' settings, and no rule yet: every string is new to it
                let settings_only = RulesFile { rules: Vec::new(), ..automatic.clone() };
                (Draft::of_file(&settings_only, patterns), automatic)
            }
        };
        crate::automatic::take_idiom_flags(&mut mining, &automatic);
        let extra: Vec<MinedString> = automatic.rules.iter().filter(|r| is_extra(r)).map(Rule::to_mined).collect();
        // the extra strings after the mined ones, in the automatic rules' order: the rules file lists them
        // as `chaff mine` always has
        let extra_ids: HashSet<&str> = extra.iter().map(|s| s.id.as_str()).collect();
        mining.strings.retain(|s| !extra_ids.contains(s.id.as_str()));
        with_extra(&mut mining, &extra);
        let ready = Ready::build(&mining, draft.header.clean_settings());
        draft.reconcile(Remined { corpus, mining, ready, extra, automatic: automatic.rules });
        settings.apply_given(&mut draft.header);
        draft.header.mining = params;
        if let Some(c) = settings.automatic.cutoff {
            draft.cutoff = draft.clamp_cutoff(c);
        }
        Ok(draft)
    }

    /// A draft of `file` as it was saved: its rules stand for the strings of the mining it was made from
    /// (its cluster and line rules for the extra strings), its cutoffs and settings as they are.
    /// Its corpus is none: the new mining brings its own.
    fn of_file(file: &RulesFile, patterns: Vec<MutablePattern>) -> Draft {
        let strings: Vec<MinedString> = file.rules.iter().filter(|r| !is_extra(r)).map(Rule::to_mined).collect();
        let min_kept_bin = strings.iter().map(|s| s.bin).min().unwrap_or(file.cutoff.auto).min(file.cutoff.auto);
        let documents = file.documents as usize;
        let recorded = Mining {
            source: file.source.clone(),
            tokenizer: file.tokenizer,
            input: file.input(),
            patterns: patterns.clone(),
            documents,
            bytes: 0,
            tokens: 0,
            sampled_documents: documents,
            histogram: Histogram::default(),
            auto_cutoff: file.cutoff.auto,
            strings,
            min_kept_bin,
            pattern_counts: Vec::new(),
            timings: Vec::new(),
        };
        let none = Corpus::from_docs(file.source.clone(), Vec::new());
        Draft::open(none, recorded, None, Some(file.clone()), file.mining, patterns, |_| {}).0
    }

    /// Saves the draft as a batch writer: atomically, under the rules file's lock, merged with what another
    /// writer saved since `disk_text` was read, where the other writer's decisions win (an editor's, over
    /// decisions no one made here); the regexes an editor wrote in the file as read stay.
    pub fn save_mined(
        &self,
        path: &Path,
        disk_text: Option<&str>,
        timeout: Duration,
        on_blocked: impl FnMut(&LockHolder),
    ) -> Result<Saved> {
        let mut file = self.rules_file();
        if let Some(read) = disk_text.and_then(|t| RulesFile::parse(t, path).ok()) {
            keep_hand_edits(&mut file, &read);
        }
        save_merged_within(path, file, disk_text, Prefer::Disk, timeout, on_blocked)
    }
}
