//! `tabula`: with no arguments opens the window; subcommands play, match,
//! replay, perft and check levels (see `tabula --help`).

use std::process::ExitCode;

fn main() -> ExitCode {
    #[cfg(feature = "dev")]
    tabula::app::dev_tools::process_started();
    match tabula::cli::run_args() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
