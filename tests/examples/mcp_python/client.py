"""An MCP session driven by the official `mcp` Python SDK (2.x), for tests/examples/mcp_python.rs.

Usage: client.py SERVER [ARG...] < PLAN

Spawns SERVER over stdio with the SDK's own `stdio_client`, initializes with the SDK's
`ClientSession`, lists every tool (following `next_cursor`), then makes each call in PLAN, a JSON
array of {"tool": NAME, "arguments": {...}}, in order. It prints one JSON object per line on
stdout, read back from the SDK's parsed (snake_case) models:

    {"step": "initialize", "protocol_version": ..., "server_info": {"name", "version"}, "instructions": ..., "bytes": N}
    {"step": "tools", "tools": [{"name", "description", "input_schema"}, ...], "bytes": N}
    {"step": "call", "tool": ..., "arguments": ..., "is_error": ..., "text": ..., "images": [...]}

`bytes` is the size of the result as JSON, as the SDK serializes its model (by alias, without
unset fields): what a host reads before its first call.

The test asserts on these. A failure of the session itself (the SDK refusing a message, a
timeout) is an exception: a traceback on stderr and a non-zero exit.
"""

import json
import sys

import anyio
import mcp.types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

# Each request's own limit, and the whole session's: a hung server fails the test, never hangs it.
REQUEST_TIMEOUT_S = 60
SESSION_TIMEOUT_S = 300


def emit(obj):
    print(json.dumps(obj), flush=True)


def size(model):
    return len(model.model_dump_json(by_alias=True, exclude_none=True).encode())


async def main(server, plan):
    params = StdioServerParameters(command=server[0], args=server[1:])
    async with stdio_client(params, errlog=sys.stderr) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=REQUEST_TIMEOUT_S) as session:
            init = await session.initialize()
            emit(
                {
                    "step": "initialize",
                    "protocol_version": init.protocol_version,
                    "server_info": {
                        "name": init.server_info.name,
                        "version": init.server_info.version,
                    },
                    "instructions": init.instructions,
                    "bytes": size(init),
                }
            )

            tools = []
            listed = 0
            cursor = None
            while True:
                page = await session.list_tools(
                    params=types.PaginatedRequestParams(cursor=cursor) if cursor else None
                )
                listed += size(page)
                tools.extend(page.tools)
                cursor = page.next_cursor
                if cursor is None:
                    break
            emit(
                {
                    "step": "tools",
                    "tools": [
                        {
                            "name": t.name,
                            "description": t.description,
                            "input_schema": t.input_schema,
                        }
                        for t in tools
                    ],
                    "bytes": listed,
                }
            )

            for call in plan:
                result = await session.call_tool(call["tool"], call.get("arguments"))
                text = "".join(
                    c.text for c in result.content if isinstance(c, types.TextContent)
                )
                images = [
                    {"mime_type": c.mime_type, "base64_len": len(c.data)}
                    for c in result.content
                    if isinstance(c, types.ImageContent)
                ]
                emit(
                    {
                        "step": "call",
                        "tool": call["tool"],
                        "arguments": call.get("arguments"),
                        "is_error": result.is_error,
                        "text": text,
                        "images": images,
                    }
                )


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: client.py SERVER [ARG...] < PLAN")
    plan = json.load(sys.stdin)

    async def run():
        with anyio.fail_after(SESSION_TIMEOUT_S):
            await main(sys.argv[1:], plan)

    anyio.run(run)
