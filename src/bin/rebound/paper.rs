//! `rebound paper`: the core paper's Tables I–III recomputed, as text or JSON.

use crate::common::{flag, fmt_sig, spec};
use crate::float::{F, to_json};
use clap::Args;
use rebound::model::paper::{self as tables, Table, TableId};
use serde::Serialize;

pub fn cmd_paper(a: &PaperArgs) -> Result<String, String> {
    let ids: Vec<TableId> = match a.table {
        None => TableId::ALL.to_vec(),
        Some(t) => vec![t],
    };
    let tables: Vec<Table> = ids.into_iter().map(tables::table).collect();
    if a.json {
        return Ok(to_json(
            &tables.iter().map(TableJson::of).collect::<Vec<_>>(),
        ));
    }
    Ok(tables.iter().map(table_text).collect::<Vec<_>>().join("\n"))
}

fn table_text(t: &Table) -> String {
    let mut out = format!("{}\n", t.title);
    out += &format!("{:<14}", "errors");
    for c in &t.columns {
        out += &format!("  {c:>30}");
    }
    out += &format!("\n{:<14}", "");
    for _ in &t.columns {
        out += &format!("  {:>30}", "paper | ours | diff%");
    }
    out.push('\n');
    for row in &t.rows {
        out += &format!("{row:<14}");
        for col in &t.columns {
            match t.cells.iter().find(|c| c.row == *row && c.column == *col) {
                Some(c) => {
                    let diff = c.rel_diff_pct();
                    let diff = if diff.is_finite() {
                        format!("{diff:+.2}")
                    } else {
                        "-".into()
                    };
                    out += &format!(
                        "  {:>30}",
                        format!("{} | {} | {}", c.printed, fmt_sig(c.ours), diff)
                    );
                }
                None => out += &format!("  {:>30}", "-"),
            }
        }
        out.push('\n');
    }
    out
}

/// `paper --json`: one table.
#[derive(Serialize)]
struct TableJson {
    table: &'static str,
    title: &'static str,
    cells: Vec<CellJson>,
}

#[derive(Serialize)]
struct CellJson {
    row: &'static str,
    column: &'static str,
    printed: &'static str,
    paper: F,
    ours: F,
    rel_diff_pct: F,
}

impl TableJson {
    fn of(t: &Table) -> Self {
        Self {
            table: t.id.arg(),
            title: t.title,
            cells: t
                .cells
                .iter()
                .map(|c| CellJson {
                    row: c.row,
                    column: c.column,
                    printed: c.printed,
                    paper: F(c.paper()),
                    ours: F(c.ours),
                    rel_diff_pct: F(c.rel_diff_pct()),
                })
                .collect(),
        }
    }
}

#[derive(Args)]
pub struct PaperArgs {
    #[arg(long, value_name = "TABLE", value_parser = parse_table,
          help = spec("Only this table", "none (a table name)", "1|2a|2b|3a|3b", "every table"))]
    table: Option<TableId>,
    #[arg(long, help = flag("Every cell as JSON: printed, paper, ours, rel_diff_pct"))]
    json: bool,
}

fn parse_table(s: &str) -> Result<TableId, String> {
    TableId::from_arg(s).ok_or_else(|| "unknown table (expected 1, 2a, 2b, 3a or 3b)".into())
}
