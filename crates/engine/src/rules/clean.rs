//! The cleaner's settings in a rules file: `merge_gap`, and the `[clean]` table (the stages off, each
//! stage's own table). Older formats' keys are read as the same settings: format 1's switches, format 2's
//! `islands`, `short_runs` (top-level) and `[clean] specks`.

use super::{FORMAT, RulesFile};
use crate::clean_settings::{CleanSettings, LINE_BOUNDARY_STAGES, Stage, Stages, TITLE_STAGES};

impl RulesFile {
    /// The settings the cleaner runs with: the merge gap, every stage on but those `[clean] off` names,
    /// and each stage's settings from its `[clean.<stage>]` table.
    pub fn clean_settings(&self) -> CleanSettings {
        CleanSettings::of_table(self.merge_gap, &self.clean)
    }

    /// Stores `settings`: the merge gap, every stage it has off in `[clean] off`, and each stage's
    /// settings in its table.
    pub fn set_clean_settings(&mut self, settings: CleanSettings) {
        self.merge_gap = settings.merge_gap;
        self.clean = settings.table();
    }

    /// Whether matches must touch a line's edge (stage `line-boundary`): text glued into long lines
    /// has it off.
    pub fn line_boundary(&self) -> bool {
        self.clean_settings().on(Stage::LineBoundary)
    }

    /// Turns stages `line-boundary`, `sentence-heads` and `sentence-tails` on or off together.
    pub fn set_line_boundary(&mut self, on: bool) {
        for s in LINE_BOUNDARY_STAGES {
            self.set_stage(s, on);
        }
    }

    /// Turns stages `title`, `headline` and `datelines` on or off together.
    pub fn set_keep_title(&mut self, on: bool) {
        for s in TITLE_STAGES {
            self.set_stage(s, on);
        }
    }

    /// Turns `stage` on or off for this source.
    pub fn set_stage(&mut self, stage: Stage, on: bool) {
        let mut settings = self.clean_settings();
        settings.stages.set(stage, on);
        self.set_clean_settings(settings);
    }

    /// Reads an older format's keys into the settings they meant, and makes the file of this format: a
    /// format-1 file's switches become `[clean] off` entries (a switch absent or false left its stages
    /// off); format 2's top-level `islands` and `short_runs` become those stages' tables (`[clean] specks`
    /// was read into its table as it was parsed).
    pub(super) fn migrate(&mut self) {
        if self.format < 2 {
            let switches = [
                (self.legacy_line_boundary, &LINE_BOUNDARY_STAGES[..]),
                // a later stage that reads lines as the line-boundary filter does
                (self.legacy_line_boundary, &[Stage::LineSlots][..]),
                (self.legacy_keep_title, &TITLE_STAGES[..]),
                (self.legacy_drop_reprints, &[Stage::Reprints, Stage::Repeats][..]),
            ];
            let mut off = Stages::all();
            for (on, stages) in switches {
                for s in stages {
                    if !on.unwrap_or(false) {
                        off.set(*s, false);
                    }
                }
            }
            let mut settings = self.clean_settings();
            for s in off.off() {
                settings.stages.set(s, false);
            }
            self.set_clean_settings(settings);
        }
        if self.format < 3 {
            if let Some(words) = self.legacy_islands {
                self.clean.islands.words = words;
            }
            if let Some(words) = self.legacy_short_runs {
                self.clean.short_runs.words = words;
            }
        }
        self.format = FORMAT;
        (self.legacy_line_boundary, self.legacy_keep_title, self.legacy_drop_reprints) = (None, None, None);
        (self.legacy_islands, self.legacy_short_runs) = (None, None);
    }
}
