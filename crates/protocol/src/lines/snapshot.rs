//! The header line of a `snapshot` answer and of `snapshot.txt` (docs/protocol.md, section 6.2):
//! [`SnapshotHeader`] and its [`Quality`] verdict, written and parsed back.

use std::fmt;

use super::malformed::malformed;
use crate::ParseError;
use crate::lexer::tokenize;

/// The verdict of a snapshot's `quality=` field: whether the app publishes a tree worth reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Quality {
    /// `healthy`: every window has published a tree with more than its root.
    Healthy,
    /// `sparse`: no window has published a tree yet, or a window's tree is empty or only its
    /// root; a `warning` line after the header says which. Never "the screen has no controls".
    Sparse,
}

impl Quality {
    /// The verdict's word on the line: `healthy` or `sparse`.
    pub fn word(self) -> &'static str {
        match self {
            Quality::Healthy => "healthy",
            Quality::Sparse => "sparse",
        }
    }

    /// The verdict a word names; `None` for a word this version does not know.
    pub fn parse(word: &str) -> Option<Quality> {
        match word {
            "healthy" => Some(Quality::Healthy),
            "sparse" => Some(Quality::Sparse),
            _ => None,
        }
    }
}

impl fmt::Display for Quality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// The first line of a `snapshot` answer and of `snapshot.txt`:
/// `snapshot frame=<last published frame> protocol=<version> quality=<healthy|sparse>`.
///
/// `Display` writes the line without its newline. The `warning` lines, the trees and the metrics
/// follow it in the answer; this type is the header alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SnapshotHeader {
    /// The last frame the app published when it answered (0 before the first).
    pub frame: u64,
    /// The protocol version the app speaks ([`PROTOCOL_VERSION`](crate::PROTOCOL_VERSION) for
    /// this one).
    pub protocol: u32,
    /// Whether the app publishes a tree worth reading.
    pub quality: Quality,
}

impl SnapshotHeader {
    /// Parses the header line (without or with its newline). The three fields are required, in
    /// any order; a field this version does not know (a newer app's) is skipped.
    pub fn parse(line: &str) -> Result<SnapshotHeader, ParseError> {
        let hint = "a snapshot starts with `snapshot frame=N protocol=N quality=healthy|sparse`";
        let bad = || malformed("snapshot header", line, hint);
        let line = line.strip_suffix('\n').unwrap_or(line);
        let tokens = tokenize(line).map_err(|_| bad())?;
        let mut it = tokens.iter();
        match it.next() {
            Some(t) if t.quoted.is_none() && t.bare == "snapshot" => {}
            _ => return Err(bad()),
        }
        let (mut frame, mut protocol, mut quality) = (None, None, None);
        for t in it {
            match (t.bare.split_once('='), &t.quoted) {
                (Some(("frame", n)), None) => frame = Some(n.parse().map_err(|_| bad())?),
                (Some(("protocol", n)), None) => protocol = Some(n.parse().map_err(|_| bad())?),
                (Some(("quality", q)), None) => quality = Some(Quality::parse(q).ok_or_else(bad)?),
                (Some(("frame" | "protocol" | "quality", _)), Some(_)) => return Err(bad()),
                // A newer app's field.
                _ => {}
            }
        }
        Ok(SnapshotHeader {
            frame: frame.ok_or_else(bad)?,
            protocol: protocol.ok_or_else(bad)?,
            quality: quality.ok_or_else(bad)?,
        })
    }

    /// The header of a snapshot answer's body (or of `snapshot.txt`): its first line.
    pub fn of(body: &str) -> Result<SnapshotHeader, ParseError> {
        SnapshotHeader::parse(body.lines().next().unwrap_or_default())
    }
}

impl fmt::Display for SnapshotHeader {
    /// The line without its newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "snapshot frame={} protocol={} quality={}",
            self.frame, self.protocol, self.quality
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorCode;
    use proptest::prelude::*;

    const GOLDEN_HEADER: &str = "snapshot frame=42 protocol=3 quality=healthy";

    #[test]
    fn the_golden_header_parses_and_writes_back() {
        let header = SnapshotHeader::parse(GOLDEN_HEADER).unwrap();
        assert_eq!(
            header,
            SnapshotHeader {
                frame: 42,
                protocol: 3,
                quality: Quality::Healthy,
            }
        );
        assert_eq!(header.to_string(), GOLDEN_HEADER);
        let sparse = SnapshotHeader::parse("snapshot frame=0 protocol=3 quality=sparse\n").unwrap();
        assert_eq!(sparse.quality, Quality::Sparse);
    }

    #[test]
    fn the_header_of_a_whole_answer_is_its_first_line() {
        let body = "snapshot frame=7 protocol=3 quality=sparse\nwarning \"quality=healthy\"\nmetrics frames=7 fps=0\n";
        assert_eq!(SnapshotHeader::of(body).unwrap().quality, Quality::Sparse);
        // A body that merely mentions the verdict somewhere is no healthy snapshot.
        assert!(SnapshotHeader::of("unchanged since frame 3\nquality=healthy\n").is_err());
    }

    #[test]
    fn a_newer_apps_fields_are_skipped_and_a_malformed_header_is_refused() {
        let newer =
            SnapshotHeader::parse("snapshot frame=1 windows=2 protocol=5 quality=healthy x=\"y\"")
                .unwrap();
        assert_eq!(
            newer.to_string(),
            "snapshot frame=1 protocol=5 quality=healthy"
        );
        for line in [
            "",
            "snapshot",
            "snapshot frame=1 protocol=3",
            "snapshot frame=x protocol=3 quality=healthy",
            "snapshot frame=1 protocol=3 quality=wonderful",
            "snapshot frame=1 protocol=3 quality=\"healthy\"",
            "window 1 \"snapshot frame=1 protocol=3 quality=healthy\"",
            "matches 0",
        ] {
            let e = SnapshotHeader::parse(line).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadSyntax, "{line:?}");
        }
    }

    proptest! {
        #[test]
        fn every_header_round_trips(frame in any::<u64>(), protocol in any::<u32>(), healthy in any::<bool>()) {
            let quality = if healthy { Quality::Healthy } else { Quality::Sparse };
            let header = SnapshotHeader { frame, protocol, quality };
            let written = header.to_string();
            prop_assert_eq!(SnapshotHeader::parse(&written).unwrap(), header);
            prop_assert_eq!(SnapshotHeader::of(&format!("{written}\nmetrics frames=1\n")).unwrap(), header);
        }
    }
}
