from __future__ import annotations

import pytest

from gm.orders import OrderGrammar
from gm.variants.catalog import VariantCatalog


@pytest.fixture(scope="session")
def variant():
    return VariantCatalog().get("standard")


@pytest.fixture(scope="session")
def grammar(variant) -> OrderGrammar:
    return OrderGrammar.for_variant(variant)
