"""The order in which the suite's files go to the test workers: the longest first.

scripts/test runs each file on one worker (--dist=loadfile) in the order collected
(--no-loadscope-reorder). A long file started last keeps one worker busy while the others have
nothing left, so the files that say they are long (a timeout of their own, or the slow mark) go
first, the longest declared first; each file keeps its own tests' order."""

from __future__ import annotations

import pytest

SLOW_WEIGHT = 60  # a slow file with no timeout of its own: before the quick ones, after the declared long ones


def _weight(item: pytest.Item) -> float:
    timeout = item.get_closest_marker("timeout")
    if timeout is not None and timeout.args:
        return float(timeout.args[0])
    return SLOW_WEIGHT if item.get_closest_marker("slow") is not None else 0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    weight: dict[object, float] = {}
    for item in items:
        weight[item.path] = max(weight.get(item.path, 0), _weight(item))
    items.sort(key=lambda item: -weight[item.path])  # stable: a file's tests stay together, in their order
