"""Test-only grammars of the coming variants on their real boards, each extended in a few lines
as its rules module will be (gm/variants/ has none of them yet)."""

from __future__ import annotations

from functools import cache

from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import MoveAlongPath, MoveInRounds, MoveThen, Order, UnitRef
from gm.domain.units import ARMY, FLEET, Mobility, UnitType
from gm.maps.loader import MAPS_DIR, load_map
from gm.orders import OrderGrammar, verbs
from gm.variants.standard import ANCIENT_CALENDAR, CALENDAR, first_year

from .variant_orders import BuildCity, BuildFort, Raze, attacks, leads, pay, sack, starts_in

LEADER = UnitType("L", "leader", Mobility.ANY)
DOUBLE_ARMY = UnitType("2A", "double army", Mobility.LAND, convoyable=True)
DOUBLE_FLEET = UnitType("2F", "double fleet", Mobility.SEA, convoys=True, needs_coast=True)
GARRISON = UnitType("G", "garrison", Mobility.NONE)
BARBARIAN = UnitType("B", "barbarian army", Mobility.LAND, convoyable=True)
INFANTRY = UnitType("I", "infantry", Mobility.LAND, convoyable=True)
CAVALRY = UnitType("C", "cavalry", Mobility.LAND, convoyable=True)
CATAPULT = UnitType("K", "catapult", Mobility.LAND, convoyable=True)


def _variant(board: str, unit_types: tuple[UnitType, ...], calendar=ANCIENT_CALENDAR) -> Variant:
    game_map = load_map(MAPS_DIR / f"{board}.yaml")
    return Variant(board, game_map, calendar, first_year(game_map, calendar), unit_types)


def _every_move_word(handler: verbs.VerbHandler) -> dict[str, verbs.VerbHandler]:
    return dict.fromkeys(verbs.MOVE_WORDS, handler)


@cache
def rise_of_rome() -> OrderGrammar:
    """Leaders by name (3.2, read from the map file), leading (3.4), placing (3.3), sacking
    (6.1) and double units (2A/2F)."""
    variant = _variant("rise-of-rome-ii", (ARMY, FLEET, LEADER, DOUBLE_ARMY, DOUBLE_FLEET))
    rules = variant.map.rules
    names = {name: leader for leader in rules["leaders"].values() for name in (leader, *rules["leader_aliases"].get(leader, ()))}
    return OrderGrammar.for_variant(variant).extended(
        unit_verbs={"sack": sack, "sacks": sack, "lead": leads, "leads": leads, "starts": starts_in},
        named_units={name: _leader_from_context(leader) for name, leader in names.items()},
    )


def _leader_from_context(leader: str):
    """Where a leader stands, from the parse context (a rules module would ask the position;
    before placement, the home centre it starts in by default)."""
    return lambda context: None if context is None else context.get(leader)


def _fleets_in_rounds(unit: UnitRef, steps: tuple[Location, ...]) -> Order | None:
    """Roman Diplomacy 4: fleets move in several steps; an army's path is a convoy path."""
    if unit.type is not None and unit.type.mobility is Mobility.LAND:
        return None
    return MoveInRounds(unit, steps)


@cache
def roman_diplomacy() -> OrderGrammar:
    """Garrisons (G), barbarian armies (B, also the BUILD verb), fleets in several steps."""
    variant = _variant("roman-diplomacy-ii", (ARMY, FLEET, GARRISON, BARBARIAN))
    return OrderGrammar.for_variant(variant).extended(unit_verbs=_every_move_word(verbs.moves(_fleets_in_rounds)))


@cache
def eagles() -> OrderGrammar:
    """Attacks at sea: "attack" names a fleet (and its owner) where the core reads a move."""
    variant = _variant("eagles", (ARMY, FLEET), CALENDAR)
    return OrderGrammar.for_variant(variant).extended(unit_verbs={"attack": attacks, "attacks": attacks})


def _second_move_by_cavalry_and_fleets(unit: UnitRef, first: tuple[Location, ...], then: tuple[Location, ...]) -> Order | None:
    """Diplomacy of the Empire 3: only cavalry and fleets add a second move (a unit written
    without its type is left to the adjudicator)."""
    if unit.type is INFANTRY or unit.type is CATAPULT:
        return None
    return MoveThen(unit, first, then)


@cache
def diplomacy_of_the_empire() -> OrderGrammar:
    """Road paths, second moves, PAY, BUILD CITY / FORT, RAZE; Infantry, Cavalry (C, also the
    CONVOY verb), Catapults (K)."""
    variant = _variant("diplomacy-of-the-empire", (INFANTRY, CAVALRY, CATAPULT, FLEET))
    build = verbs.by_next_word(
        {"city": verbs.province_order(BuildCity), "fort": verbs.province_order(BuildFort)}, verbs.build_line
    )
    return OrderGrammar.for_variant(variant).extended(
        unit_verbs=_every_move_word(verbs.moves(MoveAlongPath, _second_move_by_cavalry_and_fleets)),
        line_verbs={**dict.fromkeys(verbs.BUILD_WORDS, build), "pay": pay, "raze": verbs.province_order(Raze)},
    )
