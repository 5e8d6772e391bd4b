"""Small test-only rule deltas over the real boards, one per engine mechanism.

Each is a few lines over ``Variant`` that switch a mechanism on, the way a rules module will.
They are not the variants' rules: only enough of them to prove the engine carries each rule.
"""

from __future__ import annotations

from gm.adjudicator.effects import Effects
from gm.adjudicator.parts import Parts
from gm.adjudicator.rulings import Illegal, MoveChecks, MovementOutcome
from gm.adjudicator.variant import SupportCut, Variant
from gm.domain.geography import Location, Terrain
from gm.domain.orders import Hold, Move, Order, SupportMove, UnitRef
from gm.domain.phases import Calendar, Era
from gm.domain.position import Position
from gm.domain.units import ARMY, FLEET, Unit
from gm.maps.loader import MAPS_DIR, load_map
from gm.orders import OrderGrammar
from gm.orders.grammar import ORDER_GRAMMAR
from gm.variants.standard import CALENDAR
from tests.orders.variant_grammars import CATAPULT, CAVALRY, DOUBLE_ARMY, DOUBLE_FLEET, GARRISON, INFANTRY, LEADER
from tests.orders.variant_orders import AttackAtSea, Lead, Sack, attacks

ANCIENT = Calendar(seasons=CALENDAR.seasons, era=Era.BC_AD)

def _board(name: str):
    return load_map(MAPS_DIR / f"{name}.yaml")


class LeadersAndBridges(Variant):
    """Over the Rise of Rome II board: leaders of strength ½ that share a province with one unit
    of their own power and may lead it (3.4); double units of strength 2 whose support an
    attack cuts only by its own strength (6.2); land bridges an enemy fleet in the bridged sea
    closes by attacking, or supporting an attack on, the army's province (7.3); sacks that any
    attack spoils (6.1)."""

    def __init__(self) -> None:
        super().__init__("leaders", _board("rise-of-rome-ii"), ANCIENT, -220,
                         unit_types=(ARMY, FLEET, LEADER, DOUBLE_ARMY, DOUBLE_FLEET))
        self.stacks = True
        self.partial_cuts = True
        self.parts = Parts({ORDER_GRAMMAR.name: lambda: self.extend_order_grammar})

    def strength(self, unit: Unit) -> float:
        return {LEADER: 0.5, DOUBLE_ARMY: 2, DOUBLE_FLEET: 2}.get(unit.type, 1)

    def extend_order_grammar(self, grammar: OrderGrammar) -> OrderGrammar:
        """Carthage's leader by name ("Hannibal - Numidia"), found on the board being ordered."""
        def hannibal(board: Position | None) -> UnitRef | None:
            found = [u for u in (board.units if board else ()) if u.power == "Carthage" and u.type is LEADER]
            return UnitRef(found[0].location, LEADER) if found else None

        return grammar.extended(named_units={"Hannibal": hannibal})

    def may_share(self, a: Unit, b: Unit) -> bool:
        return a.power == b.power and (a.type is LEADER) != (b.type is LEADER)

    def support_cut(self, unit: Unit) -> SupportCut:
        return SupportCut.BY_ATTACK if unit.type in (DOUBLE_ARMY, DOUBLE_FLEET) else SupportCut.WHOLE

    def supplied(self, unit: Unit) -> bool:
        return unit.type is not LEADER  # a leader needs no supply centre

    def review_order(self, review: MoveChecks, unit: Unit | None, order: Order) -> Order:
        if isinstance(order, Lead):
            if unit.type is not LEADER:
                raise Illegal("only a leader leads")
            led = review.other_unit(order.led, unit)
            if led.location.province != unit.location.province or led.power != unit.power:
                raise Illegal("a leader leads a unit of its own in its own province")
            return Lead(UnitRef(unit.location, unit.type), UnitRef(led.location, led.type))
        if isinstance(order, Sack):
            if unit.type is LEADER:
                raise Illegal("a leader cannot sack")
            return order
        return super().review_order(review, unit, order)

    def before_movement(self, effects: Effects) -> None:
        units = effects.position.units
        for index, ruling in enumerate(effects.rulings):
            if not ruling.counts:
                continue
            if isinstance(ruling.order, Lead):
                led = next(s for s, u in enumerate(units)
                           if u.location == ruling.order.led.location and u.type is ruling.order.led.type and u.power == ruling.power)
                effects.carry(ruling.slot, led, f"goes with {units[led]}")
                effects.add_strength(led, 0.5, f"led by the leader in {units[led].location}: +½")
            elif isinstance(ruling.order, Sack):
                effects.resolve_as(index, Hold(ruling.order.unit))
        for bridge in self.map.rules["land_bridges"]:
            a, b = bridge["between"]
            for ruling in effects.rulings:
                fleet = ruling.unit
                if not ruling.counts or fleet is None or fleet.type is not FLEET or fleet.location.province != bridge["crosses"]:
                    continue
                order = ruling.order
                attacked = order.destination.province if isinstance(order, (Move, SupportMove)) else None
                for here, there in ((a, b), (b, a)):
                    if attacked == here:
                        effects.close(here, there, f"the land bridge to {there} is closed by {fleet}", open_to=fleet.power)

    def after_movement(self, effects: Effects, outcome: MovementOutcome) -> MovementOutcome:
        for index, ruling in enumerate(effects.rulings):
            if ruling.counts and isinstance(ruling.order, Sack):
                result = outcome.results[index]
                attacked = any(r.counts and r.power != ruling.power and isinstance(r.acting or r.order, Move)
                               and (r.acting or r.order).destination.province == ruling.order.unit.province  # type: ignore[union-attr]
                               for r in effects.rulings)
                if attacked:
                    result.succeeded = False
                    result.detail = "the sacking unit was attacked"
        return outcome


class Rounds(Variant):
    """Over the Roman Diplomacy I board (the standard map): fleets may move several steps,
    resolved in rounds (rule 4)."""

    def __init__(self) -> None:
        super().__init__("rounds", _board("roman-diplomacy-i"), CALENDAR, 100)

    def power_named(self, name: str) -> str | None:
        return name.strip() or None  # open membership: any empire name


class Garrisons(Rounds):
    """Over the Roman Diplomacy I board: garrisons that never move, support like armies, hold
    beside a friendly unit (both must be beaten); federated empires fight as one side."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "garrisons"
        self.unit_types = (ARMY, FLEET, GARRISON)
        self.stacks = True

    def may_share(self, a: Unit, b: Unit) -> bool:
        return a.power == b.power and (a.type is GARRISON) != (b.type is GARRISON)

    def supplied(self, unit: Unit) -> bool:
        return unit.type is not GARRISON  # an Imperial City's garrison needs no supply centre

    def can_support_into(self, unit: Unit, province: str) -> bool:
        if unit.type is GARRISON:
            return province in self.map.army_adjacency.get(unit.location.province, frozenset())
        return super().can_support_into(unit, province)

    def sides(self, position: Position) -> dict[str, str] | None:
        return {power: side for side, members in position.extra.get("federations", {}).items() for power in members}


class Roads(Variant):
    """Over the Diplomacy of the Empire board: land units moving along roads (paths), cavalry
    and fleets with second moves, catapults of strength 1½, fortified cities adding 1 to
    their owner's hold. Roads are given in ``extra.roads`` as pairs of provinces."""

    def __init__(self) -> None:
        super().__init__("roads", _board("diplomacy-of-the-empire"), ANCIENT, -43,
                         unit_types=(INFANTRY, CAVALRY, CATAPULT, FLEET))
        self.legality_cacheable = False  # support legality follows the roads in the position

    def strength(self, unit: Unit) -> float:
        return 1.5 if unit.type is CATAPULT else 1

    def reaches_otherwise(self, unit: Unit, province: str, position: Position) -> bool:
        roads = {frozenset(pair) for pair in position.extra.get("roads", [])}
        seen, frontier = {unit.location.province}, [unit.location.province]
        while frontier:
            here = frontier.pop()
            for pair in roads:
                if here in pair:
                    (there,) = pair - {here}
                    if there not in seen:
                        seen.add(there)
                        frontier.append(there)
        return province in seen

    def before_movement(self, effects: Effects) -> None:
        forts = effects.position.extra.get("forts", {})
        for slot, unit in enumerate(effects.position.units):
            if forts.get(unit.location.province) == unit.power:
                effects.add_hold_strength(slot, 1, "fortified city: +1 while it holds")


class Seas(Variant):
    """Over the Eagles board: any number of fleets, of any powers, in one sea; fleets at sea
    may attack each other with a die before the land battles (a 6 sinks the target, a 1 the
    attacker); an attacked fleet gives no support."""

    def __init__(self) -> None:
        super().__init__("seas", _board("eagles"), CALENDAR, 118)
        self.stacks = True
        self.parts = Parts({ORDER_GRAMMAR.name: lambda: self.extend_order_grammar})

    def may_share(self, a: Unit, b: Unit) -> bool:
        return (a.type is FLEET and b.type is FLEET
                and self.map.provinces[a.location.province].terrain is Terrain.SEA)

    def extend_order_grammar(self, grammar: OrderGrammar) -> OrderGrammar:
        return grammar.extended(unit_verbs={"attacks": attacks})

    def review_order(self, review: MoveChecks, unit: Unit | None, order: Order) -> Order:
        if isinstance(order, AttackAtSea):
            if unit.type is not FLEET or order.target.location != unit.location or order.owner is None:
                raise Illegal("a fleet attacks fleets in its own sea")
            return order
        return super().review_order(review, unit, order)

    def before_movement(self, effects: Effects) -> None:
        units = effects.position.units
        for index, ruling in enumerate(effects.rulings):
            order = ruling.order
            if not ruling.counts or not isinstance(order, AttackAtSea):
                continue
            effects.resolve_as(index, Hold(order.unit))
            target = next((s for s, u in enumerate(units) if u.location == order.target.location
                           and u.power == order.owner and u.type is FLEET), None)
            if target is None:
                continue
            roll = effects.roll(f"attack by {ruling.unit} ({ruling.power}) on {units[target]}",
                                units=(units[ruling.slot], units[target]))
            if roll.value == 6:
                roll.effect = f"{units[target]} ({order.owner}) sunk"
                effects.destroy(target, f"sunk by {ruling.unit} ({ruling.power})")
            elif roll.value == 1:
                roll.effect = f"{ruling.unit} ({ruling.power}) sunk"
                effects.destroy(ruling.slot, "sunk attacking")
            else:
                roll.effect = "no effect"
            supporter = effects.ruling_for(target)
            if supporter is not None and isinstance(effects.rulings[supporter].order, SupportMove):
                effects.prevent(supporter, f"attacked by {ruling.unit} ({ruling.power})")


def position(variant: Variant, phase: str, units: dict[str, list[str]], *, centres: dict[str, str] | None = None,
             extra: dict | None = None) -> Position:
    """A position from unit texts ("A SYR", "L CAR", "2A SYR")."""
    board = [unit(variant, power, text) for power, texts in units.items() for text in texts]
    return Position(variant.calendar.parse(phase), tuple(board), centres or {}, extra=extra or {})


def unit(variant: Variant, power: str, text: str) -> Unit:
    letter, where = text.split()
    unit_type = variant.unit_type(letter)
    assert unit_type is not None, letter
    return Unit(power, unit_type, Location.parse(where))


def ref(variant: Variant, text: str) -> UnitRef:
    letter, where = text.split()
    return UnitRef(Location.parse(where), variant.unit_type(letter))


def loc(text: str) -> Location:
    return Location.parse(text)



__all__ = [  # the test-only orders and unit types come from the parser's tests, shared here
    "ARMY", "CATAPULT", "CAVALRY", "DOUBLE_ARMY", "DOUBLE_FLEET", "FLEET", "GARRISON", "INFANTRY", "LEADER",
    "AttackAtSea", "Lead", "Sack", "Garrisons", "LeadersAndBridges", "Roads", "Rounds", "Seas",
    "loc", "position", "ref", "unit",
]
