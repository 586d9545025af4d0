//! Writes a number in logical pixels as node and window lines carry it.

use std::fmt::Write as _;

/// Writes a number in logical pixels as node and window lines carry it: whole when it is, else
/// rounded to one decimal (`120`, `60.5`, `-3`). Integer formatting only: the snapshot formatter
/// calls it four times per node.
pub fn write_logical(out: &mut String, v: f64) {
    let tenths = (v * 10.0).round() as i64;
    if tenths < 0 {
        out.push('-');
    }
    let abs = tenths.unsigned_abs();
    let _ = write!(out, "{}", abs / 10);
    if !abs.is_multiple_of(10) {
        out.push('.');
        out.push(char::from(b'0' + (abs % 10) as u8));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logical_numbers_are_whole_or_rounded_to_a_tenth() {
        let written = |v: f64| {
            let mut out = String::new();
            write_logical(&mut out, v);
            out
        };
        assert_eq!(written(120.0), "120");
        assert_eq!(written(60.46), "60.5");
        assert_eq!(written(-0.04), "0");
        assert_eq!(written(-3.25), "-3.3");
    }
}
