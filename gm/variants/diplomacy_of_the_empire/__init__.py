"""Diplomacy of the Empire (Zachary Jarvie): the rules module (``rules``), its orders
(``orders``), its state in ``Position.extra`` (``state``), its money (``economy``), its roads
(``roads``) and the bot's orders (``play``)."""

from gm.variants.diplomacy_of_the_empire.rules import DiplomacyOfTheEmpire, make

__all__ = ["DiplomacyOfTheEmpire", "make"]
