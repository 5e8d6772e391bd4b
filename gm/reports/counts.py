"""A power's units counted as the rules count them: those that need a supply centre apart from
those that need none (a leader, a garrison), so "2 centres, 2 units and a leader" adds up."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from gm.adjudicator.variant import Variant
from gm.domain.units import Unit


def plural(count: int, word: str, width: int = 0) -> str:
    """"1 centre", "2 centres" (the number right-aligned in ``width``)."""
    return f"{count:>{width}} {word}{'' if count == 1 else 's'}"


def units_counted(variant: Variant, units: Iterable[Unit], width: int = 0) -> str:
    """"4 units", "3 units and a leader", "1 unit and a garrison", "0 units" (the first number
    right-aligned in ``width``, for columns)."""
    units = list(units)
    supplied = sum(1 for u in units if variant.supplied(u))
    others = Counter(u.type.name for u in units if not variant.supplied(u))
    extras = [f"{'an' if name[:1] in 'aeiou' else 'a'} {name}" if n == 1 else plural(n, name)
              for name, n in sorted(others.items())]
    text = plural(supplied, "unit", width)
    if not extras:
        return text
    return f"{text}, {', '.join(extras[:-1])} and {extras[-1]}" if len(extras) > 1 else f"{text} and {extras[0]}"
