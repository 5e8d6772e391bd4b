"""Positions as the store keeps them: several units in one province, pending second moves and
variant state come back exactly, through the codec alone and through SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from gm.domain.geography import Location
from gm.domain.position import Dislodgement, PendingMove, Position
from gm.domain.units import ARMY, FLEET, Unit
from gm.store.codec import decode_position, encode_position
from gm.store.database import Database
from gm.store.models import Game, PhaseRecord
from gm.variants.catalog import VariantCatalog

VARIANT = VariantCatalog().get("standard")
POWERS = sorted(VARIANT.map.powers) + ["Neutral"]
PLACES = sorted(
    [(ARMY, Location(p.id)) for p in VARIANT.map.provinces.values() if p.holds_armies]
    + [(FLEET, Location(p.id, c)) for p in VARIANT.map.provinces.values() if p.holds_fleets for c in (p.coasts or (None,))],
    key=lambda place: (place[0].letter, str(place[1])),
)


def _same(decoded: Position, original: Position) -> None:
    """Equal in everything; units as a multiset (the store keeps them in a canonical order)."""
    assert Counter(decoded.units) == Counter(original.units)
    assert (decoded.phase, dict(decoded.centres), decoded.dislodged, decoded.second_moves) == \
           (original.phase, dict(original.centres), original.dislodged, original.second_moves)
    assert dict(decoded.extra) == dict(original.extra)


def stacked_position() -> Position:
    """Two alike French fleets and an English one in the Mid-Atlantic, two armies in Paris,
    a dislodged stack, a second move pending, and state of every JSON shape."""
    fleet = Unit("France", FLEET, Location("MAO"))
    return Position(
        VARIANT.calendar.parse("F1901R"),
        (fleet, fleet, Unit("England", FLEET, Location("MAO")), Unit("France", ARMY, Location("PAR")),
         Unit("Neutral", ARMY, Location("PAR")), Unit("Italy", ARMY, Location("BUR"))),
        {"PAR": "France", "BRE": "France", "LON": "England"},
        dislodged=(Dislodgement(Unit("Germany", ARMY, Location("MUN")), "BUR", (Location("KIE"), Location("BER"))),
                   Dislodgement(Unit("Germany", ARMY, Location("MUN")), "BUR", ())),
        extra={"treasury": {"France": 12, "England": 0.5}, "cities": [{"at": "PAR", "walls": True}, {"at": "LON"}],
               "seed_hash": "ab" * 32, "motto": "½ über alles", "nothing": None, "empty": {}, "nested": [[1, [2, {"x": -3.25}]], []]},
        second_moves=(PendingMove(Unit("Italy", ARMY, Location("BUR")), (Location("PIC"), Location("BEL"))),),
    )


def test_a_stacked_position_round_trips_through_the_codec() -> None:
    original = stacked_position()
    encoded = encode_position(original)
    assert encoded["units"]["France"] == ["A PAR", "F MAO", "F MAO"]  # both fleets kept
    assert len(encoded["dislodged"]) == 2 and encoded["second_moves"] == [
        {"power": "Italy", "unit": "A BUR", "path": ["PIC", "BEL"]}]
    decoded = decode_position(VARIANT, json.loads(json.dumps(encoded)))
    _same(decoded, original)
    assert encode_position(decoded) == encoded


def test_a_stacked_position_round_trips_through_the_store(database_url: str) -> None:
    original = stacked_position()
    now = datetime(2026, 1, 1, tzinfo=UTC)
    db = Database(database_url)
    try:
        with db.unit_of_work() as session:
            game = Game(name="g", variant="standard", settings={}, created_at=now, position=encode_position(original),
                        phase="F1901R", phase_seq=3)
            session.add(game)
            session.flush()
            session.add(PhaseRecord(game_id=game.id, seq=2, phase="F1901M", position_before=encode_position(original),
                                    orders={}, results={}, position_after=encode_position(original), processed_at=now))
        with db.sessions() as session:
            game = session.scalar(select(Game))
            record = session.scalar(select(PhaseRecord))
            for stored in (game.position, record.position_before, record.position_after):
                assert stored == encode_position(original)
                _same(decode_position(VARIANT, stored), original)
    finally:
        db.dispose()


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def stacked_positions(draw: st.DrawFn) -> Position:
    """Any units anywhere, several to a province, dislodged ones, second moves, any state."""
    def some_unit() -> Unit:
        unit_type, location = draw(st.sampled_from(PLACES))
        return Unit(draw(st.sampled_from(POWERS)), unit_type, location)

    units = [some_unit() for _ in range(draw(st.integers(0, 12)))]
    units += [units[i] for i in draw(st.lists(st.integers(0, len(units) - 1), max_size=4))] if units else []
    dislodged = tuple(
        Dislodgement(some_unit(), draw(st.none() | st.sampled_from(sorted(VARIANT.map.provinces))),
                     tuple(loc for _, loc in draw(st.lists(st.sampled_from(PLACES), max_size=3))))
        for _ in range(draw(st.integers(0, 3)))
    )
    second_moves = tuple(
        PendingMove(unit, tuple(loc for _, loc in draw(st.lists(st.sampled_from(PLACES), min_size=1, max_size=3))))
        for unit in draw(st.lists(st.sampled_from(units), max_size=3) if units else st.just([]))
    )
    centres = draw(st.dictionaries(st.sampled_from(sorted(VARIANT.map.supply_centres)), st.sampled_from(POWERS)))
    extra: dict[str, Any] = draw(st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=5))
    phase = VARIANT.calendar.parse(draw(st.sampled_from(["S1901M", "F1901R", "W1901A", "S1902R"])))
    return Position(phase, tuple(draw(st.permutations(units))), centres, dislodged, extra, second_moves)


@settings(max_examples=300, deadline=None)
@given(stacked_positions())
def test_the_codec_round_trips_any_stacked_position_with_state(position: Position) -> None:
    encoded = encode_position(position)
    decoded = decode_position(VARIANT, json.loads(json.dumps(encoded)))  # as a JSON column gives it back
    _same(decoded, position)
    assert encode_position(decoded) == encoded
