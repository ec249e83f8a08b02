//! Regressions of `chaff eval`.

use std::process::{Command, Stdio};

use chaff::generate::{optional_parts, write_source};

/// `chaff eval … | head -1`: the tables were printed with `println!`, which panics (exit 101) once the
/// reader has gone.
#[test]
fn eval_with_a_closed_stdout_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    write_source(&optional_parts(12, 1), &dir.path().join("set")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(["eval", "set", "--method", "df-lines", "--pages"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes before anything is printed
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}: {}", out.status, String::from_utf8_lossy(&out.stderr));
}
