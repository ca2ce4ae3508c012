//! The live plots of the last contact, drawn with egui's painter (no plotting crate):
//! simulated points over the analytic curves of eqs (20) and (3), and the per-bounce
//! residual-energy drift. Under gravity during contact (seed 001) neither eq (20) nor
//! eq (3) holds: the Hamiltonian plot shows the load-aware energy balance instead, the
//! phase portrait the simulated points alone, and the drift plot the model's
//! load-aware energy drift per contact.

use crate::engine::ContactTrace;
use crate::model::Analytic;
use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, Ui, Vec2, pos2};

const SIM: Color32 = Color32::from_rgb(255, 170, 60);
const ANALYTIC: Color32 = Color32::from_rgb(90, 180, 255);
const BALANCE: Color32 = Color32::from_rgb(120, 220, 120);
const AXIS: Color32 = Color32::from_gray(90);
const ANALYTIC_POINTS: usize = 160;

/// Maps data coordinates into a plot rectangle.
struct Frame {
    rect: Rect,
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

impl Frame {
    fn map(&self, x: f64, y: f64) -> Pos2 {
        let fx = ((x - self.x0) / (self.x1 - self.x0)) as f32;
        let fy = ((y - self.y0) / (self.y1 - self.y0)) as f32;
        pos2(
            self.rect.left() + fx.clamp(-0.05, 1.05) * self.rect.width(),
            self.rect.bottom() - fy.clamp(-0.05, 1.05) * self.rect.height(),
        )
    }
}

fn plot_area(ui: &mut Ui, title: &str, size: Vec2) -> (egui::Painter, Rect) {
    ui.label(title);
    let (resp, painter) = ui.allocate_painter(size, Sense::hover());
    let rect = resp.rect.shrink(4.0);
    painter.rect_filled(resp.rect, 2.0, Color32::from_gray(22));
    painter.line_segment(
        [rect.left_bottom(), rect.right_bottom()],
        Stroke::new(1.0, AXIS),
    );
    painter.line_segment(
        [rect.left_bottom(), rect.left_top()],
        Stroke::new(1.0, AXIS),
    );
    (painter, rect)
}

fn curve(painter: &egui::Painter, pts: Vec<Pos2>, color: Color32) {
    if pts.len() >= 2 {
        painter.add(Shape::line(pts, Stroke::new(1.5, color)));
    }
}

fn dots(painter: &egui::Painter, pts: impl Iterator<Item = Pos2>, color: Color32) {
    for p in pts {
        painter.circle_filled(p, 1.6, color);
    }
}

/// Analytic `(v, value)` samples over `[v_out, v_in]`.
fn analytic_curve(an: &Analytic, f: impl Fn(&Analytic, f64) -> f64) -> Vec<(f64, f64)> {
    let (a, b) = (an.v_out(), an.v_in);
    (0..=ANALYTIC_POINTS)
        .map(|i| {
            let v = a + (b - a) * i as f64 / ANALYTIC_POINTS as f64;
            (v, f(an, v))
        })
        .collect()
}

/// `H/H₀` against `v/v_in`: the simulation over eq (20); under load the load-aware
/// `H` and `H + D` (D: the energy dissipated so far) over the balance `H + D = H₀`.
pub fn hamiltonian(ui: &mut Ui, t: &ContactTrace, size: Vec2) {
    let title = if t.load {
        "Load-aware H = ½mv² + kx^(α+1)/(α+1) − mgx over H₀ (orange), H + D (green, D: \
         dissipated) against v/v_in; line: H + D = H₀"
    } else {
        "Hamiltonian H/H₀ against v/v_in (dots: simulated, line: eq 20)"
    };
    let (painter, rect) = plot_area(ui, title, size);
    if t.len == 0 || t.v_in <= 0.0 {
        return;
    }
    let fr = Frame {
        rect,
        x0: -1.0,
        x1: 1.0,
        y0: 0.0,
        y1: 1.05,
    };
    if t.load {
        curve(
            &painter,
            vec![fr.map(-1.0, 1.0), fr.map(1.0, 1.0)],
            ANALYTIC,
        );
        dots(
            &painter,
            (0..t.len).map(|i| fr.map(t.v[i] as f64 / t.v_in, t.h[i] as f64)),
            SIM,
        );
        dots(
            &painter,
            (0..t.len).map(|i| fr.map(t.v[i] as f64 / t.v_in, (t.h[i] + t.d[i]) as f64)),
            BALANCE,
        );
    } else {
        let an = Analytic::new(t.contact, t.v_in);
        let h0 = an.h_0();
        let line = analytic_curve(&an, |a, v| a.hamiltonian_of_v(v) / h0);
        curve(
            &painter,
            line.iter().map(|(v, h)| fr.map(v / t.v_in, *h)).collect(),
            ANALYTIC,
        );
        dots(
            &painter,
            (0..t.len).map(|i| fr.map(t.v[i] as f64 / t.v_in, t.h[i] as f64)),
            SIM,
        );
    }
    if t.runaway {
        painter.text(
            rect.right_top() + egui::vec2(-6.0, 4.0),
            egui::Align2::RIGHT_TOP,
            "runaway: ended by the guard",
            egui::FontId::proportional(13.0),
            Color32::from_rgb(255, 90, 90),
        );
    }
}

/// Phase portrait `x/x_max` against `v/v_in` over the analytic `x(v)` of eq (3); under
/// load (no closed form) the simulated points over their own largest `x`, with the
/// rest position `x̄` dashed.
pub fn phase(ui: &mut Ui, t: &ContactTrace, size: Vec2) {
    let title = if t.load {
        "Phase portrait x/x_max against v/v_in (under load: simulated only; dashed: x_rest)"
    } else {
        "Phase portrait x/x_max against v/v_in (line: eq 3)"
    };
    let (painter, rect) = plot_area(ui, title, size);
    if t.len == 0 || t.v_in <= 0.0 {
        return;
    }
    let fr = Frame {
        rect,
        x0: -1.0,
        x1: 1.0,
        y0: 0.0,
        y1: 1.1,
    };
    let xm = if t.load {
        let m = t.x[..t.len].iter().fold(0.0f64, |m, x| m.max(*x as f64));
        let c = t.contact;
        let x_rest = crate::model::load::x_rest(c.k, c.alpha, c.mass, t.load_g);
        let xm = m.max(x_rest).max(f64::MIN_POSITIVE);
        let y = x_rest / xm;
        let mut v = -1.0;
        while v < 1.0 {
            painter.line_segment(
                [fr.map(v, y), fr.map((v + 0.04).min(1.0), y)],
                Stroke::new(1.0, ANALYTIC),
            );
            v += 0.08;
        }
        xm
    } else {
        let an = Analytic::new(t.contact, t.v_in);
        let xm = an.x_max().max(f64::MIN_POSITIVE);
        let line = analytic_curve(&an, |a, v| a.x_of_v(v) / xm);
        curve(
            &painter,
            line.iter().map(|(v, x)| fr.map(v / t.v_in, *x)).collect(),
            ANALYTIC,
        );
        xm
    };
    dots(
        &painter,
        (0..t.len).map(|i| fr.map(t.v[i] as f64 / t.v_in, t.x[i] as f64 / xm)),
        SIM,
    );
}

/// Residual energy after each bounce against the exact chain, %; under load the
/// model's load-aware energy drift of each contact, %.
pub fn drift(ui: &mut Ui, t: &ContactTrace, size: Vec2) {
    let title = if t.drift_load {
        "Load-aware energy drift per bounce: max |H + D − H₀| / ΔH of the exact contact, %"
    } else {
        "Residual-energy drift per bounce, % (0 = exact chain)"
    };
    let (painter, rect) = plot_area(ui, title, size);
    let n = t.bounces;
    if n == 0 {
        return;
    }
    let m = t.drift_pct[..n]
        .iter()
        .fold(1e-9f64, |m, d| m.max((*d as f64).abs()))
        .max(1e-6);
    let fr = Frame {
        rect,
        x0: 0.0,
        x1: n.max(8) as f64,
        // The load-aware drift is a magnitude: no negative half.
        y0: if t.drift_load { 0.0 } else { -m * 1.1 },
        y1: m * 1.1,
    };
    painter.line_segment(
        [fr.map(0.0, 0.0), fr.map(fr.x1, 0.0)],
        Stroke::new(1.0, AXIS),
    );
    for (i, d) in t.drift_pct[..n].iter().enumerate() {
        let x = i as f64 + 0.5;
        painter.line_segment(
            [fr.map(x, 0.0), fr.map(x, *d as f64)],
            Stroke::new(3.0, SIM),
        );
    }
    painter.text(
        rect.left_top() + Vec2::new(4.0, 2.0),
        egui::Align2::LEFT_TOP,
        format!("±{m:.3e} %"),
        egui::FontId::proportional(11.0),
        Color32::from_gray(160),
    );
}
