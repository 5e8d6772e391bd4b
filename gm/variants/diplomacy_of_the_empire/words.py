"""What the results and the replies say of the claimants' money, in the variant's words: the
treasuries, the accounts and prices before a build phase, and what a player's orders cost."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gm.adjudicator.variant import Adjustment
from gm.domain.orders import Build, Order
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import FLEET
from gm.variants.diplomacy_of_the_empire import economy
from gm.variants.diplomacy_of_the_empire.economy import talents
from gm.variants.diplomacy_of_the_empire.orders import CATAPULT, CAVALRY, INFANTRY, BuildCity, BuildFort, Pay
from gm.variants.diplomacy_of_the_empire.state import EmpireState
from gm.variants.diplomacy_of_the_empire.treasury import home_lost

if TYPE_CHECKING:
    from gm.variants.diplomacy_of_the_empire.rules import DiplomacyOfTheEmpire


def shown_adjustments(variant: DiplomacyOfTheEmpire, position: Position) -> list[Adjustment]:
    """Removals only: what a claimant may build is what its money pays (``state_report``)."""
    return [a for a in variant.adjustments(position) if a.count < 0]

def state_report(variant: DiplomacyOfTheEmpire, position: Position) -> list[tuple[str, list[str]]]:
    """Every claimant's treasury; before a build phase its accounts, and the prices."""
    state = EmpireState.of(position)
    claimants = sorted(variant.in_play(position))
    if position.phase.kind is not PhaseKind.ADJUSTMENTS:
        return [("Treasuries", [", ".join(f"{p} {state.treasury[p]}" for p in claimants) + " talents"])]
    m = state.inflation
    accounts = []
    for power in claimants:
        units = len(position.units_of(power))
        due = economy.upkeep(units, m)
        left = state.treasury[power] - due
        line = (f"{power}: {talents(state.treasury[power])} (tribute {state.tribute.get(power, 0)}), "
                f"upkeep {due} for {units} unit{'s' * (units != 1)}, ")
        if left < 0:
            line += f"must disband {math.ceil(-left / economy.upkeep(1, m))} to pay the rest"
        else:
            line += f"{left} to spend"
        if home_lost(variant, state, power):
            line += f"; its home is held by {state.control.get(variant.homes[power])}: no builds, nothing kept"
        accounts.append(line)
    inflation = {1: "", 2: " (doubled by inflation)", 3: " (tripled by inflation)"}[m]
    prices = [f"Infantry {economy.unit_price(INFANTRY, m)}, Cavalry {economy.unit_price(CAVALRY, m)}, "
              f"Catapult {economy.unit_price(CATAPULT, m)}, Fleet {economy.unit_price(FLEET, m)}; "
              f"city {economy.CITY * m}, fort {economy.FORT_WITH_CITY * m} with a new city or "
              f"{economy.FORT_ON_CITY * m} on a city; upkeep {economy.UPKEEP * m} a unit{inflation}"]
    return [("Accounts for the build phase", accounts), ("Prices in talents", prices)]

def orders_note(variant: DiplomacyOfTheEmpire, position: Position, power: str,
                orders: Sequence[Order]) -> list[str]:
    """What the orders cost against the treasury (payments; in the build phase, the builds
    after the upkeep), and whether they can all be paid."""
    state = EmpireState.of(position)
    if power not in state.treasury:
        return []
    m = state.inflation
    paid = sum(o.amount for o in orders if isinstance(o, Pay))
    have = state.treasury[power]
    if position.phase.kind is not PhaseKind.ADJUSTMENTS:
        return [f"Payments: {paid} of your {talents(have)}."] if paid else []
    have -= economy.upkeep(len(position.units_of(power)), m) + paid
    cost = 0
    for order in orders:
        if isinstance(order, Build) and order.unit.type is not None:
            cost += economy.unit_price(order.unit.type, m)
        elif isinstance(order, BuildCity):
            cost += economy.CITY * m
        elif isinstance(order, BuildFort):
            has_city = order.location.province in state.cities
            cost += (economy.FORT_ON_CITY if has_city else economy.FORT_WITH_CITY) * m
    if not cost:
        return [f"You have {talents(max(have, 0))} to spend after upkeep{' and payments' * bool(paid)}."]
    verdict = "" if cost <= have else ": more than you have, so every build would fail"
    return [f"Your builds cost {talents(cost)} of the {talents(max(have, 0))} you have after upkeep"
            f"{' and payments' * bool(paid)}{verdict}."]
