//! What every patch in range costs: the 1000 random patches of the note-on benches
//! (every parameter uniform in the host's normalised value, every choice uniform: the
//! extremes, Two-way and every method among them), each playing five notes over 3 s at
//! 48 kHz (one every 0.6 s, keys and velocities from the same stream) in 512-sample
//! blocks, note-ons inside the clock, after its levels are made (its keys before the
//! first note, as an offline render makes them, and its notes' corrections by a first
//! untimed play: in real time a worker makes them off the audio thread). Prints the distribution of each patch's render
//! time against the default patch's playing the same notes (median, p99, worst) and
//! the dearest patches with what sets their cost; any non-finite sample is reported, and
//! how many trains were ended on their work budgets (the bound's price in sound).
//!
//! `cargo bench --bench patch_cost` (`-- QUICK` plays the first 100 patches).

#[path = "common/random_patches.rs"]
mod random_patches;

use random_patches::random_notes;
use rebound::engine::{Engine, EngineParams};
use std::time::Instant;

const FS: f64 = 48_000.0;
const BLOCK: usize = 512;
const SECONDS: f64 = 3.0;
const NOTES: usize = 5;
/// A patch over this ratio is timed twice more and keeps the least of its three times,
/// as the default patch does (a preemption must not make a patch look dear, nor the
/// default look cheap against it).
const RETIME_OVER: f64 = 2.0;
/// The bound every patch must keep: its render within this many times the default's.
const BOUND: f64 = 8.0;

/// Renders `notes` (key, velocity) one every `SECONDS / NOTES` on `p`, `times` over
/// (from a reset, in one engine, so that the level entries are made once): the least
/// of the plays' seconds, whether every sample was finite, and how many of the first
/// play's trains were cut on their work budgets (rigid and two-way:
/// `Engine::train_cuts`, `Engine::two_way_cuts`).
fn play_counting(p: &EngineParams, notes: &[(u8, f32)], times: usize) -> (f64, bool, usize) {
    let mut e = Engine::new(FS);
    e.set_params(p);
    e.set_sample_rate(FS);
    e.prepare_levels(notes.iter().map(|n| n.0));
    // A moved note's level corrections are made on demand in its note-on offline (in
    // real time a worker makes them on its own thread): a first, untimed play makes
    // them, so the clock holds what the audio thread pays.
    render(&mut e, notes, false);
    e.reset();
    let cuts_before = e.train_cuts();
    let t = Instant::now();
    let mut finite = render(&mut e, notes, true);
    let mut took = t.elapsed().as_secs_f64();
    let cuts = e.train_cuts() - cuts_before + e.two_way_cuts();
    for _ in 1..times {
        e.reset();
        let t = Instant::now();
        finite &= render(&mut e, notes, true);
        took = took.min(t.elapsed().as_secs_f64());
    }
    (took, finite, cuts)
}

/// Plays the notes on `e`; whether every sample was finite (checked when `check`).
fn render(e: &mut Engine, notes: &[(u8, f32)], check: bool) -> bool {
    let total = (SECONDS * FS) as usize;
    let every = total / NOTES;
    let (mut l, mut r) = (vec![0f32; BLOCK], vec![0f32; BLOCK]);
    let mut finite = true;
    let mut at = 0;
    while at < total {
        let n = BLOCK.min(total - at);
        // Each note at its own sample: the block is split there.
        let mut done = 0;
        while done < n {
            let now = at + done;
            if now % every == 0 && now / every < notes.len() {
                let (key, vel) = notes[now / every];
                e.note_on(key, vel.max(0.05), 0, None);
            }
            let next = (now / every + 1) * every;
            let m = (n - done).min(next - now);
            e.render(&mut l[done..done + m], &mut r[done..done + m]);
            done += m;
        }
        finite &= !check || l[..n].iter().chain(&r[..n]).all(|x| x.is_finite());
        at += n;
    }
    finite
}

fn describe(p: &EngineParams) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?}, mass {:.3e} kg, body mass {:.3e} kg, k {:.2e}, \
         hardness {:.3} ms, bouncing {} g-in-contact {}, body {:.0} Hz",
        p.gesture,
        p.coupling,
        p.controls,
        p.method,
        p.correction,
        p.body,
        p.mass,
        p.body_mass,
        p.k,
        p.hardness_ms,
        p.bouncing,
        p.gravity_in_contact,
        p.body_freq,
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "QUICK");
    let mut cases = random_notes();
    // `-- PATCH n [TIMES k]`: plays patch n alone (to profile it), its timed play k
    // times over so that a profile holds the play more than the level preparation.
    if let Some(n) = args.windows(2).find(|w| w[0] == "PATCH").map(|w| &w[1]) {
        let i: usize = n.parse().expect("PATCH takes a patch number");
        let times: usize = args
            .windows(2)
            .find(|w| w[0] == "TIMES")
            .map_or(1, |w| w[1].parse().expect("TIMES takes a count"));
        let (p, notes) = &cases[i];
        let (t, finite, cuts) = play_counting(p, &notes[..NOTES], times);
        let (base, _, _) = play_counting(&EngineParams::default(), &notes[..NOTES], times);
        println!(
            "patch {i}: {:.2}x ({:.1} ms against {:.1} ms), finite {finite}, trains cut on \
             their budget {cuts}: {}",
            t / base,
            t * 1e3,
            base * 1e3,
            describe(p)
        );
        println!("{p:?}");
        return;
    }
    if quick {
        cases.truncate(100);
    }
    let mut rows = Vec::with_capacity(cases.len());
    let mut not_finite = 0;
    let (mut cut_patches, mut cut_trains) = (0, 0);
    let start = Instant::now();
    for (i, (p, notes)) in cases.iter().enumerate() {
        let notes = &notes[..NOTES];
        let (base, _, _) = play_counting(&EngineParams::default(), notes, 3);
        let (mut t, mut finite, cuts) = play_counting(p, notes, 1);
        if cuts > 0 {
            cut_patches += 1;
            cut_trains += cuts;
        }
        if t > RETIME_OVER * base {
            let (u, g, _) = play_counting(p, notes, 2);
            t = t.min(u);
            finite &= g;
        }
        if !finite {
            not_finite += 1;
            println!("patch {i}: a sample was not finite: {}", describe(p));
        }
        rows.push((t / base, t, i));
        if i % 100 == 99 {
            eprintln!("{} patches, {:.0} s", i + 1, start.elapsed().as_secs_f64());
        }
    }
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    let at = |q: f64| rows[((rows.len() - 1) as f64 * q).round() as usize].0;
    println!(
        "{} patches, 5 notes over 3 s at 48 kHz each, in {:.0} s",
        rows.len(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "render time / the default patch's: median {:.2}, p90 {:.2}, p99 {:.2}, worst {:.2}",
        at(0.5),
        at(0.9),
        at(0.99),
        rows.last().map_or(0.0, |r| r.0)
    );
    println!("non-finite renders: {not_finite}");
    println!(
        "trains ended on their work budget: {cut_trains} in {cut_patches} patches (of {} notes)",
        rows.len() * NOTES
    );
    let over = rows.iter().filter(|r| r.0 > BOUND).count();
    println!("over {BOUND}x: {over}; the dearest (at least ten, every one over {BOUND}x):");
    for &(ratio, t, i) in rows.iter().rev().take(over.max(10)) {
        println!(
            "  patch {i}: {ratio:.2}x ({:.1} ms) {}",
            t * 1e3,
            describe(&cases[i].0)
        );
    }
}
