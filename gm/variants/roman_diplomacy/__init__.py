"""Roman Diplomacy I and II (Pete Calcraft): the rules module (``rules``), its orders
(``orders``), its state in ``Position.extra`` (``state``) and the bot's orders (``play``)."""

from gm.variants.roman_diplomacy.rules import RomanDiplomacy, make_i, make_ii

__all__ = ["RomanDiplomacy", "make_i", "make_ii"]
