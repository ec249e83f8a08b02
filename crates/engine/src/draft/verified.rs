//! The source's verified pages in a draft: marked and unmarked as the editor works (each one undoable step),
//! part of the unsaved work, and written beside the rules file when it is saved (see [`crate::verified`]).

use std::path::Path;

use crate::verified::{Verified, VerifiedPage, path_for};

use super::history::Step;
use super::{Change, Draft};

impl Draft {
    /// Takes the verified pages as read from disk: they are the saved state.
    pub fn load_verified(&mut self, verified: Verified) {
        self.verified_on_disk = verified.pages.clone();
        self.verified = verified;
        self.mark_saved();
    }

    /// Whether document `id` is a verified page.
    pub fn is_verified(&self, id: &str) -> bool {
        self.verified.pages.iter().any(|p| p.id == id)
    }

    /// Marks `page` verified (replacing an earlier verification of its document). One step.
    pub fn verify(&mut self, page: VerifiedPage) -> Change {
        let before = self.verified.pages.iter().find(|p| p.id == page.id).cloned();
        if before.as_ref() == Some(&page) {
            return Change::default();
        }
        let step = Step::Verified { id: page.id.clone(), before, after: Some(page) };
        let change = self.apply_step(&step);
        self.history.record(step);
        change
    }

    /// Unmarks document `id` as verified. One step, if it was.
    pub fn unverify(&mut self, id: &str) -> Change {
        let Some(before) = self.verified.pages.iter().find(|p| p.id == id).cloned() else { return Change::default() };
        let step = Step::Verified { id: id.to_string(), before: Some(before), after: None };
        let change = self.apply_step(&step);
        self.history.record(step);
        change
    }

    /// Sets document `id`'s verification (`None`: unverified), where its document's verification was.
    pub(super) fn put_verified(&mut self, id: &str, page: Option<&VerifiedPage>) -> Change {
        let at = self.verified.pages.iter().position(|p| p.id == id);
        match (at, page) {
            (Some(i), Some(p)) => self.verified.pages[i] = p.clone(),
            (None, Some(p)) => self.verified.pages.push(p.clone()),
            (Some(i), None) => {
                self.verified.pages.remove(i);
            }
            (None, None) => {}
        }
        self.refresh_dirty();
        Change { verified: vec![id.to_string()], ..Change::default() }
    }

    /// Applies pages marked verified (`Some`) or unmarked (`None`) found from an earlier session's journal.
    /// Each is one step of the undo history, as when it was made.
    pub fn replay_verified(&mut self, pages: impl IntoIterator<Item = (String, Option<VerifiedPage>)>) {
        let mut pages: Vec<(String, Option<VerifiedPage>)> = pages.into_iter().collect();
        pages.sort_by(|a, b| a.0.cmp(&b.0));
        for (id, page) in pages {
            let before = self.verified.pages.iter().find(|p| p.id == id).cloned();
            if before == page {
                continue;
            }
            self.put_verified(&id, page.as_ref());
            self.history.record(Step::Verified { id, before, after: page });
        }
    }

    /// Whether the verified pages differ from what was read or last written.
    pub fn verified_unsaved(&self) -> bool {
        self.verified.pages != self.saved.verified
    }

    /// Writes the verified pages beside the rules file at `rules` (atomically, keeping the file's mode),
    /// merged under its lock with the file as it is now: the pages marked or unmarked here since it was
    /// read change, those another writer verified meanwhile stay (and are taken in). A source with none
    /// and no file writes nothing.
    pub fn save_verified(&mut self, rules: &Path, source: &str) -> crate::error::Result<()> {
        let path = path_for(rules);
        self.verified.source = source.to_string();
        if self.verified.pages.is_empty() && !path.exists() {
            return Ok(());
        }
        let before = &self.verified_on_disk;
        let ours = &self.verified.pages;
        let merged = Verified::update(
            &path,
            crate::merge::LOCK_TIMEOUT,
            |_| {},
            |disk| {
                disk.source = source.to_string();
                disk.pages.retain(|p| ours.iter().any(|o| o.id == p.id) || !before.iter().any(|b| b.id == p.id));
                for page in ours {
                    if !before.contains(page) {
                        disk.set(page.clone());
                    }
                }
            },
        )?;
        self.verified_on_disk = merged.pages.clone();
        self.verified = merged;
        Ok(())
    }
}
