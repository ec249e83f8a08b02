//! The cleaner's stages by name, and the settings a rules file gives them: rules files store them, the CLI
//! and the UI switch stages by these names, and the cleaner reads them. The stages themselves, their names
//! and docs are listed once, in the cleaning registry (`src/cleaning/registry.rs`).

use std::fmt;

pub use crate::cleaning::Stage;

impl Stage {
    pub fn from_name(name: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.name() == name)
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Stage {
    type Err = String;

    fn from_str(s: &str) -> Result<Stage, String> {
        Stage::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = Stage::ALL.iter().map(|s| s.name()).collect();
            format!("no stage named {s:?}; the stages are {}", names.join(", "))
        })
    }
}

/// A set of stages: the ones that are on.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stages(u16);

impl Stages {
    /// Every stage on.
    pub fn all() -> Stages {
        Stages(Stage::ALL.iter().fold(0, |b, s| b | s.bit()))
    }

    /// No stage on: the rules' matches alone (the thesis's cleaner).
    pub fn none() -> Stages {
        Stages(0)
    }

    pub fn contains(self, stage: Stage) -> bool {
        self.0 & stage.bit() != 0
    }

    pub fn set(&mut self, stage: Stage, on: bool) {
        if on {
            self.0 |= stage.bit();
        } else {
            self.0 &= !stage.bit();
        }
    }

    pub fn with(mut self, stage: Stage, on: bool) -> Stages {
        self.set(stage, on);
        self
    }

    /// The stages that are off, in pipeline order.
    pub fn off(self) -> Vec<Stage> {
        Stage::ALL.into_iter().filter(|s| !self.contains(*s)).collect()
    }
}

impl Default for Stages {
    /// The stages a bare rule set runs with (a fresh mining's, before the automatic rules choose): all
    /// but those that read the document's lines and sentences (`line-boundary`, `sentence-heads`,
    /// `sentence-tails`), the title's (`title`, `headline`, `datelines`) and `reprints`; the stages that
    /// do nothing until their threshold is set (`islands`, `short-runs`, `specks`) are on.
    fn default() -> Stages {
        Stages::all()
            .with(Stage::LineBoundary, false)
            .with(Stage::SentenceHeads, false)
            .with(Stage::SentenceTails, false)
            .with(Stage::Title, false)
            .with(Stage::Headline, false)
            .with(Stage::Datelines, false)
            .with(Stage::Reprints, false)
    }
}

impl fmt::Debug for Stages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on: Vec<&str> = Stage::ALL.iter().filter(|s| self.contains(**s)).map(|s| s.name()).collect();
        write!(f, "Stages({})", on.join(", "))
    }
}

/// A rules file's settings for cleaning, beside its rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CleanSettings {
    /// Removed intervals fewer than this many characters apart are joined.
    pub merge_gap: usize,
    /// `islands`: kept text of fewer than this many words between two removed spans goes too (0: none).
    pub islands: usize,
    /// `short-runs`: kept runs outside the article block with fewer than this many words on long lines
    /// go (0: none).
    pub short_runs: usize,
    /// `specks`: removed spans of fewer than this many characters inside a line of kept text come back
    /// (0: none).
    pub specks: usize,
    /// The stages that are on.
    pub stages: Stages,
}

impl CleanSettings {
    pub fn on(&self, stage: Stage) -> bool {
        self.stages.contains(stage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stage_has_a_distinct_name_that_reads_back() {
        let mut names: Vec<&str> = Stage::ALL.iter().map(|s| s.name()).collect();
        for s in Stage::ALL {
            assert_eq!(Stage::from_name(s.name()), Some(s));
            assert_eq!(s.name().parse::<Stage>(), Ok(s));
            // the serde name is the same one
            assert_eq!(toml::Value::try_from(s).unwrap().as_str(), Some(s.name()));
        }
        names.dedup();
        assert_eq!(names.len(), Stage::ALL.len());
        let err = "reprint".parse::<Stage>().unwrap_err();
        assert!(err.contains("reprints") && err.contains("\"reprint\""), "{err}");
    }

    #[test]
    fn a_set_switches_each_stage_alone() {
        for s in Stage::ALL {
            let off = Stages::all().with(s, false);
            assert_eq!(off.off(), vec![s]);
            assert!(Stage::ALL.iter().all(|t| off.contains(*t) == (*t != s)));
        }
        assert_eq!(Stages::none().off().len(), Stage::ALL.len());
    }
}
