"""What a layer builds from a variant once and keeps for it: each layer its own, keyed by the
variant (the legality verdicts, the order grammar, the painter, the store's units, the
interchange's memo), so that the variant carries no other layer's cache."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedCache(dict[K, V], Generic[K, V]):
    """A dict that forgets everything when it grows past its limit (memory stays bounded)."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        if len(self) >= self.limit:
            self.clear()
        super().__setitem__(key, value)


class PerVariant(Generic[K, V]):
    """What one layer keeps for each variant, made by ``make`` when first asked for and kept by
    the variant itself (its identity). For the last ``limit`` variants only: a process plays a
    few, the tests and the bench make many (one dropped is made again when next asked for)."""

    def __init__(self, make: Callable[[K], V], limit: int = 32) -> None:
        self._make = make
        self._kept: dict[K, V] = {}
        self.limit = limit

    def __call__(self, variant: K) -> V:
        found = self._kept.get(variant)
        if found is None:
            found = self._make(variant)
            if len(self._kept) >= self.limit:
                try:
                    del self._kept[next(iter(self._kept))]
                except (KeyError, StopIteration, RuntimeError):  # another thread dropped it first
                    pass
            self._kept[variant] = found
        return found
