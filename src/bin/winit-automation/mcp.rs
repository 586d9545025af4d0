//! `winit-automation mcp`: every protocol verb as an MCP tool over stdio (feature `mcp`).
//!
//! The tools come from the verb table (`protocol::Verb::spec`): one per verb, named after it,
//! described by its `about` and `details`, with one argument per positional argument (by its
//! `field`) and per flag (by its word: `interactive` for `-i`), each described by the table's help.
//! A call's arguments become a `protocol::Invocation`, checked by the same parser as a command
//! line, so a tool refuses what the CLI refuses, with the same error and hint. Beside them,
//! `apps` lists the live apps under a directory.
//!
//! Agents act, then look: the switches the table marks `for_agents` (`settle` on actions, `-i` and
//! `force` on snapshots) are on unless the call says `false`. Scalars that hosts send as strings
//! (`"true"`, `"40"`) are read as the schema's type; anything else is refused naming the argument
//! and the type. Every verb's tool takes an optional `dir`: the app's drop-box (else the server's `--dir`,
//! `$WINIT_AUTOMATION_DIR` or `target/winit-automation`), so one session can drive several apps.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use winit_automation::client::Client;
use winit_automation::protocol::{
    Arg, ArgKind, Arity, ClientCode, ClientFailure, Coded, Command, Flag, FlagRule, Invocation,
    Outcome, Response, Token, ValueKind, Verb, quote, tokenize,
};

/// What the server tells a host about itself, in `initialize`.
const INSTRUCTIONS: &str = "Drives a running winit/wgpu or egui app through its drop-box directory. \
Start with `snapshot`: one line per actionable node, `@eN role \"name\"` and only non-default state. \
Refs (@e12) name a node for its lifetime; a ref whose node is gone or changed is refused (stale_ref), \
never moved to another node. Targets are a ref, a point x,y in logical pixels, or selector terms \
(role=button name=\"Save\"; quote values with spaces). Actions answer once the UI settled, with a \
diff of what changed; `ok` means the input reached that node, a refusal names the true reason \
(covered, offscreen, disabled, missed, no_focus). Pass since=<frame of your last snapshot> to get \
\"unchanged since frame N\" instead of the tree. Several apps: `apps` lists the live ones; pass one's \
directory as `dir` to any tool.";

/// The server: where the apps are by default, and how long a command may take.
#[derive(Debug, Clone)]
pub(crate) struct Server {
    dir: Option<PathBuf>,
    timeout_ms: u64,
}

/// Runs the server on stdin and stdout until the client goes away.
pub(crate) fn serve(dir: Option<PathBuf>, timeout_ms: u64) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(async move {
        let server = Server { dir, timeout_ms };
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| format!("the MCP session did not start: {e}"))?;
        running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| format!("the MCP session failed: {e}"))
    })
}

/// A tool error: `error <code>: <message>`, a `hint:` line when there is one, then extra lines.
fn failed(code: &str, message: &str, hint: Option<&str>, extra: &str) -> CallToolResult {
    let mut text = format!("error {code}: {message}\n");
    if let Some(hint) = hint {
        text.push_str(&format!("hint: {hint}\n"));
    }
    text.push_str(extra);
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// Any error of the crate as a tool error.
fn refused(e: &dyn Coded) -> CallToolResult {
    failed(e.code().as_str(), &e.message(), e.hint().as_deref(), "")
}

/// Why a call's arguments make no command.
enum Refusal {
    /// An argument of the wrong name or type (`bad_tool_argument`).
    Tool(ClientFailure),
    /// What the protocol's parser refused.
    Protocol(winit_automation::protocol::Failure),
}

impl From<ClientFailure> for Refusal {
    fn from(e: ClientFailure) -> Refusal {
        Refusal::Tool(e)
    }
}

impl From<winit_automation::protocol::Failure> for Refusal {
    fn from(e: winit_automation::protocol::Failure) -> Refusal {
        Refusal::Protocol(e)
    }
}

impl Refusal {
    fn coded(&self) -> &dyn Coded {
        match self {
            Refusal::Tool(e) => e,
            Refusal::Protocol(e) => e,
        }
    }
}

fn bad_type(name: &str, want: &str, got: &Value) -> ClientFailure {
    ClientFailure::new(
        ClientCode::BadToolArgument,
        format!("argument {name} must be {want}, got {got}"),
        format!("send {name} as {want}"),
    )
}

/// A boolean, or the strings "true" and "false".
fn boolean(name: &str, v: &Value) -> Result<bool, ClientFailure> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" => Ok(true),
        Value::String(s) if s == "false" => Ok(false),
        other => Err(bad_type(name, "a boolean (true or false)", other)),
    }
}

/// A whole number 0 or more, or a string of digits.
fn count(name: &str, v: &Value) -> Result<String, ClientFailure> {
    match v {
        Value::Number(n) if n.is_u64() => Ok(n.to_string()),
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => Ok(s.clone()),
        other => Err(bad_type(name, "a whole number, 0 or more", other)),
    }
}

/// A finite number, or a string holding one.
fn number(name: &str, v: &Value) -> Result<String, ClientFailure> {
    match v {
        Value::Number(n) => Ok(n.to_string()),
        Value::String(s) if s.parse::<f64>().is_ok_and(f64::is_finite) => Ok(s.clone()),
        other => Err(bad_type(name, "a number", other)),
    }
}

fn string<'a>(name: &str, v: &'a Value) -> Result<&'a str, ClientFailure> {
    v.as_str().ok_or_else(|| bad_type(name, "a string", v))
}

/// The JSON schema of a positional argument.
fn arg_schema(arg: &Arg) -> Value {
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
fn flag_schema(flag: &Flag) -> Value {
    let mut schema = match flag.value {
        None => json!({ "type": "boolean" }),
        Some((_, ValueKind::Count)) => json!({ "type": "integer", "minimum": 0 }),
        Some((_, ValueKind::Target)) => json!({ "type": "string" }),
    };
    let mut help = flag.help.to_owned();
    if flag.for_agents {
        help.push_str(" (default true)");
    }
    schema["description"] = Value::from(help);
    schema
}

const DIR_HELP: &str = "the app's drop-box directory (default: the server's --dir, $WINIT_AUTOMATION_DIR or target/winit-automation)";

/// The positional arguments a tool takes: every one but the literal `to` of `drag`.
fn tool_args(verb: Verb) -> impl Iterator<Item = &'static Arg> {
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

fn apps_tool() -> Tool {
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

/// A switch the table turns on for agents, unless the call set it or set the flag it excludes.
fn agent_default(verb: Verb, flag: &Flag, args: &JsonObject) -> bool {
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
fn invocation(
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
                    inv.word(word);
                }
            }
            (ArgKind::Target | ArgKind::Selector, _) => {
                inv.target(string(name, v)?)?;
            }
            (ArgKind::Text, _) => {
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
            (Some(v), Some((_, ValueKind::Target))) => Some(Some(string(name, v)?.to_owned())),
            (None, Some(_)) => None,
        };
        if let Some(value) = value {
            inv.flag(flag.name, value.as_deref())?;
        }
    }
    inv.default_timeout(timeout_ms);
    Ok((inv, dir))
}

/// An action's answer as short as `snapshot -i`: node lines (`@e..`, and diff lines `target @e..`,
/// `+ @e..`, `~ @e..`) without their `bounds=` and `actions=` fields, which `get` gives on
/// request. Lines are taken apart with the protocol's lexer and written back token by token, so
/// every other field, and text inside quotes, is kept as it is.
fn compact(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    for line in body.lines() {
        let rest = line.trim_start();
        let indent = &line[..line.len() - rest.len()];
        let tokens = match tokenize(rest) {
            Ok(t)
                if t.iter()
                    .take(2)
                    .any(|t| t.quoted.is_none() && t.bare.starts_with("@e")) =>
            {
                t
            }
            _ => {
                out.push_str(line);
                out.push('\n');
                continue;
            }
        };
        let kept: Vec<String> = tokens
            .iter()
            .filter(|t| !(t.bare.starts_with("bounds=") || t.bare.starts_with("actions=")))
            .map(Token::written)
            .collect();
        out.push_str(indent);
        out.push_str(&kept.join(" "));
        out.push('\n');
    }
    out
}

/// A tool's answer from the app's response: its body as text, or a tool error with the code,
/// message and hint (and the error's extra lines).
fn answer(response: &Response) -> CallToolResult {
    match &response.outcome {
        Outcome::Ok { body } => {
            let text = if body.is_empty() { "ok" } else { body.as_str() };
            CallToolResult::success(vec![ContentBlock::text(text)])
        }
        Outcome::Error { .. } => CallToolResult::error(vec![ContentBlock::text(
            response.error_text().unwrap_or_default(),
        )]),
    }
}

/// The PNG a screenshot's answer names, read from the app's directory.
fn screenshot_png(dir: &Path, response: &Response) -> Option<Vec<u8>> {
    if !response.is_ok() {
        return None;
    }
    let file = winit_automation::client::screenshot_path(dir, response.body()).ok()?;
    std::fs::read(file).ok()
}

impl Server {
    /// Sends a verb's command and answers with the response; a screenshot's file comes back as an
    /// image, and what an action changed is said as briefly as the interactive snapshot.
    async fn call(&self, verb: Verb, args: &JsonObject) -> CallToolResult {
        let (inv, dir) = match invocation(verb, args, self.timeout_ms) {
            Ok(v) => v,
            Err(e) => return refused(e.coded()),
        };
        let command: Command = match inv.command() {
            Ok(c) => c,
            Err(e) => return refused(&e),
        };
        let short = verb.flag("settle").is_some() || verb == Verb::Settle;
        let dir = dir.map(PathBuf::from).or_else(|| self.dir.clone());
        let wait = command
            .held_in_app_ms()
            .map_or(self.timeout_ms, |ms| ms.max(self.timeout_ms) + 2_000);
        // The client library blocks: on the blocking pool, so other requests go on meanwhile.
        let sent = tokio::task::spawn_blocking(move || {
            let client = Client::connect(dir.as_deref())
                .map_err(|e| refused(&e))?
                .with_timeout(Duration::from_millis(wait));
            let response = client.send(&command).map_err(|e| refused(&e))?;
            let image = (verb == Verb::Screenshot)
                .then(|| screenshot_png(client.dir(), &response))
                .flatten();
            Ok::<_, CallToolResult>((response, image))
        })
        .await;
        match sent {
            Ok(Ok((mut response, image))) => {
                if short && let Outcome::Ok { body } = &mut response.outcome {
                    *body = compact(body);
                }
                let mut result = answer(&response);
                if let Some(png) = image {
                    let data = base64::engine::general_purpose::STANDARD.encode(png);
                    result.content.push(ContentBlock::image(data, "image/png"));
                }
                result
            }
            Ok(Err(refusal)) => refusal,
            Err(e) => failed(
                "internal",
                &format!("the request's task failed: {e}"),
                None,
                "",
            ),
        }
    }

    /// `apps`: the live apps directly under a directory.
    fn apps(&self, args: &JsonObject) -> CallToolResult {
        let root = match args.get("root").map(|v| string("root", v)).transpose() {
            Ok(root) => root
                .map(PathBuf::from)
                .or_else(|| self.dir.clone())
                .unwrap_or_else(|| PathBuf::from(".")),
            Err(e) => return refused(&e),
        };
        let mut found: Vec<String> = std::fs::read_dir(&root)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .chain(std::iter::once(root.clone()))
            .filter(|p| Client::connect(Some(p)).is_ok())
            .map(|p| p.display().to_string())
            .collect();
        found.sort();
        found.dedup();
        if found.is_empty() {
            return failed(
                ClientCode::NotRunning.as_str(),
                &format!("no live app under {}", quote(&root.display().to_string())),
                Some("start the app with the automation feature; its directory holds ready.txt"),
                "",
            );
        }
        CallToolResult::success(vec![ContentBlock::text(found.join("\n") + "\n")])
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("winit-automation", env!("CARGO_PKG_VERSION"))
                    .with_title("winit-automation"),
            )
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let result = match Verb::parse(&request.name) {
            Some(verb) => self.call(verb, &args).await,
            None if request.name == "apps" => self.apps(&args),
            None => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "no tool {}; the tools are {}, apps",
                        request.name,
                        Verb::ALL
                            .iter()
                            .map(|v| v.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    None,
                ));
            }
        };
        Ok(result.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn node_lines_lose_bounds_and_actions_and_nothing_else() {
        let body = "frame 12\npath pointer\ntarget @e6 button \"Submit\" bounds=24,204,120x36 actions=click,focus\nhit verified\n~ @e3 textbox \"Name\" value=\"a bounds=1 \\\" x\" focused bounds=1,2,3x4 actions=focus\n+ @e9 text value=\"Done\" bounds=0,0,1x1\n[2 items below]\n";
        assert_eq!(
            compact(body),
            "frame 12\npath pointer\ntarget @e6 button \"Submit\"\nhit verified\n~ @e3 textbox \"Name\" value=\"a bounds=1 \\\" x\" focused\n+ @e9 text value=\"Done\"\n[2 items below]\n"
        );
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
