//! `tabula-server`: tabula's game server alone, for a host. It holds no
//! window (no Bevy, ALSA or X11), and takes the options of `tabula serve`.

use std::process::ExitCode;

use clap::Parser;

/// tabula's game server: tables of every tabula game over WebSocket, for
/// people and bots in any language (docs/protocol.md). Every accepted move is on disk before anyone hears
/// of it; a restarted server plays on from its database.
#[derive(Parser, Debug)]
#[command(name = "tabula-server", version)]
struct Args {
    #[command(flatten)]
    serve: tabula_server::cli::ServeArgs,
}

fn main() -> ExitCode {
    match tabula_server::cli::serve(Args::parse().serve, "tabula-server") {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tabula-server: {e:#}");
            ExitCode::FAILURE
        }
    }
}
