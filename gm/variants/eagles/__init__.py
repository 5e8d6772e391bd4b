"""Eagles (Ed Greenwood): the rules module (``rules``), its orders (``orders``), its state in
``Position.extra`` (``state``) and the bot's orders (``play``)."""

from gm.variants.eagles.rules import Eagles, make

__all__ = ["Eagles", "make"]
