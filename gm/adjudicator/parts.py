"""The parts of a variant that other layers use, declared apart from its rules.

``Variant`` is the engine's contract. What other layers need of a variant beyond it (its set-up
and membership, its words for players, its order grammar and forms, its units' names, its
units off the board, its map layers, the bot's orders of its own kinds, the words of its build
refusals) are *parts*: objects the catalog declares for the variant (gm.variants.catalog), each
filling an interface that the layer using it defines beside a ``Part`` key naming it. A layer
asks ``variant.parts.get(KEY)`` and gets the declared object, typed by the key, or None where
the variant declares none (then it does what standard play does). Nothing is found by probing
the variant for methods; docs/design/variants.md has the table of parts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar, cast

T = TypeVar("T")


class Part(Generic[T]):
    """The key of one part, made by the layer that uses it, with the interface it fills."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name  # as the catalog declares it (gm.variants.catalog.Declared.parts)

    def __repr__(self) -> str:
        return f"Part({self.name!r})"


class Parts:
    """The parts a variant declares, by the name of their key: each made when first asked for
    (a process that never draws a picture never imports the variant's picture code)."""

    __slots__ = ("_makers", "_made")

    def __init__(self, makers: Mapping[str, Callable[[], object]] | None = None) -> None:
        self._makers = dict(makers or {})
        self._made: dict[str, object] = {}

    def get(self, part: Part[T]) -> T | None:
        found = self._made.get(part.name)
        if found is None:
            maker = self._makers.get(part.name)
            if maker is None:
                return None
            found = self._made[part.name] = maker()  # two threads at once make the same part twice
        # The catalog declares each part filling its key's interface (tests/variants/test_parts.py).
        return cast("T", found)

    def names(self) -> frozenset[str]:
        return frozenset(self._makers)
