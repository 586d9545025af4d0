//! The lines of the tree text (`format.rs` writes them) as its readers see them: the diff
//! (`history.rs`), the size cap (`cap.rs`) and an action's brief (`brief.rs`). One reading, so a
//! window line, a node line and a hint are told apart, and nested, the same way in each.

use winit_automation_protocol::{NodeRef, tokenize};

/// What a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind<'a> {
    /// `window <n> ...`: `window <n>`, the name it gives the lines under it.
    Window(&'a str),
    /// `@e<N> <role> ...`: its ref.
    Node(&'a str),
    /// `[3 items below in @e4 list "Files"]`.
    Hint,
    /// Anything else: `unchanged since frame N`, a diff's `+ ...`.
    Other,
}

/// One line of the tree text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextLine<'a> {
    /// The line without its indentation and newline.
    pub(crate) body: &'a str,
    /// Its indentation, in spaces.
    pub(crate) indent: usize,
    pub(crate) kind: Kind<'a>,
}

impl<'a> TextLine<'a> {
    /// Reads a line (its newline, if any, is not part of it).
    pub(crate) fn read(line: &'a str) -> TextLine<'a> {
        let line = line.trim_end_matches('\n');
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        let first = body.split(' ').next().unwrap_or_default();
        let kind = if NodeRef::parse(first).is_some() {
            Kind::Node(first)
        } else if body.starts_with('[') {
            Kind::Hint
        } else if let Some(head) = window_head(body) {
            Kind::Window(head)
        } else {
            Kind::Other
        };
        TextLine { body, indent, kind }
    }

    /// Its depth in the tree: a window line holds every line after it up to the next (the
    /// interactive projection's lines at the margin too); below it, indentation nests.
    pub(crate) fn level(&self) -> usize {
        match self.kind {
            Kind::Window(_) => 0,
            _ => self.indent + 1,
        }
    }

    /// What it names a line under it by: a node's ref, a window's `window <n>`.
    pub(crate) fn name(&self) -> Option<&'a str> {
        match self.kind {
            Kind::Window(name) | Kind::Node(name) => Some(name),
            Kind::Hint | Kind::Other => None,
        }
    }

    /// A window line as a message names its window: `window <n> ["<title>"]`.
    pub(crate) fn window_title(&self) -> Option<String> {
        let Kind::Window(head) = self.kind else {
            return None;
        };
        let title = tokenize(&self.body[head.len()..])
            .ok()?
            .into_iter()
            .next()
            .filter(|t| t.bare.is_empty() && t.quoted.is_some());
        Some(match title {
            Some(t) => format!("{head} {}", t.written()),
            None => head.to_owned(),
        })
    }
}

/// `window <n>` of a window line.
fn window_head(body: &str) -> Option<&str> {
    let id = body.strip_prefix("window ")?.split(' ').next()?;
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        .then(|| &body[.."window ".len() + id.len()])
}

/// The line each line stands under: the index of the nearest line above it of a lower level.
pub(crate) fn parents(lines: &[TextLine<'_>]) -> Vec<Option<usize>> {
    let mut above: Vec<usize> = Vec::new();
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            while above
                .last()
                .is_some_and(|&a| lines[a].level() >= line.level())
            {
                above.pop();
            }
            let parent = above.last().copied();
            above.push(i);
            parent
        })
        .collect()
}

/// The name of what line `i` stands under: its nearest ancestor that names one (a node's ref, a
/// window's `window <n>`; `parents` gives the ancestry).
pub(crate) fn under<'a>(
    lines: &[TextLine<'a>],
    parents: &[Option<usize>],
    i: usize,
) -> Option<&'a str> {
    let mut at = parents[i];
    while let Some(p) = at {
        if let Some(name) = lines[p].name() {
            return Some(name);
        }
        at = parents[p];
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_node_and_hint_lines_are_told_apart_and_nest_by_level() {
        let text = "window 2 \"Tool \\\"x\\\"\" size=10x10\n@e1 button \"A\"\n  @e2 text value=\"b\"\n[3 items below in @e1 button \"A\"]\nwindow 30\n  @e3 group\n    @e4 unknown\nunchanged since frame 4\n";
        let lines: Vec<TextLine> = text.lines().map(TextLine::read).collect();
        let kinds: Vec<Kind> = lines.iter().map(|l| l.kind).collect();
        assert_eq!(
            kinds,
            [
                Kind::Window("window 2"),
                Kind::Node("@e1"),
                Kind::Node("@e2"),
                Kind::Hint,
                Kind::Window("window 30"),
                Kind::Node("@e3"),
                Kind::Node("@e4"),
                Kind::Other,
            ]
        );
        let parents = parents(&lines);
        assert_eq!(
            parents,
            [
                None,
                Some(0),
                Some(1),
                Some(0),
                None,
                Some(4),
                Some(5),
                Some(4)
            ]
        );
        let under: Vec<Option<&str>> = (0..lines.len())
            .map(|i| under(&lines, &parents, i))
            .collect();
        assert_eq!(
            under,
            [
                None,
                Some("window 2"),
                Some("@e1"),
                Some("window 2"),
                None,
                Some("window 30"),
                Some("@e3"),
                Some("window 30"),
            ]
        );
        assert_eq!(
            lines[0].window_title().as_deref(),
            Some("window 2 \"Tool \\\"x\\\"\"")
        );
        assert_eq!(lines[4].window_title().as_deref(), Some("window 30"));
        assert_eq!(lines[1].window_title(), None);
    }
}
