//! Floors: the overall F1 CI must keep, per dataset, input and protocol (`eval/floors.toml`). A run fails
//! when a measured overall F1 falls more than `tolerance` below its floor. Raise a floor when you improve.
//!
//! ```toml
//! tolerance = 0.02
//! [dragnet.txt]
//! in-sample = 0.86
//! held-out = 0.85
//! ```

use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};

use super::report::Evaluation;

#[derive(Debug, Clone, PartialEq)]
pub struct Floors {
    pub tolerance: f64,
    table: toml::Table,
}

/// One floor compared with one measurement.
#[derive(Debug, Clone, Serialize)]
pub struct FloorCheck {
    pub dataset: String,
    pub input: String,
    pub protocol: String,
    pub floor: f64,
    pub measured: f64,
    pub ok: bool,
}

impl Floors {
    pub fn parse(text: &str, path: &Path) -> Result<Floors> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            let (line, column) = e.span().map_or((1, 1), |s| crate::error::line_column(text, s.start));
            Error::Toml { path: path.to_path_buf(), line, column, message: e.message().trim().to_string() }
        })?;
        let tolerance = match table.get("tolerance") {
            None => 0.02,
            Some(v) => v
                .as_float()
                .ok_or_else(|| Error::Invalid(format!("{}: `tolerance` must be a number like 0.02", path.display())))?,
        };
        Ok(Floors { tolerance, table })
    }

    pub fn load(path: &Path) -> Result<Floors> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::Io { path: path.to_path_buf(), source: e })?;
        Floors::parse(&text, path)
    }

    /// The floor of `dataset` × `input` × `protocol`, if one is recorded.
    pub fn floor(&self, dataset: &str, input: &str, protocol: &str) -> Option<f64> {
        let v = self.table.get(dataset)?.get(input)?.get(protocol)?;
        v.as_float().or_else(|| v.as_integer().map(|i| i as f64))
    }

    /// Compares every run of `eval` that has a floor.
    pub fn check(&self, eval: &Evaluation) -> Vec<FloorCheck> {
        eval.runs
            .iter()
            .filter_map(|r| {
                let floor = self.floor(&eval.dataset, eval.input.name(), r.protocol.name())?;
                let measured = r.overall.main().f1;
                Some(FloorCheck {
                    dataset: eval.dataset.clone(),
                    input: eval.input.name().to_string(),
                    protocol: r.protocol.name().to_string(),
                    floor,
                    measured,
                    ok: measured >= floor - self.tolerance - 1e-9,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floors_by_dataset_input_protocol() {
        let f = Floors::parse("tolerance = 0.05\n[dragnet.txt]\nin-sample = 0.8\nheld-out = 1\n", Path::new("f.toml"))
            .unwrap();
        assert_eq!(f.tolerance, 0.05);
        assert_eq!(f.floor("dragnet", "txt", "in-sample"), Some(0.8));
        assert_eq!(f.floor("dragnet", "txt", "held-out"), Some(1.0));
        assert_eq!(f.floor("dragnet", "html", "held-out"), None);
        let err = Floors::parse("[x\n", Path::new("f.toml")).unwrap_err().to_string();
        assert!(err.starts_with("f.toml:1:"), "{err}");
    }
}
