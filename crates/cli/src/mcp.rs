//! `winit-automation mcp`: the protocol's verbs as MCP tools over stdio (feature `mcp`).
//!
//! The tools come from the verb table (`protocol::Verb::spec`): one per verb of the capability
//! groups the server lists (`core`, and what `--caps` adds: `caps.rs`), named after it, described
//! by its one sentence (`help` gives its details: `help.rs`), with one argument per positional
//! argument (by its `field`) and per flag (by its word: `interactive` for `-i`), each described by
//! the table's help. A call's arguments become a `protocol::Invocation`, checked by the same parser
//! as a command line, so a tool refuses what the CLI refuses, with the same error and hint. Beside
//! them, `apps` lists the live apps under a directory and `help` says what the list leaves out.
//!
//! Agents act, then look: the switches the table marks `for_agents` (`settle` on actions, `-i` and
//! `force` on snapshots) are on unless the call says `false`. Scalars that hosts send as strings
//! (`"true"`, `"40"`) are read as the schema's type; anything else is refused naming the argument
//! and the type. Every verb's tool takes an optional `dir`: the app's drop-box (else the server's `--dir`,
//! `$WINIT_AUTOMATION_DIR` or `target/winit-automation`), so one session can drive several apps.

use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use winit_automation_client::Client;
use winit_automation_protocol::{
    ClientCode, Coded, Command, NodeLine, Outcome, Response, Token, Verb, quote, tokenize,
};

mod call;
mod caps;
mod help;
mod tools;
mod wording;

use call::{invocation, string};
pub(crate) use caps::Caps;
pub(crate) use help::{Server as HelpServer, help};
use tools::Local;
pub(crate) use tools::tools;
use wording::{as_arguments, body_as_arguments};

/// What the server tells a host about itself, in `initialize`.
const INSTRUCTIONS: &str = "Drives a running winit/wgpu or egui app through its drop-box directory. \
Start with `snapshot`: one line per actionable node, `@eN role \"name\"` and only non-default state. \
A ref (@e12) names one node for its lifetime: a ref whose node is gone or changed is refused \
(stale_ref), never moved to another. A target is a ref, a point x,y in logical pixels, or selector \
terms (role=button name=\"Save\"). Actions answer once the UI settled, with what changed; an \
answer that is no error means the input reached that node, a refusal names the true reason. since=<frame of your last \
snapshot> answers \"unchanged since frame N\" when nothing changed; snapshots are capped \
(max-bytes). `help` gives a tool's details; the server's --caps lists more tools (gestures, app, \
clock, audit, trace). `dir` is the app's directory (default: the server's); `apps` lists them.";

/// `mcp`'s own options: which tools it lists, and what its answers leave out.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct McpArgs {
    /// The capability groups to list beside core, comma-separated, or all: gestures, app,
    /// clock, audit, trace (docs/mcp.md lists their tools; the help tool too).
    #[arg(long, value_name = "GROUP,...", value_parser = Caps::parse, default_value = "core")]
    caps: Caps,
    /// The most bytes a snapshot answers with when the call names no max-bytes: whole lines, the
    /// outline of every window first, then one line saying what was left out (0: no cap).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_BYTES)]
    max_bytes: u64,
    /// Answer actions without the diff of what changed: they still wait for the UI to settle,
    /// and end with `[diff left out: N lines ...]`; `snapshot` shows the tree now.
    #[arg(long)]
    no_diffs: bool,
}

/// A snapshot's cap when neither the call nor the server's `--max-bytes` says: about 2,000
/// tokens, room for the gallery's busiest scene in the interactive projection.
const DEFAULT_MAX_BYTES: u64 = 8_000;

/// The server: where the apps are by default, how long a command may take, which tools it lists
/// and what its answers leave out.
#[derive(Debug, Clone)]
pub(crate) struct Server {
    dir: Option<PathBuf>,
    timeout_ms: u64,
    options: McpArgs,
}

/// Runs the server on stdin and stdout until the client goes away.
pub(crate) fn serve(dir: Option<PathBuf>, timeout_ms: u64, options: McpArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(async move {
        let server = Server {
            dir,
            timeout_ms,
            options,
        };
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

/// A tool error: `error <code>: <message>`, a `hint:` line when there is one, then extra lines;
/// the message and hint in this door's words (`wording.rs`).
fn failed(code: &str, message: &str, hint: Option<&str>, extra: &str) -> CallToolResult {
    let mut text = format!("error {code}: {}\n", as_arguments(message));
    if let Some(hint) = hint {
        text.push_str(&format!("hint: {}\n", as_arguments(hint)));
    }
    text.push_str(extra);
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// The one argument of the server's own tool, if the call gives it; refused when the call gives
/// another (`apps` takes `root`, not the verbs' `dir`) or a value that is no string.
fn local_argument(tool: Local, args: &JsonObject) -> Result<Option<&str>, CallToolResult> {
    let takes = tool.argument().0;
    if let Some(unknown) = args.keys().find(|k| k.as_str() != takes) {
        return Err(failed(
            ClientCode::BadToolArgument.as_str(),
            &format!("{} takes no argument {unknown}", tool.name()),
            Some(&format!("{} takes {takes}", tool.name())),
            "",
        ));
    }
    args.get(takes)
        .map(|v| string(takes, v))
        .transpose()
        .map_err(|e| refused(&e))
}

/// Any error of the crate as a tool error.
fn refused(e: &dyn Coded) -> CallToolResult {
    failed(e.code().as_str(), &e.message(), e.hint().as_deref(), "")
}

/// An action's answer as short as `snapshot -i`: node lines (`@e..`, and lines that carry one after
/// a word: `target @e..`, `+ @e..`, `~ @e..`, `scrolled @e.. by 0,228`) without their `bounds=` and
/// `actions=` fields, which `get` gives on request. A line is a node line when it reads as a
/// [`NodeLine`] (after its leading word, if it has one); its tokens, read with the protocol's
/// lexer, are then written back without those two fields, so every other token (a field a newer
/// app adds, `by 0,228`) and text inside quotes is kept as it is. Other lines are kept whole.
fn compact(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    for line in body.lines() {
        let rest = line.trim_start();
        let indent = &line[..line.len() - rest.len()];
        match node_tokens(rest) {
            Some(tokens) => {
                let kept: Vec<String> = tokens
                    .iter()
                    .filter(|t| {
                        t.quoted.is_some()
                            || !(t.bare.starts_with("bounds=") || t.bare.starts_with("actions="))
                    })
                    .map(Token::written)
                    .collect();
                out.push_str(indent);
                out.push_str(&kept.join(" "));
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// A settled action's answer without its diff (`mcp --no-diffs`): the lines up to `settled ...`,
/// then one that counts what was left out, or `no changes`. A `not_settled` refusal keeps its
/// diff: it says what kept the UI from settling.
fn without_diff(body: &str) -> String {
    let Some(at) = body.find("\nsettled frame ").map(|i| i + 1) else {
        return body.to_owned();
    };
    let end = body[at..].find('\n').map_or(body.len(), |i| at + i + 1);
    let (kept, diff) = body.split_at(end);
    let changes = diff.lines().filter(|l| *l != "no changes").count();
    if changes == 0 {
        return body.to_owned();
    }
    format!(
        "{kept}[diff left out: {changes} {} (the server's --no-diffs); snapshot shows the tree now]\n",
        if changes == 1 { "line" } else { "lines" }
    )
}

/// The tokens of a node line (one, or one after a leading word); `None` for any other line.
fn node_tokens(line: &str) -> Option<Vec<Token>> {
    let node = NodeLine::parse(line).is_some()
        || line
            .split_once(' ')
            .is_some_and(|(_, tail)| NodeLine::parse(tail).is_some());
    node.then(|| tokenize(line).ok()).flatten()
}

/// A tool's answer from the app's response, in this door's words (`wording.rs`): its body as
/// text, or a tool error with the code, message and hint (and the error's extra lines).
fn answer(response: &Response) -> CallToolResult {
    match &response.outcome {
        Outcome::Ok { body } if body.is_empty() => {
            CallToolResult::success(vec![ContentBlock::text("ok")])
        }
        Outcome::Ok { body } => {
            CallToolResult::success(vec![ContentBlock::text(body_as_arguments(body))])
        }
        Outcome::Error {
            code,
            message,
            hint,
            body,
        } => failed(
            code.as_str(),
            message,
            (!hint.is_empty()).then_some(hint.as_str()),
            &body_as_arguments(body),
        ),
    }
}

/// The PNG a screenshot's answer names, or an audit's frame with its findings marked
/// (`--screenshot LABEL`), read from the app's directory.
fn screenshot_png(dir: &Path, command: &Command, response: &Response) -> Option<Vec<u8>> {
    if !response.is_ok() {
        return None;
    }
    let file = match command {
        Command::Screenshot { .. } => {
            winit_automation_client::screenshot_path(dir, response.body()).ok()?
        }
        Command::Audit {
            screenshot: Some(label),
            ..
        } => dir.join(label.file_name()),
        _ => return None,
    };
    std::fs::read(file).ok()
}

impl Server {
    /// Sends a verb's command and answers with the response; a screenshot's file (and an audit's
    /// marked frame) comes back as an image, and what an action changed is said as briefly as the interactive snapshot.
    async fn call(&self, verb: Verb, args: &JsonObject) -> CallToolResult {
        // A snapshot's cap: the call's own (0: none, as the server's `--max-bytes 0`), else the
        // server's.
        let mut args = std::borrow::Cow::Borrowed(args);
        let cap = match args.get("max-bytes") {
            _ if verb != Verb::Snapshot => 0,
            Some(v) if *v == 0 || *v == "0" => {
                args.to_mut().remove("max-bytes");
                0
            }
            Some(_) => 0,
            None => self.options.max_bytes,
        };
        let (mut inv, dir) = match invocation(verb, &args, self.timeout_ms) {
            Ok(v) => v,
            Err(e) => return refused(e.coded()),
        };
        if cap > 0
            && let Err(e) = inv.flag("max-bytes", Some(&cap.to_string()))
        {
            return refused(&e);
        }
        let command: Command = match inv.command() {
            Ok(c) => c,
            Err(e) => return refused(&e),
        };
        let short = verb.flag("settle").is_some() || verb == Verb::Settle;
        let dir = dir.map(PathBuf::from).or_else(|| self.dir.clone());
        let wait = command.held_in_app_ms().map_or(self.timeout_ms, |ms| {
            ms.max(self.timeout_ms).saturating_add(2_000)
        });
        // The client library blocks: on the blocking pool, so other requests go on meanwhile.
        let sent = tokio::task::spawn_blocking(move || {
            let client = Client::connect(dir.as_deref())
                .map_err(|e| refused(&e))?
                .with_timeout(Duration::from_millis(wait));
            let response = client.send(&command).map_err(|e| refused(&e))?;
            let image = screenshot_png(client.dir(), &command, &response);
            Ok::<_, CallToolResult>((response, image))
        })
        .await;
        match sent {
            Ok(Ok((mut response, image))) => {
                // A `not_settled` refusal's diff is as brief as a settled answer's.
                match &mut response.outcome {
                    Outcome::Ok { body } if short => {
                        *body = compact(body);
                        if self.options.no_diffs && verb != Verb::Settle {
                            *body = without_diff(body);
                        }
                    }
                    Outcome::Error { body, .. } if short => *body = compact(body),
                    _ => {}
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
        let root = match local_argument(Local::Apps, args) {
            Ok(root) => root
                .map(PathBuf::from)
                .or_else(|| self.dir.clone())
                .unwrap_or_else(|| PathBuf::from(".")),
            Err(refusal) => return refusal,
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

    /// `help`: a tool's details, or the groups.
    fn help(&self, args: &JsonObject) -> CallToolResult {
        let topic = match local_argument(Local::Help, args) {
            Ok(topic) => topic,
            Err(refusal) => return refusal,
        };
        let server = HelpServer {
            caps: &self.options.caps,
            max_bytes: self.options.max_bytes,
        };
        match help(topic, &server) {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(e) => refused(&e),
        }
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
        Ok(ListToolsResult::with_all_items(tools(&self.options.caps)))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let result = match Verb::parse(&request.name) {
            Some(verb) if self.options.caps.has(verb.group()) => self.call(verb, &args).await,
            // A tool the list does not show: said so, never run behind the host's back.
            Some(verb) => failed(
                ClientCode::NotListed.as_str(),
                &format!(
                    "{verb} is in the {} group, which this server does not list",
                    verb.group()
                ),
                Some(&format!(
                    "start the server with {}",
                    self.options.caps.option_with(verb.group())
                )),
                "",
            ),
            None => match Local::parse(&request.name) {
                Some(Local::Apps) => self.apps(&args),
                Some(Local::Help) => self.help(&args),
                None => {
                    let listed: Vec<&str> = self.options.caps.verbs().map(|v| v.as_str()).collect();
                    return Err(ErrorData::invalid_params(
                        format!(
                            "no tool {}; the tools are {}, apps, help",
                            request.name,
                            listed.join(", ")
                        ),
                        None,
                    ));
                }
            },
        };
        Ok(result.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes a host reads before its first call: `initialize`'s result and `tools/list`'s.
    fn first_bytes(caps: &str) -> usize {
        let server = Server {
            dir: None,
            timeout_ms: 10_000,
            options: McpArgs {
                caps: Caps::parse(caps).unwrap(),
                max_bytes: DEFAULT_MAX_BYTES,
                no_diffs: false,
            },
        };
        let init = serde_json::to_string(&server.get_info()).unwrap();
        let list = ListToolsResult::with_all_items(tools(&server.options.caps));
        init.len() + serde_json::to_string(&list).unwrap().len()
    }

    #[test]
    fn the_core_tools_and_instructions_cost_under_12_kb_and_all_lists_every_verb() {
        let core = first_bytes("core");
        let all = first_bytes("all");
        eprintln!("initialize + tools/list: core {core} bytes, all {all} bytes");
        assert!(core < 12_000, "{core} bytes");
        assert!(all > core);
        assert_eq!(
            tools(&Caps::parse("all").unwrap()).len(),
            Verb::ALL.len() + 2
        );
    }

    #[test]
    fn without_diffs_an_action_says_how_many_lines_it_left_out() {
        let body = "frame 3\ntarget @e6 button \"Go\"\nhit verified\nsettled frame 9 after 6 frames, unchanged for 3\n~ @e2 checkbox \"A\" checked\n+ 3 unnamed groups under @e1\n";
        assert_eq!(
            without_diff(body),
            "frame 3\ntarget @e6 button \"Go\"\nhit verified\nsettled frame 9 after 6 frames, unchanged for 3\n[diff left out: 2 lines (the server's --no-diffs); snapshot shows the tree now]\n"
        );
        let unchanged = "frame 3\nsettled frame 9 after 6 frames, unchanged for 3\nno changes\n";
        assert_eq!(without_diff(unchanged), unchanged);
        assert_eq!(
            without_diff("frame 3\nhit verified\n"),
            "frame 3\nhit verified\n"
        );
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
    fn a_scrolled_line_keeps_its_offset_and_an_unknown_field_is_kept() {
        let body = "scrolled @e5 scrollview \"Files\" bounds=0,0,200x100 by 0,228\n@e6 button \"Go\" newer=1 actions=click\n";
        assert_eq!(
            compact(body),
            "scrolled @e5 scrollview \"Files\" by 0,228\n@e6 button \"Go\" newer=1\n"
        );
    }

    #[test]
    fn quoted_text_that_looks_like_a_node_line_or_a_field_is_kept() {
        let body = "warning \"@e3 button bounds=1,2,3x4\"\n  @e5 button \"a @e9 b\" value=\"actions=x bounds=1,2,3x4\" bounds=1,2,3x4 actions=click\n- @e7 text \"@e1 bounds=0,0,1x1\"\n";
        assert_eq!(
            compact(body),
            "warning \"@e3 button bounds=1,2,3x4\"\n  @e5 button \"a @e9 b\" value=\"actions=x bounds=1,2,3x4\"\n- @e7 text \"@e1 bounds=0,0,1x1\"\n"
        );
    }

    #[test]
    fn an_audit_with_a_screenshot_label_comes_back_with_its_marked_frame() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("screenshot-a11y.png"), b"png bytes").unwrap();
        let body = "frame 3\naudit window=1 findings=0 controls=1 texts=0 unmeasured=0 images=0\n";
        let ok = Response::ok(1, Some(Verb::Audit), body);
        let marked = Command::parse("audit --screenshot a11y").unwrap();
        assert_eq!(
            screenshot_png(dir.path(), &marked, &ok).as_deref(),
            Some(&b"png bytes"[..])
        );
        let plain = Command::parse("audit").unwrap();
        assert_eq!(screenshot_png(dir.path(), &plain, &ok), None);
        let other = Command::parse("audit --screenshot other").unwrap();
        assert_eq!(screenshot_png(dir.path(), &other, &ok), None);
    }
}
