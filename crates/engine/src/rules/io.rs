//! Reading a rules file (malformed TOML, and every check of `check.rs`, an error naming file, line and
//! column; keys chaff does not read, warnings), older formats read as this one, and writing it atomically.

use std::fs;

use serde::Deserialize;
use std::path::Path;

use super::{RulesFile, check, fast};
use crate::error::{Error, Result, line_column};

impl RulesFile {
    /// Parses and checks a rules file's text (see [`RulesFile::parse_checked`]); warnings are dropped.
    pub fn parse(text: &str, path: &Path) -> Result<RulesFile> {
        RulesFile::parse_checked(text, path).map(|(file, _)| file)
    }

    /// Parses a rules file's text. Errors (malformed TOML, a bin over 99, a rule id used twice, a regex
    /// that does not compile) and the warnings returned (keys chaff does not read, such as a misspelled
    /// `stauts`) name `path`, line and column.
    pub fn parse_checked(text: &str, path: &Path) -> Result<(RulesFile, Vec<String>)> {
        // read the short way when it is sure (see `fast.rs`), else by the TOML parser
        let (mut file, warnings) = match fast::parse(text) {
            Some(file) => {
                let warnings = check::check(text, path, &file, check::Keys::none())?;
                (file, warnings)
            }
            None => RulesFile::parse_toml(text, path)?,
        };
        file.migrate();
        Ok((file, warnings))
    }

    /// [`RulesFile::parse_checked`] by the TOML parser alone, before `migrate`.
    pub(super) fn parse_toml(text: &str, path: &Path) -> Result<(RulesFile, Vec<String>)> {
        let toml_error = |e: toml::de::Error| {
            let (line, column) = e.span().map_or((1, 1), |s| line_column(text, s.start));
            Error::Toml { path: path.to_path_buf(), line, column, message: e.message().trim().to_string() }
        };
        // parsed once: the checks read its keys, then it is deserialized (moved, not copied); an error's
        // place is found by parsing again
        let doc = toml::de::DeTable::parse(text).map_err(toml_error)?;
        let keys = check::keys(text, path, doc.get_ref());
        // the patterns file sits beside the rules files and is the likeliest wrong file to pass
        let patterns_only = doc.get_ref().contains_key("pattern") && !doc.get_ref().contains_key("source");
        if patterns_only {
            return Err(Error::Toml {
                path: path.to_path_buf(),
                line: 1,
                column: 1,
                message: "a mutable patterns file, not a source's rules file (no `source`); \
                          `chaff mine <source folder>` writes a source's rules file (rules/<source>.toml)"
                    .into(),
            });
        }
        let file = RulesFile::deserialize(toml::de::Deserializer::from(doc)).map_err(toml_error)?;
        let warnings = check::check(text, path, &file, keys)?;
        Ok((file, warnings))
    }

    /// Reads and checks a rules file (see [`RulesFile::parse_checked`]); warnings are dropped.
    pub fn load(path: &Path) -> Result<RulesFile> {
        RulesFile::load_checked(path).map(|(file, _)| file)
    }

    /// Reads and checks a rules file: the file and its warnings, for the caller to show.
    pub fn load_checked(path: &Path) -> Result<(RulesFile, Vec<String>)> {
        RulesFile::parse_checked(&read_text(path)?, path)
    }

    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).expect("rules serialize");
        format!(
            "# chaff rules for source `{}`. Set a rule's status to accepted, rejected or pending;\n\
             # `chaff clean --rules` applies the accepted ones. Written by chaff; comments are not kept.\n\n{body}",
            self.source
        )
    }

    /// Writes atomically: temporary file beside `path`, fsync, rename.
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::atomic::write_atomic(path, self.to_toml().as_bytes())
    }
}

/// A rules file's text; invalid UTF-8 is an error naming its line and column.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = fs::read(path).map_err(|e| Error::io(path, e))?;
    String::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_column(&String::from_utf8_lossy(e.as_bytes()), e.utf8_error().valid_up_to());
        Error::Toml { path: path.to_path_buf(), line, column, message: "invalid UTF-8".into() }
    })
}
