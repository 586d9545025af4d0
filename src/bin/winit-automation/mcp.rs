//! `winit-automation mcp`: the CLI's verbs as MCP tools over stdio (feature `mcp`).
//!
//! Each tool takes the CLI subcommand's arguments by the same names, builds the same protocol
//! command (`build::build`), sends it with the client library and answers with the app's response
//! as text; an app's error is a tool error carrying its code, message and hint. `screenshot`
//! answers with the PNG as image content. Every tool takes an optional `dir`: the app's drop-box
//! (else the server's `--dir`, `$WINIT_AUTOMATION_DIR` or `target/winit-automation`), so one
//! session can drive several apps; `apps` lists the live ones under a directory.

use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine as _;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ServiceExt, schemars, tool, tool_router};
use serde::Deserialize;
use winit_automation::client::Client;
use winit_automation::protocol::{Outcome, Response};

use super::args::{Act, Sub};
use super::build::{Outgoing, build};

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

/// A tool's answer from the app's response: its body as text, or a tool error with the code,
/// message and hint (and the error's extra lines).
fn answer(response: &Response) -> CallToolResult {
    match &response.outcome {
        Outcome::Ok { body } => {
            let text = if body.is_empty() { "ok" } else { body.as_str() };
            CallToolResult::success(vec![ContentBlock::text(text)])
        }
        Outcome::Error {
            code,
            message,
            hint,
            body,
        } => failed(code, message, Some(hint), body),
    }
}

/// An action's answer as short as `snapshot -i`: node lines (`target @e..`, `+ @e..`, `~ @e..`)
/// without their `bounds=` and `actions=` fields, which `get` gives on request. The other lines,
/// and text inside quotes, are kept as they are.
fn compact(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    for line in body.lines() {
        let node = line.split(' ').take(2).any(|w| w.starts_with("@e"));
        if !node {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let (mut quoted, mut escaped, mut skipping) = (false, false, false);
        let mut rest = line;
        while let Some(c) = rest.chars().next() {
            let len = c.len_utf8();
            if !quoted && c == ' ' {
                let word = &rest[1..];
                skipping = word.starts_with("bounds=") || word.starts_with("actions=");
            }
            if !skipping {
                out.push(c);
            }
            match c {
                _ if escaped => escaped = false,
                '\\' if quoted => escaped = true,
                '"' => quoted = !quoted,
                _ => {}
            }
            rest = &rest[len..];
        }
        out.push('\n');
    }
    out
}

/// A tool error: `error <code>: <message>`, a `hint:` line when there is one, then the error's
/// extra lines. The app's refusals and failures before it answered (no app, a malformed command,
/// a timeout) alike.
fn failed(code: &str, message: &str, hint: Option<&str>, extra: &str) -> CallToolResult {
    let mut text = format!("error {code}: {message}\n");
    if let Some(hint) = hint {
        text.push_str(&format!("hint: {hint}\n"));
    }
    text.push_str(extra);
    CallToolResult::error(vec![ContentBlock::text(text)])
}

impl Server {
    fn dir(&self, dir: Option<String>) -> Option<PathBuf> {
        dir.map(PathBuf::from).or_else(|| self.dir.clone())
    }

    /// Builds the CLI subcommand's protocol command, sends it and answers with the response;
    /// a screenshot's file comes back as an image.
    async fn run(&self, dir: Option<String>, sub: Sub, timeout_ms: Option<u64>) -> CallToolResult {
        // What an action changed is said as briefly as the interactive snapshot.
        let short = matches!(
            sub,
            Sub::Click { .. }
                | Sub::Hover { .. }
                | Sub::Drag { .. }
                | Sub::Scroll { .. }
                | Sub::Type { .. }
                | Sub::Fill { .. }
                | Sub::Key { .. }
                | Sub::Action { .. }
                | Sub::Focus { .. }
                | Sub::Resize { .. }
                | Sub::Settle { .. }
        );
        let dir = self.dir(dir);
        let timeout = timeout_ms.unwrap_or(self.timeout_ms);
        let outgoing = match build(&sub, timeout) {
            Ok(o) => o,
            Err(e) => return failed(e.code().as_str(), e.message(), Some(e.hint()), ""),
        };
        let screenshot = matches!(sub, Sub::Screenshot { .. });
        // The client library blocks: on the blocking pool, so other requests go on meanwhile.
        let sent = tokio::task::spawn_blocking(move || {
            let client = Client::connect(dir.as_deref())
                .map_err(|e| (e.to_string(), e.hint()))?
                // `--settle` and `wait` time out inside the app: room for their answer.
                .with_timeout(Duration::from_millis(timeout.saturating_add(2_000)));
            let response = match &outgoing {
                Outgoing::Command(c) => client.send(c),
                Outgoing::Raw(line) => client.send_line(line),
            }
            .map_err(|e| (e.to_string(), e.hint()))?;
            let image = screenshot
                .then(|| screenshot_png(client.dir(), &response))
                .flatten();
            Ok::<_, (String, Option<String>)>((response, image))
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
            Ok(Err((message, hint))) => failed("no_answer", &message, hint.as_deref(), ""),
            Err(e) => failed(
                "internal",
                &format!("the request's task failed: {e}"),
                None,
                "",
            ),
        }
    }
}

/// The PNG a screenshot's answer names (`file screenshot-LABEL.png`), read from the app's
/// directory.
fn screenshot_png(dir: &Path, response: &Response) -> Option<Vec<u8>> {
    if !response.is_ok() {
        return None;
    }
    let file = winit_automation::client::screenshot_path(dir, response.body()).ok()?;
    std::fs::read(file).ok()
}

fn act(settle: Option<bool>) -> Act {
    Act {
        // Agents act, then look: by default an action answers once the UI settled, with the diff.
        settle: settle.unwrap_or(true),
        frames: None,
    }
}

// ---- Tool arguments. Doc comments become the schemas' descriptions. ----

/// Only the app's directory.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct DirArgs {
    /// The app's drop-box directory (default: the server's --dir, $WINIT_AUTOMATION_DIR or
    /// target/winit-automation).
    pub dir: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct AppsArgs {
    /// The directory whose subdirectories are searched for live apps (default: the server's
    /// --dir, else the current directory).
    pub root: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct SnapshotArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// The interactive projection: one short line per actionable node (default true).
    pub interactive: Option<bool>,
    /// Every node, nothing hidden (instead of interactive).
    pub raw: Option<bool>,
    /// Levels below the scope to show.
    pub depth: Option<u32>,
    /// Only this subtree (a ref like @e12 or a selector).
    pub scope: Option<String>,
    /// The frame= of the snapshot you last read: "unchanged since frame N" when nothing changed.
    pub since: Option<u64>,
    /// With since: only the lines that changed since that frame.
    pub diff: Option<bool>,
    /// Add each node's bounds (logical pixels) to interactive lines.
    pub bounds: Option<bool>,
    /// Add each node's actions to interactive lines.
    pub actions: Option<bool>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct SelectorArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// Selector terms, ANDed: role=button name="Save" (name~= contains, text= / text~= name or
    /// text value, id=, nth=N).
    pub selector: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct TargetArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// A ref from a snapshot (@e12), a point in logical pixels (120,48) or a selector.
    pub target: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct WaitArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// Selector terms to wait for.
    pub selector: String,
    /// Wait until nothing matches instead.
    pub gone: Option<bool>,
    /// How long to wait, in milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct SettleArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// How many unchanged frames count as settled.
    pub frames: Option<u32>,
    /// How long to wait, in milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct ClickArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// A ref (@e12), a point (120,48) or a selector.
    pub target: String,
    /// A double click.
    pub double: Option<bool>,
    /// left (default), right or middle.
    pub button: Option<String>,
    /// Answer once the UI settled, with what changed (default true).
    pub settle: Option<bool>,
    /// How long to wait, in milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct ActTargetArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// A ref (@e12), a point (120,48) or a selector.
    pub target: String,
    /// Answer once the UI settled, with what changed (default true).
    pub settle: Option<bool>,
    /// How long to wait, in milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct TextArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// The text to type into the focused node.
    pub text: String,
    /// Answer once the UI settled, with what changed (default true).
    pub settle: Option<bool>,
    /// How long to wait, in milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct FillArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// The text field: a ref, a point or a selector.
    pub target: String,
    /// Its new text (replaces what it held).
    pub text: String,
    /// Answer once the UI settled, with what changed (default true).
    pub settle: Option<bool>,
    /// How long to wait, in milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct KeyArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// Key chords pressed in order: Enter, ctrl+a, shift+Tab, ...
    pub chords: Vec<String>,
    /// Answer once the UI settled, with what changed (default true).
    pub settle: Option<bool>,
    /// How long to wait, in milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct ScrollArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// What to scroll: a ref, a point or a selector.
    pub target: String,
    /// Horizontal wheel distance in logical pixels.
    pub dx: f64,
    /// Vertical wheel distance in logical pixels (positive scrolls down).
    pub dy: f64,
    /// Answer once the UI settled, with what changed (default true).
    pub settle: Option<bool>,
    /// How long to wait, in milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct DragArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// Where the drag starts: a ref, a point or a selector.
    pub from: String,
    /// Where it ends: a ref, a point or a selector.
    pub to: String,
    /// Answer once the UI settled, with what changed (default true).
    pub settle: Option<bool>,
    /// How long to wait, in milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct ActionArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// A ref, a point or a selector.
    pub target: String,
    /// The AccessKit action: click, focus, set_value, increment, decrement, expand, collapse, ...
    pub name: String,
    /// The action's value (set_value's number or text).
    pub value: Option<String>,
    /// Answer once the UI settled, with what changed (default true).
    pub settle: Option<bool>,
    /// How long to wait, in milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct ResizeArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// The new width in logical pixels.
    pub width: u32,
    /// The new height in logical pixels.
    pub height: u32,
    /// Answer once the UI settled, with what changed (default true).
    pub settle: Option<bool>,
    /// How long to wait, in milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct ScreenshotArgs {
    /// The app's drop-box directory (default: the server's --dir).
    pub dir: Option<String>,
    /// The file label: screenshot-LABEL.png in the app's directory (default latest).
    pub label: Option<String>,
    /// Crop to this node: a ref or a selector.
    #[serde(rename = "ref")]
    pub crop: Option<String>,
}

#[tool_router(server_handler)]
impl Server {
    #[tool(
        description = "The app's handshake facts: protocol, name, pid, frame, queue. Start here."
    )]
    async fn status(&self, Parameters(a): Parameters<DirArgs>) -> CallToolResult {
        self.run(a.dir, Sub::Status, None).await
    }

    #[tool(
        description = "The live apps (drop-box directories with a ready.txt) directly under a directory, one path each: pass one as `dir` to the other tools."
    )]
    async fn apps(&self, Parameters(a): Parameters<AppsArgs>) -> CallToolResult {
        let root = a
            .root
            .map(PathBuf::from)
            .or_else(|| self.dir.clone())
            .unwrap_or_else(|| PathBuf::from("."));
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
                "not_found",
                &format!("no live app under {}", root.display()),
                Some("start the app with the automation feature; its directory holds ready.txt"),
                "",
            );
        }
        CallToolResult::success(vec![ContentBlock::text(found.join("\n") + "\n")])
    }

    #[tool(description = "The app's windows: id, title, size, scale factor, focus.")]
    async fn windows(&self, Parameters(a): Parameters<DirArgs>) -> CallToolResult {
        self.run(a.dir, Sub::Windows, None).await
    }

    #[tool(
        description = "The UI as text with refs (@eN) to act on. By default the interactive projection: one short line per actionable node, `@eN role \"name\"` and only non-default state. Pass since=<frame= of your last snapshot> (and diff=true) to get only what changed."
    )]
    async fn snapshot(&self, Parameters(a): Parameters<SnapshotArgs>) -> CallToolResult {
        let raw = a.raw.unwrap_or(false);
        let sub = Sub::Snapshot {
            interactive: !raw && a.interactive.unwrap_or(true),
            raw,
            depth: a.depth,
            scope: a.scope,
            // An agent asked for it: the tree, unless it says which frame it saw.
            force: a.since.is_none(),
            diff: a.diff.unwrap_or(false),
            bounds: a.bounds.unwrap_or(false),
            actions: a.actions.unwrap_or(false),
            since: a.since,
        };
        self.run(a.dir, sub, None).await
    }

    #[tool(
        description = "The refs of every node matching a selector (role=, name=, name~=, text=, text~=, id=, nth=)."
    )]
    async fn find(&self, Parameters(a): Parameters<SelectorArgs>) -> CallToolResult {
        let sub = Sub::Find {
            selector: vec![a.selector],
        };
        self.run(a.dir, sub, None).await
    }

    #[tool(
        description = "Every field of one node: its line with bounds and actions, window, node id, parent, children."
    )]
    async fn get(&self, Parameters(a): Parameters<TargetArgs>) -> CallToolResult {
        let sub = Sub::Get {
            target: vec![a.target],
        };
        self.run(a.dir, sub, None).await
    }

    #[tool(
        description = "Waits until a node matching the selector exists (or, with gone=true, none does)."
    )]
    async fn wait(&self, Parameters(a): Parameters<WaitArgs>) -> CallToolResult {
        let sub = Sub::Wait {
            selector: vec![a.selector],
            gone: a.gone.unwrap_or(false),
        };
        self.run(a.dir, sub, a.timeout_ms).await
    }

    #[tool(
        description = "Waits until the UI is unchanged for some frames and nothing animates; answers with what changed."
    )]
    async fn settle(&self, Parameters(a): Parameters<SettleArgs>) -> CallToolResult {
        let sub = Sub::Settle { frames: a.frames };
        self.run(a.dir, sub, a.timeout_ms).await
    }

    #[tool(
        description = "Clicks a node (or a point). `ok` means the press reached that node (`hit verified`); a refusal names the true reason (covered, offscreen, disabled, missed). Answers with what changed once the UI settled."
    )]
    async fn click(&self, Parameters(a): Parameters<ClickArgs>) -> CallToolResult {
        let button = a.button.as_deref().unwrap_or("left");
        if !matches!(button, "left" | "right" | "middle") {
            return failed(
                "bad_argument",
                &format!("unknown button {button:?}"),
                Some("button is left, right or middle"),
                "",
            );
        }
        let sub = Sub::Click {
            target: vec![a.target],
            double: a.double.unwrap_or(false),
            right: button == "right",
            middle: button == "middle",
            act: act(a.settle),
        };
        self.run(a.dir, sub, a.timeout_ms).await
    }

    #[tool(description = "Moves the pointer over a node (tooltips, hover states).")]
    async fn hover(&self, Parameters(a): Parameters<ActTargetArgs>) -> CallToolResult {
        let sub = Sub::Hover {
            target: vec![a.target],
            act: act(a.settle),
        };
        self.run(a.dir, sub, a.timeout_ms).await
    }

    #[tool(
        description = "Drags from one node or point to another (sliders, windows by their title bar, drag and drop)."
    )]
    async fn drag(&self, Parameters(a): Parameters<DragArgs>) -> CallToolResult {
        let mut args = vec![a.from];
        args.push("to".into());
        args.push(a.to);
        let sub = Sub::Drag {
            args,
            act: act(a.settle),
        };
        self.run(a.dir, sub, a.timeout_ms).await
    }

    #[tool(
        description = "Turns the mouse wheel over a node: dx, dy in logical pixels (positive dy scrolls down)."
    )]
    async fn scroll(&self, Parameters(a): Parameters<ScrollArgs>) -> CallToolResult {
        let mut args = vec![a.target];
        args.push(a.dx.to_string());
        args.push(a.dy.to_string());
        let sub = Sub::Scroll {
            args,
            act: act(a.settle),
        };
        self.run(a.dir, sub, a.timeout_ms).await
    }

    #[tool(
        name = "type",
        description = "Types text into the focused node; refused (no_focus) when nothing has the focus: use fill to focus and type."
    )]
    async fn type_text(&self, Parameters(a): Parameters<TextArgs>) -> CallToolResult {
        let sub = Sub::Type {
            text: a.text,
            act: act(a.settle),
        };
        self.run(a.dir, sub, a.timeout_ms).await
    }

    #[tool(description = "Focuses a text field and replaces its text.")]
    async fn fill(&self, Parameters(a): Parameters<FillArgs>) -> CallToolResult {
        let mut args = vec![a.target];
        args.push(a.text);
        let sub = Sub::Fill {
            args,
            act: act(a.settle),
        };
        self.run(a.dir, sub, a.timeout_ms).await
    }

    #[tool(
        description = "Presses key chords in order (Enter, ctrl+a, shift+Tab) on the focused node or the window."
    )]
    async fn key(&self, Parameters(a): Parameters<KeyArgs>) -> CallToolResult {
        let sub = Sub::Key {
            chords: a.chords,
            act: act(a.settle),
        };
        self.run(a.dir, sub, a.timeout_ms).await
    }

    #[tool(
        description = "Performs an AccessKit action on a node (click, focus, set_value with a value, increment, decrement, expand, collapse, ...); only the actions its line lists."
    )]
    async fn action(&self, Parameters(a): Parameters<ActionArgs>) -> CallToolResult {
        let mut args = vec![a.target];
        args.push(a.name);
        let sub = Sub::Action {
            args,
            value: a.value,
            act: act(a.settle),
        };
        self.run(a.dir, sub, a.timeout_ms).await
    }

    #[tool(description = "Gives a node the keyboard focus.")]
    async fn focus(&self, Parameters(a): Parameters<ActTargetArgs>) -> CallToolResult {
        let sub = Sub::Focus {
            target: vec![a.target],
            act: act(a.settle),
        };
        self.run(a.dir, sub, a.timeout_ms).await
    }

    #[tool(description = "Resizes the window's content to width x height logical pixels.")]
    async fn resize(&self, Parameters(a): Parameters<ResizeArgs>) -> CallToolResult {
        let sub = Sub::Resize {
            width: a.width,
            height: a.height,
            act: act(a.settle),
        };
        self.run(a.dir, sub, a.timeout_ms).await
    }

    #[tool(
        description = "The exact rendered frame as a PNG image (and its file in the app's directory); ref crops it to one node."
    )]
    async fn screenshot(&self, Parameters(a): Parameters<ScreenshotArgs>) -> CallToolResult {
        let sub = Sub::Screenshot {
            label: a.label.unwrap_or_else(|| "latest".into()),
            crop: a.crop,
            out: None,
        };
        self.run(a.dir, sub, None).await
    }

    #[tool(description = "Asks the app to exit; answered before it goes.")]
    async fn quit(&self, Parameters(a): Parameters<DirArgs>) -> CallToolResult {
        self.run(a.dir, Sub::Quit, None).await
    }
}

#[cfg(test)]
mod tests {
    use super::compact;

    #[test]
    fn node_lines_lose_bounds_and_actions_and_nothing_else() {
        let body = "frame 12\npath pointer\ntarget @e6 button \"Submit\" bounds=24,204,120x36 actions=click,focus\nhit verified\n~ @e3 textbox \"Name\" value=\"a bounds=1 \\\" x\" focused bounds=1,2,3x4 actions=focus\n+ @e9 text value=\"Done\" bounds=0,0,1x1\n[2 items below]\n";
        assert_eq!(
            compact(body),
            "frame 12\npath pointer\ntarget @e6 button \"Submit\"\nhit verified\n~ @e3 textbox \"Name\" value=\"a bounds=1 \\\" x\" focused\n+ @e9 text value=\"Done\"\n[2 items below]\n"
        );
    }
}
