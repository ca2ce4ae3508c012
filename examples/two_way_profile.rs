//! Drives one voice's contact samples, two-way or rigid wall, for an instruction-count
//! profile (`valgrind --tool=callgrind`): `cargo run --release --example
//! two_way_profile -- two-way|rigid [samples]`. Prints the coupled step rule's steps a
//! sample for the default patch.

use rebound::engine::level::Levels;
use rebound::engine::{Coupling, EngineParams};
use rebound::model::body::strike_modes;
use rebound::model::coupled::{Coupled, StrikeModes};
use rebound::voice::{Voice, body_settings, latch_of, velocity_to_speed};
use std::hint::black_box;

const FS: f64 = 48000.0;

fn modes_list(p: &EngineParams) -> Vec<(f64, f64, f64)> {
    let (modes, n) = strike_modes(&body_settings(p, 60), p.body_mass);
    modes[..n]
        .iter()
        .map(|m| (m.f_hz, m.t60_s, m.mass_kg))
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let coupling = match args.next().as_deref() {
        Some("rigid") => Coupling::Rigid,
        _ => Coupling::TwoWay,
    };
    let samples: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let p = EngineParams {
        coupling,
        ..Default::default()
    };
    let v_in = velocity_to_speed(&p, 1.0);
    let (modes, n) = strike_modes(&body_settings(&p, 60), p.body_mass);
    let modes = StrikeModes::from_modes(modes[..n].iter().map(|m| (m.f_hz, m.t60_s, m.mass_kg)));
    let sys = Coupled {
        contact: latch_of(&p).contact_at(v_in),
        modes,
    };
    for m in &modes_list(&p) {
        eprintln!("mode {:.0} Hz, t60 {:.3} s, {:.4} kg", m.0, m.1, m.2);
    }
    eprintln!(
        "{} modes, {:?} steps a sample",
        modes.n,
        sys.substeps(v_in, 1.0 / FS)
    );
    let contact_only = Coupled {
        modes: StrikeModes::RIGID,
        ..sys
    };
    eprintln!(
        "without the modes (the mass–wall and contact rules): {:?}",
        contact_only.substeps(v_in, 1.0 / FS)
    );
    let mut levels = Levels::on_demand(FS);
    levels.set(&p, FS);
    let mut v = Voice::new(FS);
    v.strike_with(&p, 60, 1.0, 0, 0.7, &mut levels);
    let (mut contact, mut strikes) = (0u64, 1u64);
    for _ in 0..samples {
        if !v.in_contact() {
            v.strike_with(&p, 60, 1.0, 0, 0.7, &mut levels);
            strikes += 1;
        }
        contact += v.in_contact() as u64;
        black_box(v.tick_with(&p, 0.7, Some(&mut levels)));
    }
    eprintln!("{samples} samples, {contact} in contact, {strikes} strikes");
}
