//! Frame timings of the tuning UI (`chaff bench --tui`).

/// Times key → drawn frame and a re-mine; returns a printable report.
pub fn bench_frames() -> String {
    String::from("tui bench: not written yet\n")
}
