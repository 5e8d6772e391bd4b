"""Rise of Rome II (Stephen Agar): the rules module (``rules``), its orders (``orders``) and its
state in ``Position.extra`` (``state``)."""

from gm.variants.rise_of_rome_ii.rules import RiseOfRome, make

__all__ = ["RiseOfRome", "make"]
