//! `tabula`: with no arguments opens the window; subcommands play, match,
//! replay, perft and check levels (see `tabula --help`).

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    tabula::START.get_or_init(std::time::Instant::now);
    let cli = tabula::cli::Cli::parse();
    match tabula::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
