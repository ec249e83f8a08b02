//! The seam between the evaluation and what it evaluates: a [`Method`] learns a [`Model`] from the
//! training pages of one source; the model says which byte spans of a page to remove. Everything else —
//! protocols, rendering, scoring, tables — is the same for every method, so a new one is one file with
//! one `impl`, and one line in the registry below (`methods!`), from which [`MethodName`], its names and
//! the `--method` help come.
//!
//! | method | file | what it learns |
//! |---|---|---|
//! | `chaff` | [`chaff`] | maximal repeats above the automatic cutoff, with the automatic rules |
//! | `df-lines` | [`df_lines`] | lines in more than a third of the pages (Gottron) |
//! | `table-chunks` | [`table_chunks`] | text between table tags in more than a third of the pages |
//! | `alignment` | [`alignment`] | the consensus of pairwise Needleman–Wunsch alignments (Geraci & Maggini) |
//! | `gibson` | [`gibson`] | frequent fixed-width windows of words (Gibson, Punera & Tomkins) |

pub mod alignment;
pub mod chaff;
pub mod df_lines;
mod fragments;
pub mod gibson;
mod html_tokens;
mod nw;
pub mod table_chunks;

use serde::Serialize;
use serde_json::json;

use crate::error::{Error, Result};

pub use super::dataset::{Input, Site};

use self::alignment::{Alignment, AlignmentParams};
use self::chaff::Chaff;
use self::df_lines::DfLines;
use self::gibson::{Gibson, GibsonParams};
use self::table_chunks::TableChunks;
use crate::settings::Settings;

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

    /// [`Model::removed`], and the text a user gets of `text` cleaned where the method writes it itself
    /// (chaff: exactly what `chaff clean` writes, `--text` for HTML; `None`: `text` less the removed
    /// spans), from one cleaning.
    fn clean(&self, text: &str) -> (Vec<(usize, usize)>, Option<String>) {
        (self.removed(text), None)
    }
}

/// A model that removes nothing (a fold too small to learn from).
pub struct Nothing;

impl Model for Nothing {
    fn removed(&self, _text: &str) -> Vec<(usize, usize)> {
        Vec::new()
    }
}

/// Makes the method registry: [`MethodName`], its names, docs (the `--method` help), parameters and
/// constructors, from one line a method.
macro_rules! methods {
    ($($variant:ident $name:literal $doc:literal => build: $build:expr, options: $options:expr,)*) => {
        /// The methods `chaff eval --method` knows.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
        pub enum MethodName {
            $(#[serde(rename = $name)] $variant,)*
        }

        impl MethodName {
            pub const ALL: [MethodName; [$($name),*].len()] = [$(MethodName::$variant),*];

            pub fn name(self) -> &'static str {
                match self {
                    $(MethodName::$variant => $name,)*
                }
            }

            /// One line: what the method learns (the `--method` help).
            pub fn doc(self) -> &'static str {
                match self {
                    $(MethodName::$variant => $doc,)*
                }
            }

            pub fn parse(name: &str) -> Option<MethodName> {
                MethodName::ALL.into_iter().find(|m| m.name() == name)
            }
        }

        /// The method names `--method` accepts.
        pub const NAMES: [&str; MethodName::ALL.len()] = [$($name),*];

        /// The method `method`, with its parameters from `params`.
        pub fn build(method: MethodName, params: &MethodParams) -> Box<dyn Method> {
            match method {
                $(MethodName::$variant => {
                    let make: fn(&MethodParams) -> Box<dyn Method> = $build;
                    make(params)
                })*
            }
        }

        impl MethodParams {
            /// The parameters of `method`, for its report.
            pub fn options(&self, method: MethodName) -> serde_json::Value {
                match method {
                    $(MethodName::$variant => {
                        let options: fn(&MethodParams) -> serde_json::Value = $options;
                        options(self)
                    })*
                }
            }
        }
    };
}

// The registry. Adding a method: its file in this folder (a `Method` and its `Model`), `mod` above, and
// its line here; `chaff eval --method` reads its name and doc from here.
methods! {
    Chaff "chaff" "chaff: maximal repeats above the automatic cutoff, with `chaff mine --all`'s automatic rules"
        => build: |p| Box::new(Chaff::new(p.chaff.clone())),
           options: |p| chaff::options(&p.chaff),
    DfLines "df-lines" "Gottron: lines found in more than --df-threshold of the pages"
        => build: |p| Box::new(DfLines { threshold: p.df_threshold }),
           options: |p| json!({ "df_threshold": p.df_threshold }),
    TableChunks "table-chunks" "text between table tags found in more than --df-threshold of the pages (reads the HTML)"
        => build: |p| Box::new(TableChunks { threshold: p.df_threshold }),
           options: |p| json!({ "df_threshold": p.df_threshold }),
    Alignment "alignment" "Geraci & Maggini: consensus of Needleman–Wunsch alignments of t pages' tags and text (lines with --input txt); what aligns with its text goes"
        => build: |p| Box::new(Alignment { params: p.alignment }),
           options: |p| serde_json::to_value(p.alignment).unwrap_or_default(),
    Gibson "gibson" "Gibson, Punera & Tomkins: windows of W words counted F times on P pages; their runs go"
        => build: |p| Box::new(Gibson { params: p.gibson }),
           options: |p| serde_json::to_value(p.gibson).unwrap_or_default(),
}

/// Every method's parameters, as set on the command line.
#[derive(Debug, Clone)]
pub struct MethodParams {
    /// chaff's settings (its levers).
    pub chaff: Settings,
    /// The document-frequency baselines' threshold: share of the training pages a fragment must exceed.
    pub df_threshold: f64,
    pub alignment: AlignmentParams,
    pub gibson: GibsonParams,
}

impl Default for MethodParams {
    fn default() -> Self {
        MethodParams {
            chaff: Settings::default(),
            df_threshold: 1.0 / 3.0,
            alignment: AlignmentParams::default(),
            gibson: GibsonParams::default(),
        }
    }
}

/// The method called `name`, with chaff's settings `chaff`, the baselines' `threshold` and the other
/// methods' defaults.
pub fn by_name(name: &str, chaff: &Settings, threshold: f64) -> Result<Box<dyn Method>> {
    let method = MethodName::parse(name)
        .ok_or_else(|| Error::Invalid(format!("unknown method `{name}` (known: {})", NAMES.join(", "))))?;
    let params = MethodParams { chaff: chaff.clone(), df_threshold: threshold, ..MethodParams::default() };
    Ok(build(method, &params))
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    #[test]
    fn every_method_of_the_registry_reads_back_by_name_and_builds_as_itself() {
        let params = MethodParams::default();
        for m in MethodName::ALL {
            assert_eq!(MethodName::parse(m.name()), Some(m));
            assert_eq!(serde_json::to_value(m).unwrap(), json!(m.name()), "the serde name is the same one");
            assert!(!m.doc().is_empty());
            let built = build(m, &params).name();
            assert!(built.starts_with(m.name()), "{} builds {built}", m.name());
        }
        assert_eq!(NAMES.len(), MethodName::ALL.len());
    }
}
