//! Regressions of `chaff eval`.

use chaff::generate::{optional_parts, write_source};

use crate::run::with_closed_stdout;

/// `chaff eval … | head -1`: the tables were printed with `println!`, which panics (exit 101) once the
/// reader has gone.
#[test]
fn eval_with_a_closed_stdout_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    write_source(&optional_parts(12, 1), &dir.path().join("set")).unwrap();
    let (status, err) = with_closed_stdout(&["eval", "set", "--method", "df-lines", "--pages"], dir.path());
    assert!(status.success(), "{status:?}: {err}");
}
