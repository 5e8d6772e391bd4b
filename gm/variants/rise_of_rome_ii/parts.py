"""Rise of Rome II's parts beyond its rules (gm.adjudicator.parts), each made from the variant
by the catalog (gm.variants.catalog): its orders' words and forms, its leaders' names and those
waiting to come onto the board, the bot's orders of its own kinds, and its layers on the board
picture (build areas, sacked centres, rebellions), and its set-up (a game's choice of when
rebellion comes)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from gm.bots.plausible import OwnOrders
from gm.domain.orders import Order
from gm.domain.position import Position
from gm.domain.units import Unit
from gm.orders.forms import OrderForm
from gm.orders.grammar import GrammarExtension
from gm.variants.rise_of_rome_ii import forms, leaders, orders, play
from gm.variants.rise_of_rome_ii.rules import RiseOfRome
from gm.variants.rise_of_rome_ii.state import REBELLION_AFTER, RomeState
from gm.variants.rise_of_rome_ii.units import LEADER
from gm.variants.setup import Setup


def order_grammar(variant: RiseOfRome) -> GrammarExtension:
    names = {}
    for power, leader in variant.leaders.items():
        for name in (leader, *variant.map.rules.get("leader_aliases", {}).get(leader, ())):
            names[name] = power
    return partial(orders.grammar, leader=LEADER, where_is=partial(leaders.leader_at, variant), names=names)


def order_forms(variant: RiseOfRome) -> tuple[OrderForm, ...]:
    return forms.order_forms(variant, LEADER)


def unit_names(variant: RiseOfRome) -> Callable[[Unit], str | None]:
    return partial(leaders.unit_name, variant)


def off_board(variant: RiseOfRome) -> Callable[[Position], list[Unit]]:
    return leaders.units_off_board


def plausible_orders(variant: RiseOfRome) -> OwnOrders:
    barbarians = variant.map.powers[variant.barbarians].home
    homes = {power: variant.map.powers[power].home for power in variant.leaders}

    def own(position: Position, orders_: list[tuple[str, Order]], rng: random.Random) -> list[tuple[str, Order]]:
        state = RomeState.of(position)
        sackable = frozenset(variant.map.supply_centres - set(state.sacked) - set(barbarians))
        return play.plausible_orders(position, orders_, rng, leader=LEADER, unplaced=state.unplaced,
                                     homes=homes, sackable=sackable)

    return own


def map_layers(variant: RiseOfRome) -> Callable[[Position, Any], None]:
    """gm.render.layers.MAP_LAYERS (the pen is gm.render's, above the variants)."""
    areas, barbarians = sorted(variant.build_areas), variant.barbarians

    def draw(position: Position, pen: Any) -> None:
        for area in areas:
            pen.tint(area, "Barbarian build area: only Barbarians enter", power=barbarians)
        state = RomeState.of(position)
        for centre in state.sacked:
            pen.marker(centre, "cross", "sacked: a supply centre no more")
        for centre in sorted(state.rebellion):
            pen.marker(centre, "ring", "Barbarian centre left empty: rebels if empty again after Autumn",
                       power=barbarians)

    return draw


def setup(variant: RiseOfRome) -> RomeSetup:
    return RomeSetup(variant)


class RomeSetup(Setup):
    def option_problems(self, chosen: Mapping[str, object]) -> list[tuple[str, str]]:
        problems = super().option_problems(chosen)
        if not problems and chosen.get("rebellion_after", REBELLION_AFTER) not in (1, 2):
            problems.append(("rebellion_after", "rebellion_after is 2 (two empty Autumns in a row) or 1 (one)"))
        return problems
