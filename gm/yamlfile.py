"""YAML reading that refuses duplicate keys and remembers line numbers.

PyYAML silently keeps the last of two equal keys; in a map file that would hide a duplicated
province, and in a game's settings a duplicated setting.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml  # type: ignore[import-untyped]  # no stubs among gm's dependencies


@dataclass(frozen=True)
class YamlProblem(Exception):
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


class LineDict(dict):
    """A mapping that knows the line each of its keys was written on."""

    lines: dict[Any, int]


class _StrictLoader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in result:
            raise YamlProblem(
                key_node.start_mark.line + 1,
                f"{key!r} is written twice (first on line {result.lines[key]}); "
                "keep one of them",
            )
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = key_node.start_mark.line + 1
    return result


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_strict(text: str) -> Any:
    """Parse YAML; raise YamlProblem (with a line number) for bad syntax or duplicate keys."""
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except YamlProblem:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        opened = ""
        if exc.context_mark and exc.problem_mark and exc.context_mark.line != exc.problem_mark.line:
            opened = f" ({exc.context} on line {exc.context_mark.line + 1})"
        raise YamlProblem(line, f"not valid YAML: {exc.problem or exc}{opened}") from exc
    except yaml.YAMLError as exc:
        raise YamlProblem(0, f"not valid YAML: {exc}") from exc


def line_of(mapping: Any, key: Any) -> int | None:
    lines = getattr(mapping, "lines", None)
    return lines.get(key) if lines else None
