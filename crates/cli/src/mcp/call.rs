//! A tool call's arguments as a protocol invocation: scalars read as the schema's type (hosts
//! send `"true"` and `"40"`), the agents' defaults, and why a call makes no command.

use rmcp::model::JsonObject;
use serde_json::Value;
use winit_automation_protocol::{
    ArgKind, Arity, ClientCode, ClientFailure, Coded, Flag, FlagRule, Invocation, ValueKind, Verb,
};

use super::tools::tool_args;

/// Why a call's arguments make no command.
pub(super) enum Refusal {
    /// An argument of the wrong name or type (`bad_tool_argument`).
    Tool(ClientFailure),
    /// What the protocol's parser refused.
    Protocol(winit_automation_protocol::Failure),
}

impl From<ClientFailure> for Refusal {
    fn from(e: ClientFailure) -> Refusal {
        Refusal::Tool(e)
    }
}

impl From<winit_automation_protocol::Failure> for Refusal {
    fn from(e: winit_automation_protocol::Failure) -> Refusal {
        Refusal::Protocol(e)
    }
}

impl Refusal {
    pub(super) fn coded(&self) -> &dyn Coded {
        match self {
            Refusal::Tool(e) => e,
            Refusal::Protocol(e) => e,
        }
    }
}

pub(super) fn bad_type(name: &str, want: &str, got: &Value) -> ClientFailure {
    ClientFailure::new(
        ClientCode::BadToolArgument,
        format!("argument {name} must be {want}, got {got}"),
        format!("send {name} as {want}"),
    )
}

/// A boolean, or the strings "true" and "false".
pub(super) fn boolean(name: &str, v: &Value) -> Result<bool, ClientFailure> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" => Ok(true),
        Value::String(s) if s == "false" => Ok(false),
        other => Err(bad_type(name, "a boolean (true or false)", other)),
    }
}

/// A whole number 0 or more, or a string of digits.
pub(super) fn count(name: &str, v: &Value) -> Result<String, ClientFailure> {
    match v {
        Value::Number(n) if n.is_u64() => Ok(n.to_string()),
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => Ok(s.clone()),
        other => Err(bad_type(name, "a whole number, 0 or more", other)),
    }
}

/// A finite number, or a string holding one.
pub(super) fn number(name: &str, v: &Value) -> Result<String, ClientFailure> {
    match v {
        Value::Number(n) => Ok(n.to_string()),
        Value::String(s) if s.parse::<f64>().is_ok_and(f64::is_finite) => Ok(s.clone()),
        other => Err(bad_type(name, "a number", other)),
    }
}

pub(super) fn string<'a>(name: &str, v: &'a Value) -> Result<&'a str, ClientFailure> {
    v.as_str().ok_or_else(|| bad_type(name, "a string", v))
}

/// A switch the table turns on for agents, unless the call set it or set the flag it excludes.
pub(super) fn agent_default(verb: Verb, flag: &Flag, args: &JsonObject) -> bool {
    let excluded = verb.spec().flags.iter().any(|rule| match rule {
        FlagRule::Either(a, b, _) if a == flag => args.get(b.word()).is_some(),
        FlagRule::Either(a, b, _) if b == flag => args.get(a.word()).is_some(),
        _ => false,
    });
    // An agent that says which frame it saw asks for "unchanged since" when nothing changed.
    let since = flag.name == "force" && args.get("since").is_some();
    flag.for_agents && !excluded && !since
}

/// A call's arguments as an invocation of `verb`, and the `dir` it names.
pub(super) fn invocation(
    verb: Verb,
    args: &JsonObject,
    timeout_ms: u64,
) -> Result<(Invocation, Option<String>), Refusal> {
    let known: Vec<&str> = std::iter::once("dir")
        .chain(tool_args(verb).map(|a| a.field))
        .chain(verb.flags().map(|f| f.word()))
        .collect();
    if let Some(unknown) = args.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(Refusal::Tool(ClientFailure::new(
            ClientCode::BadToolArgument,
            format!("{verb} takes no argument {unknown}"),
            format!("{verb} takes {}", known.join(", ")),
        )));
    }
    let dir = args
        .get("dir")
        .map(|v| string("dir", v).map(str::to_owned))
        .transpose()?;
    let mut inv = Invocation::new(verb);
    for arg in verb.spec().args {
        let name = arg.field;
        if arg.kind == ArgKind::Keyword {
            // Separate arguments need no separator: `drag`'s `to` keeps FROM and TO apart.
            inv.word(arg.name);
            continue;
        }
        let Some(v) = args.get(name) else {
            continue;
        };
        match (arg.kind, arg.arity) {
            (_, Arity::Many) => {
                let words: Vec<String> = match v {
                    Value::Array(items) => items
                        .iter()
                        .map(|i| string(name, i).map(str::to_owned))
                        .collect::<Result<_, _>>()?,
                    Value::String(s) => s.split_whitespace().map(str::to_owned).collect(),
                    other => return Err(bad_type(name, "an array of strings", other).into()),
                };
                for word in &words {
                    if arg.kind == ArgKind::Target {
                        inv.one_target(word)?;
                    } else {
                        inv.word(word);
                    }
                }
            }
            (ArgKind::Target | ArgKind::Selector, _) => {
                inv.target(string(name, v)?)?;
            }
            (ArgKind::Text | ArgKind::Path, _) => {
                inv.text(string(name, v)?);
            }
            (ArgKind::Number, _) => {
                inv.word(&number(name, v)?);
            }
            (ArgKind::Size, _) => {
                inv.word(&count(name, v)?);
            }
            (ArgKind::Word | ArgKind::Keyword, _) => {
                inv.word(string(name, v)?);
            }
        }
    }
    for flag in verb.flags() {
        let name = flag.word();
        let value = match (args.get(name), flag.value) {
            (Some(v), None) => boolean(name, v)?.then_some(None),
            (None, None) => agent_default(verb, &flag, args).then_some(None),
            (Some(v), Some((_, ValueKind::Count))) => Some(Some(count(name, v)?)),
            (Some(v), Some((_, ValueKind::Target | ValueKind::Word))) => {
                Some(Some(string(name, v)?.to_owned()))
            }
            (None, Some(_)) => None,
        };
        if let Some(value) = value {
            inv.flag(flag.name, value.as_deref())?;
        }
    }
    inv.default_timeout(timeout_ms);
    Ok((inv, dir))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(v: Value) -> JsonObject {
        match v {
            Value::Object(o) => o,
            _ => unreachable!(),
        }
    }

    fn line(verb: Verb, args: Value) -> Result<String, String> {
        let (inv, _) = invocation(verb, &object(args), 10_000).map_err(|e| {
            let e = e.coded();
            format!("{}: {}", e.code(), e.message())
        })?;
        inv.command()
            .map(|c| c.to_line())
            .map_err(|e| format!("{}: {}", e.code, e.message))
    }

    #[test]
    fn agents_get_settled_actions_and_interactive_snapshots_unless_they_say_otherwise() {
        assert_eq!(
            line(Verb::Click, json!({ "target": "@e3" })).unwrap(),
            "click @e3 --settle --timeout 10000"
        );
        assert_eq!(
            line(Verb::Click, json!({ "target": "@e3", "settle": "false" })).unwrap(),
            "click @e3"
        );
        assert_eq!(
            line(Verb::Snapshot, json!({})).unwrap(),
            "snapshot -i --force"
        );
        assert_eq!(
            line(Verb::Snapshot, json!({ "raw": true, "since": "40" })).unwrap(),
            "snapshot --raw --since 40"
        );
    }

    #[test]
    fn strings_are_read_as_the_schema_s_type_and_anything_else_is_refused_by_name() {
        assert_eq!(
            line(Verb::Scroll, json!({ "target": "@e1", "dx": "0", "dy": -120, "settle": "true", "timeout": "900" })).unwrap(),
            "scroll @e1 0 -120 --settle --timeout 900"
        );
        assert_eq!(
            line(Verb::Click, json!({ "target": "@e1", "settle": "maybe" })).unwrap_err(),
            "bad_tool_argument: argument settle must be a boolean (true or false), got \"maybe\""
        );
        assert_eq!(
            line(Verb::Resize, json!({ "width": 1.5, "height": 2 })).unwrap_err(),
            "bad_tool_argument: argument width must be a whole number, 0 or more, got 1.5"
        );
        assert!(
            line(Verb::Find, json!({ "selector": "role=button", "bogus": 1 }))
                .unwrap_err()
                .starts_with("bad_tool_argument: find takes no argument bogus")
        );
    }

    #[test]
    fn tool_arguments_follow_the_one_target_rule() {
        assert_eq!(
            line(
                Verb::Find,
                json!({ "selector": "role=button name~=Open Save" })
            )
            .unwrap_err(),
            "bad_argument: \"Save\" after name~=Open is not a selector term"
        );
        assert_eq!(
            line(Verb::Find, json!({ "selector": "role=buton" })).unwrap_err(),
            "bad_argument: unknown role \"buton\""
        );
        assert_eq!(
            line(
                Verb::Drag,
                json!({ "from": "role=slider", "to": "200,40", "settle": false })
            )
            .unwrap(),
            "drag role=slider to 200,40"
        );
        assert_eq!(
            line(
                Verb::Key,
                json!({ "chords": ["ctrl+a", "Enter"], "settle": false })
            )
            .unwrap(),
            "key ctrl+a Enter"
        );
        assert_eq!(
            line(
                Verb::Drag,
                json!({ "from": "role=slider", "to": "role=window", "settle": false })
            )
            .unwrap(),
            "drag role=slider to role=window"
        );
    }
}
