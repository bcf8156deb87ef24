"""An MCP host's view of `stitch mcp`: the official MCP Python SDK drives the server.

    python tests/hosts/mcp_client.py path/to/stitch

Runs the same scenario twice, once per era: the legacy handshake (`initialize`) and
the 2026-07-28 discovery (`server/discover`, the version on each request). The SDK
parses and validates every result with its own types (tools/list included, and each
successful call's structured content against the tool's output schema when one is
declared). Exits 0 when every check holds, 1 otherwise, printing one line a check.
"""

import asyncio
import base64
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

TOOLS = ["read_file", "read_files", "write_file", "edit_file", "list_directory", "glob", "search_files",
         "apply_patch", "delete_file", "move_file", "list_changes", "show_change",
         "undo_change"]
FAILURES: list[str] = []
# The smallest PNG: one transparent pixel.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d4944415478da63f8ffff3f0005fe02fea7d6a4850000000049454e44ae426082")


def check(label: str, condition: bool, detail: object = "") -> None:
    print(f"{'ok  ' if condition else 'FAIL'} {label}" + ("" if condition else f": {detail}"))
    if not condition:
        FAILURES.append(label)


def envelope(result) -> dict:
    """The envelope a CallToolResult carries as its one text item."""
    assert len(result.content) == 1 and result.content[0].type == "text", result
    return json.loads(result.content[0].text)


async def scenario(stitch: str, era: str) -> None:
    with tempfile.TemporaryDirectory(prefix=f"stitch-mcp-{era}-") as tmp:
        await checks(stitch, era, Path(tmp) / "ws", Path(tmp) / "stderr.log")


async def checks(stitch: str, era: str, root: Path, errlog_path: Path) -> None:
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text("x = 1\ny = 2\nx = 1\n")
    (root / "notes.md").write_text("# notes\n")
    # A PNG with a text file's name: stitch tells it by its bytes.
    (root / "shot.txt").write_bytes(PNG)
    params = StdioServerParameters(command=stitch, args=["mcp", "--root", str(root)])
    with open(errlog_path, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                if era == "legacy":
                    result = await session.initialize()
                    check(f"[{era}] initialize agrees on 2025-11-25",
                          result.protocol_version == "2025-11-25", result.protocol_version)
                else:
                    result = await session.discover()
                    check(f"[{era}] server/discover offers 2026-07-28",
                          "2026-07-28" in result.supported_versions, result.supported_versions)
                    check(f"[{era}] the session speaks 2026-07-28",
                          session.protocol_version == "2026-07-28", session.protocol_version)
                check(f"[{era}] instructions are given", bool(session.instructions))

                listed = await session.list_tools()
                check(f"[{era}] tools/list names the thirteen tools",
                      [t.name for t in listed.tools] == TOOLS, [t.name for t in listed.tools])
                printed = json.loads(subprocess.run(
                    [stitch, "schema", "--format", "mcp"], capture_output=True, check=True).stdout)
                check(f"[{era}] tools/list has the schemas `stitch schema --format mcp` prints",
                      [t.input_schema for t in listed.tools]
                      == [t["inputSchema"] for t in printed["tools"]])
                annotations = {t.name: t.annotations for t in listed.tools}
                check(f"[{era}] read_file is read-only, edit_file destructive",
                      annotations["read_file"].read_only_hint is True
                      and annotations["edit_file"].destructive_hint is True)
                check(f"[{era}] list_changes and show_change are read-only; delete, move and "
                      "undo destructive",
                      annotations["list_changes"].read_only_hint is True
                      and annotations["show_change"].read_only_hint is True
                      and all(annotations[t].destructive_hint is True
                              for t in ("delete_file", "move_file", "undo_change")))

                # Sessions: a file this connection has not read cannot be changed.
                unread = await session.call_tool(
                    "edit_file", {"path": "notes.md", "oldText": "# notes", "newText": "# Notes"})
                check(f"[{era}] an unread file is NOT_OBSERVED",
                      unread.is_error and unread.structured_content["error"] == "NOT_OBSERVED",
                      unread)
                check(f"[{era}] its hint says what to do",
                      unread.structured_content.get("_hint") == "Read the file, then retry.")

                # An image is an image content block the host can show the model.
                image = await session.call_tool("read_file", {"path": "shot.txt"})
                blocks = [c for c in image.content if c.type == "image"]
                check(f"[{era}] an image read is an image content block",
                      not image.is_error and len(blocks) == 1
                      and blocks[0].mime_type == "image/png"
                      and base64.b64decode(blocks[0].data) == PNG, image)
                several = await session.call_tool(
                    "read_files", {"paths": ["src/a.py", "missing.md", "shot.txt"]})
                files = several.structured_content["files"]
                check(f"[{era}] read_files answers each file in order, refusals inline",
                      not several.is_error
                      and [f["ok"] for f in files] == [True, False, True]
                      and files[1]["error"] == "NOT_FOUND"
                      and [c.type for c in several.content] == ["text", "image"], several)

                read = await session.call_tool("read_file", {"path": "src/a.py"})
                check(f"[{era}] read_file succeeds with the file's content",
                      not read.is_error and read.structured_content["content"] == "x = 1\ny = 2\nx = 1\n",
                      read)
                check(f"[{era}] structuredContent is the envelope's data",
                      envelope(read) == {"ok": True, "data": read.structured_content})

                ambiguous = await session.call_tool(
                    "edit_file", {"path": "src/a.py", "oldText": "x = 1", "newText": "x = 3"})
                env = envelope(ambiguous)
                check(f"[{era}] an ambiguous edit is isError with AMBIGUOUS_MATCH",
                      ambiguous.is_error and env["error"] == "AMBIGUOUS_MATCH", ambiguous)
                check(f"[{era}] the model sees the lines and the hint",
                      env["details"]["lines"] == [1, 3]
                      and env["_hint"] == "Add surrounding lines to oldText until it matches "
                                          "once, or pass replaceAll: true.", env)
                check(f"[{era}] structuredContent of a refusal is the envelope",
                      ambiguous.structured_content == env)

                edited = await session.call_tool(
                    "edit_file", {"path": "src/a.py", "oldText": "y = 2", "newText": "y = 4"})
                check(f"[{era}] edit_file applies", not edited.is_error
                      and (root / "src" / "a.py").read_text() == "x = 1\ny = 4\nx = 1\n", edited)

                written = await session.call_tool(
                    "write_file", {"path": "new/b.txt", "content": "bee\n"})
                check(f"[{era}] write_file creates a file and its directory",
                      not written.is_error and written.structured_content["createdDirectories"] == ["new"]
                      and (root / "new" / "b.txt").read_text() == "bee\n", written)
                exists = await session.call_tool(
                    "write_file", {"path": "notes.md", "content": "clobber\n"})
                check(f"[{era}] writing onto an unread existing file is refused",
                      exists.is_error and exists.structured_content["error"] == "NOT_OBSERVED"
                      and (root / "notes.md").read_text() == "# notes\n", exists)

                # The journal: a move, listed, taken back; a delete, taken back.
                moved = await session.call_tool("move_file", {"from": "new/b.txt", "to": "b.txt"})
                check(f"[{era}] move_file moves and names its journal entry",
                      not moved.is_error and bool(moved.structured_content.get("id"))
                      and (root / "b.txt").read_text() == "bee\n", moved)
                changes = await session.call_tool("list_changes", {})
                check(f"[{era}] list_changes lists the move first",
                      not changes.is_error
                      and changes.structured_content["changes"][0]["tool"] == "move_file", changes)
                undone = await session.call_tool("undo_change", {})
                check(f"[{era}] undo_change moves it back",
                      not undone.is_error and (root / "new" / "b.txt").read_text() == "bee\n"
                      and not (root / "b.txt").exists(), undone)
                deleted = await session.call_tool("delete_file", {"path": "new/b.txt"})
                check(f"[{era}] delete_file deletes", not deleted.is_error
                      and not (root / "new" / "b.txt").exists(), deleted)
                back = await session.call_tool("undo_change", {"id": deleted.structured_content["id"]})
                check(f"[{era}] undo_change brings the deleted file back", not back.is_error
                      and (root / "new" / "b.txt").read_text() == "bee\n", back)

                patched = await session.call_tool("apply_patch", {"patch":
                    "*** Begin Patch\n*** Add File: added.md\n+from a patch\n*** End Patch\n"})
                check(f"[{era}] apply_patch adds a file and names its journal entry",
                      not patched.is_error and bool(patched.structured_content.get("id"))
                      and (root / "added.md").read_text() == "from a patch\n", patched)

                try:
                    await session.call_tool("frobnicate_patch", {"patch": ""})
                    check(f"[{era}] an unknown tool is a JSON-RPC error", False, "no error")
                except MCPError as e:
                    check(f"[{era}] an unknown tool is JSON-RPC error -32602",
                          e.code == -32602, e.error)


async def main() -> int:
    stitch = str(Path(sys.argv[1]).resolve())
    for era in ("legacy", "modern"):
        await scenario(stitch, era)
    print(f"{len(FAILURES)} failed" if FAILURES else "every check held")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
