//! Playing a MIDI file's notes and messages through a fresh engine, each at its sample.

use super::song::{Control, Expr, Note};
use rebound::engine::{Engine, EngineParams, Rendered};

/// Longest tail rendered after the last note event while waiting for the voices to end, s.
pub const TAIL_CAP: f64 = 600.0;

/// What happens at one sample of a MIDI render, in the order of its variants.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// The off of a note that began earlier.
    OffEarlier(usize),
    Control(usize),
    On(usize),
    /// The off of a note that began at this sample.
    OffNow(usize),
}

/// The steps in the order they act, and the messages left for the tail.
type Schedule<'a> = (Vec<(usize, Step)>, Vec<(usize, &'a Control)>);

/// The notes' and messages' steps in the order they act, and the messages left for the
/// tail: without a length (`samples` `None`) the render runs to the last note event,
/// then on while voices sound, and messages after that event act in that tail.
fn schedule<'a>(notes: &[Note], controls: &'a [Control], samples: Option<usize>) -> Schedule<'a> {
    let mut events: Vec<(usize, Step)> = Vec::with_capacity(2 * notes.len() + controls.len());
    for (i, n) in notes.iter().enumerate() {
        events.push((n.at, Step::On(i)));
        if let Some(off) = n.off {
            let step = if off > n.at {
                Step::OffEarlier(i)
            } else {
                Step::OffNow(i)
            };
            events.push((off, step));
        }
    }
    let last_note = events.iter().map(|e| e.0).max().unwrap_or(0);
    let (now, late): (Vec<_>, Vec<_>) = controls
        .iter()
        .enumerate()
        .partition(|(_, c)| samples.is_some() || c.at <= last_note);
    events.extend(now.iter().map(|&(i, c)| (c.at, Step::Control(i))));
    // Stable within a kind: file order.
    events.sort_by_key(|&(at, step)| {
        let kind = match step {
            Step::OffEarlier(_) => 0,
            Step::Control(_) => 1,
            Step::On(_) => 2,
            Step::OffNow(_) => 3,
        };
        (at, kind)
    });
    (events, late)
}

/// The output so far, rendered in blocks of a tenth of a second (the output does not
/// depend on the blocks), telling `progress` after each.
struct Output<'p> {
    left: Vec<f32>,
    right: Vec<f32>,
    force: Vec<f32>,
    with_force: bool,
    block: usize,
    end: usize,
    progress: &'p dyn Fn(usize, usize),
}

impl Output<'_> {
    /// Renders on to `to` samples.
    fn run(&mut self, engine: &mut Engine, to: usize) {
        self.advance(engine, to, false);
    }

    /// Renders on towards `to` samples while a voice sounds: stops after the sample at
    /// which the last voice ended (`Engine::render_while_sounding`). Returns false when
    /// it stopped there, or when no voice sounded.
    fn run_while_sounding(&mut self, engine: &mut Engine, to: usize) -> bool {
        self.advance(engine, to, true)
    }

    /// [`run`](Self::run), or (`while_sounding`) [`run_while_sounding`](Self::run_while_sounding).
    fn advance(&mut self, engine: &mut Engine, to: usize, while_sounding: bool) -> bool {
        while self.left.len() < to {
            let pos = self.left.len();
            let next = to.min(pos + self.block);
            self.left.resize(next, 0.0);
            self.right.resize(next, 0.0);
            let (l, r) = (&mut self.left[pos..], &mut self.right[pos..]);
            let force = if self.with_force {
                self.force.resize(next, 0.0);
                Some(&mut self.force[pos..])
            } else {
                None
            };
            let end = if while_sounding {
                pos + engine.render_while_sounding(l, r, force)
            } else {
                engine.render_with_force(l, r, force);
                next
            };
            self.left.truncate(end);
            self.right.truncate(end);
            if self.with_force {
                self.force.truncate(end);
            }
            if end / self.block != pos / self.block {
                (self.progress)(end, self.end.max(end));
            }
            if end < next {
                return false;
            }
        }
        true
    }
}

/// Renders `notes` and `controls` through a fresh engine: `samples` long, or (`None`)
/// until every voice has ended after the last event, at most [`TAIL_CAP`] s more.
/// `progress` hears the samples rendered so far, every tenth of a second of output,
/// and the length the render will have (the last event's sample, until the tail
/// runs past it).
pub fn render_notes(
    params: &EngineParams,
    fs: f64,
    notes: &[Note],
    controls: &[Control],
    samples: Option<usize>,
    with_force: bool,
    progress: &dyn Fn(usize, usize),
) -> Rendered {
    let mut engine = Engine::new(fs);
    engine.set_params(params);
    engine.set_sample_rate(fs);
    // The level of every key played is calibrated before the first note.
    engine.prepare_levels(notes.iter().map(|n| n.key));
    let (events, late) = schedule(notes, controls, samples);
    let mut late = late.into_iter().peekable();
    let end = samples.unwrap_or(events.last().map_or(0, |e| e.0));
    let mut out = Output {
        left: Vec::with_capacity(end + 1),
        right: Vec::with_capacity(end + 1),
        force: Vec::new(),
        with_force,
        block: ((fs / 10.0) as usize).max(1),
        end,
        progress,
    };
    for &(at, step) in &events {
        if at >= end && samples.is_some() {
            break;
        }
        out.run(&mut engine, at);
        match step {
            Step::On(i) => {
                let n = &notes[i];
                engine.note_on(n.key, n.velocity, n.channel, None);
            }
            Step::OffEarlier(i) | Step::OffNow(i) => {
                let n = &notes[i];
                engine.note_off(Some(n.key), Some(n.channel), None);
            }
            Step::Control(i) => apply(&mut engine, &controls[i]),
        }
    }
    match samples {
        Some(s) => out.run(&mut engine, s),
        None => {
            // On until the last voice has ended: the output stops at that sample (at
            // least one sample long), each late message acting at its sample.
            let cap = end + (TAIL_CAP * fs).round() as usize;
            while out.left.len() < cap && (engine.active_voices() > 0 || out.left.is_empty()) {
                while let Some((_, c)) = late.next_if(|(_, c)| c.at <= out.left.len()) {
                    apply(&mut engine, c);
                }
                let to = late.peek().map_or(cap, |(_, c)| c.at.min(cap));
                if engine.active_voices() == 0 {
                    let to = out.left.len() + 1;
                    out.run(&mut engine, to);
                } else if !out.run_while_sounding(&mut engine, to) {
                    break;
                }
            }
        }
    }
    Rendered::from_engine(&engine, fs, out.left, out.right, out.force)
}

/// Hands one expression message to the engine, as the plugin does a host's.
fn apply(engine: &mut Engine, c: &Control) {
    match c.expr {
        Expr::Pressure(v) => engine.channel_pressure(c.channel, v),
        Expr::KeyPressure { key, value } => {
            engine.poly_pressure(None, Some(key), Some(c.channel), value)
        }
        Expr::Bend(v) => engine.pitch_bend(c.channel, v),
        Expr::Cc { cc, value } => engine.control_change(c.channel, cc, value),
    }
}
