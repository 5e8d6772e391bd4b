"""Where convoys could possibly run, whatever fleets are on the board (for order legality)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping

Adjacency = Mapping[str, frozenset[str]]


def convoy_route_exists(
    origin: str,
    destination: str,
    sea_adjacency: Adjacency,
    carries: Callable[[str], bool],
    through: str | None = None,
) -> bool:
    """Is there a chain of carrying provinces from ``origin`` to ``destination``?

    ``carries(province)`` says whether a fleet there could convoy. With ``through``, the chain
    must pass that province (DATC 6.G.19: a convoy order off every possible route is illegal).
    """
    if origin == destination:
        return False
    from_origin = reachable_carriers(origin, sea_adjacency, carries, avoid=destination)
    if through is None:
        return any(destination in sea_adjacency.get(p, ()) for p in from_origin)
    from_destination = reachable_carriers(destination, sea_adjacency, carries, avoid=origin)
    return through in from_origin and through in from_destination


def reachable_carriers(
    start: str, sea_adjacency: Adjacency, carries: Callable[[str], bool], avoid: str | None = None
) -> set[str]:
    """Carrying provinces linked to ``start`` by a chain of carrying provinces."""
    seen = {p for p in sea_adjacency.get(start, ()) if p != avoid and carries(p)}
    queue = deque(seen)
    while queue:
        here = queue.popleft()
        for nxt in sea_adjacency.get(here, ()):
            if nxt not in seen and nxt != avoid and nxt != start and carries(nxt):
                seen.add(nxt)
                queue.append(nxt)
    return seen
