"""Diplomacy of the Empire's parts beyond its rules (gm.adjudicator.parts), each made from the
variant by the catalog (gm.variants.catalog): its orders' words and forms, the bot's orders of
its own kinds, and its layers on the board picture."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from gm.bots.plausible import OwnOrders
from gm.domain.position import Position
from gm.orders.forms import OrderForm
from gm.orders.grammar import GrammarExtension
from gm.variants.diplomacy_of_the_empire import forms, orders, picture, play
from gm.variants.diplomacy_of_the_empire.rules import DiplomacyOfTheEmpire


def order_grammar(variant: DiplomacyOfTheEmpire) -> GrammarExtension:
    return orders.grammar


def order_forms(variant: DiplomacyOfTheEmpire) -> tuple[OrderForm, ...]:
    return forms.order_forms(variant)


def plausible_orders(variant: DiplomacyOfTheEmpire) -> OwnOrders:
    return partial(play.plausible_orders, variant)


def map_layers(variant: DiplomacyOfTheEmpire) -> Callable[[Position, Any], None]:
    """gm.render.layers.MAP_LAYERS (the pen is gm.render's, above the variants)."""
    return picture.map_layers
