//! The MCP tools, built from the verb table: one per verb of the groups the server lists (its
//! arguments and flags as a JSON schema, described by the table's help), then `apps` and `help`.
//! A tool's description is its verb's one sentence; the details are `help`'s.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool};
use serde_json::{Value, json};
use winit_automation_protocol::{Arg, ArgKind, Arity, Flag, ValueKind, Verb};

use super::caps::Caps;

/// The JSON schema of a positional argument.
pub(super) fn arg_schema(arg: &Arg) -> Value {
    let one = match arg.kind {
        ArgKind::Number => json!({ "type": "number" }),
        ArgKind::Size => json!({ "type": "integer" }),
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
        Some((_, ValueKind::Count)) => json!({ "type": "integer" }),
        Some((_, ValueKind::Target | ValueKind::Word)) => json!({ "type": "string" }),
    };
    let mut help = flag.help.to_owned();
    if flag.for_agents {
        help.push_str(" (default true)");
    }
    if flag.name == "max-bytes" {
        // The server's default and its 0 (`mcp.rs`).
        help.push_str(" (default: the server's --max-bytes; 0: no cap)");
    }
    schema["description"] = Value::from(help);
    schema
}

/// The positional arguments a tool takes: every one but the literal `to` of `drag`.
pub(super) fn tool_args(verb: Verb) -> impl Iterator<Item = &'static Arg> {
    verb.spec()
        .args
        .iter()
        .filter(|a| a.kind != ArgKind::Keyword)
}

/// An object schema with these properties, those `required` required, nothing else allowed.
fn object(properties: JsonObject, required: Vec<Value>) -> Arc<JsonObject> {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), Value::from("object"));
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    schema.insert("additionalProperties".into(), Value::Bool(false));
    Arc::new(schema)
}

/// The tool of a verb, from its row of the table: described by its one sentence.
pub(crate) fn verb_tool(verb: Verb) -> Tool {
    let spec = verb.spec();
    let mut properties = JsonObject::new();
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
    // Undescribed: the instructions say what `dir` is once, for every tool.
    properties.insert("dir".into(), json!({ "type": "string" }));
    Tool::new(spec.name, spec.about, object(properties, required))
}

/// The server's own tools, beside the verbs' (in the `core` group).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Local {
    /// The live apps under a directory.
    Apps,
    /// A tool's details, or the groups.
    Help,
}

impl Local {
    pub(super) const ALL: &'static [Local] = &[Local::Apps, Local::Help];

    pub(super) fn name(self) -> &'static str {
        match self {
            Local::Apps => "apps",
            Local::Help => "help",
        }
    }

    pub(super) fn parse(name: &str) -> Option<Local> {
        Local::ALL.iter().copied().find(|l| l.name() == name)
    }

    /// What it does: its description, and its line in `help`.
    pub(super) fn about(self) -> &'static str {
        match self {
            Local::Apps => {
                "The live apps (drop-box directories with a ready.txt) directly under a directory, one path each: pass one as `dir` to the other tools."
            }
            Local::Help => {
                "A tool's details, arguments and flags; with no topic, the capability groups and their tools (--caps lists more)."
            }
        }
    }

    /// Its one argument: (name, description).
    pub(super) fn argument(self) -> (&'static str, &'static str) {
        match self {
            Local::Apps => (
                "root",
                "the directory searched (default: the server's --dir, else the current directory)",
            ),
            Local::Help => ("topic", "a tool or a group (none: the groups)"),
        }
    }

    fn tool(self) -> Tool {
        let (name, description) = self.argument();
        let mut properties = JsonObject::new();
        properties.insert(
            name.into(),
            json!({ "type": "string", "description": description }),
        );
        Tool::new(self.name(), self.about(), object(properties, Vec::new()))
    }
}

/// The tools of the listed groups: one per verb, in the table's order, then `apps` and `help`.
pub(crate) fn tools(caps: &Caps) -> Vec<Tool> {
    caps.verbs()
        .map(verb_tool)
        .chain(Local::ALL.iter().map(|l| l.tool()))
        .collect()
}
