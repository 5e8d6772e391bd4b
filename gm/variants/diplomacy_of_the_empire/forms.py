"""Diplomacy of the Empire's own orders as HELP ORDERS shows them, each with an example from a
claimant's own units, cities and treasury (gm.orders.forms)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.domain.position import Position
from gm.domain.units import FLEET
from gm.orders.forms import ADJUSTMENTS, ANY_PHASE, MOVEMENT, OrderForm
from gm.variants.diplomacy_of_the_empire.orders import CAVALRY, INFANTRY
from gm.variants.diplomacy_of_the_empire.state import EmpireState

if TYPE_CHECKING:
    from gm.variants.diplomacy_of_the_empire.rules import DiplomacyOfTheEmpire


def order_forms(variant: DiplomacyOfTheEmpire) -> tuple[OrderForm, ...]:
    name = variant.name_of

    def road(position: Position, power: str) -> str | None:
        state = EmpireState.of(position)
        occupied = {u.location.province for u in position.units}
        for unit in position.units_of(power):
            here = unit.location.province
            if unit.type is FLEET or here not in state.cities:
                continue
            path, seen = [], {here} | occupied
            while len(path) < 2:
                ahead = sorted(state.road_neighbours(path[-1] if path else here) - seen, key=name)
                if not ahead:
                    break
                path.append(ahead[0])
                seen.add(ahead[0])
            if len(path) == 2:
                return f"{unit.type.letter} {name(here)} - " + " - ".join(name(p) for p in path)
        return None

    def second(position: Position, power: str) -> str | None:
        occupied = {u.location.province for u in position.units}
        for unit in position.units_of(power):
            if unit.type not in (CAVALRY, FLEET):
                continue
            here = unit.location.province
            for first in sorted(variant.map.neighbours.get(here, ()), key=name):
                reach = variant.destinations(unit, first) if first not in occupied else ()
                if not reach:
                    continue
                moved = unit.moved_to(reach[0])
                onward = sorted((p for p in variant.map.neighbours.get(first, ())
                                 if p not in occupied and p != here and variant.destinations(moved, p)), key=name)
                if onward:
                    return f"{unit.type.letter} {name(here)} - {name(first)} then {name(onward[0])}"
        return None

    def pay(position: Position, power: str) -> str | None:
        others = sorted(p for p in EmpireState.of(position).treasury if p != power)
        return f"PAY 5 {others[0]}" if others else None

    def build(position: Position, power: str) -> str | None:
        sites = sorted(variant.build_sites(position, power), key=name)
        return f"BUILD {INFANTRY.letter} {name(sites[0])}" if sites else f"BUILD {INFANTRY.letter} {name(variant.homes[power])}"

    def city(position: Position, power: str) -> str | None:
        state = EmpireState.of(position)
        bare = sorted((p for p, owner in state.control.items() if owner == power and p not in state.cities), key=name)
        return f"BUILD CITY {name(bare[0])}" if bare else None

    def fort(position: Position, power: str) -> str | None:
        state = EmpireState.of(position)
        open_cities = sorted((p for p, c in state.cities.items() if c.owner == power and not c.fort), key=name)
        return f"BUILD FORT {name(open_cities[0])}" if open_cities else None

    def raze(position: Position, power: str) -> str | None:
        state = EmpireState.of(position)
        taken = sorted((p for p, c in state.cities.items() if state.control.get(p) == power and not c.capital), key=name)
        return f"RAZE {name(taken[0])}" if taken else None

    def destroy(position: Position, power: str) -> str | None:
        mine = position.units_of(power)
        return f"DESTROY {name(mine[0].location.province)}" if mine else None

    return (
        OrderForm("move along roads", "<unit> - <province> - <province> ...",
                  "a land unit in a city moves along roads, one province a step, in step with the others on roads "
                  "(rule 8)", (), MOVEMENT, road),
        OrderForm("second move", "<unit> - <province> then <province>",
                  "a cavalry or a fleet moves again once its move has succeeded, with the retreats (rule 3)",
                  ("then",), MOVEMENT, second),
        OrderForm("pay", "PAY <talents> <claimant>", "talents, in fives, to another claimant, paid to its home "
                  "province (rule 10)", ("pay",), ANY_PHASE, pay),
        OrderForm("build", "BUILD <I|C|K|F> <city>", "an infantry, cavalry, catapult or fleet in a vacant city of "
                  "yours joined by roads to your capital, paid from your talents after the upkeep (rules 2, 7)",
                  ("b", "build", "builds"), ADJUSTMENTS, build),
        OrderForm("build city", "BUILD CITY <territory>", "a city in a territory you control (rule 6)",
                  ("city",), ADJUSTMENTS, city),
        OrderForm("build fort", "BUILD FORT <territory>", "a fortified city, or a fort added to your city (rule 6)",
                  ("fort",), ADJUSTMENTS, fort),
        OrderForm("raze", "RAZE <territory>", "a city you control pulled down (rule 6)", ("raze",), ADJUSTMENTS,
                  raze),
        OrderForm("destroy", "DESTROY <territory>", "your unit there disbanded, saving its upkeep (rule 2)",
                  ("destroy",), ADJUSTMENTS, destroy),
        OrderForm("waive", "WAIVE", "no build this phase: your talents are kept", ("waive", "waives"), ADJUSTMENTS,
                  lambda position, power: "WAIVE"),
    )
