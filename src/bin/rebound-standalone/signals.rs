//! SIGINT and SIGTERM for the standalone player: they close the editor window.
//!
//! nice-plug's standalone installs a Ctrl-C handler that sets a flag only its no-editor
//! loop reads; with the editor open, the window's event loop never sees it and the
//! process keeps running. So the two signals are blocked in every thread (the mask is
//! set in `main` before nice-plug, JACK or ALSA start theirs, and inherited) and taken by
//! one thread with `sigwait`, which never lets them reach nice-plug's handler. That
//! thread finds this process's editor window on the X server (its title, and its owner's
//! pid from the X-Resource extension) and sends it `WM_DELETE_WINDOW`, as a window
//! manager's close button does: baseview closes the window, `run_until_closed` returns,
//! the host joins its audio thread, deactivates the plugin and `main` returns 0. A second
//! signal, or a first one with no editor window open (still starting, or the editor
//! failed to open), exits at once with 130.

use std::error::Error;
use std::thread;

use nix::sys::signal::{SigSet, Signal};
use x11rb::connection::Connection;
use x11rb::protocol::res::{ClientIdMask, ClientIdSpec, ConnectionExt as _};
use x11rb::protocol::xproto::{AtomEnum, ClientMessageEvent, ConnectionExt as _, EventMask};

/// The exit status of a process ended by Ctrl-C without a clean close (128 + SIGINT).
const INTERRUPTED: i32 = 130;

/// Blocks SIGINT and SIGTERM in the calling thread and every thread it starts later.
pub fn block() -> nix::Result<SigSet> {
    let mut set = SigSet::empty();
    set.add(Signal::SIGINT);
    set.add(Signal::SIGTERM);
    set.thread_block()?;
    Ok(set)
}

/// Starts the thread that waits for the blocked signals and closes the window `title`.
pub fn close_on_signal(set: SigSet, title: &'static str) {
    let spawned = thread::Builder::new()
        .name("signals".into())
        .spawn(move || wait_and_close(set, title));
    if let Err(err) = spawned {
        eprintln!("rebound-standalone: no signal thread ({err}): Ctrl-C ends the process");
        // Unblocked again, the signals reach nice-plug's handler or end the process.
        let _ = set.thread_unblock();
    }
}

fn wait_and_close(set: SigSet, title: &str) {
    let Ok(signal) = set.wait() else {
        return;
    };
    match close_window(title) {
        Ok(0) => {
            eprintln!("rebound-standalone: {signal}, no editor window open: exiting");
            std::process::exit(INTERRUPTED);
        }
        Ok(_) => eprintln!("rebound-standalone: {signal}: closing the editor"),
        Err(err) => {
            eprintln!("rebound-standalone: {signal}, cannot close the editor ({err}): exiting");
            std::process::exit(INTERRUPTED);
        }
    }
    if let Ok(again) = set.wait() {
        eprintln!("rebound-standalone: {again} again: exiting without closing");
        std::process::exit(INTERRUPTED);
    }
}

/// Sends `WM_DELETE_WINDOW` to every window titled `title` that this process owns;
/// answers how many it asked to close.
fn close_window(title: &str) -> Result<usize, Box<dyn Error>> {
    let (conn, screen) = x11rb::connect(None)?;
    let root = conn.setup().roots[screen].root;
    let protocols = conn.intern_atom(false, b"WM_PROTOCOLS")?.reply()?.atom;
    let delete = conn.intern_atom(false, b"WM_DELETE_WINDOW")?.reply()?.atom;
    let pid = std::process::id();
    let mut asked = 0;
    let mut windows = conn.query_tree(root)?.reply()?.children;
    while let Some(window) = windows.pop() {
        windows.extend(conn.query_tree(window)?.reply()?.children);
        let name = conn
            .get_property(false, window, AtomEnum::WM_NAME, AtomEnum::STRING, 0, 64)?
            .reply()?;
        if name.value != title.as_bytes() {
            continue;
        }
        let spec = ClientIdSpec {
            client: window,
            mask: ClientIdMask::LOCAL_CLIENT_PID,
        };
        let owners = conn.res_query_client_ids(&[spec])?.reply()?.ids;
        if !owners.iter().any(|id| id.value.first() == Some(&pid)) {
            continue;
        }
        let data = [delete, x11rb::CURRENT_TIME, 0, 0, 0];
        let event = ClientMessageEvent::new(32, window, protocols, data);
        conn.send_event(false, window, EventMask::NO_EVENT, event)?;
        asked += 1;
    }
    // A round trip: the events are on the server before this connection closes.
    conn.get_input_focus()?.reply()?;
    Ok(asked)
}
