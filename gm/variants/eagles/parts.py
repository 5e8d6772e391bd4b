"""Eagles' parts beyond its rules (gm.adjudicator.parts), each made from the variant by the
catalog (gm.variants.catalog): its orders' words and forms, the bot's orders of its own kinds,
its layer on the board picture (barbarian land), and its set-up (the generals drawn, the allied
centres dealt: ``setup``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from gm.bots.plausible import OwnOrders
from gm.domain.position import Position
from gm.orders.forms import OrderForm
from gm.orders.grammar import GrammarExtension
from gm.variants.eagles import forms, orders, play
from gm.variants.eagles.rules import Eagles
from gm.variants.eagles.setup import EaglesSetup


def order_grammar(variant: Eagles) -> GrammarExtension:
    return orders.grammar


def order_forms(variant: Eagles) -> tuple[OrderForm, ...]:
    return forms.order_forms(variant)


def plausible_orders(variant: Eagles) -> OwnOrders:
    return partial(play.plausible_orders, variant)


def map_layers(variant: Eagles) -> Callable[[Position, Any], None]:
    """gm.render.layers.MAP_LAYERS (the pen is gm.render's, above the variants)."""
    barbarian = sorted(variant.barbarian)

    def draw(position: Position, pen: Any) -> None:
        for province in barbarian:
            pen.tint(province, "barbarian land", pattern="hatch", colour="#8b5a2b")

    return draw


def setup(variant: Eagles) -> EaglesSetup:
    return EaglesSetup(variant)
