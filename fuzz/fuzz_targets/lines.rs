//! The typed answer lines, one target for all of them: the first byte chooses the parser (`'0'`
//! node line, `'1'` snapshot header, `'2'` find answer, `'3'` journal entry, `'4'` journal target
//! line, `'5'` journal answer, `'6'` screenshot answer; other bytes wrap around), the rest is the
//! text. Each parser never panics, and what it accepts is written back (`Display`) to text that
//! parses to the same value. A node line's bounds are rounded to 0.1 when written, so for node
//! lines the written text is a fixed point instead: it parses to a line that writes it again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use winit_automation_protocol::{
    FindAnswer, JournalAnswer, JournalEntry, JournalTarget, NodeLine, ScreenshotAnswer,
    SnapshotHeader,
};

/// Parses, writes, parses again: the value comes back.
fn round_trip<T, E>(text: &str, parse: impl Fn(&str) -> Result<T, E>)
where
    T: std::fmt::Display + std::fmt::Debug + PartialEq,
    E: std::fmt::Debug,
{
    if let Ok(value) = parse(text) {
        let written = value.to_string();
        match parse(&written) {
            Ok(again) => assert_eq!(again, value, "written {written:?}"),
            Err(e) => panic!("written {written:?} is refused: {e:?}"),
        }
    }
}

fn node_line(text: &str) {
    let Some(node) = NodeLine::parse(text) else {
        return;
    };
    let written = node.to_string();
    let again = NodeLine::parse(&written).unwrap_or_else(|| panic!("{written:?} is refused"));
    assert_eq!(again.to_string(), written);
    // Only the bounds' rounding differs.
    let rounded = NodeLine {
        bounds: again.bounds,
        ..node.clone()
    };
    assert_eq!(again, rounded, "written {written:?}");
    assert_eq!(NodeLine::parse(&format!("    {written}")), Some(again));
}

fn find_answer(text: &str) {
    let Ok(answer) = FindAnswer::parse(text) else {
        return;
    };
    let written = answer.to_string();
    let again = FindAnswer::parse(&written).unwrap_or_else(|e| panic!("{written:?}: {e:?}"));
    assert_eq!(again.len(), answer.len());
    assert_eq!(again.to_string(), written);
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match which.wrapping_sub(b'0') % 7 {
        0 => node_line(text),
        1 => round_trip(text, SnapshotHeader::parse),
        2 => find_answer(text),
        3 => round_trip(text, JournalEntry::parse),
        4 => round_trip(text, JournalTarget::parse),
        5 => round_trip(text, JournalAnswer::parse),
        _ => round_trip(text, ScreenshotAnswer::parse),
    }
});
