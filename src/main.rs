//! The `chaff` command: a thin layer over the engine library (`chaff::*`) and the tuning UI.

mod cli;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::args::Cli::parse();
    match cli::run(args) {
        Ok(_) if cli::output::stdout_failed() => ExitCode::from(1),
        Ok(code) => code,
        Err(err) => {
            if cli::output::is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            // stderr closed too (`2>&1 | head`): the exit status still says it
            let _ = writeln!(std::io::stderr(), "chaff: error: {}", cli::output::one_line(&err));
            ExitCode::from(if cli::output::is_usage(&err) { 2 } else { 1 })
        }
    }
}
