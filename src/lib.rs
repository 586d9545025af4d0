//! The workspace's end-to-end package: the tests under `tests/`, the examples under `examples/`
//! and the benches under `benches/` drive real apps through every front end (the CLI, the MCP server,
//! the harness, scripts, raw command files). It exports nothing and is not published; the crates
//! themselves live under `crates/`.
