//! The core paper's Tables I–III, recomputed, with the printed values beside ours.
//!
//! Conventions (paper-notes): `m = 0.01 kg`, `Fs = 44.1 kHz`, aligned starts; Table
//! II(b) measures `%err(v_out)` and `ΔH_τ` against `ṽ_out`; Table III chains 100
//! aligned impacts and reproduces Heun's cells with the paper's predicted-velocity
//! hand-over.

use super::contact::Contact;
use super::metrics::simulate_impact;
use super::scheme::{ClampTarget, Correction, Method, Scheme};
use super::sequence::{Handover, run_sequence};

pub const MASS: f64 = 0.01;
pub const FS: f64 = 44_100.0;
/// Impacts in the sequences of Table III.
pub const SEQUENCE_IMPACTS: usize = 100;

/// The paper's columns in its own order.
pub const METHODS: [Method; 4] = [Method::Am1, Method::Verlet, Method::Heun, Method::Rk4];

/// Parameters of the paper's three cases: (k, μ, α, v_in).
pub const CASE_I: (f64, f64, f64, f64) = (1e3, 0.5, 1.5, 0.5);
pub const CASE_1: (f64, f64, f64, f64) = (1e7, 0.01, 1.3, 0.5);
pub const CASE_2: (f64, f64, f64, f64) = (1e9, 0.5, 1.5, 1.0);

/// Which table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableId {
    I,
    IIa,
    IIb,
    IIIa,
    IIIb,
}

impl TableId {
    pub const ALL: [TableId; 5] = [
        TableId::I,
        TableId::IIa,
        TableId::IIb,
        TableId::IIIa,
        TableId::IIIb,
    ];

    /// The name used on the command line (`1`, `2a`, `2b`, `3a`, `3b`).
    pub fn arg(self) -> &'static str {
        match self {
            TableId::I => "1",
            TableId::IIa => "2a",
            TableId::IIb => "2b",
            TableId::IIIa => "3a",
            TableId::IIIb => "3b",
        }
    }

    pub fn from_arg(s: &str) -> Option<TableId> {
        crate::model::scheme::by_name(&Self::ALL, Self::arg, s)
    }
}

/// One cell: what the paper printed and what we compute.
#[derive(Clone, Debug)]
pub struct Cell {
    pub row: &'static str,
    pub column: &'static str,
    /// The value as printed in the paper (text, e.g. `+2e-5`, `< 1e-7`).
    pub printed: &'static str,
    /// Our value, in the paper's sign convention for that cell.
    pub ours: f64,
}

impl Cell {
    /// The printed value as a number (`< 1e-7` reads as `1e-7`).
    pub fn paper(&self) -> f64 {
        self.printed
            .trim_start_matches('<')
            .trim()
            .parse()
            .unwrap_or(f64::NAN)
    }

    /// Relative difference of ours against the printed value, %.
    pub fn rel_diff_pct(&self) -> f64 {
        let p = self.paper();
        if p == 0.0 {
            f64::NAN
        } else {
            100.0 * (self.ours - p) / p.abs()
        }
    }
}

#[derive(Clone, Debug)]
pub struct Table {
    pub id: TableId,
    pub title: &'static str,
    pub columns: Vec<&'static str>,
    pub rows: Vec<&'static str>,
    pub cells: Vec<Cell>,
}

fn contact(case: (f64, f64, f64, f64)) -> (Contact, f64) {
    let (k, mu, alpha, v_in) = case;
    (Contact::new(k, mu, alpha, MASS), v_in)
}

/// The printed cells of Tables I and II, per method in [`METHODS`] order:
/// rows `%dev(x)`, `%err(v_out)`, `%dev(H)`; then the `ṽ_out` column's `%err`.
const PRINTED_I: [[&str; 4]; 3] = [
    ["0.255", "0.018", "0.319", "0.005"],
    ["+2e-5", "+2e-6", "-3e-5", "+2e-6"],
    ["3e-4", "0.052", "4e-4", "1e-5"],
];
const PRINTED_IIA: [[&str; 4]; 3] = [
    ["1.011", "1.083", "1.136", "0.052"],
    ["+0.039", "+0.073", "+0.067", "+0.006"],
    ["61.302", "59.542", "63.042", "1.427"],
];
const PRINTED_IIB: [[&str; 4]; 3] = [
    ["4.381", "4.418", "19.506", "0.412"],
    ["+2.551", "+0.839", "-4.692", "-0.105"],
    ["7.885", "9.475", "23.387", "0.410"],
];
/// Table III, columns AM1, Verlet, Heun, RK4, corrected; rows accumulated %err, max %dev.
const PRINTED_IIIA: [[&str; 5]; 2] = [
    ["12.022", "10.059", "147.036", "0.907", "< 1e-7"],
    ["72.962", "72.107", "63.043", "14.466", "0"],
];
const PRINTED_IIIB: [[&str; 5]; 2] = [
    ["24.285", "15.780", "946.600", "2.153", "0.001"],
    ["69.156", "43.966", "27.418", "6.255", "0"],
];

const SINGLE_ROWS: [&str; 3] = ["%dev(x)", "%err(v_out)", "%dev(H)"];
const SEQ_ROWS: [&str; 2] = ["accum. %err", "max %dev"];
const COLUMNS: [&str; 4] = ["AM1", "Verlet", "Heun", "RK4"];

/// Tables I and II: one aligned impact per method.
fn single_impact_table(
    id: TableId,
    title: &'static str,
    case: (f64, f64, f64, f64),
    reference: ClampTarget,
    printed: &[[&'static str; 4]; 3],
    approx_column: Option<&'static str>,
) -> Table {
    let (c, v_in) = contact(case);
    let mut cells = Vec::new();
    let reports: Vec<_> = METHODS
        .iter()
        .map(|&m| simulate_impact(c, Scheme::plain(m).per_sample(), v_in, FS, reference))
        .collect();
    for (r, row) in SINGLE_ROWS.iter().enumerate() {
        for (j, rep) in reports.iter().enumerate() {
            let ours = match r {
                0 => rep.dev_x_pct,
                1 => rep.err_vout_pct,
                _ => rep.dev_h_pct,
            };
            cells.push(Cell {
                row,
                column: COLUMNS[j],
                printed: printed[r][j],
                ours,
            });
        }
    }
    let mut columns = COLUMNS.to_vec();
    if let Some(p) = approx_column {
        // The last column: the numerical root of eq (6) against ṽ_out, %.
        let rep = &reports[0];
        columns.push("ṽ_out");
        cells.push(Cell {
            row: SINGLE_ROWS[1],
            column: "ṽ_out",
            printed: p,
            ours: 100.0 * (rep.v_out_exact - rep.v_out_approx) / rep.v_out_approx,
        });
    }
    Table {
        id,
        title,
        columns,
        rows: SINGLE_ROWS.to_vec(),
        cells,
    }
}

/// Table III: sequences of 100 impacts per method, plus a corrected simulation.
fn sequence_table(
    id: TableId,
    title: &'static str,
    case: (f64, f64, f64, f64),
    printed: &[[&'static str; 5]; 2],
) -> Table {
    let (c, v_in) = contact(case);
    let mut sums = Vec::new();
    for &m in &METHODS {
        sums.push(run_sequence(
            c,
            Scheme::plain(m).per_sample(),
            v_in,
            FS,
            SEQUENCE_IMPACTS,
            Handover::PaperHeunPredicted,
            |_, _| {},
        ));
    }
    // The corrected simulation: hybrid + output-velocity constraint at ṽ_out, the
    // 0.1 % threshold of the paper meaning it is always applied.
    let corrected = Scheme::new(Method::Verlet, Correction::Both, ClampTarget::Approx).per_sample();
    sums.push(run_sequence(
        c,
        corrected,
        v_in,
        FS,
        SEQUENCE_IMPACTS,
        Handover::Corrected,
        |_, _| {},
    ));
    let mut columns = COLUMNS.to_vec();
    columns.push("corrected");
    let mut cells = Vec::new();
    for (r, row) in SEQ_ROWS.iter().enumerate() {
        for (j, s) in sums.iter().enumerate() {
            let mut ours = if r == 0 {
                s.accum_err_pct
            } else {
                s.max_dev_h_pct
            };
            if r == 0 && (j == 3 || j == 4) {
                // The paper prints RK4's (and the corrected) accumulated error as a
                // magnitude; ours is −0.907 / −2.153 signed.
                ours = ours.abs();
            }
            cells.push(Cell {
                row,
                column: columns[j],
                printed: printed[r][j],
                ours,
            });
        }
    }
    Table {
        id,
        title,
        columns,
        rows: SEQ_ROWS.to_vec(),
        cells,
    }
}

/// Recomputes one table.
pub fn table(id: TableId) -> Table {
    match id {
        TableId::I => single_impact_table(
            id,
            "Table I: non-critical case (k=1e3, mu=0.5, alpha=1.5, v_in=0.5)",
            CASE_I,
            ClampTarget::Exact,
            &PRINTED_I,
            None,
        ),
        TableId::IIa => single_impact_table(
            id,
            "Table II(a): case 1, low dissipation (k=1e7, mu=0.01, alpha=1.3, v_in=0.5)",
            CASE_1,
            ClampTarget::Exact,
            &PRINTED_IIA,
            Some("-1e-5"),
        ),
        TableId::IIb => single_impact_table(
            id,
            "Table II(b): case 2, hard impact (k=1e9, mu=0.5, alpha=1.5, v_in=1); %err and dH against v_out~",
            CASE_2,
            ClampTarget::Approx,
            &PRINTED_IIB,
            Some("-0.013"),
        ),
        TableId::IIIa => sequence_table(
            id,
            "Table III(a): 100 impacts, case 1 (Heun with the paper's predicted-velocity hand-over)",
            CASE_1,
            &PRINTED_IIIA,
        ),
        TableId::IIIb => sequence_table(
            id,
            "Table III(b): 100 impacts, case 2 (Heun with the paper's predicted-velocity hand-over)",
            CASE_2,
            &PRINTED_IIIB,
        ),
    }
}
