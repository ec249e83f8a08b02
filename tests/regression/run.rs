//! Running the real binary on a fixture: with arguments, with stdin, or with stdout closed before it
//! writes anything (a reader that has gone, as `chaff … | head` leaves it).

use std::io::Write;
use std::path::Path;
use std::process::{Command, ExitStatus, Output, Stdio};

pub fn chaff(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chaff")).args(args).current_dir(dir).output().unwrap()
}

pub fn chaff_stdin(args: &[&str], dir: &Path, input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // written from a thread: the output of a large input fills the pipe before the input is all read
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    out
}

/// Runs the binary with its stdout closed before it writes anything: its exit status and stderr.
pub fn with_closed_stdout(args: &[&str], dir: &Path) -> (ExitStatus, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    (o.status, stderr(&o))
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
