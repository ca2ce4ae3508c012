//! `rebound render`: notes through the plugin's own voice engine, offline, to a WAV
//! file (and optionally a PNG of the waveform, force pulse and energy drift). Every
//! plugin parameter is an option, validated against the plugin's own ranges
//! ([`rebound::engine::LIMITS`], free of the plugin framework).

use crate::args::{ArgError, Options};
use crate::plot::write_plot;
use rebound::engine::{self, EngineParams, LIMITS, NoteOff, NoteSpec};
use rebound::model::body::BodyType;
use rebound::render::write_wav;
use std::path::PathBuf;

/// A numeric option; its range is the plugin's ([`LIMITS`], through `get`).
struct Numeric {
    name: &'static str,
    set: fn(&mut EngineParams, f64),
    get: fn(&EngineParams) -> f64,
}

const NUMERIC: [Numeric; 18] = [
    Numeric {
        name: "v-min",
        set: |p, v| p.v_min = v,
        get: |p| p.v_min,
    },
    Numeric {
        name: "v-max",
        set: |p, v| p.v_max = v,
        get: |p| p.v_max,
    },
    Numeric {
        name: "velocity-curve",
        set: |p, v| p.velocity_curve = v,
        get: |p| p.velocity_curve,
    },
    Numeric {
        name: "mass",
        set: |p, v| p.mass = v,
        get: |p| p.mass,
    },
    Numeric {
        name: "k",
        set: |p, v| p.k = v,
        get: |p| p.k,
    },
    Numeric {
        name: "alpha",
        set: |p, v| p.alpha = v,
        get: |p| p.alpha,
    },
    Numeric {
        name: "mu",
        set: |p, v| p.mu = v,
        get: |p| p.mu,
    },
    Numeric {
        name: "gravity",
        set: |p, v| p.gravity = v,
        get: |p| p.gravity,
    },
    Numeric {
        name: "body-freq",
        set: |p, v| p.body_freq = v,
        get: |p| p.body_freq,
    },
    Numeric {
        name: "key-track",
        set: |p, v| p.key_track = v,
        get: |p| p.key_track,
    },
    Numeric {
        name: "t60",
        set: |p, v| p.t60 = v,
        get: |p| p.t60,
    },
    Numeric {
        name: "brightness",
        set: |p, v| p.brightness = v,
        get: |p| p.brightness,
    },
    Numeric {
        name: "position",
        set: |p, v| p.position = v,
        get: |p| p.position,
    },
    Numeric {
        name: "mix",
        set: |p, v| p.mix = v,
        get: |p| p.mix,
    },
    Numeric {
        name: "gain",
        set: |p, v| p.gain_db = v,
        get: |p| p.gain_db,
    },
    Numeric {
        name: "voices",
        set: |p, v| p.voices = v as usize,
        get: |p| p.voices as f64,
    },
    Numeric {
        name: "restitution",
        set: |p, v| p.restitution = v,
        get: |p| p.restitution,
    },
    Numeric {
        name: "release",
        set: |p, v| p.release = v,
        get: |p| p.release,
    },
];

/// The range's ends in physical units.
fn bounds(n: &Numeric) -> (f64, f64) {
    ((n.get)(&LIMITS[0]), (n.get)(&LIMITS[1]))
}

pub fn options() -> Vec<&'static str> {
    let mut v: Vec<&str> = NUMERIC.iter().map(|n| n.name).collect();
    v.extend([
        "note",
        "velocity",
        "duration",
        "out",
        "plot",
        "fs",
        "method",
        "correction",
        "clamp-target",
        "bouncing",
        "gravity-in-contact",
        "body",
        "note-off",
        "hold",
    ]);
    v
}

pub fn cmd_render(rest: &[String]) -> Result<String, ArgError> {
    let (midi, rest) = crate::midi::take_args(rest)?;
    let valued = options();
    let o = Options::parse(&rest, &valued, &[])?;
    let mut p = EngineParams::default();
    for n in &NUMERIC {
        let (lo, hi) = bounds(n);
        let v = o.number(
            n.name,
            (n.get)(&p),
            &format!("in {lo:.4e}..{hi:.4e}"),
            |v| (lo..=hi).contains(&v),
        )?;
        (n.set)(&mut p, v);
    }
    if p.v_min > p.v_max {
        return Err(ArgError(format!(
            "--v-min: must not exceed --v-max ({} > {})",
            p.v_min, p.v_max
        )));
    }
    p.method = o.get("method", p.method)?;
    p.correction = o.get("correction", p.correction)?;
    p.clamp_target = o.get("clamp-target", p.clamp_target)?;
    p.body = o.get::<BodyType>("body", p.body)?;
    p.note_off = o.get::<NoteOff>("note-off", p.note_off)?;
    let on_off = |name: &str| -> Result<bool, ArgError> {
        match o.get::<String>(name, "off".into())?.as_str() {
            "on" | "true" | "1" => Ok(true),
            "off" | "false" | "0" => Ok(false),
            other => Err(ArgError(format!(
                "--{name}: expected on or off (got '{other}')"
            ))),
        }
    };
    p.bouncing = on_off("bouncing")?;
    p.gravity_in_contact = on_off("gravity-in-contact")?;
    // Damping from a restitution (seed 000) when one is given.
    if o.has("restitution") {
        if o.has("mu") {
            return Err(ArgError(
                "--restitution: not with --mu (the damping comes from one or the other)".into(),
            ));
        }
        p.from_restitution = true;
    }
    let note: u8 = o.get("note", 60)?;
    if note > 127 {
        return Err(ArgError(format!("--note: must be 0 to 127 (got {note})")));
    }
    let velocity: u8 = o.get("velocity", 100)?;
    if !(1..=127).contains(&velocity) {
        return Err(ArgError(format!(
            "--velocity: must be a MIDI velocity 1 to 127 (got {velocity})"
        )));
    }
    let duration = o.number("duration", 2.0, "in (0, 600] s", |v| v > 0.0 && v <= 600.0)?;
    let fs = o.number("fs", 48_000.0, "in 8000..768000 Hz", |v| {
        (8_000.0..=768_000.0).contains(&v)
    })?;
    let out: PathBuf = o
        .get::<String>("out", String::new())?
        .parse()
        .map_err(|_| ArgError("--out: not a path".into()))?;
    if out.as_os_str().is_empty() {
        return Err(ArgError("--out: missing (the WAV file to write)".into()));
    }
    let plot: Option<PathBuf> = match o.get::<String>("plot", String::new())? {
        s if s.is_empty() => None,
        s => Some(PathBuf::from(s)),
    };
    // How long the key is held: released after --hold s (in Damp mode that damps it),
    // or held through the render.
    let hold = match o.get::<String>("hold", String::new())? {
        s if s.is_empty() => None,
        _ => Some(o.number("hold", 0.0, "in [0, 600] s", |v| (0.0..=600.0).contains(&v))?),
    };
    if let Some(midi) = midi {
        let duration = o.has("duration").then_some(duration);
        return crate::midi::render_midi(&midi, &p, fs, duration, &out, plot.as_deref());
    }
    let samples = (duration * fs).round().max(1.0) as usize;
    let notes = [NoteSpec {
        at: 0,
        key: note,
        velocity: velocity as f32 / 127.0,
        off: hold.map(|h| (h * fs).round() as usize),
    }];
    let r = engine::render(&p, fs, &notes, samples);
    write_wav(&out, fs.round() as u32, 2, &r.audio)
        .map_err(|e| ArgError(format!("--out: cannot write {}: {e}", out.display())))?;
    if let Some(path) = &plot {
        write_plot(path, &r)
            .map_err(|e| ArgError(format!("--plot: cannot write {}: {e}", path.display())))?;
    }
    let peak = r.audio.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    Ok(format!(
        "wrote {} ({:.3} s at {} Hz, stereo float): peak {:.2} dBFS, {} guard events{}",
        out.display(),
        duration,
        fs,
        20.0 * (peak.max(1e-12) as f64).log10(),
        r.guard_events,
        plot.map(|p| format!("; plot {}", p.display()))
            .unwrap_or_default()
    ))
}
