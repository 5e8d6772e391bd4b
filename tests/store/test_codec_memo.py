"""The codec remembers the units it decoded per variant: the same units, bounded, errors kept out."""

from __future__ import annotations

import pytest

from gm.domain.geography import Location
from gm.domain.units import Unit
from gm.store import codec
from gm.variants.catalog import VariantCatalog


def test_decoded_units_are_remembered_per_variant_and_bounded(monkeypatch) -> None:
    monkeypatch.setattr(codec, "_MEMO_LIMIT", 3)
    variant = VariantCatalog().get("standard")
    army = variant.unit_type("A")
    fleet = variant.unit_type("F")
    assert codec.decode_unit(variant, "France", "A PAR") == Unit("France", army, Location("PAR"))
    assert codec.decode_unit(variant, "France", "A PAR") is codec.decode_unit(variant, "France", "A PAR")
    assert codec.decode_unit(variant, "Russia", "F STP/NC") == Unit("Russia", fleet, Location("STP", "NC"))
    assert codec.decode_unit(variant, "Germany", "A PAR").power == "Germany"
    for text in ("A MAR", "A BUR", "A PIC"):
        codec.decode_unit(variant, "France", text)
    assert list(codec._UNITS_MET(variant)) == [("France", "A MAR"), ("France", "A BUR"), ("France", "A PIC")]
    with pytest.raises(ValueError, match="unknown unit type"):
        codec.decode_unit(variant, "France", "X PAR")
    assert ("France", "X PAR") not in codec._UNITS_MET(variant)
    assert codec._UNITS_MET(VariantCatalog().get("standard")) == {}  # a new variant starts empty
