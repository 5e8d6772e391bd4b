"""The plausible player plays any variant through the ``Variant`` interface: units of any
mobility, several units in one province, unplayed powers' units left alone, and a variant's own
order kinds through ``OwnOrders``; on standard play it writes exactly what it always wrote."""

from __future__ import annotations

import hashlib
import random

import pytest

from gm.adjudicator.engine import adjudicate
from gm.adjudicator.variant import Variant
from gm.adjudicator.parts import Parts
from gm.bots.plausible import PLAUSIBLE_ORDERS, PlausiblePlayer, plausible_start
from gm.domain.geography import Location
from gm.domain.orders import Order, SupportMove, UnitRef, Waive
from gm.domain.outcomes import OrderResult, Reason
from gm.domain.phases import PhaseKind
from gm.domain.position import Position, sorted_units
from gm.domain.units import Unit
from gm.orders.grammar import ORDER_GRAMMAR
from gm.variants.catalog import VariantCatalog
from tests.engine.deltas import LEADER, Garrisons, Lead, LeadersAndBridges, Roads, Seas

DELTAS = {"leaders": LeadersAndBridges(), "garrisons": Garrisons(), "roads": Roads(), "seas": Seas()}


def random_position(variant: Variant, rng: random.Random, count: int = 40) -> Position:
    """Units of every type the variant has, of its powers and of ``Neutral``, stacked wherever
    the variant lets them share a province."""
    powers = list(variant.map.powers) or ["Latium", "Gallia", "Samnium"]
    powers.append("Neutral")
    provinces = sorted(variant.map.provinces)
    units: list[Unit] = []
    for _ in range(count * 5):
        if len(units) >= count:
            break
        unit_type = rng.choice(variant.unit_types)
        province = variant.map.provinces[rng.choice(provinces)]
        location = Location(province.id, rng.choice(province.coasts)) if unit_type.needs_coast and province.coasts \
            else Location(province.id)
        if not variant.can_stand(unit_type, location):
            continue
        unit = Unit(rng.choice(powers), unit_type, location)
        here = [u for u in units if u.location.province == province.id]
        if variant.stack_problem([*here, unit]) is None:
            units.append(unit)
    phase = variant.calendar.first_phase(variant.first_year)
    centres = {u.location.province: u.power for u in units
               if u.location.province in variant.map.supply_centres and u.power != "Neutral"}
    return Position(phase, sorted_units(units), centres)


def stacked(position: Position) -> int:
    provinces = [u.location.province for u in position.units]
    return len(provinces) - len(set(provinces))


@pytest.mark.parametrize("name", sorted(DELTAS))
def test_every_played_unit_gets_one_legal_order_and_unplayed_units_none(name: str) -> None:
    variant = DELTAS[name]
    seen_stacks = 0
    for seed in range(25):
        position = random_position(variant, random.Random(seed))
        seen_stacks += stacked(position)
        orders = PlausiblePlayer(variant, random.Random(seed)).orders(position)
        played = [u for u in position.units if u.power != "Neutral"]
        assert [p for p, _ in orders] == [u.power for u in played]
        assert [o.unit for _, o in orders] == [(u.location, u.type) for u in played]
        report = adjudicate(variant, position, orders)
        assert not [r for r in report.results if r.reason is Reason.SUPERSEDED]
        assert not [(r.text, r.detail) for r in report.results if not known_slip(r)], f"seed {seed}"
    if variant.stacks:
        assert seen_stacks, "the positions should hold units sharing a province"


def known_slip(result: OrderResult) -> bool:
    """Whether a result is fine, or one of the slips the bot has always made in standard play
    (kept, so that its standard games stay the same): a WAIVE after the builds were used, and
    a support of a convoyed move whose fleet was then told to support instead."""
    if result.reason is not Reason.ILLEGAL:
        return True
    order = result.order
    return isinstance(order, Waive) or (isinstance(order, SupportMove) and "cannot reach" in result.detail)


@pytest.mark.parametrize("name", sorted(DELTAS))
def test_whole_games_of_a_variant_go_on_through_every_phase_kind(name: str) -> None:
    variant = DELTAS[name]
    kinds = set()
    for seed in range(4):
        player = PlausiblePlayer(variant, random.Random(seed))
        position = random_position(variant, random.Random(seed))
        for _ in range(12):
            kinds.add(position.phase.kind)
            report = adjudicate(variant, position, player.orders(position), seed=f"bot {seed}")
            assert all(known_slip(r) for r in report.results), position.phase
            position = report.next
    # a board that lists no powers (players join during the game) has no adjustments by default
    assert kinds == (set(PhaseKind) if variant.map.powers else {PhaseKind.MOVEMENT, PhaseKind.RETREATS})


class LeadingLeaders(LeadersAndBridges):
    """A variant's part: each leader leads the unit it stands with."""

    def __init__(self) -> None:
        super().__init__()
        self.parts = Parts({ORDER_GRAMMAR.name: lambda: self.extend_order_grammar,
                            PLAUSIBLE_ORDERS.name: lambda: self.plausible_orders})

    def plausible_orders(self, position: Position, orders: list[tuple[str, Order]],
                         rng: random.Random) -> list[tuple[str, Order]]:
        result = []
        for power, order in orders:
            unit = order.unit
            if unit is not None and unit.type is LEADER and rng.random() < 0.9:
                led = next((u for u in position.units_in(unit.location.province)
                            if u.power == power and u.type is not LEADER), None)
                if led is not None:
                    order = Lead(unit, UnitRef(led.location, led.type))
            result.append((power, order))
        return result


def test_a_variant_writes_its_own_orders_through_the_hook() -> None:
    variant = LeadingLeaders()
    assert variant.parts.get(PLAUSIBLE_ORDERS) is not None and DELTAS["leaders"].parts.get(PLAUSIBLE_ORDERS) is None
    start = variant.initial_position()
    leaders = [Unit(u.power, LEADER, u.location.whole) for u in start.units if u.type.letter == "A"]
    position = start.replace(units=sorted_units([*start.units, *leaders]))
    orders = PlausiblePlayer(variant, random.Random(3)).orders(position)
    leads = [o for _, o in orders if isinstance(o, Lead)]
    assert leads
    report = adjudicate(variant, position, orders)
    assert all(r.succeeded for r in report.results if isinstance(r.order, Lead))
    only = PlausiblePlayer(variant, random.Random(3)).orders(position, powers=["Rome"])
    assert only and {p for p, _ in only} == {"Rome"}


def _fingerprint(name: str, games: int) -> str:
    variant = VariantCatalog().get(name)
    digest = hashlib.sha256()
    for game in range(games):
        player = PlausiblePlayer(variant, random.Random(game))
        position = variant.initial_position()
        for _ in range(40):
            orders = player.orders(position)
            digest.update(repr([(p, str(o)) for p, o in orders]).encode())
            report = adjudicate(variant, position, orders)
            if report.winner:
                break
            position = report.next
    return digest.hexdigest()[:16]


def test_standard_play_is_what_it_always_was() -> None:
    # bench/adjudicate.py's standard figures and tests/test_engine_properties.py replay these
    # games: the same seed must give the same orders (recorded before the bot was generalised).
    assert _fingerprint("standard", 3) == STANDARD_FINGERPRINT


STANDARD_FINGERPRINT = "7c534d6693697c5d"


def test_a_variant_whose_players_found_their_powers_starts_with_six_founded() -> None:
    variant = VariantCatalog().get("roman-diplomacy-i")
    position = plausible_start(variant, random.Random(4))
    founded = variant.in_play(position)
    assert len(founded) == 6 and {position.centres[c] for c in position.centres} == founded
    assert plausible_start(variant, random.Random(4)) == position  # the seed decides
    orders = PlausiblePlayer(variant, random.Random(4)).orders(position)
    assert {p for p, _ in orders} == founded  # every founded power builds in the opening phase
    standard = VariantCatalog().get("standard")
    assert plausible_start(standard, random.Random(4)) == standard.initial_position()
