"""A retreat phase nobody can play is not a phase of the game: the unit with nowhere to go is
destroyed with the movement results, and the game goes on to the next phase with work."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from gm.domain.geography import Location
from gm.domain.position import Position
from gm.domain.units import ARMY, FLEET, Unit
from gm.games import orderbook
from gm.games.lifecycle import find_game
from gm.games.orderbook import note_orders_changed
from gm.store.codec import encode_position
from gm.store.models import OutboundMail, PhaseRecord
from tests.store.conftest import World, game_file


def test_a_game_skips_a_retreat_phase_in_which_no_unit_can_retreat(world: World) -> None:
    world.write_game("g", game_file())
    world.tick()
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        variant = world.services.variant_of(game)
        units = (Unit("France", ARMY, Location("NAF")), Unit("Italy", ARMY, Location("TUN")),
                 Unit("Italy", FLEET, Location("WES")), Unit("England", FLEET, Location("LON")))
        game.position = encode_position(Position(variant.calendar.parse("S1901M"), units, variant.default_centres(units)))
        for power, text in (("Italy", "A TUN - NAF\nF WES S A TUN - NAF"),):
            orderbook.submit(world.services, session, game, power, text, by="test")
        note_orders_changed(world.services, session, game)
    world.clock.advance(timedelta(hours=49))
    assert world.tick().processed == ["g S1901M"]
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.phase == "F1901M"  # not S1901R: nobody had a retreat to order
        assert "NAF" not in {u.location.province for u in world.services.position_of(game).units if u.power == "France"}
        record = session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game.id)).one()
        assert record.results["dislodged"] == [{"unit": "A NAF", "power": "France", "from": "TUN", "retreats": []}]
        results_mail = session.scalars(select(OutboundMail).where(OutboundMail.kind == "results",
                                                                  OutboundMail.to_address == "france@example.test")).one()
    assert "has nowhere to retreat and is" in results_mail.body
    assert "The next phase of g is Fall 1901 movement" in results_mail.body
