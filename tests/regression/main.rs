//! Regression tests: each is named after the defect it guards, and failed before its fix.
//! One module per area; each runs the real binary or the library on a temp-dir fixture.

mod clean_input;
mod clean_io;
mod cost;
mod eval;
mod rule_regexes;
mod rules_files;
mod run;
mod tui;
mod tui_preview;
mod tui_writers;
