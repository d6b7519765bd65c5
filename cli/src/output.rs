//! Output helpers: aligned text tables, number formatting, JSON text, and
//! writing to stdout without panicking when the reader goes away.

use crate::error::CliError;
use serde::Serialize;
use std::io::{ErrorKind, Write};

/// A text table: the first column left-aligned, the others right-aligned
/// (or all left-aligned, for key/value lists), each as wide as its widest
/// cell.
#[derive(Debug, Clone, Default)]
pub struct Table {
    rows: Vec<Vec<String>>,
    all_left: bool,
}

impl Table {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty table whose columns are all left-aligned (key/value lists).
    pub fn left() -> Self {
        Self {
            rows: Vec::new(),
            all_left: true,
        }
    }

    /// Appends a row (the first one is usually the header).
    pub fn row<I, S>(&mut self, cells: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.rows.push(cells.into_iter().map(Into::into).collect());
        self
    }

    /// The table as lines of text, each prefixed by `indent`.
    pub fn render(&self, indent: &str) -> String {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut widths = vec![0; columns];
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate() {
                widths[i] = widths[i].max(cell.chars().count());
            }
        }
        let mut out = String::new();
        for row in &self.rows {
            let mut line = String::from(indent);
            for (i, cell) in row.iter().enumerate() {
                if i == 0 {
                    line.push_str(&format!("{cell:<w$}", w = widths[0]));
                } else if self.all_left {
                    line.push_str(&format!("  {cell:<w$}", w = widths[i]));
                } else {
                    line.push_str(&format!("  {cell:>w$}", w = widths[i]));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// A number for people: whole numbers without decimals, others with up to
/// three decimals (trailing zeros removed).
pub fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Milliseconds for people: `12.5 ms`.
pub fn ms(x: f64) -> String {
    format!("{} ms", num(x))
}

/// Pretty JSON text of `value`, with a final newline.
pub fn json<T: Serialize + ?Sized>(value: &T) -> Result<String, CliError> {
    let mut text = serde_json::to_string_pretty(value)
        .map_err(|e| CliError::failure(format!("cannot write JSON: {e}")))?;
    text.push('\n');
    Ok(text)
}

/// Writes `text` to stdout. A closed pipe (`election run --trace | head`)
/// ends the output quietly; other write errors are reported.
pub fn print(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::failure(format!("cannot write output: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(num(15.0), "15");
        assert_eq!(num(12.3456), "12.346");
        assert_eq!(num(0.5), "0.5");
        assert_eq!(ms(7.25), "7.25 ms");
    }

    #[test]
    fn aligned() {
        let mut t = Table::new();
        t.row(["name", "mean"]).row(["messages_sent", "15"]);
        assert_eq!(t.render(""), "name           mean\nmessages_sent    15\n");
    }
}
