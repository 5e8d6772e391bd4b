"""The variant keeps legality verdicts between phases: a kept verdict must never be a stale one."""

from __future__ import annotations

from gm.adjudicator.legality import review_movement
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Convoy, Order, SupportHold, SupportMove, UnitRef
from gm.domain.position import Position, sorted_units
from gm.domain.units import ARMY, FLEET, Unit
from gm.variants.catalog import VariantCatalog


def fresh_variant() -> Variant:
    return VariantCatalog().get("standard")


def position(variant: Variant, *units: tuple[str, str, str]) -> Position:
    board = [Unit(power, ARMY if letter == "A" else FLEET, Location.parse(where)) for power, letter, where in units]
    return Position(variant.calendar.parse("S1901M"), sorted_units(board), {})


def verdict(variant: Variant, board: Position, power: str, order: Order) -> str | None:
    (ruling,) = review_movement(variant, board, [(power, order)])
    return ruling.illegal


def ref(letter: str, where: str) -> UnitRef:
    return UnitRef(Location.parse(where), ARMY if letter == "A" else FLEET)


def test_a_support_that_needs_a_convoy_is_judged_with_the_fleets_of_each_phase() -> None:
    variant = fresh_variant()
    support = SupportMove(ref("F", "ENG"), ref("A", "LON"), Location("BEL"))
    with_fleet = position(variant, ("England", "A", "LON"), ("England", "F", "ENG"), ("England", "F", "NTH"))
    without = position(variant, ("England", "A", "LON"), ("England", "F", "ENG"))
    assert verdict(variant, with_fleet, "England", support) is None
    assert verdict(variant, without, "England", support) == "the unit in London cannot reach Belgium"
    assert verdict(variant, with_fleet, "England", support) is None  # from the cache, still right
    assert verdict(fresh_variant(), without, "England", support) == "the unit in London cannot reach Belgium"


def test_a_convoy_is_judged_with_the_fleets_of_each_phase() -> None:
    variant = fresh_variant()
    convoy = Convoy(ref("F", "NTH"), ref("A", "YOR"), Location("NWY"))
    alone = position(variant, ("England", "A", "YOR"), ("England", "F", "NTH"))
    assert verdict(variant, alone, "England", convoy) is None
    # The same order with the helped unit gone, or a different unit in its place, is judged anew.
    assert verdict(variant, position(variant, ("England", "F", "NTH")), "England", convoy) == "there is no unit in Yorkshire"
    fleet_there = position(variant, ("England", "F", "YOR"), ("England", "F", "NTH"))
    assert verdict(variant, fleet_there, "England", convoy) == "a fleet cannot be convoyed"
    assert verdict(variant, alone, "England", convoy) is None


def test_a_support_is_judged_with_the_unit_it_helps_where_it_is_now() -> None:
    variant = fresh_variant()
    support = SupportHold(ref("A", "BUR"), ref("A", "PAR"))
    assert verdict(variant, position(variant, ("France", "A", "BUR"), ("France", "A", "PAR")), "France", support) is None
    assert verdict(variant, position(variant, ("France", "A", "BUR")), "France", support) == "there is no unit in Paris"
    # A fleet in Marseilles: the support's written unit type does not decide; the unit there does.
    marseilles = SupportHold(ref("A", "BUR"), ref("A", "MAR"))
    assert verdict(variant, position(variant, ("France", "A", "BUR"), ("France", "F", "MAR")), "France", marseilles) is None
