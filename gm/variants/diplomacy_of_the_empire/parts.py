"""Diplomacy of the Empire's parts beyond its rules (gm.adjudicator.parts), each made from the
variant by the catalog (gm.variants.catalog): its orders' words and forms, the bot's orders of
its own kinds, its layers on the board picture, its words for a refused build (money, cities,
roads) and for its state (treasuries, prices, what an order set costs), and its set-up (six
players or seven)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.refusals import BuildRefusals
from gm.adjudicator.variant import Adjustment
from gm.bots.plausible import OwnOrders
from gm.domain.orders import Order
from gm.domain.position import Position
from gm.orders.forms import OrderForm
from gm.orders.grammar import GrammarExtension
from gm.variants.diplomacy_of_the_empire import forms, orders, picture, play, works
from gm.variants.diplomacy_of_the_empire import words as wording
from gm.variants.diplomacy_of_the_empire.rules import DiplomacyOfTheEmpire
from gm.variants.setup import Setup


def order_grammar(variant: DiplomacyOfTheEmpire) -> GrammarExtension:
    return orders.grammar


def order_forms(variant: DiplomacyOfTheEmpire) -> tuple[OrderForm, ...]:
    return forms.order_forms(variant)


def plausible_orders(variant: DiplomacyOfTheEmpire) -> OwnOrders:
    return partial(play.plausible_orders, variant)


def map_layers(variant: DiplomacyOfTheEmpire) -> Callable[[Position, Any], None]:
    """gm.render.layers.MAP_LAYERS (the pen is gm.render's, above the variants)."""
    return picture.map_layers


def build_refusals(variant: DiplomacyOfTheEmpire) -> BuildRefusals:
    return EmpireRefusals(variant)


def words(variant: DiplomacyOfTheEmpire) -> EmpireWords:
    """gm.reports.words.WORDS (filled without importing it: gm.reports sits above the variants)."""
    return EmpireWords(variant)


class EmpireRefusals(BuildRefusals):
    """7, 2: builds bounded by money, in cities joined by roads to the capital (``works``)."""

    def __init__(self, variant: DiplomacyOfTheEmpire):
        super().__init__(variant)
        self.empire = variant

    def builds_refusal(self, position: Position, power: str, count: int) -> str:
        return works.builds_refusal(self.empire, position, power, count)

    def build_site_refusal(self, position: Position, power: str, province: str) -> str:
        return works.build_site_refusal(self.empire, position, power, province)


class EmpireWords:
    """The treasuries and prices before a build phase, and what a player's builds cost (``wording``)."""

    def __init__(self, variant: DiplomacyOfTheEmpire):
        self.empire = variant

    def shown_adjustments(self, position: Position) -> list[Adjustment]:
        return wording.shown_adjustments(self.empire, position)

    def state_report(self, position: Position) -> list[tuple[str, list[str]]]:
        return wording.state_report(self.empire, position)

    def orders_note(self, position: Position, power: str, orders: Sequence[Order]) -> list[str]:
        return wording.orders_note(self.empire, position, power, orders)


def setup(variant: DiplomacyOfTheEmpire) -> EmpireSetup:
    return EmpireSetup(variant)


class EmpireSetup(Setup):
    """1: six or seven players; in a game of six, Macedonia is left out."""

    def __init__(self, variant: DiplomacyOfTheEmpire):
        super().__init__(variant)
        self.empire = variant

    def player_counts(self) -> tuple[int, int]:
        powers = len(self.empire.map.powers)
        return powers - len(self.empire.left_out_of_six), powers

    def powers_in_play(self, count: int, log: PhaseLog) -> list[str]:
        if count < len(self.empire.map.powers):
            return [p for p in self.empire.map.powers if p not in self.empire.left_out_of_six]
        return list(self.empire.map.powers)

    def opening(self, powers: Sequence[str], log: PhaseLog, requests: Mapping[str, str] | None = None) -> Position:
        return self.empire.start_of(tuple(powers))
