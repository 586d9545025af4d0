//! The MCP tools, built from the verb table: one per verb (its arguments and flags as a JSON
//! schema, described by the table's help) and `apps`.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool};
use serde_json::{Value, json};
use winit_automation_protocol::{Arg, ArgKind, Arity, Flag, ValueKind, Verb};

/// The JSON schema of a positional argument.
pub(super) fn arg_schema(arg: &Arg) -> Value {
    let one = match arg.kind {
        ArgKind::Number => json!({ "type": "number" }),
        ArgKind::Size => json!({ "type": "integer", "minimum": 1 }),
        _ => json!({ "type": "string" }),
    };
    let mut schema = match arg.arity {
        Arity::Many => json!({ "type": "array", "items": one, "minItems": 1 }),
        _ => one,
    };
    schema["description"] = Value::from(arg.help);
    schema
}

/// The JSON schema of a flag.
pub(super) fn flag_schema(flag: &Flag) -> Value {
    let mut schema = match flag.value {
        None => json!({ "type": "boolean" }),
        Some((_, ValueKind::Count)) => json!({ "type": "integer", "minimum": 0 }),
        Some((_, ValueKind::Target | ValueKind::Word)) => json!({ "type": "string" }),
    };
    let mut help = flag.help.to_owned();
    if flag.for_agents {
        help.push_str(" (default true)");
    }
    schema["description"] = Value::from(help);
    schema
}

pub(super) const DIR_HELP: &str = "the app's drop-box directory (default: the server's --dir, $WINIT_AUTOMATION_DIR or target/winit-automation)";

/// The positional arguments a tool takes: every one but the literal `to` of `drag`.
pub(super) fn tool_args(verb: Verb) -> impl Iterator<Item = &'static Arg> {
    verb.spec()
        .args
        .iter()
        .filter(|a| a.kind != ArgKind::Keyword)
}

/// The tool of a verb, from its row of the table.
pub(crate) fn verb_tool(verb: Verb) -> Tool {
    let spec = verb.spec();
    let mut properties = JsonObject::new();
    properties.insert(
        "dir".into(),
        json!({ "type": "string", "description": DIR_HELP }),
    );
    let mut required = Vec::new();
    for arg in tool_args(verb) {
        properties.insert(arg.field.into(), arg_schema(arg));
        if arg.arity != Arity::Optional {
            required.push(Value::from(arg.field));
        }
    }
    for flag in verb.flags() {
        properties.insert(flag.word().into(), flag_schema(&flag));
    }
    let mut schema = JsonObject::new();
    schema.insert("type".into(), Value::from("object"));
    schema.insert("properties".into(), Value::Object(properties));
    schema.insert("required".into(), Value::Array(required));
    schema.insert("additionalProperties".into(), Value::Bool(false));
    let description = if spec.details.is_empty() {
        spec.about.to_owned()
    } else {
        format!("{} {}", spec.about, spec.details)
    };
    Tool::new(spec.name, description, Arc::new(schema))
}

pub(super) fn apps_tool() -> Tool {
    let schema = json!({
        "type": "object",
        "properties": { "root": {
            "type": "string",
            "description": "the directory whose subdirectories are searched for live apps (default: the server's --dir, else the current directory)",
        } },
        "additionalProperties": false,
    });
    let Value::Object(schema) = schema else {
        unreachable!("a literal object")
    };
    Tool::new(
        "apps",
        "The live apps (drop-box directories with a ready.txt) directly under a directory, one path each: pass one as `dir` to the other tools.",
        Arc::new(schema),
    )
}

/// Every tool: one per verb, in the table's order, then `apps`.
pub(crate) fn tools() -> Vec<Tool> {
    Verb::ALL
        .iter()
        .map(|&v| verb_tool(v))
        .chain(std::iter::once(apps_tool()))
        .collect()
}
