//! The front ends against the verb table: every verb has a CLI subcommand, an MCP tool and a script
//! form, and each says what the table says (names, arguments, flags, help, defaults). Built from
//! the table, they can only drift by a builder that skips or adds something; this finds it.

use std::collections::BTreeSet;

use clap::ArgAction;
use serde_json::Value;
use winit_automation_protocol::{ArgKind, Arity, Command, ValueKind, Verb, usage};
use winit_automation_testing::script::Script;

use super::{args, mcp};

/// A value of each kind, for a script line that uses every argument and flag of a verb.
fn example(kind: ArgKind, field: &str) -> &'static str {
    match (kind, field) {
        (ArgKind::Target, _) => "@e1",
        (ArgKind::Selector, _) => "role=button",
        (ArgKind::Text, _) => "\"a b\"",
        (ArgKind::Number, "scale") => "1.5",
        (ArgKind::Number, _) => "-1.5",
        (ArgKind::Size, _) => "10",
        (ArgKind::Keyword, _) => "to",
        (ArgKind::Path, _) => "/tmp/trace.html",
        (ArgKind::Word, "what") => "stop",
        (ArgKind::Word, "name") => "set_value",
        (ArgKind::Word, "chords") => "ctrl+a",
        (ArgKind::Word, _) => "shot",
    }
}

/// Script lines that together use every positional argument and every flag the rules allow
/// together (the first of each pair that excludes each other): one line, except for `trace`,
/// whose FILE belongs to `stop` and whose flag to `start`, and `clock`, whose MS belongs to `run`.
fn script_lines(verb: Verb) -> Vec<String> {
    match verb {
        Verb::Trace => vec![
            "trace start --screenshots --replaceable".to_owned(),
            format!("trace stop {}", example(ArgKind::Path, "file")),
        ],
        Verb::Clock => vec![
            "clock".to_owned(),
            format!("clock run {} --step 3", example(ArgKind::Size, "ms")),
        ],
        _ => vec![script_line(verb)],
    }
}

/// A script line with every positional argument and every flag the rules allow together.
fn script_line(verb: Verb) -> String {
    let spec = verb.spec();
    let mut line = spec.name.to_owned();
    for arg in spec.args {
        line.push(' ');
        line.push_str(example(arg.kind, arg.field));
        if arg.arity == Arity::Many {
            // A repeated argument given twice (a stroke needs two points).
            line.push(' ');
            line.push_str(example(arg.kind, arg.field));
        }
    }
    for rule in spec.flags {
        let flag = rule.flags().next().expect("a rule has a flag");
        let both = matches!(rule, winit_automation_protocol::FlagRule::Needs(..));
        for flag in std::iter::once(flag).chain(rule.flags().skip(1).filter(|_| both)) {
            line.push_str(if flag.name.len() == 1 { " -" } else { " --" });
            line.push_str(flag.name);
            match flag.value {
                Some((_, ValueKind::Count)) => line.push_str(" 3"),
                Some((_, ValueKind::Target)) => line.push_str(" @e2"),
                Some((_, ValueKind::Word)) if flag.name == "pan" => line.push_str(" 0,-10"),
                Some((_, ValueKind::Word)) => line.push_str(" shift"),
                None => {}
            }
        }
    }
    line
}

#[test]
fn every_verb_has_a_cli_subcommand_an_mcp_tool_and_a_script_form_that_match_the_table() {
    let cli = args::command();
    let all = mcp::Caps::parse("all").expect("all is a --caps");
    let tools = mcp::tools(&all);
    let global_timeout = cli
        .get_arguments()
        .find(|a| a.get_id() == "timeout")
        .expect("the CLI has a global --timeout");
    assert!(global_timeout.is_global_set());
    for &verb in Verb::ALL {
        let spec = verb.spec();

        // The CLI: a subcommand of the verb's name, its about, its usage, exactly its flags.
        let sub = cli
            .find_subcommand(spec.name)
            .unwrap_or_else(|| panic!("the CLI has no `{verb}` subcommand"));
        assert_eq!(
            sub.get_about().map(|a| a.to_string()).as_deref(),
            Some(spec.about),
            "{verb}'s --help"
        );
        let rendered = sub.clone().render_usage().to_string();
        assert!(rendered.contains(&usage(verb)), "{verb}: {rendered}");
        let mut cli_flags = BTreeSet::new();
        for arg in sub.get_arguments().filter(|a| !a.is_positional()) {
            cli_flags.insert(arg.get_id().to_string());
        }
        for flag in verb.flags() {
            if flag.name == "timeout" {
                // The CLI's own --timeout is the protocol's.
                assert!(!cli_flags.contains("timeout"), "{verb} repeats --timeout");
                continue;
            }
            assert!(
                cli_flags.remove(flag.name),
                "the CLI's `{verb}` lacks {}",
                flag.name
            );
            let arg = sub
                .get_arguments()
                .find(|a| a.get_id() == flag.name)
                .expect("just found");
            assert_eq!(
                arg.get_help().map(|h| h.to_string()).as_deref(),
                Some(flag.help),
                "{verb} {}'s help",
                flag.name
            );
            if flag.name.len() == 1 {
                assert_eq!(arg.get_short(), flag.name.chars().next());
                assert_eq!(arg.get_long(), flag.alias);
            } else {
                assert_eq!(arg.get_long(), Some(flag.name));
            }
            match flag.value {
                None => assert!(matches!(arg.get_action(), ArgAction::SetTrue)),
                Some((placeholder, _)) => {
                    let names: Vec<String> = arg
                        .get_value_names()
                        .into_iter()
                        .flatten()
                        .map(|n| n.to_string())
                        .collect();
                    assert_eq!(names, [placeholder], "{verb} {}", flag.name);
                }
            }
            // No default of its own: a flag the person did not give is not sent.
            assert!(arg.get_default_values().is_empty(), "{verb} {}", flag.name);
        }
        // The globals and the CLI's own copy-out are all a subcommand may add.
        cli_flags.retain(|f| !matches!(f.as_str(), "dir" | "json" | "timeout" | "help"));
        if verb == Verb::Screenshot {
            assert!(cli_flags.remove("out"));
        }
        assert!(
            cli_flags.is_empty(),
            "the CLI's `{verb}` adds {cli_flags:?}"
        );

        // MCP: a tool of the verb's name, described by the table's sentence (its details in
        // `help`), one argument per positional argument and flag, described and typed by the table.
        let tool = tools
            .iter()
            .find(|t| t.name == spec.name)
            .unwrap_or_else(|| panic!("the MCP server has no `{verb}` tool"));
        let description = tool.description.as_deref().unwrap_or("");
        assert_eq!(description, spec.about, "{verb}");
        let server = mcp::HelpServer {
            caps: &all,
            max_bytes: 0,
        };
        let help = mcp::help(Some(spec.name), &server).expect("every tool has help");
        assert!(help.contains(spec.details), "{verb}: {help}");
        let schema = &tool.input_schema;
        let properties = schema["properties"].as_object().expect("properties");
        let mut names: BTreeSet<&str> = properties.keys().map(String::as_str).collect();
        assert!(names.remove("dir"), "{verb}'s tool takes no dir");
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        for arg in spec.args.iter().filter(|a| a.kind != ArgKind::Keyword) {
            assert!(names.remove(arg.field), "{verb}'s tool lacks {}", arg.field);
            let p = &properties[arg.field];
            assert_eq!(p["description"], arg.help, "{verb} {}", arg.field);
            let want = match (arg.arity, arg.kind) {
                (Arity::Many, _) => "array",
                (_, ArgKind::Number) => "number",
                (_, ArgKind::Size) => "integer",
                _ => "string",
            };
            assert_eq!(p["type"], want, "{verb} {}", arg.field);
            assert_eq!(
                required.contains(&arg.field),
                arg.arity != Arity::Optional,
                "{verb} {} required",
                arg.field
            );
        }
        for flag in verb.flags() {
            let word = flag.word();
            assert!(names.remove(word), "{verb}'s tool lacks {word}");
            let p = &properties[word];
            let help = p["description"].as_str().unwrap_or("");
            assert!(help.starts_with(flag.help), "{verb} {word}: {help}");
            // The agents' default is stated where it applies, and only there.
            assert_eq!(
                help.ends_with("(default true)"),
                flag.for_agents,
                "{verb} {word}"
            );
            let want = match flag.value {
                None => "boolean",
                Some((_, ValueKind::Count)) => "integer",
                Some((_, ValueKind::Target | ValueKind::Word)) => "string",
            };
            assert_eq!(p["type"], want, "{verb} {word}");
        }
        assert!(names.is_empty(), "{verb}'s tool adds {names:?}");

        // A script: a line with every argument and flag parses, and its canonical form is the
        // same command.
        for line in script_lines(verb) {
            Script::parse(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            let command = Command::parse(&line).expect("parsed by the script");
            assert_eq!(Command::parse(&command.to_line()), Ok(command), "{line}");
        }
    }
    // Nothing beside the table: every other subcommand is the CLI's own, every other tool `apps` or `help`.
    let verbs: BTreeSet<&str> = Verb::ALL.iter().map(|v| v.as_str()).collect();
    let local: Vec<&str> = cli
        .get_subcommands()
        .map(|s| s.get_name())
        .filter(|n| !verbs.contains(n))
        .collect();
    assert_eq!(local, ["send", "compare", "run", "test", "record", "mcp"]);
    let extra: Vec<&str> = tools
        .iter()
        .map(|t| t.name.as_ref())
        .filter(|n| !verbs.contains(n))
        .collect();
    assert_eq!(extra, ["apps", "help"]);
}
