//! The playing figures `rebound presets --measure` prints after the presets' loudness,
//! as a sound designer checks an instrument: the default patch's loudness across the
//! keyboard, the peaks of chords (headroom: nothing inside clips or limits), how much
//! brighter a full-velocity note is than a soft one, and how the bouncing presets'
//! trains vary with Irregularity. The host tests measure the same through the VST3.

use rebound::analysis::{centroid, force_onsets, interval_ratios, spread};
use rebound::engine::level::law::HEADROOM_CHORDS;
use rebound::engine::{EngineParams, NoteSpec, Rendered, render};
use rebound::loudness::measure;
use rebound::preset::Preset;
use serde::Serialize;

const FS: f64 = 48_000.0;

/// The keys of the keyboard sweep (full velocity, 2 s each).
pub const KEYBOARD: std::ops::RangeInclusive<u8> = 36..=96;
const KEYBOARD_STEP: usize = 4;
/// The soft note the velocity figure compares a full-velocity one with.
pub const SOFT_VELOCITY: u8 = 40;
/// Bounce intervals whose ratios the irregularity figure reads (the first ones, where
/// the intervals are many samples long and the sample grid's rounding is small).
const INTERVALS: usize = 13;

#[derive(Serialize)]
pub struct KeyRow {
    pub key: u8,
    pub momentary_max: f64,
    pub true_peak_db: f64,
}

#[derive(Serialize)]
pub struct ChordRow {
    pub keys: Vec<u8>,
    pub velocity: u8,
    pub sample_peak_db: f64,
    pub true_peak_db: f64,
    /// Samples over 0 dBFS on either channel: present, not clipped (no output clip).
    pub over_full_scale: usize,
    pub guard_events: u64,
}

#[derive(Serialize)]
pub struct VelocityRow {
    pub name: String,
    pub centroid_127_hz: f64,
    pub soft_velocity: u8,
    pub centroid_soft_hz: f64,
    pub ratio: f64,
}

#[derive(Serialize)]
pub struct BounceRow {
    pub name: String,
    pub irregularity: f64,
    /// The first bounce onsets, samples from the note-on (the force's rising edges).
    pub onsets: Vec<usize>,
    /// Standard deviation of the ratios of successive bounce intervals.
    pub ratio_spread: f64,
    /// The first onsets with Irregularity 0: the exact chain.
    pub onsets_at_0: Vec<usize>,
    /// The same with Irregularity 0, spread by the sample grid alone where the chain
    /// is geometric (a flight-only train).
    pub ratio_spread_at_0: f64,
}

#[derive(Serialize)]
pub struct Playing {
    pub keyboard: Vec<KeyRow>,
    pub chords: Vec<ChordRow>,
    pub velocity: Vec<VelocityRow>,
    pub irregularity: Vec<BounceRow>,
}

fn notes(keys: &[u8], velocity: u8) -> Vec<NoteSpec> {
    keys.iter()
        .map(|&key| NoteSpec {
            at: 0,
            key,
            velocity: velocity as f32 / 127.0,
            off: None,
        })
        .collect()
}

fn play(p: &EngineParams, keys: &[u8], velocity: u8, seconds: f64) -> Rendered {
    render(p, FS, &notes(keys, velocity), (seconds * FS) as usize)
}

fn key_row(key: u8) -> KeyRow {
    let r = play(&EngineParams::default(), &[key], 127, 2.0);
    let m = measure(FS as u32, &r.left, &r.right);
    KeyRow {
        key,
        momentary_max: m.as_ref().map_or(f64::NEG_INFINITY, |m| m.momentary_max),
        true_peak_db: m.map_or(f64::NEG_INFINITY, |m| m.true_peak_db),
    }
}

fn chord_row(keys: &[u8], velocity: u8) -> ChordRow {
    let r = play(&EngineParams::default(), keys, velocity, 2.0);
    let m = measure(FS as u32, &r.left, &r.right);
    ChordRow {
        keys: keys.to_vec(),
        velocity,
        sample_peak_db: m.as_ref().map_or(f64::NEG_INFINITY, |m| m.sample_peak_db),
        true_peak_db: m.as_ref().map_or(f64::NEG_INFINITY, |m| m.true_peak_db),
        over_full_scale: m.map_or(0, |m| m.over_full_scale),
        guard_events: r.guard_events,
    }
}

fn velocity_row(name: &str, p: &EngineParams) -> VelocityRow {
    let c = |vel| centroid(&play(p, &[60], vel, 0.5).mono(), FS);
    let (hard, soft) = (c(127), c(SOFT_VELOCITY));
    VelocityRow {
        name: name.to_string(),
        centroid_127_hz: hard,
        soft_velocity: SOFT_VELOCITY,
        centroid_soft_hz: soft,
        ratio: if soft > 0.0 { hard / soft } else { 0.0 },
    }
}

/// Standard deviation of the ratios of successive intervals of `onsets` (the first
/// [`INTERVALS`] intervals); 0 with fewer than three intervals.
pub fn ratio_spread(onsets: &[usize]) -> f64 {
    let r = interval_ratios(onsets, INTERVALS);
    if r.len() < 2 { 0.0 } else { spread(&r) }
}

fn bounce_row(p: &Preset) -> BounceRow {
    let train = |params: &EngineParams| force_onsets(&play(params, &[60], 127, 4.0).force);
    let at = train(&p.params);
    let exact = train(&EngineParams {
        irregularity: 0.0,
        ..p.params
    });
    BounceRow {
        name: p.name.clone(),
        irregularity: p.params.irregularity,
        ratio_spread: ratio_spread(&at),
        onsets: at.into_iter().take(INTERVALS + 1).collect(),
        ratio_spread_at_0: ratio_spread(&exact),
        onsets_at_0: exact.into_iter().take(INTERVALS + 1).collect(),
    }
}

/// Renders every figure, spread over the cores.
pub fn playing(presets: &[&Preset]) -> Playing {
    let keys: Vec<u8> = KEYBOARD.step_by(KEYBOARD_STEP).collect();
    let mut chords: Vec<(Vec<u8>, u8)> =
        HEADROOM_CHORDS.iter().map(|c| (c.to_vec(), 100)).collect();
    chords.push(((48..=78).step_by(2).collect(), 127));
    let mut mallets = vec![("(default patch)".to_string(), EngineParams::default())];
    mallets.extend(
        presets
            .iter()
            .filter(|p| p.category == "Mallet")
            .map(|p| (p.name.clone(), p.params)),
    );
    let bouncing: Vec<&Preset> = presets
        .iter()
        .copied()
        .filter(|p| p.params.irregularity > 0.0)
        .collect();
    Playing {
        keyboard: crate::common::par_map(&keys, |&k| key_row(k)),
        chords: crate::common::par_map(&chords, |(k, v)| chord_row(k, *v)),
        velocity: crate::common::par_map(&mallets, |(n, p)| velocity_row(n, p)),
        irregularity: crate::common::par_map(&bouncing, |p| bounce_row(p)),
    }
}

/// The figures as text, after the presets' table.
pub fn text(f: &Playing) -> String {
    let mut out = String::from("\n\nthe default patch across the keyboard, velocity 127:");
    for r in &f.keyboard {
        out += &format!(
            "\n  note {:>3}  {:>6.1} LUFS momentary max  {:>6.2} dBTP",
            r.key, r.momentary_max, r.true_peak_db
        );
    }
    let (lo, hi) = f.keyboard.iter().fold((f64::MAX, f64::MIN), |a, r| {
        (a.0.min(r.momentary_max), a.1.max(r.momentary_max))
    });
    out += &format!("\n  a {:.1} LU span", hi - lo);
    out += "\nchords on the default patch (nothing inside clips or limits):";
    for c in &f.chords {
        out += &format!(
            "\n  {:?} at velocity {}: peak {:.2} dBFS, true peak {:.2} dBTP, {} samples over 0 dBFS, {} guard events",
            c.keys, c.velocity, c.sample_peak_db, c.true_peak_db, c.over_full_scale, c.guard_events
        );
    }
    out += &format!("\nspectral centroid, note 60, velocity 127 against {SOFT_VELOCITY}:");
    for v in &f.velocity {
        out += &format!(
            "\n  {:<32} {:>7.0} Hz / {:>7.0} Hz = x{:.2}",
            v.name, v.centroid_127_hz, v.centroid_soft_hz, v.ratio
        );
    }
    out +=
        "\nbounce trains, spread of successive interval ratios (Irregularity 0: the exact chain):";
    for b in &f.irregularity {
        out += &format!(
            "\n  {:<36} Irregularity {:>3.0} %: {:.3}   at 0: {:.4}",
            b.name,
            b.irregularity * 100.0,
            b.ratio_spread,
            b.ratio_spread_at_0
        );
    }
    out
}
