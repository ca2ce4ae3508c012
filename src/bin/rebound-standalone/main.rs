//! `rebound-standalone`: Rebound played without a DAW. nice-plug's standalone host opens
//! the editor and runs the instrument on JACK or ALSA (or no device at all with
//! `--backend dummy`), with MIDI in; `--help` lists its options (backend, sample rate,
//! period size, devices, MIDI input).
//!
//! Ctrl-C (SIGINT) and SIGTERM close the editor window the way its close button does, so
//! the host stops the audio thread, deactivates the plugin and the process exits 0.
//! nice-plug's own Ctrl-C handler only ends its loop for plugins without an editor; with
//! an editor open the signal would be swallowed (see `signals`).

mod signals;

use std::process::ExitCode;

use nice_plug::prelude::*;
use rebound::Rebound;

fn main() -> ExitCode {
    // Before any other thread exists, so that every thread inherits the blocked mask.
    let blocked = signals::block();
    if let Err(err) = &blocked {
        eprintln!("rebound-standalone: Ctrl-C will not close the editor cleanly: {err}");
    }
    if let Ok(set) = blocked {
        signals::close_on_signal(set, Rebound::NAME);
    }
    // nice-plug answers `false` when the backend named on the command line cannot start,
    // the editor cannot open, or the plugin fails.
    if nice_export_standalone::<Rebound>() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
