"""The tool definitions `stitch schema` prints, checked with each host's own SDK.

Usage: python tests/hosts/schemas.py [PATH_TO_STITCH]   (default: target/debug/stitch)

Needs the `openai`, `anthropic` and `mcp` packages (.ci/run installs them in a venv).
Every format is loaded as printed and validated with the SDK's own types; where an SDK
has a strict-mode transform, the printed schema must already be its fixed point, so that
nothing is rewritten, dropped or folded into a description on the way to the API. Any
rejection fails loudly with the tool, the format and the reason, and exits 1.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from typing import Any, Callable

import pydantic

FAILURES: list[str] = []


def check(label: str, test: Callable[[], None]) -> None:
    """Runs one check, recording a failure instead of stopping at the first."""
    try:
        test()
    except Exception as error:  # noqa: BLE001 - every rejection is reported.
        FAILURES.append(f"{label}: {type(error).__name__}: {error}")


def printed(stitch: str, fmt: str) -> Any:
    output = subprocess.run(
        [stitch, "schema", "--format", fmt],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(output.stdout)


def typed_dict_keys(typed_dict: Any) -> set[str]:
    return set(typed_dict.__required_keys__) | set(typed_dict.__optional_keys__)


def only_keys(value: dict[str, Any], typed_dict: Any, where: str) -> None:
    """A TypedDict ignores unknown keys when validated; a host's API refuses them."""
    unknown = set(value) - typed_dict_keys(typed_dict)
    if unknown:
        raise ValueError(f"{where} has keys {sorted(unknown)} that {typed_dict.__name__} does not know")


def validate_typed_dict(typed_dict: Any, value: Any) -> None:
    pydantic.TypeAdapter(typed_dict).validate_python(value, strict=False)


def first_difference(expected: Any, actual: Any, path: str = "$") -> str | None:
    """Where two JSON values first differ, and how."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in actual:
                return f"{path}.{key} was dropped"
            if key not in expected:
                return f"{path}.{key} was added: {json.dumps(actual[key])[:200]}"
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f"{path} has {len(actual)} items instead of {len(expected)}"
        for i, (a, b) in enumerate(zip(expected, actual)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    if expected != actual:
        return f"{path} is {json.dumps(actual)[:200]} instead of {json.dumps(expected)[:200]}"
    return None


def same(expected: Any, actual: Any, what: str) -> None:
    found = first_difference(expected, actual)
    if found:
        raise ValueError(f"{what} changed it: {found}")


NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def must_be_strict(value: Any) -> None:
    if value is not True:
        raise ValueError(f"strict is {json.dumps(value)}, not true")


def check_name(name: str) -> None:
    if not NAME.match(name):
        raise ValueError(f"{name!r} is not a valid function name (a-z, A-Z, 0-9, _ and -, at most 64)")


# --- OpenAI -------------------------------------------------------------------------


def openai_strict_fixed_point(parameters: dict[str, Any]) -> None:
    """`to_strict_json_schema`'s rewrite (what the SDK applies to pydantic models for
    strict mode) leaves the printed parameters as they are."""
    from openai.lib._pydantic import _ensure_strict_json_schema

    rewritten = _ensure_strict_json_schema(copy.deepcopy(parameters), path=(), root=copy.deepcopy(parameters))
    same(parameters, rewritten, "openai's strict-schema rewrite")


def check_openai(stitch: str) -> None:
    from openai.types.chat import ChatCompletionFunctionTool, ChatCompletionToolParam
    from openai.types.shared_params import FunctionDefinition

    for tool in printed(stitch, "openai"):
        name = tool.get("function", {}).get("name", "?")
        label = f"openai {name}"
        check(f"{label} ChatCompletionToolParam", lambda: validate_typed_dict(ChatCompletionToolParam, tool))
        check(f"{label} keys", lambda: only_keys(tool, ChatCompletionToolParam, "the tool"))
        check(f"{label} function keys", lambda: only_keys(tool["function"], FunctionDefinition, "function"))
        check(f"{label} ChatCompletionFunctionTool", lambda: ChatCompletionFunctionTool.model_validate(tool))
        check(f"{label} name", lambda: check_name(tool["function"]["name"]))
        check(f"{label} strict", lambda: must_be_strict(tool["function"].get("strict")))
        check(f"{label} strict schema", lambda: openai_strict_fixed_point(tool["function"]["parameters"]))


def check_openai_responses(stitch: str) -> None:
    from openai.types.responses import FunctionTool, FunctionToolParam

    for tool in printed(stitch, "openai-responses"):
        label = f"openai-responses {tool.get('name', '?')}"
        check(f"{label} FunctionToolParam", lambda: validate_typed_dict(FunctionToolParam, tool))
        check(f"{label} keys", lambda: only_keys(tool, FunctionToolParam, "the tool"))
        check(f"{label} FunctionTool", lambda: FunctionTool.model_validate(tool))
        check(f"{label} name", lambda: check_name(tool["name"]))
        check(f"{label} strict", lambda: must_be_strict(tool.get("strict")))
        check(f"{label} strict schema", lambda: openai_strict_fixed_point(tool["parameters"]))


# --- Anthropic ----------------------------------------------------------------------


def anthropic_strict_fixed_point(input_schema: dict[str, Any]) -> None:
    """The SDK's `transform_schema` (what strict tools and structured outputs go
    through) leaves the printed schema exactly as it is: it refuses nothing (no `type`
    arrays), drops nothing (no `type` beside an `enum`) and folds nothing into a
    description, so everything printed is what the strict API is sent."""
    from anthropic import transform_schema

    rewritten = transform_schema(copy.deepcopy(input_schema))
    same(input_schema, rewritten, "anthropic's transform_schema")


def check_anthropic(stitch: str) -> None:
    from anthropic.types import ToolParam

    for tool in printed(stitch, "anthropic"):
        if tool.get("type") == "text_editor_20250728":
            # Anthropic's own text-editor tool, declared as the Messages API takes it.
            from anthropic.types import ToolTextEditor20250728Param

            label = "anthropic text editor"
            check(f"{label} param", lambda: validate_typed_dict(ToolTextEditor20250728Param, tool))
            check(f"{label} name", lambda: same(tool["name"], "str_replace_based_edit_tool", "its name"))
            continue
        label = f"anthropic {tool.get('name', '?')}"
        check(f"{label} ToolParam", lambda: validate_typed_dict(ToolParam, tool))
        check(f"{label} keys", lambda: only_keys(tool, ToolParam, "the tool"))
        check(f"{label} name", lambda: check_name(tool["name"]))
        check(f"{label} strict transform", lambda: anthropic_strict_fixed_point(tool["input_schema"]))


# --- MCP ----------------------------------------------------------------------------


def check_mcp(stitch: str) -> None:
    import mcp.types

    listed = printed(stitch, "mcp")

    def validate_result(model: Any) -> None:
        result = model.model_validate(listed)
        # The models ignore unknown keys: what they keep of each tool must be all that was
        # printed (result-level defaults such as a cache TTL are theirs to add).
        dumped = result.model_dump(by_alias=True, exclude_none=True, mode="json")
        same(listed["tools"], dumped["tools"], f"{model.__module__}.ListToolsResult (what it keeps)")
        for tool in result.tools:
            if tool.output_schema is None or tool.title is None or tool.annotations is None:
                raise ValueError(f"{tool.name} lacks outputSchema, title or annotations")

    def validate_tools(model: Any) -> None:
        for printed_tool in listed["tools"]:
            tool = model.model_validate(printed_tool)
            dumped = tool.model_dump(by_alias=True, exclude_none=True, mode="json")
            same(printed_tool, dumped, f"{model.__module__}.Tool (what it keeps)")

    check("mcp mcp.types.ListToolsResult", lambda: validate_result(mcp.types.ListToolsResult))
    # The wire models of each protocol revision hold a tool to that revision's rules
    # (through 2025-11-25, `outputSchema` must be `type: "object"` at the root). A
    # 2026-07-28 result also carries caching fields, which the server adds to the list.
    revisions = 0
    for revision, validate in (("_v2025_11_25", validate_result), ("_v2026_07_28", validate_tools)):
        try:
            module = __import__(f"mcp_types.{revision}", fromlist=["ListToolsResult", "Tool"])
        except ImportError:
            continue
        revisions += 1
        model = module.ListToolsResult if validate is validate_result else module.Tool
        check(f"mcp mcp_types.{revision}", lambda: validate(model))
    if revisions == 0:
        FAILURES.append("mcp: no protocol revision's wire models found in mcp_types")


def main() -> int:
    stitch = sys.argv[1] if len(sys.argv) > 1 else "target/debug/stitch"
    for host in (check_openai, check_openai_responses, check_anthropic, check_mcp):
        check(host.__name__, lambda: host(stitch))
    if FAILURES:
        print(f"{len(FAILURES)} host SDK check(s) failed:", file=sys.stderr)
        for failure in FAILURES:
            print(f"  {failure}", file=sys.stderr)
        return 1
    print("host SDKs (openai, anthropic, mcp) take every printed format")
    return 0


if __name__ == "__main__":
    sys.exit(main())
