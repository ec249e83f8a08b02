//! chaff: learn a source's template from a history of its documents, and remove it.
//!
//! The method is Foschini's (thesis chapters 3–5), one module a step:
//! [`corpus`] → [`tokens`] + [`mutable`] → [`vocabulary`] → [`suffix_array`] → [`statistics`] →
//! [`cutoff`] → [`synthesis`] → [`rules`] → [`cleaning`]. [`mining`] runs the steps in order;
//! [`cross_source`] is the second-level filter across sources. This crate has no UI dependency: the CLI
//! and the terminal UI (the `chaff` package) are thin layers over it.

pub mod atomic;
pub mod clean_settings;
pub mod corpus;
pub mod crawl;
pub mod cutoff;
pub mod editing;
pub mod error;
pub mod mutable;
pub mod statistics;
pub mod suffix_array;
pub mod symbol;
pub mod synthesis;
pub mod tokens;
pub mod vocabulary;
pub mod words;

pub use error::{Error, Result};
pub mod cleaning;
pub mod cross_source;
pub mod draft;
pub mod drift;
pub mod lines;
pub mod matcher;
pub mod merge;
pub mod mining;
pub mod page;
pub mod regions;
pub mod review;
pub mod rules;
pub mod settings;
pub mod verified;
pub mod view;

pub mod automatic;
pub mod clusters;
pub mod evidence;
pub mod frame;
pub mod idioms;
pub mod impact;
pub mod render;
