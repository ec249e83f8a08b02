//! The tuning UI's benchmark as an ignored test, for running it without the CLI:
//! `cargo test --release --test tui_bench -- --ignored --nocapture`.

#[test]
#[ignore = "a benchmark: run it in release with --ignored --nocapture"]
fn tui_frames() {
    print!("{}", chaff::tui::bench::bench_frames());
}

/// The sources table alone: `cargo test --release --test tui_bench -- --ignored --nocapture workspace`.
#[test]
#[ignore = "a benchmark: run it in release with --ignored --nocapture"]
fn tui_workspace() {
    print!("{}", chaff::tui::workspace::bench::bench_workspace(1000, 20));
}
