//! What the subcommands share: help texts in one form, enum parsers, usage errors,
//! number formatting and the contact set-up.

use clap::error::ErrorKind;
use rebound::model::{Contact, Scheme};
use std::sync::OnceLock;

/// The help of one option: what it is, then its unit, range and default, in the one
/// bracketed form every option's help ends with.
pub fn spec(desc: &str, unit: &str, range: &str, default: &str) -> String {
    format!("{desc} [unit: {unit}; range: {range}; default: {default}]")
}

/// The help of a flag (an option without a value).
pub fn flag(desc: &str) -> String {
    format!("{desc} [unit: none; range: flag, takes no value; default: off]")
}

/// The names of an enum's values, `a|b|c`.
pub fn names<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> String {
    all.iter().map(|v| name(*v)).collect::<Vec<_>>().join("|")
}

/// A clap value parser for an enum read by its `FromStr` (names, any case), with the
/// accepted names shown in clap's message.
pub fn enum_parser<T>(
    all: &'static [T],
    name: fn(T) -> &'static str,
) -> impl clap::builder::TypedValueParser<Value = T>
where
    T: Copy + Send + Sync + 'static + std::str::FromStr,
{
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(all.iter().map(|v| name(*v))).map(|s| {
        match s.parse::<T>() {
            Ok(v) => v,
            Err(_) => unreachable!("a possible value parses"),
        }
    })
}

/// The whole command line's definition, set by `main` (so that this module, which the
/// subcommands use, need not import it).
pub static COMMAND: OnceLock<fn() -> clap::Command> = OnceLock::new();

/// Ends the run with a usage error of subcommand `sub` in clap's form (exit 2): for
/// the checks across options that clap's own rules cannot state.
pub fn usage_error(sub: &str, kind: ErrorKind, msg: String) -> ! {
    let Some(command) = COMMAND.get() else {
        clap::Error::raw(kind, format!("{msg}\n")).exit()
    };
    let mut cmd = command();
    cmd.build();
    cmd.find_subcommand_mut(sub)
        .expect("a subcommand of rebound")
        .error(kind, msg)
        .exit()
}

/// Four significant digits, in the notation that reads best for the magnitude.
pub fn fmt_sig(v: f64) -> String {
    let a = v.abs();
    if a != 0.0 && !(1e-3..1e4).contains(&a) {
        format!("{v:+.3e}")
    } else {
        format!("{v:+.4}")
    }
}

/// The physical and numerical setup shared by `simulate` and `sequence`.
pub struct Setup {
    /// With a restitution, `contact.mu` is the damping at `v_in` it gives.
    pub contact: Contact,
    pub scheme: Scheme,
    pub v_in: f64,
    pub fs: f64,
    /// Damping from a coefficient of restitution (seed 000) instead of `--mu`.
    pub restitution: Option<f64>,
}

/// A render's level as a sound designer reads it: sample peak, true peak, the largest
/// momentary loudness (BS.1770, 400 ms) and the integrated loudness, and how many
/// samples went over full scale (nothing in the engine clips them).
pub fn level_summary(fs: f64, left: &[f32], right: &[f32]) -> String {
    let Some(l) = rebound::loudness::measure(fs.round() as u32, left, right) else {
        let peak = left.iter().chain(right).fold(0f32, |a, s| a.max(s.abs()));
        return format!("peak {:.2} dBFS", 20.0 * (peak.max(1e-12) as f64).log10());
    };
    format!(
        "peak {:.2} dBFS, true peak {:.2} dBTP, momentary max {:.1} LUFS, integrated {:.1} LUFS, {} samples over 0 dBFS",
        l.sample_peak_db.max(-240.0),
        l.true_peak_db.max(-240.0),
        l.momentary_max.max(-240.0),
        l.integrated.max(-240.0),
        l.over_full_scale
    )
}

/// `f` over `items`, spread over the cores, in order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let out = std::sync::Mutex::new((0..items.len()).map(|_| None).collect::<Vec<_>>());
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers.min(items.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}
