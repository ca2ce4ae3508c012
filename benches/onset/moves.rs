//! The onset bench's `--moves`: what solving the exits a slice a sample does to the
//! bounce times.

use super::*;

/// Bounce times over the patches' trains (gravity in contact, 48 kHz, the first
/// [`MOVES_SECONDS`]): with each exit solved a slice a sample, against the same train
/// with each exit solved at its onset. Counts the onsets, the contacts that ended
/// before their exit was known, the onsets that moved and how far. `wait`: the steps
/// of a sample that starts in a flight waiting for its exit.
pub(super) fn moves(patches: &[Patch], wait: u32) {
    let (mut onsets, mut early, mut moved, mut patches_moved) = (0usize, 0usize, 0usize, 0usize);
    let mut patches_changed = 0usize;
    let mut shifts: Vec<f64> = Vec::new();
    for p in patches {
        let latch = Latch {
            contact: Contact::new(p.k, p.mu, p.alpha, p.mass),
            scheme: Scheme::new(Method::Verlet, Correction::Both, ClampTarget::Exact),
            restitution: None,
        };
        let train = Train {
            gravity: Some(p.g),
            in_contact: true,
        };
        let run = |slice: u32| {
            let mut b = Bouncer::new(latch, p.v_in, FS, train).with_exit_slices(slice, wait);
            let (mut times, mut early, mut dv) = (Vec::new(), 0, Vec::new());
            for n in 0..(MOVES_SECONDS * FS) as u64 {
                if b.is_done() {
                    break;
                }
                let o = b.step(|| latch);
                dv.push(o.dv);
                if o.onset {
                    times.push(n as f64 + b.impact().start_fraction());
                }
                early += usize::from(o.detached && b.exit_pending());
            }
            (times, early, dv)
        };
        let (exact, _, dv_exact) = run(u32::MAX);
        let (sliced, e, dv_sliced) = run(EXIT_SLICE);
        // Any sample of the wall's force that differs (a bounce moved, or a mass put
        // to rest from a flight where the one-shot train held it at the wall).
        patches_changed += usize::from(dv_exact != dv_sliced);
        onsets += exact.len();
        early += e;
        let before = moved;
        for (i, t) in exact.iter().enumerate() {
            // An onset the sliced train never reached (within the time) moved too.
            let d = sliced.get(i).map_or(f64::INFINITY, |s| s - t);
            if d != 0.0 {
                moved += 1;
                shifts.push(d.abs());
            }
        }
        moved += sliced.len().saturating_sub(exact.len());
        patches_moved += usize::from(moved > before);
    }
    shifts.sort_by(f64::total_cmp);
    let q = |f: f64| {
        shifts
            .get((f * shifts.len() as f64) as usize)
            .copied()
            .unwrap_or(0.0)
    };
    println!(
        "waiting slice {wait}: {onsets} onsets over {} patches ({MOVES_SECONDS} s each at {FS} Hz); {early} contacts \
         ended before their exit; {moved} onsets moved, in {patches_moved} patches; the wall's \
         force changed in {patches_changed} patches; shift in samples: median {:.2}, 90th \
         percentile {:.2}, 99th {:.2}, largest {:.2} (inf: an onset the sliced train did not \
         reach in the time)",
        patches.len(),
        q(0.5),
        q(0.9),
        q(0.99),
        shifts.last().copied().unwrap_or(0.0)
    );
}

/// Seconds of each train [`moves`] compares.
const MOVES_SECONDS: f64 = 4.0;
