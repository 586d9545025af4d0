//! The `help` tool: what the tool list leaves out to stay small, read on demand. A tool's help is
//! its verb's row of the table in full (the details, every argument and flag with its type and
//! help, the command line it sends); the groups' help says what `--caps` adds.

use std::fmt::Write as _;

use winit_automation_protocol::{Arity, ClientCode, ClientFailure, Group, Verb, usage};

use super::caps::Caps;
use super::tools::{Local, arg_schema, flag_schema, tool_args};

/// What `help` says beyond the table: the server's own settings.
pub(crate) struct Server<'a> {
    pub(crate) caps: &'a Caps,
    /// The server's `--max-bytes`, sent with a `snapshot` that names none (0: none).
    pub(crate) max_bytes: u64,
}

/// The help on `topic` (a tool or a group; none: the groups), as this server lists them.
pub(crate) fn help(topic: Option<&str>, server: &Server) -> Result<String, ClientFailure> {
    let Some(topic) = topic else {
        return Ok(groups(server.caps));
    };
    // Tools and groups are lowercase: `Click` is `click`.
    let lower = topic.trim().to_lowercase();
    let t = lower.as_str();
    if let Some(verb) = Verb::parse(t) {
        Ok(verb_help(verb, server))
    } else if let Some(group) = Group::parse(t) {
        Ok(group_help(group, server.caps))
    } else if let Some(local) = Local::parse(t) {
        Ok(local_help(local))
    } else {
        Err(ClientFailure::new(
            ClientCode::BadToolArgument,
            format!("no tool or group {topic:?}"),
            "call help with no topic for the groups and their tools",
        ))
    }
}

fn listed(group: Group, caps: &Caps) -> &'static str {
    if caps.has(group) {
        "listed"
    } else {
        "not listed"
    }
}

/// The tools of a group: its verbs, and for `core` the server's own.
fn tools_of(group: Group) -> Vec<&'static str> {
    let own: &[Local] = if group == Group::Core {
        Local::ALL
    } else {
        &[]
    };
    group
        .verbs()
        .map(Verb::as_str)
        .chain(own.iter().map(|l| l.name()))
        .collect()
}

/// Every group, with its tools and whether this server lists them.
fn groups(caps: &Caps) -> String {
    let mut out = String::new();
    for &group in Group::ALL {
        let _ = writeln!(
            out,
            "{group} ({}), {}: {}",
            listed(group, caps),
            group.about(),
            tools_of(group).join(", ")
        );
    }
    if !caps.has_all() {
        out.push_str("A group not listed is listed when the server starts with --caps GROUP,... or --caps all.\n");
    }
    out.push_str("help with topic TOOL gives a tool's details, arguments and flags.\n");
    out
}

fn group_help(group: Group, caps: &Caps) -> String {
    let mut out = format!("{group} ({}), {}\n", listed(group, caps), group.about());
    for verb in group.verbs() {
        let _ = writeln!(out, "{verb}: {}", verb.spec().about);
    }
    if group == Group::Core {
        for local in Local::ALL {
            let _ = writeln!(out, "{}: {}", local.name(), local.about());
        }
    }
    if !caps.has(group) {
        let _ = writeln!(
            out,
            "The server lists them when started with {}.",
            caps.option_with(group)
        );
    }
    out
}

/// A JSON schema's type, as help names it.
fn type_of(schema: &serde_json::Value) -> &str {
    schema["type"].as_str().unwrap_or("any")
}

fn verb_help(verb: Verb, server: &Server) -> String {
    let spec = verb.spec();
    let mut out = format!("{verb}: {}\n", spec.about);
    if !spec.details.is_empty() {
        out.push_str(spec.details);
        out.push('\n');
    }
    out.push_str("arguments:\n");
    for arg in tool_args(verb) {
        let need = if arg.arity == Arity::Optional {
            ""
        } else {
            ", required"
        };
        let _ = writeln!(
            out,
            "  {} ({}{need}): {}",
            arg.field,
            type_of(&arg_schema(arg)),
            arg.help
        );
    }
    for flag in verb.flags() {
        let default = match flag.name {
            _ if flag.for_agents => ", default true".to_owned(),
            "max-bytes" if server.max_bytes > 0 => format!(
                ", default {} (the server's --max-bytes; 0: no cap)",
                server.max_bytes
            ),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "  {} ({}{default}): {}",
            flag.word(),
            type_of(&flag_schema(&flag)),
            flag.help
        );
    }
    out.push_str(
        "  dir (string): the app's directory (default: the server's --dir, $WINIT_AUTOMATION_DIR or target/winit-automation)\n",
    );
    let _ = writeln!(out, "as a command line: {}", usage(verb));
    let _ = write!(out, "group: {}", verb.group());
    if server.caps.has(verb.group()) {
        out.push('\n');
    } else {
        let _ = writeln!(
            out,
            ", not listed: the server lists it when started with {}",
            server.caps.option_with(verb.group())
        );
    }
    out
}

fn local_help(local: Local) -> String {
    let (name, help) = local.argument();
    let mut out = format!("{}: {}\narguments:\n", local.name(), local.about());
    let _ = writeln!(out, "  {name} (string): {help}");
    out.push_str("group: core\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(caps: &Caps) -> Server<'_> {
        Server {
            caps,
            max_bytes: 8000,
        }
    }

    #[test]
    fn a_tool_s_help_has_its_details_every_argument_and_its_command_line() {
        let caps = Caps::default();
        let text = help(Some("click"), &server(&caps)).unwrap();
        assert!(
            text.starts_with("click: Clicks a node or a point.\n"),
            "{text}"
        );
        assert!(text.contains(Verb::Click.spec().details), "{text}");
        for word in [
            "target (string, required)",
            "settle (boolean, default true)",
            "hold (integer)",
            "no-scroll (boolean)",
            "dir (string)",
        ] {
            assert!(text.contains(word), "{word} in {text}");
        }
        assert!(
            text.contains("as a command line: click TARGET [--double|--hold MS]"),
            "{text}"
        );
        assert!(text.ends_with("group: core\n"), "{text}");
        let snapshot = help(Some("snapshot"), &server(&caps)).unwrap();
        assert!(
            snapshot.contains(
                "max-bytes (integer, default 8000 (the server's --max-bytes; 0: no cap))"
            ),
            "{snapshot}"
        );
    }

    #[test]
    fn a_tool_outside_the_listed_groups_says_how_to_list_it() {
        let caps = Caps::default();
        let text = help(Some("pinch"), &server(&caps)).unwrap();
        assert!(
            text.ends_with(
                "group: gestures, not listed: the server lists it when started with --caps gestures (or --caps all)\n"
            ),
            "{text}"
        );
        let all = Caps::parse("all").unwrap();
        assert!(
            help(Some("pinch"), &server(&all))
                .unwrap()
                .ends_with("group: gestures\n")
        );
        let groups = help(None, &server(&caps)).unwrap();
        assert!(groups.starts_with("core (listed), "), "{groups}");
        assert!(groups.contains(", apps, help\n"), "{groups}");
        assert!(groups.contains("\ngestures (not listed), "), "{groups}");
        assert!(
            groups.contains("hover, stroke, down, move, up, pinch"),
            "{groups}"
        );
        assert!(groups.contains("--caps all"), "{groups}");
        assert!(!help(None, &server(&all)).unwrap().contains("--caps all"));
    }

    #[test]
    fn the_server_s_own_tools_have_help_too() {
        let caps = Caps::default();
        let apps = help(Some("apps"), &server(&caps)).unwrap();
        assert!(apps.contains("  root (string): "), "{apps}");
        let core = help(Some("core"), &server(&caps)).unwrap();
        assert!(
            core.contains("\napps: ") && core.contains("\nhelp: "),
            "{core}"
        );
    }

    #[test]
    fn an_unknown_topic_is_refused_with_a_hint() {
        let caps = Caps::default();
        assert!(
            help(Some("Click"), &server(&caps))
                .unwrap()
                .starts_with("click: ")
        );
        let e = help(Some("clik"), &server(&caps)).unwrap_err();
        assert_eq!(e.code, ClientCode::BadToolArgument);
        assert!(e.message.contains("\"clik\""), "{}", e.message);
    }
}
