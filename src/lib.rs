//! chaff: learn a source's template from a history of its documents, and remove it.
//!
//! This package is the `chaff` binary (the command line and the terminal UI) and the UI's library. The
//! method lives in the engine crate (`chaff-engine`, no UI dependency), re-exported here whole, so that
//! `chaff::rules`, `chaff::cleaning`… name the engine's modules; [`eval`] is the evaluation crate
//! (`chaff-eval`) and [`generate`] the sample generator (`chaff-generate`).

pub use chaff_engine::*;
pub use chaff_eval as eval;
pub use chaff_generate as generate;

pub mod reading;
pub mod tui;
