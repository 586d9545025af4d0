//! The `find` answer (docs/protocol.md, section 6.3): [`FindAnswer`], written and parsed back.

use std::fmt;

use super::malformed::malformed;
use super::node::NodeLine;
use crate::ParseError;

/// The body of a `find` answer, and of a `wait` answer after its `frame` line:
///
/// ```text
/// matches 2
/// @e4 button "OK" bounds=20,60,80x24 actions=click,focus
/// @e7 button "OK" bounds=20,400,80x24 actions=click,focus
/// ```
///
/// `L` is how each match's line is held: a [`NodeLine`] for a reader (what [`FindAnswer::parse`]
/// gives), or the line as the app formatted it (`FindAnswer<String>`, the service's: it writes
/// node lines without a `NodeLine` each). `Display` writes `matches <n>` and one line per match,
/// each line ending in `\n`, whatever `L` is.
///
/// ```
/// use winit_automation_protocol::FindAnswer;
///
/// let answer = FindAnswer::parse("matches 1\n@e4 button \"OK\"\n").unwrap();
/// assert_eq!(answer.matches[0].name, "OK");
/// assert!(FindAnswer::parse("matches 0\n").unwrap().is_empty());
/// assert_eq!(answer.to_string(), "matches 1\n@e4 button \"OK\"\n");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FindAnswer<L = NodeLine> {
    /// One line per match, in tree order (windows in id order).
    pub matches: Vec<L>,
}

impl<L> FindAnswer<L> {
    /// An answer with these matches.
    pub fn new(matches: Vec<L>) -> FindAnswer<L> {
        FindAnswer { matches }
    }

    /// How many nodes matched.
    pub fn len(&self) -> usize {
        self.matches.len()
    }

    /// Whether no node matched (`matches 0`).
    pub fn is_empty(&self) -> bool {
        self.matches.is_empty()
    }
}

impl FindAnswer {
    /// Parses the body of a `find` answer: a `matches <n>` line, then `n` node lines. Lines that
    /// are not node lines (a newer app's) are skipped; a count that differs from the node lines
    /// (a malformed node line among them) is refused.
    pub fn parse(body: &str) -> Result<FindAnswer, ParseError> {
        let hint = "a find answer is `matches N`, then one node line per match";
        let mut lines = body.lines();
        let first = lines.next().unwrap_or_default();
        let count: usize = first
            .strip_prefix("matches ")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| malformed("find answer", first, hint))?;
        let matches: Vec<NodeLine> = lines.filter_map(NodeLine::parse).collect();
        if matches.len() != count {
            return Err(malformed(
                &format!(
                    "find answer: {count} matches announced, {} node lines read",
                    matches.len()
                ),
                body,
                hint,
            ));
        }
        Ok(FindAnswer { matches })
    }
}

impl<L: fmt::Display> fmt::Display for FindAnswer<L> {
    /// The body, each line ending in `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "matches {}", self.matches.len())?;
        for line in &self.matches {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::NodeValue;
    use crate::{ErrorCode, NodeRef};

    const GOLDEN_FIND: &str = "matches 2\n\
        @e4 button \"OK\" bounds=20,60,80x24 actions=click,focus\n\
        @e7 textbox label=\"Name:\" value=\"a @e9 b\" focused bounds=20,400.5,80x24\n";

    #[test]
    fn the_golden_find_answer_parses_and_writes_back() {
        let answer = FindAnswer::parse(GOLDEN_FIND).unwrap();
        assert_eq!(answer.len(), 2);
        assert_eq!(answer.matches[0].r#ref, NodeRef(4));
        assert_eq!(
            answer.matches[1].value,
            Some(NodeValue::Text("a @e9 b".into()))
        );
        assert_eq!(answer.to_string(), GOLDEN_FIND);
        // The service's lines, held as it formatted them, are written the same way.
        let formatted: FindAnswer<String> = FindAnswer::new(
            GOLDEN_FIND
                .lines()
                .skip(1)
                .map(str::to_owned)
                .collect::<Vec<_>>(),
        );
        assert_eq!(formatted.to_string(), GOLDEN_FIND);
        let none = FindAnswer::<String>::new(Vec::new());
        assert_eq!(none.to_string(), "matches 0\n");
        assert!(FindAnswer::parse(&none.to_string()).unwrap().is_empty());
    }

    #[test]
    fn a_malformed_find_answer_is_refused() {
        for body in [
            "",
            "matches\n",
            "matches x\n",
            "matches -1\n",
            "frame 3\nmatches 0\n",
            "snapshot frame=1 protocol=3 quality=healthy\n",
            "matches 1\n",
            "matches 0\n@e1 button \"A\"\n",
            "matches 1\n@e1 slider value=loud\n",
        ] {
            let e = FindAnswer::parse(body).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadSyntax, "{body:?}");
        }
        // A newer app's extra line is skipped.
        let newer = FindAnswer::parse("matches 1\n@e1 button \"A\"\nmore 0\n").unwrap();
        assert_eq!(newer.to_string(), "matches 1\n@e1 button \"A\"\n");
    }
}
