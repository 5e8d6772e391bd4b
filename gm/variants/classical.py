"""Classical Diplomacy (Andy Schwarz and Vincent Mous): what differs from standard play.

Rules: *Classical Diplomacy* (docs/rules/classical.md); board: maps/classical.yaml. The map file carries every
geographical rule, so this module holds only the calendar, the victory condition and the builds:

- Rule 3, the calendar: standard seasons counted in years B.C. and A.D. (``Era.BC_AD``: years
  before Christ are negative, -1 is followed by 1). The first year is the map's
  ``rules.first_move`` (Spring 273 B.C.).
- Rule 4, victory: the power that holds ``rules.victory_centres`` (18) or more supply centres
  *during an adjustment phase*. Centres change hands only when Fall is over, and nothing
  changes them again before the next Fall, so the count held "during the adjustment phase"
  is the count after Fall. The engine asks ``winner()`` of each phase it reaches, so the
  winner is named on reaching the adjustment phase, or, when that phase has nothing to do
  and is skipped, on reaching the phase that follows it (the skipped Winter is still the
  year's adjustment phase). At any other phase (a mid-year position handed to
  ``gm adjudicate`` with 18 centres, say) nobody has won yet.
- Rule 6, "aberration-style" builds: a power that is due builds may build in any vacant supply
  centre it owns, as long as it still owns at least one of its original home centres; with
  none of them it cannot build at all.
- Rules 7, 7a, 7b and 8 (one coast per province, Etruria and Cisalpina not adjacent for
  fleets, the Nile and the Thebes portage, Rhodes with Caria, the land bridges) are borders of
  the map: each land bridge is an ordinary army and fleet border between its two ends, and the
  sea it crosses keeps all its own borders and convoys. Standard resolution then gives rule 8a
  (full strength, support across, no fleet can close a bridge) and 8b (moves across the sea,
  convoys across it and along it). ``make`` checks that the map really lists each bridge so.
"""

from __future__ import annotations

from collections import Counter

from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.position import Position
from gm.maps.model import GameMap
from gm.variants.seasons import during_adjustments
from gm.variants.standard import ANCIENT_CALENDAR as CALENDAR
from gm.variants.standard import first_year


class Classical(Variant):
    # -- rule 4: victory during an adjustment phase -------------------------------------

    def victory_threshold(self, position: Position) -> int:
        return int(self.map.rules["victory_centres"])

    def winner(self, position: Position) -> str | None:
        if not during_adjustments(self.calendar, position.phase):
            return None
        need = self.victory_threshold(position)
        leaders = [p for p, n in Counter(position.centres.values()).items() if n >= need]
        return leaders[0] if len(leaders) == 1 else None

    # -- rule 6: builds in any owned centre while a home centre is kept -----------------

    def build_sites(self, position: Position, power: str) -> frozenset[str]:
        home = self.map.powers[power].home
        if not any(position.centres.get(c) == power for c in home):
            return frozenset()
        occupied = {u.location.province for u in position.units}
        return frozenset(c for c, owner in position.centres.items() if owner == power and c not in occupied)


def make(game_map: GameMap) -> Variant:
    _check_land_bridges(game_map)
    return Classical("classical", game_map, CALENDAR, first_year=first_year(game_map, CALENDAR))


def _check_land_bridges(game_map: GameMap) -> None:
    """Rule 8a as map data: each bridge is an army and a fleet border both ways."""
    for bridge in game_map.rules.get("land_bridges", ()):
        a, b = bridge["between"]
        for x, y in ((a, b), (b, a)):
            by_army = y in game_map.army_adjacency.get(x, frozenset())
            by_fleet = Location(y) in game_map.fleet_adjacency.get(Location(x), frozenset())
            if not (by_army and by_fleet):
                raise ValueError(f"{game_map.name}: the land bridge {a}-{b} must be an army and a fleet border")
