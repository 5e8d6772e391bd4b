"""A variant remembers what it counted of the last position it judged (the provinces its units
occupy, each power's centres and units) and what a reader counted for it (gm.interchange): one
variant judging one position after another judges each as a new variant would."""

from __future__ import annotations

from gm.adjudicator.engine import adjudicate
from gm.domain.geography import Location
from gm.domain.orders import Build, UnitRef
from gm.domain.position import Position
from gm.domain.units import ARMY, FLEET, Unit
from gm.interchange import adjudicate_json
from gm.variants.catalog import VariantCatalog

FRENCH = (Unit("France", ARMY, Location("BEL")), Unit("France", FLEET, Location("MAO")))
GERMAN_IN_PARIS = Unit("Germany", ARMY, Location("PAR"))
OWNED = {"PAR": "France", "MAR": "France", "BRE": "France", "BEL": "France", "MUN": "Germany"}


def winter(units: tuple[Unit, ...], centres: dict[str, str]) -> Position:
    return Position(VariantCatalog().get("standard").calendar.parse("W1901A"), units, centres)


def judged(catalog: VariantCatalog, position: Position) -> list[tuple[str, bool, str]]:
    variant = catalog.get("standard")
    builds = [("France", Build(UnitRef(Location(p), ARMY))) for p in ("PAR", "MAR", "BRE")]
    report = adjudicate(variant, position, builds)
    return [(str(r.order), r.succeeded, r.detail) for r in report.results]


def test_one_variant_judges_each_position_as_a_new_one_would() -> None:
    free = winter(FRENCH, OWNED)  # four centres, two units: two builds, Paris free
    taken = winter((*FRENCH, GERMAN_IN_PARIS), OWNED)  # Paris occupied
    fewer = winter(FRENCH, {**OWNED, "BEL": "Germany"})  # the same units, three centres: one build
    shared = VariantCatalog()
    for position in (free, taken, free, fewer, free, taken, fewer):
        assert judged(shared, position) == judged(VariantCatalog(), position)
    assert judged(shared, taken)[0] == ("BUILD A PAR", False, "Paris is not a free supply centre where France may build")
    assert [ok for _, ok, _ in judged(shared, fewer)] == [True, False, False]


def document(units: dict[str, list[str]], centres: dict[str, list[str]]) -> dict:
    return {"variant": "standard", "phase": "W1901A", "units": units, "centers": centres,
            "orders": {"France": ["BUILD A PAR", "BUILD A MAR", "BUILD A BRE"]}}


def test_what_the_reader_counted_serves_its_own_position_only() -> None:
    french = {"France": ["A BEL", "F MAO"]}
    owned = {"France": ["BEL", "BRE", "MAR", "PAR"], "Germany": ["MUN"]}
    documents = [
        document(french, owned),
        document({**french, "Germany": ["A PAR"]}, owned),
        document(french, {"France": ["BRE", "MAR", "PAR"], "Germany": ["BEL", "MUN"]}),
        document(french, {"Germany": ["MUN"], "France": ["PAR", "MAR", "BRE", "BEL"]}),  # counted, not kept as written
    ]
    shared = VariantCatalog()
    for doc in documents + documents[::-1] + documents:
        assert adjudicate_json(doc, shared) == adjudicate_json(doc, VariantCatalog())
