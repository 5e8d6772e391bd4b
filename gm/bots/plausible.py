"""A player that writes plausible orders at random: for demos, benchmarks and property tests,
and for a power whose player missed a deadline where the game says ``missed: {policy: play}``
(gm.games.stand_ins, which seeds it from the game's secret seed).

"Plausible" means the order sets look like real play: most units move or support, supports
match other units' moves, fleets at sea convoy neighbouring armies, so that bounces,
dislodgements and retreats really happen. Every choice comes from the given ``random.Random``,
so a seed replays the same game.

It plays any variant through the ``Variant`` interface: units of any mobility (a unit that
cannot move holds or supports), several units in one province (each ordered on its own),
units of ``unplayed_powers`` left unordered. Orders of a variant's own kinds come from the
variant's part ``PLAUSIBLE_ORDERS``. A variant whose players found their powers by
joining starts from ``plausible_start``: several powers founded with choices drawn at random.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from gm.adjudicator.parts import Part
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import Mobility, Unit
from gm.variants.setup import setup_of


FOUNDERS = 6  # powers founded at the start of a bot's game of a variant whose players join


def plausible_start(variant: Variant, rng: random.Random, founders: int = FOUNDERS) -> Position:
    """The position a bot's game starts from: the variant's start, or, where the players found
    their powers as they join, that start with ``founders`` powers in, on choices drawn at
    random (as a game has it when it starts)."""
    position = variant.initial_position()
    if not setup_of(variant).open_membership:
        return position
    for _ in range(founders):
        choices = setup_of(variant).joining_choices(position)
        if not choices:
            break
        power, choice = setup_of(variant).joining_request(rng.choice(choices), position)
        position = setup_of(variant).with_joining(position, power, choice)
    return setup_of(variant).admit_joining(position, PhaseLog(None))


OwnOrders = Callable[[Position, list[tuple[str, Order]], random.Random], list[tuple[str, Order]]]
# What a variant declares so that the bot also plays its own order kinds: given the phase's board
# and the bot's standard orders (in a movement phase one per unit of a played power, in board
# order), the orders with some replaced (a leader leading its unit, a sack) or added (a payment),
# every choice drawn from the random generator given.
PLAUSIBLE_ORDERS: Final = Part[OwnOrders]("plausible_orders")


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.location, unit.type)


class PlausiblePlayer:
    def __init__(self, variant: Variant, rng: random.Random, support_rate: float = 0.35, convoy_rate: float = 0.3):
        self.variant = variant
        self.map = variant.map
        self.rng = rng
        self.support_rate = support_rate
        self.convoy_rate = convoy_rate

    def orders(self, position: Position, powers: Sequence[str] | None = None) -> list[tuple[str, Order]]:
        """Orders for every played power (or only ``powers``) in the position's phase."""
        kind = position.phase.kind
        if kind is PhaseKind.MOVEMENT:
            orders = self.movement(position)
        elif kind is PhaseKind.RETREATS:
            orders = self.retreats(position)
        else:
            orders = self.adjustments(position)
        own = self.variant.parts.get(PLAUSIBLE_ORDERS)
        if own is not None:
            orders = own(position, orders, self.rng)
        if powers is not None:
            wanted = set(powers)
            orders = [(p, o) for p, o in orders if p in wanted]
        return orders

    def played(self, power: str) -> bool:
        return power not in self.variant.unplayed_powers

    # -- movement ------------------------------------------------------------------

    def destinations(self, unit: Unit) -> list[Location]:
        here = unit.location.province
        options: list[Location] = []
        for province in sorted(self.map.neighbours.get(here, ())):
            options.extend(self.variant.destinations(unit, province))
        return options

    def movement(self, position: Position) -> list[tuple[str, Order]]:
        """One order per unit of a played power. Orders are kept by the unit's index on the
        board, so units sharing a province each get their own."""
        rng = self.rng
        units = [u for u in position.units if self.played(u.power)]
        chosen: dict[int, Order] = {}
        supporters: list[int] = []
        for slot, unit in enumerate(units):
            roll = rng.random()
            options = self.destinations(unit)
            if roll < self.support_rate:
                supporters.append(slot)
            elif roll < 0.85 and options:
                chosen[slot] = Move(_ref(unit), rng.choice(options))
            else:
                chosen[slot] = Hold(_ref(unit))
        self._add_convoys(units, chosen)
        for slot in supporters:
            chosen[slot] = self._support(slot, units, chosen)
        return [(u.power, chosen[slot]) for slot, u in enumerate(units)]

    def _add_convoys(self, units: list[Unit], chosen: dict[int, Order]) -> None:
        armies_at = {u.location.province: slot for slot, u in enumerate(units) if u.type.convoyable}
        for slot, fleet in enumerate(units):
            here = fleet.location.province
            if not fleet.type.convoys or not self.variant.convoy_province(here) or self.rng.random() > self.convoy_rate:
                continue
            shores = sorted(self.map.fleet_province_adjacency.get(here, ()))
            armies = [armies_at[p] for p in shores if p in armies_at and units[armies_at[p]].power == fleet.power]
            landings = [p for p in shores if self.map.provinces[p].holds_armies]
            if not armies or len(landings) < 2:
                continue
            army_slot = self.rng.choice(armies)
            army = units[army_slot]
            target = self.rng.choice([p for p in landings if p != army.location.province])
            via = bool(self.variant.destinations(army, target))  # adjacent: say so, or it walks
            chosen[army_slot] = Move(_ref(army), Location(target), via_convoy=via)
            chosen[slot] = Convoy(_ref(fleet), _ref(army), Location(target))

    def _support(self, slot: int, units: list[Unit], chosen: dict[int, Order]) -> Order:
        unit = units[slot]
        candidates: list[Order] = []
        for other_slot, other in enumerate(units):
            if other_slot == slot:
                continue
            order = chosen.get(other_slot)
            if isinstance(order, Move):
                target = order.destination.province
                if target != unit.location.province and self.variant.can_support_into(unit, target):
                    weight = 3 if other.power == unit.power else 1
                    candidates.extend([SupportMove(_ref(unit), _ref(other), order.destination.whole)] * weight)
            elif order is not None and not isinstance(order, Convoy):
                if self.variant.can_support_into(unit, other.location.province):
                    candidates.append(SupportHold(_ref(unit), _ref(other)))
        if candidates:
            return self.rng.choice(candidates)
        return Hold(_ref(unit))

    # -- retreats and adjustments --------------------------------------------------

    def retreats(self, position: Position) -> list[tuple[str, Order]]:
        orders: list[tuple[str, Order]] = []
        for dislodged in position.dislodged:
            unit = dislodged.unit
            if not self.played(unit.power):
                continue
            if dislodged.retreats and self.rng.random() < 0.85:
                orders.append((unit.power, Retreat(_ref(unit), self.rng.choice(dislodged.retreats))))
            else:
                orders.append((unit.power, Disband(_ref(unit))))
        return orders

    def adjustments(self, position: Position) -> list[tuple[str, Order]]:
        orders: list[tuple[str, Order]] = []
        for adjustment in self.variant.adjustments(position):
            power = adjustment.power
            if adjustment.count > 0:
                sites = sorted(adjustment.build_sites)
                self.rng.shuffle(sites)
                for site in sites[: adjustment.count]:
                    build = self._build(power, site)
                    if build is not None:
                        orders.append((power, build))
                if self.rng.random() < 0.1:
                    orders.append((power, Waive()))
            elif adjustment.count < 0:
                own = [u for u in position.units if u.power == power and self.variant.supplied(u)]
                for unit in self.rng.sample(own, min(len(own), -adjustment.count)):
                    orders.append((power, Disband(_ref(unit))))
        return orders

    def _build(self, power: str, site: str) -> Order | None:
        province = self.map.provinces[site]
        types = [t for t in self.variant.buildable_types(power, site) if t.mobility is not Mobility.SEA or province.holds_fleets]
        types = [t for t in types if t.mobility is not Mobility.LAND or province.holds_armies]
        if not types:
            return None
        unit_type = self.rng.choice(types)
        location = Location(site)
        if unit_type.needs_coast and province.coasts:
            location = Location(site, self.rng.choice(province.coasts))
        return Build(UnitRef(location, unit_type))
