//! The physics of Rebound, free of any plugin framework: plain `f64`, no allocation in
//! any per-sample function. Module by module it follows Papetti, Avanzini & Rocchesso,
//! "Numerical Methods for a Nonlinear Impact Model" (IEEE TASLP 2011).

pub mod alpha_pow;
#[cfg(target_arch = "x86_64")]
mod avx;
pub mod body;
pub mod bounce;
pub mod contact;
pub mod coupled;
pub mod crumple;
pub mod dispatch;
pub mod hardness;
pub mod hybrid;
pub mod impact;
pub mod irregular;
pub mod load;
mod memo;
pub mod metrics;
pub mod newton;
pub mod paper;
pub mod prop1;
pub mod restitution;
pub mod roll;
pub mod scheme;
pub mod sequence;
pub mod series;
pub mod surface;
pub mod tau;
pub mod vout;

pub use bounce::{BounceSample, Bouncer, Latch, Phase, Train};
pub use contact::{Analytic, Contact};
pub use impact::Impact;
pub use irregular::Irregularity;
pub use metrics::{ImpactReport, simulate_impact};
pub use scheme::{ClampTarget, Correction, Method, Scheme, Stepping};
