//! The seam between the evaluation and what it evaluates: a [`Method`] learns a [`Model`] from the
//! training pages of one source; the model says which byte spans of a page to remove. Everything else —
//! protocols, rendering, scoring, tables — is the same for every method, so a new one (another seed's
//! baseline) is one `impl` and one name in [`by_name`].

use crate::error::{Error, Result};

use super::baseline::{DfLines, TableChunks};
use super::chaff::{Chaff, ChaffOptions};
use super::dataset::{Input, Site};

/// The training pages of one source, as a method sees them.
pub struct Source<'a> {
    pub name: &'a str,
    /// Index of the site in the dataset (for methods that compare sources).
    pub site: usize,
    pub input: Input,
    pub docs: Vec<(&'a str, &'a str)>,
}

pub trait Method: Sync {
    fn name(&self) -> String;

    /// The input the method reads when `asked` was asked for (an HTML-only method reads HTML anyway).
    fn input(&self, asked: Input) -> Input {
        asked
    }

    /// Work over the whole dataset before any source is trained (e.g. the cross-source filter).
    fn prepare(&mut self, _sites: &[Site], _input: Input) -> Result<()> {
        Ok(())
    }

    /// Learns one source. Called with at least two documents.
    fn train(&self, source: &Source<'_>) -> Result<Box<dyn Model>>;
}

/// What a method learned about one source.
pub trait Model: Send + Sync {
    /// Byte spans of `text` to remove (any order; they may overlap).
    fn removed(&self, text: &str) -> Vec<(usize, usize)>;
}

/// A model that removes nothing (a fold too small to learn from).
pub struct Nothing;

impl Model for Nothing {
    fn removed(&self, _text: &str) -> Vec<(usize, usize)> {
        Vec::new()
    }
}

/// The method names `--method` accepts.
pub const NAMES: [&str; 3] = ["chaff", "df-lines", "table-chunks"];

/// The method called `name`. `threshold` is the baselines' document-frequency threshold (share of the
/// training pages a fragment must exceed to be template).
pub fn by_name(name: &str, chaff: &ChaffOptions, threshold: f64) -> Result<Box<dyn Method>> {
    match name {
        "chaff" => Ok(Box::new(Chaff::new(chaff.clone()))),
        "df-lines" => Ok(Box::new(DfLines { threshold })),
        "table-chunks" => Ok(Box::new(TableChunks { threshold })),
        _ => Err(Error::Invalid(format!("unknown method `{name}` (known: {})", NAMES.join(", ")))),
    }
}
