"""Where convoys could run with the fleets now on the board (for order legality, DATC 4.E.1).

A legal order is one that could be valid whatever the other orders are: a move that needs a
convoy needs a chain of fleets that could carry it (6.D.32), a support of such a move needs
one that does not use the supporting fleet (6.D.31), and a convoy order needs its fleet to be
necessary for some route, i.e. to lie on a route with no shortcut around it (6.G.19).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping

Adjacency = Mapping[str, frozenset[str]]


class ConvoyGeometry:
    def __init__(self, sea_adjacency: Adjacency, carriers: Collection[str]):
        self.sea = sea_adjacency
        self.carriers = frozenset(carriers)  # provinces holding a fleet that could convoy

    def route_exists(self, origin: str, destination: str, avoid: str | None = None) -> bool:
        if origin == destination:
            return False
        near = self.sea.get
        start = [p for p in near(origin, ()) if p in self.carriers and p != avoid]
        seen = set(start)
        queue = deque(start)
        while queue:
            here = queue.popleft()
            if destination in near(here, ()):
                return True
            for nxt in near(here, ()):
                if nxt not in seen and nxt in self.carriers and nxt != avoid:
                    seen.add(nxt)
                    queue.append(nxt)
        return False

    def can_be_necessary(self, origin: str, destination: str, fleet: str) -> bool:
        """Is ``fleet`` on some route from ``origin`` to ``destination`` that has no shortcut?"""
        if fleet not in self.carriers or origin == destination:
            return False
        near = self.sea.get

        def extend(path: list[str]) -> bool:
            last = path[-1]
            if destination in near(last, ()):
                return fleet in path  # complete; going further would leave a shortcut
            for nxt in near(last, ()):
                if (
                    nxt in self.carriers
                    and nxt not in path
                    and origin not in near(nxt, ())
                    and not any(nxt in near(p, ()) for p in path[:-1])
                ):
                    path.append(nxt)
                    if extend(path):
                        return True
                    path.pop()
            return False

        return any(extend([first]) for first in near(origin, ()) if first in self.carriers)
