//! The app's and the parser's words for this door: a message, hint or cut line that names a
//! command-line flag (`raise --timeout`, `see them with --scope @e4`) names the tool argument an
//! agent passes instead (`raise timeout`, `see them with scope @e4`). Only the verb table's flags
//! and `--dir` are renamed, never text inside quotes (a name, a selector's value).

use winit_automation_protocol::Verb;

/// Whether `--name` is a flag of some verb's tool, or the tools' `dir`.
fn is_argument(name: &str) -> bool {
    name == "dir"
        || Verb::ALL
            .iter()
            .any(|v| v.flag(name).is_some_and(|f| f.name.len() > 1))
}

/// `text` with each `--name` outside quotes that names a tool argument written as the argument.
pub(super) fn as_arguments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let at_word = out.is_empty() || out.ends_with([' ', '(', '[', ',']);
        if !quoted && at_word && rest.starts_with("--") {
            let name: &str = rest[2..]
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .next()
                .unwrap_or_default();
            if !name.is_empty() && is_argument(name) {
                out.push_str(name);
                rest = &rest[2 + name.len()..];
                continue;
            }
        }
        match c {
            '\\' if quoted && !escaped => escaped = true,
            '"' if !escaped => {
                quoted = !quoted;
                escaped = false;
            }
            _ => escaped = false,
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A body's own lines in this door's words: its hints and cut line (`[...]`); node lines, which
/// carry the app's text, are kept as they are.
pub(super) fn body_as_arguments(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    for line in body.split_inclusive('\n') {
        if line.starts_with('[') {
            out.push_str(&as_arguments(line));
        } else {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_become_the_arguments_an_agent_passes_and_nothing_else_changes() {
        assert_eq!(
            as_arguments("raise --timeout, lower --frames, or snapshot instead"),
            "raise timeout, lower frames, or snapshot instead"
        );
        assert_eq!(
            as_arguments(
                "[cut to 900 bytes: 3 nodes left out; see them with --scope @e4 (3 of them), --depth, or a larger --max-bytes]"
            ),
            "[cut to 900 bytes: 3 nodes left out; see them with scope @e4 (3 of them), depth, or a larger max-bytes]"
        );
        assert_eq!(
            as_arguments("pass --dir or set WINIT_AUTOMATION_DIR; --no-scroll refuses it"),
            "pass dir or set WINIT_AUTOMATION_DIR; no-scroll refuses it"
        );
        // Not a tool's argument (the server's own option, an unknown word), inside quotes, or
        // inside a word: kept.
        assert_eq!(
            as_arguments("start the server with --caps trace; --bogus"),
            "start the server with --caps trace; --bogus"
        );
        assert_eq!(
            as_arguments(r#"no node matches name="--force \" --wait" --wait"#),
            r#"no node matches name="--force \" --wait" wait"#
        );
        assert_eq!(as_arguments("a--wait"), "a--wait");
    }

    #[test]
    fn only_a_body_s_own_lines_are_reworded() {
        let body = "frame 3\n@e4 button \"--force\"\n[cut to 9 bytes: see them with --scope @e4]\n";
        assert_eq!(
            body_as_arguments(body),
            "frame 3\n@e4 button \"--force\"\n[cut to 9 bytes: see them with scope @e4]\n"
        );
    }
}
