"""Roman Diplomacy's parts beyond its rules (gm.adjudicator.parts), each made from the variant
by the catalog (gm.variants.catalog): its orders' words and forms, the bot's orders of its own
kinds, its layers on the board picture (barbarian land, the Imperial Cities), and its set-up:
empires founded by joining (``joining``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from gm.bots.plausible import OwnOrders
from gm.domain.position import Position
from gm.orders.forms import OrderForm
from gm.orders.grammar import GrammarExtension
from gm.variants.roman_diplomacy import forms, orders, play
from gm.variants.roman_diplomacy.joining import RomanSetup
from gm.variants.roman_diplomacy.rules import RomanDiplomacy
from gm.variants.roman_diplomacy.state import RomanState


def order_grammar(variant: RomanDiplomacy) -> GrammarExtension:
    return partial(orders.grammar, seas=variant.seas)


def order_forms(variant: RomanDiplomacy) -> tuple[OrderForm, ...]:
    return forms.order_forms(variant)


def plausible_orders(variant: RomanDiplomacy) -> OwnOrders:
    return partial(play.plausible_orders, variant)


def map_layers(variant: RomanDiplomacy) -> Callable[[Position, Any], None]:
    """gm.render.layers.MAP_LAYERS (the pen is gm.render's, above the variants)."""
    return _map_layers


def _map_layers(position: Position, pen: Any) -> None:
    state = RomanState.of(position)
    for province in sorted(state.barbarians):
        pen.tint(province, "barbarian land", pattern="hatch", colour="#8b5a2b")
    for empire, city in sorted(state.empires.items()):
        if position.centres.get(city) == empire:
            pen.marker(city, "castle", "Imperial City", power=empire)


def setup(variant: RomanDiplomacy) -> RomanSetup:
    return RomanSetup(variant)
