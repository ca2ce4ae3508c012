//! Hover texts for the parameter widgets: the plain help of the spec, then what the
//! paper calls the quantity and where it appears.

use crate::engine::spec;

/// The paper's name and equation for a parameter id, where it has one.
pub fn paper_note(id: &str) -> Option<&'static str> {
    Some(match id {
        "vmin" | "vmax" => "Paper: the impact velocity v_in (eq 1 initial condition)",
        "mass" => "Paper: the striking mass m of m ẍ = −f(x, ẋ) (eq 1)",
        "hard" => "Paper: the contact time τ of eq (9), inverted to the stiffness k",
        "k" => "Paper: stiffness k of f = k x^α (1 + μ v) (eq 1), N/m^α",
        "alpha" => "Paper: the exponent α of f = k x^α (1 + μ v) (eq 1); 1.5 = Hertz sphere",
        "mu" => "Paper: the Hunt–Crossley damping μ = λ/k of eq (1), s/m",
        "rest" => {
            "Paper: the restitution e = −v_out/v_in; μ from eq (7)/(19) (seed 000), so \
             each strike leaves at −e·v_in"
        }
        "dmode" => "Paper: μ given, or solved from a restitution e (seed 000, eq 19)",
        "controls" => {
            "Playable: Hardness (τ of eq 9) and Bounciness (e); Expert: the paper's k and μ"
        }
        "method" => "Paper: the integrator of the contact ODE (section 3)",
        "corr" => {
            "Paper: Shape = the energy projection onto H of eq (20); Exit speed = the \
             v_out clamp of eq (7); Both = both"
        }
        "clamp" => "Paper: the exit speed target, eq (7) approximation or the exact root of eq (6)",
        "bounce" => "Seed 001: the strike becomes a bouncing train under gravity g",
        "gcont" => "Seed 001: gravity mg also acts during contact (load-aware energy H + D)",
        "grav" => "Seed 001: gravity g of the bouncing train, m/s²",
        "t60" => "The real T60 of the body's fundamental, for every body",
        "coupling" => {
            "Rigid wall: the paper's mass–wall contact, its force driving the body one way. \
             Two-way: the body's surface moves under the striker (modes of mass M/φ² at the \
             strike point), the contact acting on the compression between them"
        }
        "bmass" => "Two-way: the body's mass M; each mode weighs M/φ_k² at the strike point",
        "pos" => "The strike point on the body: sets each mode's gain (modal synthesis)",
        "gesture" => {
            "Strike: one strike and its bounces. Crumple: while the key is held, a seeded \
             train of strikes (Fontana & Bresin's crumpling, energies on Sethna's power law). \
             Roll / Scrape: a ball rolled, or a probe dragged, over a fractal surface; the \
             contact of eq (1) under a load (seed 001), the body hearing the force over it"
        }
        _ => return None,
    })
}

/// The tooltip of a parameter: the spec's plain help, then the paper note.
pub fn tooltip(id: &str) -> String {
    let help = spec::number(id).map(|n| format!("{} ({})", n.help, spec::range_text(n)));
    match (help, paper_note(id)) {
        (Some(h), Some(p)) => format!("{h}\n{p}"),
        (Some(h), None) => h,
        (None, Some(p)) => p.to_string(),
        (None, None) => String::new(),
    }
}
