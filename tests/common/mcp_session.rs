//! `winit-automation mcp` as the tests drive it: the server spawned over stdio on a drop-box and
//! talked to by an off-the-shelf MCP client (rmcp's own), its tools called and their text read.

use std::path::Path;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock};
use rmcp::transport::TokioChildProcess;

use super::cli_binary;

/// An MCP session with the server.
pub type Session = rmcp::service::RunningService<rmcp::RoleClient, ()>;

/// Starts `winit-automation mcp --dir DIR --caps all` (every tool: the tests drive them all;
/// mcp_python.rs checks the default list) and its session.
pub async fn start(dir: &Path) -> Session {
    let mut server = tokio::process::Command::new(cli_binary::cli());
    server
        .arg("mcp")
        .arg("--dir")
        .arg(dir)
        .args(["--caps", "all"]);
    ().serve(TokioChildProcess::new(server).expect("the server starts"))
        .await
        .expect("the MCP session starts")
}

/// Calls a tool; its result, an error included.
pub async fn call(session: &Session, tool: &str, args: serde_json::Value) -> CallToolResult {
    session
        .call_tool(
            CallToolRequestParams::new(tool.to_owned())
                .with_arguments(args.as_object().unwrap().clone()),
        )
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

/// The text of a tool's result.
pub fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| match c {
            ContentBlock::Text(t) => Some(t.text.clone()),
            _ => None,
        })
        .collect()
}

/// Calls a tool that must succeed; its text.
pub async fn tool(session: &Session, name: &str, args: serde_json::Value) -> String {
    let result = call(session, name, args).await;
    let text = text(&result);
    assert_ne!(result.is_error, Some(true), "{name}: {text}");
    text
}
