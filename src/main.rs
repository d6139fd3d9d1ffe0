//! `tabula`: with no arguments opens the window; subcommands play, match,
//! replay, perft and check levels (see `tabula --help`).

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    #[cfg(feature = "dev")]
    tabula::app::dev_tools::process_started();
    let cli = tabula::cli::Cli::parse();
    match tabula::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
