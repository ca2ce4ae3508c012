//! `rebound fit`: the decaying partials of a recorded strike (`modal-fit`), as a table
//! or JSON, written to a body file a recorded body can be made from.

use crate::common::{flag, spec};
use clap::Args;
use modal_fit::{BodyFile, FitOptions, fit, read_audio};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct FitArgs {
    #[arg(value_name = "IN",
          help = spec("The recording of one strike: WAV (8–32-bit integer or 32-bit float) \
                       or FLAC, mono or stereo, silence or noise before the strike allowed",
                      "none (a path)", "a readable .wav or .flac", "none"))]
    input: PathBuf,
    #[arg(long, value_name = "BODY.json",
          help = spec("Write the modes found to this body file", "none (a path)",
                      "any writable path", "none (only print)"))]
    out: Option<PathBuf>,
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256),
          help = spec("Keep at most N modes: the strongest of each third-octave band, then the strongest left, by their ring energy after the strike's first 20 ms (amplitude² × T60 × what is left by then)",
                      "modes", "1 to 256, whole", "32"))]
    modes: Option<u16>,
    #[arg(long, help = flag("Print the body file's JSON instead of a table"))]
    json: bool,
}

/// Reads, fits, writes; the table or JSON to print.
pub fn cmd_fit(a: &FitArgs) -> Result<String, String> {
    let started = Instant::now();
    let rec = read_audio(&a.input).map_err(|e| e.to_string())?;
    let mut opts = FitOptions::default();
    if let Some(n) = a.modes {
        opts.max_modes = usize::from(n);
    }
    let body = BodyFile::new(fit(&rec, &opts).map_err(|e| e.to_string())?);
    let json = body.to_json();
    if let Some(out) = &a.out {
        std::fs::write(out, &json).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    if a.json {
        return Ok(json);
    }
    let f = &body.fit;
    let mut t = format!(
        "{}: {} modes, strike at {:.4} s, residual {:.1} dB, noise floor {:.1} dB ({:.2} s)\n",
        a.input.display(),
        f.modes.len(),
        f.onset_s,
        f.residual_db,
        f.noise_floor_db,
        started.elapsed().as_secs_f64()
    );
    let _ = writeln!(
        t,
        "{:>4} {:>12} {:>10} {:>10}",
        "mode", "freq Hz", "T60 s", "level dB"
    );
    for (i, m) in f.modes.iter().enumerate() {
        let _ = writeln!(
            t,
            "{:>4} {:>12.3} {:>10.4} {:>10.2}",
            i + 1,
            m.freq_hz,
            m.t60_s,
            m.level_db
        );
    }
    if let Some(out) = &a.out {
        let _ = write!(t, "wrote {}", out.display());
    }
    Ok(t.trim_end().to_string())
}
